#include "storage/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "storage/lru_cache.h"

namespace shears {

namespace fs = std::filesystem;

namespace {

int64_t MtimeNanos(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

FileIdentity IdentityOf(const struct stat& st) {
  return FileIdentity{static_cast<uint64_t>(st.st_size), MtimeNanos(st),
                      static_cast<uint64_t>(st.st_ino), static_cast<uint64_t>(st.st_dev)};
}

}  // namespace

bool RecentlyModified(int64_t mtime_ns) {
  // Two seconds covers the coarsest common stamps (FAT, some network file systems) and clocks
  // that disagree a little between a file server and this machine.
  constexpr int64_t kWindowNanos = 2'000'000'000;
  return mtime_ns > clock::WallNanos() - kWindowNanos;
}

std::optional<FileIdentity> StatIdentity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return IdentityOf(st);
}

std::unique_ptr<RandomAccessFile> RandomAccessFile::Open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IOError("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    throw IOError("cannot stat '{}': {}", path, std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IOError("'{}' is a directory, not a file", path);
  }
  return std::unique_ptr<RandomAccessFile>(new RandomAccessFile(path, fd, IdentityOf(st)));
}

RandomAccessFile::RandomAccessFile(std::string path, int fd, FileIdentity identity)
    : path_(std::move(path)), fd_(fd), identity_(identity) {}

RandomAccessFile::~RandomAccessFile() {
  ::close(fd_);
}

void RandomAccessFile::ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const {
  const uint64_t size = identity_.size;
  if (offset > size || length > size - offset) {
    throw CorruptFileError(
        "'{}': read of {} bytes at offset {} lies past the end of the file ({} bytes)", path_,
        length, offset, size);
  }
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IOError("read of '{}' failed: {}", path_, std::strerror(errno));
    }
    if (n == 0) throw IOError("'{}' ended early (was it truncated while being read?)", path_);
    done += static_cast<uint64_t>(n);
  }
  bytes_read_.fetch_add(length, std::memory_order_relaxed);
}

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

bool PathExists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

