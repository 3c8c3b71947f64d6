// GROUPING SETS, ROLLUP and CUBE: Finalize folds the finest groups into each set's groups
// (see RollupPlan in physical_hash_aggregate.h).

#include <algorithm>

#include "execution/operator/physical_hash_aggregate.h"
#include "execution/operator/physical_hash_aggregate_state.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

bool PhysicalHashAggregate::GroupsByAllFinest(idx_t s) const {
  std::vector<bool> kept(groups_.size(), false);
  for (const auto& source : rollup_->sets[s]) {
    if (source.finest >= 0) kept[static_cast<idx_t>(source.finest)] = true;
  }
  return std::all_of(kept.begin(), kept.end(), [](bool k) { return k; });
}

std::vector<std::vector<std::unique_ptr<Vector>>> PhysicalHashAggregate::RollupConstants() const {
  const RollupPlan& plan = *rollup_;
  std::vector<std::vector<std::unique_ptr<Vector>>> constants(plan.sets.size());
  for (idx_t s = 0; s < plan.sets.size(); s++) {
    for (idx_t k = 0; k < plan.key_types.size(); k++) {
      const auto& source = plan.sets[s][k];
      if (source.finest >= 0) {
        constants[s].emplace_back();
        continue;
      }
      auto column = std::make_unique<Vector>(plan.key_types[k], kBatchSize);
      for (idx_t i = 0; i < kBatchSize; i++)
        WriteValue(*column, i, source.constant);
      constants[s].push_back(std::move(column));
    }
  }
  return constants;
}

void PhysicalHashAggregate::FoldSets(
    ExecutionContext& context, const std::vector<uint8_t*>& finest_rows,
    const std::vector<std::vector<std::unique_ptr<Vector>>>& constants, GroupedHashTable& rolled,
    RowCollection& one_to_one) const {
  const RollupPlan& plan = *rollup_;
  const idx_t key_count = plan.key_types.size();
  StringArena& arena = rolled.partition(0).rows.arena();
  GroupScratch scratch;
  // Each set folds from the smallest set folded before it that groups by all of its keys
  // (ROLLUP(a, b, c): (a) from (a, b), that from (a, b, c)), else from the finest groups: a
  // finest group is then combined once into the largest set, not once into every set (q67's
  // nine sets over 476,251 finest groups folded 4.3 million times, single-threaded).
  std::vector<std::vector<uint8_t*>> set_rows(plan.sets.size());
  auto covers = [&](idx_t t, idx_t s) {
    for (idx_t k = 0; k < key_count; k++) {
      const int f = plan.sets[s][k].finest;
      if (f >= 0 && plan.sets[t][k].finest != f) return false;
    }
    return true;
  };
  std::vector<Vector> columns;
  std::vector<const Vector*> keys(key_count);
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<uint8_t*> dst(kBatchSize), src_states(kBatchSize), dst_states(kBatchSize);
  std::vector<idx_t> partition_rows(GroupedHashTable::kPartitions);
  for (idx_t s = 0; s < plan.sets.size(); s++) {
    int from = -1;  // a set, or -1: the finest groups
    for (idx_t t = 0; t < s; t++) {
      if (covers(t, s) &&
          (from < 0 || set_rows[t].size() < set_rows[static_cast<idx_t>(from)].size()))
        from = static_cast<int>(t);
    }
    const std::vector<uint8_t*>& source =
        from < 0 ? finest_rows : set_rows[static_cast<idx_t>(from)];
    const RowLayout& source_layout = from < 0 ? layout_ : result_layout_;
    const std::vector<uint32_t>& source_states = from < 0 ? state_offsets_ : result_state_offsets_;
    columns.clear();
    for (const auto& type : source_layout.types)
      columns.emplace_back(type);
    for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++)
      partition_rows[p] = rolled.partition(p).rows.row_count();
    // A set grouping by every finest key has one group per source group (ROLLUP's first
    // set): its rows are made directly, without hashing or comparing keys.
    const bool one_to_one_set = GroupsByAllFinest(s);
    for (idx_t start = 0; start < source.size(); start += kBatchSize) {
      context.CheckCancelled();
      const idx_t n = std::min<idx_t>(kBatchSize, source.size() - start);
      uint8_t* const* rows = source.data() + start;
      for (idx_t k = 0; k < key_count; k++) {
        const int f = plan.sets[s][k].finest;
        if (f < 0) {
          keys[k] = constants[s][k].get();
        } else {
          // A finest key column, or the same result key column of the source set.
          const idx_t c = from < 0 ? static_cast<idx_t>(f) : k;
          columns[c].Reset();
          GatherColumn(source_layout, c, rows, n, columns[c]);
          keys[k] = &columns[c];
        }
        if (!one_to_one_set) HashVector(*keys[k], n, hashes.data(), k > 0);
      }
      if (one_to_one_set) {
        one_to_one.AppendRows(n, dst.data());
        for (idx_t k = 0; k < key_count; k++)
          ScatterColumn(result_layout_, k, *keys[k], nullptr, n, dst.data(), nullptr);
        set_rows[s].insert(set_rows[s].end(), dst.data(), dst.data() + n);
      } else {
        rolled.FindOrCreate(keys, hashes.data(), nullptr, n, dst.data(), scratch);
      }
      for (idx_t a = 0; a < ops_.size(); a++) {
        for (idx_t i = 0; i < n; i++) {
          src_states[i] = rows[i] + source_states[a];
          dst_states[i] = dst[i] + result_state_offsets_[a];
        }
        ops_[a].combine(src_states.data(), dst_states.data(), 0, n, arena);
      }
    }
    if (one_to_one_set) continue;
    // The set's groups: the rows its folding appended to each partition (its set id or NULL
    // keys keep them apart from other sets').
    for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++) {
      idx_t skip = partition_rows[p];
      for (const auto& block : rolled.partition(p).rows.blocks()) {
        for (uint32_t i = 0; i < block.count; i++) {
          if (skip > 0) {
            skip--;
            continue;
          }
          set_rows[s].push_back(block.data + static_cast<size_t>(i) * result_layout_.row_width);
        }
      }
    }
  }
}

