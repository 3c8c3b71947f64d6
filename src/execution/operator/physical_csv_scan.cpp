#include "execution/operator/physical_csv_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common/error.h"
#include "common/value.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "expression/expression_executor.h"
#include "storage/csv/csv_reader.h"
#include "storage/partition_pruning.h"

namespace shears {

namespace {

/// One byte range of one file.
struct CsvChunk {
  size_t file_index = 0;
  size_t ordinal = 0;  // within its file
  size_t begin = 0, end = 0;
  bool last = false;  // the file's last range
};

/// Per file being read: its bytes (opened by the first thread that needs them) and where each
/// range started and stopped, to check that consecutive ranges met at one row boundary.
struct CsvOpenFile {
  std::once_flag opened;
  std::shared_ptr<const CsvFileBuffer> buffer;
  std::exception_ptr open_error;
  std::vector<int64_t> first_row, stop;  // -1 until known
};

// The scan's counters in a query, beside every operator's (ExecutionContext::metrics).
struct CsvScanMetrics : OperatorMetrics {
  std::atomic<uint64_t> files_total{0};
  std::atomic<uint64_t> files_read{0};
  std::atomic<uint64_t> partitions_total{0};
  std::atomic<uint64_t> partitions_pruned_static{0};
  std::atomic<uint64_t> partitions_pruned_dynamic{0};
  std::atomic<uint64_t> chunks{0};
  std::atomic<uint64_t> rows_scanned{0};
  std::atomic<uint64_t> rows_rejected{0};  // skipped with ignore_errors
  std::atomic<uint64_t> bytes_read{0};
};

struct CsvGlobalState : GlobalSourceState {
  CsvScanMetrics* metrics = nullptr;
  std::vector<size_t> files;  // left after partition pruning
  std::vector<CsvChunk> chunks;
  std::atomic<size_t> next_chunk{0};
  std::vector<std::unique_ptr<CsvOpenFile>> open;  // per dataset file
  std::mutex mutex;                                // guards first_row / stop
  idx_t MaxThreads() const override { return std::max<size_t>(1, chunks.size()); }
};

struct CsvLocalState : LocalSourceState {
  std::unique_ptr<CsvChunkReader> reader;
  size_t chunk = 0;
  SelectionVector sel{kBatchSize};
};

}  // namespace

PhysicalCsvScan::PhysicalCsvScan(std::shared_ptr<const Dataset> dataset,
                                 std::vector<int> column_ids, std::vector<BoundExprPtr> filters,
                                 std::string table_name,
                                 std::vector<DynamicPartitionFilter> dynamic_filters)
    : PhysicalOperator("CSV_SCAN", {}),
      dataset_(std::move(dataset)),
      column_ids_(std::move(column_ids)),
      filters_(std::move(filters)),
      table_name_(std::move(table_name)),
      dynamic_filters_(std::move(dynamic_filters)) {
  SHEARS_CHECK(dataset_->csv() != nullptr);
  for (int id : column_ids_)
    types_.push_back(dataset_->columns()[static_cast<size_t>(id)].type);
}

std::string PhysicalCsvScan::Describe() const {
  std::string out = "CSV_SCAN " + table_name_ + " [";
  for (size_t i = 0; i < column_ids_.size(); i++)
    out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(column_ids_[i])].name;
  out += "]";
  const CsvScanInfo& info = *dataset_->csv();
  auto show = [](char c) {
    return c == '\t' ? std::string("\\t") : c == '\0' ? std::string("(none)") : std::string(1, c);
  };
  out += fmt::format(" delim '{}' quote '{}' escape '{}' header {}", show(info.dialect.delimiter),
                     show(info.dialect.quote), show(info.dialect.escape),
                     info.dialect.header ? "true" : "false");
  if (!filters_.empty()) {
    out += " filters: ";
    for (size_t i = 0; i < filters_.size(); i++)
      out += (i ? " AND " : "") + filters_[i]->ToString();
  }
  for (const auto& f : dynamic_filters_) {
    out += " " + DescribeDynamicPartitionFilter(f, *dataset_);
  }
  return out;
}

std::vector<int> PhysicalCsvScan::ConsumedDynamicFilters() const {
  std::vector<int> ids;
  for (const auto& f : dynamic_filters_) {
    for (int id : f.ProducerIds())
      ids.push_back(id);
  }
  return ids;
}