namespace {

bool IsHiddenName(std::string_view name) {
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

/// One recursive listing of a directory, hidden names included, as the cache keeps it.
struct Tree {
  struct File {
    ListedFile file;
    bool hidden = false;  // some name below the root starts with '.' or '_'
  };
  std::vector<File> files;  // sorted by path
  /// Every directory read, with its identity before it was read: the listing stays right
  /// while none of them changed.
  std::vector<std::pair<std::string, FileIdentity>> directories;
};

std::atomic<uint64_t>& directories_read_total() {
  static std::atomic<uint64_t> count{0};
  return count;
}
std::atomic<uint64_t> listings_reused{0};

// Cost = files + directories; a million entries is some 100 MB at most.
LruCache<Tree>& ListingCache() {
  static LruCache<Tree> cache(1'000'000);
  return cache;
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  std::string path = dir;
  if (path.empty() || path.back() != '/') path += '/';
  path += name;
  return path;
}

/// Lists a tree: directories are read one at a time by each of a few threads when there are
/// many (a Hive table has a directory per partition, thousands of them), each directory with
/// one getdents64 loop and one stat per file.
class TreeLister {
 public:
  Tree List(const std::string& root) {
    pending_.push_back({root, false, {}});
    Work(1);  // the root alone, to see how many directories there are
    const size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                            pending_.size() / kDirectoriesPerThread);
    std::vector<std::thread> workers;
    for (size_t t = 1; t < threads; t++) {
      try {
        workers.emplace_back([this] { Work(SIZE_MAX); });
      } catch (const std::system_error&) {
        break;  // no thread to spare: the ones started (and this one) read the rest
      }
    }
    Work(SIZE_MAX);
    for (auto& worker : workers)
      worker.join();
    if (error_) std::rethrow_exception(error_);
    Tree tree;
    for (auto& part : parts_) {
      std::move(part.files.begin(), part.files.end(), std::back_inserter(tree.files));
      std::move(part.directories.begin(), part.directories.end(),
                std::back_inserter(tree.directories));
    }
    std::sort(tree.files.begin(), tree.files.end(),
              [](const Tree::File& a, const Tree::File& b) { return a.file.path < b.file.path; });
    return tree;
  }

 private:
  static constexpr size_t kDirectoriesPerThread = 64;  // below this a thread costs more
  struct Pending {
    std::string path;
    bool hidden;
    // Device and inode of the directories above it: a symlink back to one of them is a loop.
    std::vector<std::pair<uint64_t, uint64_t>> ancestors;
  };

  // Takes up to `max_directories` directories, or until none is left and none is being read
  // (which could add more).
  void Work(size_t max_directories) {
    Tree part;
    std::vector<Pending> found;
    std::unique_lock<std::mutex> lock(mutex_);
    for (size_t taken = 0; taken < max_directories; taken++) {
      changed_.wait(lock, [&] { return !pending_.empty() || reading_ == 0 || error_; });
      if (pending_.empty() || error_) break;
      Pending dir = std::move(pending_.back());
      pending_.pop_back();
      reading_++;
      lock.unlock();
      found.clear();
      std::exception_ptr error;
      try {
        Read(dir, part, found);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      reading_--;
      if (error && !error_) error_ = error;
      for (auto& sub : found)
        pending_.push_back(std::move(sub));
      changed_.notify_all();
    }
    parts_.push_back(std::move(part));
  }

  void Read(const Pending& dir, Tree& tree, std::vector<Pending>& subdirectories) {
    const int fd = ::open(dir.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) throw IOError("cannot list directory '{}': {}", dir.path, std::strerror(errno));
    struct Closer {
      int fd;
      ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      throw IOError("cannot list directory '{}': {}", dir.path, std::strerror(errno));
    }
    const FileIdentity identity = IdentityOf(st);
    const std::pair<uint64_t, uint64_t> id(identity.device, identity.inode);
    if (std::find(dir.ancestors.begin(), dir.ancestors.end(), id) != dir.ancestors.end()) {
      return;  // a symlink loop
    }
    auto ancestors = dir.ancestors;
    ancestors.push_back(id);
    tree.directories.emplace_back(dir.path, identity);
    directories_read_total().fetch_add(1, std::memory_order_relaxed);
    alignas(8) char buffer[16384];
    while (true) {
      const ssize_t n = ::getdents64(fd, buffer, sizeof(buffer));
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        throw IOError("cannot list directory '{}': {}", dir.path, std::strerror(errno));
      }
      for (ssize_t pos = 0; pos < n;) {
        const auto* entry = reinterpret_cast<const struct dirent64*>(buffer + pos);
        pos += entry->d_reclen;
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..") continue;
        bool is_dir = entry->d_type == DT_DIR;
        bool is_file = false;
        uint64_t size = 0;
        if (!is_dir) {
          // A file needs its size; a symlink or an entry of unknown type (some file systems)
          // needs a stat to say what it is. Directories need none.
          struct stat entry_st;
          if (::fstatat(fd, entry->d_name, &entry_st, 0) != 0) continue;  // dangling
          is_dir = S_ISDIR(entry_st.st_mode);
          is_file = S_ISREG(entry_st.st_mode);
          size = static_cast<uint64_t>(entry_st.st_size);
        }
        const bool entry_hidden = dir.hidden || IsHiddenName(name);
        if (is_dir) {
          subdirectories.push_back({JoinPath(dir.path, name), entry_hidden, ancestors});
        } else if (is_file) {
          tree.files.push_back({ListedFile{JoinPath(dir.path, name), size}, entry_hidden});
        }
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Pending> pending_;
  size_t reading_ = 0;
  std::exception_ptr error_;
  std::vector<Tree> parts_;
};

bool StillCurrent(const Tree& tree) {
  for (const auto& [path, identity] : tree.directories) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !(IdentityOf(st) == identity)) return false;
  }
  return true;
}

std::shared_ptr<const Tree> ListTreeCached(const std::string& dir, uint64_t* directories_read) {
  if (auto cached = ListingCache().Find(dir)) {
    if (StillCurrent(*cached)) {
      listings_reused.fetch_add(1, std::memory_order_relaxed);
      return cached;
    }
  }
  auto tree = std::make_shared<Tree>(TreeLister().List(dir));
  if (directories_read) *directories_read += tree->directories.size();
  bool recent = false;
  for (const auto& [path, identity] : tree->directories)
    recent = recent || RecentlyModified(identity.mtime_ns);
  if (recent) {
    ListingCache().Erase(dir);  // may change unseen: list again next time
  } else {
    ListingCache().Put(dir, tree, tree->files.size() + tree->directories.size());
  }
  return tree;
}

bool HasGlobChars(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

}  // namespace

ListingCacheStats GetListingCacheStats() {
  return ListingCacheStats{directories_read_total().load(), listings_reused.load()};
}

std::vector<ListedFile> ListTree(const std::string& dir, bool skip_hidden,
                                 uint64_t* directories_read) {
  auto tree = ListTreeCached(dir, directories_read);
  std::vector<ListedFile> files;
  files.reserve(tree->files.size());
  for (const auto& file : tree->files) {
    if (!skip_hidden || !file.hidden) files.push_back(file.file);
  }
  return files;
}

std::vector<std::string> ListFilesRecursive(const std::string& dir) {
  std::vector<std::string> paths;
  for (auto& file : ListTree(dir, true))
    paths.push_back(std::move(file.path));
  return paths;
}

namespace {

/// One directory's entries as ReadDirectory's cache keeps them.
struct DirectoryListing {
  FileIdentity identity;  // of the directory before it was read
  std::vector<DirectoryEntry> entries;
};

LruCache<DirectoryListing>& DirectoryCache() {
  static LruCache<DirectoryListing> cache(1'000'000);  // cost: entries
  return cache;
}

}  // namespace

std::shared_ptr<const std::vector<DirectoryEntry>> ReadDirectory(const std::string& dir,
                                                                 uint64_t* directories_read) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) {
    throw IOError("cannot list directory '{}': {}", dir, std::strerror(errno));
  }
  const FileIdentity identity = IdentityOf(st);
  if (auto cached = DirectoryCache().Find(dir)) {
    if (cached->identity == identity) {
      listings_reused.fetch_add(1, std::memory_order_relaxed);
      return {cached, &cached->entries};
    }
  }
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw IOError("cannot list directory '{}': {}", dir, std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  auto listing = std::make_shared<DirectoryListing>();
  listing->identity = identity;
  directories_read_total().fetch_add(1, std::memory_order_relaxed);
  if (directories_read) ++*directories_read;
  // Large enough for a few thousand partition directories in two calls.
  std::vector<char> buffer(65536);
  while (true) {
    const ssize_t n = ::getdents64(fd, buffer.data(), buffer.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IOError("cannot list directory '{}': {}", dir, std::strerror(errno));
    }
    for (ssize_t pos = 0; pos < n;) {
      const auto* entry = reinterpret_cast<const struct dirent64*>(buffer.data() + pos);
      pos += entry->d_reclen;
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      DirectoryEntry out;
      out.name = std::string(name);
      if (entry->d_type == DT_DIR) {
        out.kind = DirectoryEntry::kDirectory;
      } else if (entry->d_type == DT_REG) {
        out.kind = DirectoryEntry::kFile;
      } else {
        struct stat entry_st;
        if (::fstatat(fd, entry->d_name, &entry_st, 0) == 0) {
          out.kind = S_ISDIR(entry_st.st_mode)   ? DirectoryEntry::kDirectory
                     : S_ISREG(entry_st.st_mode) ? DirectoryEntry::kFile
                                                 : DirectoryEntry::kOther;
        }
      }
      listing->entries.push_back(std::move(out));
    }
  }
  std::sort(listing->entries.begin(), listing->entries.end(),
            [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.name < b.name; });
  if (RecentlyModified(identity.mtime_ns)) {
    DirectoryCache().Erase(dir);  // may change unseen: read again next time
  } else {
    DirectoryCache().Put(dir, listing, listing->entries.size() + 1);
  }
  return {listing, &listing->entries};
}

namespace {
std::optional<ListedFile> FindFirstBelow(
    const std::string& dir, bool hidden, int depth,
    const std::function<bool(const std::string&, bool)>& accept) {
  if (depth > 40) return std::nullopt;  // a symlink loop
  DIR* handle = ::opendir(dir.c_str());
  if (!handle) return std::nullopt;
  std::vector<std::pair<std::string, unsigned char>> entries;
  while (dirent* entry = ::readdir(handle)) {
    std::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    entries.emplace_back(std::string(name), entry->d_type);
  }
  ::closedir(handle);
  std::sort(entries.begin(), entries.end());
  for (const auto& [name, type] : entries) {
    const std::string path = JoinPath(dir, name);
    const bool entry_hidden = hidden || IsHiddenName(name);
    struct stat st;
    bool is_dir = type == DT_DIR;
    bool is_file = type == DT_REG;
    if (!is_dir) {
      if (::stat(path.c_str(), &st) != 0) continue;  // dangling
      is_dir = S_ISDIR(st.st_mode);
      is_file = S_ISREG(st.st_mode);
    }
    if (is_dir) {
      if (auto found = FindFirstBelow(path, entry_hidden, depth + 1, accept)) return found;
    } else if (is_file && accept(path, entry_hidden)) {
      return ListedFile{path, static_cast<uint64_t>(st.st_size)};
    }
  }
  return std::nullopt;
}
}  // namespace

std::optional<ListedFile> FindFirstFile(
    const std::string& root, const std::function<bool(const std::string&, bool)>& accept) {
  return FindFirstBelow(root, false, 0, accept);
}

std::vector<ListedFile> ExpandGlob(const std::string& pattern) {
  if (!HasGlobChars(pattern)) {
    struct stat st;
    if (::stat(pattern.c_str(), &st) != 0) {
      throw IOError("no such file or directory: '{}'", pattern);
    }
    return {ListedFile{pattern, static_cast<uint64_t>(st.st_size)}};
  }
  // The fixed prefix before the first wildcard component is where listing starts.
  size_t first_wild = pattern.find_first_of("*?[");
  size_t slash = pattern.rfind('/', first_wild);
  std::string root = slash == std::string::npos ? "." : pattern.substr(0, slash);
  if (root.empty()) root = "/";
  std::vector<ListedFile> matches;
  if (!IsDirectory(root)) return matches;
  // "**" matches across directories; FNM_PATHNAME keeps "*" within one component. "dir/**/x"
  // also matches "dir/x" (zero directories, as DuckDB's and git's globs).
  const int flags = pattern.find("**") != std::string::npos ? 0 : FNM_PATHNAME;
  std::string zero_depth = pattern;
  for (size_t at = zero_depth.find("/**/"); at != std::string::npos; at = zero_depth.find("/**/")) {
    zero_depth.replace(at, 4, "/");
  }
  if (zero_depth == pattern) zero_depth.clear();
  for (auto& file : ListTree(root, false)) {
    if (slash == std::string::npos && file.path.rfind("./", 0) == 0) {
      file.path = file.path.substr(2);
    }
    if (::fnmatch(pattern.c_str(), file.path.c_str(), flags) == 0 ||
        (!zero_depth.empty() && ::fnmatch(zero_depth.c_str(), file.path.c_str(), flags) == 0)) {
      matches.push_back(std::move(file));
    }
  }
  return matches;  // ListTree's order; stripping "./" from every path keeps it
}

}  // namespace shears
