#include "storage/parquet/column_reader.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "storage/parquet/column_page_state.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/definition_levels.h"
#include "storage/parquet/nested_reader.h"
#include "storage/parquet/value_conversion.h"

namespace shears::parquet {

namespace {
// Pages larger than this are refused rather than allocated: no real writer produces them, and a
// hostile header must not make us allocate gigabytes.
constexpr int64_t kMaxPageSize = 1LL << 30;

}  // namespace

void ScanCounters::Add(const ScanCounters& other) {
  bytes_read += other.bytes_read;
  row_groups_total += other.row_groups_total;
  row_groups_read += other.row_groups_read;
  row_groups_skipped += other.row_groups_skipped;
  pages_read += other.pages_read;
  pages_skipped += other.pages_skipped;
  rows_read += other.rows_read;
  dictionaries_reused += other.dictionaries_reused;
}

ColumnChunkReader::ColumnChunkReader(const ParquetFile& file, int row_group, int column,
                                     ChunkBytes bytes, ScanCounters* counters,
                                     std::vector<PageSpan> pages)
    : ColumnChunkReader(file, row_group, file.columns()[static_cast<size_t>(column)],
                        std::move(bytes), counters, std::move(pages)) {}

ColumnChunkReader::ColumnChunkReader(const ParquetFile& file, int row_group,
                                     const ColumnDescriptor& descriptor, ChunkBytes bytes,
                                     ScanCounters* counters, std::vector<PageSpan> pages)
    : file_(file),
      column_(descriptor),
      row_group_(row_group),
      codec_(file.metadata()
                 .row_groups.at(static_cast<size_t>(row_group))
                 .columns.at(static_cast<size_t>(descriptor.leaf_index))
                 .meta_data.codec),
      bytes_(std::move(bytes)),
      counters_(counters),
      pages_(std::move(pages)) {
  if (column_.nested) {
    nested_ = std::make_unique<NestedColumnReader>(file, row_group, column_, bytes_, counters);
  } else if (column_.nested_leaf) {
    leaf_entries_ = true;
    list_type_ = LogicalType::List(column_.type);
    list_writer_.emplace(column_.type);
  } else if (column_.max_repetition_level > 0) {
    if (!column_.type.IsList()) Fail("a repeated column that is not a LIST");
    list_type_ = column_.type;
    column_.type = list_type_.element();
    list_writer_.emplace(column_.type);
  }
}

ColumnChunkReader::~ColumnChunkReader() = default;

void ColumnChunkReader::Fail(const std::string& what) const {
  throw CorruptFileError("'{}': column '{}' row group {}: {}", file_.path(), column_.name,
                         row_group_, what);
}

std::shared_ptr<uint8_t[]> ColumnChunkReader::Decompress(const uint8_t* body, size_t compressed,
                                                         size_t uncompressed) {
  // Not zero-filled: every codec writes all `uncompressed` bytes or throws, and zeroing a page
  // first costs a pass over it (and fresh pages from the kernel) per page read.
  auto out = std::make_shared_for_overwrite<uint8_t[]>(std::max<size_t>(uncompressed, 1));
  parquet::Decompress(codec_, body, compressed, out.get(), uncompressed);
  return out;
}

bool ColumnChunkReader::LoadNextDataPage(int64_t skip_before) {
  const uint8_t* chunk = bytes_.buffer.get() + bytes_.offset;
  while (position_ < bytes_.size) {
    format::PageHeader header;
    uint32_t header_size =
        DeserializeThrift(chunk + position_, bytes_.size - position_, &header, "a page header");
    position_ += header_size;
    try {
      CheckEnum(header.type, 0, 3, "page type");
      if (header.__isset.data_page_header) {
        CheckEnum(header.data_page_header.encoding, 0, 9, "page encoding");
        CheckEnum(header.data_page_header.definition_level_encoding, 0, 9, "level encoding");
        CheckEnum(header.data_page_header.repetition_level_encoding, 0, 9, "level encoding");
      }
      if (header.__isset.data_page_header_v2) {
        CheckEnum(header.data_page_header_v2.encoding, 0, 9, "page encoding");
      }
      if (header.__isset.dictionary_page_header) {
        CheckEnum(header.dictionary_page_header.encoding, 0, 9, "dictionary encoding");
      }
    } catch (const CorruptFileError& e) {
      Fail(e.what());
    }
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0 ||
        header.uncompressed_page_size > kMaxPageSize) {
      Fail(fmt::format("page header has invalid sizes (compressed {}, uncompressed {})",
                       header.compressed_page_size, header.uncompressed_page_size));
    }
    if (static_cast<size_t>(header.compressed_page_size) > bytes_.size - position_) {
      Fail(fmt::format("page of {} bytes runs past the end of the column chunk ({} bytes left)",
                       header.compressed_page_size, bytes_.size - position_));
    }
    const uint8_t* body = chunk + position_;
    position_ += static_cast<size_t>(header.compressed_page_size);
    if (header.__isset.crc) {
      uint32_t actual = Crc32(body, static_cast<size_t>(header.compressed_page_size));
      if (actual != static_cast<uint32_t>(header.crc)) {
        Fail(fmt::format("page checksum mismatch (stored {:08x}, computed {:08x})",
                         static_cast<uint32_t>(header.crc), actual));
      }
    }
    switch (header.type) {
      case format::PageType::DICTIONARY_PAGE:
        ReadDictionaryPage(header, body);
        continue;
      case format::PageType::DATA_PAGE:
      case format::PageType::DATA_PAGE_V2: {
        // Flat columns: one level entry per row. A LIST column's page v1 does not say how
        // many rows it holds (nor that it starts at a row); a page v2 does, and starts at one.
        const bool list = list_type_.valid();
        int64_t rows = -1;
        if (header.type == format::PageType::DATA_PAGE && header.__isset.data_page_header) {
          if (!list) rows = header.data_page_header.num_values;
        } else if (header.type == format::PageType::DATA_PAGE_V2 &&
                   header.__isset.data_page_header_v2) {
          rows = list ? header.data_page_header_v2.num_rows : header.data_page_header_v2.num_values;
        }
        if (!pages_.empty()) {
          // Only the chosen pages are here: each must hold the rows the offset index says
          // (which also starts each at a row).
          if (next_page_ >= pages_.size()) Fail("more data pages than the offset index lists");
          const PageSpan& span = pages_[next_page_++];
          if (list && rows < 0) rows = span.rows;
          if (rows != span.rows) {
            Fail(fmt::format("data page holds {} rows, the offset index says {}", rows, span.rows));
          }
          if (span.first_row < row_) Fail("the offset index lists pages out of order");
          row_ = span.first_row;
        }
        if (rows >= 0 && row_ + rows <= skip_before) {
          row_ += rows;  // nothing of it is needed: not even decompressed
          counters_->pages_skipped++;
          continue;
        }
        counters_->pages_read++;
        page_end_row_ = rows >= 0 ? row_ + rows : -1;
        StartDataPage(header, body);
        if (page_->num_values == 0) continue;
        return true;
      }
      default:
        continue;  // index pages and unknown kinds carry nothing we read
    }
  }
  return false;
}

