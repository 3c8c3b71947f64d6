#include "storage/parquet/column_writer.h"

// Inline the hash of string dictionary keys.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <unordered_set>

#include "common/error.h"
#include "common/hash.h"
#include "common/list.h"
#include "common/utf8.h"
#include "storage/parquet/bloom_filter.h"
#include "storage/parquet/column_writer_dictionary.h"
#include "storage/parquet/compression.h"
#include "storage/parquet/encoder.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/nested_schema.h"
#include "storage/parquet/nested_writer.h"
#include "storage/parquet/schema_mapping.h"
#include "storage/parquet/string_bounds.h"

namespace shears::parquet {

static_assert(std::endian::native == std::endian::little, "PLAIN values are written with memcpy");

namespace {

// String bounds longer than these are truncated (to a prefix for min, an incremented prefix
// for max): footers and page indexes stay small whatever the values.
constexpr size_t kStatisticsBoundBytes = 1024;
constexpr size_t kPageIndexBoundBytes = 64;

// ---- physical value traits ------------------------------------------------------------------
// How one shears storage type becomes one Parquet physical type: loading from a vector, PLAIN
// encoding, the order of statistics, dictionary keys and bloom filter hashes.

template <typename V, format::Type::type kPhysical>
struct FixedWidthTraits {
  using T = V;
  using Owned = V;
  static constexpr format::Type::type kType = kPhysical;
  static constexpr bool kBitPacked = false;
  static constexpr bool kDictionary = true;
  static size_t PlainSize(T) { return sizeof(T); }
  static void AppendPlain(T v, std::string* out) {
    out->append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  static void AppendBound(T v, std::string* out) { AppendPlain(v, out); }
  // Dictionary keys compare by bits, so -0.0 and 0.0 (and NaN payloads) stay distinct.
  static bool Equal(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
  static uint64_t DictHash(T v) {
    static_assert(sizeof(T) <= 8);
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return MixHash(bits);
  }
  static bool Less(T a, T b) { return a < b; }
  static bool Ordered(T) { return true; }
};

struct BooleanTraits {
  using T = uint8_t;
  using Owned = uint8_t;
  static constexpr format::Type::type kType = format::Type::BOOLEAN;
  static constexpr bool kBitPacked = true;
  static constexpr bool kDictionary = false;
  static T Load(const Vector& v, idx_t row) { return v.data<uint8_t>()[row] != 0; }
  static size_t PlainSize(T) { return 1; }
  static void AppendPlain(T, std::string*) {}
  static void AppendBound(T v, std::string* out) { out->push_back(static_cast<char>(v)); }
  static bool Equal(T a, T b) { return a == b; }
  static uint64_t DictHash(T v) { return v; }
  static uint64_t BloomHash(T) { return 0; }
  static bool Less(T a, T b) { return a < b; }
  static bool Ordered(T) { return true; }
};

struct Int32Traits : FixedWidthTraits<int32_t, format::Type::INT32> {
  static T Load(const Vector& v, idx_t row) { return v.data<int32_t>()[row]; }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashInt32(v); }
};

// DECIMAL(p <= 9): shears keeps it in int64_t, Parquet in INT32 (Validate checked the range).
struct Decimal32Traits : FixedWidthTraits<int32_t, format::Type::INT32> {
  static T Load(const Vector& v, idx_t row) { return static_cast<int32_t>(v.data<int64_t>()[row]); }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashInt32(v); }
};

struct Int64Traits : FixedWidthTraits<int64_t, format::Type::INT64> {
  static T Load(const Vector& v, idx_t row) { return v.data<int64_t>()[row]; }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashInt64(v); }
};

struct DoubleTraits : FixedWidthTraits<double, format::Type::DOUBLE> {
  static T Load(const Vector& v, idx_t row) { return v.data<double>()[row]; }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashDouble(v); }
  // NaN has no place in Parquet's double order: statistics skip it.
  static bool Ordered(T v) { return !std::isnan(v); }
};

// FLOAT: the vector's double holds a float value exactly, so the narrowing loses nothing.
struct FloatTraits : FixedWidthTraits<float, format::Type::FLOAT> {
  static T Load(const Vector& v, idx_t row) { return static_cast<float>(v.data<double>()[row]); }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashFloat(v); }
  static bool Ordered(T v) { return !std::isnan(v); }
};

