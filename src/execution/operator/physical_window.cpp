#include "execution/operator/physical_window.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>

#include "common/error.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/spill.h"
#include "execution/window_functions.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

/// Hash buckets of the sink, one without PARTITION BY: 64, so every thread finds work and,
/// when the rows spill, one bucket at a time per thread fits in a 64th of the input.
idx_t BucketCount(bool partitioned) {
  return partitioned ? 64 : 1;
}

// Whether rows a and b of `keys` hold equal values in every column (NULL equal to NULL, and
// as ValuesEqual: what HashVector hashes alike and the sort's encoding makes equal).
template <typename T>
bool RowValuesEqual(const Vector& v, idx_t a, idx_t b) {
  const bool valid_a = v.validity().IsValid(a), valid_b = v.validity().IsValid(b);
  if (!valid_a || !valid_b) return valid_a == valid_b;
  return ValuesEqual(v.data<T>()[a], v.data<T>()[b]);
}

bool RowsEqual(const std::vector<Vector>& keys, idx_t a, idx_t b) {
  for (const Vector& v : keys) {
    bool equal = false;
    switch (v.type().physical()) {
      case PhysicalType::kBool:
        equal = RowValuesEqual<uint8_t>(v, a, b);
        break;
      case PhysicalType::kInt32:
        equal = RowValuesEqual<int32_t>(v, a, b);
        break;
      case PhysicalType::kInt64:
        equal = RowValuesEqual<int64_t>(v, a, b);
        break;
      case PhysicalType::kInt128:
        equal = RowValuesEqual<int128_t>(v, a, b);
        break;
      case PhysicalType::kDouble:
        equal = RowValuesEqual<double>(v, a, b);
        break;
      case PhysicalType::kString:
        equal = RowValuesEqual<StringRef>(v, a, b);
        break;
      case PhysicalType::kInvalid:
        throw InternalError("PARTITION BY over an invalid type");
    }
    if (!equal) return false;
  }
  return true;
}

}  // namespace

Vector PhysicalWindow::NumberPartitions(const std::vector<Vector>& keys, idx_t n,
                                        MemoryReservation& memory) {
  // An open-addressing table of each partition's first row, found by the keys' hash.
  std::vector<uint64_t> hashes(n);
  for (size_t k = 0; k < keys.size(); k++)
    HashVector(keys[k], n, hashes.data(), k > 0);
  size_t capacity = 16;
  while (capacity < 2 * n)
    capacity *= 2;
  memory.Add(static_cast<int64_t>(capacity * 2 * sizeof(uint32_t)));
  const size_t mask = capacity - 1;
  constexpr uint32_t kEmpty = UINT32_MAX;
  std::vector<uint32_t> first_row(capacity, kEmpty), slot_number(capacity, 0);
  Vector numbers(LogicalType::Integer(), std::max<idx_t>(n, 1));
  int32_t* out = numbers.data<int32_t>();
  int32_t partitions = 0;
  for (idx_t i = 0; i < n; i++) {
    size_t pos = MixHash(hashes[i]) & mask;
    while (first_row[pos] != kEmpty &&
           (hashes[first_row[pos]] != hashes[i] || !RowsEqual(keys, first_row[pos], i))) {
      pos = (pos + 1) & mask;
    }
    if (first_row[pos] == kEmpty) {
      first_row[pos] = static_cast<uint32_t>(i);
      slot_number[pos] = static_cast<uint32_t>(partitions++);
    }
    out[i] = static_cast<int32_t>(slot_number[pos]);
  }
  return numbers;
}

struct WindowGlobalSinkState : GlobalSinkState {
  std::mutex mutex;
  std::vector<RowCollection> buckets;
  // Spilling by partition: once `spilling` is set, threads write their buckets' rows to spill
  // files (runs, with one segment list per bucket); ProcessBucket reads a bucket back.
  std::atomic<bool> spilling{false};
  struct SpillRun {
    std::unique_ptr<SpillFile> file;
    std::vector<SpillSegments> segments;  // per bucket
  };
  std::vector<SpillRun> runs;       // under `mutex` until the source starts
  std::vector<idx_t> spilled_rows;  // per bucket, under `mutex`
  SpillMetrics spill_metrics;
};

