#include "execution/operator/physical_hash_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/clock.h"
#include "common/error.h"
#include "execution/expression_executor.h"
#include "execution/operator/join_output.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

struct HashJoinLocalSinkState : LocalSinkState {
  HashJoinLocalSinkState(uint32_t row_width, MemoryTracker* memory) : rows(row_width, memory) {}
  RowCollection rows;
  std::vector<Vector> keys;
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> sel;
  std::vector<uint8_t*> appended, row_of;
  idx_t seen = 0;
  bool null_key = false;
};

enum class ProbePhase { kStart, kPairs, kFinal };

struct HashJoinProbeState : OperatorState {
  HashJoinGlobalState* global = nullptr;
  std::vector<Vector> keys;
  std::vector<uint64_t> hashes;
  std::vector<uint32_t> valid_sel;
  std::vector<uint8_t*> heads;
  std::vector<uint8_t> found;     // per probe row: matched (and the residual held)
  std::vector<uint8_t> null_key;  // per probe row: a key compared with `=` was NULL
  JoinHashTable::ProbeScratch scratch;
  ProbePhase phase = ProbePhase::kStart;
  idx_t next_probe = 0;
  uint8_t* resume = nullptr;  // where the chain of probe row next_probe continues
  std::vector<uint32_t> pair_probe;
  std::vector<uint8_t*> pair_build;
  std::vector<uint32_t> out_sel;
  Batch pairs;  // left ++ right, for residuals of SEMI/ANTI/MARK joins
  SelectionVector sel;
};

struct UnmatchedSourceState : GlobalSourceState {
  std::atomic<size_t> next{0};
  size_t blocks = 0;
  idx_t MaxThreads() const override { return std::max<size_t>(1, blocks); }
};

struct UnmatchedLocalState : LocalSourceState {
  std::vector<uint8_t*> rows = std::vector<uint8_t*>(kBatchSize);
};

/// Keeps rows sel[0..count) of every column, in place (sel is increasing, so no row is
/// overwritten before it is read).
void CompactBatch(Batch& batch, const uint32_t* sel, idx_t count) {
  for (idx_t c = 0; c < batch.column_count(); c++) {
    Vector& v = batch.column(c);
    const size_t width = v.type().value_size();
    uint8_t* data = v.raw_data();
    for (idx_t k = 0; k < count; k++) {
      if (sel[k] != k) std::memcpy(data + k * width, data + sel[k] * width, width);
    }
    if (!v.validity().AllValid()) {
      auto& validity = v.validity();
      for (idx_t k = 0; k < count; k++)
        validity.Set(k, validity.IsValid(sel[k]));
    }
  }
  batch.SetSize(count);
}

const char* KindName(JoinKind kind) {
  return JoinKindName(kind);
}

}  // namespace

PhysicalHashJoin::PhysicalHashJoin(std::vector<LogicalType> types, JoinKind join_kind,
                                   std::vector<BoundExprPtr> left_keys,
                                   std::vector<BoundExprPtr> right_keys,
                                   std::vector<bool> null_equal, BoundExprPtr residual)
    : PhysicalOperator("HASH_JOIN", std::move(types)),
      join_kind_(join_kind),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      null_equal_(std::move(null_equal)),
      residual_(std::move(residual)) {
  if (join_kind_ == JoinKind::kCross) throw InternalError("a hash join needs equality keys");
  SHEARS_CHECK(!left_keys_.empty());
  SHEARS_CHECK(left_keys_.size() == right_keys_.size());
  SHEARS_CHECK(null_equal_.size() == left_keys_.size());
  for (idx_t k = 0; k < left_keys_.size(); k++) {
    SHEARS_CHECK(left_keys_[k]->type.physical() == right_keys_[k]->type.physical());
  }
}

// ---- build ----

std::unique_ptr<GlobalSinkState> PhysicalHashJoin::GetGlobalSinkState(
    ExecutionContext& context) const {
  SHEARS_CHECK(children_.size() == 2);
  auto state = std::make_unique<HashJoinGlobalState>();
  std::vector<LogicalType> key_types;
  for (const auto& k : right_keys_)
    key_types.push_back(k->type);
  std::vector<LogicalType> payload;
  if (StoresPayload()) payload = children_[1]->types();
  state->table =
      std::make_unique<JoinHashTable>(std::move(key_types), std::move(payload), null_equal_,
                                      TracksMatches(), &context.query().memory());
  return state;
}

