#include "execution/pipeline.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <set>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "execution/query_context.h"

namespace shears {

Pipeline* PipelineBuilder::NewPipeline(PhysicalOperator* sink) {
  auto pipeline = std::make_unique<Pipeline>();
  pipeline->sink = sink;
  pipeline->id = static_cast<int>(pipelines_.size());
  pipelines_.push_back(std::move(pipeline));
  return pipelines_.back().get();
}

void PipelineBuilder::CompleteContinuations() {
  // In creation order: a pipeline continues one made before it, already complete.
  bool continued = false;
  for (auto& owned : pipelines_) {
    Pipeline* p = owned.get();
    Pipeline* base = p->continues;
    if (!base) continue;
    SHEARS_CHECK(p->sink == base->sink && p->continue_from <= base->operators.size());
    p->operators.insert(p->operators.end(), base->operators.begin() + p->continue_from,
                        base->operators.end());
    // After the pipeline it continues (which also waits for the builds of joins above the
    // union) and after the earlier continuations of it, so the inputs' rows come in the order
    // the query wrote them. Whoever else waits for `base` (a pipeline reading its sink, the
    // unmatched rows of a join above) waits for this one as well.
    for (auto& other : pipelines_) {
      Pipeline* o = other.get();
      if (o == p) continue;
      auto& deps = o->dependencies;
      if (std::find(deps.begin(), deps.end(), base) == deps.end()) continue;
      if (o->continues == base) {
        p->dependencies.push_back(o);  // made before p: its completion already ran
      } else if (std::find(deps.begin(), deps.end(), p) == deps.end()) {
        deps.push_back(p);
      }
    }
    p->dependencies.push_back(base);
    continued = true;
  }
  if (!continued) return;
  // A pipeline reading a sink waits for every pipeline into it: besides the continuations,
  // one may stream into it from a join of a continuation (its unmatched or spilled rows),
  // made before the continuation was linked.
  for (auto& reader : pipelines_) {
    for (auto& writer : pipelines_) {
      if (writer->sink != reader->source || writer.get() == reader.get()) continue;
      auto& deps = reader->dependencies;
      if (std::find(deps.begin(), deps.end(), writer.get()) == deps.end())
        deps.push_back(writer.get());
    }
  }
  // Likewise a pipeline waiting for a sink (a join's probe waits for its build) waits for every
  // pipeline into that sink: a join inside a continuation streams its unmatched or spilled rows
  // into the sink above through a pipeline made before the continuation was linked, so a
  // probe of a join whose build side is a UNION ALL could run before those rows were in (a
  // crash on the hash table not built yet).
  std::function<bool(const Pipeline*, const Pipeline*)> depends_on = [&](const Pipeline* a,
                                                                         const Pipeline* b) {
    if (a == b) return true;
    for (const Pipeline* d : a->dependencies) {
      if (depends_on(d, b)) return true;
    }
    return false;
  };
  for (auto& waiter : pipelines_) {
    Pipeline* x = waiter.get();
    std::vector<PhysicalOperator*> awaited;
    for (const Pipeline* d : x->dependencies) {
      if (d->sink && d->sink != x->sink) awaited.push_back(d->sink);
    }
    for (PhysicalOperator* sink : awaited) {
      for (auto& writer : pipelines_) {
        Pipeline* y = writer.get();
        if (y == x || y->sink != sink) continue;
        auto& deps = x->dependencies;
        if (std::find(deps.begin(), deps.end(), y) != deps.end() || depends_on(y, x)) continue;
        deps.push_back(y);
      }
    }
  }
}

void UnmatchedRowsPipeline::Add(PhysicalOperator* join, Pipeline& probe_pipeline,
                                PipelineBuilder& builder) {
  Pipeline* rows = builder.NewPipeline(probe_pipeline.sink);
  rows->source = join;
  rows->dependencies.push_back(&probe_pipeline);
  for (auto& p : builder.pipelines()) {
    Pipeline* other = p.get();
    if (other == rows || other == &probe_pipeline) continue;
    const auto& deps = other->dependencies;
    if (std::find(deps.begin(), deps.end(), &probe_pipeline) == deps.end()) continue;
    if (other->sink == probe_pipeline.sink) {
      // Unmatched rows of a join below this one stream through this join's probe too.
      rows->dependencies.push_back(other);
    } else {
      // Whoever waits for the probe pipeline's sink must wait for these rows as well.
      other->dependencies.push_back(rows);
    }
  }
  probe = &probe_pipeline;
  unmatched = rows;
}

void UnmatchedRowsPipeline::CompleteOperators(const PhysicalOperator* join) const {
  if (!unmatched || !probe || !unmatched->operators.empty()) return;
  auto& ops = probe->operators;
  auto it = std::find(ops.begin(), ops.end(), join);
  SHEARS_CHECK(it != ops.end());
  unmatched->operators.assign(it + 1, ops.end());
}

void BuildJoinPipelines(PhysicalOperator& join, Pipeline& current, PipelineBuilder& builder,
                        UnmatchedRowsPipeline* unmatched) {
  SHEARS_CHECK(join.children().size() == 2);
  Pipeline* build = builder.NewPipeline(&join);
  current.dependencies.push_back(build);
  join.children()[1]->BuildPipelines(*build, builder);
  join.children()[0]->BuildPipelines(current, builder);
  current.operators.push_back(&join);
  if (unmatched) {
    *unmatched = UnmatchedRowsPipeline();
    unmatched->Add(&join, current, builder);
  }
}

GlobalSinkState& ExecutionContext::sink_state(const PhysicalOperator* op) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = sink_states_.find(op);
  if (it == sink_states_.end()) throw InternalError("no sink state for {}", op->name());
  return *it->second;
}

