#include "storage/scan_filter.h"

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"
#include "expression/constant_comparison.h"
#include "expression/expression_executor.h"
#include "storage/partition_pruning.h"

namespace shears {

ScanFilterSpec::ScanFilterSpec(const Dataset& dataset, const std::vector<BoundExprPtr>& filters,
                               const std::vector<int>& column_ids,
                               const std::vector<RuntimeFilterTarget>& runtime,
                               const std::vector<DynamicPartitionFilter>& partitions)
    : runtime_(&runtime) {
  first_columns_.assign(column_ids.size(), false);
  for (const auto& filter : filters)
    conjuncts_.push_back(filter.get());
  any_literal_ = !filters.empty();
  tests_rows_ = !filters.empty() || !runtime.empty();
  for (size_t slot = 0; slot < runtime.size(); slot++) {
    const RuntimeFilterTarget& target = runtime[slot];
    std::vector<BoundExprPtr> columns;
    std::vector<idx_t> positions;
    for (int id : target.column_ids) {
      auto it = std::find(column_ids.begin(), column_ids.end(), id);
      SHEARS_CHECK(it != column_ids.end());
      positions.push_back(static_cast<idx_t>(it - column_ids.begin()));
      const auto& column = dataset.columns()[static_cast<size_t>(id)];
      columns.push_back(
          std::make_unique<BoundReference>(column.type, positions.back(), column.name));
    }
    runtime_columns_.push_back(std::move(positions));
    runtime_keys_.push_back({target.key_expr.get(), target.monotone});
    runtime_conjuncts_.push_back(std::make_unique<BoundRuntimeFilter>(
        target.filter_id, std::move(columns), target.key_expr, target.monotone, slot));
    conjuncts_.push_back(runtime_conjuncts_.back().get());
  }
  for (size_t slot = 0; slot < partitions.size(); slot++) {
    runtime_conjuncts_.push_back(PartitionConjunct(partitions[slot], slot));
    conjuncts_.push_back(runtime_conjuncts_.back().get());
  }
  constant_comparisons_ = ConstantComparisons(conjuncts_);  // runtime conjuncts are not
  for (const BoundExpr* conjunct : conjuncts_) {
    VisitExpression(const_cast<BoundExpr&>(*conjunct), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference)
        first_columns_[static_cast<BoundReference&>(e).index] = true;
    });
  }
}

bool ScanFilterSpec::LateMaterializationPays() const {
  return !empty() && std::count(first_columns_.begin(), first_columns_.end(), true) <
                         static_cast<std::ptrdiff_t>(first_columns_.size());
}

ScanRowFilter::ScanRowFilter(const ScanFilterSpec& spec, DatasetReader& reader,
                             const ScanFilterOptions& options)
    : spec_(spec),
      reader_(reader),
      late_materialization_(options.late_materialization && spec.LateMaterializationPays()),
      runtime_(std::make_unique<RuntimeFilterProbes>(spec.runtime(), spec.runtime_columns(),
                                                     options.adaptivity)),
      scratch_(reader.output_types()) {
  // Runtime conjuncts start after the literal ones (plan order), until measured.
  const auto& conjuncts = spec.conjuncts();
  costs_.resize(conjuncts.size());
  for (size_t c = 0; c < conjuncts.size(); c++) {
    is_runtime_.push_back(conjuncts[c]->kind == BoundExprKind::kRuntimeFilter);
    if (!TestsPartitionsOnly(*conjuncts[c]) && !spec.constant_comparisons_.Covers(c))
      order_.push_back(c);
  }
  if (!options.dictionary_filters) return;
  std::vector<bool> record(spec.first_columns().size(), false);
  bool any = false;
  for (const BoundExpr* conjunct : spec.conjuncts()) {
    if (conjunct->kind == BoundExprKind::kRuntimeFilter) {
      dictionary_.push_back(nullptr);  // probed by its filter (RuntimeFilterProbes), or none
      continue;
    }
    auto dictionary = std::make_unique<DictionaryFilter>(*conjunct);
    if (dictionary->usable()) {
      for (idx_t c : dictionary->columns())
        record[c] = true;
      dictionary_.push_back(std::move(dictionary));
      any = true;
    } else {
      dictionary_.push_back(nullptr);
    }
  }
  if (any)
    reader_.RecordDictionaryCodes(std::move(record));
  else
    dictionary_.clear();
}

