#include "storage/hive/hive_listing.h"

#include <fnmatch.h>

#include <algorithm>

#include "common/error.h"
#include "common/string_util.h"
#include "storage/dataset.h"
#include "storage/hive/hive_partitioning.h"

namespace shears {

namespace {

bool IsHiddenName(std::string_view name) {
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (dir == ".") return std::string(name);  // relative globs name paths without "./"
  std::string path = dir;
  if (path.back() != '/') path += '/';
  path += name;
  return path;
}

/// The key=value directories one directory holds at a level.
struct LevelEntries {
  bool other = false;  // a plain directory or a data file where key=value directories are
  std::vector<std::pair<std::string, std::optional<std::string>>> directories;  // path, value
  std::string key;  // as spelled by the first one
  bool mixed_keys = false;
  bool any() const { return other || !directories.empty(); }
};

/// The entries of `dir` the level's glob component (`pattern`; null: a directory read whole,
/// hidden names skipped) matches, sorted out. Nullopt for a malformed escape (the caller
/// lists everything and reports it as it does).
std::optional<LevelEntries> ReadLevel(const std::string& dir, const std::string* pattern,
                                      uint64_t& directories_read) {
  LevelEntries level;
  const auto entries = ReadDirectory(dir, &directories_read);
  for (const DirectoryEntry& entry : *entries) {
    const bool matches = pattern ? ::fnmatch(pattern->c_str(), entry.name.c_str(), 0) == 0
                                 : !IsHiddenName(entry.name);
    if (!matches) continue;
    if (entry.kind == DirectoryEntry::kFile) {
      // A glob's directory component cannot name a file; a directory's data file beside
      // key=value directories breaks the layout.
      if (!pattern && IsDataFileName(entry.name)) level.other = true;
      continue;
    }
    if (entry.kind != DirectoryEntry::kDirectory) continue;
    if (!IsHiveLevel(entry.name)) {
      level.other = true;
      continue;
    }
    const size_t eq = entry.name.find('=');
    const std::string_view raw = std::string_view(entry.name).substr(eq + 1);
    std::string key;
    std::optional<std::string> value;
    try {
      key = HiveUnescape(std::string_view(entry.name).substr(0, eq));
      if (raw != kHiveNullPartition) value = HiveUnescape(raw);
    } catch (const InvalidInputError&) {
      return std::nullopt;
    }
    if (level.directories.empty()) {
      level.key = key;
    } else if (AsciiLower(key) != AsciiLower(level.key)) {
      level.mixed_keys = true;
    }
    level.directories.emplace_back(JoinPath(dir, entry.name), std::move(value));
  }
  return level;
}

}  // namespace

std::optional<HiveLevels> ReadHiveLevels(const std::string& root,
                                         const std::vector<std::string>& components) {
  for (const auto& component : components) {
    if (component.find("**") != std::string::npos) return std::nullopt;
  }
  HiveLevels levels;
  std::vector<HiveLevels::Leaf> frontier{{root, {}}};
  // Directory levels a glob can have: all its components but the file name's.
  const size_t max_depth = components.empty() ? 64 : components.size() - 1;
  size_t depth = 0;
  for (; depth < max_depth; depth++) {
    const std::string* pattern = components.empty() ? nullptr : &components[depth];
    // The first directory holding anything the level matches says whether the level is
    // key=value directories; only then are the others read (their names are the values).
    std::vector<std::optional<LevelEntries>> read(frontier.size());
    size_t deciding = 0;
    for (; deciding < frontier.size(); deciding++) {
      read[deciding] = ReadLevel(frontier[deciding].path, pattern, levels.directories_read);
      if (!read[deciding]) return std::nullopt;
      if (read[deciding]->any()) break;
    }
    if (deciding == frontier.size()) {
      if (depth == 0) return std::nullopt;
      break;  // nothing below: the frontier holds no files
    }
    const LevelEntries& first = *read[deciding];
    if (first.other || first.directories.empty()) {
      if (depth == 0) return std::nullopt;
      break;  // the frontier directories are the partition directories
    }
    const std::string key = first.key;
    for (const auto& earlier : levels.keys) {
      if (AsciiLower(earlier) == AsciiLower(key)) return std::nullopt;  // a key twice
    }
    std::vector<HiveLevels::Leaf> next;
    for (size_t d = 0; d < frontier.size(); d++) {
      if (!read[d]) read[d] = ReadLevel(frontier[d].path, pattern, levels.directories_read);
      if (!read[d]) return std::nullopt;
      const LevelEntries& entries = *read[d];
      if (entries.other || entries.mixed_keys) return std::nullopt;
      if (!entries.directories.empty() && AsciiLower(entries.key) != AsciiLower(key))
        return std::nullopt;
      for (const auto& [path, value] : entries.directories) {
        HiveLevels::Leaf leaf{path, frontier[d].values};
        leaf.values.push_back(value);
        next.push_back(std::move(leaf));
      }
    }
    levels.keys.push_back(key);
    std::sort(next.begin(), next.end(),
              [](const HiveLevels::Leaf& a, const HiveLevels::Leaf& b) { return a.path < b.path; });
    frontier = std::move(next);
  }
  if (levels.keys.empty()) return std::nullopt;
  if (depth == 64) return std::nullopt;  // deeper than any real layout (a symlink loop?)
  for (size_t c = depth; c < components.size(); c++)
    levels.file_pattern += (c > depth ? "/" : "") + components[c];
  levels.leaves = std::move(frontier);
  return levels;
}

std::vector<ListedFile> ListPartitionDirectory(const std::string& leaf,
                                               const std::string& file_pattern,
                                               const std::string& keys,
                                               uint64_t* directories_read) {
  const bool whole = file_pattern.empty();
  std::vector<ListedFile> files;
  const size_t prefix = leaf.size() + (leaf.back() == '/' ? 0 : 1);
  for (auto& file : ListTree(leaf, whole, directories_read)) {
    const std::string_view below = std::string_view(file.path).substr(prefix);
    if (whole) {
      const size_t slash = below.rfind('/');
      if (!IsDataFileName(slash == std::string_view::npos ? below : below.substr(slash + 1)))
        continue;
    } else if (::fnmatch(file_pattern.c_str(), std::string(below).c_str(), FNM_PATHNAME) != 0) {
      continue;
    }
    // Partition keys come from the levels above: a key=value directory below is another key.
    size_t start = 0;
    for (size_t slash; (slash = below.find('/', start)) != std::string_view::npos;
         start = slash + 1) {
      const std::string_view level = below.substr(start, slash - start);
      if (IsHiveLevel(level)) {
        throw InvalidInputError(
            "'{}' does not follow the dataset's Hive partition layout: its directory '{}' "
            "below the partition directory '{}' is a key=value level, but the partition keys "
            "are {}",
            file.path, level, leaf, keys);
      }
    }
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace shears
