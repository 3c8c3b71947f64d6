// list_resize / array_resize(l, n [, fill]): l cut or padded to n elements (DuckDB's).

#include <limits>

#include "common/list.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

/// The padding is `fill` (cast to the element type) or NULL; a NULL n gives an empty list and a
/// NULL list NULL; a negative n is an Out of Range error.
std::optional<BoundScalarFunction> ResolveListResize(const std::vector<LogicalType>& args) {
  if (args.size() < 2 || args.size() > 3) return std::nullopt;
  const LogicalType list = args[0].valid() ? args[0]
                                           : LogicalType::List(args.size() == 3 && args[2].valid()
                                                                   ? args[2]
                                                                   : LogicalType::Integer());
  if (!list.IsList() || !CanImplicitCast(args[1], LogicalType::Bigint())) return std::nullopt;
  LogicalType element = list.element().valid() ? list.element() : LogicalType::Integer();
  std::vector<LogicalType> arg_types = {LogicalType::List(element), LogicalType::Bigint()};
  if (args.size() == 3) {
    // A number pads a list of other numbers (2 into DECIMAL(2,1)[]), checked when cast.
    if (args[2].valid() && !CanImplicitCast(args[2], element) &&
        !(args[2].IsNumeric() && element.IsNumeric())) {
      return std::nullopt;
    }
    arg_types.push_back(element);
  }
  return MakeBound(
      arg_types, LogicalType::List(element),
      [element](const Args& in, idx_t count, Vector& result) {
        ListWriter writer(element);
        for (idx_t row = 0; row < count; row++) {
          if (in[0]->IsNull(row)) {
            result.validity().SetNull(row);
            continue;
          }
          const int64_t size = in[1]->IsNull(row) ? 0 : in[1]->data<int64_t>()[row];
          if (size < 0) {
            throw OutOfRangeError("list_resize: the new size {} must not be negative", size);
          }
          writer.Clear();
          ListReader reader(element, in[0]->data<StringRef>()[row].view());
          int64_t written = 0;
          while (written < size && reader.Next()) {
            writer.AppendRaw(reader.raw());
            written++;
          }
          const bool fill = in.size() > 2 && !in[2]->IsNull(row);
          for (; written < size; written++) {
            if (fill) {
              writer.AppendFrom(*in[2], row);
            } else {
              writer.AppendNull();
            }
            if (writer.bytes().size() > std::numeric_limits<uint32_t>::max()) {
              throw OutOfRangeError("list_resize: a LIST value of more than 4 GiB");
            }
          }
          result.data<StringRef>()[row] = result.AddString(writer.bytes());
        }
      },
      /*null_propagating=*/false);
}

}  // namespace

void RegisterListResizeFunctions(FunctionRegistry& registry) {
  registry.Register("list_resize", ResolveListResize, "list_resize(LIST, BIGINT [, ANY])");
  registry.Register("array_resize", ResolveListResize, "array_resize(LIST, BIGINT [, ANY])");
}

}  // namespace function_internal
}  // namespace shears