std::unique_ptr<GlobalSourceState> PhysicalCsvScan::GetGlobalSourceState(
    ExecutionContext& context) const {
  auto state = std::make_unique<CsvGlobalState>();
  state->metrics = &static_cast<CsvScanMetrics&>(context.metrics(this));
  CsvScanMetrics& metrics = *state->metrics;
  const Dataset& ds = *dataset_;
  const size_t file_columns = ds.num_file_columns();
  // Filters reading partition columns only decide per partition, on one row of its values.
  std::vector<const BoundExpr*> partition_filters;
  for (const auto& filter : filters_) {
    bool partition_only = true;
    VisitExpression(const_cast<BoundExpr&>(*filter), [&](BoundExpr& e) {
      if (e.kind == BoundExprKind::kReference &&
          static_cast<size_t>(column_ids_[static_cast<BoundReference&>(e).index]) < file_columns) {
        partition_only = false;
      }
    });
    if (partition_only) partition_filters.push_back(filter.get());
  }
  // The dynamic partition filters as conjuncts, each tested on the partition's values as a
  // Parquet scan's partition level tests them (partition_pruning.h).
  std::vector<std::unique_ptr<BoundPartitionFilter>> partition_conjuncts;
  std::vector<std::pair<const BoundPartitionFilter*, std::vector<const RuntimeFilter*>>> ready;
  for (size_t slot = 0; slot < dynamic_filters_.size(); slot++) {
    partition_conjuncts.push_back(PartitionConjunct(dynamic_filters_[slot], slot));
    auto data = PublishedFilters(*partition_conjuncts.back(), context.dynamic_filters());
    if (!data.empty()) ready.emplace_back(partition_conjuncts.back().get(), std::move(data));
  }
  enum : uint8_t { kUndecided, kKept, kPrunedStatic, kPrunedDynamic };
  std::vector<uint8_t> decision(ds.num_partitions(), kUndecided);
  SelectionVector sel(1);
  for (size_t i = 0; i < ds.files().size(); i++) {
    const uint32_t p = ds.partition_of(i);
    const DatasetFile& file = ds.files()[i];
    if (decision[p] == kUndecided) {
      decision[p] = kKept;
      if (!partition_filters.empty()) {
        Batch row(types_, 1);
        for (size_t c = 0; c < column_ids_.size(); c++) {
          const size_t id = static_cast<size_t>(column_ids_[c]);
          if (id >= file_columns) {
            WriteValue(row.column(c), 0, file.partition_values[id - file_columns]);
          } else {
            row.column(c).validity().SetNull(0);
          }
        }
        row.SetSize(1);
        for (const BoundExpr* filter : partition_filters) {
          if (ExpressionExecutor::Select(*filter, row, sel) == 0) {
            decision[p] = kPrunedStatic;
            break;
          }
        }
      }
      for (const auto& [filter, data] : ready) {
        if (decision[p] != kKept) break;
        if (!PartitionConjunctMayMatch(*filter, data, file.partition_values, file_columns))
          decision[p] = kPrunedDynamic;
      }
    }
    if (decision[p] == kKept) state->files.push_back(i);
  }
  metrics.files_total = ds.files().size();
  if (ds.num_partition_columns() > 0) {
    metrics.partitions_total = ds.num_partitions();
    metrics.partitions_pruned_static =
        static_cast<uint64_t>(std::count(decision.begin(), decision.end(), kPrunedStatic));
    metrics.partitions_pruned_dynamic =
        static_cast<uint64_t>(std::count(decision.begin(), decision.end(), kPrunedDynamic));
  }
  // Byte ranges: compressed files are read whole (their size says little about the text).
  const CsvScanInfo& info = *ds.csv();
  const uint64_t chunk_bytes = std::max<uint64_t>(
      static_cast<uint64_t>(context.query().settings().GetInt("csv_chunk_bytes")),
      static_cast<uint64_t>(info.options.max_line_size) * 4);
  state->open.resize(ds.files().size());
  for (size_t file_index : state->files) {
    const DatasetFile& file = ds.files()[file_index];
    const std::string& path = file.path;
    const bool compressed = info.options.compression == "gzip" ||
                            (info.options.compression == "auto" && path.size() > 3 &&
                             (path.compare(path.size() - 3, 3, ".gz") == 0 ||
                              path.compare(path.size() - 3, 3, ".GZ") == 0));
    size_t pieces = 1;
    if (info.options.parallel && !info.quoted_newlines && !compressed && file.size > chunk_bytes) {
      pieces = static_cast<size_t>((file.size + chunk_bytes - 1) / chunk_bytes);
    }
    auto open = std::make_unique<CsvOpenFile>();
    open->first_row.assign(pieces, -1);
    open->stop.assign(pieces, -1);
    state->open[file_index] = std::move(open);
    for (size_t k = 0; k < pieces; k++) {
      CsvChunk chunk;
      chunk.file_index = file_index;
      chunk.ordinal = k;
      chunk.begin = pieces == 1 ? 0 : k * chunk_bytes;
      chunk.end = k + 1 == pieces ? SIZE_MAX : (k + 1) * chunk_bytes;
      chunk.last = k + 1 == pieces;
      state->chunks.push_back(chunk);
    }
  }
  metrics.chunks = state->chunks.size();
  return state;
}

std::unique_ptr<OperatorMetrics> PhysicalCsvScan::MakeMetrics() const {
  return std::make_unique<CsvScanMetrics>();
}

std::unique_ptr<LocalSourceState> PhysicalCsvScan::GetLocalSourceState(ExecutionContext&,
                                                                       GlobalSourceState&) const {
  return std::make_unique<CsvLocalState>();
}

