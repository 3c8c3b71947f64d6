#include "execution/operator/physical_hash_aggregate.h"

#include "execution/operator/physical_hash_aggregate_state.h"

#include <atomic>
#include <cstring>
#include <mutex>

#include "common/batch_selection.h"
#include "common/error.h"
#include "execution/aggregate_hash_table.h"
#include "execution/operator/physical_hash_aggregate_state.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/spill.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {
uint32_t AlignUp(uint32_t value, uint32_t align) {
  return (value + align - 1) / align * align;
}

/// Whether the aggregate's state is plain bytes (no pointer into an arena), so it can be
/// written to a spill file and combined after reading it back.
bool HasPlainState(const AggregateOp& op) {
  switch (op.kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      return true;  // a count, whatever it counts
    case AggregateKind::kSum:
    case AggregateKind::kAvg:
    case AggregateKind::kAvgOfPartials:
    case AggregateKind::kMin:
    case AggregateKind::kMax:
    case AggregateKind::kAny:
    case AggregateKind::kStddevSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kVarPop:
    case AggregateKind::kCovarPop:
    case AggregateKind::kCovarSamp:
    case AggregateKind::kCorr:
    case AggregateKind::kBoolAnd:
    case AggregateKind::kBoolOr:
    case AggregateKind::kBitAnd:
    case AggregateKind::kBitOr:
    case AggregateKind::kBitXor:
    case AggregateKind::kProduct:
    case AggregateKind::kRegrCount:
    case AggregateKind::kRegrAvgX:
    case AggregateKind::kRegrAvgY:
    case AggregateKind::kRegrSxx:
    case AggregateKind::kRegrSyy:
    case AggregateKind::kRegrSxy:
    case AggregateKind::kRegrSlope:
    case AggregateKind::kRegrIntercept:
    case AggregateKind::kRegrR2:
      break;
    default:
      return false;
  }
  if (op.result_type.IsString()) return false;
  for (const auto& type : op.input_types) {
    if (type.IsString()) return false;
  }
  return true;
}

}  // namespace

BoundExprPtr PhysicalHashAggregate::CodeConstantCase(const BoundExpr& group,
                                                     std::vector<Value>* codes) {
  if (group.kind != BoundExprKind::kCase) return nullptr;
  const PhysicalType physical = group.type.physical();
  if (physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64) return nullptr;
  const auto& bound_case = static_cast<const BoundCase&>(group);
  for (const auto& [when, then] : bound_case.when_then) {
    if (then->kind != BoundExprKind::kConstant) return nullptr;
  }
  if (bound_case.else_expr->kind != BoundExprKind::kConstant) return nullptr;
  // codes[0] is NULL's value; equal constants share a code, so they stay one group.
  codes->assign(1, Value::Null(group.type));
  auto code_of = [&](const BoundExpr& constant) -> BoundExprPtr {
    const Value& value = static_cast<const BoundConstant&>(constant).value;
    if (value.is_null())
      return std::make_unique<BoundConstant>(Value::Null(LogicalType::Integer()));
    idx_t code = 1;
    while (code < codes->size() && !((*codes)[code] == value))
      code++;
    if (code == codes->size()) codes->push_back(value);
    return std::make_unique<BoundConstant>(Value::Integer(static_cast<int32_t>(code - 1)));
  };
  auto coded = std::make_unique<BoundCase>(LogicalType::Integer());
  for (const auto& [when, then] : bound_case.when_then) {
    coded->when_then.emplace_back(when->Copy(), code_of(*then));
  }
  coded->else_expr = code_of(*bound_case.else_expr);
  return coded;
}

PhysicalHashAggregate::PhysicalHashAggregate(std::vector<LogicalType> types,
                                             std::vector<BoundExprPtr> groups,
                                             std::vector<BoundExprPtr> aggregates,
                                             std::vector<std::vector<Value>> empty_input_groups)
    : PhysicalHashAggregate(std::move(types), std::move(groups), std::move(aggregates),
                            std::move(empty_input_groups), std::unique_ptr<RollupPlan>()) {}

