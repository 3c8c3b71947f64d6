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
//
// GROUPING SETS (a RollupPlan): the sink aggregates by the finest keys only, once per input
// row; Finalize then folds those groups into each set's groups (keys not in the set NULL, the
// set's constants added) by combining their states, so the input is not aggregated once per
// set. Spilled, the finest groups are aggregated one spill partition at a time in Finalize,
// each partition's groups folded into the sets' groups and those written again, partitioned by
// the sets' keys (a set's group gathers finest groups of every partition); the source then
// aggregates these as it does a plain aggregate's (physical_hash_aggregate_spill.cpp).
//
// Adaptive partial aggregation (AllowPassThrough, eager_aggregation's partial aggregates
// below a join, whose consumer aggregates again): after kPassThroughSample rows a thread
// compares its groups to its rows; when they are more than kPassThroughRatio of them, hashing
// buys little, so its later rows skip the table and become one-row groups (keys and a state
// updated by the row alone) appended as they come, which the source emits with the table's
// groups. A group may then be emitted more than once; the consumer combines them. Before a
// spill those rows are folded into the table, so spilling sees tables only
// (physical_hash_aggregate_passthrough.cpp).
//
// Out of core: when the query's memory passes half of memory_limit, a thread writes its
// tables (group rows with their states, DISTINCT pairs) to a spill file, radix-partitioned
// into kSpillPartitions by hash bits the tables do not use otherwise, and starts afresh; once
// anything spilled, Combine and Finalize spill the rest too, and the source then aggregates
// the spilled partitions one at a time per thread (combining the partial states) and emits
// each before loading the next; a partition that alone outgrows the memory left is split again
// by other hash bits and its parts aggregated one by one (physical_hash_aggregate_spill.cpp).
// A state pointing into the arena (a kept string, collected values, a sketch) writes what it
// points to after its row (AggregateOp::spill_write).

#include "execution/aggregate_hash_table.h"
#include "execution/aggregate_ops.h"
#include "execution/physical_operator.h"
#include "execution/row_layout.h"
#include "execution/spill.h"
#include "expression/expression.h"

namespace shears {

struct HashAggregateGlobalState;
struct HashAggregateLocalState;
struct AggregateSpilledPartition;
struct AggregateSpillWork;
struct AggregateSourceState;

/// How the groups of GROUPING SETS follow from the finest groups: per set, each result key
/// column is either a finest key column or a constant (NULL for a group the set rolls up, the
/// set's id, grouping() values).
struct RollupPlan {
  struct KeySource {
    int finest = -1;  // a finest key column, or -1: `constant`
    Value constant;
  };
  std::vector<LogicalType> key_types;        // the result's key columns
  std::vector<std::vector<KeySource>> sets;  // per set, per result key column
};

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
  /// GROUPING SETS: `groups` are the finest keys; `types` the result's (rollup.key_types, then
  /// the aggregates); `empty_input_groups` are result keys. No DISTINCT aggregates.
  PhysicalHashAggregate(std::vector<LogicalType> types, std::vector<BoundExprPtr> groups,
                        std::vector<BoundExprPtr> aggregates,
                        std::vector<std::vector<Value>> empty_input_groups, RollupPlan rollup);
  ~PhysicalHashAggregate() override;

  bool IsSink() const override { return true; }
  bool IsSource() const override { return true; }

  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  /// Copies only the columns its keys and arguments read out of a batch with pending
  /// selections (a filter's or a join's survivors), not the whole batch.
  bool SinkAcceptsSelection() const override { return true; }
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  /// Lets the aggregate pass rows through unaggregated when they do not reduce: only for a
  /// partial aggregate whose consumer combines its groups again. Has no effect on an
  /// aggregate without groups, with DISTINCT aggregates, GROUPING SETS or one integer key (its
  /// DenseGroupArray costs less than passing rows through).
  void AllowPassThrough();
  /// Rows a thread aggregates before deciding, and the groups per row above which it passes
  /// the rest through (Trino's and Velox's defaults: 100,000 rows, 80%).
  static constexpr idx_t kPassThroughSample = 100000;
  static constexpr double kPassThroughRatio = 0.8;