// DECIMAL(p > 18) as FIXED_LEN_BYTE_ARRAY(16), big-endian two's complement.
struct Decimal128Traits {
  using T = int128_t;
  using Owned = int128_t;
  static constexpr format::Type::type kType = format::Type::FIXED_LEN_BYTE_ARRAY;
  static constexpr bool kBitPacked = false;
  static constexpr bool kDictionary = true;
  static T Load(const Vector& v, idx_t row) { return v.data<int128_t>()[row]; }
  static void ToBigEndian(T v, char* out) {
    auto u = static_cast<uint128_t>(v);
    for (int i = 15; i >= 0; i--, u >>= 8)
      out[i] = static_cast<char>(u & 0xFF);
  }
  static size_t PlainSize(T) { return 16; }
  static void AppendPlain(T v, std::string* out) {
    char bytes[16];
    ToBigEndian(v, bytes);
    out->append(bytes, 16);
  }
  static void AppendBound(T v, std::string* out) { AppendPlain(v, out); }
  static bool Equal(T a, T b) { return a == b; }
  static uint64_t DictHash(T v) {
    const auto u = static_cast<uint128_t>(v);
    return MixHash(static_cast<uint64_t>(u) ^ MixHash(static_cast<uint64_t>(u >> 64)));
  }
  static uint64_t BloomHash(T v) {
    char bytes[16];
    ToBigEndian(v, bytes);
    return SplitBlockBloomFilter::HashBytes(bytes, 16);
  }
  // DECIMAL orders as signed numbers, whatever the physical type.
  static bool Less(T a, T b) { return a < b; }
  static bool Ordered(T) { return true; }
};

struct ByteArrayTraits {
  using T = std::string_view;
  using Owned = std::string;
  static constexpr format::Type::type kType = format::Type::BYTE_ARRAY;
  static constexpr bool kBitPacked = false;
  static constexpr bool kDictionary = true;
  static T Load(const Vector& v, idx_t row) { return v.data<StringRef>()[row].view(); }
  static size_t PlainSize(T v) { return 4 + v.size(); }
  static void AppendPlain(T v, std::string* out) {
    const auto len = static_cast<uint32_t>(v.size());
    out->append(reinterpret_cast<const char*>(&len), 4);
    out->append(v);
  }
  static void AppendBound(T v, std::string* out) { out->append(v); }
  static bool Equal(T a, T b) { return a == b; }
  static uint64_t DictHash(T v) { return XXH3_64bits(v.data(), v.size()); }
  static uint64_t BloomHash(T v) { return SplitBlockBloomFilter::HashBytes(v.data(), v.size()); }
  // string_view compares bytes as unsigned char: Parquet's order for BYTE_ARRAY.
  static bool Less(T a, T b) { return a < b; }
  static bool Ordered(T) { return true; }
};

}  // namespace

namespace {

template <typename Traits>
class TypedColumnWriter final : public ColumnChunkWriter {
  using T = typename Traits::T;
  using Owned = typename Traits::Owned;
  static constexpr bool kBytes = std::is_same_v<T, std::string_view>;
  // DOUBLE and FLOAT: NaN and signed zero rules.
  static constexpr bool kDouble = std::is_same_v<T, double> || std::is_same_v<T, float>;

  static T View(const Owned& v) { return T(v); }
  static void Assign(Owned& to, T v) {
    if constexpr (kBytes) {
      to.assign(v.data(), v.size());
    } else {
      to = v;
    }
  }

  struct MinMax {
    bool has = false;
    Owned min{}, max{};
    void Update(T v) {
      if (!has) {
        Assign(min, v);
        Assign(max, v);
        has = true;
      } else if (Traits::Less(v, View(min))) {
        Assign(min, v);
      } else if (Traits::Less(View(max), v)) {
        Assign(max, v);
      }
    }
    void Merge(const MinMax& other) {
      if (!other.has) return;
      Update(View(other.min));
      Update(View(other.max));
    }
  };

 public:
  TypedColumnWriter(std::string name, LogicalType type, const WriterOptions& options, bool bloom,
                    bool list)
      : ColumnChunkWriter(std::move(name), type, Traits::kType, options, bloom, list) {
    if (list_) elements_ = Vector(type_, kBatchSize);
    ResetChunk();
  }