void ColumnChunkReader::ReadDictionaryPage(const format::PageHeader& header, const uint8_t* body) {
  if (!header.__isset.dictionary_page_header) Fail("dictionary page without its header");
  const auto& dict_header = header.dictionary_page_header;
  if (dict_header.num_values < 0) {
    Fail(fmt::format("dictionary page declares {} values", dict_header.num_values));
  }
  if (dict_header.encoding != format::Encoding::PLAIN &&
      dict_header.encoding != format::Encoding::PLAIN_DICTIONARY) {
    Fail("dictionary page is not PLAIN encoded");
  }
  if (column_.physical_type == format::Type::BOOLEAN)
    Fail("BOOLEAN columns cannot have a dictionary");
  std::shared_ptr<const void> owner;
  const uint8_t* data = body;
  size_t size = static_cast<size_t>(header.compressed_page_size);
  if (codec_ != format::CompressionCodec::UNCOMPRESSED) {
    size = static_cast<size_t>(header.uncompressed_page_size);
    auto decompressed = Decompress(body, static_cast<size_t>(header.compressed_page_size), size);
    data = decompressed.get();
    owner = decompressed;
  } else {
    owner = bytes_.buffer;
  }
  const size_t count = static_cast<size_t>(dict_header.num_values);
  const size_t width = PhysicalValueSize(column_.physical_type);
  // Every value takes at least one byte (four for BYTE_ARRAY lengths) except in pathological
  // cases; this bounds the allocation by the page size.
  if (count > size + 1 &&
      !(column_.physical_type == format::Type::FIXED_LEN_BYTE_ARRAY && column_.type_length == 0)) {
    Fail(fmt::format("dictionary declares {} values in {} bytes", count, size));
  }
  scratch_.resize(std::max<size_t>(count, 1) * width);
  switch (column_.physical_type) {
    case format::Type::BYTE_ARRAY:
      DecodePlainByteArray(data, size, count, reinterpret_cast<StringRef*>(scratch_.data()));
      break;
    case format::Type::FIXED_LEN_BYTE_ARRAY: {
      const size_t len = static_cast<size_t>(column_.type_length);
      if (count * len > size) Fail("dictionary page is shorter than its values");
      auto* refs = reinterpret_cast<StringRef*>(scratch_.data());
      for (size_t i = 0; i < count; i++) {
        refs[i] =
            StringRef(reinterpret_cast<const char*>(data) + i * len, static_cast<uint32_t>(len));
      }
      break;
    }
    default:
      if (count * width > size) Fail("dictionary page is shorter than its values");
      if (count > 0) std::memcpy(scratch_.data(), data, count * width);
  }
  dictionary_ = std::make_shared<Vector>(column_.type, std::max<size_t>(count, 1));
  bad_dictionary_entries_.clear();
  try {
    ConvertValues(column_, scratch_.data(), count, *dictionary_, 0);
  } catch (const CorruptFileError& e) {
    // A dictionary may hold values no row uses (Spark keeps them); only an entry a row
    // references is an error, so convert one by one and remember the bad ones.
    for (size_t i = 0; i < count; i++) {
      try {
        ConvertValues(column_, scratch_.data() + i * width, 1, *dictionary_, i);
      } catch (const CorruptFileError& entry_error) {
        bad_dictionary_entries_.emplace_back(static_cast<uint32_t>(i), entry_error.what());
      }
    }
  }
  dictionary_->KeepAlive(owner);
  dictionary_owner_ = owner;
  dictionary_size_ = count;
  dictionary_bytes_ = (codec_ != format::CompressionCodec::UNCOMPRESSED ? size : 0) +
                      scratch_.capacity() + std::max<size_t>(count, 1) * sizeof(StringRef);
}

