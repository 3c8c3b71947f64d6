// LIST functions (DuckDB's names and results): construction (list_value), length, element and
// slice access (also of strings: 'abc'[2]), search, concatenation, sorting, aggregates over a
// list's elements, string_split and array_to_string, range / generate_series as lists, and
// the casts to, from and between lists. A list is its bytes (common/list.h): kernels read
// elements with ListReader and build results with ListWriter.

#include <re2/re2.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "common/list.h"
#include "common/utf8.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

const LogicalType kBigint = LogicalType::Bigint();
const LogicalType kVarchar = LogicalType::Varchar();

std::string_view ListAt(const Vector& vector, idx_t row) {
  return vector.data<StringRef>()[row].view();
}

void StoreList(Vector& result, idx_t row, std::string_view bytes) {
  // A value's bytes are counted in 32 bits (StringRef).
  if (bytes.size() > std::numeric_limits<uint32_t>::max()) {
    throw OutOfRangeError("a LIST value of more than 4 GiB");
  }
  result.data<StringRef>()[row] = result.AddString(bytes);
}

bool AnyNull(const Args& args, idx_t row) {
  for (const Vector* arg : args) {
    if (arg->IsNull(row)) return true;
  }
  return false;
}

/// Runs `fn(row)` for the rows where no argument is NULL; the others are NULL.
template <typename Fn>
void RowLoop(const Args& args, idx_t count, Vector& result, Fn fn) {
  for (idx_t row = 0; row < count; row++) {
    if (AnyNull(args, row)) {
      result.validity().SetNull(row);
      continue;
    }
    fn(row);
  }
}

/// The list's elements' raw bytes (ListReader::raw()), in order.
std::vector<std::string_view> RawElements(const LogicalType& element, std::string_view bytes) {
  std::vector<std::string_view> out;
  ListReader reader(element, bytes);
  while (reader.Next())
    out.push_back(reader.raw());
  return out;
}

bool IsNullRaw(std::string_view raw) {
  return raw.size() == 1 && raw[0] == ListWriter::kNullTag;
}

/// 1-based index with negative from the end -> 0-based position, or -1 when out of range.
int64_t Position(int64_t index, int64_t length) {
  if (index > 0) return index <= length ? index - 1 : -1;
  if (index < 0) return index >= -length ? length + index : -1;  // no -index: INT64_MIN
  return -1;
}

/// DuckDB's slice bounds: begin 0 or past the start is the first, a negative bound counts
/// from the end, end is inclusive; [first, last) as 0-based positions (empty when first >= last).
std::pair<int64_t, int64_t> SliceRange(int64_t begin, int64_t end, int64_t length) {
  int64_t first = begin < 0 ? length + begin : begin - 1;
  int64_t last = end < 0 ? length + end + 1 : end;
  first = std::clamp<int64_t>(first, 0, length);
  last = std::clamp<int64_t>(last, 0, length);
  return {first, std::max(first, last)};
}

// ---------------------------------------------------------------- construction

