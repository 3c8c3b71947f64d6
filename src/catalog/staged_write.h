#pragma once
// Atomic writes to managed tables. Files are written under DATA/staging/<id>/ (DATA is the
// database directory), then Publish records where they go in a manifest and renames them into
// the table's directory, then the caller commits the catalog (the commit point: queries read
// only the files the catalog lists, so renamed but uncommitted files are never visible), then
// Finish removes the staging directory. Any failure before Finish (an exception: the
// destructor; a crash: RecoverInterruptedWrites on the next open) deletes what was published.
//
// Writers hold DATA/staging.lock shared (flock) while they live; recovery takes it exclusive and
// does nothing when it cannot, so it never touches a write in progress, in any process.

#include <cstdint>
#include <string>
#include <vector>

namespace shears {

class Catalog;

class StagedWrite {
 public:
  /// Takes DATA/staging.lock shared and creates DATA/staging/<id>/. IOError when it cannot.
  explicit StagedWrite(const std::string& data_directory);
  ~StagedWrite();
  StagedWrite(const StagedWrite&) = delete;
  StagedWrite& operator=(const StagedWrite&) = delete;

  /// Where to write the files (below it, in their partition directories).
  const std::string& directory() const { return directory_; }
  /// Unique among writes; used in file names so published files never collide.
  const std::string& id() const { return id_; }

  /// Renames directory()/relative to target_root/relative for each path, after writing
  /// `table` and the final paths to the manifest. IOError naming the file on failure.
  void Publish(const std::string& table, const std::string& target_root,
               const std::vector<std::string>& relative_paths);
  /// Records in the manifest that target_root/relative (files the catalog lists now) are
  /// replaced by this write: after Finish they are deleted once kRetiredFileAgeNanos have
  /// passed (queries that started before the commit may still read them); after a crash,
  /// recovery deletes them when the catalog no longer lists them (the commit happened).
  void Retire(const std::string& table, const std::string& target_root,
              const std::vector<std::string>& relative_paths);
  /// Call right after the catalog committed: the write is done, the staging directory goes,
  /// the retired files are listed in DATA/retired/<id> for RemoveRetiredFiles.
  void Finish();

 private:
  void AppendToManifest(const std::string& table, const std::string& target_root,
                        const std::vector<std::string>& relative_paths);

  std::string data_directory_;
  std::string directory_;
  std::string id_;
  int lock_fd_ = -1;
  std::vector<std::string> published_;  // final paths, deleted unless Finish was called
  std::vector<std::string> retired_;    // deleted by Finish
  bool finished_ = false;
};

/// How long files an UPDATE or DELETE replaced stay on disk after its commit, for queries that
/// planned on the old file list.
inline constexpr int64_t kRetiredFileAgeNanos = int64_t{60} * 1000 * 1000 * 1000;

/// Deletes the files of DATA/retired/ lists written at least `min_age_nanos` ago (every new
/// StagedWrite and each open's recovery call it).
void RemoveRetiredFiles(const std::string& data_directory, int64_t min_age_nanos);

/// Deletes what writes interrupted by a crash left, when no write is in progress: staging
/// directories, the files they published that the catalog does not list, and directories under
/// DATA/tables/ that belong to no managed table.
void RecoverInterruptedWrites(Catalog& catalog, const std::string& data_directory);

/// Deletes a dropped managed table's directory (errors are ignored: the catalog no longer
/// lists it, and the next open's recovery retries).
void RemoveManagedFiles(const std::string& location);

/// DATA/tables/<name> for a managed table (the name escaped like a Hive value).
std::string ManagedTableLocation(const std::string& data_directory, const std::string& name);

}  // namespace shears