struct WindowLocalSinkState : LocalSinkState {
  std::vector<RowCollection> buckets;
  std::vector<Vector> values;  // evaluated payload columns
  std::vector<uint64_t> hashes;
  std::vector<std::vector<uint32_t>> sel;
  std::vector<uint8_t*> rows, row_of;
};

namespace {

struct WindowGlobalSourceState : GlobalSourceState {
  std::atomic<idx_t> next{0};
  std::vector<idx_t> buckets;  // the non-empty ones
  idx_t MaxThreads() const override { return std::max<idx_t>(1, buckets.size()); }
};

}  // namespace

struct WindowLocalSourceState : LocalSourceState {
  explicit WindowLocalSourceState(MemoryTracker* memory) : memory(memory) {}
  MemoryTracker* memory;
  // The bucket being emitted: its rows in order and one result per window.
  std::vector<uint8_t*> rows;
  std::vector<Vector> results;
  const RowCollection* bucket = nullptr;
  idx_t position = 0;
  std::vector<uint32_t> sel;
  std::unique_ptr<MemoryReservation> reservation;  // of rows and results
  RowCollection loaded{0, nullptr};                // a bucket read back from spill files
};

PhysicalWindow::PhysicalWindow(std::vector<LogicalType> types, std::vector<BoundExprPtr> windows,
                               int64_t row_limit, idx_t limit_window)
    : PhysicalOperator("WINDOW", std::move(types)),
      windows_(std::move(windows)),
      row_limit_(row_limit),
      limit_window_(limit_window) {
  SHEARS_CHECK(!windows_.empty() && types_.size() > windows_.size() - 1 &&
               limit_window_ < windows_.size());
  input_columns_ = types_.size() - windows_.size();
  const BoundWindow& first = window(0);
  if (row_limit_ >= 0) {
    SHEARS_CHECK(window(limit_window_).type.id() == TypeId::kBigint);
    select_top_ =
        !first.orders.empty() && window(limit_window_).function != WindowFunction::kDenseRank;
    for (idx_t w = 0; w < windows_.size(); w++) {
      const WindowFunction f = window(w).function;
      select_top_ = select_top_ && (f == WindowFunction::kRowNumber || f == WindowFunction::kRank ||
                                    f == WindowFunction::kDenseRank);
    }
  }
  for (const auto& p : first.partitions)
    partition_columns_.push_back(PayloadColumn(*p));
  // Rows are not sorted by the PARTITION BY keys themselves but by a number each bucket gives
  // its partitions (NumberPartitions), then by the ORDER BY keys: rows of one partition tie on
  // all partition keys, and with strings longer than the sort key's prefix every comparison
  // inside a partition read the full strings (q47's four string keys: most of its sort time).
  if (!partition_columns_.empty())
    sort_keys_.push_back({std::make_unique<BoundConstant>(Value::Integer(0)), false, false});
  for (const auto& o : first.orders) {
    sort_keys_.push_back(
        {std::make_unique<BoundReference>(o.expr->type, PayloadColumn(*o.expr), ""), o.descending,
         o.nulls_first});
  }
  for (idx_t w = 0; w < windows_.size(); w++) {
    const BoundWindow& win = window(w);
    WindowColumns columns;
    for (const auto& a : win.args)
      columns.args.push_back(PayloadColumn(*a));
    if (win.range_key) columns.range_key = static_cast<int64_t>(PayloadColumn(*win.range_key));
    if (win.range_start)
      columns.range_start = static_cast<int64_t>(PayloadColumn(*win.range_start));
    if (win.range_end) columns.range_end = static_cast<int64_t>(PayloadColumn(*win.range_end));
    window_columns_.push_back(std::move(columns));
  }
  std::vector<LogicalType> payload_types(types_.begin(),
                                         types_.begin() + static_cast<long>(input_columns_));
  for (const auto& e : evaluated_)
    payload_types.push_back(e->type);
  payload_ = RowLayout(payload_types, 0);
  std::vector<idx_t> string_columns;
  for (const auto& key : sort_keys_) {
    if (key.expr->type.IsString())
      string_columns.push_back(static_cast<const BoundReference&>(*key.expr).index);
  }
  sort_layout_ = std::make_unique<SortKeyLayout>(sort_keys_, &payload_, std::move(string_columns));
}

