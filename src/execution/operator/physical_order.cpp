#include "execution/operator/physical_order.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "common/error.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "execution/spill.h"
#include "expression/expression_executor.h"

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

/// A sorted run in a spill file: blocks of [count, bytes] headers then per row its sort
/// record, its payload row and the bytes of its valid strings.
struct SpilledSortRun {
  std::unique_ptr<SpillFile> file;
  idx_t count = 0;
  uint64_t max_block = 0;  // bytes of its largest block
};

/// Reads a spilled run block by block: records whose row pointers point at rows copied from
/// the file, whose strings point into the block's buffer (kept alive by the output).
struct SortRunCursor {
  const SpilledSortRun* run = nullptr;
  uint64_t offset = 0;                  // of the next block
  std::vector<uint64_t> records, rows;  // aligned copies
  std::shared_ptr<std::vector<uint8_t>> buffer;
  idx_t count = 0, next = 0;
  int64_t reserved = 0;
  const uint8_t* record(uint32_t width) const {
    return reinterpret_cast<const uint8_t*>(records.data()) + next * width;
  }
};

/// Rows per block of a spilled run: the merge holds one block per run, so small blocks let
/// many runs merge in little memory (reads of a few KiB each stay cheap in the page cache).
constexpr idx_t kSpillBlockRows = 256;

/// Memory a spilling sort keeps below: half of memory_limit.
int64_t SortSpillThreshold(const MemoryTracker& memory) {
  return memory.limit() / 2;
}

/// Writes rows in order to a new spilled run, a block of kSpillBlockRows at a time.
class SortRunWriter {
 public:
  SortRunWriter(const SortSpec& spec, const SpillOptions& options) : spec_(spec) {
    run_.file = std::make_unique<SpillFile>(options);
    const RowLayout& layout = spec.payload;
    for (idx_t c = 0; c < layout.types.size(); c++) {
      if (layout.types[c].IsString()) string_columns_.push_back(c);
    }
  }
  /// Appends the row of `record` (its record, payload row and the bytes of its strings).
  void Add(const uint8_t* record) {
    const RowLayout& layout = spec_.payload;
    const uint8_t* row = spec_.keys->RowOf(record);
    block_.insert(block_.end(), record, record + spec_.keys->record_width());
    block_.insert(block_.end(), row, row + layout.row_width);
    for (idx_t c : string_columns_) {
      if (!layout.IsValid(row, c)) continue;
      const auto str = LoadRow<StringRef>(row + layout.offsets[c]);
      if (str.len > 0) block_.insert(block_.end(), str.ptr, str.ptr + str.len);
    }
    if (++rows_ == kSpillBlockRows) WriteBlock();
  }
  SpilledSortRun Finish() {
    WriteBlock();
    run_.file->Flush();
    return std::move(run_);
  }

 private:
  void WriteBlock() {
    if (rows_ == 0) return;
    const uint64_t header[2] = {rows_, block_.size()};
    run_.file->Append(header, sizeof(header));
    run_.file->Append(block_.data(), block_.size());
    run_.count += rows_;
    run_.max_block = std::max<uint64_t>(run_.max_block, block_.size());
    block_.clear();
    rows_ = 0;
  }

  const SortSpec& spec_;
  SpilledSortRun run_;
  std::vector<idx_t> string_columns_;
  std::vector<uint8_t> block_;
  idx_t rows_ = 0;
};

/// Writes the sorted run's rows in order to a new spill file.
SpilledSortRun WriteSortedRun(const SortSpec& spec, const SortedRun& run,
                              const SpillOptions& options) {
  SortRunWriter writer(spec, options);
  const uint32_t width = spec.keys->record_width();
  for (idx_t i = 0; i < run.count; i++)
    writer.Add(run.records.data() + i * width);
  return writer.Finish();
}