  void Validate(const Vector& vector, idx_t count) const override {
    if (list_) {
      ValidateLists(vector, count);
    } else {
      ValidateValues(vector, count);
    }
  }

 private:
  void ValidateValues(const Vector& vector, idx_t count) const {
    const auto& validity = vector.validity();
    if (type_.id() == TypeId::kVarchar) {
      const auto* values = vector.data<StringRef>();
      for (idx_t row = 0; row < count; row++) {
        if (validity.IsValid(row) && !IsValidUtf8(values[row].ptr, values[row].len)) {
          throw InvalidInputError("column '{}': the VARCHAR value in row {} is not valid UTF-8",
                                  name_, row);
        }
      }
    } else if (type_.id() == TypeId::kDecimal) {
      int128_t limit = 1;
      for (int i = 0; i < type_.precision(); i++)
        limit *= 10;
      const bool narrow = type_.physical() == PhysicalType::kInt64;
      for (idx_t row = 0; row < count; row++) {
        if (!validity.IsValid(row)) continue;
        const int128_t v = narrow ? vector.data<int64_t>()[row] : vector.data<int128_t>()[row];
        if (v >= limit || v <= -limit) {
          throw InvalidInputError("column '{}': the value {} in row {} does not fit {}", name_,
                                  FormatDecimal(v, type_.scale()), row, type_.ToString());
        }
      }
    }
  }

 public:
  void Write(const Vector& vector, idx_t begin, idx_t end) override {
    if (list_) {
      WriteLists(vector, begin, end);
      return;
    }
    const auto& validity = vector.validity();
    const bool all_valid = validity.AllValid();
    for (idx_t row = begin; row < end; row++) {
      if constexpr (Traits::kDictionary) {
        // The dictionary lookups of a large chunk miss the cache: at each block of rows, start
        // loading the slots of the block after it, so they arrive while this one is encoded.
        if (dictionary_mode_ && (row - begin) % kPrefetchRows == 0) {
          const idx_t from = row == begin ? row : row + kPrefetchRows;
          for (idx_t ahead = from; ahead < std::min(end, row + 2 * kPrefetchRows); ahead++) {
            if (all_valid || validity.IsValid(ahead))
              dictionary_.Prefetch(Traits::DictHash(Traits::Load(vector, ahead)));
          }
        }
      }
      if (all_valid || validity.IsValid(row)) {
        AddValue(Traits::Load(vector, row));
      } else {
        page_null_rows_.push_back(static_cast<uint32_t>(page_rows_));
      }
      page_rows_++;
      if (page_rows_ >= options_.page_row_limit ||
          EstimatedPageBytes() >= options_.page_size_bytes) {
        FinishPage();
      }
    }
  }

  ChunkOutput FinishChunk() override {
    FinishPage();
    std::string dictionary_body;
    const bool has_dictionary = dictionary_pages_ > 0;
    if (has_dictionary) dictionary_body = dictionary_.PlainPage();

    std::optional<format::Statistics> statistics;
    // A LIST column's bounds would be its elements': readers would prune rows by them.
    if (options_.write_statistics && !list_) {
      format::Statistics s;
      s.__set_null_count(chunk_nulls_);
      // A chunk holding a NaN gets no bounds, as in DuckDB's writer: bounds that leave it out
      // would let `x > c` (NaN sorts above every number) skip a chunk holding a match.
      if (chunk_stats_.has && !chunk_has_nan_) {
        std::string min, max;
        bool min_exact = true, max_exact = true;
        if constexpr (kBytes) {
          const bool utf8 = type_.id() == TypeId::kVarchar;
          min = TruncatedLowerBound(chunk_stats_.min, kStatisticsBoundBytes, utf8);
          auto upper = TruncatedUpperBound(chunk_stats_.max, kStatisticsBoundBytes, utf8);
          max = upper ? std::move(*upper) : chunk_stats_.max;
          min_exact = min.size() == chunk_stats_.min.size();
          max_exact = max == chunk_stats_.max;
        } else {
          EncodeBounds(chunk_stats_, &min, &max);
        }
        s.__set_min_value(min);
        s.__set_max_value(max);
        s.__set_is_min_value_exact(min_exact);
        s.__set_is_max_value_exact(max_exact);
      }
      statistics = std::move(s);
    }

    auto order = format::BoundaryOrder::UNORDERED;
    if (ascending_) {
      order = format::BoundaryOrder::ASCENDING;
    } else if (descending_) {
      order = format::BoundaryOrder::DESCENDING;
    }
    ChunkOutput out =
        FinishChunkCommon(has_dictionary ? &dictionary_body : nullptr,
                          static_cast<int32_t>(dictionary_.size()), std::move(statistics), order);
    if (bloom_) {
      std::sort(bloom_hashes_.begin(), bloom_hashes_.end());
      bloom_hashes_.erase(std::unique(bloom_hashes_.begin(), bloom_hashes_.end()),
                          bloom_hashes_.end());
      auto filter = SplitBlockBloomFilter::ForNdv(bloom_hashes_.size(), options_.bloom_filter_fpp);
      for (uint64_t hash : bloom_hashes_)
        filter.InsertHash(hash);
      out.bloom = std::move(filter);
    }
    file_stats_.Merge(chunk_stats_);
    file_has_nan_ = file_has_nan_ || chunk_has_nan_;
    file_nulls_ += chunk_nulls_total_;
    ResetChunk();
    return out;
  }

