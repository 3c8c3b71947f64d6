#include "execution/operator/physical_hash_join.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common/batch_selection.h"
#include "common/clock.h"
#include "common/error.h"
#include "execution/operator/join_output.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "expression/expression_executor.h"

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
  ~HashJoinProbeState() override {
    if (memory) memory->Release(reserved);
  }
  HashJoinGlobalState* global = nullptr;
  const JoinHashTable* table = nullptr;  // the global one, or a spill partition's
  // Spilling probe rows (grace hash join): this thread's file and per-partition buffers.
  MemoryTracker* memory = nullptr;
  int64_t reserved = 0;
  RowLayout probe_layout;
  std::unique_ptr<SpillFile> spill_file;
  std::vector<std::vector<uint8_t>> spill_buffers;
  std::vector<SpillSegments> spill_segments;
  std::vector<uint64_t> spill_rows;
  size_t buffer_bytes = 0;
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
  // The selections the one-pass probe hands on; one still held downstream is not reused.
  SelectionPool selections;
};

struct UnmatchedSourceState : GlobalSourceState {
  std::atomic<size_t> next{0};  // block, or spill partition of a grace hash join
  size_t blocks = 0;
  bool grace = false;
  idx_t MaxThreads() const override {
    return grace ? PhysicalHashJoin::kSpillPartitions : std::max<size_t>(1, blocks);
  }
};

struct UnmatchedLocalState : LocalSourceState {
  ~UnmatchedLocalState() override {
    if (memory) memory->Release(buffer_reserved);
  }
  std::vector<uint8_t*> rows = std::vector<uint8_t*>(kBatchSize);
  // Grace hash join: the spill partition being joined.
  MemoryTracker* memory = nullptr;
  std::unique_ptr<JoinHashTable> table;
  std::unique_ptr<OperatorState> probe;
  std::vector<std::pair<const SpillFile*, std::pair<uint64_t, uint64_t>>> segments;
  size_t next_segment = 0;
  std::shared_ptr<std::vector<uint8_t>> buffer;  // the probe rows' strings point into it
  int64_t buffer_reserved = 0;
  std::unique_ptr<SpilledRowParser> parser;
  Batch input;
  bool have_input = false;
  bool probed = false;
  size_t unmatched_block = 0;
};

/// Bytes a probe thread buffers per spill partition before appending them to its file: all
/// threads' buffers together take a 32nd of the limit, 256 bytes to 64 KiB each.
size_t ProbeBufferBytes(const MemoryTracker& memory, int threads) {
  const int64_t share = memory.limit() / 32 /
                        static_cast<int64_t>(PhysicalHashJoin::kSpillPartitions) /
                        std::max(1, threads);
  return static_cast<size_t>(std::clamp<int64_t>(share, 256, 64 << 10));
}

int64_t JoinSpillThreshold(const MemoryTracker& memory) {
  return memory.limit() / 2;
}

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
    VisitExpression(*left_keys_[k], [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference) {
        left_key_columns_.push_back(static_cast<const BoundReference&>(e).index);
      }
    });
  }
}

// ---- build ----

std::unique_ptr<GlobalSinkState> PhysicalHashJoin::GetGlobalSinkState(
    ExecutionContext& context) const {
  SHEARS_CHECK(children_.size() == 2);
  auto state = std::make_unique<HashJoinGlobalState>();
  state->table = MakeTable(context);
  return state;
}