size_t ColumnChunkReader::held_bytes() const {
  if (nested_) return nested_->held_bytes();
  size_t bytes = dictionary_bytes_ + scratch_.capacity();
  if (page_) {
    bytes += page_->decompressed_bytes + page_->def_levels.capacity() +
             page_->rep_levels.capacity() + page_->indexes.capacity() * sizeof(uint32_t) +
             (page_->split ? page_->split->capacity() : 0);
  }
  return bytes;
}

void ColumnChunkReader::StartDataPage(const format::PageHeader& header, const uint8_t* body) {
  page_ = std::make_unique<PageState>();
  auto& page = *page_;
  const size_t compressed = static_cast<size_t>(header.compressed_page_size);
  const size_t uncompressed = static_cast<size_t>(header.uncompressed_page_size);
  const int max_def = column_.max_definition_level;
  const int def_width = BitWidthForMaxValue(static_cast<uint32_t>(max_def));
  const int max_rep = column_.max_repetition_level;
  const int rep_width = BitWidthForMaxValue(static_cast<uint32_t>(max_rep));
  const uint8_t* values;
  size_t values_size;
  idx_t num_values;
  size_t non_null;
  std::shared_ptr<const void> owner = bytes_.buffer;

  // Levels are kept one byte each; a page whose values are all present keeps none, so reading
  // it costs what a required column's page does.
  auto check_levels = [&](const uint8_t* levels) {
    const auto max_level = static_cast<uint8_t>(max_def);
    uint8_t max_seen = 0;
    size_t present = 0;
    for (idx_t i = 0; i < num_values; i++) {
      max_seen = std::max(max_seen, levels[i]);
      present += levels[i] == max_level;
    }
    if (max_seen > max_def) {
      Fail(fmt::format("definition level {} exceeds the maximum {}", max_seen, max_def));
    }
    non_null = present;
    if (non_null == num_values) page.def_levels.clear();
  };
  auto decode_levels = [&](RleBitPackedDecoder decoder) {
    if (def_width <= 8) {
      page.def_levels.resize(num_values);
      if (decoder.GetBatch(page.def_levels.data(), num_values) != num_values) {
        Fail(
            fmt::format("page declares {} values but its definition levels end early", num_values));
      }
      check_levels(page.def_levels.data());
      return;
    }
    std::vector<uint32_t> levels(num_values);
    if (decoder.GetBatch(levels.data(), num_values) != num_values) {
      Fail(fmt::format("page declares {} values but its definition levels end early", num_values));
    }
    page.def_levels.resize(num_values);
    non_null = 0;
    for (idx_t i = 0; i < num_values; i++) {
      if (levels[i] > static_cast<uint32_t>(max_def)) {
        Fail(fmt::format("definition level {} exceeds the maximum {}", levels[i], max_def));
      }
      page.def_levels[i] = static_cast<uint8_t>(levels[i]);
      non_null += levels[i] == static_cast<uint32_t>(max_def);
    }
  };

  auto decode_rep_levels = [&](RleBitPackedDecoder decoder) {
    page.rep_levels.resize(num_values);
    if (decoder.GetBatch(page.rep_levels.data(), num_values) != num_values) {
      Fail(fmt::format("page declares {} values but its repetition levels end early", num_values));
    }
    for (idx_t i = 0; i < num_values; i++) {
      if (page.rep_levels[i] > max_rep) {
        Fail(
            fmt::format("repetition level {} exceeds the maximum {}", page.rep_levels[i], max_rep));
      }
    }
  };

  if (header.type == format::PageType::DATA_PAGE) {
    if (!header.__isset.data_page_header) Fail("data page without its header");
    const auto& h = header.data_page_header;
    if (h.num_values < 0) Fail(fmt::format("data page declares {} values", h.num_values));
    num_values = static_cast<idx_t>(h.num_values);
    page.encoding = h.encoding;
    const uint8_t* data = body;
    size_t size = compressed;
    if (codec_ != format::CompressionCodec::UNCOMPRESSED) {
      auto decompressed = Decompress(body, compressed, uncompressed);
      data = decompressed.get();
      size = uncompressed;
      page.decompressed_bytes = size;
      owner = decompressed;
    }
    size_t pos = 0;
    non_null = num_values;
    if (column_.max_repetition_level > 0) {
      // Repetition levels precede the definition levels.
      if (h.repetition_level_encoding == format::Encoding::BIT_PACKED) {
        const size_t level_bytes = (num_values * static_cast<size_t>(rep_width) + 7) / 8;
        if (level_bytes > size) Fail("repetition levels run past the page");
        std::vector<uint32_t> levels(num_values);
        DecodeLegacyBitPacked(data, level_bytes, rep_width, levels.data(), num_values);
        for (uint32_t level : levels) {
          if (level > static_cast<uint32_t>(max_rep)) Fail("repetition level out of range");
        }
        page.rep_levels.assign(levels.begin(), levels.end());
        pos = level_bytes;
      } else {
        size_t consumed = 0;
        auto decoder = MakeLengthPrefixedRleDecoder(data, size, rep_width, &consumed);
        decode_rep_levels(decoder);
        pos = consumed;
      }
    }
    if (max_def > 0) {
      if (h.definition_level_encoding == format::Encoding::BIT_PACKED) {
        size_t level_bytes = (num_values * static_cast<size_t>(def_width) + 7) / 8;
        if (level_bytes > size - pos) Fail("definition levels run past the page");
        std::vector<uint32_t> levels(num_values);
        DecodeLegacyBitPacked(data + pos, level_bytes, def_width, levels.data(), num_values);
        page.def_levels.resize(num_values);
        non_null = 0;
        for (idx_t i = 0; i < num_values; i++) {
          if (levels[i] > static_cast<uint32_t>(max_def)) Fail("definition level out of range");
          page.def_levels[i] = static_cast<uint8_t>(levels[i]);
          non_null += levels[i] == static_cast<uint32_t>(max_def);
        }
        pos += level_bytes;
      } else {
        size_t consumed = 0;
        auto decoder = MakeLengthPrefixedRleDecoder(data + pos, size - pos, def_width, &consumed);
        decode_levels(decoder);
        pos += consumed;
      }
    }
    values = data + pos;
    values_size = size - pos;
  } else {
    if (!header.__isset.data_page_header_v2) Fail("data page v2 without its header");
    const auto& h = header.data_page_header_v2;
    if (h.num_values < 0 || h.definition_levels_byte_length < 0 ||
        h.repetition_levels_byte_length < 0) {
      Fail("data page v2 header has negative sizes");
    }
    num_values = static_cast<idx_t>(h.num_values);
    page.encoding = h.encoding;
    const size_t rep_len = static_cast<size_t>(h.repetition_levels_byte_length);
    const size_t def_len = static_cast<size_t>(h.definition_levels_byte_length);
    if (rep_len + def_len > compressed || rep_len + def_len > uncompressed) {
      Fail("data page v2 levels are longer than the page");
    }
    non_null = num_values;
    if (column_.max_repetition_level > 0) {
      decode_rep_levels(RleBitPackedDecoder(body, rep_len, rep_width));
    }
    if (max_def > 0) {
      decode_levels(RleBitPackedDecoder(body + rep_len, def_len, def_width));
    }
    const uint8_t* data = body + rep_len + def_len;
    size_t size = compressed - rep_len - def_len;
    const size_t values_uncompressed = uncompressed - rep_len - def_len;
    const bool is_compressed = !h.__isset.is_compressed || h.is_compressed;
    if (is_compressed && codec_ != format::CompressionCodec::UNCOMPRESSED && size > 0 &&
        values_uncompressed > 0) {
      auto decompressed = Decompress(data, size, values_uncompressed);
      data = decompressed.get();
      size = values_uncompressed;
      page.decompressed_bytes = size;
      owner = decompressed;
    } else if (values_uncompressed == 0) {
      size = 0;  // an empty values section, compressed or not
    }
    values = data;
    values_size = size;
  }

  page.num_values = num_values;
  page.owner = owner;
  page.values = values;
  page.values_size = values_size;

  switch (page.encoding) {
    case format::Encoding::PLAIN:
      break;
    case format::Encoding::PLAIN_DICTIONARY:
    case format::Encoding::RLE_DICTIONARY: {
      if (!dictionary_) Fail("dictionary-encoded page without a dictionary page");
      if (non_null == 0) break;
      if (values_size < 1) Fail("dictionary-encoded page has no bit width byte");
      int bit_width = values[0];
      if (bit_width > 32) Fail(fmt::format("dictionary index bit width {} is invalid", bit_width));
      page.rle.emplace(values + 1, values_size - 1, bit_width);
      break;
    }
    case format::Encoding::RLE: {
      if (column_.physical_type != format::Type::BOOLEAN)
        Fail("RLE values on a non-BOOLEAN column");
      size_t consumed = 0;
      page.rle.emplace(MakeLengthPrefixedRleDecoder(values, values_size, 1, &consumed));
      break;
    }
    case format::Encoding::DELTA_BINARY_PACKED:
      if (column_.physical_type == format::Type::INT32) {
        page.delta32 = std::make_unique<DeltaBinaryPackedDecoder<int32_t>>(values, values_size);
      } else if (column_.physical_type == format::Type::INT64) {
        page.delta64 = std::make_unique<DeltaBinaryPackedDecoder<int64_t>>(values, values_size);
      } else {
        Fail("DELTA_BINARY_PACKED on a column that is not INT32/INT64");
      }
      break;
    case format::Encoding::DELTA_LENGTH_BYTE_ARRAY:
      if (column_.physical_type != format::Type::BYTE_ARRAY) {
        Fail("DELTA_LENGTH_BYTE_ARRAY on a non-BYTE_ARRAY column");
      }
      page.delta_length = std::make_unique<DeltaLengthByteArrayDecoder>(values, values_size);
      break;
    case format::Encoding::DELTA_BYTE_ARRAY:
      if (column_.physical_type != format::Type::BYTE_ARRAY &&
          column_.physical_type != format::Type::FIXED_LEN_BYTE_ARRAY) {
        Fail("DELTA_BYTE_ARRAY on a column that is not a byte array");
      }
      page.delta_bytes = std::make_unique<DeltaByteArrayDecoder>(values, values_size);
      page.heap = std::make_shared<StringHeap>();
      break;
    case format::Encoding::BYTE_STREAM_SPLIT: {
      size_t width;
      switch (column_.physical_type) {
        case format::Type::INT32:
        case format::Type::FLOAT:
          width = 4;
          break;
        case format::Type::INT64:
        case format::Type::DOUBLE:
          width = 8;
          break;
        case format::Type::FIXED_LEN_BYTE_ARRAY:
          width = static_cast<size_t>(column_.type_length);
          break;
        default:
          Fail("BYTE_STREAM_SPLIT on an unsupported physical type");
      }
      if (non_null * width != values_size) {
        Fail(fmt::format("BYTE_STREAM_SPLIT section has {} bytes, expected {} values of {} bytes",
                         values_size, non_null, width));
      }
      page.split = std::make_shared<std::vector<uint8_t>>(values_size);
      DecodeByteStreamSplit(values, values_size, static_cast<int>(width), non_null,
                            page.split->data());
      page.owner = page.split;
      page.values = page.split->data();
      page.encoding = format::Encoding::PLAIN;  // now laid out as PLAIN
      break;
    }
    default:
      throw NotSupportedError("'{}': column '{}' uses encoding {}, which shears does not support",
                              file_.path(), column_.name, static_cast<int>(page.encoding));
  }
}

