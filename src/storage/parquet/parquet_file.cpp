#include "storage/parquet/parquet_file.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "common/error.h"
#include "common/string_util.h"
#include "storage/lru_cache.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/nested_schema.h"
#include "storage/parquet/schema_mapping.h"
#include "storage/parquet/value_conversion.h"

namespace shears::parquet {

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kEncryptedMagic[] = "PARE";
// A footer larger than this is not plausible for any real file; refuse before allocating.
constexpr uint32_t kMaxFooterLength = 512u << 20;

}  // namespace

namespace {

std::atomic<uint64_t> footers_parsed{0};
std::atomic<uint64_t> footers_reused{0};

// Footers of the files opened lately, keyed by path and trusted only while the file has the
// identity it had when read. The cost is the encoded footer length: what thrift decodes from
// it takes a few times that, so 64 MiB of footers hold a few hundred MB at most.
LruCache<ParquetFooter>& FooterCache() {
  static LruCache<ParquetFooter> cache(64u << 20);
  return cache;
}

// FLOAT/DOUBLE bounds of a writer that may have left a NaN out of them (all but shears' own
// files, which say they do not).
bool BoundsMayExcludeNan(const ParquetFooter& footer, const ColumnDescriptor& column) {
  return column.type.IsFloatingPoint() && !footer.complete_float_bounds;
}

}  // namespace

FooterCacheStats GetFooterCacheStats() {
  return FooterCacheStats{footers_parsed.load(), footers_reused.load()};
}

std::shared_ptr<const ParquetFooter> CachedFooter(const std::string& path) {
  return FooterCache().Find(path);
}

std::shared_ptr<ParquetFile> ParquetFile::Open(const std::string& path,
                                               std::shared_ptr<const ParquetFooter> known) {
  auto file = RandomAccessFile::Open(path);
  const FileIdentity identity = file->identity();
  std::shared_ptr<ParquetFile> result(new ParquetFile(std::move(file)));
  if (!(known && known->identity == identity)) known = FooterCache().Find(path);
  if (known && known->identity == identity) {
    result->footer_ = std::move(known);
    result->footer_reused_ = true;
    footers_reused.fetch_add(1, std::memory_order_relaxed);
    return result;
  }
  auto footer = std::make_shared<ParquetFooter>();
  footer->identity = identity;
  try {
    result->ParseFooter(*footer);
    result->BuildSchema(*footer);
  } catch (const CorruptFileError& e) {
    throw CorruptFileError("'{}' is not a valid Parquet file: {}", path, e.what());
  } catch (const NotSupportedError& e) {
    throw NotSupportedError("'{}': {}", path, e.what());
  }
  footers_parsed.fetch_add(1, std::memory_order_relaxed);
  // A file changed within the last moments may change again without its size or mtime moving.
  if (!RecentlyModified(identity.mtime_ns)) {
    FooterCache().Put(path, footer, footer->footer_length + 64);
  }
  result->footer_ = std::move(footer);
  return result;
}

ParquetFile::ParquetFile(std::unique_ptr<RandomAccessFile> file) : file_(std::move(file)) {}

