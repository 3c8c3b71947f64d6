#pragma once
// An opened Parquet file: its footer parsed, its schema mapped to shears types, and access
// to the metadata pruning needs (statistics, column and offset indexes, bloom filters).
// Reading values is ParquetReader's job (parquet_reader.h).

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/types.h"
#include "common/value.h"
#include "parquet_types.h"
#include "storage/file_system.h"

namespace shears::parquet {

class SplitBlockBloomFilter;

/// How stored values become shears values.
enum class Conversion : uint8_t {
  kNone,              // stored as the shears type's storage (INT32->INTEGER, INT64->BIGINT, ...)
  kBoolean,           // BOOLEAN -> uint8_t
  kInt32ToInt64,      // UINT_32 -> BIGINT
  kUInt64ToDecimal,   // UINT_64 -> DECIMAL(20,0)
  kFloatToDouble,     // FLOAT -> DOUBLE
  kFloat16ToDouble,   // FLBA(2) FLOAT16 -> DOUBLE
  kInt32Decimal,      // DECIMAL in INT32
  kInt64Decimal,      // DECIMAL in INT64
  kBinaryDecimal,     // DECIMAL in FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY (big-endian two's complement)
  kMillisToMicros,    // TIMESTAMP(MILLIS)
  kMillis32ToMicros,  // TIME(MILLIS) in INT32
  kNanosToMicros,     // TIMESTAMP(NANOS), floor division
  kInt96ToMicros,     // INT96 (nanos of day + Julian day)
  kUuid,              // FLBA(16) UUID -> VARCHAR 8-4-4-4-12
  kString,            // BYTE_ARRAY / FLBA as VARCHAR or BLOB
};

struct NestedColumn;

/// A top-level column of the file, as shears sees it.
struct ColumnDescriptor {
  std::string name;
  /// Index of the leaf in each row group's column chunks (a nested column's first leaf; -1
  /// for a nested column that cannot be read).
  int leaf_index = -1;
  /// The leaves a nested (STRUCT, MAP, LIST of a nested type) column spans, from leaf_index.
  int leaf_count = 1;
  format::Type::type physical_type = format::Type::INT32;
  int type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int max_definition_level = 0;
  /// 1 for a LIST column (a list of a primitive type, one leaf): rows are counted by
  /// repetition level 0; 0 for flat columns. Also 1 for a nested column (`nested`): no
  /// statistic of its leaves describes its rows. A nested column's leaf: its own.
  int max_repetition_level = 0;
  /// A LIST column's definition levels: below `list_defined_level` the list is NULL, below
  /// `element_defined_level` it is empty, below max_definition_level the element is NULL.
  int list_defined_level = 0;
  int element_defined_level = 0;
  LogicalType type;  // invalid when the column cannot be read (see unsupported_reason)
  /// How the leaf's values convert: to `type`, or for a LIST column to its element type.
  Conversion conversion = Conversion::kNone;
  /// Set for nested (LIST/MAP/STRUCT) or otherwise unsupported columns; projecting such a
  /// column is a NotSupportedError with this text, the others stay readable.
  std::string unsupported_reason;
  /// Statistics compare as unsigned (UINT_* annotations) or bytewise (strings).
  bool unsigned_order = false;
  /// Human-readable Parquet type: "INT32 (DATE)", "BYTE_ARRAY (STRING)", ...
  std::string parquet_type_name;
  /// A nested column: its schema tree and leaves (nested_schema.h); null for the others.
  std::shared_ptr<const NestedColumn> nested;
  /// A leaf of a nested column: rows read as their level entries (nested_reader.h).
  bool nested_leaf = false;
};

/// Statistics of one column chunk, decoded into the column's shears type.
struct ColumnChunkStatistics {
  std::optional<Value> min;  // absent when unknown or unusable (e.g. legacy unsigned stats)
  std::optional<Value> max;
  /// FLOAT/DOUBLE bounds of a writer that may have left a NaN of the chunk out of them (all but
  /// shears since it marks its files: kCompleteFloatBoundsKey).
  bool max_may_exclude_nan = false;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  int64_t num_values = 0;  // including nulls
};

/// The column index of one column chunk, decoded.
struct ColumnIndexData {
  std::vector<bool> null_pages;
  std::vector<std::optional<Value>> min_values;  // nullopt for all-null pages
  std::vector<std::optional<Value>> max_values;
  std::vector<int64_t> null_counts;  // empty when the file has none
  format::BoundaryOrder::type boundary_order = format::BoundaryOrder::UNORDERED;
  bool max_may_exclude_nan = false;  // as in ColumnChunkStatistics
};

/// A parsed footer: the file's metadata and its columns as shears maps them. Immutable, so
/// every opening of an unchanged file shares one (see ParquetFile::Open).
struct ParquetFooter {
  FileIdentity identity;  // of the file when the footer was read
  format::FileMetaData metadata;
  uint32_t footer_length = 0;
  std::vector<ColumnDescriptor> columns;
  /// The file's key-value metadata holds kCompleteFloatBoundsKey: a FLOAT/DOUBLE chunk or page
  /// holding a NaN has no bounds, so the bounds there are bounds of every value.
  bool complete_float_bounds = false;
  /// FileColumnStatistics of each column, computed when first asked (a scan testing files by
  /// their cached footers asks once per query and file: the footer keeps the answer).
  mutable std::mutex file_statistics_mutex;
  mutable std::vector<std::unique_ptr<const ColumnChunkStatistics>> file_statistics;
  /// Whether no two top-level column names are equal ignoring ASCII case (FooterNamesUnique):
  /// -1 until first asked.
  mutable std::atomic<int8_t> names_unique{-1};
};

/// Whether no two top-level columns of `footer` share a name ignoring ASCII case, computed once
/// per footer: a column found by name in one file of a schema is then found at the same
/// position in another footer whose column there has that name.
bool FooterNamesUnique(const ParquetFooter& footer);

/// The key-value metadata entry shears' writer adds (value "true"): its FLOAT/DOUBLE bounds
/// leave no NaN out (a chunk or page holding one has none).
inline constexpr char kCompleteFloatBoundsKey[] = "shears.complete_float_bounds";

/// Counters of the process's footer cache, for tests and benchmarks.
struct FooterCacheStats {
  uint64_t footers_parsed = 0;  // footers read from a file and decoded
  uint64_t footers_reused = 0;  // openings that took a footer already decoded
};
FooterCacheStats GetFooterCacheStats();

/// The footer of `path` from the process's footer cache (no system call), or null. The file
/// may have changed since: a scan that decides from it that the file need not be opened first
/// checks that the file still has the footer's identity (`footer->identity`, one stat).
std::shared_ptr<const ParquetFooter> CachedFooter(const std::string& path);

/// The statistics of footer column `column` (top-level index) in `row_group`, as
/// ParquetFile::GetStatistics gives them.
ColumnChunkStatistics ChunkStatistics(const ParquetFooter& footer, int row_group, int column);
/// The statistics of footer column `column` over the whole file: min and max over its row
/// groups (absent when some row group holding a non-NULL value lacks them), null counts summed
/// (absent when some row group lacks one).
ColumnChunkStatistics FileColumnStatistics(const ParquetFooter& footer, int column);
/// The same, computed once per footer (valid as long as the footer).
const ColumnChunkStatistics& CachedFileColumnStatistics(const ParquetFooter& footer, int column);
/// Bounds of a FLOAT/DOUBLE chunk or page as pruning may trust them: none when one is NaN; a
/// zero min as -0.0; the max as NaN, since other writers leave a NaN value out of the bounds
/// and NaN sorts above every number (so `x > c` never prunes, `x < c` and `x = c` still do by
/// the min). Statistics (bounds as read, shown by `inspect` and the catalog) are widened so
/// only at pruning (SplitPruning's lookups, PageStatistics), and only where
/// max_may_exclude_nan says so.
void WidenFloatingBounds(std::optional<Value>* min, std::optional<Value>* max);
ColumnChunkStatistics PruningStatistics(ColumnChunkStatistics stats);

class ParquetFile {
 public:
  /// Opens `path` and parses its footer, unless the file is unchanged (same size, mtime and
  /// inode) since `known` or the process's footer cache read it: then that footer is shared
  /// and only the file is opened. Files modified in the last two seconds are not cached
  /// (RecentlyModified). Throws IOError when the file cannot be read, CorruptFileError
  /// (naming the file) when it is not valid Parquet, NotSupportedError for encrypted files.
  static std::shared_ptr<ParquetFile> Open(const std::string& path,
                                           std::shared_ptr<const ParquetFooter> known = nullptr);