PhysicalHashAggregate::PhysicalHashAggregate(std::vector<LogicalType> types,
                                             std::vector<BoundExprPtr> groups,
                                             std::vector<BoundExprPtr> aggregates,
                                             std::vector<std::vector<Value>> empty_input_groups,
                                             RollupPlan rollup)
    : PhysicalHashAggregate(std::move(types), std::move(groups), std::move(aggregates),
                            std::move(empty_input_groups),
                            std::make_unique<RollupPlan>(std::move(rollup))) {}

PhysicalHashAggregate::~PhysicalHashAggregate() = default;

PhysicalHashAggregate::PhysicalHashAggregate(std::vector<LogicalType> types,
                                             std::vector<BoundExprPtr> groups,
                                             std::vector<BoundExprPtr> aggregates,
                                             std::vector<std::vector<Value>> empty_input_groups,
                                             std::unique_ptr<RollupPlan> rollup)
    : PhysicalOperator("HASH_GROUP_BY", std::move(types)),
      groups_(std::move(groups)),
      aggregates_(std::move(aggregates)),
      empty_input_groups_(std::move(empty_input_groups)),
      rollup_(std::move(rollup)) {
  SHEARS_CHECK(types_.size() ==
               (rollup_ ? rollup_->key_types.size() : groups_.size()) + aggregates_.size());
  SHEARS_CHECK(!rollup_ || !groups_.empty());
  std::vector<LogicalType> key_types;
  for (const auto& g : groups_) {
    group_codes_.emplace_back();
    // Grouping sets write their empty sets' key values into key rows: keep those as they are.
    BoundExprPtr key;
    if (empty_input_groups_.empty() && !rollup_) key = CodeConstantCase(*g, &group_codes_.back());
    key_exprs_.push_back(key ? std::move(key) : g->Copy());
    key_types.push_back(key_exprs_.back()->type);
  }
  uint32_t extra = 0;
  uint32_t align = 8;
  std::vector<uint32_t> relative;
  for (idx_t a = 0; a < aggregates_.size(); a++) {
    SHEARS_CHECK(aggregates_[a]->kind == BoundExprKind::kAggregate);
    const auto& agg = aggregate(a);
    SHEARS_CHECK(agg.aggregate == AggregateKind::kCountStar || agg.arg);
    std::vector<LogicalType> input_types;
    if (agg.arg) input_types.push_back(agg.arg->type);
    for (const auto& extra : agg.extra_args)
      input_types.push_back(extra->type);
    ops_.push_back(BindAggregateOp(agg.aggregate, input_types, agg.type, agg.params));
    const AggregateOp& op = ops_.back();
    extra = AlignUp(extra, op.state_align);
    relative.push_back(extra);
    extra += op.state_size;
    align = std::max(align, op.state_align);
    // The binder allows DISTINCT only on aggregates of one input.
    SHEARS_CHECK(!agg.distinct || agg.extra_args.empty());
    if (agg.distinct && agg.aggregate != AggregateKind::kCountStar) {
      distinct_index_.push_back(static_cast<int>(distinct_layouts_.size()));
      distinct_aggregates_.push_back(a);
      std::vector<LogicalType> pair_types = key_types;
      pair_types.push_back(agg.arg->type);
      distinct_layouts_.emplace_back(std::move(pair_types), 8);
    } else {
      distinct_index_.push_back(-1);
    }
  }
  std::vector<const BoundExpr*> sink_exprs;
  for (const auto& key : key_exprs_)
    sink_exprs.push_back(key.get());
  for (const auto& agg : aggregates_)
    sink_exprs.push_back(agg.get());
  sink_columns_ = ReferencedColumns(sink_exprs);
  layout_ = RowLayout(key_types, 8, extra, align);
  for (uint32_t r : relative)
    state_offsets_.push_back(layout_.extra_offset + r);
  if (rollup_) {
    // Folding combines states: a DISTINCT aggregate's state is fed only once, in Finalize.
    SHEARS_CHECK(distinct_layouts_.empty());
    result_layout_ = RowLayout(rollup_->key_types, 8, extra, align);
    for (uint32_t r : relative)
      result_state_offsets_.push_back(result_layout_.extra_offset + r);
  }
  spillable_ = !groups_.empty();
  for (idx_t a = 0; a < ops_.size(); a++) {
    if (distinct_index_[a] >= 0) continue;
    if (ops_[a].spill_write) {
      spill_states_.push_back({state_offsets_[a], ops_[a].spill_write, ops_[a].spill_read});
      if (rollup_) {
        result_spill_states_.push_back(
            {result_state_offsets_[a], ops_[a].spill_write, ops_[a].spill_read});
      }
    } else if (!HasPlainState(ops_[a])) {
      spillable_ = false;
    }
  }
}

