#include "execution/spill.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/crc32c.h"
#include "common/error.h"
#include "execution/query_context.h"

namespace shears {

namespace {

std::atomic<int64_t> g_spill_bytes{0};
std::atomic<uint64_t> g_file_counter{0};

/// The start time of process `pid` (clock ticks since boot, /proc/PID/stat field 22): with the
/// pid it names a process uniquely, as pids are reused. Empty when there is no such process
/// or it has ended.
std::string ProcessStartTime(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  const size_t close = line.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return "";
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; i++) {
    // A killed process not yet reaped (zombie, dead) holds no files any more.
    if (i == 3 && (field == "Z" || field == "X")) return "";
    if (i == 22) return field;
  }
  return "";
}

/// This machine's name: a temp_directory on a shared file system holds other machines'
/// subdirectories too, and their pids say nothing about the processes here.
const std::string& HostName() {
  static const std::string name = [] {
    char buffer[256] = {};
    if (gethostname(buffer, sizeof(buffer) - 1) != 0) return std::string("localhost");
    std::string host(buffer);
    for (char& c : host) {
      if (c == '/' || c == '\\') c = '_';
    }
    return host.empty() ? std::string("localhost") : host;
  }();
  return name;
}

std::string& FixedSubdirectoryName() {
  static std::string name;
  return name;
}

std::string OwnSubdirectoryName() {
  static const std::string name = !FixedSubdirectoryName().empty()
                                      ? FixedSubdirectoryName()
                                      : "shears-" + std::to_string(getpid()) + "-" +
                                            ProcessStartTime(getpid()) + "-" + HostName();
  return name;
}

/// This process's subdirectories, removed at exit (their files are unlinked already).
class Subdirectories {
 public:
  ~Subdirectories() {
    for (const auto& [base, path] : paths_)
      rmdir(path.c_str());
  }
  std::string Get(const std::string& base) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = paths_.find(base);
    if (it != paths_.end()) return it->second;
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    if (ec) {
      throw IOError("cannot create temp_directory '{}' to spill to: {}", base, ec.message());
    }
    RemoveTempLeftovers(base);
    const std::string path = base + "/" + OwnSubdirectoryName();
    if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
      throw IOError("cannot create '{}' to spill to: {}", path, std::strerror(errno));
    }
    paths_.emplace(base, path);
    return path;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> paths_;
};

Subdirectories& OwnSubdirectories() {
  static Subdirectories subdirectories;
  return subdirectories;
}

std::string FormatMiB(int64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

}  // namespace

void UseFixedSpillSubdirectoryName(const std::string& name) {
  FixedSubdirectoryName() = name;
}

std::string DefaultTempDirectory(const std::string& database_directory) {
  if (!database_directory.empty()) return database_directory + "/.tmp";
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/shears";
}

void RemoveTempLeftovers(const std::string& directory) {
  std::error_code ec;
  std::filesystem::directory_iterator it(directory, ec);
  if (ec) return;
  const std::string own = OwnSubdirectoryName();
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) return;
    const std::string name = it->path().filename().string();
    if (name.rfind("shears-", 0) != 0 || name == own) continue;
    // shears-<pid>-<start time>-<host>; names without a host come from older versions,
    // which ran here.
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + 7, &end, 10);
    if (*end != '-' || pid <= 0) continue;
    const char* start = end + 1;
    const char* start_end = start;
    while (*start_end >= '0' && *start_end <= '9')
      start_end++;
    if (start_end == start || (*start_end != '\0' && *start_end != '-')) continue;
    if (*start_end == '-' && HostName() != start_end + 1) continue;        // another machine's
    if (ProcessStartTime(pid) == std::string(start, start_end)) continue;  // still running
    std::error_code ignored;
    std::filesystem::remove_all(it->path(), ignored);
  }
}

int64_t SpillBytesInUse() {
  return g_spill_bytes.load(std::memory_order_relaxed);
}

SpillFile::SpillFile(const SpillOptions& options) : options_(options) {
  if (options_.memory && options_.memory->limit() > 0) {
    buffer_bytes_ = std::clamp(static_cast<size_t>(options_.memory->limit() / 64), kMinBufferBytes,
                               kMaxBufferBytes);
  }
  const std::string dir = OwnSubdirectories().Get(options_.directory);
  const std::string path =
      dir + "/spill-" + std::to_string(g_file_counter.fetch_add(1, std::memory_order_relaxed));
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    throw IOError("cannot create spill file '{}' in temp_directory: {}", path,
                  std::strerror(errno));
  }
  // Gone from the directory at once: the space is freed when fd_ closes, however we end.
  unlink(path.c_str());
}