void ParquetFile::ParseFooter(ParquetFooter& f) {
  const uint64_t size = file_->size();
  if (size < 12) {
    throw CorruptFileError("the file is {} bytes long, too short for Parquet (at least 12)", size);
  }
  uint8_t head[4];
  file_->ReadAt(0, 4, head);
  uint8_t tail[8];
  file_->ReadAt(size - 8, 8, tail);
  if (std::memcmp(tail + 4, kEncryptedMagic, 4) == 0) {
    throw NotSupportedError(
        "the file is encrypted (encrypted footer), which shears does not support");
  }
  if (std::memcmp(head, kMagic, 4) != 0 || std::memcmp(tail + 4, kMagic, 4) != 0) {
    throw CorruptFileError("it does not start and end with the magic bytes PAR1");
  }
  uint32_t footer_length;
  std::memcpy(&footer_length, tail, 4);
  if (footer_length == 0 || footer_length > size - 12 || footer_length > kMaxFooterLength) {
    throw CorruptFileError("the footer length {} does not fit in the file ({} bytes)",
                           footer_length, size);
  }
  f.footer_length = footer_length;
  std::vector<uint8_t> footer(footer_length);
  file_->ReadAt(size - 8 - footer_length, footer_length, footer.data());
  DeserializeThrift(footer.data(), footer.size(), &f.metadata, "the footer (FileMetaData)");
  // Thrift stores whatever integer the file holds in enum fields; refuse values outside the
  // format's ranges before any code switches on them.
  for (const auto& element : f.metadata.schema) {
    if (element.__isset.type) CheckEnum(element.type, 0, 7, "physical type");
    if (element.__isset.repetition_type)
      CheckEnum(element.repetition_type, 0, 2, "repetition type");
    if (element.__isset.converted_type) CheckEnum(element.converted_type, 0, 21, "converted type");
  }
  for (const auto& rg : f.metadata.row_groups) {
    for (const auto& chunk : rg.columns) {
      if (!chunk.__isset.meta_data) continue;
      CheckEnum(chunk.meta_data.type, 0, 7, "column chunk physical type");
      CheckEnum(chunk.meta_data.codec, 0, 7, "compression codec");
      for (const auto& e : chunk.meta_data.encodings)
        CheckEnum(e, 0, 9, "encoding");
    }
  }
  if (f.metadata.num_rows < 0) throw CorruptFileError("negative row count {}", f.metadata.num_rows);
  int64_t rows = 0;
  for (size_t i = 0; i < f.metadata.row_groups.size(); i++) {
    const auto& rg = f.metadata.row_groups[i];
    if (rg.num_rows < 0) {
      throw CorruptFileError("row group {} has a negative row count {}", i, rg.num_rows);
    }
    rows += rg.num_rows;
  }
  if (rows != f.metadata.num_rows) {
    throw CorruptFileError("the row groups hold {} rows but the footer says {}", rows,
                           f.metadata.num_rows);
  }
}

namespace {

bool IsRepetition(const format::SchemaElement& element, format::FieldRepetitionType::type type) {
  return element.__isset.repetition_type && element.repetition_type == type;
}

int ChildCount(const format::SchemaElement& element) {
  return element.__isset.num_children ? element.num_children : 0;
}

// A LIST column shears reads: a list of one primitive, in the standard three-level form
// (`<opt> group l (LIST) { repeated group list { <opt> T element } }`), the two-level forms
// LogicalTypes.md's backward-compatibility rules accept (`group l (LIST) { repeated T e }`),
// or a bare `repeated T l` (a required list of required elements). Fills `column` and returns
// true; false for every other nested shape (structs, maps, lists of lists), which stay
// unsupported. The schema's bounds were checked by the caller's walk over this subtree.
bool MapList(const std::vector<format::SchemaElement>& schema, size_t at,
             ColumnDescriptor* column) {
  using Rep = format::FieldRepetitionType;
  const auto& outer = schema[at];
  int def = 0;
  const format::SchemaElement* leaf = nullptr;
  if (IsRepetition(outer, Rep::REPEATED)) {
    if (ChildCount(outer) != 0 || !outer.__isset.type) return false;
    column->list_defined_level = 0;
    column->element_defined_level = 1;
    leaf = &outer;
    def = 1;
  } else {
    const bool annotated =
        (outer.__isset.logicalType && outer.logicalType.__isset.LIST) ||
        (outer.__isset.converted_type && outer.converted_type == format::ConvertedType::LIST);
    if (!annotated || ChildCount(outer) != 1 || at + 1 >= schema.size()) return false;
    if (!IsRepetition(outer, Rep::REQUIRED)) def++;
    column->list_defined_level = def;
    const auto& repeated = schema[at + 1];
    if (!IsRepetition(repeated, Rep::REPEATED)) return false;
    def++;
    column->element_defined_level = def;
    if (ChildCount(repeated) == 0) {
      if (!repeated.__isset.type) return false;
      leaf = &repeated;  // rule 1: the repeated field is the (required) element
    } else {
      // Rules 2 and 3 make the repeated group itself the element: a struct, not read yet.
      if (ChildCount(repeated) != 1 || repeated.name == "array" ||
          repeated.name == outer.name + "_tuple" || at + 2 >= schema.size()) {
        return false;
      }
      const auto& element = schema[at + 2];
      if (ChildCount(element) != 0 || !element.__isset.type ||
          IsRepetition(element, Rep::REPEATED)) {
        return false;  // a list of lists or of structs
      }
      if (!IsRepetition(element, Rep::REQUIRED)) def++;
      leaf = &element;
    }
  }
  MapPrimitive(*leaf, column);
  column->max_definition_level = def;
  column->max_repetition_level = 1;
  column->parquet_type_name = "LIST<" + column->parquet_type_name + ">";
  if (column->type.valid()) {
    column->type = LogicalType::List(column->type);
  } else {
    column->unsupported_reason =
        fmt::format("column '{}' is a LIST whose elements are not read: {}", outer.name,
                    column->unsupported_reason);
  }
  return true;
}

}  // namespace