  WrittenColumnStats FileStats() const override {
    WrittenColumnStats stats;
    if (list_) {
      stats.null_count = file_null_lists_;  // the rows', as the catalog's statistics are
      return stats;
    }
    stats.null_count = file_nulls_;
    if (file_stats_.has && !file_has_nan_) {
      T min = View(file_stats_.min), max = View(file_stats_.max);
      if constexpr (kDouble) {
        if (min == 0) min = -0.0;
        if (max == 0) max = 0.0;
      }
      stats.min = ToValue(min);
      stats.max = ToValue(max);
    }
    return stats;
  }

 private:
  // The checks of Validate, for each element of each list (or each value of a leaf's entries).
  void ValidateLists(const Vector& vector, idx_t count) const {
    if (type_.id() != TypeId::kVarchar && type_.id() != TypeId::kDecimal) return;
    Vector element(type_, 1);
    const auto* lists = vector.data<StringRef>();
    auto check = [&](const ListReader& reader, idx_t row) {
      element.Reset();
      reader.WriteTo(element, 0);
      try {
        ValidateValues(element, 1);
      } catch (const InvalidInputError&) {
        throw InvalidInputError(
            "column '{}': the {} in row {} has {} {}", name_, leaf_path_.empty() ? "list" : "value",
            row, leaf_path_.empty() ? "an element" : "a field",
            type_.id() == TypeId::kVarchar ? std::string("that is not valid UTF-8")
                                           : fmt::format("that does not fit {}", type_.ToString()));
      }
    };
    for (idx_t row = 0; row < count; row++) {
      if (vector.IsNull(row)) continue;
      if (!leaf_path_.empty()) {
        LeafEntries entries(type_, max_def_, lists[row].view());
        while (entries.Next()) {
          if (entries.value().empty()) continue;
          ListReader reader(type_, entries.value());
          reader.Next();
          check(reader, row);
        }
        continue;
      }
      ListReader reader(type_, lists[row].view());
      while (reader.Next()) {
        if (!reader.IsNull()) check(reader, row);
      }
    }
  }

  // A LIST column: each row's elements as level entries (repetition level 0 starts a row).
  // Definition levels: 0 a NULL list, 1 an empty one, 2 a NULL element, 3 a value. A page ends
  // only where a row does, so the offset index can give each page's first row.
  void WriteLists(const Vector& vector, idx_t begin, idx_t end) {
    const auto* lists = vector.data<StringRef>();
    for (idx_t row = begin; row < end; row++) {
      if (!leaf_path_.empty()) {
        WriteLeafEntries(lists[row].view());
      } else if (vector.IsNull(row)) {
        page_reps_.push_back(0);
        page_defs_.push_back(kListNullLevel);
        file_null_lists_++;
      } else {
        idx_t count = 0;
        elements_.Reset();
        ListReader reader(type_, lists[row].view());
        while (reader.Next()) {
          if (count == elements_.capacity()) elements_.Reserve(count * 2);
          reader.WriteTo(elements_, count++);
        }
        if (count == 0) {
          page_reps_.push_back(0);
          page_defs_.push_back(kListEmptyLevel);
        }
        for (idx_t i = 0; i < count; i++) {
          page_reps_.push_back(i == 0 ? 0 : 1);
          if (elements_.IsNull(i)) {
            page_defs_.push_back(kElementNullLevel);
          } else {
            page_defs_.push_back(kValueLevel);
            AddValue(Traits::Load(elements_, i));
          }
        }
      }
      page_rows_++;
      if (static_cast<int64_t>(page_defs_.size()) >= options_.page_row_limit ||
          EstimatedPageBytes() >= options_.page_size_bytes) {
        FinishPage();
      }
    }
  }