SpillFile::~SpillFile() {
  if (buffer_reserved_ > 0) options_.memory->Release(buffer_reserved_);
  if (fd_ >= 0) close(fd_);
  g_spill_bytes.fetch_sub(static_cast<int64_t>(size_), std::memory_order_relaxed);
}

void SpillFile::Append(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (buffer_.size() + size > buffer_bytes_) {
    if (!buffer_.empty()) WriteOut(buffer_.data(), buffer_.size());
    buffer_.clear();
    if (size >= buffer_bytes_) {
      WriteOut(bytes, size);
      return;
    }
  }
  if (buffer_.capacity() < buffer_bytes_) {
    if (options_.memory && buffer_reserved_ == 0) {
      options_.memory->Reserve(static_cast<int64_t>(buffer_bytes_));
      buffer_reserved_ = static_cast<int64_t>(buffer_bytes_);
    }
    buffer_.reserve(buffer_bytes_);
  }
  buffer_.insert(buffer_.end(), bytes, bytes + size);
}

void SpillFile::Flush() {
  if (!buffer_.empty()) WriteOut(buffer_.data(), buffer_.size());
  // A flushed file is usually done with: its buffer goes (a query may hold many files).
  std::vector<uint8_t>().swap(buffer_);
  if (buffer_reserved_ > 0) options_.memory->Release(buffer_reserved_);
  buffer_reserved_ = 0;
}

void SpillFile::WriteOut(const void* data, size_t size) {
  const int64_t now =
      g_spill_bytes.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed) +
      static_cast<int64_t>(size);
  if (options_.max_bytes > 0 && now > options_.max_bytes) {
    g_spill_bytes.fetch_sub(static_cast<int64_t>(size), std::memory_order_relaxed);
    throw OutOfMemoryError(
        "the query needs more than max_temp_directory_size = {} of spill files in "
        "temp_directory '{}'; raise it with SET max_temp_directory_size = '...' or raise "
        "memory_limit",
        FormatMiB(options_.max_bytes), options_.directory);
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = pwrite(fd_, bytes + done, size - done, static_cast<off_t>(size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      g_spill_bytes.fetch_sub(static_cast<int64_t>(size), std::memory_order_relaxed);
      if (error == ENOSPC || error == EDQUOT) {
        throw IOError(
            "no space left on the device of temp_directory '{}' while spilling ({} in spill "
            "files); free space there, SET temp_directory = '...' elsewhere or raise "
            "memory_limit",
            options_.directory, FormatMiB(SpillBytesInUse()));
      }
      throw IOError("cannot write a spill file in temp_directory '{}': {}", options_.directory,
                    std::strerror(error));
    }
    done += static_cast<size_t>(n);
  }
  // The checksums of what is now on disk, block by block.
  uint64_t position = size_;
  while (position < size_ + size) {
    const uint64_t take =
        std::min<uint64_t>(size_ + size - position, kChecksumBlock - position % kChecksumBlock);
    open_block_checksum_ = Crc32c(open_block_checksum_, bytes + (position - size_), take);
    position += take;
    if (position % kChecksumBlock == 0) {
      block_checksums_.push_back(open_block_checksum_);
      open_block_checksum_ = 0;
    }
  }
  size_ += size;
}

void SpillFile::ReadRaw(uint64_t offset, iovec* parts, int count) const {
  // One system call for the range and the rest of its checksum blocks (scattered).
  for (;;) {
    while (count > 0 && parts->iov_len == 0) {
      parts++;
      count--;
    }
    if (count == 0) return;
    const ssize_t n = preadv(fd_, parts, count, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw IOError("cannot read a spill file in temp_directory '{}': {}", options_.directory,
                    n < 0 ? std::strerror(errno) : "unexpected end of file");
    }
    offset += static_cast<uint64_t>(n);
    size_t done = static_cast<size_t>(n);
    while (count > 0 && done >= parts->iov_len) {
      done -= parts->iov_len;
      parts++;
      count--;
    }
    if (count > 0) {
      parts->iov_base = static_cast<uint8_t*>(parts->iov_base) + done;
      parts->iov_len -= done;
    }
  }
}