bool ColumnChunkReader::DecodeValues(idx_t count, Vector& out, idx_t out_offset,
                                     const uint64_t* present, idx_t rows) {
  auto& page = *page_;
  if (count == 0) return false;
  const auto physical = column_.physical_type;
  const size_t width = PhysicalValueSize(physical);

  if (page.encoding == format::Encoding::PLAIN_DICTIONARY ||
      page.encoding == format::Encoding::RLE_DICTIONARY) {
    page.indexes.resize(count + 1);
    if (page.rle->GetBatchBounded(page.indexes.data(), count,
                                  static_cast<uint32_t>(dictionary_size_)) != count) {
      Fail("dictionary indexes end before the page's values");
    }
    page.indexes[count] = 0;
    for (const auto& [entry, error] : bad_dictionary_entries_) {
      for (idx_t i = 0; i < count; i++) {
        if (page.indexes[i] == entry) Fail(error);
      }
    }
    const size_t out_width = column_.type.value_size();
    const uint8_t* dict = dictionary_->raw_data();
    uint8_t* dst = out.raw_data() + out_offset * out_width;
    if (present != nullptr && (out_width == 4 || out_width == 8 || out_width == 16)) {
      GatherToRows(dst, out_width, dict, page.indexes.data(), present, rows);
      if (column_.type.IsString()) out.KeepAlive(dictionary_owner_);
      return true;
    }
    switch (out_width) {
      case 4:
        for (idx_t i = 0; i < count; i++) {
          std::memcpy(dst + i * 4, dict + page.indexes[i] * 4, 4);
        }
        break;
      case 8:
        for (idx_t i = 0; i < count; i++) {
          std::memcpy(dst + i * 8, dict + page.indexes[i] * 8, 8);
        }
        break;
      case 16:
        // Strings (StringRef) and wide decimals: a memcpy of the run-time width below is a
        // call per row (a fifth of a scan filtering two dictionary-encoded string columns).
        for (idx_t i = 0; i < count; i++) {
          std::memcpy(dst + i * 16, dict + page.indexes[i] * 16, 16);
        }
        break;
      default:
        for (idx_t i = 0; i < count; i++) {
          std::memcpy(dst + i * out_width, dict + page.indexes[i] * out_width, out_width);
        }
    }
    if (column_.type.IsString()) out.KeepAlive(dictionary_owner_);
    return false;
  }

  scratch_.resize(count * width);
  void* scratch = scratch_.data();
  const uint8_t* values = page.values + page.values_pos;
  const size_t remaining = page.values_size - page.values_pos;
  switch (page.encoding) {
    case format::Encoding::PLAIN:
      switch (physical) {
        case format::Type::BOOLEAN: {
          if ((page.bool_bit + count + 7) / 8 > page.values_size) Fail("BOOLEAN values end early");
          DecodePlainBoolean(page.values, page.values_size, page.bool_bit, count,
                             static_cast<uint8_t*>(scratch));
          page.bool_bit += count;
          break;
        }
        case format::Type::BYTE_ARRAY:
          page.values_pos +=
              DecodePlainByteArray(values, remaining, count, static_cast<StringRef*>(scratch));
          break;
        case format::Type::FIXED_LEN_BYTE_ARRAY: {
          const size_t len = static_cast<size_t>(column_.type_length);
          if (count * len > remaining) Fail("FIXED_LEN_BYTE_ARRAY values end early");
          auto* refs = static_cast<StringRef*>(scratch);
          for (idx_t i = 0; i < count; i++) {
            refs[i] = StringRef(reinterpret_cast<const char*>(values) + i * len,
                                static_cast<uint32_t>(len));
          }
          page.values_pos += count * len;
          break;
        }
        default: {
          if (count * width > remaining) {
            Fail(fmt::format("page holds {} bytes of values, {} needed", remaining, count * width));
          }
          if (column_.conversion == Conversion::kNone) {
            // Fast path: the stored layout is already shears' layout.
            std::memcpy(out.raw_data() + out_offset * width, values, count * width);
            page.values_pos += count * width;
            return false;
          }
          std::memcpy(scratch, values, count * width);
          page.values_pos += count * width;
        }
      }
      break;
    case format::Encoding::RLE: {
      page.indexes.resize(count);
      if (page.rle->GetBatch(page.indexes.data(), count) != count) Fail("RLE booleans end early");
      auto* dst = static_cast<uint8_t*>(scratch);
      for (idx_t i = 0; i < count; i++)
        dst[i] = page.indexes[i] != 0;
      break;
    }
    case format::Encoding::DELTA_BINARY_PACKED:
      if (page.delta32) {
        if (page.delta32->GetBatch(static_cast<int32_t*>(scratch), count) != count) {
          Fail("DELTA_BINARY_PACKED values end early");
        }
      } else if (page.delta64->GetBatch(static_cast<int64_t*>(scratch), count) != count) {
        Fail("DELTA_BINARY_PACKED values end early");
      }
      break;
    case format::Encoding::DELTA_LENGTH_BYTE_ARRAY:
      if (page.delta_length->GetBatch(static_cast<StringRef*>(scratch), count) != count) {
        Fail("DELTA_LENGTH_BYTE_ARRAY values end early");
      }
      break;
    case format::Encoding::DELTA_BYTE_ARRAY: {
      auto* refs = static_cast<StringRef*>(scratch);
      if (page.delta_bytes->GetBatch(refs, count, *page.heap) != count) {
        Fail("DELTA_BYTE_ARRAY values end early");
      }
      if (physical == format::Type::FIXED_LEN_BYTE_ARRAY) {
        for (idx_t i = 0; i < count; i++) {
          if (refs[i].len != static_cast<uint32_t>(column_.type_length)) {
            Fail("DELTA_BYTE_ARRAY value has the wrong length for FIXED_LEN_BYTE_ARRAY");
          }
        }
      }
      out.KeepAlive(page.heap);
      break;
    }
    default:
      Fail("unexpected encoding");
  }
  ConvertValues(column_, scratch, count, out, out_offset);
  if (column_.type.IsString()) out.KeepAlive(page.owner);
  return false;
}