std::unique_ptr<GlobalSinkState> PhysicalHashAggregate::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<HashAggregateGlobalState>(*this, &context.query().memory());
}

std::unique_ptr<LocalSinkState> PhysicalHashAggregate::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<HashAggregateLocalState>(*this, &context.query().memory());
}

bool PhysicalHashAggregate::Sink(ExecutionContext& context, Batch& input,
                                 GlobalSinkState& global_state, LocalSinkState& local_state) const {
  auto& local = static_cast<HashAggregateLocalState&>(local_state);
  const idx_t n = input.size();
  if (n == 0) return true;
  FlattenColumns(input, sink_columns_);
  if (local.hashes.size() < n) {
    local.hashes.resize(n);
    local.value_hashes.resize(n);
    local.distinct_hashes.resize(n);
    local.rows.resize(n);
    local.distinct_rows.resize(n);
    local.sel.resize(n);
  }
  std::vector<const Vector*> keys;
  for (idx_t g = 0; g < groups_.size(); g++) {
    ExpressionExecutor::Execute(*key_exprs_[g], input, local.group_values[g]);
    keys.push_back(&local.group_values[g]);
  }
  uint64_t* hashes = local.hashes.data();
  auto& global = static_cast<HashAggregateGlobalState&>(global_state);
  if (pass_through_ && !local.decided) DecidePassThrough(global, local, n);
  StringArena* arena;
  if (local.passing) {
    PassRows(keys, n, local);
    global.passed_rows.fetch_add(n, std::memory_order_relaxed);
    arena = &local.passed->arena();
  } else if (local.dense) {
    uint32_t* misses = local.sel.data();
    const idx_t missed = local.dense->FindOrCreate(*keys[0], n, local.rows.data(), misses);
    if (missed > 0) {
      if (missed * 4 >= n) {
        HashVector(*keys[0], n, hashes, false);
      } else {
        // Few misses (the NULL keys of a batch, mostly): hash only those rows.
        if (local.missed_keys.type() != keys[0]->type())
          local.missed_keys = Vector(keys[0]->type(), kBatchSize);
        local.missed_keys.CopyRows(*keys[0], misses, missed);
        HashVector(local.missed_keys, missed, local.value_hashes.data(), false);
        for (idx_t k = 0; k < missed; k++)
          hashes[misses[k]] = local.value_hashes[k];
      }
      local.table->FindOrCreate(keys, hashes, misses, missed, local.rows.data(), local.scratch);
    }
    arena = &local.table->partition(0).rows.arena();
  } else if (!groups_.empty()) {
    for (idx_t g = 0; g < groups_.size(); g++)
      HashVector(*keys[g], n, hashes, g > 0);
    local.table->FindOrCreate(keys, hashes, nullptr, n, local.rows.data(), local.scratch);
    arena = &local.table->partition(0).rows.arena();  // shared by all local partitions
  } else {
    std::fill(hashes, hashes + n, kEmptyKeyHash);
    arena = &local.single.arena();
  }

  for (idx_t a = 0; a < aggregates_.size(); a++) {
    const auto& agg = aggregate(a);
    const AggregateOp& op = ops_[a];
    Vector* arg = nullptr;
    if (agg.arg) {
      auto& inputs = local.arg_values[a];
      ExpressionExecutor::Execute(*agg.arg, input, inputs[0]);
      for (idx_t e = 0; e < agg.extra_args.size(); e++)
        ExpressionExecutor::Execute(*agg.extra_args[e], input, inputs[1 + e]);
      arg = inputs.data();
    }
    const int d = distinct_index_[a];
    if (d < 0) {
      if (groups_.empty()) {
        op.update_single(local.single_row + state_offsets_[a], arg, n, *arena);
      } else {
        op.update(local.rows.data(), state_offsets_[a], arg, n, *arena);
      }
      continue;
    }
    // DISTINCT: remember the (group, value) pairs; NULL values are ignored like everywhere.
    idx_t selected = 0;
    const auto& validity = arg->validity();
    for (idx_t i = 0; i < n; i++) {
      if (validity.IsValid(i)) local.sel[selected++] = static_cast<uint32_t>(i);
    }
    if (selected == 0) continue;
    HashVector(*arg, n, local.value_hashes.data(), false);
    for (idx_t k = 0; k < selected; k++) {
      const uint32_t r = local.sel[k];
      local.distinct_hashes[r] = DistinctHash(hashes[r], local.value_hashes[r]);
    }
    std::vector<const Vector*> pair_keys = keys;
    pair_keys.push_back(arg);
    local.distinct[d]->FindOrCreate(pair_keys, local.distinct_hashes.data(), local.sel.data(),
                                    selected, local.distinct_rows.data(), local.scratch);
  }
  if (spillable_) {
    const MemoryTracker& memory = context.query().memory();
    if (memory.used() > SpillThreshold(memory)) {
      // With the arena: collected values (median, string_agg) may hold most of it.
      int64_t bytes = local.table->MemoryBytes() + local.table->partition(0).rows.arena().bytes() +
                      (local.dense ? local.dense->bytes() : 0);
      for (const auto& table : local.distinct)
        bytes += table->MemoryBytes();
      if (local.passed) bytes += local.passed->bytes();
      if (bytes >= MinSpillBytes(memory)) {
        if (local.passed) FoldPassed(*local.passed, *local.table, local.scratch);
        if (!local.decided) local.groups_spilled += local.table->group_count();
        SpillLocal(context, global, local);
      }
    }
  }
  return true;
}

