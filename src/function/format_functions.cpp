// format(template, args...) with the {fmt} library's {} syntax and printf / sprintf(template,
// args...) with C's % syntax, as DuckDB has them (it uses {fmt} too): integers and booleans are
// passed as themselves, DOUBLE, REAL and DECIMAL as doubles, every other type as its text. A
// NULL argument makes the result NULL; a template that does not fit its arguments is an
// Invalid Input Error naming the function.

#include <fmt/args.h>
#include <fmt/format.h>
#include <fmt/printf.h>

#include <cmath>
#include <string>

#include "function/function_internal.h"

namespace shears {

namespace function_internal {
namespace {
/// A double in format's {} without a spec prints as shears and DuckDB print a DOUBLE (100.0,
/// 1e+20); with a spec ({:.2f}) as {fmt} formats it.
struct FormatDoubleArg {
  double value;
};
}  // namespace
}  // namespace function_internal
}  // namespace shears

template <>
struct fmt::formatter<shears::function_internal::FormatDoubleArg> : fmt::formatter<double> {
  bool plain = true;
  constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) {
    plain = ctx.begin() == ctx.end() || *ctx.begin() == '}';
    return fmt::formatter<double>::parse(ctx);
  }
  template <typename FormatContext>
  auto format(const shears::function_internal::FormatDoubleArg& arg, FormatContext& ctx) const
      -> decltype(ctx.out()) {
    if (plain) {
      const std::string text = shears::FormatDouble(arg.value);
      return std::copy(text.begin(), text.end(), ctx.out());
    }
    return fmt::formatter<double>::format(arg.value, ctx);
  }
};

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

double DecimalAsDouble(const Vector& v, idx_t row) {
  const int128_t unscaled = v.type().physical() == PhysicalType::kInt64
                                ? int128_t{v.data<int64_t>()[row]}
                                : v.data<int128_t>()[row];
  return static_cast<double>(unscaled) / std::pow(10.0, v.type().scale());
}

/// Adds the value at `row` of `v` to `store` as DuckDB passes it to {fmt}.
template <typename Store>
void PushArgument(Store& store, const Vector& v, idx_t row, bool printf_style) {
  switch (v.type().id()) {
    case TypeId::kBoolean:
      store.push_back(v.data<uint8_t>()[row] != 0);
      return;
    case TypeId::kInteger:
      store.push_back(int64_t{v.data<int32_t>()[row]});
      return;
    case TypeId::kBigint:
      store.push_back(v.data<int64_t>()[row]);
      return;
    case TypeId::kDecimal:
      if (v.type().scale() == 0) {  // DECIMAL(38,0), shears' HUGEINT: as an integer
        if (v.type().physical() == PhysicalType::kInt64) {
          store.push_back(v.data<int64_t>()[row]);
        } else {
          store.push_back(v.ValueToString(row));
        }
        return;
      }
      [[fallthrough]];
    case TypeId::kDouble:
    case TypeId::kFloat: {
      const double value =
          v.type().id() == TypeId::kDecimal ? DecimalAsDouble(v, row) : v.data<double>()[row];
      if constexpr (std::is_same_v<Store, fmt::dynamic_format_arg_store<fmt::format_context>>) {
        if (!printf_style) {
          store.push_back(FormatDoubleArg{value});
          return;
        }
      }
      store.push_back(value);
      return;
    }
    default:
      store.push_back(v.ValueToString(row));
      return;
  }
}

FunctionRegistry::Resolver FormatResolver(bool printf_style) {
  return
      [printf_style](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.empty()) return std::nullopt;
        if (args[0].valid() && args[0].id() != TypeId::kVarchar) return std::nullopt;
        std::vector<LogicalType> types = args;
        types[0] = LogicalType::Varchar();
        for (auto& type : types) {
          if (!type.valid()) type = LogicalType::Varchar();  // NULL: the result is NULL anyway
        }
        const char* name = printf_style ? "printf" : "format";
        ScalarKernel kernel = [printf_style, name](const Args& a, idx_t count, Vector& result) {
          StringRef* out = result.data<StringRef>();
          ForEachValidRow(a, count, result, [&](idx_t row) {
            const std::string_view pattern = a[0]->data<StringRef>()[row].view();
            std::string text;
            try {
              if (printf_style) {
                fmt::dynamic_format_arg_store<fmt::printf_context> store;
                for (size_t i = 1; i < a.size(); i++)
                  PushArgument(store, *a[i], row, true);
                text = fmt::vsprintf(fmt::string_view(pattern.data(), pattern.size()), store);
              } else {
                fmt::dynamic_format_arg_store<fmt::format_context> store;
                for (size_t i = 1; i < a.size(); i++)
                  PushArgument(store, *a[i], row, false);
                text = fmt::vformat(fmt::string_view(pattern.data(), pattern.size()), store);
              }
            } catch (const fmt::format_error& e) {
              throw InvalidInputError("{}: {} in '{}'", name, e.what(), pattern);
            }
            out[row] = result.AddString(text);
          });
        };
        return MakeBound(std::move(types), LogicalType::Varchar(), std::move(kernel));
      };
}

}  // namespace

void RegisterFormatFunctions(FunctionRegistry& registry) {
  registry.Register("format", FormatResolver(false), "format(VARCHAR, ANY, ...)");
  for (const char* name : {"printf", "sprintf"}) {
    registry.Register(name, FormatResolver(true), std::string(name) + "(VARCHAR, ANY, ...)");
  }
}

}  // namespace function_internal
}  // namespace shears
