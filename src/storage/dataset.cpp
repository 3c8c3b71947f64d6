#include "storage/dataset.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "common/error.h"
#include "common/file_format.h"
#include "common/parallel_for.h"
#include "common/string_util.h"
#include "storage/csv/csv_options.h"
#include "storage/file_statistics.h"
#include "storage/file_system.h"
#include "storage/hive/hive_listing.h"
#include "storage/hive/hive_partitioning.h"
#include "storage/memory_table.h"
#include "storage/parquet/parquet_file.h"

namespace shears {

bool IsDataFileName(std::string_view name) {
  auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return ends_with(".parquet") || ends_with(".parq") || name.find('.') == std::string_view::npos;
}

std::optional<LogicalType> WidenColumnTypes(const LogicalType& a, const LogicalType& b) {
  if (a == b) return a;
  auto is_int = [](const LogicalType& t) {
    return t.id() == TypeId::kInteger || t.id() == TypeId::kBigint;
  };
  if (is_int(a) && is_int(b)) return LogicalType::Bigint();
  if (a.id() == TypeId::kDecimal && b.id() == TypeId::kDecimal) {
    int scale = std::max(a.scale(), b.scale());
    int integer_digits = std::max(a.precision() - a.scale(), b.precision() - b.scale());
    if (integer_digits + scale > LogicalType::kMaxDecimalPrecision) return std::nullopt;
    return LogicalType::Decimal(integer_digits + scale, scale);
  }
  return std::nullopt;
}

namespace {

bool HasGlobChars(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

std::string_view BaseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string StripTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/')
    path.pop_back();
  return path;
}

std::string RelativePath(const std::string& path, const std::string& root) {
  if (root == "/") return path.substr(path.find_first_not_of('/'));
  if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
      path[root.size()] == '/') {
    return path.substr(root.size() + 1);
  }
  return path;  // root "." with paths already relative to it
}

/// Directory levels of a relative path (the file name excluded).
std::vector<std::string_view> DirectoryLevels(std::string_view relative) {
  std::vector<std::string_view> levels;
  size_t last_slash = relative.rfind('/');
  if (last_slash == std::string_view::npos) return levels;
  std::string_view dirs = relative.substr(0, last_slash);
  while (!dirs.empty()) {
    size_t slash = dirs.find('/');
    std::string_view level = dirs.substr(0, slash);
    dirs = slash == std::string_view::npos ? std::string_view() : dirs.substr(slash + 1);
    if (!level.empty() && level != ".") levels.push_back(level);
  }
  return levels;
}

std::string JoinKeys(const std::vector<HiveKeyValue>& kvs) {
  std::string out = "[";
  for (size_t i = 0; i < kvs.size(); i++) {
    if (i) out += ", ";
    out += kvs[i].key;
  }
  return out + "]";
}

/// A file column while the schema is being unified.
struct ColumnState {
  DatasetColumn column;
  std::string first_file;   // where the column was first seen
  std::string type_source;  // the file that gave the column its current type
};

struct ListedFiles {
  std::string root;
  std::vector<std::string> paths;
  std::vector<uint64_t> sizes;  // one per path
};

ListedFiles ListDatasetFiles(const std::string& path_or_glob, bool first_file_only,
                             bool (*is_data_file)(std::string_view) = IsDataFileName,
                             const char* kind = nullptr) {
  ListedFiles listed;
  std::vector<ListedFile> files;
  if (HasGlobChars(path_or_glob) && first_file_only) {
    // As ExpandGlob matches, from the same root, but only up to the first match.
    size_t first_wild = path_or_glob.find_first_of("*?[");
    size_t slash = path_or_glob.rfind('/', first_wild);
    std::string root = slash == std::string::npos ? "." : path_or_glob.substr(0, slash);
    if (root.empty()) root = "/";
    const int flags = path_or_glob.find("**") != std::string::npos ? 0 : FNM_PATHNAME;
    const bool relative = slash == std::string::npos;
    auto found = FindFirstFile(root, [&](const std::string& path, bool) {
      const std::string name = relative && path.rfind("./", 0) == 0 ? path.substr(2) : path;
      return ::fnmatch(path_or_glob.c_str(), name.c_str(), flags) == 0;
    });
    if (!found) throw IOError("no files match '{}'", path_or_glob);
    if (relative && found->path.rfind("./", 0) == 0) found->path = found->path.substr(2);
    files.push_back(std::move(*found));
    listed.root = root;
  } else if (HasGlobChars(path_or_glob)) {
    files = ExpandGlob(path_or_glob);
    if (files.empty()) throw IOError("no files match '{}'", path_or_glob);
    // Same root ExpandGlob lists from: the directory part before the first wildcard.
    size_t first_wild = path_or_glob.find_first_of("*?[");
    size_t slash = path_or_glob.rfind('/', first_wild);
    listed.root = slash == std::string::npos ? "." : path_or_glob.substr(0, slash);
    if (listed.root.empty()) listed.root = "/";
  } else if (IsDirectory(path_or_glob)) {
    listed.root = StripTrailingSlashes(path_or_glob);
    if (first_file_only) {
      auto found = FindFirstFile(listed.root, [&](const std::string& path, bool hidden) {
        return !hidden && is_data_file(BaseName(path));
      });
      if (found) files.push_back(std::move(*found));
    } else {
      for (auto& file : ListTree(listed.root, true)) {
        if (is_data_file(BaseName(file.path))) files.push_back(std::move(file));
      }
    }
    if (files.empty() && kind) {
      throw IOError("directory '{}' holds no {} files", path_or_glob, kind);
    }
    if (files.empty()) {
      bool csv = false;
      for (const auto& file : ListTree(listed.root, true))
        csv = csv || IsCsvFileName(BaseName(file.path));
      throw IOError(
          "directory '{}' holds no Parquet files (names ending in .parquet or .parq, or "
          "without extension){}",
          path_or_glob,
          csv ? fmt::format("; it holds CSV files: read_csv('{}')", path_or_glob) : "");
    }
  } else if (PathExists(path_or_glob)) {
    files = ExpandGlob(path_or_glob);  // the file itself, with its size
    std::string parent = std::filesystem::path(path_or_glob).parent_path().string();
    listed.root = parent.empty() ? "." : parent;
  } else {
    throw IOError("no such file or directory: '{}'", path_or_glob);
  }
  std::sort(files.begin(), files.end(),
            [](const ListedFile& a, const ListedFile& b) { return a.path < b.path; });
  for (auto& file : files) {
    listed.paths.push_back(std::move(file.path));
    listed.sizes.push_back(file.size);
  }
  return listed;
}

/// The key=value levels of every file, checked against the layout of the first file.
std::vector<std::vector<HiveKeyValue>> ParseLayout(const std::vector<std::string>& paths,
                                                   const std::string& root) {
  std::vector<std::vector<HiveKeyValue>> result;
  result.reserve(paths.size());
  // Per depth: the first file with a key=value level there and the first with a plain one.
  struct DepthUse {
    int hive_file = -1, plain_file = -1;
    std::string hive_level, plain_level;
  };
  std::vector<DepthUse> depths;
  for (size_t i = 0; i < paths.size(); i++) {
    std::string relative = RelativePath(paths[i], root);
    std::vector<HiveKeyValue> kvs;
    try {
      kvs = ParseHivePath(relative);
    } catch (const InvalidInputError& e) {
      throw InvalidInputError("'{}': {}", paths[i], e.what());
    }
    const auto& expected = result.empty() ? kvs : result.front();
    bool same_keys = kvs.size() == expected.size();
    for (size_t k = 0; same_keys && k < kvs.size(); k++) {
      same_keys = AsciiLower(kvs[k].key) == AsciiLower(expected[k].key);
    }
    if (!same_keys) {
      throw InvalidInputError(
          "'{}' does not follow the dataset's Hive partition layout: its partition keys are {} "
          "but {} are expected (as in '{}')",
          paths[i], JoinKeys(kvs), JoinKeys(expected), paths.front());
    }
    std::unordered_set<std::string> seen;
    for (const auto& kv : kvs) {
      if (!seen.insert(AsciiLower(kv.key)).second) {
        throw InvalidInputError("'{}' has the Hive partition key '{}' twice", paths[i], kv.key);
      }
    }
    auto levels = DirectoryLevels(relative);
    if (depths.size() < levels.size()) depths.resize(levels.size());
    for (size_t d = 0; d < levels.size(); d++) {
      DepthUse& use = depths[d];
      bool hive = IsHiveLevel(levels[d]);
      int& file = hive ? use.hive_file : use.plain_file;
      if (file < 0) {
        file = static_cast<int>(i);
        (hive ? use.hive_level : use.plain_level) = std::string(levels[d]);
      }
      if (use.hive_file >= 0 && use.plain_file >= 0) {
        throw InvalidInputError(
            "'{}' does not follow the dataset's Hive partition layout (partition keys {}): "
            "directory level {} is '{}' in '{}' but '{}' in '{}'; key=value and plain "
            "directories cannot be mixed at one level",
            paths[i], JoinKeys(result.empty() ? kvs : result.front()), d + 1, use.hive_level,
            paths[use.hive_file], use.plain_level, paths[use.plain_file]);
      }
    }
    result.push_back(std::move(kvs));
  }
  return result;
}

}  // namespace