void PhysicalHashAggregate::CombineStates(uint8_t* const* src, uint8_t* const* dst, idx_t count,
                                          StringArena& arena,
                                          const std::vector<uint32_t>* offsets) const {
  if (!offsets) offsets = &state_offsets_;
  for (idx_t a = 0; a < ops_.size(); a++) {
    if (distinct_index_[a] >= 0) continue;
    ops_[a].combine(src, dst, (*offsets)[a], count, arena);
  }
}

void PhysicalHashAggregate::Combine(ExecutionContext& context, GlobalSinkState& global_state,
                                    LocalSinkState& local_state) const {
  auto& global = static_cast<HashAggregateGlobalState&>(global_state);
  auto& local = static_cast<HashAggregateLocalState&>(local_state);
  if (groups_.empty()) {
    std::lock_guard<std::mutex> lock(global.single_lock);
    uint8_t* src = local.single_row;
    uint8_t* dst = global.single_row;
    CombineStates(&src, &dst, 1, global.single.arena());
  }
  if (groups_.empty() && distinct_layouts_.empty()) return;
  // Under half the limit, merging (at most doubling what the thread holds) stays below it.
  if (spillable_ && (global.spilling.load() ||
                     context.query().memory().used() > SpillThreshold(context.query().memory()))) {
    if (local.passed) FoldPassed(*local.passed, *local.table, local.scratch);
    SpillLocal(context, global, local);
    return;
  }
  if (local.passed && local.passed->row_count() > 0) {
    std::lock_guard<std::mutex> lock(global.passed_lock);
    global.passed.push_back(std::move(*local.passed));
  }
  if (local.dense) CombineDense(global, local);
  // Threads start at different partitions so they rarely wait for each other's locks.
  const idx_t threads = std::max<idx_t>(1, static_cast<idx_t>(context.threads()));
  const idx_t start =
      (global.combines.fetch_add(1) % threads) * GroupedHashTable::kPartitions / threads;
  GroupedHashTable::CombineFn combine = [this](uint8_t* const* src, uint8_t* const* dst, idx_t n,
                                               StringArena& arena) {
    CombineStates(src, dst, n, arena);
  };
  // Table rows whose key the global array covers go there (after the partition locks, which
  // are never held together with the array's).
  std::function<bool(const uint8_t*)> divert;
  std::vector<uint8_t*> diverted;
  if (UsesDenseGroups()) {
    const DenseGroupArray* dense = global.dense.get();
    divert = [dense](const uint8_t* row) { return dense->Covers(row); };
  }
  for (idx_t i = 0; i < GroupedHashTable::kPartitions; i++) {
    const idx_t p = (start + i) % GroupedHashTable::kPartitions;
    std::lock_guard<std::mutex> lock(global.partition_locks[p]);
    if (!groups_.empty()) {
      global.table->MergePartition(p, local.table->partition(p), combine, local.scratch, divert,
                                   &diverted);
    }
    for (idx_t d = 0; d < distinct_layouts_.size(); d++) {
      global.distinct[d]->MergePartition(p, local.distinct[d]->partition(p), nullptr,
                                         local.scratch);
    }
  }
  if (!diverted.empty()) {
    std::lock_guard<std::mutex> lock(global.dense_lock);
    std::vector<uint8_t*> outside;
    MergeIntoDense(global, diverted.data(), diverted.size(), &outside);
    SHEARS_CHECK(outside.empty());
  }
}