  static constexpr idx_t kSpillPartitions = 128;
  /// How deep spill partitions are split again: 128^4 parts in all.
  static constexpr idx_t kMaxSpillLevels = 4;
  /// Spill partitions take hash bits 32..38: below GroupedHashTable's partition bits, above
  /// any slot bits a table of a spill partition uses. A partition split again (level > 0)
  /// takes the same bits of a rehash, independent of the levels above.
  static idx_t SpillPartitionOf(uint64_t hash, idx_t level = 0) {
    if (level > 0) hash = MixHash(hash ^ (level * 0x9E3779B97F4A7C15ULL));
    return (hash >> 32) & (kSpillPartitions - 1);
  }

  std::string Describe() const override;
  std::string NoSpillReason() const override;
  /// "groups": number of result rows.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

  const std::vector<BoundExprPtr>& groups() const { return groups_; }
  const std::vector<BoundExprPtr>& aggregates() const { return aggregates_; }
  const std::vector<std::vector<Value>>& empty_input_groups() const { return empty_input_groups_; }
  bool has_grouping_sets() const { return rollup_ != nullptr; }
  /// Eager aggregation's partial aggregate (AllowPassThrough was called, whether or not it
  /// may pass rows through): what lies above re-aggregates its rows.
  bool reaggregated_above() const { return reaggregated_above_; }

 private:
  friend struct HashAggregateLocalState;
  friend struct HashAggregateGlobalState;

  PhysicalHashAggregate(std::vector<LogicalType> types, std::vector<BoundExprPtr> groups,
                        std::vector<BoundExprPtr> aggregates,
                        std::vector<std::vector<Value>> empty_input_groups,
                        std::unique_ptr<RollupPlan> rollup);

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
  /// Feeds the distinct (group, value) pairs of `pairs` for DISTINCT aggregate d into the
  /// groups' states in `groups` (null: into `single_row`, the ungrouped aggregate's).
  void FeedDistinct(ExecutionContext& context, idx_t d, GroupedHashTable& pairs,
                    GroupedHashTable* groups, uint8_t* single_row, StringArena* single_arena) const;
  /// What spilled group rows look like: the finest groups' (layout_), or, once a RollupPlan's
  /// spilled groups were folded into the sets' groups, the sets' (result_layout_).
  struct SpillShape {
    const RowLayout* layout;
    idx_t key_count;
    const std::vector<uint32_t>* state_offsets;
    const std::vector<SpilledState>* states;
  };
  SpillShape FinestShape() const {
    return {&layout_, groups_.size(), &state_offsets_, &spill_states_};
  }
  SpillShape SetsShape() const {
    return {&result_layout_, result_layout_.types.size(), &result_state_offsets_,
            &result_spill_states_};
  }
  /// The shape of what the source reads back from `global`'s spill files.
  SpillShape SpilledShape(const HashAggregateGlobalState& global) const;
  /// Writes the given tables' rows to one new spill file of `global` (any may be null).
  void SpillTables(ExecutionContext& context, HashAggregateGlobalState& global,
                   GroupedHashTable* table, DenseGroupArray* dense,
                   const std::vector<std::unique_ptr<GroupedHashTable>>& distinct) const;
  /// Spills a thread's tables and gives it empty ones.
  void SpillLocal(ExecutionContext& context, HashAggregateGlobalState& global,
                  HashAggregateLocalState& local) const;
  /// Where the rows of spill partition p are, in every spill file of the sink.
  AggregateSpillWork SpilledPartition(const HashAggregateGlobalState& global, idx_t p) const;
  /// Aggregates the rows of `work` (of `shape`) into `out`; false (and `out` to be reset) when
  /// the table outgrew the memory left and the work is to be split again.
  bool LoadSpillWork(ExecutionContext& context, const SpillShape& shape,
                     const AggregateSpillWork& work, AggregateSpilledPartition& out) const;
  /// Writes the rows of `work` to a new spill file by the partitions of the next level and
  /// queues the non-empty ones in out.pending.
  void RepartitionSpillWork(ExecutionContext& context, HashAggregateGlobalState& global,
                            const SpillShape& shape, const AggregateSpillWork& work,
                            AggregateSpilledPartition& out) const;
  /// With a RollupPlan, after the finest groups spilled: aggregates them one spill partition
  /// at a time, folds each partition's groups into the sets' groups and spills those, which
  /// replace the finest groups' spill files.
  void FoldSpilledSets(ExecutionContext& context, HashAggregateGlobalState& global) const;
  /// Loads the next spilled partition (or part) with rows into `part`; false when none is left.
  bool NextSpilledRows(ExecutionContext& context, HashAggregateGlobalState& global,
                       AggregateSourceState& source, AggregateSpilledPartition& part) const;
  /// The result columns of rows[0..n) into `out`; its string columns keep `arenas` alive.
  void EmitRows(uint8_t* const* rows, idx_t n,
                const std::vector<std::shared_ptr<StringArena>>& arenas, Batch& out) const;
  /// Merges the non-DISTINCT states of src rows into dst rows.
  /// With a RollupPlan: the finest groups (global.result_rows) folded into every set's groups.
  void ExpandRollup(ExecutionContext& context, HashAggregateGlobalState& global) const;
  /// Per set, its constant key columns filled for a batch (null for its finest key columns).
  std::vector<std::vector<std::unique_ptr<Vector>>> RollupConstants() const;
  /// Folds `finest_rows` (of layout_) into the sets' groups: those of sets grouping by every
  /// finest key appended to `one_to_one`, the others' found or created in `rolled`.
  void FoldSets(ExecutionContext& context, const std::vector<uint8_t*>& finest_rows,
                const std::vector<std::vector<std::unique_ptr<Vector>>>& constants,
                GroupedHashTable& rolled, RowCollection& one_to_one) const;
  /// Whether grouping set s keeps every finest key column (then each finest group is one of
  /// its groups).
  bool GroupsByAllFinest(idx_t s) const;
  /// The rows the source emits: layout_, or with a RollupPlan result_layout_.
  const RowLayout& ResultLayout() const { return rollup_ ? result_layout_ : layout_; }

