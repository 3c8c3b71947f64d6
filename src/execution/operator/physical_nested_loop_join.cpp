#include "execution/operator/physical_nested_loop_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "common/clock.h"
#include "common/error.h"
#include "execution/operator/join_output.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

struct NestedLoopLocalSinkState : LocalSinkState {
  NestedLoopLocalSinkState(std::vector<LogicalType> types, MemoryTracker* memory)
      : rows(std::move(types), memory) {}
  ColumnDataCollection rows;
};

struct NestedLoopProbeState : OperatorState {
  NestedLoopJoinGlobalState* global = nullptr;
  bool started = false;  // the current input batch is being joined
  size_t right_batch = 0;
  idx_t left_row = 0;
  std::vector<uint8_t> found;    // per left row: the condition was TRUE for some right row
  std::vector<uint8_t> unknown;  // per left row: ... or NULL (MARK)
  std::vector<uint32_t> left_sel = std::vector<uint32_t>(kBatchSize);
  std::vector<uint32_t> right_sel = std::vector<uint32_t>(kBatchSize);
  Batch pairs;  // left ++ right, for SEMI/ANTI/MARK
  Vector condition_result{LogicalType::Boolean()};
  SelectionVector sel{kBatchSize};
};

struct UnmatchedRightState : GlobalSourceState {
  std::atomic<size_t> next{0};
  size_t batches = 0;
  idx_t MaxThreads() const override { return std::max<size_t>(1, batches); }
};

}  // namespace

PhysicalNestedLoopJoin::PhysicalNestedLoopJoin(std::vector<LogicalType> types, JoinKind join_kind,
                                               BoundExprPtr condition)
    : PhysicalOperator("NESTED_LOOP_JOIN", std::move(types)),
      join_kind_(join_kind),
      condition_(std::move(condition)) {
  // build_side makes these of hash joins only (they need a key to mark build rows by).
  if (join_kind_ == JoinKind::kRightSemi || join_kind_ == JoinKind::kRightAnti)
    throw InternalError("a nested loop join cannot be {}", JoinKindName(join_kind_));
}

// ---- right side ----

std::unique_ptr<GlobalSinkState> PhysicalNestedLoopJoin::GetGlobalSinkState(
    ExecutionContext& context) const {
  SHEARS_CHECK(children_.size() == 2);
  return std::make_unique<NestedLoopJoinGlobalState>(children_[1]->types(),
                                                     &context.query().memory());
}

std::unique_ptr<LocalSinkState> PhysicalNestedLoopJoin::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<NestedLoopLocalSinkState>(children_[1]->types(),
                                                    &context.query().memory());
}

bool PhysicalNestedLoopJoin::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                                  LocalSinkState& local_state) const {
  // A SEMI/ANTI/MARK join without a condition only asks whether the right side has a row.
  const bool existence_only = !EmitsRight() && !condition_;
  auto& local = static_cast<NestedLoopLocalSinkState&>(local_state);
  if (existence_only && local.rows.row_count() > 0) return false;
  local.rows.Append(input);
  return !existence_only;
}

void PhysicalNestedLoopJoin::Combine(ExecutionContext&, GlobalSinkState& global_state,
                                     LocalSinkState& local_state) const {
  auto& global = static_cast<NestedLoopJoinGlobalState&>(global_state);
  auto& local = static_cast<NestedLoopLocalSinkState&>(local_state);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.rows.Combine(local.rows);
}

void PhysicalNestedLoopJoin::Finalize(ExecutionContext& context,
                                      GlobalSinkState& global_state) const {
  auto& global = static_cast<NestedLoopJoinGlobalState&>(global_state);
  if (!bound_filters_.empty()) PublishBoundFilters(context, global);
  if (!TracksMatches()) return;
  global.matched.resize(global.rows.batch_count());
  for (size_t b = 0; b < global.rows.batch_count(); b++)
    global.matched[b].assign(global.rows.batch(b).size(), 0);
}

void PhysicalNestedLoopJoin::PublishBoundFilters(ExecutionContext& context,
                                                 NestedLoopJoinGlobalState& global) const {
  for (const auto& [id, expr] : bound_filters_) {
    const auto started = clock::Now();
    std::optional<Value> min, max;
    Vector values(expr->type, kBatchSize);
    for (size_t b = 0; b < global.rows.batch_count(); b++) {
      Batch& batch = global.rows.batch(b);
      values.Reset();
      ExpressionExecutor::Execute(*expr, batch, values);
      for (idx_t row = 0; row < batch.size(); row++) {
        if (values.IsNull(row)) continue;  // NULL compares with nothing
        Value value = ReadValue(values, row);
        if (!min || value.Compare(*min) < 0) min = value;
        if (!max || value.Compare(*max) > 0) max = std::move(value);
      }
    }
    context.dynamic_filters().PublishRuntime(
        id, RuntimeFilter::OfBounds(expr->type, std::move(min), std::move(max),
                                    global.rows.row_count(), clock::MillisSince(started)));
  }
}

