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

#include <memory>

#include "execution/physical_operator.h"
#include "execution/row_layout.h"
#include "execution/sort_key.h"
#include "planner/expression.h"

namespace shears {

class MemoryReservation;

class PhysicalWindow : public PhysicalOperator {
 public:
  /// `types`: the input columns, then one per window. `windows`: BoundWindows over the input,
  /// all of the same PARTITION BY and ORDER BY.
  PhysicalWindow(std::vector<LogicalType> types, std::vector<BoundExprPtr> windows);

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
};

}  // namespace shears