ScanRowFilter::Read ScanRowFilter::Next(Batch& out, ScanMetrics& metrics) {
  // Read straight into `out` when no conjunct tests rows: none at all, or only runtime filters
  // all published and left to their joins (RuntimeFilter::applies_to_rows).
  const bool direct = spec_.empty() || (!spec_.any_literal() && !runtime_->MayTestRows());
  const parquet::ScanCounters before = reader_.counters();
  // Late materialization: the filters run on their own columns first; the other columns
  // are decoded for the surviving rows only. Not while no filter tests rows (runtime filters
  // paused or left to the join): selecting every row would cost more than reading them.
  const bool late =
      !direct && late_materialization_ && (spec_.any_literal() || runtime_->TestsNextBatch());
  bool got;
  if (direct) {
    got = reader_.Next(out);
  } else if (late) {
    got = reader_.NextSelected(
        scratch_, spec_.first_columns(),
        [&](Batch& batch, SelectionVector& sel) {
          metrics.rows_scanned += batch.size();
          alive_.resize(batch.size());
          for (idx_t r = 0; r < batch.size(); r++)
            alive_[r] = static_cast<uint32_t>(r);
          const idx_t count = FilterRows(batch, &alive_, metrics);
          for (idx_t k = 0; k < count; k++)
            sel.Set(k, alive_[k]);
          return count;
        },
        late_sel_);
  } else {
    got = reader_.Next(scratch_);
    if (got) metrics.rows_scanned += scratch_.size();
  }
  const parquet::ScanCounters after = reader_.counters();
  metrics.bytes_read += after.bytes_read - before.bytes_read;
  metrics.pages_read += after.pages_read - before.pages_read;
  metrics.pages_skipped += after.pages_skipped - before.pages_skipped;
  metrics.dictionaries_reused += after.dictionaries_reused - before.dictionaries_reused;
  if (!got) return Read::kEnd;
  if (direct) {
    metrics.rows_scanned += out.size();
    return Read::kRows;
  }
  const idx_t count = late ? scratch_.size() : FilterRows(scratch_, nullptr, metrics);
  if (count == 0) return Read::kNone;
  for (idx_t c = 0; c < scratch_.column_count(); c++)
    out.column(c).Reference(scratch_.column(c));
  out.SetSize(count);
  return Read::kRows;
}

