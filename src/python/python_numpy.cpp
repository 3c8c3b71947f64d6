// Results as numpy arrays and pandas frames, built column by column in C++: each array is
// allocated once at its full length and filled from the result's batches with the GIL
// released, so no Python object is made per value (except for strings, which numpy and
// pandas 1.x keep as Python objects). The dtypes are listed in docs/python.md.

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/error.h"
#include "common/vector.h"
#include "python/python_internal.h"

namespace shears::python {

namespace {

constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();

enum class Target { kNumpy, kPandas };

struct ColumnArrays {
  py::array data;
  // A bool array, true for NULL; null when the column holds no NULL (a py::object: a default
  // py::array would be an empty array, not null).
  py::object mask;
};

idx_t CountNulls(const QueryResult& result, size_t column) {
  idx_t nulls = 0;
  for (size_t b = 0; b < result.rows->batch_count(); b++) {
    const Batch& batch = result.rows->batch(b);
    nulls += batch.column(column).validity().CountNulls(batch.size());
  }
  return nulls;
}

// Calls fill(vector, rows, offset) for each batch, the GIL released.
template <typename Fill>
void ForEachBatch(const QueryResult& result, size_t column, Fill fill) {
  py::gil_scoped_release release;
  idx_t offset = 0;
  for (size_t b = 0; b < result.rows->batch_count(); b++) {
    const Batch& batch = result.rows->batch(b);
    fill(batch.column(column), batch.size(), offset);
    offset += batch.size();
  }
}

// out[i] = convert(value) for valid rows, null_value for NULLs.
template <typename From, typename To, typename Convert>
void FillConverted(const QueryResult& result, size_t column, To* out, Convert convert,
                   To null_value) {
  ForEachBatch(result, column, [&](const Vector& vector, idx_t rows, idx_t offset) {
    const From* in = vector.data<From>();
    To* dst = out + offset;
    if (vector.validity().AllValid()) {
      for (idx_t i = 0; i < rows; i++)
        dst[i] = convert(in[i]);
      return;
    }
    for (idx_t i = 0; i < rows; i++)
      dst[i] = vector.validity().IsValid(i) ? convert(in[i]) : null_value;
  });
}

// The values as they are (same layout), NULLs as null_value.
template <typename T>
void FillCopied(const QueryResult& result, size_t column, T* out, T null_value) {
  ForEachBatch(result, column, [&](const Vector& vector, idx_t rows, idx_t offset) {
    std::memcpy(out + offset, vector.data<T>(), rows * sizeof(T));
    if (vector.validity().AllValid()) return;
    for (idx_t i = 0; i < rows; i++) {
      if (!vector.validity().IsValid(i)) out[offset + i] = null_value;
    }
  });
}

template <typename T>
T* Data(py::array& array) {
  return static_cast<T*>(array.mutable_data());
}

int64_t ScaleTime(int64_t value, int64_t factor, const std::string& column) {
  int64_t out;
  if (__builtin_mul_overflow(value, factor, &out)) {
    throw OutOfRangeError(
        "column '{}' holds a value outside pandas' datetime64[ns] range (years 1677 to 2262); "
        "use fetchnumpy() or fetchall()",
        column);
  }
  return out;
}

ColumnArrays BuildColumn(const QueryResult& result, size_t column, Target target) {
  const idx_t rows = result.row_count();
  const auto n = static_cast<py::ssize_t>(rows);
  const LogicalType& type = result.types[column];
  const std::string& name = result.names[column];
  const idx_t nulls = rows > 0 ? CountNulls(result, column) : 0;
  const bool pandas = target == Target::kPandas;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnArrays out;
  switch (type.id()) {
    case TypeId::kBoolean:
      out.data = py::array(py::dtype("bool"), n);
      FillCopied<uint8_t>(result, column, Data<uint8_t>(out.data), 0);
      break;
    case TypeId::kInteger:
      out.data = py::array(py::dtype("int32"), n);
      FillCopied<int32_t>(result, column, Data<int32_t>(out.data), 0);
      break;
    case TypeId::kBigint:
      out.data = py::array(py::dtype("int64"), n);
      FillCopied<int64_t>(result, column, Data<int64_t>(out.data), 0);
      break;
    case TypeId::kDouble:
      out.data = py::array(py::dtype("float64"), n);
      FillCopied<double>(result, column, Data<double>(out.data), nan);
      break;
    case TypeId::kFloat:
      out.data = py::array(py::dtype("float32"), n);
      FillConverted<double, float>(
          result, column, Data<float>(out.data), [](double v) { return static_cast<float>(v); },
          std::numeric_limits<float>::quiet_NaN());
      break;
    case TypeId::kDecimal: {
      // As DuckDB does: float64, exact up to 15 significant digits.
      out.data = py::array(py::dtype("float64"), n);
      const double divisor = std::pow(10.0, type.scale());
      if (type.physical() == PhysicalType::kInt64) {
        FillConverted<int64_t, double>(
            result, column, Data<double>(out.data),
            [divisor](int64_t v) { return static_cast<double>(v) / divisor; }, nan);
      } else {
        FillConverted<int128_t, double>(
            result, column, Data<double>(out.data),
            [divisor](int128_t v) { return static_cast<double>(v) / divisor; }, nan);
      }
      break;
    }
    case TypeId::kDate:
      if (pandas) {
        out.data = py::array(py::dtype("datetime64[ns]"), n);
        FillConverted<int32_t, int64_t>(
            result, column, Data<int64_t>(out.data),
            [&name](int32_t days) { return ScaleTime(days, 86400LL * 1000000000, name); }, kNaT);
      } else {
        out.data = py::array(py::dtype("datetime64[D]"), n);
        FillConverted<int32_t, int64_t>(
            result, column, Data<int64_t>(out.data), [](int32_t days) { return int64_t{days}; },
            kNaT);
      }
      break;
    case TypeId::kTimestamp:
      if (pandas) {
        out.data = py::array(py::dtype("datetime64[ns]"), n);
        FillConverted<int64_t, int64_t>(
            result, column, Data<int64_t>(out.data),
            [&name](int64_t micros) { return ScaleTime(micros, 1000, name); }, kNaT);
      } else {
        out.data = py::array(py::dtype("datetime64[us]"), n);
        FillCopied<int64_t>(result, column, Data<int64_t>(out.data), kNaT);
      }
      break;
    case TypeId::kVarchar:
    case TypeId::kBlob:
    case TypeId::kInterval:
    case TypeId::kList:    // Python lists
    case TypeId::kStruct:  // dicts
    case TypeId::kMap:
    case TypeId::kTime: {  // objects: str, bytes, datetime.timedelta, datetime.time
      out.data = py::array(py::dtype("object"), n);
      auto** objects = Data<PyObject*>(out.data);
      idx_t offset = 0;
      for (size_t b = 0; b < result.rows->batch_count(); b++) {
        const Batch& batch = result.rows->batch(b);
        for (idx_t r = 0; r < batch.size(); r++) {
          // The new array holds None references; each is replaced by the value's.
          PyObject* value = ToPython(batch.column(column), r).release().ptr();
          std::swap(objects[offset + r], value);
          Py_XDECREF(value);
        }
        offset += batch.size();
      }
      break;
    }
    case TypeId::kInvalid:
      throw InternalError("a result column of invalid type");
  }
  const bool nan_marks_null = type.IsFloatingPoint() || type.id() == TypeId::kDecimal;
  const bool nat_marks_null = type.id() == TypeId::kDate || type.id() == TypeId::kTimestamp;
  const bool none_marks_null = type.IsString();
  // pandas marks NULLs by NaN, NaT and None itself; numpy needs the mask for every type.
  if (nulls > 0 && !(pandas && (nan_marks_null || nat_marks_null || none_marks_null))) {
    py::array mask_array(py::dtype("bool"), n);
    bool* mask = Data<bool>(mask_array);
    out.mask = mask_array;
    ForEachBatch(result, column, [&](const Vector& vector, idx_t count, idx_t offset) {
      for (idx_t i = 0; i < count; i++)
        mask[offset + i] = !vector.validity().IsValid(i);
    });
  }
  return out;
}

}  // namespace

py::dict FetchNumpy(const QueryResult& result) {
  py::dict out;
  if (!result.rows) return out;
  py::object masked_array = py::module_::import("numpy.ma").attr("MaskedArray");
  for (size_t c = 0; c < result.names.size(); c++) {
    ColumnArrays column = BuildColumn(result, c, Target::kNumpy);
    py::str name(result.names[c]);
    if (column.mask) {
      out[name] = masked_array(column.data, py::arg("mask") = column.mask);
    } else {
      out[name] = column.data;
    }
  }
  return out;
}

py::object FetchDataFrame(const QueryResult& result) {
  py::module_ pandas = py::module_::import("pandas");
  py::object arrays = pandas.attr("arrays");
  // Keyed by position, so duplicate column names survive; named afterwards.
  py::dict columns;
  py::list names;
  for (size_t c = 0; c < result.names.size(); c++) {
    names.append(py::str(result.names[c]));
    if (!result.rows) continue;
    ColumnArrays column = BuildColumn(result, c, Target::kPandas);
    py::object values = column.data;
    if (column.mask) {
      // Nullable dtypes (Int32, Int64, boolean): values and mask as they are.
      const bool boolean = result.types[c].id() == TypeId::kBoolean;
      values = arrays.attr(boolean ? "BooleanArray" : "IntegerArray")(column.data, column.mask);
    }
    columns[py::int_(c)] = values;
  }
  // copy=False: pandas keeps each array as its own block rather than copying them into
  // consolidated 2-D blocks (which costs more than building the arrays).
  py::object frame = pandas.attr("DataFrame")(columns, py::arg("copy") = false);
  if (!result.rows) frame = pandas.attr("DataFrame")(py::arg("columns") = names);
  frame.attr("columns") = names;
  return frame;
}

}  // namespace shears::python
