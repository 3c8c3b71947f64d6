#include "execution/operator/physical_order.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "common/error.h"
#include "execution/expression_executor.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

std::vector<LogicalType> PayloadTypes(const std::vector<LogicalType>& types,
                                      const std::vector<BoundOrderBy>& orders,
                                      std::vector<idx_t>& extra_keys,
                                      std::vector<idx_t>& string_columns) {
  std::vector<LogicalType> payload = types;
  for (idx_t k = 0; k < orders.size(); k++) {
    const BoundExpr& expr = *orders[k].expr;
    if (!expr.type.IsString()) continue;
    // The full string of a string key: the input column itself, or a stored copy.
    if (expr.kind == BoundExprKind::kReference) {
      string_columns.push_back(static_cast<const BoundReference&>(expr).index);
    } else {
      string_columns.push_back(payload.size());
      extra_keys.push_back(k);
      payload.push_back(expr.type);
    }
  }
  return payload;
}

/// Sort records of a run: grows with realloc, which for large buffers remaps pages instead of
/// copying them, and leaves new bytes uninitialized (they are written right away).
class RecordBuffer {
 public:
  RecordBuffer() = default;
  ~RecordBuffer() { std::free(data_); }
  RecordBuffer(RecordBuffer&& other) noexcept
      : data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  RecordBuffer& operator=(RecordBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  void resize(size_t size) {
    if (size > capacity_) Reallocate(std::max(size, capacity_ + capacity_ / 2));
    size_ = size;
  }
  /// Gives back the capacity beyond the size.
  void shrink_to_fit() {
    if (size_ < capacity_) Reallocate(size_);
  }

 private:
  void Reallocate(size_t capacity) {
    auto* grown = static_cast<uint8_t*>(std::realloc(data_, std::max<size_t>(capacity, 1)));
    if (!grown) throw OutOfMemoryError("out of memory allocating {} bytes of sort keys", capacity);
    data_ = grown;
    capacity_ = capacity;
  }
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

/// One thread's materialized input: rows and their sort records.
struct SortedRun {
  explicit SortedRun(RowCollection r) : rows(std::move(r)) {}
  RowCollection rows;
  RecordBuffer records;
  idx_t count = 0;
};

struct SortLocalState : LocalSinkState {
  SortLocalState(const SortSpec& spec, MemoryTracker* memory)
      : memory(memory), run(RowCollection(spec.payload.row_width, memory)) {}
  ~SortLocalState() override { memory->Release(reserved); }

  /// Keeps the memory count of `records` in step with its capacity.
  void Track() {
    const int64_t bytes = static_cast<int64_t>(run.records.capacity());
    if (bytes > reserved) {
      memory->Reserve(bytes - reserved);
    } else if (bytes < reserved) {
      memory->Release(reserved - bytes);
    }
    reserved = bytes;
  }

  MemoryTracker* memory;
  SortedRun run;
  int64_t reserved = 0;
  uint32_t seq = 0;
  std::vector<Vector> key_values;
  std::vector<uint8_t*> rows, row_of;
  std::vector<uint8_t> scratch;  // TOP_N: records of the incoming batch
  std::vector<uint32_t> sel;
  std::vector<uint8_t> threshold;  // TOP_N: the current limit-th record
};

struct SortGlobalState : GlobalSinkState {
  explicit SortGlobalState(MemoryTracker* memory) : memory(memory) {}
  ~SortGlobalState() override { memory->Release(reserved); }
  MemoryTracker* memory;
  std::mutex mutex;
  std::vector<std::unique_ptr<SortedRun>> runs;
  int64_t reserved = 0;  // records of the runs and the final order
  std::vector<uint8_t*> order;
  std::vector<std::shared_ptr<StringArena>> arenas;
};

struct OrderSourceState : GlobalSourceState {
  idx_t next = 0;  // single-threaded: the order is the point
};

void EvaluateKeys(const std::vector<BoundOrderBy>& orders, Batch& input,
                  std::vector<Vector>& values, std::vector<const Vector*>& pointers) {
  pointers.clear();
  for (idx_t k = 0; k < orders.size(); k++) {
    ExpressionExecutor::Execute(*orders[k].expr, input, values[k]);
    pointers.push_back(&values[k]);
  }
}

/// Writes input rows sel[0..count) (sel null: all) and the extra key columns to rows[r].
void ScatterPayload(const SortSpec& spec, Batch& input, const std::vector<Vector>& key_values,
                    const uint32_t* sel, idx_t count, uint8_t* const* rows, RowCollection& target) {
  const RowLayout& layout = spec.payload;
  StringArena* arena = layout.has_strings ? &target.arena() : nullptr;
  for (idx_t c = 0; c < input.column_count(); c++) {
    ScatterColumn(layout, c, input.column(c), sel, count, rows, arena);
  }
  for (idx_t e = 0; e < spec.extra_keys.size(); e++) {
    ScatterColumn(layout, input.column_count() + e, key_values[spec.extra_keys[e]], sel, count,
                  rows, arena);
  }
}

/// Sorts a run; TOP_N keeps only its best `keep` records (and copies their rows into a fresh
/// collection, dropping the memory of the others).
void SortRun(const SortSpec& spec, SortLocalState& local, idx_t keep) {
  SortedRun& run = local.run;
  const uint32_t width = spec.keys->record_width();
  {
    // The sort's scratch buffer counts too.
    const int64_t scratch = static_cast<int64_t>(run.count * width);
    local.memory->Reserve(scratch);
    try {
      spec.keys->Sort(run.records.data(), run.count);
    } catch (...) {
      local.memory->Release(scratch);
      throw;
    }
    local.memory->Release(scratch);
  }
  if (run.count <= keep) return;
  const RowLayout& layout = spec.payload;
  RowCollection rows(layout.row_width, local.memory);
  for (idx_t i = 0; i < keep; i++) {
    uint8_t* record = run.records.data() + i * width;
    const uint8_t* old_row = spec.keys->RowOf(record);
    uint8_t* row = rows.AppendRow();
    std::memcpy(row, old_row, layout.row_width);
    for (idx_t c = 0; c < layout.types.size(); c++) {
      if (!layout.types[c].IsString() || !layout.IsValid(row, c)) continue;
      const StringRef s = LoadRow<StringRef>(row + layout.offsets[c]);
      StoreRow<StringRef>(row + layout.offsets[c], rows.arena().Add(s.ptr, s.len));
    }
    spec.keys->SetRow(record, row);
  }
  run.rows = std::move(rows);
  run.count = keep;
  run.records.resize(keep * width);
  run.records.shrink_to_fit();
  local.Track();
}

/// Rows a TOP_N keeps per thread: limit + offset, saturated (LIMIT may be huge).
idx_t KeepCount(int64_t limit, int64_t offset) {
  const uint64_t sum = static_cast<uint64_t>(limit) + static_cast<uint64_t>(offset);
  return std::min<uint64_t>(sum, uint64_t{1} << 62);
}

}  // namespace

SortSpec::SortSpec(const std::vector<LogicalType>& types, const std::vector<BoundOrderBy>& orders) {
  std::vector<idx_t> string_columns;
  payload = RowLayout(PayloadTypes(types, orders, extra_keys, string_columns), 0);
  keys = std::make_unique<SortKeyLayout>(orders, &payload, std::move(string_columns));
}

PhysicalOrder::PhysicalOrder(std::vector<LogicalType> types, std::vector<BoundOrderBy> orders)
    : PhysicalOrder("ORDER_BY", std::move(types), std::move(orders), -1, 0) {}

PhysicalOrder::PhysicalOrder(std::string name, std::vector<LogicalType> types,
                             std::vector<BoundOrderBy> orders, int64_t limit, int64_t offset)
    : PhysicalOperator(std::move(name), std::move(types)),
      orders_(std::move(orders)),
      spec_(types_, orders_),
      limit_(limit),
      offset_(offset) {
  SHEARS_CHECK(!orders_.empty());
}

std::unique_ptr<GlobalSinkState> PhysicalOrder::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<SortGlobalState>(&context.query().memory());
}