void ColumnChunkReader::Read(idx_t count, Vector& out, idx_t out_offset, DictionaryCodes* codes) {
  if (nested_) {
    if (codes) codes->complete = false;
    nested_->Read(count, out, out_offset);
    row_ = nested_->row();
    return;
  }
  try {
    ReadInternal(count, out, out_offset, codes);
  } catch (const CorruptFileError& e) {
    // Decoders do not know the file; errors that do not name it yet get the context here.
    if (std::string_view(e.what()).rfind("'", 0) == 0) throw;
    Fail(e.what());
  }
}

void ColumnChunkReader::RecordCodes(DictionaryCodes& codes, idx_t out_offset, idx_t take,
                                    idx_t non_null, const uint64_t* present) const {
  const auto encoding = page_->encoding;
  const bool dictionary_page = encoding == format::Encoding::PLAIN_DICTIONARY ||
                               encoding == format::Encoding::RLE_DICTIONARY;
  // An entry that cannot be converted must raise its error only when a row uses it, so such a
  // dictionary is never evaluated whole.
  if (!codes.complete || !dictionary_page || !bad_dictionary_entries_.empty() ||
      (codes.dictionary != nullptr && codes.dictionary != dictionary_) ||
      out_offset + take > codes.codes.size()) {
    codes.complete = false;
    return;
  }
  codes.dictionary = dictionary_;
  codes.size = dictionary_size_;
  uint32_t* dst = codes.codes.data() + out_offset;
  const uint32_t* indexes = page_->indexes.data();
  if (non_null == take) {
    std::memcpy(dst, indexes, take * sizeof(uint32_t));
    return;
  }
  const auto null_code = static_cast<uint32_t>(dictionary_size_);
  if (non_null == 0) {  // nothing was decoded: indexes hold an earlier page's
    std::fill(dst, dst + take, null_code);
    return;
  }
  // indexes has a slot past the page's present values (DecodeValues).
  CodesToRows(dst, indexes, present, take, null_code);
}

