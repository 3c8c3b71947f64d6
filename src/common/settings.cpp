#include "common/settings.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <thread>

#include "common/error.h"
#include "common/memory_policy.h"
#include "common/string_util.h"

namespace shears {

namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++)
    prev[j] = j;
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); j++) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

int DefaultThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

const SettingInfo* Find(const std::string& name) {
  for (const auto& info : Settings::All()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

}  // namespace

const std::vector<SettingInfo>& Settings::All() {
  static const std::vector<SettingInfo> kSettings = [] {
    std::vector<SettingInfo> s = {
        {"dynamic_filtering", LogicalType::Boolean(), Value::Boolean(true),
         "Master switch for dynamic partition pruning and runtime join filters."},
        {"dynamic_partition_pruning", LogicalType::Boolean(), Value::Boolean(true),
         "Prune partitions of a join's probe side with the keys its build side produced."},
        {"verify_dynamic_filters", LogicalType::Boolean(), Value::Boolean(false),
         "Run each query also with dynamic filtering off and fail on any difference."},
        {"dynamic_partition_pruning.fallback_filter_ratio", LogicalType::Double(),
         Value::Double(0.5),
         "Assumed fraction of partitions pruned when statistics cannot tell (benefit estimate)."},
        {"memory_limit", LogicalType::Bigint(), Value::Bigint(0),
         "Maximum memory a query may use, in bytes ('4GB' accepted); 0 means 80% of RAM."},
        {"allocator_retain_limit", LogicalType::Bigint(),
         Value::Bigint(memory_policy::DefaultRetainLimit()),
         "Free memory, in bytes ('512MiB' accepted), the allocator may keep for the next "
         "statement once none runs (default: an eighth of RAM); more goes back to the "
         "operating system when the last statement ends."},
        {"allocator_release_delay", LogicalType::Bigint(), Value::Bigint(10'000),
         "Milliseconds ('10s' accepted) without a statement running after which the free "
         "memory the allocator kept goes back to the operating system; 0 returns it when "
         "each statement ends."},
        {"temp_directory", LogicalType::Varchar(), Value::Varchar(""),
         "Where operators spill what does not fit in memory_limit; empty means DBDIR/.tmp for "
         "a database directory, else $TMPDIR/shears (/tmp/shears)."},
        {"max_temp_directory_size", LogicalType::Bigint(), Value::Bigint(0),
         "Most bytes of spill files this process may hold in temp_directory ('100GB' "
         "accepted); 0 means as much as the disk has."},
        {"statement_timeout", LogicalType::Bigint(), Value::Bigint(0),
         "Cancel a query running longer than this, in milliseconds ('30s', '5min' accepted); "
         "0 means no limit."},
        {"statement_batch_limit", LogicalType::Bigint(), Value::Bigint(0),
         "Cancel a query once its pipelines have processed this many batches (2,048 rows "
         "each): a bound on work that, unlike statement_timeout, does not depend on the "
         "machine's speed or load; 0 means no limit."},
        {"max_recursive_iterations", LogicalType::Bigint(), Value::Bigint(10000),
         "Most iterations a WITH RECURSIVE query may run before it fails (its recursive term "
         "still producing rows); 0 means no limit."},
        {"threads", LogicalType::Bigint(), Value::Bigint(DefaultThreads()),
         "Worker threads per query (default: all cores)."},
        {"default_null_order", LogicalType::Varchar(), Value::Varchar("nulls_last"),
         "Where ORDER BY puts NULLs without NULLS FIRST/LAST: nulls_last (DuckDB: last for ASC "
         "and DESC), nulls_first, postgres (NULLs sort as the largest value: last for ASC, first "
         "for DESC) or sqlite (as the smallest: first for ASC, last for DESC)."},
        {"write_result", LogicalType::Varchar(), Value::Varchar("rows"),
         "What COPY, CREATE TABLE AS and INSERT return: rows (one column, the rows written, as "
         "DuckDB's Count) or files (also the files and partitions written)."},
        {"lambda_syntax", LogicalType::Varchar(), Value::Varchar("default"),
         "DuckDB's setting for its lambda syntaxes: default, enable_single_arrow or "
         "disable_single_arrow; shears reads both x -> e and lambda x: e under each."},
        {"runtime_filter", LogicalType::Varchar(), Value::Varchar("auto"),
         "Runtime join filters: auto (when estimates say they pay), always, or off."},
        {"runtime_filter.max_build_size", LogicalType::Bigint(), Value::Bigint(4'000'000),
         "Largest build side (rows: estimated when planning, distinct keys at run time) that "
         "gets a runtime filter."},
        {"runtime_filter.min_probe_size", LogicalType::Bigint(), Value::Bigint(10'000),
         "Smallest probe-side scan (estimated rows) worth a runtime filter."},
        {"runtime_filter.min_filter_ratio", LogicalType::Double(), Value::Double(0.5),
         "Smallest estimated fraction of probe rows a runtime filter must drop to be planned."},
        {"runtime_filter.max_exact_keys", LogicalType::Bigint(), Value::Bigint(1024),
         "Build sides with at most this many distinct keys get an exact set instead of a bloom "
         "filter."},
        {"runtime_filter.min_drop_ratio", LogicalType::Double(), Value::Double(0.1),
         "A runtime filter dropping less than this fraction of the rows a scan thread tested "
         "(windows of 16,384) is paused; 0 never pauses."},
        {"runtime_filter.pause_rows", LogicalType::Bigint(), Value::Bigint(16 * 8 * 2048),
         "Rows a paused runtime filter lets pass untested before it is re-checked on one batch "
         "(resumed when that batch drops at least runtime_filter.min_drop_ratio)."},
        {"runtime_filter.statistics_transfer", LogicalType::Boolean(), Value::Boolean(true),
         "A join of two facts whose probe key follows the probe fact's partitioning bounds the "
         "build fact's scan by the key's ranges over the files the probe fact keeps (their "
         "statistics, merged into up to 64 ranges; the statistics transfer)."},
        {"runtime_filter.pruning_window", LogicalType::Bigint(), Value::Bigint(32),
         "Statistics checks (bloom filters and dictionaries of row groups, page indexes) a "
         "runtime filter makes at one level of a scan without pruning anything before that "
         "level is paused: then one split in 8 is checked, one in 16 after a sample that pruned "
         "nothing, and so on to one in 128; a sample that prunes resumes it; a dictionary check "
         "whose page the row group's reader then takes counts an eighth; 0 never pauses."},
        {"distributed.shuffle_groups", LogicalType::Bigint(), Value::Bigint(100'000),
         "Under shears --distributed: a GROUP BY estimated to give at least this many groups "
         "is finished on every rank, its partial groups shuffled by key over MPI_Alltoallv, "
         "rather than at rank 0; 0 shuffles every GROUP BY."},
        {"distributed.join_strategy", LogicalType::Varchar(), Value::Varchar("auto"),
         "Under shears --distributed: how joins over the split fact are run: auto (a shuffle "
         "join when the build side cannot be broadcast, or is estimated at "
         "distributed.shuffle_join_rows rows or more and at least the probe side's rows "
         "divided by the ranks; else broadcast), broadcast, or shuffle (every hash join that "
         "can be)."},
        {"distributed.shuffle_join_rows", LogicalType::Bigint(), Value::Bigint(1'000'000),
         "Under shears --distributed with distributed.join_strategy = auto: a join whose build "
         "side is estimated at fewer rows is a broadcast join (see distributed.join_strategy)."},
        {"distributed.timeout", LogicalType::Double(), Value::Double(60),
         "Under shears --distributed: seconds without a heartbeat from a rank (its process "
         "stopped, hung or died) before every other rank fails naming it (MPI has no timeout "
         "of its own); at least 1."},
        {"join_order.dp_limit", LogicalType::Bigint(), Value::Bigint(10),
         "Join trees of up to this many inputs are ordered by dynamic programming, larger ones "
         "greedily."},
        {"csv_chunk_bytes", LogicalType::Bigint(), Value::Bigint(8 << 20),
         "CSV files are parsed in parallel in byte ranges of this size (at least 4 times "
         "max_line_size)."},
        {"dictionary_filters", LogicalType::Boolean(), Value::Boolean(true),
         "Scan filters over dictionary-encoded Parquet columns (that cannot fail) are evaluated "
         "once per dictionary entry and rows kept by their codes."},
        {"late_materialization", LogicalType::Boolean(), Value::Boolean(true),
         "Scans with filters decode the filtered columns first and the others only for the rows "
         "that pass."},
        {"page_index_pruning", LogicalType::Boolean(), Value::Boolean(true),
         "Skip Parquet pages whose column index rules out the scan's predicates and runtime "
         "filters (read only the pages of the rows that can match)."},
        {"file_statistics_pruning", LogicalType::Boolean(), Value::Boolean(true),
         "Skip files whose statistics, known without opening them (the catalog's, or a cached "
         "footer's), rule out the scan's predicates and runtime filters."},
        {"partitioned_write_max_partitions", LogicalType::Bigint(), Value::Bigint(10'000),
         "Most partitions one COPY, CREATE TABLE AS or INSERT may create; more is an error."},
        {"disabled_optimizers", LogicalType::Varchar(), Value::Varchar(""),
         "Comma-separated optimizer rule names to skip (see EXPLAIN output for names)."},
    };
    std::sort(s.begin(), s.end(),
              [](const SettingInfo& a, const SettingInfo& b) { return a.name < b.name; });
    return s;
  }();
  return kSettings;
}

Settings::Settings() {
  for (const auto& info : All())
    values_[info.name] = info.default_value;
}

namespace {

/// '4 GB' -> {4, "gb"}: an unsigned decimal number, then a unit (lower case, spaces dropped).
/// False when the text does not start with such a number.
bool SplitNumberAndUnit(const std::string& text, double* number, std::string* unit) {
  std::string t = AsciiLower(text);
  t.erase(std::remove_if(t.begin(), t.end(), [](unsigned char c) { return std::isspace(c); }),
          t.end());
  size_t pos = 0;
  while (pos < t.size() && (std::isdigit(static_cast<unsigned char>(t[pos])) || t[pos] == '.'))
    pos++;
  const std::string digits = t.substr(0, pos);
  if (digits.empty() || digits == "." || std::count(digits.begin(), digits.end(), '.') > 1) {
    return false;
  }
  // strtod, not stod: 400 digits are out of range for stod but simply too large for the caller.
  *number = std::strtod(digits.c_str(), nullptr);
  *unit = t.substr(pos);
  return true;
}

}  // namespace

int64_t ParseByteSize(const std::string& text) {
  double number;
  std::string unit;
  if (!SplitNumberAndUnit(text, &number, &unit)) {
    throw InvalidInputError("'{}' is not a size (expected e.g. 4GB, 512MB)", text);
  }
  double factor;
  if (unit.empty() || unit == "b" || unit == "bytes") {
    factor = 1;
  } else if (unit == "kb" || unit == "k") {
    factor = 1e3;
  } else if (unit == "mb" || unit == "m") {
    factor = 1e6;
  } else if (unit == "gb" || unit == "g") {
    factor = 1e9;
  } else if (unit == "tb" || unit == "t") {
    factor = 1e12;
  } else if (unit == "kib") {
    factor = 1024.0;
  } else if (unit == "mib") {
    factor = 1024.0 * 1024;
  } else if (unit == "gib") {
    factor = 1024.0 * 1024 * 1024;
  } else if (unit == "tib") {
    factor = 1024.0 * 1024 * 1024 * 1024;
  } else {
    throw InvalidInputError("unknown size unit '{}' in '{}' (use B, KB, MB, GB, TB, KiB, MiB, GiB)",
                            unit, text);
  }
  // A double at or past 2^63 does not convert to int64_t (undefined behaviour): refuse it.
  if (!(number * factor < 0x1p63)) throw InvalidInputError("size '{}' is too large", text);
  return static_cast<int64_t>(number * factor);
}

int64_t ParseDurationMillis(const std::string& text) {
  double number;
  std::string unit;
  if (!SplitNumberAndUnit(text, &number, &unit)) {
    throw InvalidInputError("'{}' is not a duration (expected e.g. 500ms, 30s, 5min, 1h)", text);
  }
  double factor;
  if (unit.empty() || unit == "ms") {
    factor = 1;
  } else if (unit == "s" || unit == "sec") {
    factor = 1e3;
  } else if (unit == "min" || unit == "m") {
    factor = 60e3;
  } else if (unit == "h") {
    factor = 3600e3;
  } else {
    throw InvalidInputError("unknown duration unit '{}' in '{}' (use ms, s, min, h)", unit, text);
  }
  if (!(number * factor < 0x1p63)) throw InvalidInputError("duration '{}' is too long", text);
  return static_cast<int64_t>(number * factor);
}

void Settings::Set(const std::string& raw_name, const Value& value) {
  const std::string name = AsciiLower(raw_name);
  const SettingInfo* info = Find(name);
  if (!info) {
    std::string best;
    size_t best_distance = SIZE_MAX;
    for (const auto& s : All()) {
      size_t d = EditDistance(name, s.name);
      if (d < best_distance) best_distance = d, best = s.name;
    }
    throw InvalidInputError("unknown setting '{}'{}", raw_name,
                            best_distance <= 4 ? fmt::format(" (did you mean '{}'?)", best) : "");
  }
  if (value.is_null()) throw InvalidInputError("setting '{}' cannot be NULL", name);
  Value converted;
  const std::string text = value.type().IsString() ? value.GetString() : value.ToString();
  switch (info->type.id()) {
    case TypeId::kBoolean: {
      std::string t = AsciiLower(text);
      if (t == "true" || t == "on" || t == "1" || t == "yes") {
        converted = Value::Boolean(true);
      } else if (t == "false" || t == "off" || t == "0" || t == "no") {
        converted = Value::Boolean(false);
      } else {
        throw InvalidInputError("setting '{}' expects true or false, got '{}'", name, text);
      }
      break;
    }
    case TypeId::kBigint: {
      int64_t n;
      if (name == "memory_limit" || name == "max_temp_directory_size" ||
          name == "allocator_retain_limit") {
        n = ParseByteSize(text);
      } else if (name == "statement_timeout" || name == "allocator_release_delay") {
        n = ParseDurationMillis(text);
      } else {
        try {
          size_t used = 0;
          n = std::stoll(text, &used);
          if (used != text.size()) throw std::invalid_argument(text);
        } catch (const std::exception&) {
          throw InvalidInputError("setting '{}' expects an integer, got '{}'", name, text);
        }
      }
      if (n < 0) throw InvalidInputError("setting '{}' must not be negative, got {}", name, n);
      if (name == "threads" && n < 1)
        throw InvalidInputError("setting 'threads' must be at least 1");
      converted = Value::Bigint(n);
      break;
    }
    case TypeId::kDouble: {
      double d;
      try {
        size_t used = 0;
        d = std::stod(text, &used);
        if (used != text.size()) throw std::invalid_argument(text);
      } catch (const std::exception&) {
        throw InvalidInputError("setting '{}' expects a number, got '{}'", name, text);
      }
      if (name.find("ratio") != std::string::npos && !(d >= 0 && d <= 1)) {
        throw InvalidInputError("setting '{}' must be between 0 and 1, got {}", name, text);
      }
      if (name == "distributed.timeout" && !(d >= 1)) {
        throw InvalidInputError(
            "setting 'distributed.timeout' must be at least 1 (seconds), got {}", text);
      }
      converted = Value::Double(d);
      break;
    }
    default:
      converted = Value::Varchar(text);
      if (name == "runtime_filter") {
        const std::string mode = AsciiLower(text);
        if (mode != "auto" && mode != "always" && mode != "off") {
          throw InvalidInputError("setting 'runtime_filter' expects auto, always or off, got '{}'",
                                  text);
        }
        converted = Value::Varchar(mode);
      }
      if (name == "distributed.join_strategy") {
        const std::string mode = AsciiLower(text);
        if (mode != "auto" && mode != "broadcast" && mode != "shuffle") {
          throw InvalidInputError(
              "setting 'distributed.join_strategy' expects auto, broadcast or shuffle, got '{}'",
              text);
        }
        converted = Value::Varchar(mode);
      }
      if (name == "lambda_syntax") {
        const std::string syntax = AsciiLower(text);
        if (syntax != "default" && syntax != "enable_single_arrow" &&
            syntax != "disable_single_arrow") {
          throw InvalidInputError(
              "setting 'lambda_syntax' expects DEFAULT, ENABLE_SINGLE_ARROW or "
              "DISABLE_SINGLE_ARROW, got '{}'",
              text);
        }
        converted = Value::Varchar(syntax);
      }
      if (name == "write_result") {
        const std::string result = AsciiLower(text);
        if (result != "rows" && result != "files") {
          throw InvalidInputError("setting 'write_result' expects rows or files, got '{}'", text);
        }
        converted = Value::Varchar(result);
      }
      if (name == "default_null_order") {
        std::string order = AsciiLower(text);
        for (auto& c : order)
          if (c == ' ') c = '_';
        // DuckDB's spellings of the four orders.
        if (order == "nulls_first_on_desc" || order == "nulls_last_on_asc" ||
            order == "nulls_last_on_asc_first_on_desc") {
          order = "postgres";
        }
        if (order == "sqlite" || order == "mysql") order = "nulls_first_on_asc_last_on_desc";
        if (order != "nulls_last" && order != "nulls_first" && order != "postgres" &&
            order != "nulls_first_on_asc_last_on_desc") {
          throw InvalidInputError(
              "setting 'default_null_order' expects nulls_last, nulls_first, postgres "
              "(nulls_last_on_asc_first_on_desc) or sqlite (nulls_first_on_asc_last_on_desc), "
              "got '{}'",
              text);
        }
        converted = Value::Varchar(order);
      }
  }
  values_[name] = converted;
}

void Settings::Reset(const std::string& raw_name) {
  const std::string name = AsciiLower(raw_name);
  if (name == "all") {
    *this = Settings();
    return;
  }
  const SettingInfo* info = Find(name);
  if (!info) throw InvalidInputError("unknown setting '{}'", raw_name);
  values_[name] = info->default_value;
}

Value Settings::Get(const std::string& raw_name) const {
  auto it = values_.find(AsciiLower(raw_name));
  if (it == values_.end()) throw InvalidInputError("unknown setting '{}'", raw_name);
  return it->second;
}

}  // namespace shears
