#pragma once
// Lazy listing of Hive directories: the key=value levels of a dataset are read one level at a
// time (names only, no stat), so their partition values are known without reading the
// partition directories themselves; a scan lists only the partitions that survive pruning
// (ListPartitionDirectory). Used by Dataset::Open with DatasetOptions::lazy_listing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/file_system.h"

namespace shears {

/// What the levels above the partition directories hold.
struct HiveLevels {
  /// One per key=value level below the listing root, as the directory names spell them.
  std::vector<std::string> keys;
  struct Leaf {
    std::string path;
    /// One per level (nullopt: NULL, `__HIVE_DEFAULT_PARTITION__`), percent-decoded.
    std::vector<std::optional<std::string>> values;
  };
  /// The directories of the last key=value level (the partition directories), by path.
  std::vector<Leaf> leaves;
  /// What a partition directory's files must match below it: glob components joined by '/',
  /// or empty for a directory (data files at any depth, hidden names skipped).
  std::string file_pattern;
  uint64_t directories_read = 0;
};

/// Reads the key=value levels below `root`. `components` are the glob's components below
/// `root` (the last one names files), or empty when `root` is a directory read whole.
/// nullopt when the levels are not uniformly key=value directories (some level mixes them
/// with plain directories or data files, a key repeats, a glob component is `**`, ...): the
/// caller then lists every file, as it would without lazy listing, and reports what is wrong.
std::optional<HiveLevels> ReadHiveLevels(const std::string& root,
                                         const std::vector<std::string>& components);

/// The files of partition directory `leaf`, sorted by path, with their sizes (listed through
/// ListTree's cache). `file_pattern` as HiveLevels has it. Throws InvalidInputError when one
/// of them lies below another key=value directory (`keys` names the dataset's partition keys
/// in the message).
std::vector<ListedFile> ListPartitionDirectory(const std::string& leaf,
                                               const std::string& file_pattern,
                                               const std::string& keys, uint64_t* directories_read);

}  // namespace shears
