#include "execution/operator/physical_window.h"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common/error.h"
#include "execution/expression_executor.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/window_functions.h"

namespace shears {

namespace {

/// Hash buckets of the sink: enough for every thread to find work, one without PARTITION BY.
idx_t BucketCount(bool partitioned, int threads) {
  if (!partitioned) return 1;
  idx_t buckets = 1;
  while (buckets < static_cast<idx_t>(threads) * 4 && buckets < 64)
    buckets *= 2;
  return buckets;
}

}  // namespace

struct WindowGlobalSinkState : GlobalSinkState {
  std::mutex mutex;
  std::vector<RowCollection> buckets;
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
};

PhysicalWindow::PhysicalWindow(std::vector<LogicalType> types, std::vector<BoundExprPtr> windows)
    : PhysicalOperator("WINDOW", std::move(types)), windows_(std::move(windows)) {
  SHEARS_CHECK(!windows_.empty() && types_.size() > windows_.size() - 1);
  input_columns_ = types_.size() - windows_.size();
  const BoundWindow& first = window(0);
  for (const auto& p : first.partitions) {
    partition_columns_.push_back(PayloadColumn(*p));
    sort_keys_.push_back(
        {std::make_unique<BoundReference>(p->type, partition_columns_.back(), ""), false, false});
  }
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
  const idx_t buckets = BucketCount(!partition_columns_.empty(), context.threads());
  for (idx_t b = 0; b < buckets; b++)
    state->buckets.emplace_back(payload_.row_width, &context.query().memory());
  return state;
}

std::unique_ptr<LocalSinkState> PhysicalWindow::GetLocalSinkState(ExecutionContext& context) const {
  auto state = std::make_unique<WindowLocalSinkState>();
  MemoryTracker* memory = &context.query().memory();
  // One arena for the strings of all of this thread's buckets.
  auto arena = std::make_shared<StringArena>(memory);
  const idx_t buckets = BucketCount(!partition_columns_.empty(), context.threads());
  for (idx_t b = 0; b < buckets; b++)
    state->buckets.emplace_back(payload_.row_width, memory, arena);
  state->sel.resize(buckets);
  for (const auto& e : evaluated_)
    state->values.emplace_back(e->type);
  return state;
}

bool PhysicalWindow::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
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
  return true;
}

void PhysicalWindow::Combine(ExecutionContext&, GlobalSinkState& global_state,
                             LocalSinkState& local_state) const {
  auto& global = static_cast<WindowGlobalSinkState&>(global_state);
  auto& local = static_cast<WindowLocalSinkState&>(local_state);
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
  for (idx_t b = 0; b < sink.buckets.size(); b++) {
    if (sink.buckets[b].row_count() > 0) state->buckets.push_back(b);
  }
  std::sort(state->buckets.begin(), state->buckets.end(), [&](idx_t a, idx_t b) {
    return sink.buckets[a].row_count() > sink.buckets[b].row_count();
  });
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
  const RowCollection& bucket = global.buckets[bucket_index];
  local.bucket = &bucket;
  const idx_t n = bucket.row_count();
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

  // Sort by (PARTITION BY, ORDER BY); then partitions and peer groups from adjacent records.
  WindowRun run;
  run.count = n;
  run.check_cancelled = [&context] { context.CheckCancelled(); };
  {
    std::vector<Vector> keys;
    std::vector<const Vector*> key_pointers;
    for (const auto& key : sort_keys_)
      keys.push_back(gather(static_cast<const BoundReference&>(*key.expr).index));
    for (const auto& k : keys)
      key_pointers.push_back(&k);
    const uint32_t width = sort_layout_->record_width();
    MemoryReservation records_memory(local.memory);
    records_memory.Add(static_cast<int64_t>(n * width * 2));  // records and the sort's buffer
    std::unique_ptr<uint8_t[]> records(new uint8_t[n * width]);
    sort_layout_->Encode(key_pointers, n, 0, local.rows.data(), records.get());
    sort_layout_->Sort(records.get(), n);
    temporary.Add(static_cast<int64_t>(n * sizeof(uint32_t)));
    run.group_of.resize(n);
    const idx_t partition_keys = partition_columns_.size();
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

std::string PhysicalWindow::Describe() const {
  std::string out = "WINDOW (";
  for (idx_t w = 0; w < windows_.size(); w++)
    out += (w ? ", " : "") + windows_[w]->ToString();
  return out + ")";
}

}  // namespace shears