std::unique_ptr<JoinHashTable> PhysicalHashJoin::MakeTable(ExecutionContext& context) const {
  std::vector<LogicalType> key_types;
  for (const auto& k : right_keys_)
    key_types.push_back(k->type);
  std::vector<LogicalType> payload;
  if (StoresPayload()) payload = children_[1]->types();
  return std::make_unique<JoinHashTable>(std::move(key_types), std::move(payload), null_equal_,
                                         TracksMatches(), &context.query().memory());
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
  // Rows with a NULL key never match: only joins emitting unmatched build rows keep them.
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
      if (!null_key || KeepsNullKeyRows()) local.sel[kept++] = static_cast<uint32_t>(i);
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
    ScatterColumn(layout, k, local.keys[k], local.sel.data(), kept, rows, nullptr);
  }
  if (StoresPayload()) {
    for (idx_t c = 0; c < input.column_count(); c++) {
      ScatterColumn(layout, key_count + c, input.column(c), local.sel.data(), kept, rows, nullptr);
    }
  }
  // Each build row's strings side by side: a probe matching the row then reads them (keys
  // compared, payload gathered and later hashed or compared above) from one place.
  if (arena) CopyRowStrings(layout, 0, layout.types.size(), local.sel.data(), kept, rows, *arena);
  const MemoryTracker& memory = context.query().memory();
  if (memory.used() > JoinSpillThreshold(memory) &&
      local.rows.bytes() >= std::min<int64_t>(1 << 20, memory.limit() / 16)) {
    global.spilling.store(true);
    SpillRows(context, global, layout, local.rows, global.build_runs, global.build_spill);
    local.rows = RowCollection(layout.row_width, &context.query().memory());
  }
  return true;
}

void PhysicalHashJoin::SpillRows(ExecutionContext& context, HashJoinGlobalState& global,
                                 const RowLayout& layout, const RowCollection& rows,
                                 std::vector<HashJoinGlobalState::SpillRun>& runs,
                                 SpillMetrics& metrics) const {
  if (rows.row_count() == 0) return;
  HashJoinGlobalState::SpillRun run;
  run.file = std::make_unique<SpillFile>(context.query().spill());
  run.segments.resize(kSpillPartitions);
  // Counting sort of the rows by partition (their hash is in the row header).
  idx_t counts[kSpillPartitions] = {0};
  for (const auto& block : rows.blocks()) {
    for (uint32_t i = 0; i < block.count; i++)
      counts[SpillPartitionOf(LoadRow<uint64_t>(block.data + size_t{i} * layout.row_width))]++;
  }
  idx_t next[kSpillPartitions];
  idx_t total = 0;
  for (idx_t p = 0; p < kSpillPartitions; p++) {
    next[p] = total;
    total += counts[p];
  }
  std::vector<const uint8_t*> ordered(total);
  for (const auto& block : rows.blocks()) {
    for (uint32_t i = 0; i < block.count; i++) {
      const uint8_t* row = block.data + size_t{i} * layout.row_width;
      ordered[next[SpillPartitionOf(LoadRow<uint64_t>(row))]++] = row;
    }
  }
  std::vector<uint8_t> bytes;
  idx_t start = 0;
  for (idx_t p = 0; p < kSpillPartitions; p++) {
    if (counts[p] == 0) continue;
    bytes.clear();
    for (idx_t i = start; i < start + counts[p]; i++)
      AppendSpilledRow(layout, ordered[i], bytes);
    start += counts[p];
    run.segments[p].emplace_back(run.file->size(), bytes.size());
    run.file->Append(bytes.data(), bytes.size());
  }
  run.file->Flush();
  context.CheckCancelled();
  metrics.bytes_written.fetch_add(run.file->size(), std::memory_order_relaxed);
  metrics.files.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(global.mutex);
  runs.push_back(std::move(run));
}

void PhysicalHashJoin::Combine(ExecutionContext& context, GlobalSinkState& global_state,
                               LocalSinkState& local_state) const {
  auto& global = static_cast<HashJoinGlobalState&>(global_state);
  auto& local = static_cast<HashJoinLocalSinkState&>(local_state);
  if (global.spilling.load()) {
    SpillRows(context, global, global.table->layout(), local.rows, global.build_runs,
              global.build_spill);
    local.rows = RowCollection(global.table->layout().row_width, &context.query().memory());
  }
  std::lock_guard<std::mutex> lock(global.mutex);
  global.table->rows().Merge(std::move(local.rows));
  global.table->AddBuildRows(local.seen, local.null_key);
}