idx_t PhysicalWindow::PayloadColumn(const BoundExpr& expr) {
  if (expr.kind == BoundExprKind::kReference) return static_cast<const BoundReference&>(expr).index;
  const std::string text = expr.ToString();
  for (idx_t e = 0; e < evaluated_.size(); e++) {
    if (evaluated_[e]->ToString() == text && evaluated_[e]->type == expr.type)
      return input_columns_ + e;
  }
  evaluated_.push_back(expr.Copy());
  return input_columns_ + evaluated_.size() - 1;
}

std::unique_ptr<GlobalSinkState> PhysicalWindow::GetGlobalSinkState(
    ExecutionContext& context) const {
  auto state = std::make_unique<WindowGlobalSinkState>();
  const idx_t buckets = BucketCount(!partition_columns_.empty());
  for (idx_t b = 0; b < buckets; b++)
    state->buckets.emplace_back(payload_.row_width, &context.query().memory());
  state->spilled_rows.assign(buckets, 0);
  return state;
}

std::unique_ptr<LocalSinkState> PhysicalWindow::GetLocalSinkState(ExecutionContext& context) const {
  auto state = std::make_unique<WindowLocalSinkState>();
  ResetLocalBuckets(context, *state);
  state->sel.resize(state->buckets.size());
  for (const auto& e : evaluated_)
    state->values.emplace_back(e->type);
  return state;
}

void PhysicalWindow::ResetLocalBuckets(ExecutionContext& context,
                                       WindowLocalSinkState& local) const {
  MemoryTracker* memory = &context.query().memory();
  // One arena for the strings of all of this thread's buckets.
  auto arena = std::make_shared<StringArena>(memory);
  local.buckets.clear();
  for (idx_t b = 0; b < BucketCount(!partition_columns_.empty()); b++)
    local.buckets.emplace_back(payload_.row_width, memory, arena);
}

void PhysicalWindow::SpillBuckets(ExecutionContext& context, WindowGlobalSinkState& global,
                                  WindowLocalSinkState& local) const {
  global.spilling.store(true);
  WindowGlobalSinkState::SpillRun run;
  run.file = std::make_unique<SpillFile>(context.query().spill());
  run.segments.resize(local.buckets.size());
  std::vector<idx_t> counts(local.buckets.size(), 0);
  std::vector<uint8_t> bytes;
  for (idx_t b = 0; b < local.buckets.size(); b++) {
    const RowCollection& bucket = local.buckets[b];
    if (bucket.row_count() == 0) continue;
    bytes.clear();
    for (const auto& block : bucket.blocks()) {
      for (uint32_t r = 0; r < block.count; r++)
        AppendSpilledRow(payload_, block.data + static_cast<size_t>(r) * payload_.row_width, bytes);
    }
    run.segments[b].emplace_back(run.file->size(), bytes.size());
    run.file->Append(bytes.data(), bytes.size());
    counts[b] = bucket.row_count();
  }
  run.file->Flush();
  context.CheckCancelled();
  global.spill_metrics.bytes_written.fetch_add(run.file->size());
  global.spill_metrics.files.fetch_add(1);
  {
    std::lock_guard<std::mutex> lock(global.mutex);
    for (idx_t b = 0; b < counts.size(); b++)
      global.spilled_rows[b] += counts[b];
    global.runs.push_back(std::move(run));
  }
  ResetLocalBuckets(context, local);
}