void ColumnChunkReader::ReadInternal(idx_t count, Vector& out, idx_t out_offset,
                                     DictionaryCodes* codes) {
  if (list_type_.valid()) {
    if (codes) codes->complete = false;  // codes are per element, not per row
    ReadListRows(count, out, out_offset);
    return;
  }
  const size_t out_width = column_.type.value_size();
  while (count > 0) {
    if (!page_ || page_->level_pos == page_->num_values) {
      const int64_t expected_row = row_;
      if (!LoadNextDataPage()) {
        Fail("the column chunk holds fewer values than the row group's row count");
      }
      if (row_ != expected_row) {
        throw InternalError("'{}': column '{}' row group {}: read past the chosen pages",
                            file_.path(), column_.name, row_group_);
      }
    }
    auto& page = *page_;
    const idx_t take = std::min<idx_t>(count, page.num_values - page.level_pos);
    const uint8_t max_def = static_cast<uint8_t>(column_.max_definition_level);
    const uint8_t* levels =
        page.def_levels.empty() ? nullptr : page.def_levels.data() + page.level_pos;
    // Which rows hold a value, a bit each (eight levels at a time).
    idx_t non_null = take;
    const uint64_t* present = nullptr;
    if (levels != nullptr) {
      present_masks_.resize((take + 63) / 64);
      non_null = PresenceMasks(levels, take, max_def, present_masks_.data());
      present = present_masks_.data();
    }
    if (non_null == take) {
      DecodeValues(take, out, out_offset);
      if (codes) RecordCodes(*codes, out_offset, take, non_null, nullptr);
    } else {
      // Values go to their rows (straight from a dictionary, else spread out after decoding
      // them densely); the gaps are marked NULL.
      if (!DecodeValues(non_null, out, out_offset, present, take)) {
        SpreadToRows(out.raw_data() + out_offset * out_width, out_width, present, take, non_null);
      }
      if (codes) RecordCodes(*codes, out_offset, take, non_null, present);
      null_rows_.resize(take);
      const idx_t nulls = NullRows(present, take, out_offset, null_rows_.data());
      out.validity().SetNull(null_rows_.data(), nulls);
    }
    page.level_pos += take;
    row_ += static_cast<int64_t>(take);
    out_offset += take;
    count -= take;
  }
}

