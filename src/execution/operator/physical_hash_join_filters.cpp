// HASH_JOIN: the filters a join publishes once its build side finished (runtime filters for
// the probe side's files, row groups, pages and rows; dynamic partition filters for its
// partitions), built from the hash table's rows, by the pipeline's threads when they are many.

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "execution/operator/physical_hash_join.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/row_layout.h"

namespace shears {

std::vector<int> PhysicalHashJoin::SinkProducedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& spec : runtime_filters_) {
    ids.push_back(spec.filter_id);
    if (spec.partition_filter_id != 0) ids.push_back(spec.partition_filter_id);
    for (const auto& u : spec.unions)
      ids.push_back(u.filter_id);
  }
  return ids;
}

bool PhysicalHashJoin::SinkProducesPartitionFilters() const {
  return std::any_of(runtime_filters_.begin(), runtime_filters_.end(),
                     [](const RuntimeFilterSpec& spec) {
                       return spec.partitions_only || spec.partition_filter_id != 0;
                     });
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
    int64_t value = 0;
    if (inverse.from_text) {
      if (!inverse.ApplyText(keys.data<StringRef>()[row].view(), value)) continue;
    } else {
      value = key32 ? keys.data<int32_t>()[row] : keys.data<int64_t>()[row];
      if (!inverse.Apply(value)) continue;
    }
    if (out32) {
      out.data<int32_t>()[kept++] = static_cast<int32_t>(value);
    } else {
      out.data<int64_t>()[kept++] = value;
    }
  }
  return kept;
}

}  // namespace