  const std::string& path() const { return file_->path(); }
  RandomAccessFile& file() const { return *file_; }
  const format::FileMetaData& metadata() const { return footer_->metadata; }
  uint64_t file_size() const { return file_->size(); }
  uint32_t footer_length() const { return footer_->footer_length; }
  const std::shared_ptr<const ParquetFooter>& footer() const { return footer_; }
  /// Whether the footer came from an earlier opening rather than from reading the file.
  bool footer_reused() const { return footer_reused_; }

  const std::vector<ColumnDescriptor>& columns() const { return footer_->columns; }
  /// Index of the column named `name` (exact match, then case-insensitive), or -1.
  int FindColumn(const std::string& name) const;
  int64_t num_rows() const { return footer_->metadata.num_rows; }
  int num_row_groups() const { return static_cast<int>(footer_->metadata.row_groups.size()); }
  int64_t row_group_num_rows(int row_group) const;
  /// The chunk metadata of column `column` (top-level index) in `row_group`.
  const format::ColumnChunk& chunk(int row_group, int column) const;

  ColumnChunkStatistics GetStatistics(int row_group, int column) const;
  /// Reads and decodes the column index; nullopt when the file has none.
  std::optional<ColumnIndexData> ReadColumnIndex(int row_group, int column) const;
  std::optional<format::OffsetIndex> ReadOffsetIndex(int row_group, int column) const;
  /// Decode index bytes the caller read (page_index.h reads several with one request).
  /// CorruptFileError naming the file, column and row group when they do not parse.
  ColumnIndexData ParseColumnIndex(int row_group, int column, const uint8_t* data,
                                   size_t size) const;
  format::OffsetIndex ParseOffsetIndex(int row_group, int column, const uint8_t* data,
                                       size_t size) const;
  /// Reads the split-block bloom filter; nullptr when the chunk has none.
  std::unique_ptr<SplitBlockBloomFilter> ReadBloomFilter(int row_group, int column) const;