void ParquetFile::BuildSchema(ParquetFooter& f) {
  const auto& schema = f.metadata.schema;
  if (schema.empty()) throw CorruptFileError("the schema is empty");
  const int root_children = schema[0].__isset.num_children ? schema[0].num_children : 0;
  if (root_children < 0 || static_cast<size_t>(root_children) >= schema.size() + 1) {
    throw CorruptFileError("the schema root claims {} children but the schema has {} elements",
                           root_children, schema.size());
  }
  size_t pos = 1;
  int leaf = 0;
  // Counts the leaves below a group and returns the position after it.
  std::function<size_t(size_t, int*, int)> skip_subtree = [&](size_t at, int* leaves,
                                                              int depth) -> size_t {
    if (at >= schema.size()) throw CorruptFileError("the schema ends inside a group");
    if (depth > 64) throw CorruptFileError("the schema nests deeper than 64 levels");
    const auto& element = schema[at];
    int children = element.__isset.num_children ? element.num_children : 0;
    if (children < 0)
      throw CorruptFileError("schema element '{}' has a negative child count", element.name);
    if (children == 0 && !element.__isset.type) {
      // An empty group holds no leaves.
      return at + 1;
    }
    if (children == 0) {
      ++*leaves;
      return at + 1;
    }
    size_t next = at + 1;
    for (int c = 0; c < children; c++)
      next = skip_subtree(next, leaves, depth + 1);
    return next;
  };
  for (int child = 0; child < root_children; child++) {
    if (pos >= schema.size())
      throw CorruptFileError("the schema has fewer elements than it declares");
    const auto& element = schema[pos];
    ColumnDescriptor column;
    column.name = element.name;
    int children = element.__isset.num_children ? element.num_children : 0;
    const bool repeated = element.__isset.repetition_type &&
                          element.repetition_type == format::FieldRepetitionType::REPEATED;
    if (children > 0 || repeated || !element.__isset.type) {
      int leaves = 0;
      const size_t start = pos;
      pos = skip_subtree(pos, &leaves, 0);
      if (MapList(schema, start, &column)) {
        column.leaf_index = leaf++;
        f.columns.push_back(std::move(column));
        continue;
      }
      // STRUCT, MAP and LIST of a nested type: a tree over the subtree's leaves.
      MapNestedColumn(schema, start, leaf, &column);
      leaf += leaves;
      f.columns.push_back(std::move(column));
      continue;
    }
    MapPrimitive(element, &column);
    column.leaf_index = leaf++;
    const bool optional = !element.__isset.repetition_type ||
                          element.repetition_type != format::FieldRepetitionType::REQUIRED;
    column.max_definition_level = optional ? 1 : 0;
    f.columns.push_back(std::move(column));
    pos++;
  }
  for (const auto& kv : f.metadata.key_value_metadata) {
    if (kv.key == kCompleteFloatBoundsKey && kv.__isset.value && kv.value == "true")
      f.complete_float_bounds = true;
  }
  for (size_t i = 0; i < f.metadata.row_groups.size(); i++) {
    const auto& rg = f.metadata.row_groups[i];
    if (rg.columns.size() != static_cast<size_t>(leaf)) {
      throw CorruptFileError("row group {} has {} column chunks but the schema has {} leaf columns",
                             i, rg.columns.size(), leaf);
    }
  }
}

