// STRUCT and MAP functions (DuckDB's names and results) and the LIST functions that build or
// take apart nested lists: struct_pack / row() / {'a': x} (MakeStructPack, bound by the binder,
// which knows the field names), struct_extract (MakeStructExtract), flatten, list_zip, map,
// MAP {k: v}, map_extract / element_at / m[k], map_keys, map_values, cardinality, and the
// casts of STRUCTs and MAPs. Values are their bytes (common/list.h).

#include <algorithm>
#include <limits>

#include "common/list.h"
#include "common/string_util.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

const LogicalType kBigint = LogicalType::Bigint();

std::string_view BytesAt(const Vector& vector, idx_t row) {
  return vector.data<StringRef>()[row].view();
}

void StoreBytes(Vector& result, idx_t row, std::string_view bytes) {
  if (bytes.size() > std::numeric_limits<uint32_t>::max()) {
    throw OutOfRangeError("a nested value of more than 4 GiB");
  }
  result.data<StringRef>()[row] = result.AddString(bytes);
}

// ---------------------------------------------------------------- flatten, list_zip

/// flatten(LIST(LIST(T))): the inner lists' elements in order; NULL inner lists add nothing.
std::optional<BoundScalarFunction> ResolveFlatten(const std::vector<LogicalType>& args) {
  if (args.size() != 1) return std::nullopt;
  if (!args[0].valid()) {
    return MakeBound({LogicalType::List(LogicalType())}, LogicalType::List(LogicalType()),
                     [](const Args& in, idx_t count, Vector& result) {
                       for (idx_t row = 0; row < count; row++)
                         result.validity().SetNull(row);
                     });
  }
  if (!args[0].IsList()) return std::nullopt;
  const LogicalType inner = args[0].element();
  if (inner.valid() && !inner.IsList()) return std::nullopt;
  const LogicalType element = inner.valid() ? inner.element() : LogicalType();
  return MakeBound({args[0]}, inner.valid() ? inner : LogicalType::List(LogicalType()),
                   [inner, element](const Args& in, idx_t count, Vector& result) {
                     std::string bytes;
                     for (idx_t row = 0; row < count; row++) {
                       if (in[0]->IsNull(row)) {
                         result.validity().SetNull(row);
                         continue;
                       }
                       bytes.clear();
                       if (inner.valid()) {
                         ListReader lists(inner, BytesAt(*in[0], row));
                         while (lists.Next()) {
                           if (lists.IsNull()) continue;
                           // The inner list's bytes are its elements' bytes, ready to append.
                           bytes += lists.GetValue().GetString();
                         }
                       }
                       StoreBytes(result, row, bytes);
                     }
                   });
}

/// list_zip(l1, l2, ... [, truncate]): a list of STRUCTs of unnamed fields, the i-th holding
/// each list's i-th element; shorter (and NULL) lists pad with NULLs, or with truncate the
/// result is as long as the shortest list.
std::optional<BoundScalarFunction> ResolveListZip(const std::vector<LogicalType>& args) {
  if (args.empty()) return std::nullopt;
  size_t lists = args.size();
  const bool has_truncate = args.size() > 1 && args.back().id() == TypeId::kBoolean;
  if (has_truncate) lists--;
  std::vector<LogicalType> params;
  std::vector<std::pair<std::string, LogicalType>> fields;
  for (size_t i = 0; i < lists; i++) {
    if (args[i].valid() && !args[i].IsList()) return std::nullopt;
    const LogicalType list = args[i].valid() ? args[i] : LogicalType::List(LogicalType());
    params.push_back(list);
    fields.emplace_back("", list.element());
  }
  if (has_truncate) params.push_back(LogicalType::Boolean());
  const LogicalType entry = LogicalType::Struct(fields);
  return MakeBound(
      params, LogicalType::List(entry),
      [params, lists, has_truncate, entry](const Args& in, idx_t count, Vector& result) {
        std::vector<std::vector<std::string_view>> elements(lists);
        std::string bytes;
        ListWriter out(entry);
        for (idx_t row = 0; row < count; row++) {
          bool truncate = false;
          if (has_truncate) {
            truncate = !in[lists]->IsNull(row) && in[lists]->data<uint8_t>()[row] != 0;
          }
          size_t longest = 0, shortest = std::numeric_limits<size_t>::max();
          for (size_t l = 0; l < lists; l++) {
            elements[l].clear();
            if (!in[l]->IsNull(row)) {
              ListReader reader(params[l].element(), BytesAt(*in[l], row));
              while (reader.Next())
                elements[l].push_back(reader.raw());
            }
            longest = std::max(longest, elements[l].size());
            shortest = std::min(shortest, elements[l].size());
          }
          const size_t length = truncate ? shortest : longest;
          out.Clear();
          for (size_t i = 0; i < length; i++) {
            bytes.clear();
            for (size_t l = 0; l < lists; l++) {
              if (i < elements[l].size()) {
                bytes += elements[l][i];
              } else {
                bytes.push_back(ListWriter::kNullTag);
              }
            }
            out.AppendValue(Value::ListFromBytes(entry, bytes));
          }
          StoreBytes(result, row, out.bytes());
        }
      },
      /*null_propagating=*/false);
}