  // A nested column's leaf: one row's level entries as they come, the values encoded.
  void WriteLeafEntries(std::string_view row) {
    LeafEntries entries(type_, max_def_, row);
    while (entries.Next()) {
      page_reps_.push_back(entries.rep());
      page_defs_.push_back(entries.def());
      if (entries.value().empty()) continue;
      ListReader reader(type_, entries.value());
      reader.Next();
      elements_.Reset();
      reader.WriteTo(elements_, 0);
      AddValue(Traits::Load(elements_, 0));
    }
  }

  // One RLE / bit-packed run of levels with its 4-byte length prefix.
  static void AppendLevelRun(const std::vector<uint32_t>& levels, int bit_width,
                             std::string* body) {
    const size_t start = body->size();
    body->append(4, '\0');
    EncodeRleBitPacked(levels.data(), levels.size(), bit_width, body);
    const auto length = static_cast<uint32_t>(body->size() - start - 4);
    std::memcpy(body->data() + start, &length, 4);
  }

  void ResetChunk() {
    dictionary_.Clear();
    last_index_ = -1;
    dictionary_mode_ = Traits::kDictionary && options_.dictionary;
    dictionary_decided_ = false;
    chunk_stats_ = MinMax();
    chunk_has_nan_ = false;
    chunk_nulls_total_ = 0;
    ascending_ = descending_ = true;
    has_previous_bounds_ = false;
    bloom_hashes_.clear();
    bloom_dedupe_at_ = kBloomDedupeMin;
  }

  Value ToValue(T v) const {
    if constexpr (kBytes) {
      return type_.id() == TypeId::kVarchar ? Value::Varchar(std::string(v))
                                            : Value::Blob(std::string(v));
    } else if constexpr (std::is_same_v<T, float>) {
      return Value::Float(v);
    } else if constexpr (kDouble) {
      return Value::Double(v);
    } else if constexpr (std::is_same_v<T, uint8_t>) {
      return Value::Boolean(v != 0);
    } else {
      switch (type_.id()) {
        case TypeId::kInteger:
          return Value::Integer(static_cast<int32_t>(v));
        case TypeId::kDate:
          return Value::Date(static_cast<int32_t>(v));
        case TypeId::kBigint:
          return Value::Bigint(static_cast<int64_t>(v));
        case TypeId::kTimestamp:
          return Value::Timestamp(static_cast<int64_t>(v));
        case TypeId::kTime:
          return Value::Time(static_cast<int64_t>(v));
        case TypeId::kDecimal:
          return Value::Decimal(static_cast<int128_t>(v), type_.precision(), type_.scale());
        default:
          throw InternalError("unexpected type {} for column '{}'", type_.ToString(), name_);
      }
    }
  }

  void AddBloom(T v) {
    if (!bloom_) return;
    if constexpr (kDouble) {
      // SQL equality does not tell 0.0 from -0.0: a probe for either must find the other.
      if (v == 0) {
        bloom_hashes_.push_back(Traits::BloomHash(0.0));
        bloom_hashes_.push_back(Traits::BloomHash(-0.0));
        return;
      }
    }
    bloom_hashes_.push_back(Traits::BloomHash(v));
    if (bloom_hashes_.size() >= bloom_dedupe_at_) {
      // Keep memory proportional to distinct values for long PLAIN chunks.
      std::sort(bloom_hashes_.begin(), bloom_hashes_.end());
      bloom_hashes_.erase(std::unique(bloom_hashes_.begin(), bloom_hashes_.end()),
                          bloom_hashes_.end());
      bloom_dedupe_at_ = std::max(kBloomDedupeMin, bloom_hashes_.size() * 2);
    }
  }

  void AppendPlainValue(T v) {
    Traits::AppendPlain(v, &page_plain_);
    AddBloom(v);
  }

