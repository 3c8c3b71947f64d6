// JSON over VARCHAR, as DuckDB's json extension spells it: json_extract / -> (JSON text),
// json_extract_string / ->> (a string's contents), json_valid, json_array_length, json_type,
// json (minified), to_json, json_object, json_array. Documents are parsed with nlohmann::json
// (keys in document order, compact output as DuckDB writes it). shears has no JSON type: the
// results are VARCHAR, so a JSON value given to json_object / json_array is a string there.
//
// Paths: '$' then .key, ."quoted key", [n] and [-n] (from the end); a path not starting with
// '$' is one object key ('a' is $."a"); '/a/0' is a JSON pointer; an integer is an array index.

#include <algorithm>

#include <nlohmann/json.hpp>

#include "common/string_util.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {

namespace {

using Args = std::vector<const Vector*>;
using Json = nlohmann::ordered_json;

Json ParseJson(std::string_view text) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    std::string shown(text.substr(0, 60));
    if (text.size() > 60) shown += "...";
    throw InvalidInputError("malformed JSON: '{}'", shown);
  }
  return doc;
}

/// Text as DuckDB writes JSON: compact, non-ASCII characters as they are.
std::string Dump(const Json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

const Json* Index(const Json& doc, int64_t index) {
  if (!doc.is_array()) return nullptr;
  const auto size = static_cast<int64_t>(doc.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) return nullptr;
  return &doc[static_cast<size_t>(index)];
}

const Json* Key(const Json& doc, const std::string& key) {
  if (!doc.is_object()) return nullptr;
  auto found = doc.find(key);
  return found == doc.end() ? nullptr : &*found;
}

[[noreturn]] void BadPath(std::string_view path, const char* why) {
  throw InvalidInputError("JSON path '{}': {}", std::string(path), why);
}

/// The value at `path` in `doc`, or null when there is none.
const Json* Follow(const Json& doc, std::string_view path) {
  if (path.empty() || path[0] != '$') {
    if (!path.empty() && path[0] == '/') {
      // A JSON pointer (RFC 6901): /key/0, ~1 for '/' and ~0 for '~' in a key.
      const Json* at = &doc;
      size_t i = 1;
      while (true) {
        const size_t end = std::min(path.find('/', i), path.size());
        std::string token;
        for (size_t k = i; k < end; k++) {
          if (path[k] == '~' && k + 1 < end && (path[k + 1] == '0' || path[k + 1] == '1')) {
            token += path[++k] == '0' ? '~' : '/';
          } else if (path[k] == '~') {
            BadPath(path, "'~' must be followed by 0 or 1 in a JSON pointer");
          } else {
            token += path[k];
          }
        }
        const Json* next = nullptr;
        if (at->is_object()) {
          next = Key(*at, token);
        } else if (at->is_array() && !token.empty() && token.size() < 18 &&
                   token.find_first_not_of("0123456789") == std::string::npos) {
          next = Index(*at, std::stoll(token));
        }
        if (!next) return nullptr;
        at = next;
        if (end == path.size()) return at;
        i = end + 1;
      }
    }
    return Key(doc, std::string(path));
  }
  const Json* at = &doc;
  size_t i = 1;
  while (i < path.size()) {
    if (path[i] == '.') {
      i++;
      std::string key;
      if (i < path.size() && path[i] == '"') {
        const size_t close = path.find('"', i + 1);
        if (close == std::string_view::npos) BadPath(path, "unterminated quoted key");
        key = std::string(path.substr(i + 1, close - i - 1));
        i = close + 1;
      } else {
        const size_t end = path.find_first_of(".[", i);
        key = std::string(path.substr(i, end == std::string_view::npos ? path.npos : end - i));
        i = end == std::string_view::npos ? path.size() : end;
        if (key.empty()) BadPath(path, "empty key");
        if (key == "*") BadPath(path, "wildcards are not supported");
      }
      at = Key(*at, key);
    } else if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string_view::npos) BadPath(path, "unterminated [");
      std::string_view number = path.substr(i + 1, close - i - 1);
      i = close + 1;
      if (number == "*") BadPath(path, "wildcards are not supported");
      // [#-n] is DuckDB's spelling of "n from the end", as [-n].
      if (number.starts_with("#")) number.remove_prefix(1);
      const bool negative = number.starts_with("-");
      if (negative) number.remove_prefix(1);
      if (number.empty() || number.size() > 18 ||
          number.find_first_not_of("0123456789") != std::string_view::npos) {
        BadPath(path, "an array index must be an integer");
      }
      const int64_t index = std::stoll(std::string(number));
      at = Index(*at, negative ? -index : index);
    } else {
      BadPath(path, "expected '.' or '['");
    }
    if (!at) return nullptr;
  }
  return at;
}