// ---------------------------------------------------------------- MAP

/// Appends one map entry (STRUCT(key, value) bytes) for raw key and value elements.
void AppendEntry(ListWriter& writer, const LogicalType& entry, std::string_view key_raw,
                 std::string_view value_raw) {
  std::string bytes(key_raw);
  bytes += value_raw;
  writer.AppendValue(Value::ListFromBytes(entry, std::move(bytes)));
}

/// Checks a map's keys: none NULL, none twice (DuckDB's errors).
void CheckKeys(std::vector<std::string_view>& keys) {
  for (auto key : keys) {
    if (key.size() == 1 && key[0] == ListWriter::kNullTag) {
      throw InvalidInputError("Map keys can not be NULL");
    }
  }
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) {
    throw InvalidInputError("Map keys must be unique");
  }
}

/// map(keys, values): MAP(K, V) from two lists of one length.
std::optional<BoundScalarFunction> ResolveMap(const std::vector<LogicalType>& args) {
  if (args.empty()) {
    const LogicalType map = LogicalType::Map(LogicalType(), LogicalType());
    return MakeBound({}, map, [](const Args&, idx_t count, Vector& result) {
      for (idx_t row = 0; row < count; row++)
        StoreBytes(result, row, "");
    });
  }
  if (args.size() != 2) return std::nullopt;
  for (const auto& arg : args) {
    if (arg.valid() && !arg.IsList()) return std::nullopt;
  }
  const LogicalType keys = args[0].valid() ? args[0] : LogicalType::List(LogicalType());
  const LogicalType values = args[1].valid() ? args[1] : LogicalType::List(LogicalType());
  const LogicalType map = LogicalType::Map(keys.element(), values.element());
  const LogicalType entry = map.element();
  return MakeBound(
      {keys, values}, map,
      [keys, values, entry](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(entry);
        std::vector<std::string_view> key_raw, value_raw, sorted;
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row) || in[1]->IsNull(row)) {
            result.validity().SetNull(row);
            continue;
          }
          key_raw.clear();
          value_raw.clear();
          ListReader k(keys.element(), BytesAt(*in[0], row));
          while (k.Next())
            key_raw.push_back(k.raw());
          ListReader v(values.element(), BytesAt(*in[1], row));
          while (v.Next())
            value_raw.push_back(v.raw());
          if (key_raw.size() != value_raw.size()) {
            throw InvalidInputError(
                "Key list has a different size from Value list ({} keys, {} values)",
                key_raw.size(), value_raw.size());
          }
          sorted = key_raw;
          CheckKeys(sorted);
          writer.Clear();
          for (size_t i = 0; i < key_raw.size(); i++)
            AppendEntry(writer, entry, key_raw[i], value_raw[i]);
          StoreBytes(result, row, writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

/// MAP {k1: v1, k2: v2} as the SQL rewrite passes it: the keys and values alternating.
std::optional<BoundScalarFunction> ResolveMapLiteral(const std::vector<LogicalType>& args) {
  if (args.size() % 2 != 0) return std::nullopt;
  LogicalType key, value;
  for (size_t i = 0; i < args.size(); i++) {
    LogicalType& common = i % 2 == 0 ? key : value;
    std::optional<LogicalType> type = CommonType(common, args[i]);
    if (!type) return std::nullopt;
    common = *type;
  }
  const LogicalType map = LogicalType::Map(key, value);
  const LogicalType entry = map.element();
  std::vector<LogicalType> params;
  for (size_t i = 0; i < args.size(); i++)
    params.push_back(i % 2 == 0 ? (key.valid() ? key : kBigint)
                                : (value.valid() ? value : kBigint));
  return MakeBound(
      params, map,
      [params, entry](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(entry);
        std::vector<ListWriter> parts;
        for (const auto& type : params)
          parts.emplace_back(type);
        std::vector<std::string_view> keys;
        for (idx_t row = 0; row < count; row++) {
          writer.Clear();
          keys.clear();
          for (size_t i = 0; i < in.size(); i++) {
            parts[i].Clear();
            parts[i].AppendFrom(*in[i], row);
          }
          for (size_t i = 0; i < in.size(); i += 2)
            keys.push_back(parts[i].bytes());
          CheckKeys(keys);
          for (size_t i = 0; i < in.size(); i += 2)
            AppendEntry(writer, entry, parts[i].bytes(), parts[i + 1].bytes());
          StoreBytes(result, row, writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

/// The value of `key_raw` in a map's bytes, as its raw element; nullopt when absent.
std::optional<std::string> FindInMap(const LogicalType& map, std::string_view bytes,
                                     std::string_view key_raw) {
  const LogicalType entry = map.element();
  ListReader entries(entry, bytes);
  while (entries.Next()) {
    if (entries.IsNull()) continue;
    const Value pair = entries.GetValue();
    ListReader fields(map.children()[0], pair.GetString());
    fields.Next();
    if (fields.raw() != key_raw) continue;
    fields.set_element(map.children()[1]);
    fields.Next();
    return std::string(fields.raw());
  }
  return std::nullopt;
}

/// map_extract(m, k) / element_at: a list of the key's value (empty when absent);
/// __shears_map_value(m, k) (m[k]): the value itself, NULL when absent.
template <bool kAsList>
std::optional<BoundScalarFunction> ResolveMapExtract(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsMap()) return std::nullopt;
  const LogicalType map = args[0];
  const LogicalType key = map.children()[0].valid() ? map.children()[0] : args[1];
  const LogicalType value = map.children()[1];
  if (key.valid() && args[1].valid() && !CanImplicitCast(args[1], key)) {
    if (!CommonType(args[1], key)) return std::nullopt;
  }
  const LogicalType key_param = key.valid() ? key : kBigint;
  // A MAP of NULL values (MAP([], [])) has values without a type: m[k] is an INTEGER NULL.
  const LogicalType result_type =
      kAsList ? LogicalType::List(value) : (value.valid() ? value : LogicalType::Integer());
  return MakeBound(
      {map, key_param}, result_type,
      [map, key_param, value](const Args& in, idx_t count, Vector& result) {
        ListWriter key_writer(key_param);
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row) || in[1]->IsNull(row)) {
            if (kAsList && !in[0]->IsNull(row)) {
              StoreBytes(result, row, "");
            } else {
              result.validity().SetNull(row);
            }
            continue;
          }
          key_writer.Clear();
          key_writer.AppendFrom(*in[1], row);
          std::optional<std::string> found =
              FindInMap(map, BytesAt(*in[0], row), key_writer.bytes());
          if (kAsList) {
            StoreBytes(result, row, found ? *found : std::string());
            continue;
          }
          if (!found || !value.valid()) {
            result.validity().SetNull(row);
            continue;
          }
          ListReader reader(value, *found);
          reader.Next();
          reader.WriteTo(result, row);
        }
      },
      /*null_propagating=*/false);
}

/// map_keys(m) / map_values(m): the keys or values as a list.
template <int kField>
std::optional<BoundScalarFunction> ResolveMapParts(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || !args[0].IsMap()) return std::nullopt;
  const LogicalType map = args[0];
  const LogicalType part = map.children()[kField];
  return MakeBound({map}, LogicalType::List(part),
                   [map](const Args& in, idx_t count, Vector& result) {
                     std::string bytes;
                     for (idx_t row = 0; row < count; row++) {
                       if (in[0]->IsNull(row)) {
                         result.validity().SetNull(row);
                         continue;
                       }
                       bytes.clear();
                       ListReader entries(map.element(), BytesAt(*in[0], row));
                       while (entries.Next()) {
                         if (entries.IsNull()) continue;
                         const Value pair = entries.GetValue();
                         bytes += StructFieldRaw(map.element(), pair.GetString(), kField);
                       }
                       StoreBytes(result, row, bytes);
                     }
                   });
}

/// A map's entries as raw key and value elements.
void MapEntries(const LogicalType& map, std::string_view bytes,
                std::vector<std::pair<std::string, std::string>>* out) {
  ListReader entries(map.element(), bytes);
  while (entries.Next()) {
    if (entries.IsNull()) continue;
    const Value pair = entries.GetValue();
    ListReader fields(map.children()[0], pair.GetString());
    fields.Next();
    std::string key(fields.raw());
    fields.set_element(map.children()[1]);
    fields.Next();
    out->emplace_back(std::move(key), std::string(fields.raw()));
  }
}

/// map_entries(m): LIST(STRUCT(key K, value V)), the bytes a MAP already has.
std::optional<BoundScalarFunction> ResolveMapEntries(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || !args[0].IsMap()) return std::nullopt;
  return MakeBound({args[0]}, LogicalType::List(args[0].element()),
                   [](const Args& in, idx_t count, Vector& result) {
                     for (idx_t row = 0; row < count; row++) {
                       if (in[0]->IsNull(row)) {
                         result.validity().SetNull(row);
                       } else {
                         StoreBytes(result, row, BytesAt(*in[0], row));
                       }
                     }
                   });
}

/// map_from_entries(LIST(STRUCT(k, v))): the MAP of those entries (keys unique, not NULL).
std::optional<BoundScalarFunction> ResolveMapFromEntries(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || !args[0].IsList() || !args[0].element().IsStruct() ||
      args[0].element().children().size() != 2) {
    return std::nullopt;
  }
  const LogicalType entry = args[0].element();
  const LogicalType map = LogicalType::Map(entry.children()[0], entry.children()[1]);
  return MakeBound({args[0]}, map, [map, entry](const Args& in, idx_t count, Vector& result) {
    ListWriter writer(map.element());
    std::vector<std::string> keys;
    std::vector<std::string_view> views;
    for (idx_t row = 0; row < count; row++) {
      if (in[0]->IsNull(row)) {
        result.validity().SetNull(row);
        continue;
      }
      writer.Clear();
      keys.clear();
      ListReader entries(entry, BytesAt(*in[0], row));
      while (entries.Next()) {
        if (entries.IsNull()) throw InvalidInputError("map_from_entries: an entry is NULL");
        const Value pair = entries.GetValue();
        keys.emplace_back(StructFieldRaw(entry, pair.GetString(), 0));
        writer.AppendValue(Value::ListFromBytes(map.element(), pair.GetString()));
      }
      views.assign(keys.begin(), keys.end());
      CheckKeys(views);
      StoreBytes(result, row, writer.bytes());
    }
  });
}