std::unique_ptr<LocalSinkState> PhysicalHashJoin::GetLocalSinkState(
    ExecutionContext& context) const {
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  auto state = std::make_unique<HashJoinLocalSinkState>(global.table->layout().row_width,
                                                        &context.query().memory());
  for (const auto& k : right_keys_)
    state->keys.emplace_back(k->type);
  return state;
}

bool PhysicalHashJoin::Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global_state,
                            LocalSinkState& local_state) const {
  auto& global = static_cast<HashJoinGlobalState&>(global_state);
  auto& local = static_cast<HashJoinLocalSinkState&>(local_state);
  const JoinHashTable& table = *global.table;
  const RowLayout& layout = table.layout();
  const idx_t n = input.size();
  if (n == 0) return true;
  if (local.hashes.size() < n) {
    local.hashes.resize(n);
    local.sel.resize(n);
    local.appended.resize(n);
    local.row_of.resize(n);
  }
  local.seen += n;
  bool any_null = false;
  for (idx_t k = 0; k < right_keys_.size(); k++) {
    ExpressionExecutor::Execute(*right_keys_[k], input, local.keys[k]);
    HashVector(local.keys[k], n, local.hashes.data(), k > 0);
    if (!null_equal_[k] && !local.keys[k].validity().AllValid()) any_null = true;
  }
  // Rows with a NULL key never match: only RIGHT/FULL joins keep them (to emit them).
  idx_t kept = 0;
  if (!any_null) {
    for (idx_t i = 0; i < n; i++)
      local.sel[i] = static_cast<uint32_t>(i);
    kept = n;
  } else {
    for (idx_t i = 0; i < n; i++) {
      bool null_key = false;
      for (idx_t k = 0; k < right_keys_.size(); k++) {
        if (!null_equal_[k] && local.keys[k].IsNull(i)) null_key = true;
      }
      if (null_key) local.null_key = true;
      if (!null_key || TracksMatches()) local.sel[kept++] = static_cast<uint32_t>(i);
    }
  }
  if (kept == 0) return true;
  local.rows.AppendRows(kept, local.appended.data());
  uint8_t** rows = local.row_of.data();
  for (idx_t k = 0; k < kept; k++) {
    const uint32_t r = local.sel[k];
    rows[r] = local.appended[k];
    StoreRow<uint64_t>(rows[r], local.hashes[r]);
  }
  StringArena* arena = layout.has_strings ? &local.rows.arena() : nullptr;
  const idx_t key_count = right_keys_.size();
  for (idx_t k = 0; k < key_count; k++) {
    ScatterColumn(layout, k, local.keys[k], local.sel.data(), kept, rows, arena);
  }
  if (StoresPayload()) {
    for (idx_t c = 0; c < input.column_count(); c++) {
      ScatterColumn(layout, key_count + c, input.column(c), local.sel.data(), kept, rows, arena);
    }
  }
  (void)context;
  return true;
}

void PhysicalHashJoin::Combine(ExecutionContext&, GlobalSinkState& global_state,
                               LocalSinkState& local_state) const {
  auto& global = static_cast<HashJoinGlobalState&>(global_state);
  auto& local = static_cast<HashJoinLocalSinkState&>(local_state);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.table->rows().Merge(std::move(local.rows));
  global.table->AddBuildRows(local.seen, local.null_key);
}

void PhysicalHashJoin::Finalize(ExecutionContext& context, GlobalSinkState& global_state) const {
  auto& global = static_cast<HashJoinGlobalState&>(global_state);
  global.table->Build();
  global.finalized = true;
  if (!runtime_filters_.empty()) BuildRuntimeFilters(context, global);
}

std::vector<int> PhysicalHashJoin::SinkProducedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& spec : runtime_filters_)
    ids.push_back(spec.filter_id);
  return ids;
}

namespace {

// The column values `keys` (rows 0..count, no NULLs) map back to, packed into `out`; returns
// how many (keys no column value computes to are left out).
idx_t MapKeysBack(const RuntimeFilterKeyInverse& inverse, const Vector& keys, idx_t count,
                  Vector& out) {
  const bool key32 = keys.type().physical() == PhysicalType::kInt32;
  const bool out32 = out.type().physical() == PhysicalType::kInt32;
  out.Reset();
  idx_t kept = 0;
  for (idx_t row = 0; row < count; row++) {
    int64_t value = key32 ? keys.data<int32_t>()[row] : keys.data<int64_t>()[row];
    if (!inverse.Apply(value)) continue;
    if (out32) {
      out.data<int32_t>()[kept++] = static_cast<int32_t>(value);
    } else {
      out.data<int64_t>()[kept++] = value;
    }
  }
  return kept;
}

}  // namespace

