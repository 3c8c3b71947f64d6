#pragma once
// HASH_GROUP_BY: GROUP BY with aggregates (also SELECT DISTINCT: groups without aggregates,
// and ungrouped aggregates: aggregates without groups, which give one row even for empty
// input).
//
// As a sink, each thread aggregates into a hash table of its own (GroupedHashTable, split in
// partitions by hash); Combine merges a thread's partitions into the global table one
// partition at a time under that partition's lock, so threads merge in parallel. DISTINCT
// aggregates keep, per aggregate, a second table of distinct (group keys, value) pairs that
// Finalize feeds into the groups' states. As a source it emits the groups in morsels of a
// batch, so the pipeline above runs in parallel.

#include "execution/aggregate_hash_table.h"
#include "execution/aggregate_ops.h"
#include "execution/physical_operator.h"
#include "execution/row_layout.h"
#include "planner/expression.h"

namespace shears {

struct HashAggregateGlobalState;
struct HashAggregateLocalState;

class PhysicalHashAggregate : public PhysicalOperator {
 public:
  /// `types`: the group columns then one column per aggregate. `groups`: expressions over the
  /// input (usually BoundReference). `aggregates`: BoundAggregate whose `arg` is over the
  /// input; their `type` is the result type.
  /// `empty_input_groups`: key values of groups that get a row even when the input is empty
  /// (the empty sets of GROUPING SETS).
  PhysicalHashAggregate(std::vector<LogicalType> types, std::vector<BoundExprPtr> groups,
                        std::vector<BoundExprPtr> aggregates,
                        std::vector<std::vector<Value>> empty_input_groups = {});

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
  /// "groups": number of result rows.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

  const std::vector<BoundExprPtr>& groups() const { return groups_; }
  const std::vector<BoundExprPtr>& aggregates() const { return aggregates_; }
  const std::vector<std::vector<Value>>& empty_input_groups() const { return empty_input_groups_; }

 private:
  friend struct HashAggregateLocalState;
  friend struct HashAggregateGlobalState;

  const BoundAggregate& aggregate(idx_t i) const {
    return static_cast<const BoundAggregate&>(*aggregates_[i]);
  }
  /// GROUP BY one integer column without DISTINCT aggregates: groups go to a DenseGroupArray
  /// in front of the hash table.
  bool UsesDenseGroups() const {
    return groups_.size() == 1 && distinct_layouts_.empty() &&
           DenseGroupArray::Supports(key_exprs_[0]->type);
  }
  /// A CASE whose results are all constants (GROUP BY CASE ... THEN 'big' ELSE 'small' END)
  /// is grouped by an INTEGER code of its result instead: a copy of the CASE giving the code,
  /// with codes[code + 1] the result's value (codes[0]: NULL). Null for other expressions.
  static BoundExprPtr CodeConstantCase(const BoundExpr& group, std::vector<Value>* codes);
  /// Merges a thread's array into the global one (the first thread's becomes it), the groups
  /// outside the global range into the thread's table.
  void CombineDense(HashAggregateGlobalState& global, HashAggregateLocalState& local) const;
  /// Merges src[0..n) into the global array (under its lock); rows outside it go to `outside`.
  void MergeIntoDense(HashAggregateGlobalState& global, uint8_t* const* src, idx_t n,
                      std::vector<uint8_t*>* outside) const;
  /// Merges the non-DISTINCT states of src rows into dst rows.
  void CombineStates(uint8_t* const* src, uint8_t* const* dst, idx_t count,
                     StringArena& arena) const;

  std::vector<BoundExprPtr> groups_;
  std::vector<BoundExprPtr> aggregates_;
  std::vector<std::vector<Value>> empty_input_groups_;
  /// What is evaluated for each group key: groups_[g], or its code (CodeConstantCase), whose
  /// values group_codes_[g] then lists (empty when not coded).
  std::vector<BoundExprPtr> key_exprs_;
  std::vector<std::vector<Value>> group_codes_;
  std::vector<AggregateOp> ops_;
  std::vector<uint32_t> state_offsets_;  // absolute, within a row of layout_
  RowLayout layout_;                     // group keys, then states
  /// Per aggregate: index into distinct_layouts_ for DISTINCT ones, -1 otherwise.
  std::vector<int> distinct_index_;
  std::vector<idx_t> distinct_aggregates_;
  std::vector<RowLayout> distinct_layouts_;  // group keys ++ argument, no states
};

}  // namespace shears