bool ColumnChunkReader::SkipInPage(idx_t count) {
  if (list_type_.valid() || !page_ || page_->level_pos == page_->num_values) return false;
  auto& page = *page_;
  const bool dictionary = page.encoding == format::Encoding::PLAIN_DICTIONARY ||
                          page.encoding == format::Encoding::RLE_DICTIONARY;
  const auto physical = column_.physical_type;
  const bool plain_fixed = page.encoding == format::Encoding::PLAIN &&
                           (physical == format::Type::INT32 || physical == format::Type::INT64 ||
                            physical == format::Type::FLOAT || physical == format::Type::DOUBLE);
  if (!dictionary && !plain_fixed) return false;
  const idx_t take = std::min<idx_t>(count, page.num_values - page.level_pos);
  idx_t non_null = take;
  if (!page.def_levels.empty()) {
    const uint8_t* levels = page.def_levels.data() + page.level_pos;
    const auto max_def = static_cast<uint8_t>(column_.max_definition_level);
    non_null = 0;
    for (idx_t i = 0; i < take; i++)
      non_null += levels[i] == max_def;
  }
  if (dictionary) {
    // The indexes are read (the decoder has no skip), not looked up: a bad entry fails only
    // the rows that use it, and these are not read.
    for (idx_t left = non_null; left > 0;) {
      const idx_t n = std::min<idx_t>(left, kBatchSize);
      page.indexes.resize(n);
      if (page.rle->GetBatchBounded(page.indexes.data(), n,
                                    static_cast<uint32_t>(dictionary_size_)) != n) {
        Fail("dictionary indexes end before the page's values");
      }
      left -= n;
    }
  } else {
    const size_t bytes = non_null * PhysicalValueSize(physical);
    if (bytes > page.values_size - page.values_pos) {
      Fail(fmt::format("page holds {} bytes of values, {} needed",
                       page.values_size - page.values_pos, bytes));
    }
    page.values_pos += bytes;
  }
  page.level_pos += take;
  row_ += static_cast<int64_t>(take);
  return true;
}

