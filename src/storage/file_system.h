#pragma once
// Local file access. Every byte shears reads from a data file goes through RandomAccessFile,
// which counts it, so "bytes read" in EXPLAIN ANALYZE is what was really read.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shears {

/// What tells one version of a file from another without reading it: metadata caches trust
/// an entry only while the file still has the same identity (see RecentlyModified).
struct FileIdentity {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  bool operator==(const FileIdentity&) const = default;
};

/// Whether something last modified at `mtime_ns` may still change without its mtime moving:
/// file systems stamp times from a coarse clock (a few ms; seconds on some), so a write in the
/// same tick as an earlier one leaves size and mtime alike. Caches keep only entries older
/// than this window, as git does with its "racy" index entries.
bool RecentlyModified(int64_t mtime_ns);

/// The identity of `path` now (one stat, the file not opened); nullopt when it cannot be
/// stated or is not a regular file.
std::optional<FileIdentity> StatIdentity(const std::string& path);

class RandomAccessFile {
 public:
  /// Opens `path` for reading; throws IOError naming the path when it cannot.
  static std::unique_ptr<RandomAccessFile> Open(const std::string& path);
  ~RandomAccessFile();
  RandomAccessFile(const RandomAccessFile&) = delete;
  RandomAccessFile& operator=(const RandomAccessFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return identity_.size; }
  /// Size, mtime and inode when the file was opened.
  const FileIdentity& identity() const { return identity_; }
  /// Reads exactly `length` bytes at `offset`; throws CorruptFileError when the range lies
  /// past the end of the file and IOError when the read fails.
  void ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const;
  /// Bytes read through this handle so far.
  uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  RandomAccessFile(std::string path, int fd, FileIdentity identity);
  std::string path_;
  int fd_;
  FileIdentity identity_;
  mutable std::atomic<uint64_t> bytes_read_{0};
};

bool IsDirectory(const std::string& path);
bool PathExists(const std::string& path);
struct ListedFile {
  std::string path;
  uint64_t size = 0;
};

/// All regular files below `dir`, recursively (following directory symlinks, each directory
/// once), sorted by path, with their sizes; with `skip_hidden`, names starting with '_' or '.'
/// below `dir` (Spark/Hive markers such as _SUCCESS, hidden directories) are left out.
///
/// Listing reads each directory once (readdir) and stats only what it must: each file for its
/// size, symlinks and entries of unknown type for what they are. The tree is kept in a process
/// cache (ListingCacheStats) and reused while every directory in it still has its mtime and
/// inode: adding, removing or renaming a file changes its directory's mtime. A file rewritten
/// in place keeps its name, so the cached size may be stale; sizes serve estimates only, and
/// whatever reads a file checks its identity when opening it.
/// `directories_read` (optional) is increased by the directories read with readdir (none when
/// the cache answered).
std::vector<ListedFile> ListTree(const std::string& dir, bool skip_hidden,
                                 uint64_t* directories_read = nullptr);
/// ListTree's paths, hidden names skipped.
std::vector<std::string> ListFilesRecursive(const std::string& dir);
/// Expands a glob pattern (`*`, `?`, `[...]`, and `**` for any depth); sorted, with sizes.
std::vector<ListedFile> ExpandGlob(const std::string& pattern);

/// Some file below `root` (depth first, names in order, directory symlinks followed to a
/// bounded depth) that `accept(path, hidden)` takes (`hidden`: a name below `root` starts with
/// '.' or '_'), reading only the directories on the way to it; not cached. Checks that a
/// dataset has a file without listing it all (CREATE VIEW binds its query only to report
/// errors).
std::optional<ListedFile> FindFirstFile(
    const std::string& root, const std::function<bool(const std::string&, bool)>& accept);

/// One entry of a directory, as ReadDirectory gives it.
struct DirectoryEntry {
  enum Kind : uint8_t { kFile, kDirectory, kOther };
  std::string name;
  Kind kind = kOther;
};

/// The entries of `dir` (without "." and ".."), sorted by name: one readdir, and a stat only
/// for a symlink or an entry of unknown type (what it points to decides its kind; dangling:
/// kOther). Kept in a process cache as ListTree's listings are, reused while the directory has
/// the same mtime and inode. Throws IOError naming the directory when it cannot be read.
/// `directories_read` as for ListTree.
std::shared_ptr<const std::vector<DirectoryEntry>> ReadDirectory(
    const std::string& dir, uint64_t* directories_read = nullptr);

/// Counters of the process's listing cache, for tests and benchmarks.
struct ListingCacheStats {
  uint64_t directories_read = 0;  // directories read with readdir
  uint64_t listings_reused = 0;   // ListTree calls answered from the cache
};
ListingCacheStats GetListingCacheStats();

}  // namespace shears
