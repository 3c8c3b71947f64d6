#pragma once
// Pipelines and the executor that runs them on a pool of worker threads.

#include <map>
#include <memory>
#include <vector>

#include "dynfilter/dynamic_filter.h"
#include "execution/physical_operator.h"

namespace shears {

class QueryContext;

class Pipeline {
 public:
  PhysicalOperator* source = nullptr;
  std::vector<PhysicalOperator*> operators;
  PhysicalOperator* sink = nullptr;
  /// Pipelines that must finish before this one starts.
  std::vector<Pipeline*> dependencies;
  int id = 0;
  /// A UNION ALL's second input streams on through the operators above the union into the
  /// same sink. Those operators are known only once every pipeline is built, so this pipeline
  /// names where they are: `continues`' operators from index `continue_from` on
  /// (PipelineBuilder::CompleteContinuations copies them).
  Pipeline* continues = nullptr;
  size_t continue_from = 0;
};

class PipelineBuilder {
 public:
  /// Creates a new pipeline ending in `sink`.
  Pipeline* NewPipeline(PhysicalOperator* sink);
  std::vector<std::unique_ptr<Pipeline>>& pipelines() { return pipelines_; }
  /// Once every pipeline is built: a continuing pipeline (Pipeline::continues) gets the
  /// operators above its branch point, runs after the pipeline it continues, and whoever
  /// waits for that one waits for it as well.
  void CompleteContinuations();

 private:
  std::vector<std::unique_ptr<Pipeline>> pipelines_;
};

/// The extra pipeline of a RIGHT/FULL join: once the probe pipeline finished, the join is the
/// source of its unmatched build rows, which flow through the operators above the join in the
/// probe pipeline into the same sink. Those operators are only known after the join's
/// BuildPipelines returned, so they are copied when the pipeline starts.
struct UnmatchedRowsPipeline {
  Pipeline* probe = nullptr;
  Pipeline* unmatched = nullptr;
  /// From the join's BuildPipelines, after it appended itself to `probe`.
  void Add(PhysicalOperator* join, Pipeline& probe_pipeline, PipelineBuilder& builder);
  /// From the join's GetGlobalSourceState: copies the operators above the join.
  void CompleteOperators(const PhysicalOperator* join) const;
};

/// The pipelines of a join with a build side (rule 2 in physical_operator.h): the right child
/// sinks into `join` in a pipeline of its own that `current` depends on; the left child, then
/// `join`, continue `current`. `unmatched` (RIGHT/FULL joins, else null) gets the pipeline of
/// the build rows no probe row matched.
void BuildJoinPipelines(PhysicalOperator& join, Pipeline& current, PipelineBuilder& builder,
                        UnmatchedRowsPipeline* unmatched);

/// Per-query execution state: sink states of every sink (so a sink that is also the next
/// pipeline's source can read its results), settings, the thread count, cancellation.
class ExecutionContext {
 public:
  ExecutionContext(QueryContext& query, int threads) : query_(query), threads_(threads) {}
  QueryContext& query() { return query_; }
  int threads() const { return threads_; }

  GlobalSinkState& sink_state(const PhysicalOperator* op);
  void set_sink_state(const PhysicalOperator* op, std::unique_ptr<GlobalSinkState> state);
  /// `op`'s GlobalOperatorState in this execution, made by its GetGlobalOperatorState on first
  /// use; ResetOperatorState drops it (an Executor about to run `op`'s plan again).
  GlobalOperatorState& operator_state(const PhysicalOperator* op);
  void ResetOperatorState(const PhysicalOperator* op);
  /// `op`'s EXPLAIN ANALYZE counters in this query (made by its MakeMetrics on first use, never
  /// reset: they sum over every run of its plan). Look it up once per pipeline or state, not
  /// per batch: it takes a lock.
  OperatorMetrics& metrics(const PhysicalOperator* op);

  /// Throws CancelledError when the query was cancelled.
  void CheckCancelled() const;

  DynamicFilterRegistry& dynamic_filters() { return dynamic_filters_; }

 private:
  QueryContext& query_;
  int threads_;
  std::mutex mutex_;
  std::map<const PhysicalOperator*, std::unique_ptr<GlobalSinkState>> sink_states_;
  std::map<const PhysicalOperator*, std::unique_ptr<GlobalOperatorState>> operator_states_;
  std::map<const PhysicalOperator*, std::unique_ptr<OperatorMetrics>> metrics_;
  DynamicFilterRegistry dynamic_filters_;
};

/// Runs the pipelines of a physical plan whose root is a sink. Pipelines run in dependency
/// order; each on up to `threads` workers.
class Executor {
 public:
  explicit Executor(ExecutionContext& context) : context_(context) {}
  void Execute(PhysicalOperator& root_sink);

 private:
  void RunPipeline(Pipeline& pipeline);
  ExecutionContext& context_;
};

}  // namespace shears
