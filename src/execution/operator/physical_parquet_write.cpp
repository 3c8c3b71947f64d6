#include "execution/operator/physical_parquet_write.h"

#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "common/error.h"
#include "execution/pipeline.h"
#include "storage/hive/hive_partitioning.h"

namespace shears {

namespace fs = std::filesystem;

struct PhysicalParquetWrite::OpenWriter {
  std::unique_ptr<parquet::ParquetWriter> writer;
  std::string file_name;
  uint64_t last_use = 0;
  MemoryHold buffered;  // the row group it holds, against memory_limit
  void Write(const Batch& batch) {
    writer->Write(batch);
    buffered.Set(static_cast<int64_t>(writer->buffered_bytes()));
  }
};

struct PhysicalParquetWrite::LocalState : LocalSinkState {
  std::map<std::string, OpenWriter> open;  // by partition
  std::vector<WrittenPartFile> done;
  uint64_t clock = 0;
  size_t max_open = PhysicalParquetWrite::kMinOpenWritersPerThread;

  void Close(std::map<std::string, OpenWriter>::iterator it) {
    done.push_back({it->first, it->second.file_name, it->second.writer->Close()});
    open.erase(it);
  }
};

std::string PartitionPathOf(const Batch& batch, const std::vector<idx_t>& partition_columns,
                            const std::vector<std::string>& names, idx_t row) {
  std::string path;
  for (idx_t column : partition_columns) {
    if (!path.empty()) path += '/';
    path += HiveEscape(names[column]);
    path += '=';
    const Vector& vector = batch.column(column);
    if (vector.IsNull(row)) {
      path += kHiveNullPartition;
    } else {
      path += HiveEscape(vector.ValueToString(row));
    }
  }
  return path;
}

namespace {

/// Appends a value's bytes to a grouping key (NULL and non-NULL told apart, strings with their
/// length, so different values never make the same key).
void AppendRawValue(const Vector& vector, idx_t row, std::string& key) {
  if (vector.IsNull(row)) {
    key += '\0';
    return;
  }
  key += '\1';
  const TypeId id = vector.type().id();
  if (id == TypeId::kVarchar || id == TypeId::kBlob) {
    const StringRef value = vector.data<StringRef>()[row];
    key.append(reinterpret_cast<const char*>(&value.len), sizeof(value.len));
    key.append(value.ptr, value.len);
    return;
  }
  const size_t width = vector.type().value_size();
  key.append(reinterpret_cast<const char*>(vector.data<uint8_t>() + row * width), width);
}

}  // namespace

PhysicalParquetWrite::PhysicalParquetWrite(std::vector<LogicalType> types, ParquetWriteSpec spec)
    : PhysicalOperator("PARQUET_WRITE", std::move(types)), spec_(std::move(spec)) {
  for (idx_t column : spec_.partition_columns) {
    if (types_[column].id() == TypeId::kBlob) {
      throw NotSupportedError("cannot partition by the BLOB column '{}'", spec_.names[column]);
    }
  }
  for (idx_t i = 0; i < types_.size(); i++) {
    if (!spec_.store_partition_columns &&
        std::find(spec_.partition_columns.begin(), spec_.partition_columns.end(), i) !=
            spec_.partition_columns.end()) {
      continue;
    }
    data_columns_.push_back(i);
    data_names_.push_back(spec_.names[i]);
    data_types_.push_back(types_[i]);
  }
  if (data_columns_.empty()) {
    throw InvalidInputError(
        "{}: every column is a partition column; at least one column must be stored in the files",
        spec_.statement);
  }
}

std::string PhysicalParquetWrite::Describe() const {
  return "PARQUET_WRITE " + (spec_.single_file.empty() ? spec_.directory : spec_.single_file);
}

std::unique_ptr<GlobalSinkState> PhysicalParquetWrite::GetGlobalSinkState(ExecutionContext&) const {
  return std::make_unique<ParquetWriteGlobalState>();
}

std::unique_ptr<LocalSinkState> PhysicalParquetWrite::GetLocalSinkState(
    ExecutionContext& context) const {
  auto local = std::make_unique<LocalState>();
  // Each open writer holds a descriptor: keep a quarter of the process's budget for the
  // writing threads together. Closing a writer early ends its file, so a small cap turns data
  // in random partition order into many small files (a file per partition per batch).
  rlimit limit{};
  const uint64_t descriptors =
      getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
          ? static_cast<uint64_t>(limit.rlim_cur)
          : 1024;
  const uint64_t threads = static_cast<uint64_t>(std::max(1, context.threads()));
  local->max_open = static_cast<size_t>(std::clamp<uint64_t>(
      descriptors / 4 / threads, kMinOpenWritersPerThread, kMaxOpenWritersPerThread));
  return local;
}

PhysicalParquetWrite::OpenWriter& PhysicalParquetWrite::WriterFor(ExecutionContext& context,
                                                                  const std::string& partition,
                                                                  ParquetWriteGlobalState& global,
                                                                  LocalState& local) const {
  auto it = local.open.find(partition);
  if (it != local.open.end()) {
    it->second.last_use = ++local.clock;
    return it->second;
  }
  if (local.open.size() >= local.max_open) {
    auto oldest = std::min_element(local.open.begin(), local.open.end(), [](auto& a, auto& b) {
      return a.second.last_use < b.second.last_use;
    });
    local.Close(oldest);
  }
  int64_t number;
  {
    std::lock_guard<std::mutex> lock(global.mutex);
    if (global.partitions.insert(partition).second &&
        static_cast<int64_t>(global.partitions.size()) > spec_.max_partitions) {
      throw InvalidInputError(
          "{} would create more than {} partitions (the limit of one statement); raise it with "
          "SET partitioned_write_max_partitions = n, or partition by fewer distinct values",
          spec_.statement, spec_.max_partitions);
    }
    number = global.next_file[partition]++;
  }
  OpenWriter writer;
  writer.file_name = spec_.file_prefix + std::to_string(number) + ".parquet";
  fs::path dir = fs::path(spec_.directory);
  if (!partition.empty()) dir /= partition;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IOError("cannot create the directory '{}': {}", dir.string(), ec.message());
  writer.writer = std::make_unique<parquet::ParquetWriter>((dir / writer.file_name).string(),
                                                           data_names_, data_types_, spec_.options);
  writer.last_use = ++local.clock;
  writer.buffered = MemoryHold(&context.query().memory());
  return local.open.emplace(partition, std::move(writer)).first->second;
}

bool PhysicalParquetWrite::Sink(ExecutionContext& context, Batch& input,
                                GlobalSinkState& global_state, LocalSinkState& local_state) const {
  auto& global = static_cast<ParquetWriteGlobalState&>(global_state);
  auto& local = static_cast<LocalState&>(local_state);
  if (input.size() == 0) return true;
  context.CheckCancelled();
  if (!spec_.single_file.empty()) {
    std::lock_guard<std::mutex> lock(global.mutex);
    if (!global.single) {
      global.single = std::make_unique<parquet::ParquetWriter>(spec_.single_file, data_names_,
                                                               data_types_, spec_.options);
      global.single_buffered = MemoryHold(&context.query().memory());
    }
    global.single->Write(input);
    global.single_buffered.Set(static_cast<int64_t>(global.single->buffered_bytes()));
    return true;
  }
  if (spec_.partition_columns.empty()) {
    WriterFor(context, "", global, local).Write(input);
    return true;
  }
  // Rows grouped by the raw bytes of their partition values (cheaper than formatting every
  // row's path), in order of first appearance; the path is formatted once per group.
  std::unordered_map<std::string, size_t> group_of;
  std::vector<std::vector<uint32_t>> groups;
  std::string key;
  for (idx_t row = 0; row < input.size(); row++) {
    key.clear();
    for (idx_t column : spec_.partition_columns)
      AppendRawValue(input.column(column), row, key);
    auto [it, inserted] = group_of.emplace(key, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(static_cast<uint32_t>(row));
  }
  for (const auto& rows : groups) {
    const std::string partition =
        PartitionPathOf(input, spec_.partition_columns, spec_.names, rows[0]);
    Batch part(data_types_, rows.size());
    for (size_t c = 0; c < data_columns_.size(); c++) {
      part.column(c).CopyRows(input.column(data_columns_[c]), rows.data(), rows.size());
    }
    part.SetSize(rows.size());
    WriterFor(context, partition, global, local).Write(part);
  }
  return true;
}

void PhysicalParquetWrite::Combine(ExecutionContext&, GlobalSinkState& global_state,
                                   LocalSinkState& local_state) const {
  auto& global = static_cast<ParquetWriteGlobalState&>(global_state);
  auto& local = static_cast<LocalState&>(local_state);
  while (!local.open.empty())
    local.Close(local.open.begin());
  std::lock_guard<std::mutex> lock(global.mutex);
  for (auto& file : local.done)
    global.files.push_back(std::move(file));
  local.done.clear();
}

void PhysicalParquetWrite::Finalize(ExecutionContext&, GlobalSinkState& global_state) const {
  auto& global = static_cast<ParquetWriteGlobalState&>(global_state);
  if (spec_.single_file.empty()) return;
  // An empty result still makes a (row-less) file, so the schema can be read back.
  if (!global.single) {
    global.single = std::make_unique<parquet::ParquetWriter>(spec_.single_file, data_names_,
                                                             data_types_, spec_.options);
  }
  global.files.push_back(
      {"", fs::path(spec_.single_file).filename().string(), global.single->Close()});
  global.single.reset();
  global.single_buffered.Set(0);
}

std::vector<WrittenPartFile> PhysicalParquetWrite::TakeFiles(ExecutionContext& context,
                                                             const PhysicalOperator& op) {
  auto& global = static_cast<ParquetWriteGlobalState&>(context.sink_state(&op));
  std::vector<WrittenPartFile> files = std::move(global.files);
  std::sort(files.begin(), files.end(), [](const WrittenPartFile& a, const WrittenPartFile& b) {
    return a.partition != b.partition ? a.partition < b.partition : a.file_name < b.file_name;
  });
  return files;
}

}  // namespace shears
