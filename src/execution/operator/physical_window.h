#pragma once
// WINDOW: window functions sharing one PARTITION BY / ORDER BY (their frames may differ).
//
// As a sink, each thread evaluates the keys and arguments of its input batches and stores
// the rows (input columns, then those values) in hash buckets by the PARTITION BY keys, so a
// partition lies in one bucket; Combine moves a thread's buckets into the global ones. As a
// source, each thread takes a bucket at a time, sorts it by (PARTITION BY, ORDER BY) with
// normalized keys (sort_key.h), finds partitions and peer groups, computes every window
// function (window_functions.h) and emits the bucket's rows with the results: partitions
// run in parallel. Without PARTITION BY there is one bucket. Rows, sort records and results
// are counted against memory_limit. With PARTITION BY, past half of memory_limit the threads
// write their buckets' rows to spill files and each bucket is read back when it is computed
// (spilling by partition: one of the 64 buckets per thread in memory).
//
// With a row limit (window_limit: a filter above keeps rows whose row_number, rank or
// dense_rank is at most N), rows beyond it are dropped before they are emitted; when every
// window is row_number, rank or dense_rank over an ORDER BY and the limit is not on a
// dense_rank, each partition's first N rows (and for rank the ties of the N-th) are selected
// before sorting (nth_element), so only those are sorted: ranking values depend only on the
// rows before, and the selected rows are a prefix of the partition's order.

#include <memory>

#include "execution/physical_operator.h"
#include "execution/row_layout.h"
#include "execution/sort_key.h"
#include "expression/expression.h"

namespace shears {

class MemoryReservation;

class PhysicalWindow : public PhysicalOperator {
 public:
  /// `types`: the input columns, then one per window. `windows`: BoundWindows over the input,
  /// all of the same PARTITION BY and ORDER BY.
  /// `row_limit` >= 0: rows whose windows[limit_window] (row_number, rank or dense_rank)
  /// exceeds it need not be emitted.
  PhysicalWindow(std::vector<LogicalType> types, std::vector<BoundExprPtr> windows,
                 int64_t row_limit = -1, idx_t limit_window = 0);

  bool IsSink() const override { return true; }
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;

  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  std::string Describe() const override;
  std::string NoSpillReason() const override;
  /// "spilled": what the sink wrote to spill files.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

 private:
  friend struct WindowLocalSinkState;
  friend struct WindowLocalSourceState;

  const BoundWindow& window(idx_t i) const { return static_cast<const BoundWindow&>(*windows_[i]); }
  /// The payload column holding the value of `expr` (an input column or an evaluated one).
  idx_t PayloadColumn(const BoundExpr& expr);
  /// Gives a thread's sink empty buckets.
  void ResetLocalBuckets(ExecutionContext& context, struct WindowLocalSinkState& local) const;
  /// Writes a thread's buckets to a spill file and gives it empty ones.
  void SpillBuckets(ExecutionContext& context, struct WindowGlobalSinkState& global,
                    struct WindowLocalSinkState& local) const;
  /// Sorts one bucket and computes the windows into `local`.
  void ProcessBucket(ExecutionContext& context, struct WindowGlobalSinkState& global, idx_t bucket,
                     struct WindowLocalSourceState& local) const;

  /// Numbers rows 0..n of `keys` (the PARTITION BY values of a bucket) by partition, in the
  /// order partitions first appear.
  /// Moves to the front of `records` (n sort records, in any order) those of each partition
  /// that can be within the row limit; returns how many. `partition_of`: each record's
  /// partition number (null: one partition).
  idx_t SelectTop(uint8_t* records, idx_t n, const int32_t* partition_of,
                  MemoryReservation& memory) const;
  /// Drops the computed rows of `local` beyond the row limit.
  void DropBeyondLimit(struct WindowLocalSourceState& local) const;

  static Vector NumberPartitions(const std::vector<Vector>& keys, idx_t n,
                                 MemoryReservation& memory);

  std::vector<BoundExprPtr> windows_;
  idx_t input_columns_ = 0;
  /// Expressions evaluated into payload columns input_columns_, input_columns_ + 1, ...
  std::vector<BoundExprPtr> evaluated_;
  RowLayout payload_;
  /// The partition number (a constant standing for NumberPartitions' column, with PARTITION
  /// BY) then the ORDER BY keys, as references to payload columns.
  std::vector<BoundOrderBy> sort_keys_;
  std::unique_ptr<SortKeyLayout> sort_layout_;
  std::vector<idx_t> partition_columns_;  // payload columns of the PARTITION BY keys
  /// Per window: the payload column of each argument, and of the RANGE key and bounds (-1:
  /// none).
  struct WindowColumns {
    std::vector<idx_t> args;
    int64_t range_key = -1, range_start = -1, range_end = -1;
  };
  std::vector<WindowColumns> window_columns_;
  int64_t row_limit_ = -1;
  idx_t limit_window_ = 0;
  bool select_top_ = false;  // SelectTop before sorting
};

}  // namespace shears
