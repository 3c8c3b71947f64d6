#include "storage/json/json_dataset.h"

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "common/error.h"
#include "common/file_format.h"
#include "common/string_util.h"
#include "storage/memory_table.h"

namespace shears {

using json = nlohmann::ordered_json;

void JsonOptions::Set(const std::string& name, const Value& value) {
  const std::string key = AsciiLower(name);
  auto text = [&] {
    if (value.is_null() || value.type().id() != TypeId::kVarchar) {
      throw BinderError("read_json option '{}' takes a string", name);
    }
    return AsciiLower(value.GetString());
  };
  auto flag = [&] {
    if (value.is_null() || value.type().id() != TypeId::kBoolean) {
      throw BinderError("read_json option '{}' takes true or false", name);
    }
    return value.GetBoolean();
  };
  if (key == "format") {
    const std::string f = text();
    if (f == "auto") {
      format = Format::kAuto;
    } else if (f == "newline_delimited" || f == "nd") {
      format = Format::kNewlineDelimited;
    } else if (f == "array") {
      format = Format::kArray;
    } else if (f == "unstructured") {
      format = Format::kUnstructured;
    } else {
      throw BinderError(
          "read_json format '{}' is not one of auto, newline_delimited, array, unstructured",
          value.GetString());
    }
  } else if (key == "ignore_errors") {
    ignore_errors = flag();
  } else if (key == "filename") {
    filename = flag();
  } else {
    throw BinderError(
        "read_json has no option '{}' (known: format, ignore_errors, filename; columns, "
        "records and compression are not supported yet)",
        name);
  }
}

namespace {

// What the values of one key were seen to be, from narrow to wide; a key's kind is the widest
// of its values' (kNull when it was only ever null or missing).
enum class Kind { kNull, kBool, kInt, kDouble, kDate, kTimestamp, kString, kList, kJson };

struct ColumnKind {
  Kind kind = Kind::kNull;
  Kind element = Kind::kNull;  // for kList
};

bool LooksLikeDate(const std::string& s) {
  int32_t days;
  return s.size() == 10 && s[4] == '-' && ParseDate(s, &days);
}

bool LooksLikeTimestamp(const std::string& s) {
  int64_t micros;
  return s.size() > 10 && s[4] == '-' && (s[10] == ' ' || s[10] == 'T') &&
         ParseTimestamp(s[10] == 'T' ? s.substr(0, 10) + " " + s.substr(11) : s, &micros);
}

Kind ScalarKind(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return Kind::kNull;
    case json::value_t::boolean:
      return Kind::kBool;
    case json::value_t::number_integer:
      return Kind::kInt;
    case json::value_t::number_unsigned:
      return v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX) ? Kind::kDouble : Kind::kInt;
    case json::value_t::number_float:
      return Kind::kDouble;
    case json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      if (LooksLikeDate(s)) return Kind::kDate;
      if (LooksLikeTimestamp(s)) return Kind::kTimestamp;
      return Kind::kString;
    }
    default:
      return Kind::kJson;
  }
}

Kind UnifyScalar(Kind a, Kind b) {
  if (a == b || b == Kind::kNull) return a;
  if (a == Kind::kNull) return b;
  auto numeric = [](Kind k) { return k == Kind::kInt || k == Kind::kDouble; };
  auto temporal = [](Kind k) { return k == Kind::kDate || k == Kind::kTimestamp; };
  if (numeric(a) && numeric(b)) return Kind::kDouble;
  if (temporal(a) && temporal(b)) return Kind::kTimestamp;
  if (a == Kind::kJson || b == Kind::kJson) return Kind::kJson;
  // Strings with dates, numbers with text: the text of each value.
  return (a == Kind::kBool || numeric(a) || b == Kind::kBool || numeric(b)) ? Kind::kJson
                                                                            : Kind::kString;
}

void Observe(ColumnKind& column, const json& v) {
  if (v.is_array()) {
    Kind element = Kind::kNull;
    for (const json& e : v) {
      const Kind k = ScalarKind(e);
      element = k == Kind::kJson || e.is_array() ? Kind::kJson : UnifyScalar(element, k);
    }
    if (column.kind == Kind::kNull || column.kind == Kind::kList) {
      column.kind = Kind::kList;
      column.element = UnifyScalar(column.element, element);
      if (column.element == Kind::kJson) column.kind = Kind::kJson;
    } else {
      column.kind = Kind::kJson;
    }
    return;
  }
  const Kind k = ScalarKind(v);
  if (column.kind == Kind::kList) {
    if (k != Kind::kNull) column.kind = Kind::kJson;
    return;
  }
  column.kind = UnifyScalar(column.kind, k);
}

LogicalType ScalarType(Kind k) {
  switch (k) {
    case Kind::kBool:
      return LogicalType::Boolean();
    case Kind::kInt:
      return LogicalType::Bigint();
    case Kind::kDouble:
      return LogicalType::Double();
    case Kind::kDate:
      return LogicalType::Date();
    case Kind::kTimestamp:
      return LogicalType::Timestamp();
    default:
      return LogicalType::Varchar();
  }
}

