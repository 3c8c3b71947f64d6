#pragma once
// HASH_JOIN: equi-joins of every kind (INNER, LEFT, RIGHT, FULL, SEMI, ANTI, MARK) with
// optional NULL-equal keys and a residual predicate.
//
// children[0] is the probe side (left), children[1] the build side (right). The build side is
// its own pipeline sinking into the join (rows materialized per thread, merged, then one hash
// table built in Finalize); the probe side streams through Execute, a batch at a time. RIGHT
// and FULL joins add a third pipeline whose source is the join: after the probe pipeline
// finished it emits the build rows no probe row matched, through the same operators above the
// join and into the same sink.
//
// RIGHT_SEMI and RIGHT_ANTI joins (SEMI/ANTI joins build_side swapped to build on the smaller
// outer side) emit nothing while probing: each probe row and each build row its key finds
// (passing the residual) marks that build row; the third pipeline then emits the marked
// (RIGHT_SEMI) or unmarked (RIGHT_ANTI, including rows with a NULL key) build rows.
//
// Output columns: left ++ right (INNER, LEFT, RIGHT, FULL), left only (SEMI, ANTI), right
// only (RIGHT_SEMI, RIGHT_ANTI), left ++ one
// BOOLEAN mark (MARK: TRUE when some build row matches, else NULL when the probe key is NULL or
// the build side has a NULL key, else FALSE; FALSE for an empty build side, as NOT IN needs).
//
// Grace hash join: when the query's memory passes half of memory_limit while the build side
// is sinking, build rows go to spill files, partitioned by hash bits 32..38 into
// kSpillPartitions (and the rest follow in Combine and Finalize). Runtime filters are then
// built by reading every spilled build row back, so they still cover the whole build side.
// The probe pipeline writes its rows to spill files partitioned the same way (per thread,
// handed over in FinishOperator), and the join's source pipeline (the one that emits
// unmatched build rows of RIGHT/FULL joins, present for every join kind) then loads one build
// partition at a time per thread into a hash table and streams that partition's probe rows
// through the same probe code, so every join kind keeps its semantics (MARK's NULL rule uses
// the whole build side's statistics).

#include <functional>
#include <memory>
#include <mutex>

#include "dynfilter/runtime_filter.h"
#include "execution/join_hash_table.h"
#include "execution/pipeline.h"
#include "execution/spill.h"
#include "expression/expression.h"
#include "planner/logical_plan.h"

namespace shears {

/// The join's global sink state: the build side. After the build pipeline finished (Finalize)
/// it exposes the build statistics EXPLAIN ANALYZE shows and runtime filters can use.
struct HashJoinGlobalState : GlobalSinkState {
  std::unique_ptr<JoinHashTable> table;
  std::mutex mutex;
  bool finalized = false;
  double table_ms = 0;  // Finalize's JoinHashTable::Build

  /// A spill file of build or probe rows: per spill partition, where its rows are.
  struct SpillRun {
    std::unique_ptr<SpillFile> file;
    std::vector<SpillSegments> segments;
  };
  std::atomic<bool> spilling{false};  // build rows go to spill files
  bool spilled = false;               // after Finalize: the join runs partition by partition
  std::vector<SpillRun> build_runs, probe_runs;  // appended under `mutex`
  SpillMetrics build_spill, probe_spill;

