#pragma once
// A materialized sequence of batches (results, build sides, buffered inputs), with its memory
// counted against the query's limit.

#include <memory>
#include <vector>

#include "common/vector.h"

namespace shears {

class MemoryTracker;

class ColumnDataCollection {
 public:
  ColumnDataCollection(std::vector<LogicalType> types, MemoryTracker* memory = nullptr);
  ~ColumnDataCollection();
  ColumnDataCollection(ColumnDataCollection&&) = default;

  const std::vector<LogicalType>& types() const { return types_; }
  /// Appends a copy of `batch`'s rows (string bytes are copied too, so the collection owns
  /// everything it holds).
  void Append(const Batch& batch);
  /// Moves all batches of `other` to the end of this collection.
  void Combine(ColumnDataCollection& other);

  idx_t row_count() const { return rows_; }
  size_t batch_count() const { return batches_.size(); }
  const Batch& batch(size_t i) const { return *batches_[i]; }
  Batch& batch(size_t i) { return *batches_[i]; }
  /// Bytes held (approximate), as counted against the memory tracker.
  int64_t bytes() const { return bytes_; }

 private:
  std::vector<LogicalType> types_;
  MemoryTracker* memory_;
  std::vector<std::unique_ptr<Batch>> batches_;
  idx_t rows_ = 0;
  int64_t bytes_ = 0;
};

/// Copies `source` into `target` (same types), including string bytes into target's heap.
void DeepCopyBatch(const Batch& source, Batch& target);

}  // namespace shears