void PhysicalHashAggregate::ExpandRollup(ExecutionContext& context,
                                         HashAggregateGlobalState& global) const {
  const RollupPlan& plan = *rollup_;
  const idx_t key_count = plan.key_types.size();
  global.finest_groups = global.result_rows.size();
  // Keys are not copied: every fold reads them from the finest groups (or a set folded from
  // them), whose arenas live as long as the result.
  global.rolled = std::make_unique<GroupedHashTable>(result_layout_, key_count, global.memory,
                                                     /*shared_arena=*/true,
                                                     /*borrow_key_strings=*/true);
  GroupedHashTable& rolled = *global.rolled;
  global.one_to_one = std::make_unique<RowCollection>(result_layout_.row_width, global.memory);
  RowCollection& one_to_one = *global.one_to_one;
  // Kept with the result, whose string keys may point into them.
  global.rollup_constants = RollupConstants();
  const auto& finest_rows = global.result_rows;
  FoldSets(context, finest_rows, global.rollup_constants, rolled, one_to_one);
  GroupScratch scratch;
  std::vector<const Vector*> keys(key_count);
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<uint8_t*> dst(kBatchSize);
  if (finest_rows.empty()) {
    // Empty input: the empty sets still give their row, as an aggregate without groups does.
    for (const auto& values : empty_input_groups_) {
      std::vector<std::unique_ptr<Vector>> columns;
      for (idx_t k = 0; k < key_count; k++) {
        columns.push_back(std::make_unique<Vector>(plan.key_types[k], 1));
        WriteValue(*columns.back(), 0, values[k]);
        keys[k] = columns.back().get();
        HashVector(*keys[k], 1, hashes.data(), k > 0);
      }
      rolled.FindOrCreate(keys, hashes.data(), nullptr, 1, dst.data(), scratch);
    }
  }
  const idx_t total = rolled.group_count() + one_to_one.row_count();
  const int64_t more = static_cast<int64_t>(total * sizeof(uint8_t*)) - global.result_bytes;
  if (more > 0) {
    context.query().memory().Reserve(more);
    global.result_bytes += more;
  }
  global.result_rows.clear();
  global.result_rows.reserve(total);
  for (const auto& block : one_to_one.blocks()) {
    for (uint32_t i = 0; i < block.count; i++)
      global.result_rows.push_back(block.data + static_cast<size_t>(i) * result_layout_.row_width);
  }
  for (const auto& a : one_to_one.arenas())
    global.arenas.push_back(a);
  for (idx_t p = 0; p < GroupedHashTable::kPartitions; p++) {
    const RowCollection& rows = rolled.partition(p).rows;
    for (const auto& block : rows.blocks()) {
      for (uint32_t i = 0; i < block.count; i++) {
        global.result_rows.push_back(block.data +
                                     static_cast<size_t>(i) * result_layout_.row_width);
      }
    }
    for (const auto& a : rows.arenas())
      global.arenas.push_back(a);
  }
}

}  // namespace shears