void PhysicalHashAggregate::MergeIntoDense(HashAggregateGlobalState& global, uint8_t* const* src,
                                           idx_t n, std::vector<uint8_t*>* outside) const {
  uint8_t* dst[kBatchSize];
  bool fresh[kBatchSize];
  uint8_t* combine_src[kBatchSize];
  uint8_t* combine_dst[kBatchSize];
  for (idx_t done = 0; done < n; done += kBatchSize) {
    const idx_t count = std::min<idx_t>(kBatchSize, n - done);
    global.dense->Locate(src + done, count, dst, fresh);
    idx_t m = 0;
    for (idx_t i = 0; i < count; i++) {
      if (!dst[i]) {
        outside->push_back(src[done + i]);
      } else if (fresh[i]) {
        std::memcpy(dst[i], src[done + i], layout_.row_width);  // the states move as they are
      } else {
        combine_src[m] = src[done + i];
        combine_dst[m++] = dst[i];
      }
    }
    CombineStates(combine_src, combine_dst, m, *global.dense_arena);
  }
}

void PhysicalHashAggregate::CombineDense(HashAggregateGlobalState& global,
                                         HashAggregateLocalState& local) const {
  std::vector<uint8_t*> outside;
  {
    std::lock_guard<std::mutex> lock(global.dense_lock);
    // The array's rows (and the table rows merged into it) point into this thread's arena.
    for (const auto& arena : local.table->partition(0).rows.arenas())
      global.dense_arenas.push_back(arena);
    if (!global.dense) {
      global.dense = std::move(local.dense);
      return;
    }
    local.dense->ForEachBatch(
        [&](uint8_t* const* rows, idx_t n) { MergeIntoDense(global, rows, n, &outside); });
  }
  // Groups outside the global array's range join this thread's table, merged with it next.
  std::vector<uint8_t*> dst(kBatchSize);
  std::vector<uint64_t> hashes(kBatchSize);
  Vector key(layout_.types[0]);
  std::vector<const Vector*> keys = {&key};
  StringArena& arena = local.table->partition(0).rows.arena();
  for (idx_t done = 0; done < outside.size(); done += kBatchSize) {
    const idx_t n = std::min<idx_t>(kBatchSize, outside.size() - done);
    key.Reset();
    GatherColumn(layout_, 0, outside.data() + done, n, key);
    HashVector(key, n, hashes.data(), false);
    local.table->FindOrCreate(keys, hashes.data(), nullptr, n, dst.data(), local.scratch);
    CombineStates(outside.data() + done, dst.data(), n, arena);
  }
  local.dense.reset();
}