  /// Converts a statistics or column-index bound (plain-encoded bytes) of `column` to a Value;
  /// nullopt when the bytes are not usable for this type.
  std::optional<Value> DecodeBound(int column, const std::string& bytes) const;

  /// Throws NotSupportedError when `column` cannot be read (nested or unsupported type).
  void CheckReadable(int column) const;

 private:
  ParquetFile(std::unique_ptr<RandomAccessFile> file);
  void ParseFooter(ParquetFooter& footer);
  void BuildSchema(ParquetFooter& footer);

  std::unique_ptr<RandomAccessFile> file_;
  std::shared_ptr<const ParquetFooter> footer_;
  bool footer_reused_ = false;
};

/// Reads an enum field as the integer the file holds, without loading an out-of-range enum
/// value (undefined behaviour) first.
template <typename E>
int RawEnum(const E& value) {
  int raw = 0;
  static_assert(sizeof(E) == sizeof(int));
  std::memcpy(&raw, &value, sizeof(int));
  return raw;
}

/// Throws CorruptFileError naming `what` when an enum field holds a value outside [lo, hi].
template <typename E>
void CheckEnum(const E& value, int lo, int hi, const char* what) {
  const int raw = RawEnum(value);
  if (raw < lo || raw > hi) throw CorruptFileError("invalid {} {}", what, raw);
}

/// Parses a thrift compact-protocol struct from `data`, converting thrift errors into
/// CorruptFileError with `what` (e.g. "page header") in the message. Returns bytes consumed.
template <typename T>
uint32_t DeserializeThrift(const uint8_t* data, size_t size, T* out, const char* what);

}  // namespace shears::parquet