/// map_contains(m, k): whether the key is there.
std::optional<BoundScalarFunction> ResolveMapContains(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsMap()) return std::nullopt;
  const LogicalType map = args[0];
  const LogicalType key = map.children()[0].valid() ? map.children()[0] : kBigint;
  return MakeBound({map, key}, LogicalType::Boolean(),
                   [map, key](const Args& in, idx_t count, Vector& result) {
                     ListWriter key_writer(key);
                     for (idx_t row = 0; row < count; row++) {
                       if (in[0]->IsNull(row) || in[1]->IsNull(row)) {
                         result.validity().SetNull(row);
                         continue;
                       }
                       key_writer.Clear();
                       key_writer.AppendFrom(*in[1], row);
                       result.data<uint8_t>()[row] =
                           FindInMap(map, BytesAt(*in[0], row), key_writer.bytes()).has_value();
                     }
                   });
}

/// map_concat(m1, m2, ...): the entries of all, a later map's value replacing an earlier one's
/// for the same key (in the first's place, as DuckDB); NULL maps add nothing.
std::optional<BoundScalarFunction> ResolveMapConcat(const std::vector<LogicalType>& args) {
  if (args.empty()) return std::nullopt;
  LogicalType common;
  for (const auto& arg : args) {
    if (arg.valid() && !arg.IsMap()) return std::nullopt;
    std::optional<LogicalType> type = CommonType(common, arg);
    if (!type) return std::nullopt;
    common = *type;
  }
  if (!common.valid()) return std::nullopt;
  return MakeBound(
      std::vector<LogicalType>(args.size(), common), common,
      [common](const Args& in, idx_t count, Vector& result) {
        std::vector<std::pair<std::string, std::string>> entries, next;
        ListWriter writer(common.element());
        for (idx_t row = 0; row < count; row++) {
          entries.clear();
          bool any = false;
          for (const Vector* map : in) {
            if (map->IsNull(row)) continue;
            any = true;
            next.clear();
            MapEntries(common, BytesAt(*map, row), &next);
            for (auto& entry : next) {
              const auto& key = entry.first;
              auto& value = entry.second;
              auto at = std::find_if(entries.begin(), entries.end(),
                                     [&](const auto& e) { return e.first == key; });
              if (at != entries.end()) {
                at->second = value;
              } else {
                entries.emplace_back(key, value);
              }
            }
          }
          if (!any) {
            result.validity().SetNull(row);
            continue;
          }
          writer.Clear();
          for (const auto& [key, value] : entries)
            AppendEntry(writer, common.element(), key, value);
          StoreBytes(result, row, writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

/// cardinality(m): the number of entries (BIGINT where DuckDB's is UBIGINT).
std::optional<BoundScalarFunction> ResolveCardinality(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || !(args[0].IsMap() || args[0].IsList())) return std::nullopt;
  const LogicalType type = args[0];
  return MakeBound({type}, kBigint, [type](const Args& in, idx_t count, Vector& result) {
    for (idx_t row = 0; row < count; row++) {
      if (in[0]->IsNull(row)) {
        result.validity().SetNull(row);
        continue;
      }
      result.data<int64_t>()[row] =
          static_cast<int64_t>(ListLength(type.element(), BytesAt(*in[0], row)));
    }
  });
}

// ---------------------------------------------------------------- casts

/// One nested value cast through Values (the element or field casts are CastValue's).
Value CastNestedValue(const Value& value, const LogicalType& to, bool try_cast);

Value CastStructValue(const Value& value, const LogicalType& to, bool try_cast) {
  const LogicalType& from = value.type();
  const std::vector<int> map = *StructCastFields(from, to);
  const std::vector<Value> fields = value.GetStruct();
  std::vector<Value> out;
  for (size_t i = 0; i < map.size(); i++) {
    if (map[i] < 0) {
      out.push_back(Value::Null(to.children()[i]));
    } else {
      out.push_back(CastValue(fields[static_cast<size_t>(map[i])], to.children()[i], try_cast));
    }
  }
  return Value::Struct(to, out);
}

Value CastNestedValue(const Value& value, const LogicalType& to, bool try_cast) {
  const LogicalType& from = value.type();
  if (from.IsStruct() && to.IsStruct()) return CastStructValue(value, to, try_cast);
  if (from.IsMap() && to.IsMap()) {
    ListWriter writer(to.element());
    for (const Value& entry : value.GetList()) {
      if (entry.is_null()) {
        writer.AppendNull();
        continue;
      }
      const std::vector<Value> pair = entry.GetStruct();
      writer.AppendValue(
          Value::Struct(to.element(), {CastValue(pair[0], to.children()[0], try_cast),
                                       CastValue(pair[1], to.children()[1], try_cast)}));
    }
    return Value::ListFromBytes(to, writer.bytes());
  }
  if (to.id() == TypeId::kVarchar) return Value::Varchar(value.ToString());
  if (from.id() == TypeId::kVarchar && to.IsStruct()) {
    std::vector<std::string> names, texts;
    std::vector<bool> nulls;
    if (!SplitStructText(value.GetString(), &names, &texts, &nulls)) {
      if (try_cast) return Value::Null(to);
      throw InvalidInputError("Could not convert string '{}' to {}", value.GetString(),
                              to.ToString());
    }
    std::vector<Value> fields;
    for (size_t i = 0; i < to.children().size(); i++)
      fields.push_back(Value::Null(to.children()[i]));
    for (size_t i = 0; i < names.size(); i++) {
      size_t field = 0;
      while (field < to.children().size() &&
             !EqualsAsciiLower(to.field_names()[field], AsciiLower(names[i]))) {
        field++;
      }
      if (field == to.children().size()) {
        if (try_cast) return Value::Null(to);
        throw InvalidInputError("Could not convert string '{}' to {}: no field '{}'",
                                value.GetString(), to.ToString(), names[i]);
      }
      if (!nulls[i]) {
        fields[field] = CastValue(Value::Varchar(texts[i]), to.children()[field], try_cast);
      }
    }
    return Value::Struct(to, fields);
  }
  if (from.id() == TypeId::kVarchar && to.IsMap()) {
    // {k=v, ...}
    std::string_view text = value.GetString();
    std::vector<std::string> items;
    std::vector<bool> nulls;
    std::string as_list(text);
    if (!as_list.empty() && as_list.front() == '{' && as_list.back() == '}') {
      as_list.front() = '[';
      as_list.back() = ']';
    }
    if (!SplitListText(as_list, &items, &nulls)) {
      if (try_cast) return Value::Null(to);
      throw InvalidInputError("Could not convert string '{}' to {}", text, to.ToString());
    }
    ListWriter writer(to.element());
    for (size_t i = 0; i < items.size(); i++) {
      const size_t eq = items[i].find('=');
      if (nulls[i] || eq == std::string::npos) {
        if (try_cast) return Value::Null(to);
        throw InvalidInputError("Could not convert string '{}' to {}", text, to.ToString());
      }
      std::string k = items[i].substr(0, eq), v = items[i].substr(eq + 1);
      auto trim = [](std::string s) {
        while (!s.empty() && s.back() == ' ')
          s.pop_back();
        while (!s.empty() && s.front() == ' ')
          s.erase(s.begin());
        return s;
      };
      k = trim(k);
      v = trim(v);
      const Value value_of = EqualsAsciiLower(v, "null")
                                 ? Value::Null(to.children()[1])
                                 : CastValue(Value::Varchar(v), to.children()[1], try_cast);
      writer.AppendValue(Value::Struct(
          to.element(), {CastValue(Value::Varchar(k), to.children()[0], try_cast), value_of}));
    }
    return Value::ListFromBytes(to, writer.bytes());
  }
  throw BinderError("Cannot cast {} to {}", from.ToString(), to.ToString());
}

}  // namespace

std::optional<std::vector<int>> StructCastFields(const LogicalType& from, const LogicalType& to) {
  const auto& from_names = from.field_names();
  const auto& to_names = to.field_names();
  std::vector<int> map(to_names.size(), -1);
  const bool unnamed =
      (!from_names.empty() && from_names[0].empty()) || (!to_names.empty() && to_names[0].empty());
  if (unnamed) {
    if (from_names.size() != to_names.size()) return std::nullopt;
    for (size_t i = 0; i < map.size(); i++) {
      if (!CastExists(from.children()[i], to.children()[i])) return std::nullopt;
      map[i] = static_cast<int>(i);
    }
    return map;
  }
  bool any = false;
  for (size_t i = 0; i < to_names.size(); i++) {
    for (size_t j = 0; j < from_names.size(); j++) {
      if (EqualsAsciiLower(from_names[j], AsciiLower(to_names[i]))) {
        if (!CastExists(from.children()[j], to.children()[i])) return std::nullopt;
        map[i] = static_cast<int>(j);
        any = true;
      }
    }
  }
  if (!any) return std::nullopt;
  return map;
}

void CastNestedVector(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& to = out.type();
  for (idx_t row = 0; row < count; row++) {
    if (in.IsNull(row)) {
      out.validity().SetNull(row);
      continue;
    }
    const Value value = CastNestedValue(ReadValue(in, row), to, try_cast);
    WriteValue(out, row, value);
  }
}

void RegisterNestedFunctions(FunctionRegistry& registry) {
  registry.Register("flatten", ResolveFlatten, "flatten(LIST(LIST))");
  registry.Register("list_zip", ResolveListZip, "list_zip(LIST, ... [, BOOLEAN])");
  registry.Register("array_zip", ResolveListZip, "array_zip(LIST, ... [, BOOLEAN])");
  registry.Register("map", ResolveMap, "map(LIST, LIST)");
  registry.Register(kMapLiteralFunction, ResolveMapLiteral, "MAP {key: value, ...}");
  for (const char* name : {"map_extract", "element_at"})
    registry.Register(name, ResolveMapExtract<true>, std::string(name) + "(MAP, ANY)");
  registry.Register(kMapValueFunction, ResolveMapExtract<false>, "m[key]");
  registry.Register("map_extract_value", ResolveMapExtract<false>, "map_extract_value(MAP, ANY)");
  registry.Register("map_keys", ResolveMapParts<0>, "map_keys(MAP)");
  registry.Register("map_values", ResolveMapParts<1>, "map_values(MAP)");
  registry.Register("cardinality", ResolveCardinality, "cardinality(MAP)");
  registry.Register("map_entries", ResolveMapEntries, "map_entries(MAP)");
  registry.Register("map_from_entries", ResolveMapFromEntries, "map_from_entries(STRUCT(K, V)[])");
  registry.Register("map_contains", ResolveMapContains, "map_contains(MAP, ANY)");
  registry.Register("map_concat", ResolveMapConcat, "map_concat(MAP, ...)");
}

}  // namespace function_internal

BoundScalarFunction MakeStructPack(const LogicalType& struct_type) {
  // The registry's entries never move: a reference stays valid.
  const std::vector<LogicalType>& fields = struct_type.children();
  std::vector<LogicalType> params;
  for (const auto& field : fields)
    params.push_back(field.valid() ? field : LogicalType::Integer());
  BoundScalarFunction bound = function_internal::MakeBound(
      params, struct_type,
      [fields](const std::vector<const Vector*>& in, idx_t count, Vector& result) {
        std::string bytes;
        std::vector<ListWriter> writers;
        for (const auto& field : fields)
          writers.emplace_back(field);
        for (idx_t row = 0; row < count; row++) {
          bytes.clear();
          for (size_t f = 0; f < fields.size(); f++) {
            writers[f].Clear();
            if (fields[f].valid()) {
              writers[f].AppendFrom(*in[f], row);
            } else {
              writers[f].AppendNull();
            }
            bytes += writers[f].bytes();
          }
          function_internal::StoreBytes(result, row, bytes);
        }
      },
      /*null_propagating=*/false);
  bound.name = "struct_pack";
  return bound;
}

BoundScalarFunction MakeStructExtract(const LogicalType& struct_type, size_t field) {
  const LogicalType field_type = struct_type.children().at(field);
  // A field of a NULL literal ({'i': NULL}) has no type: its values are NULLs of INTEGER, as
  // `[NULL][1]` gives (a vector needs a type).
  BoundScalarFunction bound = function_internal::MakeBound(
      {struct_type}, field_type.valid() ? field_type : LogicalType::Integer(),
      [struct_type, field, field_type](const std::vector<const Vector*>& in, idx_t count,
                                       Vector& result) {
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row)) {
            result.validity().SetNull(row);
            continue;
          }
          const std::string_view raw =
              StructFieldRaw(struct_type, function_internal::BytesAt(*in[0], row), field);
          if (!field_type.valid()) {
            result.validity().SetNull(row);
            continue;
          }
          ListReader reader(field_type, raw);
          reader.Next();
          reader.WriteTo(result, row);
        }
      });
  bound.name = "struct_extract";
  return bound;
}

}  // namespace shears