void ExecutionContext::set_sink_state(const PhysicalOperator* op,
                                      std::unique_ptr<GlobalSinkState> state) {
  std::lock_guard<std::mutex> lock(mutex_);
  sink_states_[op] = std::move(state);
}

GlobalOperatorState& ExecutionContext::operator_state(const PhysicalOperator* op) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = operator_states_.find(op);
    if (it != operator_states_.end()) return *it->second;
  }
  auto made = op->GetGlobalOperatorState(*this);  // outside the lock: it may use the context
  if (!made) throw InternalError("{} has no shared operator state", op->name());
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = operator_states_[op];
  if (!slot) slot = std::move(made);  // another thread may have made it meanwhile
  return *slot;
}

void ExecutionContext::ResetOperatorState(const PhysicalOperator* op) {
  std::lock_guard<std::mutex> lock(mutex_);
  operator_states_.erase(op);
}

OperatorMetrics& ExecutionContext::metrics(const PhysicalOperator* op) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto& slot = metrics_[op];
  if (!slot) slot = op->MakeMetrics();
  return *slot;
}

void ExecutionContext::CheckCancelled() const {
  query_.CheckCancelled();
}

namespace {

struct Timer {
  explicit Timer(std::atomic<uint64_t>& sink) : sink_(sink), start_(clock::Now()) {}
  ~Timer() { sink_.fetch_add(clock::NanosSince(start_), std::memory_order_relaxed); }
  std::atomic<uint64_t>& sink_;
  clock::TimePoint start_;
};

/// Runs fn(), naming `op` in an Out of Memory Error it throws (and why `op` did not spill,
/// when it cannot): the limit alone does not say which part of the query outgrew it.
template <typename Fn>
auto NamingOperatorOnOom(const PhysicalOperator& op, Fn&& fn) {
  try {
    return fn();
  } catch (const OutOfMemoryError& e) {
    const std::string what = e.what();
    if (what.find(" (in ") != std::string::npos) throw;  // named by an inner call
    const std::string reason = op.NoSpillReason();
    throw OutOfMemoryError("{} (in {}{})", what, op.name(), reason.empty() ? "" : ": " + reason);
  }
}

}  // namespace