void PhysicalHashAggregate::FeedDistinct(ExecutionContext& context, idx_t d,
                                         GroupedHashTable& pairs, GroupedHashTable* groups,
                                         uint8_t* single_row, StringArena* single_arena) const {
  const idx_t group_count = groups_.size();
  const idx_t a = distinct_aggregates_[d];
  const RowLayout& layout = distinct_layouts_[d];
  std::vector<Vector> pair_values;
  std::vector<uint8_t*> pair_rows(kBatchSize), group_rows(kBatchSize);
  GroupScratch scratch;
  std::vector<uint64_t> hashes(kBatchSize);
  for (const auto& type : layout.types)
    pair_values.emplace_back(type);
  std::vector<const Vector*> group_keys;
  for (idx_t g = 0; g < group_count; g++)
    group_keys.push_back(&pair_values[g]);
  for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++) {
    for (const auto& block : pairs.partition(p).rows.blocks()) {
      context.CheckCancelled();  // a query with many distinct pairs stays cancellable here
      const idx_t n = block.count;
      for (idx_t i = 0; i < n; i++)
        pair_rows[i] = block.data + i * layout.row_width;
      for (idx_t c = 0; c < layout.types.size(); c++) {
        pair_values[c].Reset();
        GatherColumn(layout, c, pair_rows.data(), n, pair_values[c]);
      }
      const Vector& value = pair_values[group_count];
      if (!groups) {
        ops_[a].update_single(single_row + state_offsets_[a], &value, n, *single_arena);
        continue;
      }
      for (idx_t g = 0; g < group_count; g++) {
        HashVector(pair_values[g], n, hashes.data(), g > 0);
      }
      // A pair's partition bits are its group's (DistinctHash).
      groups->FindOrCreateInPartition(p, group_keys, hashes.data(), nullptr, n, group_rows.data(),
                                      scratch);
      ops_[a].update(group_rows.data(), state_offsets_[a], &value, n,
                     groups->partition(p).rows.arena());
    }
  }
}

