#pragma once
// Spill files: where operators put what does not fit in memory_limit (hash aggregate
// partitions, ...).
//
// Files live in a subdirectory of temp_directory owned by this process,
// `shears-<pid>-<start time>`, created on the first spill and removed when the process
// exits. Each file is unlinked as soon as it is created, so the kernel frees its space when
// the file is closed: on success, on error, on cancel, and also when the process is killed.
// A killed process leaves at most its empty subdirectory, which RemoveTempLeftovers (called
// when a database is opened and before the first spill into a directory) deletes once no
// live process has that pid and start time.
//
// Space is counted per process against max_temp_directory_size; running out of it, or of
// disk (ENOSPC), is an OutOfMemoryError / IOError naming the directory.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shears {

/// The directory spill files go to when temp_directory is empty: `<database dir>/.tmp`, or
/// for an in-memory database the system's ($TMPDIR, else /tmp).
std::string DefaultTempDirectory(const std::string& database_directory);

/// Removes the subdirectories of `directory` left by shears processes that no longer run.
/// Errors are ignored (another process may be removing them too).
void RemoveTempLeftovers(const std::string& directory);

/// Bytes in spill files of this process now (all directories).
int64_t SpillBytesInUse();

/// Where a query spills: the directory and the space limit (0: the disk's).
struct SpillOptions {
  std::string directory;
  int64_t max_bytes = 0;
};

/// One spill file, append-only while written, then read by ranges (from several threads).
class SpillFile {
 public:
  /// Creates (and unlinks) a file in this process's subdirectory of options.directory.
  explicit SpillFile(const SpillOptions& options);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Appends bytes (buffered); throws when the space limit or the disk is exhausted.
  void Append(const void* data, size_t size);
  /// Writes the buffer out; the file's bytes [0, size()) are then readable.
  void Flush();
  /// Reads [offset, offset + size) of what was appended and flushed.
  void Read(uint64_t offset, void* out, size_t size) const;
  uint64_t size() const { return size_ + buffer_.size(); }

 private:
  void WriteOut(const void* data, size_t size);

  SpillOptions options_;
  int fd_ = -1;
  uint64_t size_ = 0;  // bytes written to the file
  std::vector<uint8_t> buffer_;
};

/// Spill statistics of one operator, for EXPLAIN ANALYZE.
struct SpillMetrics {
  std::atomic<uint64_t> bytes_written{0};
  std::atomic<uint64_t> files{0};
  std::atomic<uint64_t> partitions{0};
};

}  // namespace shears