  void AddValue(T v) {
    if constexpr (Traits::kBitPacked) {
      page_bits_.push_back(v);
    } else {
      if (dictionary_mode_) {
        // Sorted or clustered columns (a ticket's rows share its customer, store and date)
        // repeat the previous value: no lookup for those.
        if (last_index_ >= 0 && Traits::Equal(LastValue(), v)) {
          page_indexes_.push_back(static_cast<uint32_t>(last_index_));
          page_plain_bytes_ += Traits::PlainSize(v);
          UpdateStats(v);
          return;
        }
        const uint64_t hash = Traits::DictHash(v);
        size_t slot;
        int64_t index = dictionary_.Find(v, hash, &slot);
        if (index >= 0) {
          SetLast(index, v);
          page_indexes_.push_back(static_cast<uint32_t>(index));
          page_plain_bytes_ += Traits::PlainSize(v);
        } else if (dictionary_.plain_bytes() + Traits::PlainSize(v) >
                   static_cast<uint64_t>(options_.dictionary_page_limit_bytes)) {
          // The dictionary is full: pages so far stay dictionary-encoded, the rest of the
          // chunk is PLAIN.
          if (list_) {
            // A list's page ends only with a row: this page's values so far turn PLAIN.
            for (uint32_t index : page_indexes_)
              Traits::AppendPlain(dictionary_.value(index), &page_plain_);
            page_indexes_.clear();
            page_plain_bytes_ = 0;
          } else {
            FinishPage();
          }
          dictionary_mode_ = false;
          AppendPlainValue(v);
        } else {
          const uint32_t inserted = dictionary_.Insert(slot, v, hash);
          SetLast(inserted, v);
          page_indexes_.push_back(inserted);
          page_plain_bytes_ += Traits::PlainSize(v);
          AddBloom(v);
        }
      } else {
        AppendPlainValue(v);
      }
    }
    UpdateStats(v);
  }

  // The previous dictionary-encoded value. A fixed-width one is kept here: its dictionary entry
  // is a cache miss away in a large dictionary. A string's bytes were just compared in the
  // dictionary, so they are still cached.
  T LastValue() const {
    if constexpr (kBytes) {
      return dictionary_.value(static_cast<uint32_t>(last_index_));
    } else {
      return last_value_;
    }
  }
  void SetLast(int64_t index, T v) {
    last_index_ = index;
    if constexpr (!kBytes) last_value_ = v;
  }

  void UpdateStats(T v) {
    if (Traits::Ordered(v)) {
      page_stats_.Update(v);
    } else {
      page_has_nan_ = true;
    }
  }

  int64_t EstimatedPageBytes() const {
    if constexpr (Traits::kBitPacked) {
      return static_cast<int64_t>(page_bits_.size() / 8);
    } else if (dictionary_mode_) {
      return static_cast<int64_t>(page_indexes_.size() *
                                  std::bit_width(static_cast<uint64_t>(dictionary_.size())) / 8);
    } else {
      return static_cast<int64_t>(page_plain_.size());
    }
  }

  int DictionaryBitWidth() const {
    return std::max(1, BitWidthForMaxValue(static_cast<uint32_t>(dictionary_.size() - 1)));
  }

  // Definition levels (1 = value, 0 = NULL), RLE with a 4-byte length prefix.
  void AppendLevels(std::string* body) {
    const size_t start = body->size();
    body->append(4, '\0');
    if (page_null_rows_.empty()) {
      EncodeRleRun(1, static_cast<size_t>(page_rows_), 1, body);
    } else {
      levels_.assign(static_cast<size_t>(page_rows_), 1);
      for (uint32_t row : page_null_rows_)
        levels_[row] = 0;
      EncodeRleBitPacked(levels_.data(), levels_.size(), 1, body);
    }
    const auto length = static_cast<uint32_t>(body->size() - start - 4);
    std::memcpy(body->data() + start, &length, 4);
  }

  void EncodeBounds(const MinMax& stats, std::string* min, std::string* max) const {
    T lo = View(stats.min), hi = View(stats.max);
    if constexpr (kDouble) {
      // Parquet: a zero min is written as -0.0 and a zero max as +0.0.
      if (lo == 0) lo = -0.0;
      if (hi == 0) hi = 0.0;
    }
    Traits::AppendBound(lo, min);
    Traits::AppendBound(hi, max);
  }