std::optional<BoundScalarFunction> ResolveListValue(const std::vector<LogicalType>& args) {
  LogicalType element;
  for (const auto& type : args) {
    std::optional<LogicalType> common = CommonType(element, type);
    if (!common) return std::nullopt;
    element = *common;
  }
  // All NULL (or no arguments): DuckDB's "NULL"[]; the NULL arguments are passed as INTEGER.
  const LogicalType param = element.valid() ? element : LogicalType::Integer();
  return MakeBound(
      std::vector<LogicalType>(args.size(), param), LogicalType::List(element),
      [param](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(param);
        for (idx_t row = 0; row < count; row++) {
          writer.Clear();
          for (const Vector* arg : in)
            writer.AppendFrom(*arg, row);
          StoreList(result, row, writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

// ---------------------------------------------------------------- length, access

/// len(l); array_length(l, 1) too (lists have one dimension).
std::optional<BoundScalarFunction> ResolveLength(const std::vector<LogicalType>& args) {
  if (args.empty() || args.size() > 2 || !args[0].IsList()) return std::nullopt;
  if (args.size() == 2 && !CanImplicitCast(args[1], kBigint)) return std::nullopt;
  const LogicalType element = args[0].element();
  std::vector<LogicalType> params = {args[0]};
  if (args.size() == 2) params.push_back(kBigint);
  return MakeBound(params, kBigint, [element](const Args& in, idx_t count, Vector& result) {
    RowLoop(in, count, result, [&](idx_t row) {
      if (in.size() == 2 && in[1]->data<int64_t>()[row] != 1) {
        throw OutOfRangeError("array_length: a LIST has one dimension, not {}",
                              in[1]->data<int64_t>()[row]);
      }
      result.data<int64_t>()[row] = static_cast<int64_t>(ListLength(element, ListAt(*in[0], row)));
    });
  });
}

std::optional<BoundScalarFunction> ResolveExtract(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !CanImplicitCast(args[1], kBigint)) return std::nullopt;
  if (args[0].id() == TypeId::kVarchar) {
    // 'abc'[2]: the character (code point) at the index, '' when out of range.
    return MakeBound({kVarchar, kBigint}, kVarchar, [](const Args& in, idx_t count, Vector& r) {
      RowLoop(in, count, r, [&](idx_t row) {
        std::string_view text = ListAt(*in[0], row);
        std::vector<size_t> starts;
        for (size_t i = 0; i < text.size(); i++) {
          if ((static_cast<uint8_t>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
        }
        const int64_t length = static_cast<int64_t>(starts.size());
        const int64_t pos = Position(in[1]->data<int64_t>()[row], length);
        if (pos < 0) {
          r.data<StringRef>()[row] = r.AddString("");
          return;
        }
        const size_t begin = starts[static_cast<size_t>(pos)];
        const size_t end = pos + 1 < length ? starts[static_cast<size_t>(pos + 1)] : text.size();
        r.data<StringRef>()[row] = r.AddString(text.substr(begin, end - begin));
      });
    });
  }
  if (!args[0].IsList()) return std::nullopt;
  const LogicalType element = args[0].element();
  // Elements of "NULL"[] read as INTEGER NULLs.
  const LogicalType out_type = element.valid() ? element : LogicalType::Integer();
  return MakeBound({args[0], kBigint}, out_type,
                   [element](const Args& in, idx_t count, Vector& result) {
                     RowLoop(in, count, result, [&](idx_t row) {
                       const int64_t index = in[1]->data<int64_t>()[row];
                       std::string_view bytes = ListAt(*in[0], row);
                       const int64_t length = static_cast<int64_t>(ListLength(element, bytes));
                       const int64_t pos = Position(index, length);
                       if (pos < 0 || !element.valid()) {
                         result.validity().SetNull(row);
                         return;
                       }
                       ListReader reader(element, bytes);
                       for (int64_t i = 0; i <= pos; i++)
                         reader.Next();
                       reader.WriteTo(result, row);
                     });
                   });
}

std::optional<BoundScalarFunction> ResolveSlice(const std::vector<LogicalType>& args) {
  if (args.size() != 3 || !CanImplicitCast(args[1], kBigint) || !CanImplicitCast(args[2], kBigint))
    return std::nullopt;
  if (args[0].id() == TypeId::kVarchar) {
    return MakeBound(
        {kVarchar, kBigint, kBigint}, kVarchar, [](const Args& in, idx_t count, Vector& r) {
          RowLoop(in, count, r, [&](idx_t row) {
            std::string_view text = ListAt(*in[0], row);
            std::vector<size_t> starts;
            for (size_t i = 0; i < text.size(); i++) {
              if ((static_cast<uint8_t>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
            }
            starts.push_back(text.size());
            const int64_t length = static_cast<int64_t>(starts.size()) - 1;
            auto [first, last] =
                SliceRange(in[1]->data<int64_t>()[row], in[2]->data<int64_t>()[row], length);
            const size_t b = starts[static_cast<size_t>(first)];
            const size_t e = starts[static_cast<size_t>(last)];
            r.data<StringRef>()[row] = r.AddString(text.substr(b, e - b));
          });
        });
  }
  if (!args[0].IsList()) return std::nullopt;
  const LogicalType element = args[0].element();
  return MakeBound(
      {args[0], kBigint, kBigint}, args[0], [element](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(element);
        RowLoop(in, count, result, [&](idx_t row) {
          auto raw = RawElements(element, ListAt(*in[0], row));
          auto [first, last] = SliceRange(in[1]->data<int64_t>()[row], in[2]->data<int64_t>()[row],
                                          static_cast<int64_t>(raw.size()));
          writer.Clear();
          for (int64_t i = first; i < last; i++)
            writer.AppendRaw(raw[static_cast<size_t>(i)]);
          StoreList(result, row, writer.bytes());
        });
      });
}

// ---------------------------------------------------------------- search

/// list_contains (position = false) / list_position: the needle is cast to the element type
/// and found by its bytes (equal bytes are equal values). A NULL needle: list_contains NULL,
/// list_position the first NULL element (DuckDB's).
template <bool kPosition>
std::optional<BoundScalarFunction> ResolveSearch(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsList()) return std::nullopt;
  LogicalType element = args[0].element();
  LogicalType list = args[0];
  if (!element.valid()) {
    element = args[1].valid() ? args[1] : LogicalType::Integer();
    list = LogicalType::List(element);
  } else if (!CanImplicitCast(args[1], element)) {
    std::optional<LogicalType> common = CommonType(element, args[1]);
    if (!common) return std::nullopt;
    element = *common;
    list = LogicalType::List(element);
  }
  const LogicalType result_type = kPosition ? LogicalType::Integer() : LogicalType::Boolean();
  return MakeBound(
      {list, element}, result_type,
      [element](const Args& in, idx_t count, Vector& result) {
        ListWriter needle(element);
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row) || (!kPosition && in[1]->IsNull(row))) {
            result.validity().SetNull(row);
            continue;
          }
          needle.Clear();
          needle.AppendFrom(*in[1], row);
          ListReader reader(element, ListAt(*in[0], row));
          int32_t index = 0, found = 0;
          while (reader.Next()) {
            index++;
            if (reader.raw() == needle.bytes()) {
              found = index;
              break;
            }
          }
          if constexpr (kPosition) {
            if (found == 0) {
              result.validity().SetNull(row);
            } else {
              result.data<int32_t>()[row] = found;
            }
          } else {
            result.data<uint8_t>()[row] = found != 0;
          }
        }
      },
      /*null_propagating=*/false);
}

/// list_has_any(a, b) / list_has_all(a, b): whether some / every non-NULL element of b is in a
/// (NULL elements match nothing).
template <bool kAll>
std::optional<BoundScalarFunction> ResolveHasAnyAll(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsList() || !args[1].IsList()) return std::nullopt;
  std::optional<LogicalType> common = CommonType(args[0], args[1]);
  if (!common) return std::nullopt;
  const LogicalType element = common->element();
  return MakeBound({*common, *common}, LogicalType::Boolean(),
                   [element](const Args& in, idx_t count, Vector& result) {
                     RowLoop(in, count, result, [&](idx_t row) {
                       auto haystack = RawElements(element, ListAt(*in[0], row));
                       bool answer = kAll;
                       ListReader needles(element, ListAt(*in[1], row));
                       while (needles.Next()) {
                         if (needles.IsNull()) continue;
                         const bool found = std::find(haystack.begin(), haystack.end(),
                                                      needles.raw()) != haystack.end();
                         if (kAll && !found) {
                           answer = false;
                           break;
                         }
                         if (!kAll && found) {
                           answer = true;
                           break;
                         }
                       }
                       result.data<uint8_t>()[row] = answer;
                     });
                   });
}

/// list_intersect(a, b): the distinct non-NULL elements of a that b holds, in a's order
/// (DuckDB's order is unspecified); a NULL b intersects as an empty list, as DuckDB's does.
std::optional<BoundScalarFunction> ResolveIntersect(const std::vector<LogicalType>& args) {
  if (args.size() != 2) return std::nullopt;
  for (const auto& a : args) {
    if (a.valid() && !a.IsList()) return std::nullopt;
  }
  std::optional<LogicalType> common =
      !args[0].valid()   ? (args[1].valid() ? args[1] : LogicalType::List(LogicalType::Integer()))
      : !args[1].valid() ? args[0]
                         : CommonType(args[0], args[1]);
  if (!common) return std::nullopt;
  const LogicalType element = common->element();
  return MakeBound(
      {*common, *common}, *common,
      [element](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(element);
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row)) {
            result.validity().SetNull(row);
            continue;
          }
          writer.Clear();
          if (!in[1]->IsNull(row)) {
            std::unordered_set<std::string_view> other;
            for (auto r : RawElements(element, ListAt(*in[1], row))) {
              if (!IsNullRaw(r)) other.insert(r);
            }
            std::unordered_set<std::string_view> taken;
            for (auto r : RawElements(element, ListAt(*in[0], row))) {
              if (other.count(r) != 0 && taken.insert(r).second) writer.AppendRaw(r);
            }
          }
          StoreList(result, row, writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

/// list_unique(l): how many distinct non-NULL elements (DuckDB's UBIGINT, BIGINT here).
std::optional<BoundScalarFunction> ResolveUnique(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || (args[0].valid() && !args[0].IsList())) return std::nullopt;
  // An untyped NULL is a NULL list (of INTEGER).
  const LogicalType list = args[0].valid() ? args[0] : LogicalType::List(LogicalType::Integer());
  const LogicalType element = list.element();
  return MakeBound({list}, LogicalType::Bigint(),
                   [element](const Args& in, idx_t count, Vector& result) {
                     RowLoop(in, count, result, [&](idx_t row) {
                       std::vector<std::string_view> seen;
                       for (auto r : RawElements(element, ListAt(*in[0], row))) {
                         if (IsNullRaw(r) || std::find(seen.begin(), seen.end(), r) != seen.end())
                           continue;
                         seen.push_back(r);
                       }
                       result.data<int64_t>()[row] = static_cast<int64_t>(seen.size());
                     });
                   });
}

/// list_where(l, mask): the elements of l whose mask element is true, in order; a true past
/// the end of l gives a NULL and a NULL in the mask is an error, as in DuckDB.
std::optional<BoundScalarFunction> ResolveWhere(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsList()) return std::nullopt;
  const LogicalType mask_type = LogicalType::List(LogicalType::Boolean());
  if (args[1].valid() && !(args[1].IsList() && (args[1].element().id() == TypeId::kBoolean ||
                                                !args[1].element().valid()))) {
    return std::nullopt;
  }
  const LogicalType element = args[0].element();
  return MakeBound({args[0], mask_type}, args[0],
                   [element](const Args& in, idx_t count, Vector& result) {
                     ListWriter writer(element);
                     RowLoop(in, count, result, [&](idx_t row) {
                       auto raw = RawElements(element, ListAt(*in[0], row));
                       ListReader mask(LogicalType::Boolean(), ListAt(*in[1], row));
                       writer.Clear();
                       for (size_t i = 0; mask.Next(); i++) {
                         if (mask.IsNull()) {
                           throw InvalidInputError(
                               "list_where: NULLs are not allowed in the mask (the second list)");
                         }
                         if (!mask.GetValue().GetBoolean()) continue;
                         if (i < raw.size()) {
                           writer.AppendRaw(raw[i]);
                         } else {
                           writer.AppendNull();
                         }
                       }
                       StoreList(result, row, writer.bytes());
                     });
                   });
}

/// list_append(l, x) / list_prepend(x, l): a NULL list counts as empty, a NULL x is a NULL
/// element.
template <bool kPrepend>
std::optional<BoundScalarFunction> ResolveAppend(const std::vector<LogicalType>& args) {
  if (args.size() != 2) return std::nullopt;
  const LogicalType& list_arg = args[kPrepend ? 1 : 0];
  const LogicalType& value_arg = args[kPrepend ? 0 : 1];
  if (!list_arg.IsList()) return std::nullopt;
  std::optional<LogicalType> element = CommonType(list_arg.element(), value_arg);
  if (!element) return std::nullopt;
  const LogicalType param = element->valid() ? *element : LogicalType::Integer();
  const LogicalType list = LogicalType::List(*element);
  std::vector<LogicalType> params =
      kPrepend ? std::vector<LogicalType>{param, list} : std::vector<LogicalType>{list, param};
  return MakeBound(
      params, list,
      [param](const Args& in, idx_t count, Vector& result) {
        const Vector& list_in = *in[kPrepend ? 1 : 0];
        const Vector& value_in = *in[kPrepend ? 0 : 1];
        ListWriter one(param);
        for (idx_t row = 0; row < count; row++) {
          one.Clear();
          one.AppendFrom(value_in, row);
          std::string bytes;
          if (kPrepend) bytes = one.bytes();
          if (!list_in.IsNull(row)) bytes.append(ListAt(list_in, row));
          if (!kPrepend) bytes.append(one.bytes());
          StoreList(result, row, bytes);
        }
      },
      /*null_propagating=*/false);
}

// ---------------------------------------------------------------- concatenation

/// list_concat: a NULL list counts as empty (DuckDB's: never NULL for typed lists); `||` is
/// NULL when either side is.
template <bool kOperator>
std::optional<BoundScalarFunction> ResolveConcat(const std::vector<LogicalType>& args) {
  if (args.size() != 2) return std::nullopt;
  if (!args[0].IsList() && !args[1].IsList()) return std::nullopt;
  if ((!args[0].IsList() && args[0].valid()) || (!args[1].IsList() && args[1].valid())) {
    return std::nullopt;
  }
  std::optional<LogicalType> common = CommonType(args[0], args[1]);
  if (!common) return std::nullopt;
  return MakeBound(
      {*common, *common}, *common,
      [](const Args& in, idx_t count, Vector& result) {
        for (idx_t row = 0; row < count; row++) {
          const bool a_null = in[0]->IsNull(row), b_null = in[1]->IsNull(row);
          if (kOperator && (a_null || b_null)) {
            result.validity().SetNull(row);
            continue;
          }
          std::string bytes;
          if (!a_null) bytes.append(ListAt(*in[0], row));
          if (!b_null) bytes.append(ListAt(*in[1], row));
          StoreList(result, row, bytes);
        }
      },
      /*null_propagating=*/kOperator);
}

// ---------------------------------------------------------------- reordering

enum class ListOrder { kSort, kReverseSort, kReverse, kDistinct };

/// list_sort(l [, 'ASC' | 'DESC' [, 'NULLS FIRST' | 'NULLS LAST']]): elements sort by their
/// bytes, which order as the values; NULLs last unless asked otherwise.
template <ListOrder kOrder>
std::optional<BoundScalarFunction> ResolveReorder(const std::vector<LogicalType>& args) {
  const size_t max_args = kOrder == ListOrder::kSort          ? 3
                          : kOrder == ListOrder::kReverseSort ? 2
                                                              : 1;
  if (args.empty() || args.size() > max_args || !args[0].IsList()) return std::nullopt;
  for (size_t i = 1; i < args.size(); i++) {
    if (args[i].id() != TypeId::kVarchar && args[i].valid()) return std::nullopt;
  }
  std::vector<LogicalType> params = {args[0]};
  for (size_t i = 1; i < args.size(); i++)
    params.push_back(kVarchar);
  const LogicalType element = args[0].element();
  return MakeBound(params, args[0], [element](const Args& in, idx_t count, Vector& result) {
    ListWriter writer(element);
    RowLoop(in, count, result, [&](idx_t row) {
      auto raw = RawElements(element, ListAt(*in[0], row));
      if constexpr (kOrder == ListOrder::kReverse) {
        std::reverse(raw.begin(), raw.end());
      } else if constexpr (kOrder == ListOrder::kDistinct) {
        // NULLs dropped, the first of equal elements kept (DuckDB's order is a hash table's).
        std::vector<std::string_view> kept;
        for (auto r : raw) {
          if (IsNullRaw(r) || std::find(kept.begin(), kept.end(), r) != kept.end()) continue;
          kept.push_back(r);
        }
        raw = std::move(kept);
      } else {
        bool descending = kOrder == ListOrder::kReverseSort;
        bool nulls_first = false;
        auto option = [&](size_t i) {
          std::string text(ListAt(*in[i], row));
          for (auto& c : text)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          return text;
        };
        size_t next = 1;
        if constexpr (kOrder == ListOrder::kSort) {
          if (in.size() > 1) {
            const std::string order = option(1);
            if (order != "ASC" && order != "DESC") {
              throw InvalidInputError("list_sort: sort order must be 'ASC' or 'DESC', got '{}'",
                                      ListAt(*in[1], row));
            }
            descending = order == "DESC";
            next = 2;
          }
        }
        if (in.size() > next) {
          const std::string nulls = option(next);
          if (nulls != "NULLS FIRST" && nulls != "NULLS LAST") {
            throw InvalidInputError(
                "list_sort: null order must be 'NULLS FIRST' or 'NULLS LAST', got '{}'",
                ListAt(*in[next], row));
          }
          nulls_first = nulls == "NULLS FIRST";
        }
        std::vector<std::string_view> values, nulls;
        for (auto r : raw)
          (IsNullRaw(r) ? nulls : values).push_back(r);
        std::sort(values.begin(), values.end());
        if (descending) std::reverse(values.begin(), values.end());
        raw.clear();
        if (nulls_first) raw.insert(raw.end(), nulls.begin(), nulls.end());
        raw.insert(raw.end(), values.begin(), values.end());
        if (!nulls_first) raw.insert(raw.end(), nulls.begin(), nulls.end());
      }
      writer.Clear();
      for (auto r : raw)
        writer.AppendRaw(r);
      StoreList(result, row, writer.bytes());
    });
  });
}

// ---------------------------------------------------------------- aggregates of a list

enum class ListAggregate { kSum, kMin, kMax, kAvg, kCount, kFirst, kLast };

/// list_sum / list_min / list_max / list_avg / list_count over the non-NULL elements (NULL
/// for none, count 0). Sums of exact numbers are DECIMAL(38, s) (DuckDB's HUGEINT / DECIMAL(38,
/// s)), of floating point DOUBLE; avg is DOUBLE.
template <ListAggregate kKind>
std::optional<BoundScalarFunction> ResolveListAggregate(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || !args[0].IsList()) return std::nullopt;
  const LogicalType element = args[0].element();
  LogicalType result_type;
  switch (kKind) {
    case ListAggregate::kCount:
      result_type = kBigint;
      break;
    case ListAggregate::kMin:
    case ListAggregate::kMax:
    case ListAggregate::kFirst:
    case ListAggregate::kLast:
      result_type = element.valid() ? element : LogicalType::Integer();
      break;
    case ListAggregate::kAvg:
      if (element.valid() && !element.IsNumeric()) return std::nullopt;
      result_type = LogicalType::Double();
      break;
    case ListAggregate::kSum:
      if (element.valid() && !element.IsNumeric()) return std::nullopt;
      result_type = element.IsFloatingPoint() ? LogicalType::Double()
                                              : LogicalType::Decimal(38, element.scale());
      break;
  }
  return MakeBound(
      {args[0]}, result_type, [element, result_type](const Args& in, idx_t count, Vector& result) {
        RowLoop(in, count, result, [&](idx_t row) {
          ListReader reader(element, ListAt(*in[0], row));
          if constexpr (kKind == ListAggregate::kFirst || kKind == ListAggregate::kLast) {
            // The first / last element, NULL or not (DuckDB's first / last).
            bool any = false;
            while (reader.Next()) {
              any = true;
              if (kKind == ListAggregate::kFirst) break;
            }
            if (!any || !element.valid()) {
              result.validity().SetNull(row);
            } else {
              reader.WriteTo(result, row);
            }
            return;
          }
          int64_t n = 0;
          int128_t exact = 0;
          double real = 0;
          Value best;
          while (reader.Next()) {
            if (reader.IsNull()) continue;
            n++;
            if constexpr (kKind == ListAggregate::kMin || kKind == ListAggregate::kMax) {
              Value v = reader.GetValue();
              const int c = best.is_null() ? 0 : v.Compare(best);
              if (best.is_null() || (kKind == ListAggregate::kMin ? c < 0 : c > 0))
                best = std::move(v);
            } else if constexpr (kKind != ListAggregate::kCount) {
              Value v = reader.GetValue();
              if (element.IsFloatingPoint()) {
                real += v.GetDouble();
              } else if (__builtin_add_overflow(exact, v.GetInt128(), &exact)) {
                throw OutOfRangeError("Overflow in {}",
                                      kKind == ListAggregate::kAvg ? "list_avg" : "list_sum");
              }
            }
          }
          if (kKind == ListAggregate::kCount) {
            result.data<int64_t>()[row] = n;
            return;
          }
          if (n == 0) {
            result.validity().SetNull(row);
            return;
          }
          if constexpr (kKind == ListAggregate::kMin || kKind == ListAggregate::kMax) {
            WriteValue(result, row, best);
          } else if constexpr (kKind == ListAggregate::kAvg) {
            // Exact numbers are summed exactly and divided once (-0.425, not -0.42500000000000004).
            result.data<double>()[row] =
                element.IsFloatingPoint()
                    ? real / static_cast<double>(n)
                    : static_cast<double>(static_cast<long double>(exact) / n /
                                          std::pow(10.0L, element.scale()));
          } else if (result_type.IsFloatingPoint()) {
            result.data<double>()[row] = real;
          } else {
            StoreDecimal(result, row, exact);
          }
        });
      });
}

// ---------------------------------------------------------------- strings

/// string_split(s, sep): the pieces between separators (an empty separator splits into
/// characters); a NULL separator gives [s].
void SplitKernel(const Args& in, idx_t count, Vector& result) {
  ListWriter writer(kVarchar);
  for (idx_t row = 0; row < count; row++) {
    if (in[0]->IsNull(row)) {
      result.validity().SetNull(row);
      continue;
    }
    std::string_view text = ListAt(*in[0], row);
    writer.Clear();
    if (in[1]->IsNull(row)) {
      writer.AppendValue(Value::Varchar(std::string(text)));
    } else {
      std::string_view sep = ListAt(*in[1], row);
      if (sep.empty()) {
        for (size_t i = 0; i < text.size();) {
          size_t next = i + 1;
          while (next < text.size() && (static_cast<uint8_t>(text[next]) & 0xC0) == 0x80)
            next++;
          writer.AppendValue(Value::Varchar(std::string(text.substr(i, next - i))));
          i = next;
        }
      } else {
        size_t start = 0;
        while (true) {
          size_t found = text.find(sep, start);
          if (found == std::string_view::npos) break;
          writer.AppendValue(Value::Varchar(std::string(text.substr(start, found - start))));
          start = found + sep.size();
        }
        writer.AppendValue(Value::Varchar(std::string(text.substr(start))));
      }
    }
    StoreList(result, row, writer.bytes());
  }
}

/// Compiles `pattern` into `re` unless it is the one compiled last (a column of patterns is
/// mostly one constant): an invalid pattern is an Invalid Input Error.
void CompileIfChanged(std::string_view pattern, std::string& last_pattern,
                      std::unique_ptr<RE2>& re) {
  if (re && pattern == last_pattern) return;
  last_pattern = std::string(pattern);
  RE2::Options options;
  options.set_log_errors(false);
  re = std::make_unique<RE2>(last_pattern, options);
  if (!re->ok()) {
    throw InvalidInputError("invalid regular expression '{}': {}", pattern, re->error());
  }
}

/// regexp_split_to_array(s, pattern): the pieces between matches (RE2).
void RegexpSplitKernel(const Args& in, idx_t count, Vector& result) {
  ListWriter writer(kVarchar);
  std::string last_pattern;
  std::unique_ptr<RE2> re;
  RowLoop(in, count, result, [&](idx_t row) {
    std::string_view text = ListAt(*in[0], row);
    std::string_view pattern = ListAt(*in[1], row);
    CompileIfChanged(pattern, last_pattern, re);
    writer.Clear();
    size_t start = 0;
    re2::StringPiece input(text.data(), text.size());
    re2::StringPiece match;
    size_t search = 0;
    while (search <= text.size() &&
           re->Match(input, search, text.size(), RE2::UNANCHORED, &match, 1)) {
      const size_t match_begin = static_cast<size_t>(match.data() - text.data());
      if (match.empty()) {
        // An empty match splits nowhere: try one character further.
        search = match_begin + 1;
        continue;
      }
      writer.AppendValue(Value::Varchar(std::string(text.substr(start, match_begin - start))));
      start = match_begin + match.size();
      search = start;
    }
    writer.AppendValue(Value::Varchar(std::string(text.substr(start))));
    StoreList(result, row, writer.bytes());
  });
}

/// regexp_extract_all(s, pattern [, group]): group `group` (0: the whole match) of every
/// non-overlapping match, in order (RE2).
void RegexpExtractAllKernel(const Args& in, idx_t count, Vector& result) {
  ListWriter writer(kVarchar);
  std::string last_pattern;
  std::unique_ptr<RE2> re;
  RowLoop(in, count, result, [&](idx_t row) {
    std::string_view text = ListAt(*in[0], row);
    std::string_view pattern = ListAt(*in[1], row);
    const int64_t group = in.size() > 2 ? in[2]->data<int64_t>()[row] : 0;
    CompileIfChanged(pattern, last_pattern, re);
    if (group < 0 || group > re->NumberOfCapturingGroups()) {
      throw InvalidInputError(
          "regexp_extract_all: group {} out of range (the pattern has {} groups)", group,
          re->NumberOfCapturingGroups());
    }
    std::vector<re2::StringPiece> groups(static_cast<size_t>(group) + 1);
    re2::StringPiece input(text.data(), text.size());
    writer.Clear();
    size_t search = 0;
    while (search <= text.size() && re->Match(input, search, text.size(), RE2::UNANCHORED,
                                              groups.data(), static_cast<int>(groups.size()))) {
      const re2::StringPiece& whole = groups[0];
      const re2::StringPiece& wanted = groups[static_cast<size_t>(group)];
      writer.AppendValue(Value::Varchar(std::string(wanted.data(), wanted.size())));
      const size_t end = static_cast<size_t>(whole.data() - text.data()) + whole.size();
      search = whole.empty() ? end + 1 : end;
    }
    StoreList(result, row, writer.bytes());
  });
}

/// array_to_string(l, sep): the non-NULL elements' text joined (a NULL separator is ''); a list
/// of only NULLs gives NULL, an empty one '' (DuckDB's). With kAggregate
/// (list_aggregate(l, 'string_agg', sep)) NULL for an empty one too, as the aggregate gives.
template <bool kAggregate>
std::optional<BoundScalarFunction> ResolveToString(const std::vector<LogicalType>& args) {
  if (args.size() != 2 || !args[0].IsList() || !CanImplicitCast(args[1], kVarchar)) {
    return std::nullopt;
  }
  const LogicalType element = args[0].element();
  return MakeBound(
      {args[0], kVarchar}, kVarchar,
      [element](const Args& in, idx_t count, Vector& result) {
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row)) {
            result.validity().SetNull(row);
            continue;
          }
          std::string_view sep = in[1]->IsNull(row) ? std::string_view() : ListAt(*in[1], row);
          std::string out;
          bool first = true;
          ListReader reader(element, ListAt(*in[0], row));
          while (reader.Next()) {
            if (reader.IsNull()) continue;
            if (!first) out.append(sep);
            first = false;
            out += reader.Text();
          }
          // Only NULL elements: NULL (DuckDB's); no elements at all: ''.
          if (first && (kAggregate || ListLength(element, ListAt(*in[0], row)) > 0)) {
            result.validity().SetNull(row);
            continue;
          }
          result.data<StringRef>()[row] = result.AddString(out);
        }
      },
      /*null_propagating=*/false);
}