  /// Rows the build side produced, including rows with NULL keys.
  idx_t build_rows() const { return table->build_rows(); }
  /// Distinct non-NULL keys (exact) in the hash table; 0 until finalized.
  idx_t distinct_keys() const { return table->distinct_keys(); }
  /// Whether some build row had a NULL in a key compared with `=`.
  bool has_null_key() const { return table->has_null_key(); }
};

/// Unites the partial runtime filters of one join built by several processes (a shuffle join
/// under shears --distributed: each process builds from its share of the build side). Every
/// process calls Merge at the same point, for each filter in turn.
class PartialFilterMerge {
 public:
  virtual ~PartialFilterMerge() = default;
  /// `filter`, this process's partial filter before Finish, becomes the union of every
  /// process's; `build_rows` and `distinct_keys` (0: unknown) become the totals. Returns why
  /// no union was built (it would pass limits.max_keys: the caller disables the filter), or "".
  virtual std::string Merge(RuntimeFilter& filter, const RuntimeFilterLimits& limits,
                            uint64_t& build_rows, uint64_t& distinct_keys) = 0;
  /// For EXPLAIN ANALYZE: what the merges cost.
  virtual std::string Describe() const = 0;
};

class PhysicalHashJoin : public PhysicalOperator {
 public:
  /// `left_keys`/`right_keys`: expressions over the left/right input, pairwise of the same
  /// type; `null_equal[i]`: key i is compared with IS NOT DISTINCT FROM. `residual`: a
  /// predicate over left columns ++ right columns, or null. Children are added with AddChild:
  /// probe (left) first, then build (right).
  PhysicalHashJoin(std::vector<LogicalType> types, JoinKind join_kind,
                   std::vector<BoundExprPtr> left_keys, std::vector<BoundExprPtr> right_keys,
                   std::vector<bool> null_equal, BoundExprPtr residual);

  JoinKind join_kind() const { return join_kind_; }
  const std::vector<BoundExprPtr>& left_keys() const { return left_keys_; }
  const std::vector<BoundExprPtr>& right_keys() const { return right_keys_; }
  /// `note`: why the planner injected no runtime filter (for EXPLAIN), when it did not.
  void SetRuntimeFilters(std::vector<RuntimeFilterSpec> specs, std::string note) {
    runtime_filters_ = std::move(specs);
    runtime_filter_note_ = std::move(note);
  }
  /// Why the join fills no dynamic partition filter or no runtime filter (each kind it lacks),
  /// for EXPLAIN ANALYZE; empty when it fills both.
  void SetNoDynamicFilterReason(std::string reason) { no_filter_reason_ = std::move(reason); }
  std::vector<int> SinkProducedDynamicFilters() const override;
  bool SinkProducesPartitionFilters() const override;
  /// The build side is partial on each process; its runtime filters are merged by `merge`.
  void SetPartialFilterMerge(std::shared_ptr<PartialFilterMerge> merge) {
    partial_filter_merge_ = std::move(merge);
  }

  // Build side.
  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  // Probe side.
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;
  /// The probe of an inner join on unique build keys passes its surviving rows on as a
  /// selection (Batch::SetSelection); every other probe flattens its input first.
  bool AcceptsSelection() const override { return true; }

  void FinishOperator(ExecutionContext& context, OperatorState& state) const override;

  // After the probe: the spilled partitions (grace hash join), and unmatched build rows
  // (RIGHT/FULL).
  bool IsSource() const override { return true; }
  static constexpr idx_t kSpillPartitions = 128;
  static idx_t SpillPartitionOf(uint64_t hash) { return (hash >> 32) & (kSpillPartitions - 1); }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;

  std::string Describe() const override;
  /// build_rows, distinct_keys, build_bytes.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