/// Loads the cursor's next block; false at the end of its run.
bool LoadBlock(const SortSpec& spec, SortRunCursor& cursor, MemoryTracker& memory) {
  if (cursor.offset >= cursor.run->file->size()) return false;
  uint64_t header[2];
  cursor.run->file->Read(cursor.offset, header, sizeof(header));
  const idx_t n = header[0];
  const size_t bytes = header[1];
  const RowLayout& layout = spec.payload;
  const uint32_t width = spec.keys->record_width();
  const int64_t need = static_cast<int64_t>(bytes + n * (width + layout.row_width));
  memory.Reserve(need);
  memory.Release(cursor.reserved);
  cursor.reserved = need;
  // A fresh buffer: the strings of rows already emitted keep pointing into the old one.
  cursor.buffer = std::make_shared<std::vector<uint8_t>>(bytes);
  cursor.run->file->Read(cursor.offset + sizeof(header), cursor.buffer->data(), bytes);
  cursor.offset += sizeof(header) + bytes;
  cursor.records.assign((n * width + 7) / 8, 0);
  cursor.rows.assign((n * layout.row_width + 7) / 8, 0);
  auto* records = reinterpret_cast<uint8_t*>(cursor.records.data());
  auto* rows = reinterpret_cast<uint8_t*>(cursor.rows.data());
  const uint8_t* data = cursor.buffer->data();
  size_t pos = 0;
  auto corrupt = [] { return InternalError("a spill file of ORDER BY does not parse"); };
  for (idx_t i = 0; i < n; i++) {
    if (bytes - pos < width + layout.row_width) throw corrupt();
    uint8_t* record = records + i * width;
    uint8_t* row = rows + i * layout.row_width;
    std::memcpy(record, data + pos, width);
    std::memcpy(row, data + pos + width, layout.row_width);
    pos += width + layout.row_width;
    for (idx_t c = 0; c < layout.types.size(); c++) {
      if (!layout.types[c].IsString() || !layout.IsValid(row, c)) continue;
      auto str = LoadRow<StringRef>(row + layout.offsets[c]);
      if (bytes - pos < str.len) throw corrupt();
      str.ptr = str.len > 0 ? reinterpret_cast<const char*>(data + pos) : "";
      pos += str.len;
      StoreRow<StringRef>(row + layout.offsets[c], str);
    }
    spec.keys->SetRow(record, row);
  }
  if (pos != bytes) throw corrupt();
  cursor.count = n;
  cursor.next = 0;
  return n > 0;
}

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
  // External sort: once `spilling` is set, every sorted run goes to a spill file; after
  // Finalize `spilled` says the source merges the files.
  std::atomic<bool> spilling{false};
  bool spilled = false;
  std::vector<SpilledSortRun> spilled_runs;  // under `mutex` until Finalize
  SpillMetrics spill_metrics;
  idx_t merge_passes = 0;  // before the final merge (ReduceSpilledRuns)
};

