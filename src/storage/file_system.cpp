#include "storage/file_system.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"

namespace shears {

namespace fs = std::filesystem;

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
  return std::unique_ptr<RandomAccessFile>(
      new RandomAccessFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

RandomAccessFile::RandomAccessFile(std::string path, int fd, uint64_t size)
    : path_(std::move(path)), fd_(fd), size_(size) {}

RandomAccessFile::~RandomAccessFile() {
  ::close(fd_);
}

void RandomAccessFile::ReadAt(uint64_t offset, uint64_t length, uint8_t* out) const {
  if (offset > size_ || length > size_ - offset) {
    throw CorruptFileError(
        "'{}': read of {} bytes at offset {} lies past the end of the file ({} bytes)", path_,
        length, offset, size_);
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

static bool IsHiddenName(const std::string& name) {
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

std::vector<std::string> ListFilesRecursive(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::follow_directory_symlink, ec);
  if (ec) throw IOError("cannot list directory '{}': {}", dir, ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) throw IOError("cannot list directory '{}': {}", dir, ec.message());
    const auto name = it->path().filename().string();
    // Skip hidden names, but a Hive directory "_x=..." is unusual enough to keep the rule simple.
    if (IsHiddenName(name)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

static bool HasGlobChars(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

std::vector<std::string> ExpandGlob(const std::string& pattern) {
  if (!HasGlobChars(pattern)) {
    if (!PathExists(pattern)) throw IOError("no such file or directory: '{}'", pattern);
    return {pattern};
  }
  // The fixed prefix before the first wildcard component is where listing starts.
  size_t first_wild = pattern.find_first_of("*?[");
  size_t slash = pattern.rfind('/', first_wild);
  std::string root = slash == std::string::npos ? "." : pattern.substr(0, slash);
  if (root.empty()) root = "/";
  std::vector<std::string> matches;
  std::error_code ec;
  if (!IsDirectory(root)) return matches;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string path = it->path().string();
    if (slash == std::string::npos && path.rfind("./", 0) == 0) path = path.substr(2);
    // "**" matches across directories; FNM_PATHNAME keeps "*" within one component.
    std::string effective = pattern;
    int flags = FNM_PATHNAME;
    if (pattern.find("**") != std::string::npos) flags = 0;
    if (::fnmatch(effective.c_str(), path.c_str(), flags) == 0) matches.push_back(path);
  }
  std::sort(matches.begin(), matches.end());
  return matches;
}

}  // namespace shears