int ParquetFile::FindColumn(const std::string& name) const {
  for (size_t i = 0; i < footer_->columns.size(); i++) {
    if (footer_->columns[i].name == name) return static_cast<int>(i);
  }
  for (size_t i = 0; i < footer_->columns.size(); i++) {
    if (EqualsIgnoringAsciiCase(footer_->columns[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

int64_t ParquetFile::row_group_num_rows(int row_group) const {
  return footer_->metadata.row_groups.at(static_cast<size_t>(row_group)).num_rows;
}

void ParquetFile::CheckReadable(int column) const {
  const auto& descriptor = footer_->columns.at(static_cast<size_t>(column));
  if (!descriptor.unsupported_reason.empty()) {
    throw NotSupportedError("'{}': {}", path(), descriptor.unsupported_reason);
  }
  for (const auto& rg : footer_->metadata.row_groups) {
    for (int leaf = 0; leaf < descriptor.leaf_count; leaf++) {
      const auto& chunk = rg.columns[static_cast<size_t>(descriptor.leaf_index + leaf)];
      if (chunk.__isset.crypto_metadata || chunk.__isset.encrypted_column_metadata) {
        throw NotSupportedError("'{}': column '{}' is encrypted, which shears does not support",
                                path(), descriptor.name);
      }
      if (!chunk.__isset.meta_data) {
        throw CorruptFileError("'{}': column '{}' has a column chunk without metadata", path(),
                               descriptor.name);
      }
    }
  }
}

const format::ColumnChunk& ParquetFile::chunk(int row_group, int column) const {
  const auto& descriptor = footer_->columns.at(static_cast<size_t>(column));
  SHEARS_CHECK(descriptor.leaf_index >= 0);
  return footer_->metadata.row_groups.at(static_cast<size_t>(row_group))
      .columns.at(static_cast<size_t>(descriptor.leaf_index));
}

std::optional<Value> ParquetFile::DecodeBound(int column, const std::string& bytes) const {
  return DecodePlainBound(footer_->columns.at(static_cast<size_t>(column)), bytes);
}

ColumnChunkStatistics ParquetFile::GetStatistics(int row_group, int column) const {
  return ChunkStatistics(*footer_, row_group, column);
}

ColumnChunkStatistics ChunkStatistics(const ParquetFooter& footer, int row_group, int column) {
  ColumnChunkStatistics result;
  const auto& descriptor = footer.columns.at(static_cast<size_t>(column));
  SHEARS_CHECK(descriptor.leaf_index >= 0);
  const auto& chunk_meta = footer.metadata.row_groups.at(static_cast<size_t>(row_group))
                               .columns.at(static_cast<size_t>(descriptor.leaf_index));
  if (!chunk_meta.__isset.meta_data) return result;
  // A LIST column's counts and bounds are those of its elements: nothing a row-level
  // predicate may prune by.
  if (descriptor.max_repetition_level > 0) return result;
  const auto& meta = chunk_meta.meta_data;
  result.num_values = meta.num_values;
  if (!meta.__isset.statistics) return result;
  const auto& stats = meta.statistics;
  if (stats.__isset.null_count && stats.null_count >= 0) result.null_count = stats.null_count;
  if (stats.__isset.distinct_count && stats.distinct_count >= 0) {
    result.distinct_count = stats.distinct_count;
  }
  if (descriptor.physical_type == format::Type::INT96) return result;  // no defined order
  result.max_may_exclude_nan = BoundsMayExcludeNan(footer, descriptor);
  if (stats.__isset.min_value && stats.__isset.max_value) {
    result.min = DecodePlainBound(descriptor, stats.min_value);
    result.max = DecodePlainBound(descriptor, stats.max_value);
  } else if (stats.__isset.min && stats.__isset.max && !descriptor.unsigned_order &&
             descriptor.physical_type != format::Type::BYTE_ARRAY &&
             descriptor.physical_type != format::Type::FIXED_LEN_BYTE_ARRAY) {
    // The deprecated fields were written with signed comparison: only trustworthy where the
    // column's order is signed anyway.
    result.min = DecodePlainBound(descriptor, stats.min);
    result.max = DecodePlainBound(descriptor, stats.max);
  }
  if (!result.min || !result.max) {
    result.min.reset();
    result.max.reset();
  } else if (descriptor.type.IsFloatingPoint()) {
    // The spec: a zero min may stand for -0.0 and a zero max for +0.0.
    auto zero = [&](double z) {
      return descriptor.type.id() == TypeId::kFloat ? Value::Float(static_cast<float>(z))
                                                    : Value::Double(z);
    };
    if (result.min->GetDouble() == 0) result.min = zero(-0.0);
    if (result.max->GetDouble() == 0) result.max = zero(0.0);
  }
  return result;
}

ColumnChunkStatistics PruningStatistics(ColumnChunkStatistics stats) {
  if (stats.max_may_exclude_nan) WidenFloatingBounds(&stats.min, &stats.max);
  return stats;
}

void WidenFloatingBounds(std::optional<Value>* min, std::optional<Value>* max) {
  if (!*min || !*max || !(*min)->type().IsFloatingPoint()) return;
  const bool is_float = (*min)->type().id() == TypeId::kFloat;
  auto value = [is_float](double v) {
    return is_float ? Value::Float(static_cast<float>(v)) : Value::Double(v);
  };
  if (std::isnan((*min)->GetDouble()) || std::isnan((*max)->GetDouble())) {
    min->reset();
    max->reset();
    return;
  }
  // The spec: a zero min may stand for -0.0.
  if ((*min)->GetDouble() == 0) *min = value(-0.0);
  // Writers (shears before it stopped, Arrow, parquet-mr) leave NaN out of the bounds of a
  // chunk or page holding one, and NaN sorts above every number: the true max may be NaN.
  *max = value(std::numeric_limits<double>::quiet_NaN());
}

ColumnChunkStatistics FileColumnStatistics(const ParquetFooter& footer, int column) {
  ColumnChunkStatistics result;
  if (footer.columns.at(static_cast<size_t>(column)).leaf_index < 0) return result;
  bool bounds_known = true;
  result.null_count = 0;
  for (size_t rg = 0; rg < footer.metadata.row_groups.size(); rg++) {
    const ColumnChunkStatistics chunk = ChunkStatistics(footer, static_cast<int>(rg), column);
    result.num_values += chunk.num_values;
    if (!chunk.null_count) {
      result.null_count.reset();
    } else if (result.null_count) {
      *result.null_count += *chunk.null_count;
    }
    // A row group of NULLs only has no bounds and needs none.
    const bool only_nulls = chunk.null_count && *chunk.null_count == chunk.num_values;
    if (chunk.num_values == 0 || only_nulls) continue;
    if (!chunk.min || !chunk.max) {
      bounds_known = false;
      continue;
    }
    result.max_may_exclude_nan = result.max_may_exclude_nan || chunk.max_may_exclude_nan;
    if (!result.min || chunk.min->Compare(*result.min) < 0) result.min = chunk.min;
    if (!result.max || chunk.max->Compare(*result.max) > 0) result.max = chunk.max;
  }
  if (!bounds_known) {
    result.min.reset();
    result.max.reset();
  }
  return result;
}

bool FooterNamesUnique(const ParquetFooter& footer) {
  int8_t known = footer.names_unique.load(std::memory_order_relaxed);
  if (known >= 0) return known == 1;
  std::vector<std::string> names;
  for (const auto& column : footer.columns)
    names.push_back(AsciiLower(column.name));
  std::sort(names.begin(), names.end());
  known = std::adjacent_find(names.begin(), names.end()) == names.end() ? 1 : 0;
  footer.names_unique.store(known, std::memory_order_relaxed);
  return known == 1;
}

const ColumnChunkStatistics& CachedFileColumnStatistics(const ParquetFooter& footer, int column) {
  std::lock_guard<std::mutex> lock(footer.file_statistics_mutex);
  auto& cached = footer.file_statistics;
  if (cached.empty()) cached.resize(footer.columns.size());
  auto& entry = cached.at(static_cast<size_t>(column));
  if (!entry)
    entry = std::make_unique<const ColumnChunkStatistics>(FileColumnStatistics(footer, column));
  return *entry;
}

std::optional<ColumnIndexData> ParquetFile::ReadColumnIndex(int row_group, int column) const {
  const auto& chunk_meta = chunk(row_group, column);
  if (!chunk_meta.__isset.column_index_offset || !chunk_meta.__isset.column_index_length ||
      footer_->columns.at(static_cast<size_t>(column)).max_repetition_level > 0) {
    return std::nullopt;  // a LIST column's index holds its elements' bounds and nulls
  }
  if (chunk_meta.column_index_offset < 0 || chunk_meta.column_index_length <= 0) {
    throw CorruptFileError("'{}': column '{}' row group {}: invalid column index location", path(),
                           footer_->columns[static_cast<size_t>(column)].name, row_group);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(chunk_meta.column_index_length));
  file_->ReadAt(static_cast<uint64_t>(chunk_meta.column_index_offset), bytes.size(), bytes.data());
  return ParseColumnIndex(row_group, column, bytes.data(), bytes.size());
}

ColumnIndexData ParquetFile::ParseColumnIndex(int row_group, int column, const uint8_t* data,
                                              size_t size) const {
  format::ColumnIndex index;
  try {
    DeserializeThrift(data, size, &index, "the column index");
  } catch (const CorruptFileError& e) {
    throw CorruptFileError("'{}': column '{}' row group {}: {}", path(),
                           footer_->columns[static_cast<size_t>(column)].name, row_group, e.what());
  }
  const size_t pages = index.null_pages.size();
  if (index.min_values.size() != pages || index.max_values.size() != pages ||
      (!index.null_counts.empty() && index.null_counts.size() != pages)) {
    throw CorruptFileError("'{}': column '{}' row group {}: column index lists disagree in length",
                           path(), footer_->columns[static_cast<size_t>(column)].name, row_group);
  }
  ColumnIndexData data_out;
  data_out.null_pages = index.null_pages;
  CheckEnum(index.boundary_order, 0, 2, "boundary order");
  data_out.boundary_order = index.boundary_order;
  data_out.null_counts = index.null_counts;
  data_out.max_may_exclude_nan =
      BoundsMayExcludeNan(*footer_, footer_->columns[static_cast<size_t>(column)]);
  for (size_t page = 0; page < pages; page++) {
    if (index.null_pages[page]) {
      data_out.min_values.emplace_back();
      data_out.max_values.emplace_back();
      continue;
    }
    data_out.min_values.push_back(DecodeBound(column, index.min_values[page]));
    data_out.max_values.push_back(DecodeBound(column, index.max_values[page]));
  }
  return data_out;
}

std::optional<format::OffsetIndex> ParquetFile::ReadOffsetIndex(int row_group, int column) const {
  const auto& chunk_meta = chunk(row_group, column);
  if (!chunk_meta.__isset.offset_index_offset || !chunk_meta.__isset.offset_index_length) {
    return std::nullopt;
  }
  if (chunk_meta.offset_index_offset < 0 || chunk_meta.offset_index_length <= 0) {
    throw CorruptFileError("'{}': column '{}' row group {}: invalid offset index location", path(),
                           footer_->columns[static_cast<size_t>(column)].name, row_group);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(chunk_meta.offset_index_length));
  file_->ReadAt(static_cast<uint64_t>(chunk_meta.offset_index_offset), bytes.size(), bytes.data());
  return ParseOffsetIndex(row_group, column, bytes.data(), bytes.size());
}

format::OffsetIndex ParquetFile::ParseOffsetIndex(int row_group, int column, const uint8_t* data,
                                                  size_t size) const {
  format::OffsetIndex index;
  try {
    DeserializeThrift(data, size, &index, "the offset index");
  } catch (const CorruptFileError& e) {
    throw CorruptFileError("'{}': column '{}' row group {}: {}", path(),
                           footer_->columns[static_cast<size_t>(column)].name, row_group, e.what());
  }
  return index;
}

std::unique_ptr<SplitBlockBloomFilter> ParquetFile::ReadBloomFilter(int row_group,
                                                                    int column) const {
  const auto& chunk_meta = chunk(row_group, column);
  if (!chunk_meta.__isset.meta_data || !chunk_meta.meta_data.__isset.bloom_filter_offset ||
      footer_->columns.at(static_cast<size_t>(column)).max_repetition_level > 0) {
    return nullptr;  // a LIST column's filter holds its elements
  }
  const auto& meta = chunk_meta.meta_data;
  const auto& name = footer_->columns[static_cast<size_t>(column)].name;
  const int64_t offset = meta.bloom_filter_offset;
  if (offset < 0 || static_cast<uint64_t>(offset) >= file_->size()) {
    throw CorruptFileError(
        "'{}': column '{}' row group {}: bloom filter offset {} is outside the file", path(), name,
        row_group, offset);
  }
  try {
    std::vector<uint8_t> bytes;
    if (meta.__isset.bloom_filter_length && meta.bloom_filter_length > 0) {
      bytes.resize(static_cast<size_t>(meta.bloom_filter_length));
      file_->ReadAt(static_cast<uint64_t>(offset), bytes.size(), bytes.data());
    } else {
      // Without a length: read the header first (it is small), then the bitset it announces.
      size_t probe = std::min<uint64_t>(256, file_->size() - static_cast<uint64_t>(offset));
      bytes.resize(probe);
      file_->ReadAt(static_cast<uint64_t>(offset), probe, bytes.data());
      format::BloomFilterHeader header;
      size_t header_size = ParseBloomFilterHeader(bytes.data(), bytes.size(), &header);
      if (header.numBytes <= 0 ||
          static_cast<uint64_t>(header.numBytes) > file_->size() - offset - header_size) {
        throw CorruptFileError("bloom filter of {} bytes does not fit in the file",
                               header.numBytes);
      }
      bytes.resize(header_size + static_cast<size_t>(header.numBytes));
      file_->ReadAt(static_cast<uint64_t>(offset), bytes.size(), bytes.data());
    }
    return std::make_unique<SplitBlockBloomFilter>(ParseBloomFilter(bytes.data(), bytes.size()));
  } catch (const CorruptFileError& e) {
    throw CorruptFileError("'{}': column '{}' row group {}: {}", path(), name, row_group, e.what());
  }
}

}  // namespace shears::parquet