namespace {

/// The partition columns of `layout` (typed by inference or by options.partition_types), their
/// values appended to each file's partition_values.
std::vector<DatasetColumn> TypePartitions(const std::vector<std::vector<HiveKeyValue>>& layout,
                                          const DatasetOptions& options,
                                          const std::string& path_or_glob,
                                          std::vector<DatasetFile>& files) {
  const std::vector<HiveKeyValue> no_keys;
  const auto& keys = layout.empty() ? no_keys : layout.front();
  std::unordered_map<std::string, LogicalType> overrides;
  for (const auto& [name, type] : options.partition_types) {
    bool found = false;
    for (const auto& kv : keys)
      found = found || AsciiLower(kv.key) == AsciiLower(name);
    if (!found) {
      throw InvalidInputError(
          "a type is given for partition column '{}', but the partition "
          "columns of '{}' are {}",
          name, path_or_glob, JoinKeys(keys));
    }
    overrides[AsciiLower(name)] = type;
  }
  std::vector<DatasetColumn> columns;
  for (size_t k = 0; k < keys.size(); k++) {
    const std::string& name = keys[k].key;
    LogicalType type;
    auto over = overrides.find(AsciiLower(name));
    if (over != overrides.end()) {
      type = over->second;
    } else {
      std::vector<std::optional<std::string>> values;
      values.reserve(layout.size());
      for (const auto& kvs : layout)
        values.push_back(kvs[k].value);
      type = InferPartitionType(values);
    }
    for (size_t i = 0; i < files.size(); i++) {
      try {
        files[i].partition_values.push_back(ParsePartitionValue(layout[i][k].value, type, name));
      } catch (const InvalidInputError& e) {
        throw InvalidInputError("'{}': {}", files[i].path, e.what());
      }
    }
    DatasetColumn column;
    column.name = name;
    column.type = type;
    column.is_partition = true;
    columns.push_back(std::move(column));
  }
  return columns;
}

/// Whether the dataset at `root` has Hive partitions, and moves the root above key=value
/// levels the path itself names (".../year=2024/*.parquet").
bool DetectHive(ListedFiles& listed, const DatasetOptions& options) {
  if (options.hive_partitioning.value_or(true)) {
    while (listed.root != "/" && listed.root != "." && IsHiveLevel(BaseName(listed.root))) {
      std::string parent = std::filesystem::path(listed.root).parent_path().string();
      listed.root = parent.empty() ? "." : parent;
    }
  }
  if (options.hive_partitioning.has_value()) return *options.hive_partitioning;
  if (!options.partition_types.empty()) return true;
  for (const auto& path : listed.paths) {
    const std::string relative = RelativePath(path, listed.root);  // the levels view into it
    for (auto level : DirectoryLevels(relative)) {
      if (IsHiveLevel(level)) return true;
    }
  }
  return false;
}

/// What opening needs of a footer; the file itself (and its descriptor) is closed at once.
struct FooterSummary {
  uint64_t size = 0;
  int64_t num_rows = 0;
  std::shared_ptr<const parquet::ParquetFooter> footer;
};

/// Runs `fn(i)` for i in [0, count), on several threads when there are many (decoding
/// thousands of footers or listing thousands of partition directories is most of the time a
/// query over a large dataset spends before its first row).
void ForEachInParallel(size_t count, const std::function<void(size_t)>& fn) {
  constexpr size_t kItemsPerThread = 64;  // below this a thread costs more than it saves
  ParallelFor(count, std::max(1u, std::thread::hardware_concurrency()), kItemsPerThread, fn);
}

std::vector<FooterSummary> ReadFooters(const std::vector<std::string>& paths) {
  std::vector<FooterSummary> out(paths.size());
  ForEachInParallel(paths.size(), [&](size_t i) {
    auto file = parquet::ParquetFile::Open(paths[i]);
    out[i].size = file->file_size();
    out[i].num_rows = file->num_rows();
    out[i].footer = file->footer();
  });
  return out;
}

/// Identifies a partition by its values (NULL apart from the string "NULL").
std::string PartitionKey(const std::vector<Value>& values) {
  std::string key;
  for (const auto& v : values)
    key += (v.is_null() ? std::string("\x01NULL") : v.ToString()) + '\x1f';
  return key;
}

}  // namespace