void PhysicalHashJoin::Finalize(ExecutionContext& context, GlobalSinkState& global_state) const {
  auto& global = static_cast<HashJoinGlobalState&>(global_state);
  if (global.spilling.load()) {
    // Rows merged before the first spill follow the others; the table stays empty (its build
    // statistics, counted in Combine, describe the whole build side).
    const RowLayout& layout = global.table->layout();
    SpillRows(context, global, layout, global.table->rows(), global.build_runs, global.build_spill);
    global.table->rows() = RowCollection(layout.row_width, &context.query().memory());
    global.spilled = true;
  }
  // The pipeline is done: its threads are free to build the table.
  const auto started = clock::Now();
  global.table->Build(context.threads());
  global.table_ms = clock::MillisSince(started);
  global.finalized = true;
  if (!runtime_filters_.empty()) BuildRuntimeFilters(context, global);
}

void PhysicalHashJoin::ForEachBuildRows(
    ExecutionContext& context, HashJoinGlobalState& global,
    const std::function<void(uint8_t* const*, idx_t)>& fn) const {
  const JoinHashTable& table = *global.table;
  const RowLayout& layout = table.layout();
  ForEachBuildRows(context, table, 0, table.rows().blocks().size(), fn);
  for (const auto& run : global.build_runs) {
    for (const auto& segments : run.segments) {
      for (const auto& segment : segments) {
        ReadSpilledRows(layout, *run.file, segment, context.query().memory(), fn);
        context.CheckCancelled();
      }
    }
  }
}

void PhysicalHashJoin::ForEachBuildRows(
    ExecutionContext& context, const JoinHashTable& table, size_t begin, size_t end,
    const std::function<void(uint8_t* const*, idx_t)>& fn) const {
  const uint32_t row_width = table.layout().row_width;
  const auto& blocks = table.rows().blocks();
  std::vector<uint8_t*> rows(kBatchSize);  // a block holds at most a batch
  for (size_t b = begin; b < end; b++) {
    for (uint32_t r = 0; r < blocks[b].count; r++)
      rows[r] = blocks[b].data + static_cast<size_t>(r) * row_width;
    fn(rows.data(), blocks[b].count);
    context.CheckCancelled();
  }
}

// ---- probe ----

std::unique_ptr<OperatorState> PhysicalHashJoin::GetOperatorState(ExecutionContext& context) const {
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  return MakeProbeState(context, global.table.get());
}