idx_t ScanRowFilter::FilterRows(Batch& batch, std::vector<uint32_t>* alive, ScanMetrics& metrics) {
  const auto& conjuncts = spec_.conjuncts();
  // Each conjunct narrows the selection (and is evaluated only on the rows still alive).
  idx_t count = batch.size();
  auto& sel = sel_;
  // Conjuncts over dictionary codes first, on the rows as read (codes are by those rows).
  if (!dictionary_.empty()) count = FilterByDictionary(batch, alive);
  if (count == 0) return 0;
  // Keeps rows sel[0..count) of the batch (and of `alive`).
  auto compact = [&] {
    if (count == batch.size()) return;
    if (alive) {
      for (idx_t k = 0; k < count; k++)
        (*alive)[k] = (*alive)[sel[k]];
      alive->resize(count);
    }
    batch.Select(sel.data(), count);
  };
  auto done = [&](size_t c) {
    return spec_.constant_comparisons_.Covers(c) || (!dictionary_.empty() && by_dictionary_[c]);
  };
  if (sel.capacity() < batch.size()) sel = SelectionVector(batch.size());
  // `column OP constant` terms first: they narrow one selection, and the batch is compacted
  // once for all of them.
  bool selected = false;
  count = spec_.constant_comparisons_.Select(batch, dictionary_.empty() ? nullptr : &by_dictionary_,
                                             count, sel.data(), &selected);
  if (selected && count == 0) return 0;
  if (selected) compact();
  if (++batches_ % kReorderBatches == 0) {
    order_ = OrderRowConjuncts(order_, is_runtime_, costs_);
    for (ConjunctCost& cost : costs_)
      cost = {cost.rows_in / 2, cost.rows_out / 2, cost.nanos / 2};
  }
  // Costs are measured on one batch in four (two clock reads per conjunct).
  const bool measure = order_.size() > 1 && batches_ % 4 == 0;
  for (size_t c : order_) {
    if (done(c)) continue;
    const idx_t before = count;
    const clock::TimePoint started = measure ? clock::Now() : clock::TimePoint{};
    if (conjuncts[c]->kind == BoundExprKind::kRuntimeFilter) {
      // Its published filter, paused while it drops too few (runtime_filter_probe.h).
      uint64_t dropped = 0;
      count = runtime_->ApplyOne(static_cast<const BoundRuntimeFilter&>(*conjuncts[c]).slot, batch,
                                 alive, &dropped);
      metrics.runtime_filter_rows_dropped += dropped;
    } else {
      count = ExpressionExecutor::Select(*conjuncts[c], batch, sel);
      compact();
    }
    if (measure) {
      ConjunctCost& cost = costs_[c];
      cost.nanos += static_cast<double>(clock::NanosSince(started));
      cost.rows_in += static_cast<double>(before);
      cost.rows_out += static_cast<double>(count);
    }
    if (count == 0) return 0;
  }
  return count;
}

std::vector<size_t> OrderRowConjuncts(const std::vector<size_t>& order,
                                      const std::vector<bool>& runtime,
                                      const std::vector<ConjunctCost>& costs) {
  std::vector<size_t> literal, runtime_order;
  for (size_t c : order)
    (runtime[c] ? runtime_order : literal).push_back(c);
  std::stable_sort(runtime_order.begin(), runtime_order.end(),
                   [&](size_t a, size_t b) { return costs[a].Rank() > costs[b].Rank(); });
  std::vector<size_t> out;
  size_t l = 0, r = 0;
  while (l < literal.size() || r < runtime_order.size()) {
    if (r < runtime_order.size() &&
        (l == literal.size() || costs[runtime_order[r]].Rank() > costs[literal[l]].Rank())) {
      out.push_back(runtime_order[r++]);
    } else {
      out.push_back(literal[l++]);
    }
  }
  return out;
}

idx_t ScanRowFilter::FilterByDictionary(Batch& batch, std::vector<uint32_t>* alive) {
  by_dictionary_.assign(dictionary_.size(), false);
  auto& rows = rows_;
  rows.resize(batch.size());
  for (idx_t r = 0; r < batch.size(); r++)
    rows[r] = static_cast<uint32_t>(r);
  idx_t count = batch.size();
  bool any = false;
  for (size_t f = 0; f < dictionary_.size() && count > 0; f++) {
    DictionaryFilter* dictionary = dictionary_[f].get();
    if (!dictionary) continue;
    codes_.clear();
    for (idx_t c : dictionary->columns()) {
      const auto* column_codes = reader_.dictionary_codes(c);
      if (!column_codes) break;
      codes_.push_back(column_codes);
    }
    if (codes_.size() < dictionary->columns().size()) continue;
    if (!dictionary->Select(batch, codes_, rows.data(), count, rows.data(), &count)) continue;
    by_dictionary_[f] = true;
    any = true;
  }
  if (!any || count == batch.size()) return count;
  if (alive) {
    for (idx_t k = 0; k < count; k++)
      (*alive)[k] = (*alive)[rows[k]];
    alive->resize(count);
  }
  batch.Select(rows.data(), count);
  return count;
}

}  // namespace shears
