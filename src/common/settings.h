#pragma once
// Session settings (`SET name = value`, `RESET name`, `SHOW name`): every option shears has,
// with its type, default and description, in one table (settings.cpp). Unknown names and
// values of the wrong type are clear errors.

#include <map>
#include <string>
#include <vector>

#include "common/value.h"

namespace shears {

struct SettingInfo {
  std::string name;
  LogicalType type;
  Value default_value;
  std::string description;
};

class Settings {
 public:
  Settings();
  /// Every option, sorted by name.
  static const std::vector<SettingInfo>& All();

  /// Sets `name` (case-insensitive) from a value; converts strings such as '4GB' for sizes
  /// and 'true'/'on' for booleans. Throws InvalidInputError naming the option and the value
  /// (and suggesting the closest name for unknown options).
  void Set(const std::string& name, const Value& value);
  void Reset(const std::string& name);  // "all" resets everything
  Value Get(const std::string& name) const;

  bool GetBool(const std::string& name) const { return Get(name).GetBoolean(); }
  int64_t GetInt(const std::string& name) const { return Get(name).GetInt64(); }
  double GetDouble(const std::string& name) const { return Get(name).GetDouble(); }
  std::string GetString(const std::string& name) const { return Get(name).GetString(); }

 private:
  std::map<std::string, Value> values_;
};

/// Parses sizes like '4GB', '512 MiB', '1000000' (bytes); throws InvalidInputError.
int64_t ParseByteSize(const std::string& text);
/// Parses durations like '500ms', '30s', '5min', '1h', '250' (milliseconds); throws
/// InvalidInputError.
int64_t ParseDurationMillis(const std::string& text);

}  // namespace shears