void PhysicalHashAggregate::Finalize(ExecutionContext& context,
                                     GlobalSinkState& global_state) const {
  auto& global = static_cast<HashAggregateGlobalState&>(global_state);
  const idx_t group_count = groups_.size();
  if (global.spilling.load()) {
    // What was merged before the first spill goes to disk too; the source reads it all back.
    GroupScratch fold_scratch;
    for (auto& passed : global.passed)
      FoldPassed(passed, *global.table, fold_scratch);
    SpillTables(context, global, global.table.get(), global.dense.get(), global.distinct);
    MemoryTracker* memory = &context.query().memory();
    global.table = std::make_unique<GroupedHashTable>(layout_, group_count, memory, false);
    global.dense.reset();
    for (idx_t d = 0; d < global.distinct.size(); d++) {
      global.distinct[d] = std::make_unique<GroupedHashTable>(
          distinct_layouts_[d], distinct_layouts_[d].types.size(), memory, false);
    }
    global.spilled = true;
    global.spill_metrics.partitions.store(kSpillPartitions);
    if (rollup_) FoldSpilledSets(context, global);
    return;
  }
  GroupScratch scratch;
  // DISTINCT aggregates: feed each distinct (group, value) pair to its group's state.
  for (idx_t d = 0; d < distinct_layouts_.size(); d++) {
    FeedDistinct(context, d, *global.distinct[d], group_count > 0 ? global.table.get() : nullptr,
                 global.single_row, &global.single.arena());
  }
  // Groups that exist without input (zeroed rows are their aggregates' empty states).
  if (group_count > 0 && !rollup_ && global.table->group_count() == 0 &&
      (!global.dense || global.dense->group_count() == 0)) {
    for (const auto& keys : empty_input_groups_) {
      std::vector<Vector> key_values;
      std::vector<const Vector*> key_pointers;
      uint64_t hash = 0;
      for (idx_t g = 0; g < group_count; g++) {
        key_values.emplace_back(groups_[g]->type, 1);
        WriteValue(key_values.back(), 0, keys[g]);
      }
      for (idx_t g = 0; g < group_count; g++) {
        HashVector(key_values[g], 1, &hash, g > 0);
        key_pointers.push_back(&key_values[g]);
      }
      uint8_t* row = nullptr;
      global.table->FindOrCreateInPartition(GroupedHashTable::PartitionOf(hash), key_pointers,
                                            &hash, nullptr, 1, &row, scratch);
    }
  }
  // The result: every group's row, in morsels for the source.
  if (group_count == 0) {
    global.result_rows.push_back(global.single_row);
    global.arenas = global.single.arenas();
  } else {
    idx_t total = global.table->group_count() + (global.dense ? global.dense->group_count() : 0);
    for (const auto& passed : global.passed)
      total += passed.row_count();
    const int64_t bytes = static_cast<int64_t>(total * sizeof(uint8_t*));
    context.query().memory().Reserve(bytes);
    global.result_bytes = bytes;
    global.result_rows.reserve(total);
    for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++) {
      const RowCollection& rows = global.table->partition(p).rows;
      for (const auto& block : rows.blocks()) {
        for (uint32_t i = 0; i < block.count; i++) {
          global.result_rows.push_back(block.data + static_cast<size_t>(i) * layout_.row_width);
        }
      }
      for (const auto& arena : rows.arenas())
        global.arenas.push_back(arena);
    }
    for (const auto& passed : global.passed) {
      for (const auto& block : passed.blocks()) {
        for (uint32_t i = 0; i < block.count; i++)
          global.result_rows.push_back(block.data + static_cast<size_t>(i) * layout_.row_width);
      }
      global.arenas.insert(global.arenas.end(), passed.arenas().begin(), passed.arenas().end());
    }
    if (global.dense) {
      global.dense->ForEachBatch([&](uint8_t* const* rows, idx_t n) {
        global.result_rows.insert(global.result_rows.end(), rows, rows + n);
      });
      global.arenas.insert(global.arenas.end(), global.dense_arenas.begin(),
                           global.dense_arenas.end());
      global.arenas.push_back(global.dense_arena);
    }
    if (rollup_) ExpandRollup(context, global);
  }
}

std::unique_ptr<GlobalSourceState> PhysicalHashAggregate::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<AggregateSourceState>();
  auto& global = static_cast<HashAggregateGlobalState&>(context.sink_state(this));
  // A spilled aggregate's morsels are its spill partitions.
  state->total = global.spilled ? kSpillPartitions * kBatchSize : global.result_rows.size();
  return state;
}

std::unique_ptr<LocalSourceState> PhysicalHashAggregate::GetLocalSourceState(
    ExecutionContext&, GlobalSourceState&) const {
  return std::make_unique<AggregateSpilledPartition>();
}