Dataset::FileColumnSources Dataset::ReadFileColumns(const std::vector<std::string>& paths,
                                                    const std::vector<uint64_t>& sizes,
                                                    const DatasetOptions& options) {
  // Without union_by_name the first file's footer alone gives the schema; the scan reads the
  // others, for the files that survive pruning, and maps each to that schema when it opens it.
  const bool all_footers = options.read_all_footers || options.union_by_name.value_or(false);
  const bool union_by_name = options.union_by_name.value_or(true);
  const std::vector<FooterSummary> footers =
      ReadFooters(all_footers ? paths : std::vector<std::string>{paths.front()});
  std::vector<ColumnState> schema;
  FileColumnSources sources;
  auto& by_name = sources.by_name;  // lower-case name -> schema index
  std::vector<std::vector<std::pair<size_t, int>>> file_columns(footers.size());
  files_.resize(paths.size());
  for (size_t i = footers.size(); i < paths.size(); i++) {
    DatasetFile& df = files_[i];
    df.path = paths[i];
    df.size = sizes[i];
    df.num_rows = -1;  // until a scan opens it
  }
  lazy_ = !all_footers;
  missing_columns_are_null_ = union_by_name;
  schema_footer_ = footers.front().footer;
  schema_path_ = paths.front();
  mapped_.assign(paths.size(), all_footers ? 1 : 0);
  mapped_[0] = 1;
  for (size_t i = 0; i < footers.size(); i++) {
    const std::string& path = paths[i];
    DatasetFile& df = files_[i];
    df.path = path;
    df.size = footers[i].size;
    df.num_rows = footers[i].num_rows;
    std::unordered_set<size_t> matched;
    const auto& columns = footers[i].footer->columns;
    for (size_t c = 0; c < columns.size(); c++) {
      const parquet::ColumnDescriptor& desc = columns[c];
      std::string key = AsciiLower(desc.name);
      auto it = by_name.find(key);
      size_t index;
      if (it == by_name.end()) {
        if (!union_by_name && i > 0) {
          throw InvalidInputError(
              "'{}' has the column '{}', which '{}' does not have (enable union_by_name to "
              "combine files with different columns)",
              path, desc.name, paths.front());
        }
        index = schema.size();
        by_name.emplace(key, index);
        ColumnState state;
        state.column.name = desc.name;
        state.column.type = desc.type;
        state.first_file = path;
        state.type_source = path;
        schema.push_back(std::move(state));
      } else {
        index = it->second;
        if (matched.count(index)) {
          throw InvalidInputError(
              "'{}' has two columns named '{}' and '{}' (column names are case-insensitive)", path,
              schema[index].column.name, desc.name);
        }
        ColumnState& state = schema[index];
        if (desc.type.valid() && state.column.unsupported_reason.empty()) {
          auto widened = WidenColumnTypes(state.column.type, desc.type);
          if (!widened) {
            throw InvalidInputError(
                "column '{}' has type {} in '{}' but {} in '{}'; the files cannot be read as "
                "one dataset",
                state.column.name, state.column.type.ToString(), state.type_source,
                desc.type.ToString(), path);
          }
          if (!(*widened == state.column.type)) {
            state.column.type = *widened;
            state.type_source = path;
          }
        }
      }
      matched.insert(index);
      ColumnState& state = schema[index];
      if (!desc.type.valid() && state.column.unsupported_reason.empty()) {
        // One file storing the column unreadably makes the dataset column unreadable.
        std::string reason =
            desc.unsupported_reason.empty() ? "unsupported column type" : desc.unsupported_reason;
        if (reason.find(path) == std::string::npos) reason += " (in '" + path + "')";
        state.column.unsupported_reason = std::move(reason);
        state.column.type = LogicalType();
      }
      file_columns[i].emplace_back(index, static_cast<int>(c));
    }
    if (!union_by_name && matched.size() != schema.size()) {
      for (size_t s = 0; s < schema.size(); s++) {
        if (!matched.count(s)) {
          throw InvalidInputError(
              "'{}' lacks the column '{}' of '{}' (enable union_by_name to read missing "
              "columns as NULL)",
              path, schema[s].column.name, schema[s].first_file);
        }
      }
    }
  }

  for (size_t i = 0; i < footers.size(); i++) {
    auto& map = files_[i].column_map;
    map.assign(schema.size(), -1);
    for (auto [index, c] : file_columns[i])
      map[index] = c;
  }
  for (auto& state : schema) {
    sources.first_file.push_back(state.first_file);
    columns_.push_back(std::move(state.column));
  }
  // The footers read give each file's statistics, so a scan decides without opening it.
  std::vector<LogicalType> types;
  for (const auto& column : columns_)
    types.push_back(column.type);
  for (size_t i = 0; i < footers.size(); i++) {
    files_[i].statistics = FooterFileStatistics(*footers[i].footer, files_[i].column_map, types);
  }
  return sources;
}

