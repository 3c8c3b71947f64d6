#pragma once
// Spill files: where operators put what does not fit in memory_limit (hash aggregate
// partitions, ...).
//
// Files live in a subdirectory of temp_directory owned by this process,
// `shears-<pid>-<start time>-<host>`, created on the first spill and removed when the process
// exits. Each file is unlinked as soon as it is created, so the kernel frees its space when
// the file is closed: on success, on error, on cancel, and also when the process is killed.
// A killed process leaves at most its empty subdirectory, which RemoveTempLeftovers (called
// when a database is opened and before the first spill into a directory) deletes once no
// live process has that pid and start time. Other machines' subdirectories (a temp_directory
// on a shared file system) are left alone: a pid is only meaningful on its own host.
//
// Space is counted per process against max_temp_directory_size; running out of it, or of
// disk (ENOSPC), is an OutOfMemoryError / IOError naming the directory.
//
// Every kChecksumBlock bytes of a file have a CRC-32C, kept in memory (4 bytes per block) and
// checked by every read: bytes the disk or another process changed are an IOError naming the
// directory, never rows that parse into a wrong answer.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "execution/row_layout.h"

struct iovec;  // <sys/uio.h>

namespace shears {

/// The directory spill files go to when temp_directory is empty: `<database dir>/.tmp`, or
/// for an in-memory database the system's ($TMPDIR, else /tmp).
std::string DefaultTempDirectory(const std::string& database_directory);

/// Removes the subdirectories of `directory` left by shears processes that no longer run.
/// Errors are ignored (another process may be removing them too).
void RemoveTempLeftovers(const std::string& directory);

/// Names this process's spill subdirectories `name` instead of by pid, start time and host,
/// before the first spill. For the fuzz targets only, which spill into a directory of their own:
/// the pid and start time differ from run to run, and compared as strings they would reach
/// libFuzzer's dictionary and make two runs of one commit explore differently.
void UseFixedSpillSubdirectoryName(const std::string& name);

/// Bytes in spill files of this process now (all directories).
int64_t SpillBytesInUse();

/// Where a query spills: the directory and the space limit (0: the disk's).
struct SpillOptions {
  std::string directory;
  int64_t max_bytes = 0;
  /// When set, each file's write buffer counts against it (and is smaller under a small
  /// limit: kMaxBufferBytes, at most 1/64 of the limit, at least kMinBufferBytes).
  MemoryTracker* memory = nullptr;
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
  /// Writes the buffer out and frees it; the file's bytes [0, size()) are then readable.
  void Flush();
  /// Reads [offset, offset + size) of what was appended and flushed.
  void Read(uint64_t offset, void* out, size_t size) const;
  uint64_t size() const { return size_ + buffer_.size(); }

  /// Bytes per checksum. Small enough that reading a short segment reads little around it.
  static constexpr uint64_t kChecksumBlock = 8 << 10;
  static constexpr size_t kMaxBufferBytes = 1 << 20;
  static constexpr size_t kMinBufferBytes = 64 << 10;

 private:
  void WriteOut(const void* data, size_t size);
  /// Reads the file from `offset` into the buffers of parts[0..count) as it is on disk,
  /// without checking (parts are consumed).
  void ReadRaw(uint64_t offset, ::iovec* parts, int count) const;

  SpillOptions options_;
  int fd_ = -1;
  uint64_t size_ = 0;  // bytes written to the file
  std::vector<uint8_t> buffer_;
  size_t buffer_bytes_ = kMaxBufferBytes;  // appends are written out past this
  int64_t buffer_reserved_ = 0;            // of options_.memory, for the buffer
  std::vector<uint32_t> block_checksums_;  // of each whole kChecksumBlock written
  uint32_t open_block_checksum_ = 0;       // of the written bytes after the whole blocks
};

/// Where rows of one spill partition are in a spill file: (offset, bytes) segments.
using SpillSegments = std::vector<std::pair<uint64_t, uint64_t>>;

/// The bytes an aggregate state's SpilledState::write appended after its row, as read back.
class SpilledStateBytes {
 public:
  SpilledStateBytes(uint8_t* segment, size_t size, size_t& pos)
      : segment_(segment), size_(size), pos_(pos) {}
  /// The next `len` bytes (modifiable: a state may rewrite pointers inside them), skipping
  /// the padding AlignSpillBytes wrote for `align` (at most 16). Throws when the segment
  /// ends first.
  uint8_t* Take(size_t len, size_t align = 1);