  void FinishPage() {
    if (page_rows_ == 0) return;
    int64_t entries = page_rows_;
    int64_t nulls = static_cast<int64_t>(page_null_rows_.size());
    body_.clear();
    if (list_) {
      // Page v1: repetition levels, then definition levels.
      entries = static_cast<int64_t>(page_defs_.size());
      nulls = entries -
              std::count(page_defs_.begin(), page_defs_.end(), static_cast<uint32_t>(max_def_));
      // A STRUCT's leaf outside any list has no repetition levels.
      if (max_rep_ > 0) {
        AppendLevelRun(page_reps_, BitWidthForMaxValue(static_cast<uint32_t>(max_rep_)), &body_);
      }
      AppendLevelRun(page_defs_, BitWidthForMaxValue(static_cast<uint32_t>(max_def_)), &body_);
    } else {
      AppendLevels(&body_);
    }
    const int64_t values = entries - nulls;
    auto encoding = format::Encoding::PLAIN;
    if constexpr (Traits::kBitPacked) {
      EncodePlainBoolean(page_bits_.data(), page_bits_.size(), &body_);
    } else {
      if (dictionary_mode_ && values > 0 && !dictionary_decided_) {
        // Nearly unique values make dictionary encoding larger than PLAIN: the first page
        // decides, and is re-encoded PLAIN if so.
        dictionary_decided_ = true;
        const uint64_t encoded =
            dictionary_.plain_bytes() + (page_indexes_.size() * DictionaryBitWidth() + 7) / 8;
        if (encoded >= page_plain_bytes_) {
          for (uint32_t index : page_indexes_)
            Traits::AppendPlain(dictionary_.value(index), &page_plain_);
          dictionary_.Clear();
          last_index_ = -1;
          dictionary_mode_ = false;
        }
      }
      if (dictionary_mode_ && values > 0) {
        encoding = format::Encoding::RLE_DICTIONARY;
        const int width = DictionaryBitWidth();
        body_.push_back(static_cast<char>(width));
        EncodeRleBitPacked(page_indexes_.data(), page_indexes_.size(), width, &body_);
      } else {
        body_.append(page_plain_);
      }
    }

    std::string min, max;
    // A page holding a NaN has no bounds either (so the chunk gets no column index).
    const bool has_bounds = page_stats_.has && !page_has_nan_;
    if (has_bounds) {
      if constexpr (kBytes) {
        const bool utf8 = type_.id() == TypeId::kVarchar;
        min = TruncatedLowerBound(page_stats_.min, kPageIndexBoundBytes, utf8);
        auto upper = TruncatedUpperBound(page_stats_.max, kPageIndexBoundBytes, utf8);
        max = upper ? std::move(*upper) : page_stats_.max;
        TrackOrder(min, max);
      } else {
        EncodeBounds(page_stats_, &min, &max);
        T lo = View(page_stats_.min), hi = View(page_stats_.max);
        TrackOrder(lo, hi);
      }
    }
    EmitDataPage(body_, page_rows_, entries, nulls, encoding, has_bounds ? &min : nullptr,
                 has_bounds ? &max : nullptr);
    chunk_stats_.Merge(page_stats_);
    chunk_has_nan_ = chunk_has_nan_ || page_has_nan_;
    chunk_nulls_total_ += nulls;

    page_rows_ = 0;
    page_null_rows_.clear();
    page_reps_.clear();
    page_defs_.clear();
    page_indexes_.clear();
    page_plain_.clear();
    page_bits_.clear();
    page_plain_bytes_ = 0;
    page_stats_ = MinMax();
    page_has_nan_ = false;
  }

  // Boundary order over the pages with bounds, as written (null pages do not take part).
  void TrackOrder(T min, T max) {
    if (has_previous_bounds_) {
      const T prev_min = View(previous_min_), prev_max = View(previous_max_);
      if (Traits::Less(min, prev_min) || Traits::Less(max, prev_max)) ascending_ = false;
      if (Traits::Less(prev_min, min) || Traits::Less(prev_max, max)) descending_ = false;
    }
    Assign(previous_min_, min);
    Assign(previous_max_, max);
    has_previous_bounds_ = true;
  }

  static constexpr size_t kBloomDedupeMin = size_t{1} << 20;
  static constexpr idx_t kPrefetchRows = 16;