void PhysicalHashJoin::BuildRuntimeFilters(ExecutionContext& context,
                                           HashJoinGlobalState& global) const {
  const JoinHashTable& table = *global.table;
  const RowLayout& layout = table.layout();
  for (const auto& spec : runtime_filters_) {
    const auto started = clock::Now();
    std::vector<LogicalType> types;
    std::vector<Vector> keys;
    for (size_t k : spec.keys) {
      types.push_back(right_keys_[k]->type);
      keys.emplace_back(right_keys_[k]->type);
    }
    // A key computed from the scan column: the filter holds the column values the keys map
    // back to (one key; see RuntimeFilterKeyInverse).
    const RuntimeFilterKeyInverse* inverse = spec.inverse ? &*spec.inverse : nullptr;
    SHEARS_CHECK(!inverse || spec.keys.size() == 1);
    std::optional<Vector> mapped;
    if (inverse) mapped.emplace(inverse->column_type);
    auto filter =
        std::make_unique<RuntimeFilter>(inverse ? std::vector{inverse->column_type} : types);
    std::vector<const Vector*> key_ptrs;
    for (const auto& v : keys)
      key_ptrs.push_back(&v);
    if (inverse) key_ptrs = {&*mapped};
    // Every build row whose keys can match (RIGHT joins keep NULL-key rows to emit them).
    std::vector<uint8_t*> rows;
    rows.reserve(kBatchSize);
    auto flush = [&] {
      for (size_t i = 0; i < spec.keys.size(); i++) {
        keys[i].Reset();
        GatherColumn(layout, spec.keys[i], rows.data(), rows.size(), keys[i]);
      }
      idx_t count = rows.size();
      if (inverse) count = MapKeysBack(*inverse, keys[0], count, *mapped);
      filter->Add(key_ptrs, count);
      rows.clear();
    };
    for (const auto& block : table.rows().blocks()) {
      for (uint32_t r = 0; r < block.count; r++) {
        uint8_t* row = block.data + static_cast<size_t>(r) * layout.row_width;
        if (table.HasNullKey(row)) continue;
        rows.push_back(row);
        if (rows.size() == kBatchSize) flush();
      }
      context.CheckCancelled();
    }
    if (!rows.empty()) flush();
    const double ms = clock::MillisSince(started);
    // On all join keys the hash table's distinct count is the filter's.
    filter->Finish(spec.limits, table.build_rows(), ms,
                   spec.keys.size() == right_keys_.size() && !inverse ? table.distinct_keys() : 0);
    if (filter->enabled() && !spec.always && spec.probe_rows > 0 && !filter->empty()) {
      // Revisit the planner's decision with the real distinct count.
      const double ratio = 1 - static_cast<double>(filter->distinct_keys()) / spec.probe_rows;
      if (ratio < spec.min_filter_ratio) {
        filter->Disable(fmt::format(
            "estimated filter ratio {:.2f} (1 - {} distinct build keys / {:.0f} scan rows) below "
            "runtime_filter.min_filter_ratio {:.2f}",
            ratio, filter->distinct_keys(), spec.probe_rows, spec.min_filter_ratio));
      }
    }
    const RuntimeFilterProbeForm form = filter->probe_form();
    const bool cheap_form = form == RuntimeFilterProbeForm::kBitmap ||
                            form == RuntimeFilterProbeForm::kLinear ||
                            form == RuntimeFilterProbeForm::kIntTable;
    if (filter->enabled() && !spec.always && !filter->empty() && table.direct() &&
        right_keys_.size() == 1 && cheap_form) {
      // This join probes a direct array: a row dropped by the filter saves about what testing
      // it costs. Partitions, row groups and pages are still pruned with it.
      filter->SkipRows("the join probes a direct array for its dense key, as cheap as the filter");
    }
    context.dynamic_filters().PublishRuntime(spec.filter_id, std::move(filter));
  }
}

// ---- probe ----