LogicalType TypeOf(const ColumnKind& c) {
  if (c.kind == Kind::kList) return LogicalType::List(ScalarType(c.element));
  return ScalarType(c.kind);
}

// A JSON scalar as a value of `type` (a type the column's kind chose, so it holds every value).
// A VARCHAR column of mixed or nested values holds each value's JSON text (strings quoted, as
// DuckDB's JSON type prints them); one of strings only holds the strings.
Value ScalarValue(const json& v, const LogicalType& type, bool json_text = false) {
  if (v.is_null()) return Value::Null(type);
  switch (type.id()) {
    case TypeId::kBoolean:
      return Value::Boolean(v.get<bool>());
    case TypeId::kBigint:
      return Value::Bigint(v.get<int64_t>());
    case TypeId::kDouble:
      return Value::Double(v.get<double>());
    case TypeId::kDate: {
      int32_t days = 0;
      ParseDate(v.get_ref<const std::string&>(), &days);
      return Value::Date(days);
    }
    case TypeId::kTimestamp: {
      std::string s = v.get_ref<const std::string&>();
      if (s.size() > 10 && s[10] == 'T') s[10] = ' ';
      int64_t micros = 0;
      ParseTimestamp(s, &micros);
      return Value::Timestamp(micros);
    }
    default:
      return Value::Varchar(v.is_string() && !json_text ? v.get<std::string>() : v.dump());
  }
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError("cannot open JSON file '{}'", path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

[[noreturn]] void ThrowParseError(const std::string& path, const json::parse_error& e,
                                  const std::string& where) {
  throw InvalidInputError("malformed JSON in '{}'{}: {}", path, where, e.what());
}

// Values nested deeper than this are an error: the parser is iterative, but taking a value's
// JSON text and freeing it recurse once per level, which a hostile file could use to overflow the
// stack. DuckDB's default maximum_depth is unlimited; real documents stay far below this.
constexpr int kMaxDepth = 1000;

// Rejects a text whose brackets nest deeper than kMaxDepth (brackets in strings do not count).
void CheckDepth(const std::string& path, const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); i++) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        i++;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) {
        throw InvalidInputError("JSON file '{}' nests values deeper than {} levels", path,
                                kMaxDepth);
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
}

// The top-level values of one file, by the format option.
std::vector<json> ParseRecords(const std::string& path, const JsonOptions& options) {
  const std::string text = ReadWholeFile(path);
  CheckDepth(path, text);
  std::vector<json> records;
  auto format = options.format;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return records;
  if (format == JsonOptions::Format::kAuto) {
    format = text[first] == '[' ? JsonOptions::Format::kArray : JsonOptions::Format::kUnstructured;
  }
  switch (format) {
    case JsonOptions::Format::kArray: {
      if (text[first] != '[') {
        throw InvalidInputError("JSON file '{}' does not hold an array (format = 'array')", path);
      }
      json all;
      try {
        all = json::parse(text);
      } catch (const json::parse_error& e) {
        ThrowParseError(path, e, "");
      }
      if (!all.is_array()) {
        throw InvalidInputError("JSON file '{}' does not hold an array (format = 'array')", path);
      }
      for (auto& v : all)
        records.push_back(std::move(v));
      break;
    }
    case JsonOptions::Format::kNewlineDelimited: {
      std::istringstream in(text);
      std::string line;
      size_t line_number = 0;
      while (std::getline(in, line)) {
        line_number++;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
          records.push_back(json::parse(line));
        } catch (const json::parse_error& e) {
          // As DuckDB: the line is a row of NULLs.
          if (options.ignore_errors) {
            records.push_back(json::object());
            continue;
          }
          ThrowParseError(path, e, fmt::format(" on line {}", line_number));
        }
      }
      break;
    }
    default: {
      // Values one after another, over any number of lines each.
      std::istringstream in(text);
      size_t n = 0;
      while (true) {
        in >> std::ws;
        if (in.peek() == std::char_traits<char>::eof()) break;
        json v;
        try {
          in >> v;
        } catch (const json::parse_error& e) {
          ThrowParseError(path, e, fmt::format(" in value {}", n + 1));
        }
        records.push_back(std::move(v));
        n++;
      }
      break;
    }
  }
  return records;
}

// The columns' memory: values converted once, read in place by the memory scan.
struct JsonColumns {
  std::vector<std::vector<uint8_t>> bytes;   // BOOLEAN
  std::vector<std::vector<int64_t>> int64s;  // BIGINT, TIMESTAMP
  std::vector<std::vector<int32_t>> int32s;  // DATE
  std::vector<std::vector<double>> doubles;  // DOUBLE
  std::vector<std::vector<std::string>> strings;
  std::vector<std::vector<StringRef>> refs;  // VARCHAR, LIST
  std::vector<std::vector<uint8_t>> nulls;
};

}  // namespace