void Dataset::CheckPartitionKeys(const std::vector<HiveKeyValue>& keys,
                                 const FileColumnSources& sources) const {
  for (size_t k = 0; k < keys.size(); k++) {
    const std::string& name = keys[k].key;
    auto clash = sources.by_name.find(AsciiLower(name));
    if (clash != sources.by_name.end()) {
      throw InvalidInputError(
          "the Hive partition key '{}' (directory '{}={}' of '{}') is also the column '{}' in "
          "'{}'; disable hive_partitioning or rename one of them",
          name, name, keys[k].value.value_or(std::string(kHiveNullPartition)), schema_path_,
          columns_[clash->second].name, sources.first_file[clash->second]);
    }
  }
}

std::shared_ptr<Dataset> Dataset::Open(const std::string& path_or_glob,
                                       const DatasetOptions& options) {
  if (options.lazy_listing && !options.first_file_only && !options.read_all_footers &&
      !options.union_by_name.value_or(false) && options.hive_partitioning.value_or(true)) {
    if (auto dataset = OpenHiveLazily(path_or_glob, options)) return dataset;
  }
  ListedFiles listed = ListDatasetFiles(path_or_glob, options.first_file_only);
  const auto& paths = listed.paths;
  const bool hive = DetectHive(listed, options);
  std::shared_ptr<Dataset> dataset(new Dataset());
  dataset->root_ = listed.root;
  std::vector<std::vector<HiveKeyValue>> layout;
  if (hive) layout = ParseLayout(paths, listed.root);
  const FileColumnSources sources = dataset->ReadFileColumns(paths, listed.sizes, options);
  // Partition columns: names from the first file, types inferred or given.
  const std::vector<HiveKeyValue> no_keys;
  const auto& keys = layout.empty() ? no_keys : layout.front();
  dataset->CheckPartitionKeys(keys, sources);
  for (auto& column : TypePartitions(layout, options, path_or_glob, dataset->files_))
    dataset->columns_.push_back(std::move(column));
  dataset->num_partition_columns_ = keys.size();
  dataset->IndexPartitions();
  return dataset;
}

