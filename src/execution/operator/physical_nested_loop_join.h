#pragma once
// NESTED_LOOP_JOIN: joins on an arbitrary condition, or on none (a cross product): the joins a
// hash join cannot do because they have no equality key (`a.x < b.y`, `CROSS JOIN`, the
// one-row side of an uncorrelated scalar subquery, `x > ANY (SELECT ...)`).
//
// children[0] is the streaming side (left), children[1] the materialized side (right): its
// own pipeline sinks into the join, and its rows are counted against the query's memory
// limit. Every left batch is then paired with every right batch, a batch of pairs at a time,
// and the condition evaluated over the pairs. RIGHT and FULL joins emit the right rows no
// left row matched from a third pipeline, as the hash join does.
//
// Kinds and output columns: INNER/CROSS, LEFT, RIGHT, FULL: left ++ right; SEMI, ANTI: left;
// MARK: left ++ one BOOLEAN (TRUE when the condition is TRUE for some right row, else NULL
// when it is NULL for some right row, else FALSE), which is what `x op ANY (...)` means.

#include <mutex>

#include "execution/column_data.h"
#include "execution/pipeline.h"
#include "expression/expression.h"
#include "planner/logical_plan.h"

namespace shears {

struct NestedLoopJoinGlobalState : GlobalSinkState {
  explicit NestedLoopJoinGlobalState(std::vector<LogicalType> types, MemoryTracker* memory)
      : rows(std::move(types), memory) {}
  ColumnDataCollection rows;
  /// RIGHT/FULL: per right batch, per row, whether some left row matched it.
  std::vector<std::vector<uint8_t>> matched;
  std::mutex mutex;
};

class PhysicalNestedLoopJoin : public PhysicalOperator {
 public:
  /// `condition`: a predicate over left columns ++ right columns, or null (always TRUE).
  PhysicalNestedLoopJoin(std::vector<LogicalType> types, JoinKind join_kind,
                         BoundExprPtr condition);

  JoinKind join_kind() const { return join_kind_; }
  /// Why the join fills no dynamic partition filter (bounds) and no runtime filter (it has no
  /// hash table), for EXPLAIN ANALYZE.
  void SetNoDynamicFilterReason(std::string reason) { no_filter_reason_ = std::move(reason); }
  /// Dynamic partition filters of bounds (`key >= build`): filter id and the build-side
  /// expression (over the right side's columns) whose smallest and largest value Finalize
  /// publishes (RuntimeFilter::OfBounds).
  void SetBoundFilters(std::vector<std::pair<int, BoundExprPtr>> bounds) {
    bound_filters_ = std::move(bounds);
  }
  std::vector<int> SinkProducedDynamicFilters() const override;
  bool SinkProducesPartitionFilters() const override { return !bound_filters_.empty(); }

  // Right side.
  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;

  // Left side.
  std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const override;
  OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                         OperatorState& state) const override;

  // Unmatched right rows (RIGHT/FULL), after the left side.
  bool IsSource() const override { return TracksMatches(); }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

  void BuildPipelines(Pipeline& current, PipelineBuilder& builder) override;

  std::string Describe() const override;
  /// build_rows, build_bytes.
  std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const override;

 private:
  bool EmitsRight() const {
    return join_kind_ == JoinKind::kInner || join_kind_ == JoinKind::kCross ||
           join_kind_ == JoinKind::kLeft || join_kind_ == JoinKind::kRight ||
           join_kind_ == JoinKind::kFull;
  }
  bool TracksMatches() const {
    return join_kind_ == JoinKind::kRight || join_kind_ == JoinKind::kFull;
  }

  JoinKind join_kind_;
  BoundExprPtr condition_;
  std::string no_filter_reason_;
  std::vector<std::pair<int, BoundExprPtr>> bound_filters_;
  void PublishBoundFilters(ExecutionContext& context, NestedLoopJoinGlobalState& global) const;
  UnmatchedRowsPipeline unmatched_;
};

}  // namespace shears