std::unique_ptr<LocalSinkState> PhysicalOrder::GetLocalSinkState(ExecutionContext& context) const {
  auto state = std::make_unique<SortLocalState>(spec_, &context.query().memory());
  for (const auto& order : orders_)
    state->key_values.emplace_back(order.expr->type);
  return state;
}

bool PhysicalOrder::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                         LocalSinkState& local_state) const {
  auto& local = static_cast<SortLocalState&>(local_state);
  const idx_t n = input.size();
  if (n == 0) return true;
  std::vector<const Vector*> keys;
  EvaluateKeys(orders_, input, local.key_values, keys);
  if (local.rows.size() < n) local.rows.resize(n);
  SortedRun& run = local.run;
  run.rows.AppendRows(n, local.rows.data());
  ScatterPayload(spec_, input, local.key_values, nullptr, n, local.rows.data(), run.rows);
  const uint32_t width = spec_.keys->record_width();
  SHEARS_CHECK(local.seq + n <= UINT32_MAX);  // sequence numbers are 32 bits per thread
  const size_t needed = (run.count + n) * width;
  if (needed > run.records.capacity()) {
    // Reserve before growing, so a refusal leaves the buffer as it was.
    local.memory->Reserve(static_cast<int64_t>(needed));
    local.memory->Release(static_cast<int64_t>(needed));
  }
  run.records.resize(needed);
  local.Track();
  spec_.keys->Encode(keys, n, local.seq, local.rows.data(), run.records.data() + run.count * width);
  run.count += n;
  local.seq += static_cast<uint32_t>(n);
  return true;
}