void PhysicalHashAggregate::EmitRows(uint8_t* const* rows, idx_t n,
                                     const std::vector<std::shared_ptr<StringArena>>& arenas,
                                     Batch& out) const {
  const RowLayout& layout = ResultLayout();
  const auto& state_offsets = rollup_ ? result_state_offsets_ : state_offsets_;
  const idx_t key_count = layout.types.size();
  for (idx_t g = 0; g < key_count; g++) {
    Vector& column = out.column(g);
    if (!rollup_ && !group_codes_[g].empty()) {
      Vector codes(LogicalType::Integer(), n);
      GatherColumn(layout_, g, rows, n, codes);
      for (idx_t i = 0; i < n; i++) {
        const Value& value =
            codes.IsNull(i) ? group_codes_[g][0] : group_codes_[g][codes.data<int32_t>()[i] + 1];
        WriteValue(column, i, value);
      }
      continue;
    }
    GatherColumn(layout, g, rows, n, column);
    if (column.type().IsString()) {
      for (const auto& arena : arenas)
        column.KeepAlive(arena);
    }
  }
  for (idx_t a = 0; a < ops_.size(); a++) {
    Vector& column = out.column(key_count + a);
    if (column.capacity() < n) column.Reserve(n);
    ops_[a].finalize(rows, state_offsets[a], n, column, 0, ops_[a]);
    if (column.type().IsString()) {
      for (const auto& arena : arenas)
        column.KeepAlive(arena);
    }
  }
  out.SetSize(n);
}

bool PhysicalHashAggregate::GetData(ExecutionContext& context, Batch& out,
                                    GlobalSourceState& global_source,
                                    LocalSourceState& local_source) const {
  auto& source = static_cast<AggregateSourceState&>(global_source);
  auto& global = static_cast<HashAggregateGlobalState&>(context.sink_state(this));
  if (global.spilled) {
    auto& part = static_cast<AggregateSpilledPartition&>(local_source);
    if (!NextSpilledRows(context, global, source, part)) return false;
    const idx_t n = std::min<idx_t>(kBatchSize, part.rows.size() - part.next);
    EmitRows(part.rows.data() + part.next, n, part.arenas, out);
    part.next += n;
    global.groups_out.fetch_add(n, std::memory_order_relaxed);
    return true;
  }
  const idx_t start = source.next.fetch_add(kBatchSize);
  if (start >= source.total) return false;
  const idx_t n = std::min<idx_t>(kBatchSize, source.total - start);
  EmitRows(global.result_rows.data() + start, n, global.arenas, out);
  return true;
}

std::string PhysicalHashAggregate::NoSpillReason() const {
  if (spillable_) return "";
  if (groups_.empty())
    return "an aggregate without GROUP BY keeps its states (and DISTINCT values) in memory";
  return "its aggregates' states do not spill";
}

std::string PhysicalHashAggregate::Describe() const {
  std::string out = name_ + " (";
  std::string sep;
  if (!groups_.empty()) {
    out += "groups: ";
    for (const auto& g : groups_) {
      out += sep + g->ToString();
      sep = ", ";
    }
  }
  for (const auto& a : aggregates_) {
    out += sep + a->ToString();
    sep = ", ";
  }
  if (rollup_) out += fmt::format("; folded into {} grouping sets", rollup_->sets.size());
  return out + ")";
}

std::vector<std::pair<std::string, std::string>> PhysicalHashAggregate::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& global = static_cast<HashAggregateGlobalState&>(context.sink_state(this));
  std::vector<std::pair<std::string, std::string>> details;
  if (rollup_) details.emplace_back("finest groups", std::to_string(global.finest_groups));
  if (pass_through_) details.emplace_back("partial", PassThroughDetails(global));
  if (!global.spilled) {
    details.insert(details.begin(), {"groups", std::to_string(global.result_rows.size())});
    return details;
  }
  details.insert(details.begin(), {"groups", std::to_string(global.groups_out.load())});
  details.insert(
      details.begin() + 1,
      {"spilled", fmt::format("{:.1f} MiB in {} files, {} partitions, {} split again",
                              global.spill_metrics.bytes_written.load() / double(1 << 20),
                              global.spill_metrics.files.load(), kSpillPartitions,
                              global.repartitioned.load())});
  return details;
}

}  // namespace shears