void ColumnChunkReader::Skip(idx_t count) {
  // Within a page of dictionary indexes or fixed-width PLAIN values, the values are passed
  // over without being decoded (SkipInPage). Else decoding into a throwaway vector keeps every
  // decoder's position right; page-level skipping with the offset index avoids this cost where
  // it matters.
  while (count > 0 && page_ && page_->level_pos < page_->num_values) {
    const idx_t before = page_->level_pos;
    if (!SkipInPage(count)) break;
    count -= page_->level_pos - before;
  }
  if (count == 0) return;
  if (!skip_sink_) {
    skip_sink_ =
        std::make_unique<Vector>(list_type_.valid() ? list_type_ : column_.type, kBatchSize);
  }
  while (count > 0) {
    idx_t take = std::min<idx_t>(count, kBatchSize);
    skip_sink_->Reset();
    Read(take, *skip_sink_, 0);
    count -= take;
  }
}

void ColumnChunkReader::SkipTo(int64_t row) {
  if (row < row_) {
    throw InternalError("'{}': column '{}': cannot go back from row {} to {}", file_.path(),
                        column_.name, row_, row);
  }
  if (nested_) {
    nested_->SkipTo(row);
    row_ = nested_->row();
    return;
  }
  try {
    while (row_ < row) {
      if (list_type_.valid() && page_ && page_->level_pos < page_->num_values) {
        // No row is open between reads; a page that ends at a known row before `row` goes
        // whole, else rows are decoded and dropped.
        if (page_end_row_ >= 0 && row >= page_end_row_) {
          page_.reset();
          row_ = page_end_row_;
        } else {
          Skip(std::min<idx_t>(static_cast<idx_t>(row - row_), kBatchSize));
        }
        continue;
      }
      if (page_ && page_->level_pos < page_->num_values) {
        const int64_t left = static_cast<int64_t>(page_->num_values - page_->level_pos);
        if (row - row_ >= left) {
          page_.reset();  // the rest of this page is not needed
          row_ += left;
        } else {
          Skip(static_cast<idx_t>(row - row_));
        }
        continue;
      }
      page_.reset();
      if (!LoadNextDataPage(row)) {
        if (!pages_.empty()) row_ = row;  // the rows left lie in pages not chosen
        if (row_ >= row) break;
        Fail("the column chunk holds fewer values than the row group's row count");
      }
    }
  } catch (const CorruptFileError& e) {
    if (std::string_view(e.what()).rfind("'", 0) == 0) throw;
    Fail(e.what());
  }
}

const Vector* ColumnChunkReader::ReadDictionary(size_t* size) {
  const uint8_t* chunk = bytes_.buffer.get() + bytes_.offset;
  format::PageHeader header;
  const uint32_t header_size = DeserializeThrift(chunk, bytes_.size, &header, "a page header");
  if (header.type != format::PageType::DICTIONARY_PAGE || header.compressed_page_size < 0 ||
      header.uncompressed_page_size < 0 || header.uncompressed_page_size > kMaxPageSize ||
      static_cast<size_t>(header.compressed_page_size) > bytes_.size - header_size) {
    return nullptr;
  }
  const uint8_t* body = chunk + header_size;
  dictionary_crc_ok_ =
      !header.__isset.crc || Crc32(body, static_cast<size_t>(header.compressed_page_size)) ==
                                 static_cast<uint32_t>(header.crc);
  ReadDictionaryPage(header, body);
  if (!bad_dictionary_entries_.empty()) return nullptr;
  *size = dictionary_size_;
  return dictionary_.get();
}

std::shared_ptr<DecodedDictionary> ColumnChunkReader::TakeDictionary() const {
  if (!dictionary_ || !dictionary_crc_ok_ || !bad_dictionary_entries_.empty()) return nullptr;
  auto decoded = std::make_shared<DecodedDictionary>();
  decoded->values = dictionary_;
  decoded->owner = dictionary_owner_;
  decoded->size = dictionary_size_;
  decoded->bytes = dictionary_bytes_;
  return decoded;
}

void ColumnChunkReader::AdoptDictionary(const DecodedDictionary& dictionary) {
  dictionary_ = dictionary.values;
  dictionary_owner_ = dictionary.owner;
  dictionary_size_ = dictionary.size;
  dictionary_bytes_ = dictionary.bytes;
  bad_dictionary_entries_.clear();
  counters_->dictionaries_reused++;
}

}  // namespace shears::parquet