  static constexpr uint32_t kListNullLevel = 0, kListEmptyLevel = 1, kElementNullLevel = 2,
                            kValueLevel = 3;

  // Page state.
  int64_t page_rows_ = 0;
  std::vector<uint32_t> page_null_rows_;         // rows of the page that are NULL
  std::vector<uint32_t> page_reps_, page_defs_;  // a LIST column's levels, one per entry
  Vector elements_;                              // a LIST column's row, decoded
  std::vector<uint32_t> page_indexes_;           // dictionary mode
  uint64_t page_plain_bytes_ = 0;                // PLAIN size of the dictionary-encoded values
  std::string page_plain_;                       // PLAIN mode
  std::vector<uint8_t> page_bits_;               // BOOLEAN
  MinMax page_stats_;
  bool page_has_nan_ = false;
  std::string body_;
  std::vector<uint32_t> levels_;

  // Chunk state.
  Dictionary<Traits> dictionary_;
  bool dictionary_mode_ = false;
  int64_t last_index_ = -1;  // of the previous dictionary-encoded value, -1 when none
  T last_value_{};           // that value, when fixed-width
  bool dictionary_decided_ = false;
  MinMax chunk_stats_;
  bool chunk_has_nan_ = false;
  int64_t chunk_nulls_total_ = 0;
  bool ascending_ = true, descending_ = true;
  bool has_previous_bounds_ = false;
  Owned previous_min_{}, previous_max_{};
  std::vector<uint64_t> bloom_hashes_;
  size_t bloom_dedupe_at_ = kBloomDedupeMin;

  // File state.
  MinMax file_stats_;
  bool file_has_nan_ = false;
  int64_t file_nulls_ = 0;
  int64_t file_null_lists_ = 0;
};

}  // namespace

std::unique_ptr<ColumnChunkWriter> MakeValueWriter(const std::string& name, const LogicalType& type,
                                                   const WriterOptions& options, bool bloom,
                                                   bool list) {
  switch (type.id()) {
    case TypeId::kBoolean:
      return std::make_unique<TypedColumnWriter<BooleanTraits>>(name, type, options, bloom, list);
    case TypeId::kInteger:
    case TypeId::kDate:
      return std::make_unique<TypedColumnWriter<Int32Traits>>(name, type, options, bloom, list);
    case TypeId::kBigint:
    case TypeId::kTimestamp:
    case TypeId::kTime:
      return std::make_unique<TypedColumnWriter<Int64Traits>>(name, type, options, bloom, list);
    case TypeId::kDouble:
      return std::make_unique<TypedColumnWriter<DoubleTraits>>(name, type, options, bloom, list);
    case TypeId::kFloat:
      return std::make_unique<TypedColumnWriter<FloatTraits>>(name, type, options, bloom, list);
    case TypeId::kDecimal:
      if (type.precision() <= 9) {
        return std::make_unique<TypedColumnWriter<Decimal32Traits>>(name, type, options, bloom,
                                                                    list);
      }
      if (type.precision() <= LogicalType::kMaxInt64DecimalPrecision) {
        return std::make_unique<TypedColumnWriter<Int64Traits>>(name, type, options, bloom, list);
      }
      return std::make_unique<TypedColumnWriter<Decimal128Traits>>(name, type, options, bloom,
                                                                   list);
    case TypeId::kVarchar:
    case TypeId::kBlob:
      return std::make_unique<TypedColumnWriter<ByteArrayTraits>>(name, type, options, bloom, list);
    case TypeId::kInterval:
      ThrowIntervalNotWritable(name);
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      // MakeColumnWriter gives nested columns a NestedColumnWriter.
      throw InternalError("column '{}' of type {} is not flat", name, type.ToString());
    case TypeId::kInvalid:
      break;
  }
  throw InvalidInputError("column '{}' has no valid type", name);
}

std::unique_ptr<ColumnChunkWriter> MakeColumnWriter(const std::string& name,
                                                    const LogicalType& type,
                                                    const WriterOptions& options, bool bloom) {
  if (type.IsNested() && !(type.IsList() && !type.element().IsNested())) {
    return std::make_unique<NestedColumnWriter>(name, type, options);
  }
  if (type.IsList()) return MakeValueWriter(name, type.element(), options, bloom, true);
  return MakeValueWriter(name, type, options, bloom, false);
}

}  // namespace shears::parquet
