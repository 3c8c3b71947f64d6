#pragma once
// Writes a nested column (STRUCT, MAP, LIST of a nested type): each row's value is shredded,
// Dremel style, into level entries of the column's leaves (nested_schema.h's tree), which
// leaf writers (column_writer.cpp's in leaf mode) encode as chunks of their own.

#include <memory>
#include <string>
#include <vector>

#include "storage/parquet/column_writer.h"
#include "storage/parquet/nested_schema.h"

namespace shears::parquet {

/// Appends the level entries of a nested value of `column`'s type (its bytes; `present` false
/// for NULL) to `leaf_rows`, one row's bytes per leaf.
void ShredNestedValue(const NestedColumn& column, bool present, std::string_view bytes,
                      std::vector<std::string>* leaf_rows);

class NestedColumnWriter final : public ColumnChunkWriter {
 public:
  NestedColumnWriter(const std::string& name, const LogicalType& type,
                     const WriterOptions& options);
  void Validate(const Vector& vector, idx_t count) const override;
  void Write(const Vector& vector, idx_t begin, idx_t end) override;
  ChunkOutput FinishChunk() override;
  std::vector<ChunkOutput> FinishChunks() override;
  WrittenColumnStats FileStats() const override;
  size_t buffered_bytes() const override;

 private:
  /// Rows [begin, end) of `vector` as each leaf's rows of level entries.
  std::vector<Vector> Shred(const Vector& vector, idx_t begin, idx_t end) const;

  NestedColumn column_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> leaves_;
  int64_t null_rows_ = 0;
};

}  // namespace shears::parquet
