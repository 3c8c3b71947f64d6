#include "execution/operator/physical_recursive_cte.h"

#include <atomic>
#include <functional>
#include <set>
#include <unordered_set>

#include "common/error.h"
#include "execution/operator/physical_cte.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

struct BatchScanState : GlobalSourceState {
  std::atomic<size_t> next{0};
};

struct RecursiveCteState : GlobalSourceState {
  explicit RecursiveCteState(ColumnDataCollection r, MemoryTracker& m)
      : result(std::move(r)), memory(m) {}
  ~RecursiveCteState() override { memory.Release(seen_bytes); }
  ColumnDataCollection result;
  MemoryTracker& memory;
  std::unordered_set<std::string> seen;  // UNION: every row produced, as a key
  int64_t seen_bytes = 0;
  std::atomic<size_t> next{0};
};

/// A row's identity for UNION: each column's text behind its length, or a NULL mark (so
/// 'NULL' and NULL, or 'a|b' and 'a', 'b' stay apart).
std::string RowKey(const Batch& batch, idx_t row) {
  std::string key;
  for (idx_t c = 0; c < batch.column_count(); c++) {
    const Vector& column = batch.column(c);
    if (column.IsNull(row)) {
      key += '\x01';
      continue;
    }
    const std::string text = column.ValueToString(row);
    key += '\x02' + std::to_string(text.size()) + ':' + text;
  }
  return key;
}

/// Moves the rows of `collected` into `out`; with `seen` (UNION) only those not seen before,
/// which are remembered.
void AddNewRows(ColumnDataCollection& collected, ColumnDataCollection& out,
                RecursiveCteState* dedupe) {
  if (!dedupe) {
    out.Combine(collected);
    return;
  }
  std::vector<uint32_t> keep;
  for (size_t b = 0; b < collected.batch_count(); b++) {
    Batch& batch = collected.batch(b);
    keep.clear();
    for (idx_t row = 0; row < batch.size(); row++) {
      std::string key = RowKey(batch, row);
      const auto bytes = static_cast<int64_t>(key.size() + 32);
      if (dedupe->seen.insert(std::move(key)).second) {
        dedupe->memory.Reserve(bytes);
        dedupe->seen_bytes += bytes;
        keep.push_back(static_cast<uint32_t>(row));
      }
    }
    if (keep.size() == batch.size()) {
      out.Append(batch);
    } else if (!keep.empty()) {
      batch.Select(keep.data(), keep.size());
      out.Append(batch);
    }
  }
}

/// The dynamic filters some operator of `op`'s tree fills.
void CollectProducedFilters(const PhysicalOperator& op, std::vector<int>& out) {
  for (int id : op.SinkProducedDynamicFilters())
    out.push_back(id);
  for (const auto& child : op.children())
    CollectProducedFilters(*child, out);
}

bool EmitBatch(const ColumnDataCollection& data, std::atomic<size_t>& next, Batch& out) {
  const size_t index = next.fetch_add(1);
  if (index >= data.batch_count()) return false;
  const Batch& batch = data.batch(index);
  for (idx_t c = 0; c < batch.column_count(); c++)
    out.column(c).Reference(batch.column(c));
  out.SetSize(batch.size());
  return true;
}

}  // namespace

std::unique_ptr<GlobalSourceState> PhysicalWorkingTableScan::GetGlobalSourceState(
    ExecutionContext&) const {
  return std::make_unique<BatchScanState>();
}

bool PhysicalWorkingTableScan::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                                       LocalSourceState&) const {
  if (!table_->rows) return false;
  return EmitBatch(*table_->rows, static_cast<BatchScanState&>(global).next, out);
}

