#pragma once
// Local file access. Every byte shears reads from a data file goes through RandomAccessFile,
// which counts it, so "bytes read" in EXPLAIN ANALYZE is what was really read.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shears {

class RandomAccessFile {
 public:
  /// Opens `path` for reading; throws IOError naming the path when it cannot.
  static std::unique_ptr<RandomAccessFile> Open(const std::string& path);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  /// Reads exactly `length` bytes at `offset`; throws CorruptFileError when the range lies
  /// past the end of the file and IOError when the read fails.
  void ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const;
  /// Bytes read through this handle so far.
  uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  RandomAccessFile(std::string path, int fd, uint64_t size);
  std::string path_;
  int fd_;
  uint64_t size_;
  mutable std::atomic<uint64_t> bytes_read_{0};
};

bool IsDirectory(const std::string& path);
bool PathExists(const std::string& path);
/// All regular files below `dir`, recursively, sorted by path; hidden files and those starting
/// with '_' or '.' (Spark/Hive markers such as _SUCCESS) are skipped.
std::vector<std::string> ListFilesRecursive(const std::string& dir);
/// Expands a glob pattern (`*`, `?`, `[...]`, and `**` for any depth); sorted.
std::vector<std::string> ExpandGlob(const std::string& pattern);

}  // namespace shears
