#pragma once
// Physical operators and the push-based, morsel-driven pipeline model.
//
// A pipeline is   source -> operator* -> sink.   Each worker thread pulls batches from the
// source (morsels: files/row groups/partitions of the build), pushes them through the
// operators and into the sink with thread-local state; when the source is exhausted every
// thread Combines its local sink state into the global one and the last one Finalizes.
//
// Operators hold no mutable state: per-execution state lives in the state objects they
// create (GlobalSinkState, LocalSinkState, GlobalSourceState, LocalSourceState,
// OperatorState), owned by the Executor, and their EXPLAIN ANALYZE counters in the
// OperatorMetrics the ExecutionContext keeps for them. One plan can so run twice, even at once.
//
// Where pipelines break (PhysicalOperator::BuildPipelines), in order:
//   1. A sink (aggregate, sort, result collector) ends the pipeline that feeds it and is the
//      source of the pipeline that continues above it; the latter depends on the former.
//   2. A hash join's build side (right child) is its own pipeline, sinking into the join; the
//      probe side continues the current pipeline through the join's Execute. The probe
//      pipeline depends on the build pipeline: the build always finishes first, which is also
//      what lets a join publish dynamic filters before any probe-side scan starts.
//   3. A UNION ALL streams: its first child continues the current pipeline; its second gets a
//      pipeline of its own that runs after it through the same operators above the union into
//      the same sink (Pipeline::continues). Nothing is collected at the union.

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/vector.h"

namespace shears {

class ExecutionContext;
class Pipeline;
class PipelineBuilder;

struct GlobalSinkState {
  virtual ~GlobalSinkState() = default;
};
struct LocalSinkState {
  virtual ~LocalSinkState() = default;
};
struct GlobalSourceState {
  virtual ~GlobalSourceState() = default;
  /// How many threads may usefully read this source at once.
  virtual idx_t MaxThreads() const { return 1; }
};
struct LocalSourceState {
  virtual ~LocalSourceState() = default;
};
struct OperatorState {
  virtual ~OperatorState() = default;
};
/// State a streaming operator shares among the threads of one execution of its plan (LIMIT's
/// count of rows seen); see PhysicalOperator::GetGlobalOperatorState.
struct GlobalOperatorState {
  virtual ~GlobalOperatorState() = default;
};

enum class OperatorResult {
  kNeedMoreInput,   // output (possibly empty) is done; give me the next input batch
  kHaveMoreOutput,  // call Execute again with the same input
  kFinished,        // nothing more will be produced (LIMIT reached)
};

/// Counters every operator has, for EXPLAIN ANALYZE: one object per operator and query, kept by
/// the ExecutionContext (ExecutionContext::metrics) and summed over every run of the operator's
/// plan in the query (a recursive CTE's term). Operators with counters of their own subclass it
/// (PhysicalOperator::MakeMetrics).
struct OperatorMetrics {
  virtual ~OperatorMetrics() = default;
  std::atomic<uint64_t> rows_out{0};
  std::atomic<uint64_t> nanos{0};  // time in this operator's own code, all threads
};

class PhysicalOperator {
 public:
  PhysicalOperator(std::string name, std::vector<LogicalType> types)
      : name_(std::move(name)), types_(std::move(types)) {}
  virtual ~PhysicalOperator() = default;

  const std::string& name() const { return name_; }
  const std::vector<LogicalType>& types() const { return types_; }
  std::vector<std::unique_ptr<PhysicalOperator>>& children() { return children_; }
  const std::vector<std::unique_ptr<PhysicalOperator>>& children() const { return children_; }
  void AddChild(std::unique_ptr<PhysicalOperator> child) { children_.push_back(std::move(child)); }

  // ---- as a source ----
  virtual bool IsSource() const { return false; }
  virtual std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const;
  virtual std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                                GlobalSourceState& global) const;
  /// Fills `out` (empty on entry); returns false when the source is exhausted (and `out`
  /// is then empty).
  virtual bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
                       LocalSourceState& local) const;

  // ---- as a streaming operator ----
  virtual std::unique_ptr<OperatorState> GetOperatorState(ExecutionContext& context) const;
  virtual OperatorResult Execute(ExecutionContext& context, Batch& input, Batch& output,
                                 OperatorState& state) const;
  /// Whether Execute reads an input batch with pending selections (Batch::SetSelection);
  /// the pipeline flattens the batch first for an operator or sink that does not.
  virtual bool AcceptsSelection() const { return false; }
  /// Called once per thread after its last Execute (the source is exhausted), before the
  /// sink's Combine: for state an operator must hand over (a spilling join's probe rows).
  virtual void FinishOperator(ExecutionContext& context, OperatorState& state) const {}

  // ---- as a sink ----
  virtual bool IsSink() const { return false; }
  virtual std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const;
  virtual std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const;
  /// Consumes `input`; returns false when no more input is wanted (e.g. LIMIT reached).
  virtual bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
                    LocalSinkState& local) const;
  /// Whether Sink reads an input batch with pending selections; the pipeline flattens the
  /// batch first for a sink that does not.
  virtual bool SinkAcceptsSelection() const { return false; }
  virtual void Combine(ExecutionContext& context, GlobalSinkState& global,
                       LocalSinkState& local) const;
  /// Called once, after every thread combined.
  virtual void Finalize(ExecutionContext& context, GlobalSinkState& global) const;

  /// Adds this operator (and its children) to pipelines; the default is a streaming operator
  /// with one child. See the rules at the top of this file.
  virtual void BuildPipelines(Pipeline& current, PipelineBuilder& builder);

  /// One line for EXPLAIN: name and parameters.
  virtual std::string Describe() const { return name_; }
  /// Why this operator, as planned, holds what it sinks in memory instead of spilling it
  /// (empty when it spills or holds little): added to an Out of Memory Error it meets.
  virtual std::string NoSpillReason() const { return ""; }
  /// The state this operator shares among the threads of one execution, or null (most keep
  /// theirs per thread, in OperatorState). Made on first use in each execution: a plan run
  /// again (a recursive CTE's term) starts afresh (ExecutionContext::operator_state).
  virtual std::unique_ptr<GlobalOperatorState> GetGlobalOperatorState(ExecutionContext&) const {
    return nullptr;
  }

  /// This operator's counters for one query: OperatorMetrics, or a subclass with its own.
  virtual std::unique_ptr<OperatorMetrics> MakeMetrics() const;

  /// Extra EXPLAIN ANALYZE lines (scan counters, join sizes, ...), after execution.
  virtual std::vector<std::pair<std::string, std::string>> AnalyzeDetails(
      ExecutionContext& context) const {
    return {};
  }

  /// Dynamic filters this operator fills as a sink (a join's filters, built from its build
  /// side): published by Finalize, so they are ready when the sink's pipeline ends.
  virtual std::vector<int> SinkProducedDynamicFilters() const { return {}; }
  /// Whether some of those are dynamic partition filters (scans test partition values with
  /// them; distributed plans keep a rank's share of rows out of such a build side).
  virtual bool SinkProducesPartitionFilters() const { return false; }
  /// Dynamic filters this operator reads when it starts; the executor runs their producers'
  /// pipelines first whenever the plan allows it.
  virtual std::vector<int> ConsumedDynamicFilters() const { return {}; }

  double estimated_rows = -1;

 protected:
  std::string name_;
  std::vector<LogicalType> types_;
  std::vector<std::unique_ptr<PhysicalOperator>> children_;
};

using PhysicalOperatorPtr = std::unique_ptr<PhysicalOperator>;

}  // namespace shears