bool PhysicalWindow::Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global_state,
                          LocalSinkState& local_state) const {
  auto& local = static_cast<WindowLocalSinkState&>(local_state);
  const idx_t n = input.size();
  if (n == 0) return true;
  for (idx_t e = 0; e < evaluated_.size(); e++)
    ExpressionExecutor::Execute(*evaluated_[e], input, local.values[e]);
  auto column = [&](idx_t c) -> const Vector& {
    return c < input_columns_ ? input.column(c) : local.values[c - input_columns_];
  };
  const idx_t buckets = local.buckets.size();
  for (auto& s : local.sel)
    s.clear();
  if (buckets == 1) {
    local.sel[0].resize(n);
    for (idx_t i = 0; i < n; i++)
      local.sel[0][i] = static_cast<uint32_t>(i);
  } else {
    local.hashes.resize(n);
    for (idx_t k = 0; k < partition_columns_.size(); k++)
      HashVector(column(partition_columns_[k]), n, local.hashes.data(), k > 0);
    for (idx_t i = 0; i < n; i++)
      local.sel[MixHash(local.hashes[i]) & (buckets - 1)].push_back(static_cast<uint32_t>(i));
  }
  for (idx_t b = 0; b < buckets; b++) {
    const auto& sel = local.sel[b];
    if (sel.empty()) continue;
    RowCollection& target = local.buckets[b];
    if (local.rows.size() < sel.size()) local.rows.resize(sel.size());
    if (local.row_of.size() < n) local.row_of.resize(n);
    target.AppendRows(sel.size(), local.rows.data());
    // ScatterColumn finds the row of input row r at row_of[r].
    for (idx_t k = 0; k < sel.size(); k++)
      local.row_of[sel[k]] = local.rows[k];
    for (idx_t c = 0; c < payload_.types.size(); c++) {
      ScatterColumn(payload_, c, column(c), sel.data(), sel.size(), local.row_of.data(),
                    payload_.has_strings ? &target.arena() : nullptr);
    }
  }
  // Past half the limit the buckets go to a spill file (only with PARTITION BY: one bucket
  // must fit in memory when it is computed).
  const MemoryTracker& memory = context.query().memory();
  if (buckets > 1 && memory.used() > memory.limit() / 2) {
    int64_t bytes = 0;
    for (const auto& bucket : local.buckets)
      bytes += bucket.bytes();
    if (bytes >= std::min<int64_t>(1 << 20, memory.limit() / 16))
      SpillBuckets(context, static_cast<WindowGlobalSinkState&>(global_state), local);
  }
  return true;
}

void PhysicalWindow::Combine(ExecutionContext& context, GlobalSinkState& global_state,
                             LocalSinkState& local_state) const {
  auto& global = static_cast<WindowGlobalSinkState&>(global_state);
  auto& local = static_cast<WindowLocalSinkState&>(local_state);
  if (global.spilling.load()) {
    SpillBuckets(context, global, local);
    return;
  }
  std::lock_guard<std::mutex> lock(global.mutex);
  for (idx_t b = 0; b < local.buckets.size(); b++) {
    if (local.buckets[b].row_count() > 0) global.buckets[b].Merge(std::move(local.buckets[b]));
  }
}

std::unique_ptr<GlobalSourceState> PhysicalWindow::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto& sink = static_cast<WindowGlobalSinkState&>(context.sink_state(this));
  auto state = std::make_unique<WindowGlobalSourceState>();
  // Largest buckets first: a big partition should not start last.
  auto rows = [&](idx_t b) { return sink.buckets[b].row_count() + sink.spilled_rows[b]; };
  for (idx_t b = 0; b < sink.buckets.size(); b++) {
    if (rows(b) > 0) state->buckets.push_back(b);
  }
  std::sort(state->buckets.begin(), state->buckets.end(),
            [&](idx_t a, idx_t b) { return rows(a) > rows(b); });
  return state;
}

std::unique_ptr<LocalSourceState> PhysicalWindow::GetLocalSourceState(ExecutionContext& context,
                                                                      GlobalSourceState&) const {
  return std::make_unique<WindowLocalSourceState>(&context.query().memory());
}