  /// `offsets`: where the states are in the rows (state_offsets_ when null).
  void CombineStates(uint8_t* const* src, uint8_t* const* dst, idx_t count, StringArena& arena,
                     const std::vector<uint32_t>* offsets = nullptr) const;
  /// With pass_through_: counts a thread's rows and decides, once it saw the sample, whether
  /// it passes the rest through (local.passing).
  void DecidePassThrough(HashAggregateGlobalState& global, HashAggregateLocalState& local,
                         idx_t n) const;
  /// Appends rows 0..n of `keys` to local.passed as new groups; local.rows point at them.
  void PassRows(const std::vector<const Vector*>& keys, idx_t n,
                HashAggregateLocalState& local) const;
  /// EXPLAIN ANALYZE's line on what the threads decided.
  static std::string PassThroughDetails(const HashAggregateGlobalState& global);
  /// Aggregates the one-row groups of `passed` into `table` (before a spill) and empties it.
  void FoldPassed(RowCollection& passed, GroupedHashTable& table, GroupScratch& scratch) const;

  std::vector<BoundExprPtr> groups_;
  std::vector<BoundExprPtr> aggregates_;
  std::vector<std::vector<Value>> empty_input_groups_;
  /// What is evaluated for each group key: groups_[g], or its code (CodeConstantCase), whose
  /// values group_codes_[g] then lists (empty when not coded).
  std::vector<BoundExprPtr> key_exprs_;
  std::vector<idx_t> sink_columns_;  // the input columns the keys and aggregates read
  std::vector<std::vector<Value>> group_codes_;
  std::vector<AggregateOp> ops_;
  std::vector<uint32_t> state_offsets_;  // absolute, within a row of layout_
  RowLayout layout_;                     // group keys, then states
  /// Per aggregate: index into distinct_layouts_ for DISTINCT ones, -1 otherwise.
  std::vector<int> distinct_index_;
  std::vector<idx_t> distinct_aggregates_;
  std::vector<RowLayout> distinct_layouts_;  // group keys ++ argument, no states
  /// Whether the tables may be spilled: grouped, and every non-DISTINCT state is plain bytes
  /// or says how it spills (AggregateOp::spill_write), as spill_states_ lists.
  bool spillable_ = false;
  std::vector<SpilledState> spill_states_;
  std::unique_ptr<RollupPlan> rollup_;
  bool pass_through_ = false;  // AllowPassThrough
  bool reaggregated_above_ = false;
  RowLayout result_layout_;  // with rollup_: its keys, then the states
  std::vector<uint32_t> result_state_offsets_;
  std::vector<SpilledState> result_spill_states_;  // spill_states_ at result_layout_'s offsets
};

}  // namespace shears