/// The JSON type name DuckDB gives a value.
const char* TypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      return "OBJECT";
    case Json::value_t::array:
      return "ARRAY";
    case Json::value_t::string:
      return "VARCHAR";
    case Json::value_t::boolean:
      return "BOOLEAN";
    case Json::value_t::number_unsigned:
      return "UBIGINT";
    case Json::value_t::number_integer:
      return "BIGINT";
    case Json::value_t::number_float:
      return "DOUBLE";
    default:
      return "NULL";
  }
}

enum class Extract { kJson, kString };

/// json_extract(doc, path) and its relatives: `make(value)` writes the row's result, or returns
/// false for NULL.
template <typename Out, typename Make>
ScalarKernel PathKernel(bool path_is_index, Make make) {
  return [path_is_index, make](const Args& a, idx_t count, Vector& result) {
    Out* out = result.data<Out>();
    ForEachValidRow(a, count, result, [&](idx_t row) {
      const Json doc = ParseJson(a[0]->data<StringRef>()[row].view());
      const Json* at = &doc;
      if (a.size() > 1) {
        at = path_is_index ? Index(doc, a[1]->data<int64_t>()[row])
                           : Follow(doc, a[1]->data<StringRef>()[row].view());
      }
      if (!at || !make(*at, result, out[row])) result.validity().SetNull(row);
    });
  };
}

void RegisterPathFunction(FunctionRegistry& registry, const std::string& name, Extract extract) {
  const LogicalType varchar = LogicalType::Varchar();
  auto make = [extract](const Json& value, Vector& result, StringRef& out) {
    if (extract == Extract::kString) {
      if (value.is_null()) return false;
      if (value.is_string()) {
        out = result.AddString(value.get_ref<const std::string&>());
        return true;
      }
    }
    out = result.AddString(Dump(value));
    return true;
  };
  RegisterFixed(registry, name, {varchar, varchar}, varchar, PathKernel<StringRef>(false, make));
  RegisterFixed(registry, name, {varchar, LogicalType::Bigint()}, varchar,
                PathKernel<StringRef>(true, make));
}

/// A value of any type as JSON: numbers and booleans as they are, NULL as null, the rest
/// (text, dates, ...) as strings of their text.
Json ToJson(const Vector& vector, idx_t row) {
  if (vector.IsNull(row)) return Json();
  const Value value = ReadValue(vector, row);
  switch (vector.type().id()) {
    case TypeId::kBoolean:
      return Json(value.GetBoolean());
    case TypeId::kInteger:
    case TypeId::kBigint:
      return Json(value.GetInt64());
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal: {
      // As written (1.50 stays 1.50 in DECIMAL's text): a number token of that text.
      const std::string text = value.ToString();
      Json parsed = Json::parse(text, nullptr, false);
      return parsed.is_discarded() || !parsed.is_number() ? Json(text) : parsed;
    }
    default:
      return Json(value.ToString());
  }
}