PhysicalRecursiveCte::PhysicalRecursiveCte(std::vector<LogicalType> types,
                                           PhysicalOperatorPtr anchor,
                                           PhysicalOperatorPtr recursive,
                                           std::shared_ptr<WorkingTable> table, bool union_all,
                                           std::string cte_name)
    : PhysicalOperator("RECURSIVE_CTE", types),
      table_(std::move(table)),
      union_all_(union_all),
      cte_name_(std::move(cte_name)) {
  for (PhysicalOperatorPtr* term : {&anchor, &recursive}) {
    auto collector = std::make_unique<PhysicalResultCollector>(types);
    collector->AddChild(std::move(*term));
    AddChild(std::move(collector));
  }
}

namespace {

/// The CTEs that `op`'s tree scans and those it materializes itself.
void CollectCtes(const PhysicalOperator& op, std::set<const PhysicalMaterializedCte*>& scanned,
                 std::set<const PhysicalMaterializedCte*>& inner) {
  if (const auto* scan = dynamic_cast<const PhysicalCteScan*>(&op)) scanned.insert(&scan->cte());
  if (const auto* cte = dynamic_cast<const PhysicalMaterializedCte*>(&op)) inner.insert(cte);
  for (const auto& child : op.children())
    CollectCtes(*child, scanned, inner);
}

}  // namespace

void PhysicalRecursiveCte::BuildPipelines(Pipeline& current, PipelineBuilder&) {
  current.source = this;
  // The terms run in executions of their own, when this source starts: a CTE materialized
  // outside them that they scan must be computed before this pipeline.
  std::set<const PhysicalMaterializedCte*> scanned;
  std::set<const PhysicalMaterializedCte*> inner;
  for (const auto& term : children_)
    CollectCtes(*term, scanned, inner);
  for (const PhysicalMaterializedCte* cte : scanned) {
    if (inner.count(cte)) continue;  // built and run inside the term's execution
    SHEARS_CHECK(cte->definition_pipeline() != nullptr);
    current.dependencies.push_back(cte->definition_pipeline());
  }
}

std::unique_ptr<GlobalSourceState> PhysicalRecursiveCte::GetGlobalSourceState(
    ExecutionContext& context) const {
  MemoryTracker& memory = context.query().memory();
  auto state = std::make_unique<RecursiveCteState>(ColumnDataCollection(types_, &memory), memory);
  RecursiveCteState* dedupe = union_all_ ? nullptr : state.get();
  const PhysicalOperator& anchor = *children_[0];
  const PhysicalOperator& recursive = *children_[1];
  std::vector<int> filters;
  CollectProducedFilters(recursive, filters);

  Executor(context).Execute(const_cast<PhysicalOperator&>(anchor));
  auto working = std::make_unique<ColumnDataCollection>(types_, &memory);
  AddNewRows(PhysicalResultCollector::Result(context, anchor), *working, dedupe);
  const int64_t limit = context.query().settings().GetInt("max_recursive_iterations");
  for (int64_t iteration = 0; working->row_count() > 0; iteration++) {
    context.CheckCancelled();
    if (limit > 0 && iteration >= limit) {
      throw OutOfRangeError(
          "the recursive query \"{}\" was still adding rows after max_recursive_iterations = {} "
          "iterations (SET max_recursive_iterations = 0 removes the limit)",
          cte_name_, limit);
    }
    table_->rows = std::move(working);
    for (int id : filters)
      context.dynamic_filters().Forget(id);
    Executor(context).Execute(const_cast<PhysicalOperator&>(recursive));
    working = std::make_unique<ColumnDataCollection>(types_, &memory);
    AddNewRows(PhysicalResultCollector::Result(context, recursive), *working, dedupe);
    state->result.Combine(*table_->rows);
  }
  table_->rows.reset();
  return state;
}

bool PhysicalRecursiveCte::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                                   LocalSourceState&) const {
  auto& state = static_cast<RecursiveCteState&>(global);
  return EmitBatch(state.result, state.next, out);
}

std::string PhysicalRecursiveCte::Describe() const {
  return name_ + " " + cte_name_ + (union_all_ ? " (UNION ALL)" : " (UNION)");
}

}  // namespace shears