// ---------------------------------------------------------------- range

constexpr int64_t kMaxRangeElements = 10000000;

/// range(stop) / range(start, stop [, step]) (stop excluded) and generate_series (stop
/// included) as BIGINT[], of at most kMaxRangeElements elements.
template <bool kInclusive>
std::optional<BoundScalarFunction> ResolveRange(const std::vector<LogicalType>& args) {
  if (args.empty() || args.size() > 3) return std::nullopt;
  for (const auto& type : args) {
    if (!CanImplicitCast(type, kBigint)) return std::nullopt;
  }
  return MakeBound(std::vector<LogicalType>(args.size(), kBigint), LogicalType::List(kBigint),
                   [](const Args& in, idx_t count, Vector& result) {
                     ListWriter writer(kBigint);
                     RowLoop(in, count, result, [&](idx_t row) {
                       int64_t start = 0, stop, step = 1;
                       if (in.size() == 1) {
                         stop = in[0]->data<int64_t>()[row];
                       } else {
                         start = in[0]->data<int64_t>()[row];
                         stop = in[1]->data<int64_t>()[row];
                         if (in.size() == 3) step = in[2]->data<int64_t>()[row];
                       }
                       if (step == 0) throw InvalidInputError("the step of a range cannot be 0");
                       // The element count first: a list is one value in memory (9 bytes an
                       // element), so a huge one is an error before it is built.
                       const int128_t span = static_cast<int128_t>(stop) - start;
                       int128_t n = span / step + (kInclusive || span % step != 0 ? 1 : 0);
                       if ((span > 0 && step < 0) || (span < 0 && step > 0)) n = 0;
                       if (span == 0) n = kInclusive ? 1 : 0;
                       if (n > kMaxRangeElements) {
                         throw OutOfRangeError("{}: a list of more than {} elements",
                                               kInclusive ? "generate_series" : "range",
                                               kMaxRangeElements);
                       }
                       writer.Clear();
                       for (int128_t i = 0, v = start; i < n; i++, v += step)
                         writer.AppendValue(Value::Bigint(static_cast<int64_t>(v)));
                       StoreList(result, row, writer.bytes());
                     });
                   });
}