void PhysicalOrder::Combine(ExecutionContext&, GlobalSinkState& global_state,
                            LocalSinkState& local_state) const {
  auto& global = static_cast<SortGlobalState&>(global_state);
  auto& local = static_cast<SortLocalState&>(local_state);
  if (local.run.count == 0) return;
  SortRun(spec_, local, local.run.count);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.runs.push_back(std::make_unique<SortedRun>(std::move(local.run)));
  // The records' memory moves with them.
  global.reserved += local.reserved;
  local.reserved = 0;
}

void PhysicalOrder::Finalize(ExecutionContext&, GlobalSinkState& global_state) const {
  auto& global = static_cast<SortGlobalState&>(global_state);
  std::vector<const uint8_t*> runs;
  std::vector<idx_t> counts;
  idx_t total = 0;
  for (const auto& run : global.runs) {
    runs.push_back(run->records.data());
    counts.push_back(run->count);
    total += run->count;
    for (const auto& arena : run->rows.arenas())
      global.arenas.push_back(arena);
  }
  idx_t expected = total;
  if (limit_ >= 0) {
    expected = total > static_cast<idx_t>(offset_)
                   ? std::min<idx_t>(total - offset_, static_cast<idx_t>(limit_))
                   : 0;
  }
  const int64_t bytes = static_cast<int64_t>(expected * sizeof(uint8_t*));
  global.memory->Reserve(bytes);
  global.reserved += bytes;
  MergeSortedRuns(*spec_.keys, runs, counts, static_cast<idx_t>(offset_), limit_, global.order);
}

std::unique_ptr<GlobalSourceState> PhysicalOrder::GetGlobalSourceState(ExecutionContext&) const {
  return std::make_unique<OrderSourceState>();
}

bool PhysicalOrder::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global_source,
                            LocalSourceState&) const {
  auto& source = static_cast<OrderSourceState&>(global_source);
  auto& global = static_cast<SortGlobalState&>(context.sink_state(this));
  const idx_t total = global.order.size();
  if (source.next >= total) return false;
  const idx_t n = std::min<idx_t>(kBatchSize, total - source.next);
  uint8_t* const* rows = global.order.data() + source.next;
  source.next += n;
  for (idx_t c = 0; c < out.column_count(); c++) {
    Vector& column = out.column(c);
    GatherColumn(spec_.payload, c, rows, n, column);
    if (column.type().IsString()) {
      for (const auto& arena : global.arenas)
        column.KeepAlive(arena);
    }
  }
  out.SetSize(n);
  return true;
}