void PhysicalWindow::ProcessBucket(ExecutionContext& context, WindowGlobalSinkState& global,
                                   idx_t bucket_index, WindowLocalSourceState& local) const {
  local.rows.clear();
  local.results.clear();
  local.reservation = std::make_unique<MemoryReservation>(local.memory);
  local.position = 0;
  const RowCollection* source = &global.buckets[bucket_index];
  if (global.spilled_rows[bucket_index] > 0) {
    // The rows kept in memory (merged before the first spill), then those read back; each
    // bucket is computed by one thread, so its rows may move.
    local.loaded = std::move(global.buckets[bucket_index]);
    for (const auto& run : global.runs) {
      for (const auto& segment : run.segments[bucket_index]) {
        ReadSpilledRows(payload_, *run.file, segment, *local.memory,
                        [&](uint8_t* const* rows, idx_t count) {
                          std::vector<uint8_t*> dst(count);
                          local.loaded.AppendRows(count, dst.data());
                          for (idx_t i = 0; i < count; i++) {
                            std::memcpy(dst[i], rows[i], payload_.row_width);
                            if (!payload_.has_strings) continue;
                            for (idx_t c = 0; c < payload_.types.size(); c++) {
                              if (!payload_.types[c].IsString() || !payload_.IsValid(dst[i], c))
                                continue;
                              const auto str = LoadRow<StringRef>(dst[i] + payload_.offsets[c]);
                              StoreRow<StringRef>(dst[i] + payload_.offsets[c],
                                                  local.loaded.arena().Add(str.ptr, str.len));
                            }
                          }
                        });
        context.CheckCancelled();
      }
    }
    source = &local.loaded;
  }
  const RowCollection& bucket = *source;
  local.bucket = &bucket;
  idx_t n = bucket.row_count();  // after SelectTop: the rows selected
  SHEARS_CHECK(n < UINT32_MAX);  // sequence numbers and peer groups are 32 bits
  local.reservation->Add(static_cast<int64_t>(n * sizeof(uint8_t*)));
  local.rows.reserve(n);
  for (const auto& block : bucket.blocks()) {
    for (uint32_t r = 0; r < block.count; r++)
      local.rows.push_back(block.data + static_cast<size_t>(r) * payload_.row_width);
  }
  MemoryReservation temporary(local.memory);
  auto gather = [&](idx_t column) {
    Vector v(payload_.types[column], n);
    temporary.Add(static_cast<int64_t>(n * payload_.types[column].value_size()));
    GatherColumn(payload_, column, local.rows.data(), n, v);
    return v;
  };

  // Sort by (partition number, ORDER BY); then partitions and peer groups from adjacent
  // records.
  WindowRun run;
  run.count = n;
  run.check_cancelled = [&context] { context.CheckCancelled(); };
  {
    std::vector<Vector> keys;
    std::vector<const Vector*> key_pointers;
    if (!partition_columns_.empty()) {
      std::vector<Vector> partition_keys;
      for (idx_t c : partition_columns_)
        partition_keys.push_back(gather(c));
      temporary.Add(static_cast<int64_t>(n * (sizeof(int32_t) + sizeof(uint64_t))));
      keys.push_back(NumberPartitions(partition_keys, n, temporary));
    }
    for (size_t k = keys.size(); k < sort_keys_.size(); k++)
      keys.push_back(gather(static_cast<const BoundReference&>(*sort_keys_[k].expr).index));
    for (const auto& k : keys)
      key_pointers.push_back(&k);
    const uint32_t width = sort_layout_->record_width();
    MemoryReservation records_memory(local.memory);
    records_memory.Add(static_cast<int64_t>(n * width * 2));  // records and the sort's buffer
    std::unique_ptr<uint8_t[]> records(new uint8_t[n * width]);
    sort_layout_->Encode(key_pointers, n, 0, local.rows.data(), records.get());
    if (select_top_) {
      n = SelectTop(records.get(), n,
                    partition_columns_.empty() ? nullptr : keys[0].data<int32_t>(), temporary);
      local.rows.resize(n);
    }
    sort_layout_->Sort(records.get(), n);
    temporary.Add(static_cast<int64_t>(n * sizeof(uint32_t)));
    run.group_of.resize(n);
    const idx_t partition_keys = partition_columns_.empty() ? 0 : 1;
    for (idx_t i = 0; i < n; i++) {
      const uint8_t* record = records.get() + i * width;
      local.rows[i] = sort_layout_->RowOf(record);
      const uint8_t* previous = record - width;
      if (i == 0 || !sort_layout_->KeysEqual(previous, record, partition_keys)) {
        run.partition_starts.push_back(i);
        run.group_starts.push_back(i);
      } else if (!sort_layout_->KeysEqual(previous, record, sort_keys_.size())) {
        run.group_starts.push_back(i);
      }
      run.group_of[i] = static_cast<uint32_t>(run.group_starts.size() - 1);
    }
    run.partition_starts.push_back(n);
    run.group_starts.push_back(n);
  }

  // Arguments in sorted order (each payload column once), then the windows.
  std::vector<std::unique_ptr<Vector>> gathered(payload_.types.size());
  auto argument = [&](idx_t column) -> const Vector* {
    if (!gathered[column]) gathered[column] = std::make_unique<Vector>(gather(column));
    return gathered[column].get();
  };
  for (idx_t w = 0; w < windows_.size(); w++) {
    const WindowColumns& columns = window_columns_[w];
    WindowArguments args;
    for (idx_t c : columns.args)
      args.args.push_back(argument(c));
    if (columns.range_key >= 0) args.range_key = argument(static_cast<idx_t>(columns.range_key));
    if (columns.range_start >= 0)
      args.range_start = argument(static_cast<idx_t>(columns.range_start));
    if (columns.range_end >= 0) args.range_end = argument(static_cast<idx_t>(columns.range_end));
    const LogicalType& type = windows_[w]->type;
    local.reservation->Add(static_cast<int64_t>(n * type.value_size()));
    local.results.emplace_back(type, n);
    ComputeWindow(window(w), run, args, local.results.back(), *local.reservation);
  }
  if (row_limit_ >= 0) DropBeyondLimit(local);
}