/// unnest(l): a placeholder the binder takes out of a select list (a LogicalUnnest does the
/// work); anywhere else it is an error when it runs. Not deterministic, so never folded.
std::optional<BoundScalarFunction> ResolveUnnest(const std::vector<LogicalType>& args) {
  if (args.size() != 1 || (args[0].valid() && !args[0].IsList())) return std::nullopt;
  const LogicalType list = args[0].valid() ? args[0] : LogicalType::List(LogicalType());
  const LogicalType element = list.element().valid() ? list.element() : LogicalType::Integer();
  return MakeBound(
      {list}, element,
      [](const Args&, idx_t, Vector&) {
        throw NotSupportedError(
            "unnest() is supported in a select list (and as FROM unnest(...)), not inside "
            "another clause or an aggregate");
      },
      /*null_propagating=*/false, /*deterministic=*/false);
}

template <typename Resolve>
void RegisterNames(FunctionRegistry& registry, std::initializer_list<const char*> names,
                   Resolve resolve, const std::string& help) {
  for (const char* name : names)
    registry.Register(name, resolve, help);
}

}  // namespace

void CastListVector(const Vector& in, Vector& out, idx_t count, bool try_cast) {
  const LogicalType& from = in.type();
  const LogicalType& to = out.type();
  for (idx_t row = 0; row < count; row++) {
    if (in.IsNull(row)) {
      out.validity().SetNull(row);
      continue;
    }
    std::string_view bytes = ListAt(in, row);
    if (!to.IsList()) {  // to VARCHAR
      out.data<StringRef>()[row] = out.AddString(ListToString(from.element(), bytes));
      continue;
    }
    const LogicalType element = to.element();
    ListWriter writer(element);
    if (!from.IsList()) {  // from VARCHAR
      std::vector<std::string> texts;
      std::vector<bool> nulls;
      if (!SplitListText(bytes, &texts, &nulls)) {
        if (try_cast) {
          out.validity().SetNull(row);
          continue;
        }
        throw InvalidInputError("Could not convert string '{}' to {}", bytes, to.ToString());
      }
      // TRY_CAST: an element that does not convert is a NULL element (DuckDB's).
      for (size_t i = 0; i < texts.size(); i++) {
        if (nulls[i]) {
          writer.AppendNull();
          continue;
        }
        writer.AppendValue(CastValue(Value::Varchar(texts[i]), element, try_cast));
      }
    } else {
      ListReader reader(from.element(), bytes);
      while (reader.Next()) {
        if (reader.IsNull()) {
          writer.AppendNull();
        } else {
          writer.AppendValue(CastValue(reader.GetValue(), element, try_cast));
        }
      }
    }
    out.data<StringRef>()[row] = out.AddString(writer.bytes());
  }
}