 private:
  uint8_t* segment_;
  size_t size_;
  size_t& pos_;
};

/// Pads `out`, a spill segment being written from its first byte, with zeros up to a
/// multiple of `align` (at most 16): segments are read into 16-byte-aligned buffers, so
/// values taken at that position are aligned.
void AlignSpillBytes(std::vector<uint8_t>& out, size_t align);

/// An aggregate state in a spilled row that points into an arena (a kept string, collected
/// values, a sketch): `write` appends what it points to after the row, `read` points the
/// state of the row read back at those bytes (valid while the segment's buffer is; the row
/// is only combined into another or written again).
struct SpilledState {
  uint32_t offset;  // in the row
  void (*write)(const uint8_t* state, std::vector<uint8_t>& out);
  void (*read)(uint8_t* state, SpilledStateBytes& in);
};

/// Appends `row` of `layout` to `out`: its bytes, then the bytes of its valid strings, then
/// what `states` write.
void AppendSpilledRow(const RowLayout& layout, const uint8_t* row, std::vector<uint8_t>& out,
                      const std::vector<SpilledState>* states = nullptr);

/// Reads a segment of rows AppendSpilledRow wrote (its bytes counted against `memory` while
/// held) and calls fn(rows, n) for them in batches of at most kBatchSize: aligned copies
/// whose strings point into a buffer valid during fn. `states` as written.
template <typename Fn>
void ReadSpilledRows(const RowLayout& layout, const SpillFile& file,
                     const std::pair<uint64_t, uint64_t>& segment, MemoryTracker& memory, Fn&& fn,
                     const std::vector<SpilledState>* states = nullptr);

/// Spill statistics of one operator, for EXPLAIN ANALYZE.
struct SpillMetrics {
  std::atomic<uint64_t> bytes_written{0};
  std::atomic<uint64_t> files{0};
  std::atomic<uint64_t> partitions{0};
};

/// ParseSpilledRows' buffers; throws InternalError when the bytes do not parse.
class SpilledRowParser {
 public:
  SpilledRowParser(const RowLayout& layout, uint8_t* data, size_t size,
                   const std::vector<SpilledState>* states = nullptr);
  /// The next rows (at most kBatchSize) into rows[]; 0 at the end.
  idx_t Next(uint8_t** rows);

 private:
  const RowLayout& layout_;
  uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  std::vector<idx_t> string_columns_;
  const std::vector<SpilledState>* states_;
  std::vector<uint64_t> scratch_;
};

/// Reserves `bytes` of `memory` for its lifetime.
class SpillReadReservation {
 public:
  SpillReadReservation(MemoryTracker& memory, int64_t bytes);
  ~SpillReadReservation();
  SpillReadReservation(const SpillReadReservation&) = delete;
  SpillReadReservation& operator=(const SpillReadReservation&) = delete;

 private:
  MemoryTracker& memory_;
  int64_t bytes_;
};

template <typename Fn>
void ReadSpilledRows(const RowLayout& layout, const SpillFile& file,
                     const std::pair<uint64_t, uint64_t>& segment, MemoryTracker& memory, Fn&& fn,
                     const std::vector<SpilledState>* states) {
  SpillReadReservation reservation(memory, static_cast<int64_t>(segment.second));
  // 16-byte units: states' values are taken aligned (AlignSpillBytes).
  struct alignas(16) Unit {
    uint8_t bytes[16];
  };
  std::vector<Unit> buffer((segment.second + 15) / 16);
  auto* data = reinterpret_cast<uint8_t*>(buffer.data());
  file.Read(segment.first, data, segment.second);
  SpilledRowParser parser(layout, data, segment.second, states);
  uint8_t* rows[kBatchSize];
  while (idx_t n = parser.Next(rows))
    fn(rows, n);
}

}  // namespace shears