std::vector<int> PhysicalNestedLoopJoin::SinkProducedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& bound : bound_filters_)
    ids.push_back(bound.first);
  return ids;
}

// ---- left side ----

std::unique_ptr<OperatorState> PhysicalNestedLoopJoin::GetOperatorState(
    ExecutionContext& context) const {
  auto state = std::make_unique<NestedLoopProbeState>();
  state->global = &static_cast<NestedLoopJoinGlobalState&>(context.sink_state(this));
  if (!EmitsRight()) {
    std::vector<LogicalType> types = children_[0]->types();
    for (const auto& t : children_[1]->types())
      types.push_back(t);
    state->pairs = Batch(types);
  }
  return state;
}

OperatorResult PhysicalNestedLoopJoin::Execute(ExecutionContext&, Batch& input, Batch& output,
                                               OperatorState& op_state) const {
  auto& state = static_cast<NestedLoopProbeState&>(op_state);
  const ColumnDataCollection& right = state.global->rows;
  const idx_t n = input.size();
  const idx_t left_columns = input.column_count();
  if (!state.started) {
    if (n == 0) return OperatorResult::kNeedMoreInput;
    state.started = true;
    state.right_batch = 0;
    state.left_row = 0;
    state.found.assign(n, 0);
    state.unknown.assign(n, 0);
    if (!condition_ && !EmitsRight()) {
      // Without a condition every right row matches: only emptiness matters.
      std::fill(state.found.begin(), state.found.end(), right.row_count() > 0 ? 1 : 0);
      state.right_batch = right.batch_count();
    }
  }

  // Pair left rows with the rows of one right batch at a time, at most a batch of pairs.
  while (state.right_batch < right.batch_count()) {
    const Batch& right_batch = right.batch(state.right_batch);
    const idx_t m = right_batch.size();
    SHEARS_CHECK(m <= kBatchSize);
    idx_t pairs = 0;
    while (state.left_row < n && pairs + m <= kBatchSize) {
      const idx_t i = state.left_row++;
      // SEMI/ANTI/MARK: one TRUE is enough for a left row.
      if (!EmitsRight() && state.found[i]) continue;
      for (idx_t j = 0; j < m; j++) {
        state.left_sel[pairs] = static_cast<uint32_t>(i);
        state.right_sel[pairs] = static_cast<uint32_t>(j);
        pairs++;
      }
    }
    const size_t batch_index = state.right_batch;
    if (state.left_row >= n) {
      state.left_row = 0;
      state.right_batch++;
    }
    if (pairs == 0) continue;
    Batch& batch = EmitsRight() ? output : state.pairs;
    batch.Reset();
    for (idx_t c = 0; c < left_columns; c++)
      batch.column(c).CopyRows(input.column(c), state.left_sel.data(), pairs);
    for (idx_t c = 0; c < right_batch.column_count(); c++) {
      batch.column(left_columns + c).CopyRows(right_batch.column(c), state.right_sel.data(), pairs);
    }
    batch.SetSize(pairs);
    if (join_kind_ == JoinKind::kMark) {
      // Three-valued: a NULL condition makes the mark NULL unless some pair is TRUE.
      ExpressionExecutor::Execute(*condition_, batch, state.condition_result);
      const uint8_t* values = state.condition_result.data<uint8_t>();
      for (idx_t p = 0; p < pairs; p++) {
        if (state.condition_result.IsNull(p)) {
          state.unknown[state.left_sel[p]] = 1;
        } else if (values[p]) {
          state.found[state.left_sel[p]] = 1;
        }
      }
      continue;
    }
    idx_t kept = pairs;
    const uint32_t* kept_sel = nullptr;
    if (condition_) {
      kept = ExpressionExecutor::Select(*condition_, batch, state.sel);
      kept_sel = state.sel.data();
    }
    for (idx_t k = 0; k < kept; k++) {
      const idx_t p = kept_sel ? kept_sel[k] : k;
      state.found[state.left_sel[p]] = 1;
      if (TracksMatches()) {
        // Several left-side threads may mark the same right row.
        std::atomic_ref<uint8_t> flag(state.global->matched[batch_index][state.right_sel[p]]);
        if (flag.load(std::memory_order_relaxed) == 0) flag.store(1, std::memory_order_relaxed);
      }
    }
    if (!EmitsRight()) continue;
    if (kept_sel && kept < pairs) output.Select(kept_sel, kept);
    if (output.size() > 0) return OperatorResult::kHaveMoreOutput;
  }

  // Every right batch was seen: the rows decided per left row.
  state.started = false;
  output.Reset();
  std::vector<uint32_t>& sel = state.left_sel;
  if (sel.size() < n) sel.resize(n);
  switch (join_kind_) {
    case JoinKind::kLeft:
    case JoinKind::kFull:
    case JoinKind::kSemi:
    case JoinKind::kAnti:
      EmitRowsDecidedPerLeftRow(join_kind_, input, state.found.data(), sel.data(), output);
      break;
    case JoinKind::kMark: {
      for (idx_t c = 0; c < left_columns; c++)
        output.column(c).Reference(input.column(c));
      Vector& mark = output.column(left_columns);
      if (mark.capacity() < n) mark.Reserve(n);
      uint8_t* data = mark.data<uint8_t>();
      for (idx_t i = 0; i < n; i++) {
        data[i] = state.found[i];
        if (!state.found[i] && state.unknown[i]) mark.validity().SetNull(i);
      }
      output.SetSize(n);
      break;
    }
    default:
      break;
  }
  return OperatorResult::kNeedMoreInput;
}