void Executor::Execute(PhysicalOperator& root_sink) {
  PipelineBuilder builder;
  Pipeline* root = builder.NewPipeline(&root_sink);
  SHEARS_CHECK(root_sink.children().size() == 1);
  root_sink.children()[0]->BuildPipelines(*root, builder);
  builder.CompleteContinuations();
  // Sink states exist before any pipeline runs: a join's probe pipeline reads the state its
  // build pipeline fills, and a sink that is a source reads its own.
  for (auto& pipeline : builder.pipelines()) {
    if (!pipeline->sink) continue;
    // Several pipelines may share a sink (UNION): create its state once.
    bool seen = false;
    for (auto& other : builder.pipelines()) {
      if (other.get() == pipeline.get()) break;
      if (other->sink == pipeline->sink) seen = true;
    }
    if (!seen)
      context_.set_sink_state(pipeline->sink, pipeline->sink->GetGlobalSinkState(context_));
  }
  // Streaming operators' shared states start afresh in every execution (a recursive CTE runs
  // its term again; LIMIT counts the rows of this run only).
  for (auto& pipeline : builder.pipelines()) {
    for (PhysicalOperator* op : pipeline->operators)
      context_.ResetOperatorState(op);
  }
  // A pipeline that reads a dynamic filter depends on the pipeline that fills it, unless the
  // producer (transitively) depends on the consumer: then the consumer just finds the filter
  // not ready and reads everything. Never a wait, never a deadlock.
  auto operators_of = [](Pipeline& p) {
    std::vector<PhysicalOperator*> ops{p.source};
    ops.insert(ops.end(), p.operators.begin(), p.operators.end());
    return ops;
  };
  std::function<bool(Pipeline*, Pipeline*)> depends_on = [&](Pipeline* a, Pipeline* b) {
    if (a == b) return true;
    for (Pipeline* d : a->dependencies) {
      if (depends_on(d, b)) return true;
    }
    return false;
  };
  for (auto& consumer : builder.pipelines()) {
    for (PhysicalOperator* op : operators_of(*consumer)) {
      for (int id : op->ConsumedDynamicFilters()) {
        for (auto& producer : builder.pipelines()) {
          if (producer.get() == consumer.get()) continue;
          bool produces = false;
          if (producer->sink) {
            for (int produced : producer->sink->SinkProducedDynamicFilters())
              produces = produces || produced == id;
          }
          if (produces && !depends_on(producer.get(), consumer.get())) {
            consumer->dependencies.push_back(producer.get());
          }
        }
      }
    }
  }
  // Run in dependency order: a pipeline runs once all its dependencies ran. Pipelines that
  // share a sink finalize it once, after the last of them.
  // A dependency outside this builder belongs to an enclosing execution (a CTE_SCAN inside a
  // recursive CTE's term reads a CTE materialized outside it), which has run it already.
  std::set<Pipeline*> own;
  for (auto& pipeline : builder.pipelines())
    own.insert(pipeline.get());
  std::set<Pipeline*> done;
  std::vector<Pipeline*> order;
  std::function<void(Pipeline*)> visit = [&](Pipeline* p) {
    if (done.count(p) || !own.count(p)) return;
    done.insert(p);
    for (Pipeline* dep : p->dependencies)
      visit(dep);
    order.push_back(p);
  };
  for (auto& pipeline : builder.pipelines())
    visit(pipeline.get());
  for (size_t i = 0; i < order.size(); i++) {
    RunPipeline(*order[i]);
    bool sink_used_later = false;
    for (size_t j = i + 1; j < order.size(); j++) {
      if (order[j]->sink == order[i]->sink) sink_used_later = true;
    }
    if (!sink_used_later) {
      Timer timer(context_.metrics(order[i]->sink).nanos);
      NamingOperatorOnOom(*order[i]->sink, [&] {
        order[i]->sink->Finalize(context_, context_.sink_state(order[i]->sink));
      });
    }
  }
}

