#pragma once
// Hive-style partition directories: `<root>/year=2024/month=7/part-0.parquet`. The values come
// from the directory names, percent-escaped the way Hive and Spark write them; the literal
// directory value `__HIVE_DEFAULT_PARTITION__` is NULL and `key=` is the empty string.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/types.h"
#include "common/value.h"

namespace shears {

/// The directory value Hive, Spark and DuckDB write for a NULL partition value.
inline constexpr std::string_view kHiveNullPartition = "__HIVE_DEFAULT_PARTITION__";

struct HiveKeyValue {
  std::string key;
  std::optional<std::string> value;  // nullopt = NULL
};

/// True when `level` (one directory name) has the form key=value with a non-empty key.
bool IsHiveLevel(std::string_view level);

/// The key=value directory levels of `relative_path` (relative to the dataset root; its last
/// component is the file name and is ignored), in order, keys and values percent-decoded.
/// Directory levels that are not key=value are skipped here; whether they are allowed is the
/// dataset's decision (they may not share a depth with key=value levels of other files).
/// Throws InvalidInputError for a malformed escape.
std::vector<HiveKeyValue> ParseHivePath(std::string_view relative_path);

/// Escapes a partition value for a directory name as Hive/Spark do: control characters,
/// DEL, space, non-ASCII bytes and "#%'*/:=?\{[]^ become %XX (upper-case hex). The literal
/// value `__HIVE_DEFAULT_PARTITION__` gets its first '_' escaped so it does not read back as
/// NULL; HiveUnescape(HiveEscape(s)) == s for every byte string.
std::string HiveEscape(std::string_view value);
/// Decodes %XX escapes (either hex case). Invalid escapes (%zz, a truncated %) throw
/// InvalidInputError naming the text.
std::string HiveUnescape(std::string_view text);

/// Type of a partition column from its values: BIGINT if all non-null values are integers
/// fitting int64 (optional sign, digits only), else DATE if all are YYYY-MM-DD dates, else
/// VARCHAR. No values or all NULL -> VARCHAR.
LogicalType InferPartitionType(const std::vector<std::optional<std::string>>& values);

/// Converts one textual partition value (nullopt = NULL) to `type`. Throws InvalidInputError
/// naming `column` and the value when it does not convert (e.g. a user override
/// hive_types = {'year': 'INTEGER'} on a directory year=abc).
Value ParsePartitionValue(const std::optional<std::string>& text, const LogicalType& type,
                          const std::string& column);

}  // namespace shears
