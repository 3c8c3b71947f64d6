#pragma once
// Reads a nested column (STRUCT, MAP, LIST of a nested type): one ColumnChunkReader per leaf
// gives each row's level entries, and the column's tree (nested_schema.h) assembles them into
// values, Dremel style: a node is NULL, empty or present by the definition level of its
// subtree's first leaf, and an entry whose repetition level is a list's starts its next
// element. Levels that do not fit the schema are a CorruptFileError, never a wrong value.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storage/parquet/column_reader.h"
#include "storage/parquet/nested_schema.h"

namespace shears::parquet {

/// The file bytes [first, second) holding the chunks of every leaf of nested column `column`
/// in `row_group`. CorruptFileError when a chunk lies outside the file.
std::pair<uint64_t, uint64_t> NestedChunkSpan(const ParquetFile& file, int row_group,
                                              const ColumnDescriptor& column);

class NestedColumnReader {
 public:
  /// `bytes` hold NestedChunkSpan's range of the file.
  NestedColumnReader(const ParquetFile& file, int row_group, const ColumnDescriptor& column,
                     const ChunkBytes& bytes, ScanCounters* counters);
  ~NestedColumnReader();

  void Read(idx_t count, Vector& out, idx_t out_offset);
  void SkipTo(int64_t row);
  int64_t row() const { return leaves_.front()->row(); }
  size_t held_bytes() const;

 private:
  // One leaf's entries of the row being assembled.
  struct Cursor {
    LeafEntries entries;
    bool has = false;  // at an entry
    uint8_t rep = 0, def = 0;
    std::string_view value;  // the entry's element bytes (tag and key) when def is the leaf's max
  };
  void Advance(size_t leaf);
  /// Appends the value of `node` at the cursors to `out` as a list element or struct field.
  void AppendElement(const NestedNode& node, std::string* out);
  /// The bytes of the nested value of `node` at the cursors into `bytes`; false when NULL.
  bool Build(const NestedNode& node, std::string* bytes);
  /// Passes over the one entry a NULL or empty `node` has in each of its leaves.
  void SkipAbsent(const NestedNode& node);
  [[noreturn]] void Fail(const std::string& what) const;

  const ParquetFile& file_;
  std::string name_;
  std::shared_ptr<const NestedColumn> nested_;
  int row_group_;
  std::vector<std::unique_ptr<ColumnChunkReader>> leaves_;
  std::vector<std::unique_ptr<Vector>> leaf_rows_;
  std::vector<Cursor> cursors_;
  std::string row_bytes_;
};

}  // namespace shears::parquet