// ---- unmatched right rows ----

std::unique_ptr<GlobalSourceState> PhysicalNestedLoopJoin::GetGlobalSourceState(
    ExecutionContext& context) const {
  unmatched_.CompleteOperators(this);
  auto state = std::make_unique<UnmatchedRightState>();
  state->batches =
      static_cast<NestedLoopJoinGlobalState&>(context.sink_state(this)).rows.batch_count();
  return state;
}

bool PhysicalNestedLoopJoin::GetData(ExecutionContext& context, Batch& out,
                                     GlobalSourceState& global_source, LocalSourceState&) const {
  auto& source = static_cast<UnmatchedRightState&>(global_source);
  auto& global = static_cast<NestedLoopJoinGlobalState&>(context.sink_state(this));
  const idx_t right_columns = children_[1]->types().size();
  const idx_t left_columns = out.column_count() - right_columns;
  std::vector<uint32_t> sel(kBatchSize);
  while (true) {
    const size_t b = source.next.fetch_add(1);
    if (b >= source.batches) return false;
    const Batch& batch = global.rows.batch(b);
    idx_t count = 0;
    for (idx_t i = 0; i < batch.size(); i++) {
      if (!std::atomic_ref<uint8_t>(global.matched[b][i]).load(std::memory_order_relaxed)) {
        sel[count++] = static_cast<uint32_t>(i);
      }
    }
    if (count == 0) continue;
    for (idx_t c = 0; c < left_columns; c++)
      SetNullRows(out.column(c), count);
    for (idx_t c = 0; c < right_columns; c++)
      out.column(left_columns + c).CopyRows(batch.column(c), sel.data(), count);
    out.SetSize(count);
    return true;
  }
}

// ---- pipelines ----

void PhysicalNestedLoopJoin::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  BuildJoinPipelines(*this, current, builder, TracksMatches() ? &unmatched_ : nullptr);
}

std::string PhysicalNestedLoopJoin::Describe() const {
  std::string out = name_ + " (" + JoinKindName(join_kind_);
  if (condition_) out += ": " + condition_->ToString();
  out += ")";
  for (const auto& [id, expr] : bound_filters_)
    out += " partition_filter #" + std::to_string(id) + " from bounds of " + expr->ToString();
  return out;
}

std::vector<std::pair<std::string, std::string>> PhysicalNestedLoopJoin::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& global = static_cast<NestedLoopJoinGlobalState&>(context.sink_state(this));
  std::vector<std::pair<std::string, std::string>> out = {
      {"build_rows", std::to_string(global.rows.row_count())},
      {"build_bytes", std::to_string(global.rows.bytes())}};
  if (!no_filter_reason_.empty()) out.emplace_back("no_dynamic_filter", no_filter_reason_);
  for (const auto& bound : bound_filters_) {
    const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(bound.first);
    std::string text = "not built";
    if (filter) {
      text = filter->min()
                 ? "range [" + filter->min()->ToString() + ", " + filter->max()->ToString() + "]"
                 : "no value";
      text += fmt::format(" from {} rows, built in {:.3f} ms", filter->build_rows(),
                          filter->build_ms());
    }
    out.emplace_back("partition_filter_" + std::to_string(bound.first), text);
  }
  return out;
}

}  // namespace shears
