#pragma once
// ORDER_BY and TOP_N.
//
// ORDER_BY sorts its whole input: each thread materializes its rows (row format) and their
// normalized sort keys (sort_key.h), radix-sorts them when its input ends (Combine, so threads
// sort in parallel), and Finalize merges the sorted runs into the final order. The sort is
// stable: equal keys keep their input order (within a thread's input). As a source it emits
// the rows in order, single-threaded.
//
// External sort: when the query's memory passes half of memory_limit, a thread sorts its run
// and writes it to a spill file (in blocks of 256 rows: sort records, rows, string bytes) and
// starts a new run; once anything spilled, Combine and Finalize write the other runs too, and
// the source merges the files k ways through a heap, one block per run in memory.
//
// TOP_N is ORDER BY + LIMIT/OFFSET: each thread keeps only its best limit + offset rows
// (rows worse than its current limit-th row are dropped before they are copied), then the
// merge emits rows offset .. offset + limit.

#include <memory>

#include "execution/physical_operator.h"
#include "execution/row_layout.h"
#include "execution/sort_key.h"
#include "planner/logical_plan.h"

namespace shears {

/// What ORDER_BY and TOP_N share: the row layout of materialized rows (the input columns,
/// then the values of string sort keys that are not plain input columns) and the sort keys.
struct SortSpec {
  SortSpec(const std::vector<LogicalType>& types, const std::vector<BoundOrderBy>& orders);
  RowLayout payload;
  std::unique_ptr<SortKeyLayout> keys;
  /// Order keys stored as extra payload columns (after the input columns), in order.
  std::vector<idx_t> extra_keys;
};

class PhysicalOrder : public PhysicalOperator {
 public:
  /// `orders`: keys over the input (whose columns are `types`).
  PhysicalOrder(std::vector<LogicalType> types, std::vector<BoundOrderBy> orders);

  bool IsSink() const override { return true; }
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  std::string Describe() const override;
  /// "spilled": what an external sort wrote.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;
  const std::vector<BoundOrderBy>& orders() const { return orders_; }

 protected:
  PhysicalOrder(std::string name, std::vector<LogicalType> types, std::vector<BoundOrderBy> orders,
                int64_t limit, int64_t offset);

  std::vector<BoundOrderBy> orders_;
  SortSpec spec_;
  int64_t limit_ = -1;  // TOP_N only
  int64_t offset_ = 0;
};

class PhysicalTopN : public PhysicalOrder {
 public:
  /// Rows offset .. offset + limit of the input ordered by `orders` (limit >= 0).
  PhysicalTopN(std::vector<LogicalType> types, std::vector<BoundOrderBy> orders, int64_t limit,
               int64_t offset);

  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  std::string Describe() const override;

  int64_t limit() const { return limit_; }
  int64_t offset() const { return offset_; }
};

}  // namespace shears