void RegisterListFunctions(FunctionRegistry& registry) {
  RegisterNames(registry, {"list_value", "list_pack"}, ResolveListValue, "list_value(ANY, ...)");
  RegisterNames(registry, {"len", "length", "array_length"}, ResolveLength, "len(LIST)");
  RegisterNames(registry, {"list_extract", "list_element", "array_extract"}, ResolveExtract,
                "list_extract(LIST, BIGINT)");
  RegisterNames(registry, {"list_slice", "array_slice"}, ResolveSlice,
                "list_slice(LIST, BIGINT, BIGINT)");
  RegisterNames(registry, {"list_contains", "list_has", "array_contains", "array_has"},
                ResolveSearch<false>, "list_contains(LIST, ANY)");
  RegisterNames(registry, {"list_position", "list_indexof", "array_position", "array_indexof"},
                ResolveSearch<true>, "list_position(LIST, ANY)");
  RegisterNames(registry, {"list_concat", "list_cat", "array_concat", "array_cat"},
                ResolveConcat<false>, "list_concat(LIST, LIST)");
  registry.Register("||", ResolveConcat<true>, "||(LIST, LIST)");
  RegisterNames(registry, {"list_sort", "array_sort"}, ResolveReorder<ListOrder::kSort>,
                "list_sort(LIST [, VARCHAR [, VARCHAR]])");
  RegisterNames(registry, {"list_reverse_sort", "array_reverse_sort"},
                ResolveReorder<ListOrder::kReverseSort>, "list_reverse_sort(LIST [, VARCHAR])");
  RegisterNames(registry, {"list_reverse", "array_reverse"}, ResolveReorder<ListOrder::kReverse>,
                "list_reverse(LIST)");
  RegisterNames(registry, {"list_distinct", "array_distinct"}, ResolveReorder<ListOrder::kDistinct>,
                "list_distinct(LIST)");
  registry.Register("list_sum", ResolveListAggregate<ListAggregate::kSum>, "list_sum(LIST)");
  registry.Register("list_min", ResolveListAggregate<ListAggregate::kMin>, "list_min(LIST)");
  registry.Register("list_max", ResolveListAggregate<ListAggregate::kMax>, "list_max(LIST)");
  registry.Register("list_avg", ResolveListAggregate<ListAggregate::kAvg>, "list_avg(LIST)");
  registry.Register("list_count", ResolveListAggregate<ListAggregate::kCount>, "list_count(LIST)");
  registry.Register("list_first", ResolveListAggregate<ListAggregate::kFirst>, "list_first(LIST)");
  registry.Register("list_last", ResolveListAggregate<ListAggregate::kLast>, "list_last(LIST)");
  RegisterNames(registry, {"list_unique", "array_unique"}, ResolveUnique, "list_unique(LIST)");
  RegisterNames(registry, {"list_where", "array_where"}, ResolveWhere,
                "list_where(LIST, BOOLEAN[])");
  RegisterNames(registry, {"list_intersect", "array_intersect"}, ResolveIntersect,
                "list_intersect(LIST, LIST)");
  RegisterNames(registry, {"list_has_any", "array_has_any"}, ResolveHasAnyAll<false>,
                "list_has_any(LIST, LIST)");
  RegisterNames(registry, {"list_has_all", "array_has_all"}, ResolveHasAnyAll<true>,
                "list_has_all(LIST, LIST)");
  RegisterNames(registry, {"list_append", "array_append", "array_push_back"}, ResolveAppend<false>,
                "list_append(LIST, ANY)");
  RegisterNames(registry, {"list_prepend", "array_prepend", "array_push_front"},
                ResolveAppend<true>, "list_prepend(ANY, LIST)");
  registry.Register("contains", ResolveSearch<false>, "contains(LIST, ANY)");
  RegisterFixed(registry, "regexp_extract_all", {kVarchar, kVarchar}, LogicalType::List(kVarchar),
                RegexpExtractAllKernel);
  RegisterFixed(registry, "regexp_extract_all", {kVarchar, kVarchar, kBigint},
                LogicalType::List(kVarchar), RegexpExtractAllKernel);
  for (const char* name : {"string_split", "str_split", "string_to_array", "split"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, LogicalType::List(kVarchar), SplitKernel,
                  /*null_propagating=*/false);
  }
  for (const char* name : {"regexp_split_to_array", "string_split_regex", "str_split_regex"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, LogicalType::List(kVarchar),
                  RegexpSplitKernel);
  }
  RegisterNames(registry, {"array_to_string", "list_to_string"}, ResolveToString<false>,
                "array_to_string(LIST, VARCHAR)");
  registry.Register("list_string_agg", ResolveToString<true>, "list_string_agg(LIST, VARCHAR)");
  registry.Register("unnest", ResolveUnnest, "unnest(LIST)");
  registry.Register("range", ResolveRange<false>, "range(BIGINT [, BIGINT [, BIGINT]])");
  registry.Register("generate_series", ResolveRange<true>,
                    "generate_series(BIGINT [, BIGINT [, BIGINT]])");
}

}  // namespace function_internal
}  // namespace shears