std::shared_ptr<Dataset> OpenJsonDataset(const std::string& path_or_glob,
                                         const JsonOptions& options) {
  DatasetOptions dataset_options;
  dataset_options.hive_partitioning = false;
  const DatasetListing listing = ListDataset(path_or_glob, dataset_options, IsJsonFileName, "JSON");

  // Every record of every file, then the columns: keys in the order first seen.
  std::vector<json> records;
  std::vector<uint32_t> record_file;
  for (size_t f = 0; f < listing.files.size(); f++) {
    std::vector<json> file_records = ParseRecords(listing.files[f].path, options);
    for (auto& r : file_records) {
      if (!r.is_object()) {
        throw InvalidInputError(
            "JSON file '{}' holds a value that is not an object ({}); read_json reads objects, "
            "one row each",
            listing.files[f].path, r.dump().substr(0, 40));
      }
      records.push_back(std::move(r));
      record_file.push_back(static_cast<uint32_t>(f));
    }
  }
  std::vector<std::string> names;
  std::vector<ColumnKind> kinds;
  std::unordered_map<std::string, size_t> index;
  for (const json& r : records) {
    for (const auto& [key, v] : r.items()) {
      auto [it, inserted] = index.emplace(key, names.size());
      if (inserted) {
        names.push_back(key);
        kinds.emplace_back();
      }
      Observe(kinds[it->second], v);
    }
  }
  if (names.empty()) {
    throw InvalidInputError("JSON input '{}' has no objects with keys: there are no columns",
                            path_or_glob);
  }

  const size_t rows = records.size();
  auto data = std::make_shared<JsonColumns>();
  auto table = std::make_shared<MemoryTable>();
  table->rows = rows;
  const size_t n = names.size() + (options.filename ? 1 : 0);
  data->bytes.resize(n);
  data->int64s.resize(n);
  data->int32s.resize(n);
  data->doubles.resize(n);
  data->strings.resize(n);
  data->refs.resize(n);
  data->nulls.resize(n);
  for (size_t c = 0; c < n; c++) {
    const bool is_filename = c == names.size();
    const LogicalType type = is_filename ? LogicalType::Varchar() : TypeOf(kinds[c]);
    auto& nulls = data->nulls[c];
    nulls.assign(rows, 0);
    for (size_t r = 0; r < rows; r++) {
      const json* v = nullptr;
      if (!is_filename) {
        auto it = records[r].find(names[c]);
        if (it != records[r].end() && !it->is_null()) v = &*it;
        if (!v) nulls[r] = 1;
      }
      switch (type.id()) {
        case TypeId::kBoolean:
          data->bytes[c].push_back(v && v->get<bool>() ? 1 : 0);
          break;
        case TypeId::kBigint:
        case TypeId::kTimestamp:
          data->int64s[c].push_back(v ? ScalarValue(*v, type).GetInt64() : 0);
          break;
        case TypeId::kDate:
          data->int32s[c].push_back(v ? static_cast<int32_t>(ScalarValue(*v, type).GetInt64()) : 0);
          break;
        case TypeId::kDouble:
          data->doubles[c].push_back(v ? v->get<double>() : 0);
          break;
        case TypeId::kList: {
          std::string bytes;
          if (v) {
            std::vector<Value> elements;
            for (const json& e : *v)
              elements.push_back(ScalarValue(e, type.element()));
            bytes = Value::List(type.element(), elements).GetString();
          }
          data->strings[c].push_back(std::move(bytes));
          break;
        }
        default:
          data->strings[c].push_back(
              is_filename ? listing.files[record_file[r]].path
              : v         ? ScalarValue(*v, type, kinds[c].kind == Kind::kJson).GetString()
                          : std::string());
          break;
      }
    }
    // The strings are final: refer to them (a vector of strings does not move its elements'
    // heap buffers, but short strings live inside the element, so refs are taken only now).
    if (type.IsString()) {
      auto& refs = data->refs[c];
      refs.reserve(rows);
      for (const std::string& s : data->strings[c])
        refs.emplace_back(s.data(), static_cast<uint32_t>(s.size()));
    }
    MemoryColumn column;
    column.name = is_filename ? "filename" : names[c];
    column.type = type;
    switch (type.id()) {
      case TypeId::kBoolean:
        column.data = data->bytes[c].data();
        break;
      case TypeId::kBigint:
      case TypeId::kTimestamp:
        column.data = data->int64s[c].data();
        break;
      case TypeId::kDate:
        column.data = data->int32s[c].data();
        break;
      case TypeId::kDouble:
        column.data = data->doubles[c].data();
        break;
      default:
        column.data = data->refs[c].data();
        break;
    }
    column.null_mask = nulls.data();
    table->columns.push_back(std::move(column));
  }
  if (options.filename && index.count("filename")) {
    throw InvalidInputError("'{}' already has a key 'filename'; filename = true adds one",
                            path_or_glob);
  }
  table->owner = data;
  return Dataset::FromMemory(std::move(table));
}

}  // namespace shears