std::string PhysicalOrder::Describe() const {
  std::string out = name_ + " (";
  for (idx_t k = 0; k < orders_.size(); k++) {
    if (k > 0) out += ", ";
    out += orders_[k].expr->ToString() + (orders_[k].descending ? " DESC" : " ASC") +
           (orders_[k].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  if (limit_ >= 0) out += ", limit " + std::to_string(limit_);
  if (offset_ > 0) out += ", offset " + std::to_string(offset_);
  return out + ")";
}

// ---- TOP_N ----

PhysicalTopN::PhysicalTopN(std::vector<LogicalType> types, std::vector<BoundOrderBy> orders,
                           int64_t limit, int64_t offset)
    : PhysicalOrder("TOP_N", std::move(types), std::move(orders), limit, offset) {
  SHEARS_CHECK(limit >= 0 && offset >= 0);
}

bool PhysicalTopN::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                        LocalSinkState& local_state) const {
  auto& local = static_cast<SortLocalState&>(local_state);
  const idx_t keep = KeepCount(limit_, offset_);
  if (limit_ == 0) return false;  // nothing will be emitted: stop the input early
  const idx_t n = input.size();
  if (n == 0) return true;
  std::vector<const Vector*> keys;
  EvaluateKeys(orders_, input, local.key_values, keys);
  const SortKeyLayout& key_layout = *spec_.keys;
  const uint32_t width = key_layout.record_width();
  local.scratch.resize(n * width);
  key_layout.Encode(keys, n, local.seq, nullptr, local.scratch.data());
  local.seq += static_cast<uint32_t>(n);

  // Rows not better than the current keep-th row cannot make it (ties lose: later sequence);
  // rows whose strings are only known by prefix are kept to be decided by the full sort.
  if (local.sel.size() < n) local.sel.resize(n);
  idx_t selected = 0;
  if (local.threshold.empty()) {
    for (idx_t i = 0; i < n; i++)
      local.sel[selected++] = static_cast<uint32_t>(i);
  } else {
    const uint8_t* threshold = local.threshold.data();
    const uint16_t threshold_flags = key_layout.Flags(threshold);
    for (idx_t i = 0; i < n; i++) {
      const uint8_t* record = local.scratch.data() + i * width;
      if ((key_layout.Flags(record) | threshold_flags) != 0 ||
          std::memcmp(record, threshold, key_layout.key_width()) < 0) {
        local.sel[selected++] = static_cast<uint32_t>(i);
      }
    }
  }
  if (selected == 0) return true;
  if (local.rows.size() < n) {
    local.rows.resize(n);
    local.row_of.resize(n);
  }
  SortedRun& run = local.run;
  run.rows.AppendRows(selected, local.rows.data());
  for (idx_t k = 0; k < selected; k++)
    local.row_of[local.sel[k]] = local.rows[k];
  ScatterPayload(spec_, input, local.key_values, local.sel.data(), selected, local.row_of.data(),
                 run.rows);
  run.records.resize((run.count + selected) * width);
  for (idx_t k = 0; k < selected; k++) {
    uint8_t* record = run.records.data() + (run.count + k) * width;
    std::memcpy(record, local.scratch.data() + local.sel[k] * width, width);
    key_layout.SetRow(record, local.rows[k]);
  }
  run.count += selected;
  local.Track();
  // Shrink to the best `keep` rows once there are plenty more.
  if (run.count >= keep && run.count - keep >= std::max<idx_t>(keep, 2 * kBatchSize)) {
    SortRun(spec_, local, keep);
    local.threshold.assign(run.records.data() + run.records.size() - width,
                           run.records.data() + run.records.size());
  }
  return true;
}

void PhysicalTopN::Combine(ExecutionContext&, GlobalSinkState& global_state,
                           LocalSinkState& local_state) const {
  auto& global = static_cast<SortGlobalState&>(global_state);
  auto& local = static_cast<SortLocalState&>(local_state);
  if (local.run.count == 0) return;
  SortRun(spec_, local, KeepCount(limit_, offset_));
  std::lock_guard<std::mutex> lock(global.mutex);
  global.runs.push_back(std::make_unique<SortedRun>(std::move(local.run)));
  global.reserved += local.reserved;
  local.reserved = 0;
}

std::string PhysicalTopN::Describe() const {
  return PhysicalOrder::Describe();
}

}  // namespace shears