bool PhysicalCsvScan::GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global_base,
                              LocalSourceState& local_base) const {
  auto& global = static_cast<CsvGlobalState&>(global_base);
  auto& local = static_cast<CsvLocalState&>(local_base);
  const Dataset& ds = *dataset_;
  const CsvScanInfo& info = *ds.csv();
  const size_t file_columns = ds.num_file_columns();
  while (true) {
    context.CheckCancelled();
    if (!local.reader) {
      const size_t index = global.next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (index >= global.chunks.size()) return false;
      const CsvChunk& chunk = global.chunks[index];
      CsvOpenFile& open = *global.open[chunk.file_index];
      const DatasetFile& file = ds.files()[chunk.file_index];
      std::call_once(open.opened, [&] {
        try {
          open.buffer = CsvFileBuffer::Open(file.path, info.options.compression);
          global.metrics->files_read++;
          global.metrics->bytes_read += open.buffer->size();
        } catch (...) {
          open.open_error = std::current_exception();
        }
      });
      if (open.open_error) std::rethrow_exception(open.open_error);
      std::vector<CsvTarget> targets;
      const std::vector<int>* map =
          info.column_maps.empty() ? nullptr : &info.column_maps[chunk.file_index];
      const size_t csv_columns = info.names.size();
      for (size_t c = 0; c < column_ids_.size(); c++) {
        const size_t id = static_cast<size_t>(column_ids_[c]);
        if (id >= csv_columns) continue;  // filename and partition columns are constants
        CsvTarget target;
        target.out_column = c;
        target.file_column = map ? (*map)[id] : static_cast<int>(id);
        target.type = types_[c];
        target.name = info.names[id];
        targets.push_back(std::move(target));
      }
      const size_t fields =
          info.file_columns.empty() ? info.names.size() : info.file_columns[chunk.file_index];
      local.reader =
          std::make_unique<CsvChunkReader>(info, open.buffer, fields, std::move(targets),
                                           chunk.begin, chunk.end, &global.metrics->rows_rejected);
      local.chunk = index;
    }
    const CsvChunk& chunk = global.chunks[local.chunk];
    if (!local.reader->Read(out)) {
      // The range is done: it must begin where the previous one stopped, and stop where the
      // next one began.
      CsvOpenFile& open = *global.open[chunk.file_index];
      {
        std::lock_guard<std::mutex> lock(global.mutex);
        const size_t k = chunk.ordinal;
        open.first_row[k] = static_cast<int64_t>(local.reader->first_row());
        open.stop[k] = static_cast<int64_t>(local.reader->stop());
        auto check = [&](size_t before) {
          if (open.stop[before] < 0 || open.first_row[before + 1] < 0) return;
          if (open.stop[before] != open.first_row[before + 1]) {
            throw InvalidInputError(
                "CSV file '{}' could not be split for parallel reading near line {} (a quoted "
                "field holds line breaks that look like rows); read it with parallel = false",
                open.buffer->path(),
                open.buffer->LineOf(static_cast<size_t>(open.first_row[before + 1])));
          }
        };
        if (k > 0) check(k - 1);
        if (!chunk.last) check(k);
      }
      local.reader.reset();
      continue;
    }
    const idx_t rows = out.size();
    global.metrics->rows_scanned += rows;
    // Constant columns: the file name and partition values.
    for (size_t c = 0; c < column_ids_.size(); c++) {
      const size_t id = static_cast<size_t>(column_ids_[c]);
      if (id < info.names.size()) continue;
      Value value;
      if (id < file_columns) {
        value = Value::Varchar(ds.files()[chunk.file_index].path);
      } else {
        value = ds.files()[chunk.file_index].partition_values[id - file_columns];
      }
      Vector& v = out.column(c);
      v.Reset();
      for (idx_t r = 0; r < rows; r++)
        WriteValue(v, r, value);
    }
    idx_t kept = rows;
    for (const auto& filter : filters_) {
      kept = ExpressionExecutor::Select(*filter, out, local.sel);
      if (kept < out.size()) out.Select(local.sel.data(), kept);
      if (kept == 0) break;
    }
    if (kept > 0) return true;
  }
}

std::vector<std::pair<std::string, std::string>> PhysicalCsvScan::AnalyzeDetails(
    ExecutionContext& context) const {
  const auto& m = static_cast<const CsvScanMetrics&>(context.metrics(this));
  std::vector<std::pair<std::string, std::string>> out;
  auto add = [&](const char* name, uint64_t value) {
    out.emplace_back(name, std::to_string(value));
  };
  if (dataset_->num_partition_columns() > 0) {
    add("partitions_total", m.partitions_total);
    add("partitions_pruned_static", m.partitions_pruned_static);
    add("partitions_pruned_dynamic", m.partitions_pruned_dynamic);
    add("partitions_read",
        m.partitions_total - m.partitions_pruned_static - m.partitions_pruned_dynamic);
  }
  add("files_total", m.files_total);
  add("files_read", m.files_read);
  add("csv_chunks", m.chunks);
  add("rows_scanned", m.rows_scanned);
  add("rows_rejected", m.rows_rejected);
  add("bytes_read", m.bytes_read);
  return out;
}

}  // namespace shears