struct OrderSourceState : GlobalSourceState {
  explicit OrderSourceState(MemoryTracker* memory) : memory(memory) {}
  ~OrderSourceState() override {
    for (const auto& cursor : cursors)
      memory->Release(cursor.reserved);
  }
  idx_t next = 0;  // single-threaded: the order is the point
  // Merging spilled runs: a heap of cursors by their current record.
  MemoryTracker* memory;
  bool started = false;
  std::vector<SortRunCursor> cursors;
  std::vector<idx_t> heap;
  idx_t emitted = 0;
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

/// Sorts a thread's run and writes it to a spill file; the thread starts a new run.
void SpillRun(const SortSpec& spec, ExecutionContext& context, SortGlobalState& global,
              SortLocalState& local) {
  global.spilling.store(true);
  SortRun(spec, local, local.run.count);
  SpilledSortRun spilled = WriteSortedRun(spec, local.run, context.query().spill());
  global.spill_metrics.bytes_written.fetch_add(spilled.file->size());
  global.spill_metrics.files.fetch_add(1);
  {
    std::lock_guard<std::mutex> lock(global.mutex);
    global.spilled_runs.push_back(std::move(spilled));
  }
  local.run.rows = RowCollection(spec.payload.row_width, local.memory);
  local.run.records = RecordBuffer();
  local.run.count = 0;
  local.Track();
}

void EmitSpilledRows(const SortSpec& spec, uint8_t* const* rows, idx_t n,
                     const std::vector<std::shared_ptr<std::vector<uint8_t>>>& buffers,
                     Batch& out) {
  for (idx_t c = 0; c < out.column_count(); c++) {
    Vector& column = out.column(c);
    GatherColumn(spec.payload, c, rows, n, column);
    if (column.type().IsString()) {
      for (const auto& buffer : buffers)
        column.KeepAlive(buffer);
    }
  }
  out.SetSize(n);
}

/// The next batch of the k-way merge of the spilled runs (rows offset .. offset + limit,
/// limit < 0: all); false at the end.
bool GetSpilledData(const SortSpec& spec, int64_t offset, int64_t limit, ExecutionContext& context,
                    Batch& out, OrderSourceState& source, SortGlobalState& global) {
  const SortKeyLayout& keys = *spec.keys;
  const uint32_t width = keys.record_width();
  // A min-heap of cursors by current record: `less(a, b)` when a's record comes after b's.
  auto after = [&](idx_t a, idx_t b) {
    return keys.Compare(source.cursors[a].record(width), source.cursors[b].record(width)) > 0;
  };
  if (!source.started) {
    source.started = true;
    source.cursors.resize(global.spilled_runs.size());
    for (idx_t r = 0; r < global.spilled_runs.size(); r++) {
      source.cursors[r].run = &global.spilled_runs[r];
      if (LoadBlock(spec, source.cursors[r], *source.memory)) source.heap.push_back(r);
    }
    std::make_heap(source.heap.begin(), source.heap.end(), after);
  }
  context.CheckCancelled();
  uint8_t* rows[kBatchSize];
  // Buffers the batch's strings point into: the output keeps them alive.
  std::vector<std::shared_ptr<std::vector<uint8_t>>> buffers;
  idx_t n = 0;
  const idx_t skip = static_cast<idx_t>(offset);
  while (n < kBatchSize && !source.heap.empty()) {
    if (limit >= 0 && source.emitted >= skip + static_cast<idx_t>(limit)) break;
    std::pop_heap(source.heap.begin(), source.heap.end(), after);
    SortRunCursor& cursor = source.cursors[source.heap.back()];
    const bool keep = source.emitted++ >= skip;
    if (keep) {
      rows[n++] = keys.RowOf(cursor.record(width));
      if (buffers.empty() || buffers.back() != cursor.buffer) buffers.push_back(cursor.buffer);
    }
    if (++cursor.next == cursor.count) {
      // The rows of this block gathered so far are copied out below, before they go.
      if (n > 0) {
        EmitSpilledRows(spec, rows, n, buffers, out);
        if (LoadBlock(spec, cursor, *source.memory)) {
          std::push_heap(source.heap.begin(), source.heap.end(), after);
        } else {
          source.heap.pop_back();
        }
        return true;
      }
      if (!LoadBlock(spec, cursor, *source.memory)) {
        source.heap.pop_back();
        continue;
      }
    }
    std::push_heap(source.heap.begin(), source.heap.end(), after);
  }
  if (n == 0) return false;
  EmitSpilledRows(spec, rows, n, buffers, out);
  return true;
}

/// Merges runs[begin, end) into one new spilled run.
SpilledSortRun MergeSpilledRuns(const SortSpec& spec, ExecutionContext& context,
                                std::vector<SpilledSortRun>& runs, idx_t begin, idx_t end) {
  MemoryTracker& memory = context.query().memory();
  const SortKeyLayout& keys = *spec.keys;
  const uint32_t width = keys.record_width();
  std::vector<SortRunCursor> cursors(end - begin);
  struct Reservations {  // the cursors' blocks, released however the merge ends
    MemoryTracker& memory;
    std::vector<SortRunCursor>& cursors;
    ~Reservations() {
      for (const auto& cursor : cursors)
        memory.Release(cursor.reserved);
    }
  } reservations{memory, cursors};
  auto after = [&](idx_t a, idx_t b) {
    return keys.Compare(cursors[a].record(width), cursors[b].record(width)) > 0;
  };
  std::vector<idx_t> heap;
  for (idx_t r = 0; r < cursors.size(); r++) {
    cursors[r].run = &runs[begin + r];
    if (LoadBlock(spec, cursors[r], memory)) heap.push_back(r);
  }
  std::make_heap(heap.begin(), heap.end(), after);
  SortRunWriter writer(spec, context.query().spill());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), after);
    SortRunCursor& cursor = cursors[heap.back()];
    writer.Add(cursor.record(width));  // copied: the block may go next
    if (++cursor.next == cursor.count) {
      context.CheckCancelled();
      if (!LoadBlock(spec, cursor, memory)) {
        heap.pop_back();
        continue;
      }
    }
    std::push_heap(heap.begin(), heap.end(), after);
  }
  return writer.Finish();
}