void Executor::RunPipeline(Pipeline& pipeline) {
  SHEARS_CHECK(pipeline.source && pipeline.sink);
  auto global_source = pipeline.source->GetGlobalSourceState(context_);
  GlobalSinkState& global_sink = context_.sink_state(pipeline.sink);
  OperatorMetrics& source_metrics = context_.metrics(pipeline.source);
  OperatorMetrics& sink_metrics = context_.metrics(pipeline.sink);
  std::vector<OperatorMetrics*> operator_metrics;
  for (PhysicalOperator* op : pipeline.operators)
    operator_metrics.push_back(&context_.metrics(op));
  const int threads = static_cast<int>(std::max<idx_t>(
      1, std::min<idx_t>(static_cast<idx_t>(context_.threads()), global_source->MaxThreads())));
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex error_mutex;

  auto worker = [&]() {
    try {
      auto local_source = pipeline.source->GetLocalSourceState(context_, *global_source);
      auto local_sink = pipeline.sink->GetLocalSinkState(context_);
      std::vector<std::unique_ptr<OperatorState>> states;
      // One batch per stage: stage 0 is the source's output, stage i+1 operator i's output.
      std::vector<Batch> batches;
      batches.emplace_back(pipeline.source->types());
      for (PhysicalOperator* op : pipeline.operators) {
        states.push_back(op->GetOperatorState(context_));
        batches.emplace_back(op->types());
      }
      bool sink_wants_more = true;
      while (sink_wants_more && !stop.load(std::memory_order_relaxed)) {
        context_.CheckCancelled();
        Batch& source_out = batches[0];
        source_out.Reset();
        bool more;
        {
          Timer timer(source_metrics.nanos);
          more = NamingOperatorOnOom(*pipeline.source, [&] {
            return pipeline.source->GetData(context_, source_out, *global_source, *local_source);
          });
        }
        if (!more && source_out.size() == 0) break;
        source_metrics.rows_out.fetch_add(source_out.size(), std::memory_order_relaxed);
        // Push through the operators; an operator may produce several outputs per input.
        std::function<bool(size_t)> push = [&](size_t stage) -> bool {
          if (stage == pipeline.operators.size()) {
            Batch& input = batches[stage];
            if (input.size() == 0) return true;
            Timer timer(sink_metrics.nanos);
            if (input.HasSelection() && !pipeline.sink->SinkAcceptsSelection()) input.Flatten();
            return NamingOperatorOnOom(*pipeline.sink, [&] {
              return pipeline.sink->Sink(context_, input, global_sink, *local_sink);
            });
          }
          PhysicalOperator* op = pipeline.operators[stage];
          if (batches[stage].HasSelection() && !op->AcceptsSelection()) {
            Timer timer(operator_metrics[stage]->nanos);
            batches[stage].Flatten();
          }
          while (true) {
            Batch& output = batches[stage + 1];
            output.Reset();
            OperatorResult result;
            {
              Timer timer(operator_metrics[stage]->nanos);
              result = op->Execute(context_, batches[stage], output, *states[stage]);
            }
            operator_metrics[stage]->rows_out.fetch_add(output.size(), std::memory_order_relaxed);
            if (output.size() > 0 && !push(stage + 1)) return false;
            if (result == OperatorResult::kFinished) return false;
            if (result == OperatorResult::kNeedMoreInput) return true;
            // One input may expand into many outputs (a join on a frequent key): stay
            // cancellable between them.
            context_.CheckCancelled();
          }
        };
        if (batches[0].size() > 0) sink_wants_more = push(0);
        if (!more) break;
      }
      if (!sink_wants_more) stop.store(true);
      for (size_t stage = 0; stage < pipeline.operators.size(); stage++)
        pipeline.operators[stage]->FinishOperator(context_, *states[stage]);
      Timer timer(sink_metrics.nanos);
      NamingOperatorOnOom(*pipeline.sink,
                          [&] { pipeline.sink->Combine(context_, global_sink, *local_sink); });
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      stop.store(true);
    }
  };

  // The calling thread is one of the workers: it has a core already, where a new thread must
  // first be scheduled (on a busy machine that wait, at every pipeline, cost more than the
  // second thread gained: TPC-DS q90 at scale 1 took 0.91 s with two threads, 0.58 s with one).
  std::vector<std::thread> workers;
  for (int i = 1; i < threads; i++)
    workers.emplace_back(worker);
  worker();
  for (auto& t : workers)
    t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace shears