std::shared_ptr<Dataset> Dataset::OpenHiveLazily(const std::string& path_or_glob,
                                                 const DatasetOptions& options) {
  std::string listing_root;
  std::vector<std::string> components;
  if (HasGlobChars(path_or_glob)) {
    const size_t first_wild = path_or_glob.find_first_of("*?[");
    const size_t slash = path_or_glob.rfind('/', first_wild);
    listing_root = slash == std::string::npos ? "." : path_or_glob.substr(0, slash);
    if (listing_root.empty()) listing_root = "/";
    std::string_view rest = std::string_view(path_or_glob).substr(slash + 1);
    while (true) {
      const size_t next = rest.find('/');
      components.emplace_back(rest.substr(0, next));
      if (components.back().empty()) return nullptr;  // "a//b", a trailing '/'
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
    }
    if (!IsDirectory(listing_root)) return nullptr;
  } else if (IsDirectory(path_or_glob)) {
    listing_root = StripTrailingSlashes(path_or_glob);
  } else {
    return nullptr;
  }
  std::optional<HiveLevels> levels = ReadHiveLevels(listing_root, components);
  if (!levels) return nullptr;
  // The root moves above key=value levels the path itself names, as DetectHive does.
  std::string root = listing_root;
  while (root != "/" && root != "." && IsHiveLevel(BaseName(root))) {
    std::string parent = std::filesystem::path(root).parent_path().string();
    root = parent.empty() ? "." : parent;
  }
  std::vector<HiveKeyValue> named;  // the levels the path names, the same for every file
  try {
    named = ParseHivePath(RelativePath(listing_root + "/-", root));
  } catch (const InvalidInputError&) {
    return nullptr;  // listed eagerly, which reports it
  }
  std::vector<HiveKeyValue> keys = named;
  for (const auto& key : levels->keys)
    keys.push_back({key, std::nullopt});
  std::unordered_set<std::string> seen;
  for (const auto& kv : keys) {
    if (!seen.insert(AsciiLower(kv.key)).second) return nullptr;
  }
  const std::string keys_text = JoinKeys(keys);

  // The first partition directory holding a file gives the schema.
  uint64_t directories_read = levels->directories_read;
  std::vector<ListedFile> first_files;
  size_t first_leaf = 0;
  for (; first_leaf < levels->leaves.size(); first_leaf++) {
    first_files = ListPartitionDirectory(levels->leaves[first_leaf].path, levels->file_pattern,
                                         keys_text, &directories_read);
    if (!first_files.empty()) break;
  }
  if (first_files.empty()) return nullptr;  // no file at all: reported as without lazy listing

  std::shared_ptr<Dataset> dataset(new Dataset());
  dataset->root_ = root;
  const FileColumnSources sources =
      dataset->ReadFileColumns({first_files.front().path}, {first_files.front().size}, options);
  // Each partition directory is typed as a file of the layout would be.
  std::vector<std::vector<HiveKeyValue>> layout;
  std::vector<DatasetFile> leaves(levels->leaves.size());
  for (size_t l = 0; l < levels->leaves.size(); l++) {
    std::vector<HiveKeyValue> kvs = named;
    for (size_t k = 0; k < levels->keys.size(); k++)
      kvs.push_back({levels->keys[k], levels->leaves[l].values[k]});
    layout.push_back(std::move(kvs));
    leaves[l].path = levels->leaves[l].path;
  }
  dataset->CheckPartitionKeys(layout[first_leaf], sources);
  for (auto& column : TypePartitions(layout, options, path_or_glob, leaves))
    dataset->columns_.push_back(std::move(column));
  dataset->num_partition_columns_ = keys.size();

  auto lazy = std::make_shared<LazyListing>();
  lazy->file_pattern = levels->file_pattern;
  lazy->keys = keys_text;
  lazy->schema_file = std::move(dataset->files_.front());
  dataset->files_.clear();
  // Partitions: the distinct values of the partition directories.
  std::unordered_map<std::string, uint32_t> index;
  auto partitions = std::make_shared<std::vector<std::vector<Value>>>();
  std::vector<uint32_t> partition_of_leaf;
  for (auto& leaf : leaves) {
    auto [it, inserted] = index.emplace(PartitionKey(leaf.partition_values),
                                        static_cast<uint32_t>(partitions->size()));
    if (inserted) {
      partitions->push_back(std::move(leaf.partition_values));
      lazy->directories.emplace_back();
    }
    lazy->directories[it->second].push_back(std::move(leaf.path));
    partition_of_leaf.push_back(it->second);
  }
  dataset->partitions_ = std::move(partitions);
  dataset->num_partitions_ = dataset->partitions_->size();
  // Estimates: every partition directory like the average of a few listed now, spread over
  // the partitions (the first alone can be unlike the others: a first day of one row). A
  // directory with a NULL (`__HIVE_DEFAULT_PARTITION__`) level holds the rows that lack the key,
  // which are often many more or fewer than a typical value's: few such directories are listed
  // and count as themselves, never as the average (TPC-DS's undated sales, 4.5% of the rows,
  // made one of five samples and the estimate of store_sales 14x too large).
  const size_t leaf_count = levels->leaves.size();
  auto is_null_leaf = [&](size_t l) {
    for (const auto& value : levels->leaves[l].values)
      if (!value) return true;
    return false;
  };
  // The directories listed now: the first, the NULL ones (when few), and a few samples.
  std::vector<std::optional<std::vector<ListedFile>>> listed(leaf_count);
  auto list = [&](size_t l) {
    try {
      listed[l] = ListPartitionDirectory(levels->leaves[l].path, levels->file_pattern, keys_text,
                                         &directories_read);
    } catch (const InvalidInputError&) {
      // breaks the layout: the scan that lists it reports it
    }
  };
  for (size_t l = 0; l < first_leaf; l++)
    listed[l].emplace();  // listed above: no files
  listed[first_leaf] = first_files;
  std::vector<size_t> regular;
  for (size_t l = first_leaf; l < leaf_count; l++) {
    if (!is_null_leaf(l)) regular.push_back(l);
  }
  constexpr size_t kMaxNullDirectories = 8;
  const bool nulls_apart = leaf_count - regular.size() <= kMaxNullDirectories && !regular.empty();
  if (nulls_apart) {
    for (size_t l = 0; l < leaf_count; l++) {
      if (is_null_leaf(l) && !listed[l]) list(l);
    }
  } else {
    regular.clear();
    for (size_t l = first_leaf; l < leaf_count; l++)
      regular.push_back(l);
  }
  std::vector<size_t> samples;  // beyond the first
  constexpr size_t kSampledDirectories = 4;
  for (size_t j = 1; j <= kSampledDirectories && regular.size() > 1; j++) {
    const size_t l = regular[j * (regular.size() - 1) / kSampledDirectories];
    if (listed[l]) continue;
    list(l);
    if (listed[l]) samples.push_back(l);
  }
  // Rows per byte from the schema file, unless it holds few rows and a sampled file is larger:
  // then from the largest such file's footer (one more read). A first day of one return row made
  // every other day of store_returns look 2.8 times smaller than it was (the plain width of a
  // row against 22 encoded bytes), and a fact-to-fact join built on the wrong side.
  std::unordered_map<std::string, int64_t> known_rows{
      {lazy->schema_file.path, lazy->schema_file.num_rows}};
  dataset->EstimateRowBytes(lazy->schema_file);
  constexpr int64_t kFewRows = 1000;
  const ListedFile* largest = nullptr;
  for (size_t l : samples) {
    for (const ListedFile& file : *listed[l])
      if (!largest || file.size > largest->size) largest = &file;
  }
  if (lazy->schema_file.num_rows < kFewRows && largest && largest->size > lazy->schema_file.size) {
    try {
      auto file = parquet::ParquetFile::Open(largest->path);
      dataset->EstimateRowBytes(file->file_size(), file->num_rows(), *file->footer());
      known_rows[largest->path] = file->num_rows();
    } catch (const Error&) {
      // a broken file is reported by the scan that reads it; keep the first file's estimate
    }
  }
  struct Listed {
    double rows = 0, bytes = 0;
  };
  auto measure = [&](size_t l) -> std::optional<Listed> {
    if (!listed[l]) return std::nullopt;
    Listed out;
    for (const ListedFile& file : *listed[l]) {
      out.bytes += static_cast<double>(file.size);
      auto known = known_rows.find(file.path);
      out.rows += static_cast<double>(
          known != known_rows.end() ? known->second : dataset->EstimatedRows(file.size));
    }
    return out;
  };
  std::vector<std::optional<Listed>> exact(leaf_count);  // directories counted as themselves
  for (size_t l = 0; l < leaf_count; l++)
    exact[l] = measure(l);
  Listed sampled_total;
  size_t sampled = 0;
  if (!is_null_leaf(first_leaf) || !nulls_apart) {
    sampled_total = *exact[first_leaf];
    sampled = 1;
  }
  for (size_t l : samples) {
    sampled_total.rows += exact[l]->rows;
    sampled_total.bytes += exact[l]->bytes;
    sampled++;
  }
  const double directory_rows = sampled ? sampled_total.rows / static_cast<double>(sampled) : 0;
  const double directory_bytes = sampled ? sampled_total.bytes / static_cast<double>(sampled) : 0;
  std::vector<int64_t> partition_rows(dataset->num_partitions_);
  double bytes = 0;
  for (size_t l = 0; l < leaf_count; l++) {
    const double rows = exact[l] ? exact[l]->rows : directory_rows;
    bytes += exact[l] ? exact[l]->bytes : directory_bytes;
    partition_rows[partition_of_leaf[l]] += static_cast<int64_t>(rows + 0.5);
    dataset->total_rows_ += static_cast<int64_t>(rows + 0.5);
  }
  dataset->estimated_bytes_ = static_cast<uint64_t>(bytes);
  dataset->ComputePartitionStatistics(partition_rows);
  dataset->directories_read_at_open_ = directories_read;
  dataset->lazy_listing_ = std::move(lazy);
  return dataset;
}