/// Variadic (json_object, json_array): every argument type is taken as it is.
FunctionRegistry::Resolver VariadicResolver(bool pairs) {
  return [pairs](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
    if (pairs && args.size() % 2 != 0) return std::nullopt;
    std::vector<LogicalType> types;
    for (size_t i = 0; i < args.size(); i++) {
      if (pairs && i % 2 == 0) {
        if (args[i].valid() && args[i].id() != TypeId::kVarchar) return std::nullopt;
        types.push_back(LogicalType::Varchar());
      } else {
        types.push_back(args[i].valid() ? args[i] : LogicalType::Varchar());
      }
    }
    return MakeBound(
        std::move(types), LogicalType::Varchar(),
        [pairs](const Args& a, idx_t count, Vector& result) {
          StringRef* out = result.data<StringRef>();
          for (idx_t row = 0; row < count; row++) {
            Json built = pairs ? Json::object() : Json::array();
            for (size_t i = 0; i < a.size(); i++) {
              if (pairs) {
                if (a[i]->IsNull(row)) throw InvalidInputError("json_object: a key is NULL");
                built[std::string(a[i]->data<StringRef>()[row].view())] = ToJson(*a[i + 1], row);
                i++;
              } else {
                built.push_back(ToJson(*a[i], row));
              }
            }
            out[row] = result.AddString(Dump(built));
          }
        },
        /*null_propagating=*/false);
  };
}

}  // namespace

void RegisterJsonFunctions(FunctionRegistry& registry) {
  const LogicalType varchar = LogicalType::Varchar();
  for (const char* name : {"json_extract", "json_extract_path", "->"})
    RegisterPathFunction(registry, name, Extract::kJson);
  for (const char* name : {"json_extract_string", "json_extract_path_text", "->>"})
    RegisterPathFunction(registry, name, Extract::kString);
  RegisterFixed(registry, "json_valid", {varchar}, LogicalType::Boolean(),
                [](const Args& a, idx_t count, Vector& result) {
                  uint8_t* out = result.data<uint8_t>();
                  ForEachValidRow(a, count, result, [&](idx_t row) {
                    const std::string_view text = a[0]->data<StringRef>()[row].view();
                    out[row] = Json::accept(text.begin(), text.end());
                  });
                });
  RegisterFixed(registry, "json", {varchar}, varchar,
                PathKernel<StringRef>(false, [](const Json& value, Vector& result, StringRef& out) {
                  out = result.AddString(Dump(value));
                  return true;
                }));
  auto length = [](const Json& value, Vector&, int64_t& out) {
    out = value.is_array() ? static_cast<int64_t>(value.size()) : 0;
    return true;
  };
  auto type = [](const Json& value, Vector& result, StringRef& out) {
    out = result.AddString(TypeName(value));
    return true;
  };
  for (const std::vector<LogicalType>& args :
       {std::vector<LogicalType>{varchar}, std::vector<LogicalType>{varchar, varchar}}) {
    RegisterFixed(registry, "json_array_length", args, LogicalType::Bigint(),
                  PathKernel<int64_t>(false, length));
    RegisterFixed(registry, "json_type", args, varchar, PathKernel<StringRef>(false, type));
  }
  registry.Register(
      "to_json",
      [](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.size() != 1) return std::nullopt;
        return MakeBound({args[0].valid() ? args[0] : LogicalType::Varchar()},
                         LogicalType::Varchar(), [](const Args& a, idx_t count, Vector& result) {
                           StringRef* out = result.data<StringRef>();
                           ForEachValidRow(a, count, result, [&](idx_t row) {
                             out[row] = result.AddString(Dump(ToJson(*a[0], row)));
                           });
                         });
      },
      "to_json(ANY)");
  registry.Register("json_object", VariadicResolver(true), "json_object(VARCHAR, ANY, ...)");
  registry.Register("json_array", VariadicResolver(false), "json_array(ANY, ...)");
}

}  // namespace function_internal
}  // namespace shears