std::unique_ptr<RuntimeFilter> PhysicalHashJoin::AddBuildKeys(ExecutionContext& context,
                                                              HashJoinGlobalState& global,
                                                              const RuntimeFilterSpec& spec) const {
  const JoinHashTable& table = *global.table;
  const RowLayout& layout = table.layout();
  std::vector<LogicalType> types;
  for (size_t k : spec.keys)
    types.push_back(right_keys_[k]->type);
  // A key computed from the scan column: the filter holds the column values the keys map
  // back to (one key; see RuntimeFilterKeyInverse).
  const RuntimeFilterKeyInverse* inverse = spec.inverse ? &*spec.inverse : nullptr;
  SHEARS_CHECK(!inverse || spec.keys.size() == 1);
  // One builder per thread: its partial filter and scratch vectors, the last of `keys` the
  // mapped keys when there is an inverse. `key_ptrs` point into `keys`' buffer, which a move
  // of the builder keeps in place.
  struct Builder {
    std::unique_ptr<RuntimeFilter> filter;
    std::vector<Vector> keys;
    std::vector<const Vector*> key_ptrs;
    std::vector<uint8_t*> rows;
  };
  // The table knows the one integer key's distinct count and bounds when it holds every build
  // row (not spilled) and the filter is not merged across ranks (whose keys it does not know).
  int64_t key_low = 0, key_high = 0;
  const RuntimeFilterLimits limits = spec.BuildLimits();
  // Nor when its keys go into a union (their encoding lists them).
  const bool expect_keys = !inverse && spec.keys.size() == 1 && right_keys_.size() == 1 &&
                           global.build_runs.empty() && !partial_filter_merge_ &&
                           spec.unions.empty() && table.key_bounds(key_low, key_high);
  auto make_builder = [&] {
    Builder b;
    b.filter = std::make_unique<RuntimeFilter>(inverse ? std::vector{inverse->column_type} : types);
    for (const auto& type : types)
      b.keys.emplace_back(type);
    if (inverse) {
      b.keys.emplace_back(inverse->column_type);
      b.key_ptrs = {&b.keys.back()};
    } else {
      for (const auto& v : b.keys)
        b.key_ptrs.push_back(&v);
    }
    b.rows.reserve(kBatchSize);
    if (expect_keys) b.filter->ExpectKeys(table.distinct_keys(), key_low, key_high, limits);
    return b;
  };
  auto flush = [&](Builder& b) {
    for (size_t i = 0; i < spec.keys.size(); i++) {
      b.keys[i].Reset();
      GatherColumn(layout, spec.keys[i], b.rows.data(), b.rows.size(), b.keys[i]);
    }
    idx_t count = b.rows.size();
    if (inverse) count = MapKeysBack(*inverse, b.keys[0], count, b.keys.back());
    b.filter->Add(b.key_ptrs, count);
    b.rows.clear();
  };
  // Every build row whose keys can match (RIGHT joins keep NULL-key rows to emit them).
  const bool check_nulls = table.RowsMayHaveNullKey();
  auto add_rows = [&](Builder& b, uint8_t* const* batch, idx_t n) {
    for (idx_t r = 0; r < n; r++) {
      if (check_nulls && table.HasNullKey(batch[r])) continue;
      b.rows.push_back(batch[r]);
      if (b.rows.size() == kBatchSize) flush(b);
    }
    if (!b.rows.empty()) flush(b);  // spilled rows are valid during this call only
  };
  // A large build held in memory: the pipeline's threads (free at Finalize, as for the
  // table) each add blocks into a partial filter, merged afterwards (RuntimeFilter::Merge
  // gives what one Add of every row gives). Spilled rows are read back by one thread.
  const size_t blocks = table.rows().blocks().size();
  const size_t workers =
      global.build_runs.empty()
          ? std::min<size_t>({static_cast<size_t>(std::max<idx_t>(context.threads(), 1)),
                              table.rows().row_count() / JoinHashTable::kMinRowsPerThread, blocks})
          : 0;
  Builder first = make_builder();
  if (workers <= 1) {
    ForEachBuildRows(context, global,
                     [&](uint8_t* const* batch, idx_t n) { add_rows(first, batch, n); });
    return std::move(first.filter);
  }
  std::vector<Builder> partials;
  for (size_t w = 1; w < workers; w++)
    partials.push_back(make_builder());
  std::atomic<size_t> next_block{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](Builder& b) {
    try {
      for (size_t i = next_block.fetch_add(1); i < blocks; i = next_block.fetch_add(1)) {
        ForEachBuildRows(context, table, i, i + 1,
                         [&](uint8_t* const* batch, idx_t n) { add_rows(b, batch, n); });
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (auto& b : partials)
    pool.emplace_back(work, std::ref(b));
  work(first);
  for (auto& t : pool)
    t.join();
  if (error) std::rethrow_exception(error);
  for (auto& b : partials)
    first.filter->Merge(std::move(*b.filter));
  return std::move(first.filter);
}

void PhysicalHashJoin::BuildRuntimeFilters(ExecutionContext& context,
                                           HashJoinGlobalState& global) const {
  const JoinHashTable& table = *global.table;
  for (const auto& spec : runtime_filters_) {
    // One object for every use: published under the runtime filter's id and, when it is also
    // the join's dynamic partition filter on that key, under that id.
    auto publish = [&](std::shared_ptr<RuntimeFilter> filter) {
      if (spec.partition_filter_id != 0)
        context.dynamic_filters().PublishRuntime(spec.partition_filter_id, filter);
      context.dynamic_filters().PublishRuntime(spec.filter_id, std::move(filter));
    };
    // The planner's decision revisited with the real distinct count, against the scan's rows
    // and against the keys the probe column may hold (a whole dimension's keys drop nothing):
    // why the filter is not applied to the scan's data, or "".
    auto too_few_dropped = [&spec](uint64_t distinct) -> std::string {
      const std::pair<double, const char*> against[] = {
          {spec.probe_rows, "scan rows"}, {spec.key_domain, "keys the probe column may hold"}};
      for (const auto& [total, what] : against) {
        if (spec.always || total <= 0 || distinct == 0) continue;
        const double ratio = 1 - static_cast<double>(distinct) / total;
        if (ratio < spec.min_filter_ratio) {
          return fmt::format(
              "estimated filter ratio {:.2f} (1 - {} distinct build keys / {:.0f} {}) below "
              "runtime_filter.min_filter_ratio {:.2f}",
              ratio, distinct, total, what, spec.min_filter_ratio);
        }
      }
      return "";
    };
    // Its keys united with other joins' (the OR of a materialized CTE's references, for the
    // CTE's own scans), or why there are none.
    auto contribute = [&](const std::vector<LogicalType>& types, const RuntimeFilter* build,
                          const std::string& reason, double ms) {
      for (const auto& target : spec.unions) {
        context.dynamic_filters().ContributeToUnion(target, types, build, reason, spec.limits,
                                                    spec.always, spec.min_filter_ratio,
                                                    table.build_rows(), ms);
      }
    };
    // On all join keys the hash table's distinct count is the filter's.
    const bool table_counts_keys = spec.keys.size() == right_keys_.size() && !spec.inverse;
    // A merge across ranks is a collective every rank enters: no rank decides alone. A
    // partition use is always built.
    if (table_counts_keys && !partial_filter_merge_ && spec.partition_filter_id == 0) {
      // Decided before any key is added: a filter that would drop too few costs nothing.
      std::string reason = too_few_dropped(table.distinct_keys());
      if (!reason.empty()) {
        std::vector<LogicalType> types;
        for (size_t k : spec.keys)
          types.push_back(right_keys_[k]->type);
        contribute(types, nullptr, "a reference's keys: " + reason, 0);
        auto filter = std::make_unique<RuntimeFilter>(std::move(types));
        filter->Disable(std::move(reason));
        publish(std::move(filter));
        continue;
      }
    }
    const auto started = clock::Now();
    std::unique_ptr<RuntimeFilter> filter = AddBuildKeys(context, global, spec);
    context.CheckCancelled();
    const double ms = clock::MillisSince(started);
    if (!spec.unions.empty()) {
      std::vector<LogicalType> types;
      for (size_t k : spec.keys)
        types.push_back(right_keys_[k]->type);
      // A rank's share of the keys is not the union's: no pruning rather than a wrong one.
      contribute(types, partial_filter_merge_ ? nullptr : filter.get(),
                 "a reference's keys are merged across ranks", ms);
    }
    // On all join keys the hash table's distinct count is the filter's; across ranks, the
    // merge sums them (the ranks' shares hold disjoint keys).
    const RuntimeFilterLimits limits = spec.BuildLimits();
    uint64_t build_rows = table.build_rows();
    uint64_t distinct_keys = table_counts_keys ? table.distinct_keys() : 0;
    std::string not_merged;
    if (partial_filter_merge_)
      not_merged = partial_filter_merge_->Merge(*filter, limits, build_rows, distinct_keys);
    filter->Finish(limits, build_rows, ms, distinct_keys);
    if (!not_merged.empty()) filter->Disable(not_merged);
    // Whether the scan's files, row groups, pages and rows use it; partitions always may.
    auto keep_from_data = [&](std::string reason) {
      if (spec.partition_filter_id != 0) {
        filter->KeepForPartitionsOnly(std::move(reason));
      } else {
        filter->Disable(std::move(reason));
      }
    };
    if (filter->enabled() && filter->distinct_keys() > spec.limits.max_keys) {
      keep_from_data(fmt::format("build side produced {} distinct keys, more than {}",
                                 filter->distinct_keys(), spec.limits.max_keys));
    }
    if (filter->enabled()) {
      std::string reason = too_few_dropped(filter->distinct_keys());
      if (!reason.empty()) keep_from_data(std::move(reason));
    }
    const RuntimeFilterProbeForm form = filter->probe_form();
    const bool cheap_form = form == RuntimeFilterProbeForm::kBitmap ||
                            form == RuntimeFilterProbeForm::kLinear ||
                            form == RuntimeFilterProbeForm::kIntTable;
    if (filter->enabled() && !spec.always && !filter->empty() && table.direct() &&
        right_keys_.size() == 1 && cheap_form && spec.probe_is_direct) {
      // This join probes a direct array: a row dropped by the filter saves about what testing
      // it costs, when the scan feeds this probe directly (q58's date_dim fed another join's
      // partition filter first: unfiltered, it pruned store_sales to 1,827 days instead of 7).
      // Partitions, row groups and pages are still pruned with it.
      filter->SkipRows("the join probes a direct array for its dense key, as cheap as the filter");
    }
    publish(std::move(filter));
  }
}

}  // namespace shears