void SpillFile::Read(uint64_t offset, void* out, size_t size) const {
  SHEARS_CHECK(offset + size <= size_);
  if (size == 0) return;
  // The whole checksum blocks around the range: their head and tail go to scratch buffers,
  // the range itself straight to `out`.
  const uint64_t first_block = offset / kChecksumBlock;
  const uint64_t begin = first_block * kChecksumBlock;
  const uint64_t end = std::min<uint64_t>(
      size_, ((offset + size + kChecksumBlock - 1) / kChecksumBlock) * kChecksumBlock);
  uint8_t head[kChecksumBlock], tail[kChecksumBlock];
  const size_t head_size = offset - begin, tail_size = end - offset - size;
  iovec parts[3] = {{head, head_size}, {out, size}, {tail, tail_size}};
  ReadRaw(begin, parts, 3);
  uint64_t position = begin;
  uint64_t block = first_block;
  uint32_t checksum = 0;
  auto check = [&] {
    const uint32_t expected =
        block < block_checksums_.size() ? block_checksums_[block] : open_block_checksum_;
    if (checksum != expected) {
      throw IOError(
          "a spill file in temp_directory '{}' is corrupt: bytes {}..{} changed on disk since "
          "they were written (checksum mismatch); check the disk and the file system there",
          options_.directory, block * kChecksumBlock, position);
    }
    block++;
    checksum = 0;
  };
  auto feed = [&](const uint8_t* data, uint64_t n) {
    while (n > 0) {
      const uint64_t take = std::min<uint64_t>(n, kChecksumBlock - position % kChecksumBlock);
      checksum = Crc32c(checksum, data, take);
      position += take;
      data += take;
      n -= take;
      if (position % kChecksumBlock == 0) check();
    }
  };
  feed(head, head_size);
  feed(static_cast<const uint8_t*>(out), size);
  feed(tail, tail_size);
  if (position % kChecksumBlock != 0) check();  // the open block, up to the end of the file
}

uint8_t* SpilledStateBytes::Take(size_t len, size_t align) {
  const size_t start = (pos_ + align - 1) / align * align;
  if (start > size_ || size_ - start < len) throw InternalError("a spill file does not parse");
  pos_ = start + len;
  return segment_ + start;
}

void AlignSpillBytes(std::vector<uint8_t>& out, size_t align) {
  out.resize((out.size() + align - 1) / align * align, 0);
}

void AppendSpilledRow(const RowLayout& layout, const uint8_t* row, std::vector<uint8_t>& out,
                      const std::vector<SpilledState>* states) {
  out.insert(out.end(), row, row + layout.row_width);
  if (layout.has_strings) {
    for (idx_t c = 0; c < layout.types.size(); c++) {
      if (!layout.types[c].IsString() || !layout.IsValid(row, c)) continue;
      const auto s = LoadRow<StringRef>(row + layout.offsets[c]);
      if (s.len > 0) out.insert(out.end(), s.ptr, s.ptr + s.len);
    }
  }
  if (!states) return;
  for (const SpilledState& state : *states)
    state.write(row + state.offset, out);
}

SpilledRowParser::SpilledRowParser(const RowLayout& layout, uint8_t* data, size_t size,
                                   const std::vector<SpilledState>* states)
    : layout_(layout), data_(data), size_(size), states_(states) {
  for (idx_t c = 0; c < layout.types.size(); c++) {
    if (layout.types[c].IsString()) string_columns_.push_back(c);
  }
  scratch_.resize(kBatchSize * layout.row_width / sizeof(uint64_t) + 1);
}

idx_t SpilledRowParser::Next(uint8_t** rows) {
  const size_t width = layout_.row_width;
  auto corrupt = [] { return InternalError("a spill file does not parse"); };
  idx_t n = 0;
  while (n < kBatchSize && pos_ < size_) {
    if (size_ - pos_ < width) throw corrupt();
    uint8_t* row = reinterpret_cast<uint8_t*>(scratch_.data()) + n * width;
    std::memcpy(row, data_ + pos_, width);
    pos_ += width;
    for (idx_t c : string_columns_) {
      if (!layout_.IsValid(row, c)) continue;
      auto s = LoadRow<StringRef>(row + layout_.offsets[c]);
      if (size_ - pos_ < s.len) throw corrupt();
      s.ptr = s.len > 0 ? reinterpret_cast<const char*>(data_ + pos_) : "";
      pos_ += s.len;
      StoreRow<StringRef>(row + layout_.offsets[c], s);
    }
    if (states_) {
      SpilledStateBytes bytes(data_, size_, pos_);
      for (const SpilledState& state : *states_)
        state.read(row + state.offset, bytes);
    }
    rows[n++] = row;
  }
  return n;
}

SpillReadReservation::SpillReadReservation(MemoryTracker& memory, int64_t bytes)
    : memory_(memory), bytes_(bytes) {
  memory_.Reserve(bytes_);
}

SpillReadReservation::~SpillReadReservation() {
  memory_.Release(bytes_);
}

}  // namespace shears