std::unique_ptr<OperatorState> PhysicalHashJoin::GetOperatorState(ExecutionContext& context) const {
  auto state = std::make_unique<HashJoinProbeState>();
  state->global = &static_cast<HashJoinGlobalState&>(context.sink_state(this));
  for (const auto& k : left_keys_)
    state->keys.emplace_back(k->type);
  state->pair_probe.resize(kBatchSize);
  state->pair_build.resize(kBatchSize);
  state->out_sel.resize(kBatchSize);
  if (residual_ && !EmitsRight()) {
    std::vector<LogicalType> types = children_[0]->types();
    for (const auto& t : children_[1]->types())
      types.push_back(t);
    state->pairs = Batch(types);
  }
  state->sel = SelectionVector(kBatchSize);
  return state;
}

OperatorResult PhysicalHashJoin::Execute(ExecutionContext&, Batch& input, Batch& output,
                                         OperatorState& op_state) const {
  auto& state = static_cast<HashJoinProbeState&>(op_state);
  const JoinHashTable& table = *state.global->table;
  const RowLayout& layout = table.layout();
  const idx_t n = input.size();
  const idx_t left_columns = input.column_count();
  const idx_t key_count = left_keys_.size();

  if (state.phase == ProbePhase::kStart) {
    if (n == 0) return OperatorResult::kNeedMoreInput;
    if (state.hashes.size() < n) {
      state.hashes.resize(n);
      state.valid_sel.resize(n);
      state.heads.resize(n);
      state.found.resize(n);
      state.null_key.resize(n);
    }
    std::fill(state.heads.begin(), state.heads.begin() + n, nullptr);
    std::fill(state.found.begin(), state.found.begin() + n, 0);
    std::fill(state.null_key.begin(), state.null_key.begin() + n, 0);
    std::vector<const Vector*> keys;
    bool any_null = false;
    // A direct table (one dense integer key) needs no hashes.
    const bool direct = table.direct() && key_count == 1 &&
                        state.keys[0].type().physical() == layout.types[0].physical();
    for (idx_t k = 0; k < key_count; k++) {
      ExpressionExecutor::Execute(*left_keys_[k], input, state.keys[k]);
      if (!direct) HashVector(state.keys[k], n, state.hashes.data(), k > 0);
      keys.push_back(&state.keys[k]);
      if (!null_equal_[k] && !state.keys[k].validity().AllValid()) any_null = true;
    }
    idx_t valid = 0;
    for (idx_t i = 0; i < n; i++) {
      bool null_key = false;
      if (any_null) {
        for (idx_t k = 0; k < key_count; k++) {
          if (!null_equal_[k] && state.keys[k].IsNull(i)) null_key = true;
        }
      }
      if (null_key) {
        state.null_key[i] = 1;
      } else {
        state.valid_sel[valid++] = static_cast<uint32_t>(i);
      }
    }
    if (direct) {
      table.ProbeDirect(state.keys[0], state.valid_sel.data(), valid, state.heads.data());
    } else {
      table.Probe(keys, state.hashes.data(), state.valid_sel.data(), valid, state.heads.data(),
                  state.scratch);
    }
    state.next_probe = 0;
    state.resume = nullptr;
    state.phase = ProbePhase::kPairs;
  }

  if (state.phase == ProbePhase::kPairs) {
    const bool existence_only = !EmitsRight();
    if (existence_only && !residual_) {
      // SEMI/ANTI/MARK without residual: a head is a match.
      for (idx_t i = 0; i < n; i++)
        state.found[i] = state.heads[i] != nullptr;
      state.phase = ProbePhase::kFinal;
    }
    while (state.phase == ProbePhase::kPairs) {
      // Collect (probe row, build row) pairs, at most a batch of them.
      idx_t pairs = 0;
      while (state.next_probe < n && pairs < kBatchSize) {
        const idx_t i = state.next_probe;
        uint8_t* row = state.resume ? state.resume : state.heads[i];
        // SEMI/ANTI/MARK: one match (passing the residual) is enough.
        const bool skip = existence_only && state.found[i];
        while (row && !skip && pairs < kBatchSize) {
          state.pair_probe[pairs] = static_cast<uint32_t>(i);
          state.pair_build[pairs] = row;
          pairs++;
          row = JoinHashTable::Next(row);
        }
        if (row && !skip) {
          state.resume = row;  // the batch is full in the middle of this chain
          break;
        }
        state.resume = nullptr;
        state.next_probe++;
      }
      const bool done = state.next_probe >= n;
      if (pairs > 0) {
        if (EmitsRight()) {
          output.Reset();  // an earlier round of this call may have left values behind
          for (idx_t c = 0; c < left_columns; c++) {
            output.column(c).CopyRows(input.column(c), state.pair_probe.data(), pairs);
          }
          for (idx_t c = key_count; c < layout.types.size(); c++) {
            Vector& out = output.column(left_columns + c - key_count);
            GatherColumn(layout, c, state.pair_build.data(), pairs, out);
            if (out.type().IsString()) table.rows().KeepArenasAlive(out);
          }
          output.SetSize(pairs);
          const uint32_t* kept = nullptr;
          idx_t kept_count = pairs;
          if (residual_) {
            kept_count = ExpressionExecutor::Select(*residual_, output, state.sel);
            kept = state.sel.data();
          }
          const bool left_outer = join_kind_ == JoinKind::kLeft || join_kind_ == JoinKind::kFull;
          const uint32_t matched_offset = table.matched_offset();
          for (idx_t k = 0; k < kept_count; k++) {
            const idx_t p = kept ? kept[k] : k;
            if (left_outer) state.found[state.pair_probe[p]] = 1;
            if (TracksMatches()) {
              uint8_t* flag = state.pair_build[p] + matched_offset;
              // Several probe threads may mark the same build row.
              std::atomic_ref<uint8_t> ref(*flag);
              if (ref.load(std::memory_order_relaxed) == 0) ref.store(1, std::memory_order_relaxed);
            }
          }
          if (kept && kept_count < pairs) CompactBatch(output, kept, kept_count);
        } else {
          // SEMI/ANTI/MARK with a residual: evaluate it over the pairs, remember who passed.
          Batch& batch = state.pairs;
          batch.Reset();
          for (idx_t c = 0; c < left_columns; c++) {
            batch.column(c).CopyRows(input.column(c), state.pair_probe.data(), pairs);
          }
          for (idx_t c = key_count; c < layout.types.size(); c++) {
            Vector& out = batch.column(left_columns + c - key_count);
            GatherColumn(layout, c, state.pair_build.data(), pairs, out);
            if (out.type().IsString()) table.rows().KeepArenasAlive(out);
          }
          batch.SetSize(pairs);
          const idx_t passed = ExpressionExecutor::Select(*residual_, batch, state.sel);
          for (idx_t k = 0; k < passed; k++)
            state.found[state.pair_probe[state.sel[k]]] = 1;
        }
      }
      if (done) {
        const bool needs_final = join_kind_ != JoinKind::kInner && join_kind_ != JoinKind::kRight;
        state.phase = needs_final ? ProbePhase::kFinal : ProbePhase::kStart;
      }
      if (output.size() > 0) {
        return state.phase == ProbePhase::kStart ? OperatorResult::kNeedMoreInput
                                                 : OperatorResult::kHaveMoreOutput;
      }
      if (state.phase == ProbePhase::kStart) return OperatorResult::kNeedMoreInput;
    }
  }

  // kFinal: the rows decided per probe row.
  state.phase = ProbePhase::kStart;
  uint32_t* sel = state.out_sel.data();
  if (state.out_sel.size() < n) {
    state.out_sel.resize(n);
    sel = state.out_sel.data();
  }
  switch (join_kind_) {
    case JoinKind::kLeft:
    case JoinKind::kFull:
    case JoinKind::kSemi:
    case JoinKind::kAnti:
      EmitRowsDecidedPerLeftRow(join_kind_, input, state.found.data(), sel, output);
      break;
    case JoinKind::kMark: {
      for (idx_t c = 0; c < left_columns; c++)
        output.column(c).Reference(input.column(c));
      Vector& mark = output.column(left_columns);
      if (mark.capacity() < n) mark.Reserve(n);
      uint8_t* data = mark.data<uint8_t>();
      // x IN (empty) is FALSE even for a NULL x; otherwise no match is unknown when NULLs
      // were involved on either side.
      const bool empty_build = table.build_rows() == 0;
      const bool build_null = table.has_null_key();
      for (idx_t i = 0; i < n; i++) {
        data[i] = state.found[i];
        if (!state.found[i] && !empty_build && (state.null_key[i] || build_null)) {
          mark.validity().SetNull(i);
        }
      }
      output.SetSize(n);
      break;
    }
    default:
      break;
  }
  return OperatorResult::kNeedMoreInput;
}

