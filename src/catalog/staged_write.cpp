#include "catalog/staged_write.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "catalog/catalog.h"
#include "common/clock.h"
#include "common/error.h"
#include "storage/hive/hive_partitioning.h"

namespace shears {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifest = "manifest";

/// Opens (creating it) DATA/staging.lock, which writers hold shared and recovery exclusive.
int OpenLockFile(const std::string& data_directory) {
  const std::string path = (fs::path(data_directory) / "staging.lock").string();
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) throw IOError("cannot open the lock file '{}'", path);
  return fd;
}

std::string NewWriteId() {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{:x}-{}-{}", clock::WallNanos() / 1000, static_cast<long>(getpid()),
                     counter.fetch_add(1));
}

}  // namespace

std::string ManagedTableLocation(const std::string& data_directory, const std::string& name) {
  return (fs::path(data_directory) / "tables" / HiveEscape(name)).string();
}

StagedWrite::StagedWrite(const std::string& data_directory)
    : data_directory_(data_directory), id_(NewWriteId()) {
  RemoveRetiredFiles(data_directory, kRetiredFileAgeNanos);
  directory_ = (fs::path(data_directory) / "staging" / id_).string();
  // Shared: writers run side by side; waits while a recovery (exclusive) cleans up.
  lock_fd_ = OpenLockFile(data_directory);
  if (::flock(lock_fd_, LOCK_SH) != 0) {
    ::close(lock_fd_);
    throw IOError("cannot lock '{}/staging.lock'", data_directory);
  }
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) {
    ::close(lock_fd_);
    throw IOError("cannot create the staging directory '{}': {}", directory_, ec.message());
  }
}

StagedWrite::~StagedWrite() {
  std::error_code ec;
  if (!finished_) {
    for (const auto& path : published_)
      fs::remove(path, ec);
  }
  fs::remove_all(directory_, ec);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void StagedWrite::AppendToManifest(const std::string& table, const std::string& target_root,
                                   const std::vector<std::string>& relative_paths) {
  std::ofstream manifest(fs::path(directory_) / kManifest, std::ios::app);
  for (const auto& relative : relative_paths)
    manifest << table << '\t' << (fs::path(target_root) / relative).string() << '\n';
  manifest.flush();
  if (!manifest) throw IOError("cannot write the manifest of the staged write '{}'", directory_);
}

void StagedWrite::Retire(const std::string& table, const std::string& target_root,
                         const std::vector<std::string>& relative_paths) {
  // Recovery deletes a manifest's paths the catalog does not list: published files of a write
  // that never committed, and retired files of one that did.
  AppendToManifest(table, target_root, relative_paths);
  for (const auto& relative : relative_paths)
    retired_.push_back((fs::path(target_root) / relative).string());
}

void StagedWrite::Publish(const std::string& table, const std::string& target_root,
                          const std::vector<std::string>& relative_paths) {
  AppendToManifest(table, target_root, relative_paths);
  for (const auto& relative : relative_paths) {
    const fs::path from = fs::path(directory_) / relative;
    const fs::path to = fs::path(target_root) / relative;
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (!ec) fs::rename(from, to, ec);
    if (ec) throw IOError("cannot move '{}' to '{}': {}", from.string(), to.string(), ec.message());
    published_.push_back(to.string());
  }
}

void StagedWrite::Finish() {
  finished_ = true;
  if (retired_.empty()) return;
  // Queries that planned on the old file list (in this process or another) may still open
  // the retired files: they stay for a while, listed in DATA/retired/<id> with the time.
  const fs::path retired = fs::path(data_directory_) / "retired";
  std::error_code ec;
  fs::create_directories(retired, ec);
  const fs::path list = retired / id_;
  {
    std::ofstream out(list.string() + ".tmp");
    out << clock::WallNanos() << '\n';
    for (const auto& path : retired_)
      out << path << '\n';
    out.flush();
    if (!out) {  // no list: delete now rather than never
      for (const auto& path : retired_)
        fs::remove(path, ec);
      return;
    }
  }
  fs::rename(list.string() + ".tmp", list, ec);
}

void RemoveRetiredFiles(const std::string& data_directory, int64_t min_age_nanos) {
  std::error_code ec;
  const fs::path retired = fs::path(data_directory) / "retired";
  if (!fs::is_directory(retired, ec)) return;
  const int64_t now = clock::WallNanos();
  for (const auto& entry : fs::directory_iterator(retired, ec)) {
    std::ifstream in(entry.path());
    std::string line;
    int64_t since = 0;
    if (std::getline(in, line)) since = std::atoll(line.c_str());
    if (now - since < min_age_nanos) continue;
    while (std::getline(in, line)) {
      if (!line.empty()) fs::remove(line, ec);  // errors ignored: no table lists them
    }
    fs::remove(entry.path(), ec);
  }
}

void RemoveManagedFiles(const std::string& location) {
  std::error_code ec;
  fs::remove_all(location, ec);
}

void RecoverInterruptedWrites(Catalog& catalog, const std::string& data_directory) {
  std::error_code ec;
  const fs::path staging = fs::path(data_directory) / "staging";
  const fs::path tables = fs::path(data_directory) / "tables";
  if (!fs::exists(staging, ec) && !fs::exists(tables, ec)) return;  // never written to
  const int fd = OpenLockFile(data_directory);
  // A writer alive (in this or another process) holds the lock shared: leave everything to a
  // later open then.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return;
  }
  // Every staging directory is a dead write: keep what the catalog committed, delete the rest.
  for (const auto& entry : fs::directory_iterator(staging, ec)) {
    std::map<std::string, std::vector<std::string>> published;
    std::ifstream manifest(entry.path() / kManifest);
    std::string line;
    while (std::getline(manifest, line)) {
      const size_t tab = line.find('\t');
      if (tab != std::string::npos) published[line.substr(0, tab)].push_back(line.substr(tab + 1));
    }
    for (const auto& [table_name, paths] : published) {
      std::set<std::string> listed;
      if (auto table = catalog.FindTable(table_name)) {
        for (const auto& partition : table->partitions) {
          for (const auto& file : partition.files)
            listed.insert((fs::path(table->location) / file.path).string());
        }
      }
      for (const auto& path : paths) {
        if (!listed.count(path)) fs::remove(path, ec);
      }
    }
    fs::remove_all(entry.path(), ec);
  }
  RemoveRetiredFiles(data_directory, kRetiredFileAgeNanos);
  // Directories of tables whose CREATE never committed or whose DROP did not finish deleting.
  std::set<std::string> owned;
  for (const auto& location : catalog.ManagedLocations())
    owned.insert(fs::path(location).lexically_normal().string());
  for (const auto& entry : fs::directory_iterator(tables, ec)) {
    if (!owned.count(entry.path().lexically_normal().string())) fs::remove_all(entry.path(), ec);
  }
  ::close(fd);
}

}  // namespace shears