std::unique_ptr<OperatorState> PhysicalHashJoin::MakeProbeState(ExecutionContext& context,
                                                                const JoinHashTable* table) const {
  auto state = std::make_unique<HashJoinProbeState>();
  state->global = &static_cast<HashJoinGlobalState&>(context.sink_state(this));
  state->table = table;
  state->memory = &context.query().memory();
  state->probe_layout = RowLayout(children_[0]->types(), 8);
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

OperatorResult PhysicalHashJoin::Execute(ExecutionContext& context, Batch& input, Batch& output,
                                         OperatorState& op_state) const {
  auto& state = static_cast<HashJoinProbeState&>(op_state);
  const JoinHashTable& table = *state.table;
  const bool unique_inner = join_kind_ == JoinKind::kInner && !residual_ && table.unique_keys();
  if (input.HasSelection()) {
    // Only the one-pass path below reads a selection (and only its key columns' values);
    // every other path reads the input's columns as they are.
    const bool spilling = state.global->spilled && state.table == state.global->table.get();
    if (unique_inner && !spilling && state.phase == ProbePhase::kStart &&
        input.size() <= state.pair_probe.size()) {
      for (idx_t c : left_key_columns_)
        input.FlattenColumn(c);
    } else {
      input.Flatten();
    }
  }
  if (state.global->spilled && state.table == state.global->table.get()) {
    SpillProbeRows(context, input, state);
    return OperatorResult::kNeedMoreInput;
  }
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
    if (RightExistence()) {
      // Nothing to emit per probe batch: the build rows are marked, and emitted at the end.
      MarkBuildMatches(table, input, state.valid_sel.data(), valid, state.heads.data(),
                       state.pair_probe, state.pair_build, state.pairs, state.sel);
      return OperatorResult::kNeedMoreInput;
    }
    state.next_probe = 0;
    state.resume = nullptr;
    state.phase = ProbePhase::kPairs;
  }

  if (state.phase == ProbePhase::kPairs && unique_inner && n <= state.pair_probe.size()) {
    // Each probe row matches at most one build row (a dimension joined on its key): the pairs
    // in one branch-free pass, no chains to walk. The probe columns pass by reference, the
    // rows that lost their match left out by a selection rather than copied: the operator
    // that reads a column copies it once (a chain of dimension joins, each dropping a few
    // rows, copied every column at every join; TPC-DS q99).
    idx_t pairs = 0;
    for (idx_t i = 0; i < n; i++) {
      state.pair_probe[pairs] = static_cast<uint32_t>(i);
      state.pair_build[pairs] = state.heads[i];
      pairs += state.heads[i] != nullptr;
    }
    output.Reset();
    ReferenceSelected(input, state.pair_probe.data(), pairs, output, state.selections);
    for (idx_t c = key_count; c < layout.types.size(); c++) {
      Vector& out = output.column(left_columns + c - key_count);
      GatherColumn(layout, c, state.pair_build.data(), pairs, out);
      if (out.type().IsString()) table.rows().KeepArenasAlive(out);
    }
    output.SetSize(pairs);
    state.phase = ProbePhase::kStart;
    return OperatorResult::kNeedMoreInput;
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
      // The whole build side's statistics (a spill partition's table has none).
      const bool empty_build = state.global->table->build_rows() == 0;
      const bool build_null = state.global->table->has_null_key();
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

void PhysicalHashJoin::SpillProbeRows(ExecutionContext& context, Batch& input,
                                      OperatorState& op_state) const {
  auto& state = static_cast<HashJoinProbeState&>(op_state);
  const idx_t n = input.size();
  if (n == 0) return;
  if (!state.spill_file) {
    state.buffer_bytes = ProbeBufferBytes(*state.memory, context.threads());
    const int64_t bytes = static_cast<int64_t>(kSpillPartitions * state.buffer_bytes);
    state.memory->Reserve(bytes);
    state.reserved += bytes;
    state.spill_file = std::make_unique<SpillFile>(context.query().spill());
    state.spill_buffers.resize(kSpillPartitions);
    state.spill_segments.resize(kSpillPartitions);
  }
  if (state.hashes.size() < n) state.hashes.resize(n);
  for (idx_t k = 0; k < left_keys_.size(); k++) {
    ExpressionExecutor::Execute(*left_keys_[k], input, state.keys[k]);
    HashVector(state.keys[k], n, state.hashes.data(), k > 0);
  }
  const RowLayout& layout = state.probe_layout;
  state.spill_rows.assign(n * layout.row_width / sizeof(uint64_t) + 1, 0);
  std::vector<uint8_t*> rows(n);
  for (idx_t i = 0; i < n; i++) {
    rows[i] = reinterpret_cast<uint8_t*>(state.spill_rows.data()) + i * layout.row_width;
    StoreRow<uint64_t>(rows[i], state.hashes[i]);
  }
  for (idx_t c = 0; c < input.column_count(); c++)
    ScatterColumn(layout, c, input.column(c), nullptr, n, rows.data(), nullptr);
  for (idx_t i = 0; i < n; i++) {
    const idx_t p = SpillPartitionOf(state.hashes[i]);
    auto& buffer = state.spill_buffers[p];
    AppendSpilledRow(layout, rows[i], buffer);
    if (buffer.size() >= state.buffer_bytes) {
      state.spill_segments[p].emplace_back(state.spill_file->size(), buffer.size());
      state.spill_file->Append(buffer.data(), buffer.size());
      buffer.clear();
    }
  }
}

void PhysicalHashJoin::FinishOperator(ExecutionContext&, OperatorState& op_state) const {
  auto& state = static_cast<HashJoinProbeState&>(op_state);
  if (!state.spill_file) return;
  for (idx_t p = 0; p < kSpillPartitions; p++) {
    auto& buffer = state.spill_buffers[p];
    if (buffer.empty()) continue;
    state.spill_segments[p].emplace_back(state.spill_file->size(), buffer.size());
    state.spill_file->Append(buffer.data(), buffer.size());
    std::vector<uint8_t>().swap(buffer);
  }
  state.spill_file->Flush();
  HashJoinGlobalState& global = *state.global;
  global.probe_spill.bytes_written.fetch_add(state.spill_file->size(), std::memory_order_relaxed);
  global.probe_spill.files.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.probe_runs.push_back({std::move(state.spill_file), std::move(state.spill_segments)});
}

// ---- unmatched build rows ----

std::unique_ptr<GlobalSourceState> PhysicalHashJoin::GetGlobalSourceState(
    ExecutionContext& context) const {
  unmatched_.CompleteOperators(this);
  auto state = std::make_unique<UnmatchedSourceState>();
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  state->grace = global.spilled;
  if (TracksMatches()) state->blocks = global.table->rows().blocks().size();
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
  if (source.grace) return GetSpilledData(context, out, global_source, local_source);
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  return EmitBuildRows(*global.table, source.blocks, &source.next, nullptr, local.rows, out);
}

bool PhysicalHashJoin::GetSpilledData(ExecutionContext& context, Batch& out,
                                      GlobalSourceState& global_source,
                                      LocalSourceState& local_source) const {
  auto& source = static_cast<UnmatchedSourceState&>(global_source);
  auto& local = static_cast<UnmatchedLocalState&>(local_source);
  auto& global = static_cast<HashJoinGlobalState&>(context.sink_state(this));
  MemoryTracker& memory = context.query().memory();
  const RowLayout probe_layout(children_[0]->types(), 8);
  local.memory = &memory;
  while (true) {
    if (!local.table) {
      const size_t p = source.next.fetch_add(1);
      if (p >= kSpillPartitions) return false;
      // The partition's build rows into a table of their own.
      local.table = MakeTable(context);
      JoinHashTable& table = *local.table;
      const RowLayout& layout = table.layout();
      std::vector<uint8_t*> dst(kBatchSize);
      for (const auto& run : global.build_runs) {
        for (const auto& segment : run.segments[p]) {
          ReadSpilledRows(layout, *run.file, segment, memory, [&](uint8_t* const* rows, idx_t n) {
            table.rows().AppendRows(n, dst.data());
            for (idx_t i = 0; i < n; i++) {
              std::memcpy(dst[i], rows[i], layout.row_width);
              if (!layout.has_strings) continue;
              for (idx_t c = 0; c < layout.types.size(); c++) {
                if (!layout.types[c].IsString() || !layout.IsValid(dst[i], c)) continue;
                const auto str = LoadRow<StringRef>(dst[i] + layout.offsets[c]);
                StoreRow<StringRef>(dst[i] + layout.offsets[c],
                                    table.rows().arena().Add(str.ptr, str.len));
              }
            }
          });
          context.CheckCancelled();
        }
      }
      table.Build();
      local.probe = MakeProbeState(context, local.table.get());
      local.segments.clear();
      for (const auto& run : global.probe_runs) {
        for (const auto& segment : run.segments[p])
          local.segments.emplace_back(run.file.get(), segment);
      }
      local.next_segment = 0;
      local.parser.reset();
      local.have_input = false;
      local.probed = false;
      local.unmatched_block = 0;
      if (local.input.column_count() == 0) local.input = Batch(children_[0]->types());
    }
    if (!local.probed) {
      if (!local.have_input) {
        uint8_t* rows[kBatchSize];
        idx_t n = local.parser ? local.parser->Next(rows) : 0;
        while (n == 0 && local.next_segment < local.segments.size()) {
          const auto& [file, segment] = local.segments[local.next_segment++];
          local.parser.reset();
          memory.Release(local.buffer_reserved);
          local.buffer_reserved = 0;
          memory.Reserve(static_cast<int64_t>(segment.second));
          local.buffer_reserved = static_cast<int64_t>(segment.second);
          // A fresh buffer: batches emitted before keep the old one alive.
          local.buffer = std::make_shared<std::vector<uint8_t>>(segment.second);
          file->Read(segment.first, local.buffer->data(), segment.second);
          local.parser = std::make_unique<SpilledRowParser>(probe_layout, local.buffer->data(),
                                                            local.buffer->size());
          n = local.parser->Next(rows);
        }
        if (n == 0) {
          local.probed = true;
          continue;
        }
        local.input.Reset();
        for (idx_t c = 0; c < local.input.column_count(); c++) {
          Vector& column = local.input.column(c);
          GatherColumn(probe_layout, c, rows, n, column);
          if (column.type().IsString()) column.KeepAlive(local.buffer);
        }
        local.input.SetSize(n);
        local.have_input = true;
        context.CheckCancelled();
      }
      const OperatorResult result = Execute(context, local.input, out, *local.probe);
      if (result == OperatorResult::kNeedMoreInput) local.have_input = false;
      if (out.size() > 0) {
        for (idx_t c = 0; c < out.column_count(); c++) {
          if (out.column(c).type().IsString()) out.column(c).KeepAlive(local.buffer);
        }
        return true;
      }
      continue;
    }
    if (TracksMatches() && EmitBuildRows(*local.table, local.table->rows().blocks().size(), nullptr,
                                         &local.unmatched_block, local.rows, out)) {
      return true;
    }
    local.probe.reset();
    local.table.reset();
  }
}

// ---- pipelines ----

void PhysicalHashJoin::BuildPipelines(Pipeline& current, PipelineBuilder& builder) {
  // Every join kind gets the pipeline after the probe: a spilled join runs its partitions there.
  BuildJoinPipelines(*this, current, builder, &unmatched_);
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
    out += (spec.partitions_only ? " partition_filter #" : " runtime_filter #") +
           std::to_string(spec.filter_id) + " from ";
    for (size_t i = 0; i < spec.keys.size(); i++)
      out += (i ? ", " : "") + right_keys_[spec.keys[i]]->ToString();
    if (spec.partition_filter_id != 0)
      out += " (also partition_filter #" + std::to_string(spec.partition_filter_id) + ")";
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
      {"build_bytes", std::to_string(global.table->bytes())},
      {"table_build",
       fmt::format("{:.1f} ms, {} threads", global.table_ms, global.table->build_threads())}};
  if (global.spilled) {
    out.emplace_back("spilled",
                     fmt::format("build {:.1f} MiB in {} files, probe {:.1f} MiB in {} files, {} "
                                 "partitions",
                                 global.build_spill.bytes_written.load() / double(1 << 20),
                                 global.build_spill.files.load(),
                                 global.probe_spill.bytes_written.load() / double(1 << 20),
                                 global.probe_spill.files.load(), kSpillPartitions));
  }
  if (!no_filter_reason_.empty()) out.emplace_back("no_dynamic_filter", no_filter_reason_);
  if (partial_filter_merge_) out.emplace_back("filter_merge", partial_filter_merge_->Describe());
  for (const auto& spec : runtime_filters_) {
    const RuntimeFilter* filter = context.dynamic_filters().FindRuntime(spec.filter_id);
    // One line per filter object: what was built, then each use (scans count what it pruned).
    std::string text;
    const bool partitions = spec.partitions_only || spec.partition_filter_id != 0;
    if (!filter) {
      text = "not built";
    } else if (!filter->prunes_partitions() || (!partitions && !filter->enabled())) {
      text = "not applied: " + filter->disabled_reason();
    } else {
      const std::string built = fmt::format(
          "{}, {} distinct keys from {} rows, {} bytes, built in {:.3f} ms",
          filter->empty() ? "empty" : RuntimeFilterKindName(filter->kinds()),
          filter->distinct_keys(), filter->build_rows(), filter->bytes(), filter->build_ms());
      if (spec.partitions_only) {
        text = built;
      } else if (!partitions) {
        text = built + "; " + RowsText(*filter);
      } else {
        text = fmt::format(
            "{}; partition values as partition_filter #{}; {}", built, spec.partition_filter_id,
            filter->enabled()
                ? RowsText(*filter)
                : "not for files, row groups, pages or rows: " + filter->disabled_reason());
      }
    }
    out.emplace_back((spec.partitions_only ? "partition_filter_" : "runtime_filter_") +
                         std::to_string(spec.filter_id),
                     text);
  }
  return out;
}

}  // namespace shears