// ---- unmatched build rows ----

std::unique_ptr<GlobalSourceState> PhysicalHashJoin::GetGlobalSourceState(
    ExecutionContext& context) const {
  unmatched_.CompleteOperators(this);
  auto state = std::make_unique<UnmatchedSourceState>();
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  state->blocks = global.table->rows().blocks().size();
  return state;
}

std::unique_ptr<LocalSourceState> PhysicalHashJoin::GetLocalSourceState(ExecutionContext&,
                                                                        GlobalSourceState&) const {
  return std::make_unique<UnmatchedLocalState>();
}

bool PhysicalHashJoin::GetData(ExecutionContext& context, Batch& out,
                               GlobalSourceState& global_source,
                               LocalSourceState& local_source) const {
  auto& source = static_cast<UnmatchedSourceState&>(global_source);
  auto& local = static_cast<UnmatchedLocalState&>(local_source);
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  const JoinHashTable& table = *global.table;
  const RowLayout& layout = table.layout();
  const uint32_t matched_offset = table.matched_offset();
  const idx_t key_count = right_keys_.size();
  const idx_t right_columns = layout.types.size() - key_count;
  const idx_t left_columns = out.column_count() - right_columns;
  while (true) {
    const size_t b = source.next.fetch_add(1);
    if (b >= source.blocks) return false;
    const auto& block = table.rows().blocks()[b];
    idx_t count = 0;
    for (uint32_t i = 0; i < block.count; i++) {
      uint8_t* row = block.data + static_cast<size_t>(i) * layout.row_width;
      if (!std::atomic_ref<uint8_t>(row[matched_offset]).load(std::memory_order_relaxed)) {
        local.rows[count++] = row;
      }
    }
    if (count == 0) continue;
    for (idx_t c = 0; c < left_columns; c++)
      SetNullRows(out.column(c), count);
    for (idx_t c = 0; c < right_columns; c++) {
      Vector& column = out.column(left_columns + c);
      GatherColumn(layout, key_count + c, local.rows.data(), count, column);
      if (column.type().IsString()) table.rows().KeepArenasAlive(column);
    }
    out.SetSize(count);
    return true;
  }
}