/// The final merge holds a block of every run: while that would take more than a quarter of
/// memory_limit, groups of runs are merged into longer runs first (a pass over the data each
/// time; runs of a thousand blocks each merge in one pass at memory_limit / 4).
void ReduceSpilledRuns(const SortSpec& spec, ExecutionContext& context, SortGlobalState& global) {
  auto& runs = global.spilled_runs;
  const int64_t budget = context.query().memory().limit() / 4;
  for (;;) {
    uint64_t block = 1;
    for (const auto& run : runs)
      block = std::max(block, run.max_block);
    // A loaded block is its bytes plus aligned copies of its records and rows: about twice.
    const auto fan_in =
        static_cast<idx_t>(std::max<int64_t>(2, budget / static_cast<int64_t>(2 * block + 64)));
    if (runs.size() <= fan_in) return;
    std::vector<SpilledSortRun> merged;
    for (idx_t begin = 0; begin < runs.size(); begin += fan_in) {
      const idx_t end = std::min<idx_t>(runs.size(), begin + fan_in);
      if (end - begin == 1) {
        merged.push_back(std::move(runs[begin]));
        continue;
      }
      merged.push_back(MergeSpilledRuns(spec, context, runs, begin, end));
      global.spill_metrics.bytes_written.fetch_add(merged.back().file->size());
      global.spill_metrics.files.fetch_add(1);
      for (idx_t r = begin; r < end; r++)
        runs[r].file.reset();  // its disk space goes now
    }
    runs = std::move(merged);
    global.merge_passes++;
  }
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

bool PhysicalOrder::Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global_state,
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
  const MemoryTracker& memory = *local.memory;
  if (memory.used() > SortSpillThreshold(memory) &&
      run.rows.bytes() + local.reserved >= std::min<int64_t>(1 << 20, memory.limit() / 16)) {
    SpillRun(spec_, context, static_cast<SortGlobalState&>(global_state), local);
  }
  return true;
}

void PhysicalOrder::Combine(ExecutionContext& context, GlobalSinkState& global_state,
                            LocalSinkState& local_state) const {
  auto& global = static_cast<SortGlobalState&>(global_state);
  auto& local = static_cast<SortLocalState&>(local_state);
  if (local.run.count == 0) return;
  if (global.spilling.load()) {
    SpillRun(spec_, context, global, local);
    return;
  }
  SortRun(spec_, local, local.run.count);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.runs.push_back(std::make_unique<SortedRun>(std::move(local.run)));
  // The records' memory moves with them.
  global.reserved += local.reserved;
  local.reserved = 0;
}

void PhysicalOrder::Finalize(ExecutionContext& context, GlobalSinkState& global_state) const {
  auto& global = static_cast<SortGlobalState&>(global_state);
  if (global.spilling.load()) {
    // Runs sorted in memory before the first spill go to disk too; the source merges them all.
    for (auto& run : global.runs) {
      SpilledSortRun spilled = WriteSortedRun(spec_, *run, context.query().spill());
      global.spill_metrics.bytes_written.fetch_add(spilled.file->size());
      global.spill_metrics.files.fetch_add(1);
      global.spilled_runs.push_back(std::move(spilled));
      run.reset();
    }
    global.runs.clear();
    global.memory->Release(global.reserved);
    global.reserved = 0;
    global.spilled = true;
    ReduceSpilledRuns(spec_, context, global);
    return;
  }
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

std::unique_ptr<GlobalSourceState> PhysicalOrder::GetGlobalSourceState(
    ExecutionContext& context) const {
  return std::make_unique<OrderSourceState>(&context.query().memory());
}

bool PhysicalOrder::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global_source,
                            LocalSourceState&) const {
  auto& source = static_cast<OrderSourceState&>(global_source);
  auto& global = static_cast<SortGlobalState&>(context.sink_state(this));
  if (global.spilled) return GetSpilledData(spec_, offset_, limit_, context, out, source, global);
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

std::vector<std::pair<std::string, std::string>> PhysicalOrder::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& global = static_cast<SortGlobalState&>(context.sink_state(this));
  if (!global.spilled) return {};
  std::string spilled = fmt::format("{:.1f} MiB in {} files",
                                    global.spill_metrics.bytes_written.load() / double(1 << 20),
                                    global.spill_metrics.files.load());
  if (global.merge_passes > 0) spilled += fmt::format(", {} merge passes", global.merge_passes);
  return {{"spilled", spilled}};
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
  // rows tied with it on a string known only by its prefix are kept for the full sort. (Keeping
  // every row with a long string anywhere in its keys kept nearly all of q47's input, whose
  // first key, a number, decides.)
  if (local.sel.size() < n) local.sel.resize(n);
  idx_t selected = 0;
  if (local.threshold.empty()) {
    for (idx_t i = 0; i < n; i++)
      local.sel[selected++] = static_cast<uint32_t>(i);
  } else {
    const uint8_t* threshold = local.threshold.data();
    for (idx_t i = 0; i < n; i++) {
      const uint8_t* record = local.scratch.data() + i * width;
      const int c = key_layout.CompareKeyBytes(record, threshold);
      if (c < 0 || c == SortKeyLayout::kUndecided) local.sel[selected++] = static_cast<uint32_t>(i);
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