 private:
  bool EmitsRight() const {
    return join_kind_ == JoinKind::kInner || join_kind_ == JoinKind::kLeft ||
           join_kind_ == JoinKind::kRight || join_kind_ == JoinKind::kFull;
  }
  /// RIGHT_SEMI/RIGHT_ANTI: the output is build rows, decided after every probe row.
  bool RightExistence() const {
    return join_kind_ == JoinKind::kRightSemi || join_kind_ == JoinKind::kRightAnti;
  }
  bool StoresPayload() const { return EmitsRight() || RightExistence() || residual_ != nullptr; }
  bool TracksMatches() const {
    return join_kind_ == JoinKind::kRight || join_kind_ == JoinKind::kFull || RightExistence();
  }
  /// Build rows with a NULL key match nothing; kept when they are emitted unmatched.
  bool KeepsNullKeyRows() const {
    return join_kind_ == JoinKind::kRight || join_kind_ == JoinKind::kFull ||
           join_kind_ == JoinKind::kRightAnti;
  }
  void BuildRuntimeFilters(ExecutionContext& context, HashJoinGlobalState& global) const;
  std::unique_ptr<JoinHashTable> MakeTable(ExecutionContext& context) const;
  std::unique_ptr<OperatorState> MakeProbeState(ExecutionContext& context,
                                                const JoinHashTable* table) const;
  /// Writes `rows` (build rows, their hash in the header) to a new spill file of `runs`.
  void SpillRows(ExecutionContext& context, HashJoinGlobalState& global, const RowLayout& layout,
                 const RowCollection& rows, std::vector<HashJoinGlobalState::SpillRun>& runs,
                 SpillMetrics& metrics) const;
  /// Writes the probe batch's rows to this thread's spill file (grace hash join).
  void SpillProbeRows(ExecutionContext& context, Batch& input, OperatorState& state) const;
  /// The next batch of the grace hash join's source; false when every partition is done.
  bool GetSpilledData(ExecutionContext& context, Batch& out, GlobalSourceState& global_source,
                      LocalSourceState& local_source) const;
  /// Emits the build rows of `table` the join outputs after the probe, from block *next on:
  /// unmatched ones (RIGHT/FULL/RIGHT_ANTI) or matched ones (RIGHT_SEMI); false when none left.
  bool EmitBuildRows(const JoinHashTable& table, size_t blocks, std::atomic<size_t>* shared_next,
                     size_t* own_next, std::vector<uint8_t*>& rows, Batch& out) const;
  /// RIGHT_SEMI/RIGHT_ANTI probe: marks the build rows rows sel[0..count) of `input` match
  /// (heads[r]: the chain of build rows with probe row r's keys), checking the residual over
  /// pairs batched in `pairs` (left ++ right columns), `pair_probe`/`pair_build`/`sel` scratch.
  void MarkBuildMatches(const JoinHashTable& table, Batch& input, const uint32_t* rows, idx_t count,
                        uint8_t* const* heads, std::vector<uint32_t>& pair_probe,
                        std::vector<uint8_t*>& pair_build, Batch& pairs,
                        SelectionVector& sel) const;
  /// Calls fn(rows, n) for batches of every build row, in memory or spilled.
  void ForEachBuildRows(ExecutionContext& context, HashJoinGlobalState& global,
                        const std::function<void(uint8_t* const*, idx_t)>& fn) const;
  /// The same for the in-memory rows of `table`'s blocks [begin, end) alone (a share of them:
  /// threads building a runtime filter together claim blocks).
  void ForEachBuildRows(ExecutionContext& context, const JoinHashTable& table, size_t begin,
                        size_t end, const std::function<void(uint8_t* const*, idx_t)>& fn) const;
  /// Adds the keys of every build row that can match (spilled ones read back) to a new
  /// filter for `spec`, not finished yet; a large build held in memory by several threads.
  std::unique_ptr<RuntimeFilter> AddBuildKeys(ExecutionContext& context,
                                              HashJoinGlobalState& global,
                                              const RuntimeFilterSpec& spec) const;

  JoinKind join_kind_;
  std::vector<BoundExprPtr> left_keys_;
  std::vector<idx_t> left_key_columns_;  // the input columns left_keys_ read
  std::vector<BoundExprPtr> right_keys_;
  std::vector<bool> null_equal_;
  BoundExprPtr residual_;
  std::vector<RuntimeFilterSpec> runtime_filters_;
  std::string runtime_filter_note_;
  std::string no_filter_reason_;
  UnmatchedRowsPipeline unmatched_;  // RIGHT/FULL
  std::shared_ptr<PartialFilterMerge> partial_filter_merge_;
};

}  // namespace shears