// ---- pipelines ----

void PhysicalHashJoin::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  BuildJoinPipelines(*this, current, builder, TracksMatches() ? &unmatched_ : nullptr);
}

std::string PhysicalHashJoin::Describe() const {
  std::string out = name_ + " (" + KindName(join_kind_);
  for (idx_t k = 0; k < left_keys_.size(); k++) {
    out += k == 0 ? ": " : " AND ";
    out += left_keys_[k]->ToString() + (null_equal_[k] ? " IS NOT DISTINCT FROM " : " = ") +
           right_keys_[k]->ToString();
  }
  if (residual_) out += ", residual: " + residual_->ToString();
  out += ")";
  for (const auto& spec : runtime_filters_) {
    out += " runtime_filter #" + std::to_string(spec.filter_id) + " from ";
    for (size_t i = 0; i < spec.keys.size(); i++)
      out += (i ? ", " : "") + right_keys_[spec.keys[i]]->ToString();
  }
  if (!runtime_filter_note_.empty()) out += " (no runtime filter: " + runtime_filter_note_ + ")";
  return out;
}

std::vector<std::pair<std::string, std::string>> PhysicalHashJoin::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  std::vector<std::pair<std::string, std::string>> out = {
      {"build_rows", std::to_string(global.build_rows())},
      {"distinct_keys", std::to_string(global.distinct_keys())},
      {"build_bytes", std::to_string(global.table->bytes())}};
  if (!no_filter_reason_.empty()) out.emplace_back("no_dynamic_filter", no_filter_reason_);
  for (const auto& spec : runtime_filters_) {
    const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(spec.filter_id);
    std::string text;
    if (!filter) {
      text = "not built";
    } else if (!filter->enabled()) {
      text = "not applied: " + filter->disabled_reason();
    } else {
      text = fmt::format("{}, {} distinct keys, {} bytes, built in {:.3f} ms; {}",
                         filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
                         filter->distinct_keys(), filter->bytes(), filter->build_ms(),
                         RowsText(*filter));
    }
    out.emplace_back("runtime_filter_" + std::to_string(spec.filter_id), text);
  }
  return out;
}

}  // namespace shears