std::shared_ptr<const Dataset> Dataset::ListPartitions(std::shared_ptr<const Dataset> dataset,
                                                       const std::vector<uint8_t>& keep,
                                                       uint64_t* directories_read) {
  const LazyListing* lazy = dataset->lazy_listing_.get();
  if (!lazy) return dataset;
  std::vector<std::pair<std::string, uint32_t>> directories;  // and their partitions
  for (size_t p = 0; p < lazy->directories.size(); p++) {
    if (!keep[p]) continue;
    for (const auto& directory : lazy->directories[p])
      directories.emplace_back(directory, static_cast<uint32_t>(p));
  }
  // Many partitions (a full scan) are listed by a few threads, as footers are read.
  std::vector<std::vector<ListedFile>> listed(directories.size());
  std::vector<uint64_t> read(directories.size(), 0);
  ForEachInParallel(directories.size(), [&](size_t d) {
    listed[d] =
        ListPartitionDirectory(directories[d].first, lazy->file_pattern, lazy->keys, &read[d]);
  });
  std::shared_ptr<Dataset> out(new Dataset());
  out->root_ = dataset->root_;
  out->columns_ = dataset->columns_;
  out->num_partition_columns_ = dataset->num_partition_columns_;
  out->lazy_ = true;
  out->missing_columns_are_null_ = dataset->missing_columns_are_null_;
  out->schema_footer_ = dataset->schema_footer_;
  out->schema_path_ = dataset->schema_path_;
  out->rows_per_data_byte_ = dataset->rows_per_data_byte_;
  out->schema_footer_bytes_ = dataset->schema_footer_bytes_;
  out->partitions_ = dataset->partitions_;
  out->num_partitions_ = dataset->num_partitions_;
  out->partition_statistics_ = dataset->partition_statistics_;
  std::vector<std::pair<DatasetFile, uint32_t>> files;
  for (size_t d = 0; d < directories.size(); d++) {
    if (directories_read) *directories_read += read[d];
    for (auto& file : listed[d]) {
      DatasetFile df;
      if (file.path == lazy->schema_file.path) {
        df = lazy->schema_file;  // its footer is read: rows and column map known
      } else {
        df.path = std::move(file.path);
        df.size = file.size;
        df.num_rows = -1;
      }
      df.partition_values = (*out->partitions_)[directories[d].second];
      files.emplace_back(std::move(df), directories[d].second);
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.first.path < b.first.path; });
  out->mapped_.assign(files.size(), 0);
  for (auto& [file, partition] : files) {
    if (file.path == out->schema_path_) out->mapped_[out->files_.size()] = 1;
    out->files_.push_back(std::move(file));
    out->partition_of_file_.push_back(partition);
  }
  for (size_t i = 0; i < out->files_.size(); i++) {
    out->total_rows_ += out->estimated_rows(i);
    out->estimated_bytes_ += out->files_[i].size;
  }
  return out;
}

