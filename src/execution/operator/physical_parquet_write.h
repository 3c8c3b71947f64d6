#pragma once
// PARQUET_WRITE: the sink of COPY ... TO, CREATE TABLE ... AS and INSERT. Writes its input to
// Parquet files, either all rows into one file, or into a directory in Hive layout
// (`col=value/` levels for the partition columns, which are not stored in the files).
//
// Directory mode writes in parallel: each thread keeps its own open writer per partition
// (as many as a quarter of the descriptor limit allows, at most kMaxOpenWritersPerThread;
// the least recently used one is closed when another is needed) and names its files from one
// counter, so no two threads share a file. Combine closes the thread's writers and hands their
// statistics to the global state.
// One-file mode has a single writer behind a lock, so an ORDER BY below keeps its order.

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "execution/physical_operator.h"
#include "execution/query_context.h"
#include "storage/parquet/parquet_writer.h"

namespace shears {

struct ParquetWriteSpec {
  std::vector<std::string> names;  // of the input columns
  /// Input columns that become directory levels, in level order; the rest go into the files.
  std::vector<idx_t> partition_columns;
  /// Also store the partition columns in the files (COPY's WRITE_PARTITION_COLUMNS).
  bool store_partition_columns = false;
  parquet::WriterOptions options;
  /// Directory mode: files go to directory/partition/<file_prefix><n>.parquet, n = 0, 1, ...
  /// in each partition directory.
  std::string directory;
  std::string file_prefix = "data_";
  /// One-file mode (when not empty): every row goes to this file.
  std::string single_file;
  /// Most partitions one statement may create (InvalidInputError beyond).
  int64_t max_partitions = 10000;
  std::string statement = "the write";  // names the statement in errors ("COPY", "INSERT")
};

/// One finished file: its partition directory ("" unpartitioned; "a=1/b=x"), its name, stats.
struct WrittenPartFile {
  std::string partition;
  std::string file_name;
  parquet::WrittenFile file;
};

struct ParquetWriteGlobalState : GlobalSinkState {
  std::mutex mutex;
  std::set<std::string> partitions;
  std::vector<WrittenPartFile> files;
  /// Next file number per partition directory: each starts at data_0, as DuckDB names them
  /// (so OVERWRITE_OR_IGNORE replaces the files a previous COPY wrote there).
  std::map<std::string, int64_t> next_file;
  std::unique_ptr<parquet::ParquetWriter> single;  // one-file mode
  MemoryHold single_buffered;                      // its row group, against memory_limit
};

class PhysicalParquetWrite : public PhysicalOperator {
 public:
  /// Open writers per thread: a quarter of the descriptor limit shared by the threads, within
  /// these bounds (the least recently used writer is closed beyond).
  static constexpr size_t kMinOpenWritersPerThread = 16;
  static constexpr size_t kMaxOpenWritersPerThread = 1024;

  /// `types`: the input's column types. Throws NotSupportedError for a BLOB partition column.
  PhysicalParquetWrite(std::vector<LogicalType> types, ParquetWriteSpec spec);

  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;
  std::string Describe() const override;

  /// The files written, after execution, sorted by partition and name.
  static std::vector<WrittenPartFile> TakeFiles(ExecutionContext& context,
                                                const PhysicalOperator& op);

 private:
  struct LocalState;
  struct OpenWriter;
  OpenWriter& WriterFor(ExecutionContext& context, const std::string& partition,
                        ParquetWriteGlobalState& global, LocalState& local) const;

  ParquetWriteSpec spec_;
  std::vector<idx_t> data_columns_;  // input columns stored in the files
  std::vector<std::string> data_names_;
  std::vector<LogicalType> data_types_;
};

/// The directory levels of row `row`: "a=1/b=x" (values Hive-escaped, NULL as
/// __HIVE_DEFAULT_PARTITION__).
std::string PartitionPathOf(const Batch& batch, const std::vector<idx_t>& partition_columns,
                            const std::vector<std::string>& names, idx_t row);

}  // namespace shears