idx_t PhysicalWindow::SelectTop(uint8_t* records, idx_t n, const int32_t* partition_of,
                                MemoryReservation& memory) const {
  const uint32_t width = sort_layout_->record_width();
  const auto limit = static_cast<idx_t>(row_limit_);
  auto record = [&](uint32_t i) { return records + static_cast<size_t>(i) * width; };
  // Record indexes grouped by partition (a counting sort by partition number).
  idx_t partitions = 1;
  if (partition_of) {
    for (idx_t i = 0; i < n; i++)
      partitions = std::max<idx_t>(partitions, static_cast<idx_t>(partition_of[i]) + 1);
  }
  memory.Add(static_cast<int64_t>((2 * n + partitions + 1) * sizeof(uint32_t)));
  std::vector<uint32_t> starts(partitions + 1, 0), order(n);
  for (idx_t i = 0; i < n; i++)
    starts[(partition_of ? static_cast<idx_t>(partition_of[i]) : 0) + 1]++;
  for (idx_t p = 0; p < partitions; p++)
    starts[p + 1] += starts[p];
  {
    std::vector<uint32_t> next(starts.begin(), starts.end() - 1);
    for (idx_t i = 0; i < n; i++)
      order[next[partition_of ? static_cast<idx_t>(partition_of[i]) : 0]++] =
          static_cast<uint32_t>(i);
  }
  std::vector<uint32_t> kept;
  const bool keep_ties = window(limit_window_).function == WindowFunction::kRank;
  auto less = [&](uint32_t a, uint32_t b) {
    return sort_layout_->Compare(record(a), record(b)) < 0;
  };
  for (idx_t p = 0; p < partitions; p++) {
    const auto begin = order.begin() + starts[p], end = order.begin() + starts[p + 1];
    if (static_cast<idx_t>(end - begin) <= limit) {
      kept.insert(kept.end(), begin, end);
      continue;
    }
    if (limit == 0) continue;
    // The limit smallest records (Compare is a total order: the sequence breaks ties).
    const auto last = begin + static_cast<long>(limit) - 1;
    std::nth_element(begin, last, end, less);
    kept.insert(kept.end(), begin, last + 1);
    if (!keep_ties) continue;
    // rank: the peers of the last one kept have its rank.
    for (auto it = last + 1; it != end; ++it) {
      if (sort_layout_->KeysEqual(record(*it), record(*last), sort_keys_.size()))
        kept.push_back(*it);
    }
  }
  // In ascending order each record moves to a slot at or before its own, never over one
  // still to move.
  std::sort(kept.begin(), kept.end());
  for (idx_t j = 0; j < kept.size(); j++) {
    if (kept[j] != j) std::memcpy(record(static_cast<uint32_t>(j)), record(kept[j]), width);
  }
  return kept.size();
}