DatasetListing ListDataset(const std::string& path_or_glob, const DatasetOptions& options,
                           bool (*is_data_file)(std::string_view name), const char* kind) {
  ListedFiles listed = ListDatasetFiles(path_or_glob, false, is_data_file, kind);
  const bool hive = DetectHive(listed, options);
  DatasetListing out;
  out.root = listed.root;
  for (size_t i = 0; i < listed.paths.size(); i++) {
    DatasetFile file;
    file.path = listed.paths[i];
    file.size = listed.sizes[i];
    file.num_rows = -1;
    out.files.push_back(std::move(file));
  }
  std::vector<std::vector<HiveKeyValue>> layout;
  if (hive) layout = ParseLayout(listed.paths, listed.root);
  out.partition_columns = TypePartitions(layout, options, path_or_glob, out.files);
  return out;
}

void Dataset::IndexPartitions() {
  std::unordered_map<std::string, uint32_t> index;
  auto partitions = std::make_shared<std::vector<std::vector<Value>>>();
  partition_of_file_.resize(files_.size());
  for (size_t i = 0; i < files_.size(); i++) {
    auto [it, inserted] = index.emplace(PartitionKey(files_[i].partition_values),
                                        static_cast<uint32_t>(partitions->size()));
    if (inserted) partitions->push_back(files_[i].partition_values);
    partition_of_file_[i] = it->second;
  }
  num_partitions_ = partitions->size();
  partitions_ = std::move(partitions);
  if (lazy_ && !files_.empty()) EstimateRowBytes(files_[0]);
  total_rows_ = 0;
  estimated_bytes_ = 0;
  std::vector<int64_t> partition_rows(num_partitions_, 0);
  for (size_t i = 0; i < files_.size(); i++) {
    total_rows_ += estimated_rows(i);
    estimated_bytes_ += files_[i].size;
    partition_rows[partition_of_file_[i]] += estimated_rows(i);
  }
  ComputePartitionStatistics(partition_rows);
}

}  // namespace shears