void PhysicalWindow::DropBeyondLimit(WindowLocalSourceState& local) const {
  const idx_t n = local.rows.size();
  const int64_t* values = local.results[limit_window_].data<int64_t>();
  std::vector<uint32_t> sel;
  for (idx_t i = 0; i < n; i++) {
    if (values[i] <= row_limit_) sel.push_back(static_cast<uint32_t>(i));
  }
  if (sel.size() == n) return;
  for (idx_t j = 0; j < sel.size(); j++)
    local.rows[j] = local.rows[sel[j]];
  local.rows.resize(sel.size());
  for (auto& result : local.results) {
    Vector kept(result.type(), std::max<idx_t>(sel.size(), 1));
    kept.CopyRows(result, sel.data(), sel.size());
    result = std::move(kept);
  }
}

bool PhysicalWindow::GetData(ExecutionContext& context, Batch& out,
                             GlobalSourceState& global_source,
                             LocalSourceState& local_source) const {
  auto& source = static_cast<WindowGlobalSourceState&>(global_source);
  auto& local = static_cast<WindowLocalSourceState&>(local_source);
  while (local.position >= local.rows.size()) {
    const idx_t next = source.next.fetch_add(1);
    if (next >= source.buckets.size()) {
      local.rows.clear();
      local.results.clear();
      local.reservation.reset();
      return false;
    }
    context.CheckCancelled();
    ProcessBucket(context, static_cast<WindowGlobalSinkState&>(context.sink_state(this)),
                  source.buckets[next], local);
  }
  const idx_t n = std::min<idx_t>(kBatchSize, local.rows.size() - local.position);
  uint8_t* const* rows = local.rows.data() + local.position;
  local.sel.resize(n);
  for (idx_t i = 0; i < n; i++)
    local.sel[i] = static_cast<uint32_t>(local.position + i);
  for (idx_t c = 0; c < out.column_count(); c++) {
    Vector& column = out.column(c);
    if (c < input_columns_) {
      GatherColumn(payload_, c, rows, n, column);
    } else {
      column.CopyRows(local.results[c - input_columns_], local.sel.data(), n);
    }
    // Strings (also of lag, first_value, min, ...) point into the bucket's arenas.
    if (column.type().IsString()) local.bucket->KeepArenasAlive(column);
  }
  local.position += n;
  out.SetSize(n);
  return true;
}

std::vector<std::pair<std::string, std::string>> PhysicalWindow::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& global = static_cast<WindowGlobalSinkState&>(context.sink_state(this));
  if (!global.spilling.load()) return {};
  return {{"spilled", fmt::format("{:.1f} MiB in {} files",
                                  global.spill_metrics.bytes_written.load() / double(1 << 20),
                                  global.spill_metrics.files.load())}};
}

std::string PhysicalWindow::NoSpillReason() const {
  // Frames may reach across the whole partition: it is sorted and computed in memory.
  if (partition_columns_.empty())
    return "a window without PARTITION BY is one partition, which is computed in memory (add a "
           "PARTITION BY to let it spill)";
  return "each window partition is computed in memory";
}

std::string PhysicalWindow::Describe() const {
  std::string out = "WINDOW (";
  for (idx_t w = 0; w < windows_.size(); w++)
    out += (w ? ", " : "") + windows_[w]->ToString();
  return out + ")" + WindowLimitText(window(limit_window_), row_limit_);
}

}  // namespace shears
