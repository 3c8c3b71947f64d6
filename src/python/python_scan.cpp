// Python objects as tables (the replacement scan: `SELECT ... FROM df` names a variable):
// pandas DataFrames, dicts of 1-D numpy arrays and numpy arrays become MemoryTables whose
// columns point into the objects' own buffers where the engine can read them in place
// (contiguous int32/int64/float64/bool arrays, datetime64[us], pandas' masked arrays with their
// masks); other numeric and time layouts are converted by the scan, batch by batch. Strings
// (object arrays) get an array of references into the str objects' UTF-8 buffers, made here
// under the GIL; the objects stay alive, held by the table, until the query's last vector
// lets go of them.

#include <cmath>
#include <cstring>
#include <vector>

#include "common/error.h"
#include "common/string_util.h"
#include "python/python_internal.h"
#include "storage/dataset.h"
#include "storage/memory_table.h"

namespace shears::python {

namespace {

// What a MemoryTable's columns point into: Python objects, released under the GIL, and the
// string references made for object columns.
struct PythonOwner {
  std::vector<py::object> objects;
  std::vector<std::unique_ptr<StringRef[]>> strings;
  std::vector<std::unique_ptr<uint8_t[]>> masks;
  PythonOwner() = default;
  PythonOwner(const PythonOwner&) = delete;
  PythonOwner& operator=(const PythonOwner&) = delete;
  ~PythonOwner() {
    // The last vector may go on any thread; Python objects are released holding the GIL
    // (not at all once the interpreter is gone).
    if (!Py_IsInitialized()) {
      for (auto& object : objects)
        object.release();
      return;
    }
    py::gil_scoped_acquire gil;
    objects.clear();
  }
};

struct Pandas {
  py::object data_frame;  // pandas.DataFrame, or None when pandas is not imported
  py::object na;          // pandas.NA
  py::object nat;         // pandas.NaT
};

Pandas ImportedPandas() {
  Pandas pandas{py::none(), py::none(), py::none()};
  py::dict modules = py::module_::import("sys").attr("modules");
  // Only when the program imported pandas: a scan of numpy arrays does not pay for it.
  if (!modules.contains("pandas")) return pandas;
  py::object module = modules["pandas"];
  pandas.data_frame = module.attr("DataFrame");
  pandas.na = module.attr("NA");
  pandas.nat = module.attr("NaT");
  return pandas;
}

bool IsMissing(PyObject* value, const Pandas& pandas) {
  if (value == Py_None || value == pandas.na.ptr() || value == pandas.nat.ptr()) return true;
  return PyFloat_Check(value) && std::isnan(PyFloat_AS_DOUBLE(value));
}

// An object array of str (or of bytes) and missing values.
void ObjectColumn(py::array array, const Pandas& pandas, MemoryColumn& column, PythonOwner& owner) {
  const auto rows = static_cast<size_t>(array.shape(0));
  auto refs = std::make_unique<StringRef[]>(std::max<size_t>(rows, 1));
  auto nulls = std::make_unique<uint8_t[]>(std::max<size_t>(rows, 1));
  PyObject* const* values = static_cast<PyObject* const*>(array.data());
  int kind = 0;  // 1: str, 2: bytes
  bool any_null = false;
  for (size_t i = 0; i < rows; i++) {
    PyObject* value = values[i];
    nulls[i] = 0;
    if (value == nullptr || IsMissing(value, pandas)) {
      nulls[i] = 1;
      any_null = true;
      continue;
    }
    int this_kind = PyUnicode_Check(value) ? 1 : PyBytes_Check(value) ? 2 : 0;
    if (this_kind == 0 || (kind != 0 && this_kind != kind)) {
      throw InvalidInputError(
          "column '{}' holds a {} at row {}: object columns must hold str (or bytes) and "
          "missing values only",
          column.name,
          py::str(py::type::of(py::handle(value)).attr("__name__")).cast<std::string>(), i);
    }
    kind = this_kind;
    if (kind == 1) {
      Py_ssize_t size = 0;
      // The UTF-8 form is cached in the str object, which the owner keeps alive.
      const char* data = PyUnicode_AsUTF8AndSize(value, &size);
      if (!data) throw py::error_already_set();
      refs[i] = StringRef(data, static_cast<uint32_t>(size));
    } else {
      refs[i] = StringRef(PyBytes_AS_STRING(value), static_cast<uint32_t>(PyBytes_GET_SIZE(value)));
    }
  }
  column.type = kind == 2 ? LogicalType::Blob() : LogicalType::Varchar();
  column.source = MemoryColumn::Source::kNative;
  column.data = refs.get();
  if (any_null) {
    column.null_mask = nulls.get();
    owner.masks.push_back(std::move(nulls));
  }
  owner.strings.push_back(std::move(refs));
  owner.objects.push_back(std::move(array));
}

// A 1-D numpy array as a column.
void ArrayColumn(py::array array, const Pandas& pandas, MemoryColumn& column, PythonOwner& owner) {
  py::module_ numpy = py::module_::import("numpy");
  if (array.ndim() != 1) throw InternalError("ArrayColumn of a {}-D array", array.ndim());
  py::dtype dtype = array.dtype();
  const char kind = dtype.kind();
  if (kind == 'U' || kind == 'S') {
    // Fixed-width numpy strings: as str / bytes objects.
    array = numpy.attr("asarray")(array, py::arg("dtype") = "object");
    return ObjectColumn(array, pandas, column, owner);
  }
  if (kind == 'O') return ObjectColumn(array, pandas, column, owner);
  // Read in place only in native byte order and contiguous; otherwise a copy that is.
  if (dtype.attr("byteorder").cast<std::string>() == ">") {
    array = array.attr("astype")(dtype.attr("newbyteorder")("="));
    dtype = array.dtype();
  }
  if (!(array.flags() & py::array::c_style)) array = numpy.attr("ascontiguousarray")(array);
  using Source = MemoryColumn::Source;
  const auto size = dtype.itemsize();
  column.source = Source::kNative;
  switch (kind) {
    case 'b':
      column.type = LogicalType::Boolean();
      break;
    case 'i':
      column.type = size <= 4 ? LogicalType::Integer() : LogicalType::Bigint();
      column.source = size == 1 ? Source::kInt8 : size == 2 ? Source::kInt16 : Source::kNative;
      break;
    case 'u':
      column.type = size <= 2 ? LogicalType::Integer() : LogicalType::Bigint();
      column.source = size == 1   ? Source::kUInt8
                      : size == 2 ? Source::kUInt16
                      : size == 4 ? Source::kUInt32
                                  : Source::kUInt64;
      break;
    case 'f':
      if (size == 4) {
        column.type = LogicalType::Float();
        column.source = Source::kFloat32;
      } else if (size == 8) {
        column.type = LogicalType::Double();
      } else {
        array = array.attr("astype")("float64");
        column.type = LogicalType::Double();
      }
      break;
    case 'M': {
      const std::string unit = numpy.attr("datetime_data")(dtype)[py::int_(0)].cast<std::string>();
      column.type = LogicalType::Timestamp();
      if (unit == "ns") {
        column.source = Source::kTimeNanos;
      } else if (unit == "us") {
        column.source = Source::kTimeMicros;
      } else if (unit == "ms") {
        column.source = Source::kTimeMillis;
      } else if (unit == "s") {
        column.source = Source::kTimeSeconds;
      } else if (unit == "D") {
        column.type = LogicalType::Date();
        column.source = Source::kTimeDays;
      } else {
        throw NotSupportedError("column '{}' is datetime64[{}]; shears reads D, s, ms, us and ns",
                                column.name, unit);
      }
      break;
    }
    default:
      throw NotSupportedError("column '{}' has numpy dtype {}, which shears cannot read",
                              column.name, py::str(dtype).cast<std::string>());
  }
  column.data = array.data();
  owner.objects.push_back(std::move(array));
}

void SeriesColumn(py::handle series, const Pandas& pandas, MemoryColumn& column,
                  PythonOwner& owner) {
  py::module_ numpy = py::module_::import("numpy");
  py::object values = series.attr("array");
  // pandas' masked arrays (Int64, Float64, boolean): values and mask, both read in place.
  if (py::hasattr(values, "_data") && py::hasattr(values, "_mask")) {
    py::array data = values.attr("_data");
    py::array mask = values.attr("_mask");
    if (data.ndim() == 1 && mask.ndim() == 1 && (mask.flags() & py::array::c_style) &&
        mask.dtype().kind() == 'b') {
      ArrayColumn(data, pandas, column, owner);
      column.null_mask = static_cast<const uint8_t*>(mask.data());
      owner.objects.push_back(std::move(mask));
      return;
    }
  }
  py::object dtype = series.attr("dtype");
  if (py::isinstance(dtype, numpy.attr("dtype"))) {
    // A numpy column: .values is the frame's own block row, not a copy (tz-aware times
    // come as UTC datetime64[ns]).
    py::array array = series.attr("values");
    ArrayColumn(array, pandas, column, owner);
    // In pandas a float NaN is a missing value.
    column.nan_is_null = column.type.IsFloatingPoint();
    return;
  }
  // Other extension types (categorical, string, ...): as objects.
  py::array array = numpy.attr("asarray")(series, py::arg("dtype") = "object");
  ObjectColumn(array, pandas, column, owner);
}

// The arrays a result's columns are copied into, and the result their strings point into.
struct ResultOwner {
  std::shared_ptr<const QueryResult> result;
  std::vector<std::unique_ptr<uint8_t[]>> buffers;
};

}  // namespace

std::shared_ptr<const Dataset> ScanQueryResult(std::shared_ptr<const QueryResult> result) {
  auto owner = std::make_shared<ResultOwner>();
  auto table = std::make_shared<MemoryTable>();
  table->rows = result->row_count();
  for (size_t c = 0; c < result->types.size(); c++) {
    const LogicalType& type = result->types[c];
    const size_t width = type.value_size();
    auto values = std::make_unique<uint8_t[]>(std::max<size_t>(table->rows * width, 1));
    std::unique_ptr<uint8_t[]> nulls;
    idx_t offset = 0;
    for (size_t b = 0; result->rows && b < result->rows->batch_count(); b++) {
      const Batch& batch = result->rows->batch(b);
      const Vector& vector = batch.column(c);
      std::memcpy(values.get() + offset * width, vector.data<uint8_t>(), batch.size() * width);
      if (!vector.validity().AllValid()) {
        if (!nulls) {
          nulls = std::make_unique<uint8_t[]>(table->rows);
          std::memset(nulls.get(), 0, table->rows);
        }
        for (idx_t r = 0; r < batch.size(); r++)
          nulls[offset + r] = !vector.validity().IsValid(r);
      }
      offset += batch.size();
    }
    MemoryColumn column{result->names[c], type,        MemoryColumn::Source::kNative,
                        values.get(),     nulls.get(), false};
    table->columns.push_back(std::move(column));
    owner->buffers.push_back(std::move(values));
    if (nulls) owner->buffers.push_back(std::move(nulls));
  }
  owner->result = std::move(result);
  table->owner = std::move(owner);
  return Dataset::FromMemory(std::move(table));
}

std::shared_ptr<const Dataset> ScanPythonObject(py::handle object, const std::string& name) {
  py::module_ numpy = py::module_::import("numpy");
  const Pandas pandas = ImportedPandas();
  auto owner = std::make_shared<PythonOwner>();
  auto table = std::make_shared<MemoryTable>();
  auto add = [&](const std::string& column_name) -> MemoryColumn& {
    for (const auto& existing : table->columns) {
      if (AsciiLower(existing.name) == AsciiLower(column_name)) {
        throw BinderError("'{}' has two columns named '{}'", name, column_name);
      }
    }
    table->columns.push_back(MemoryColumn{column_name, LogicalType(), {}, nullptr, nullptr, false});
    return table->columns.back();
  };
  auto check_rows = [&](size_t rows, const std::string& column_name) {
    if (table->columns.size() == 1) {
      table->rows = rows;
    } else if (rows != table->rows) {
      throw InvalidInputError("'{}': column '{}' has {} rows, the first column {}", name,
                              column_name, rows, table->rows);
    }
  };
  if (!pandas.data_frame.is_none() && py::isinstance(object, pandas.data_frame)) {
    owner->objects.push_back(py::reinterpret_borrow<py::object>(object));
    py::object columns = object.attr("columns");
    py::object iloc = object.attr("iloc");
    const auto count = py::len(columns);
    table->rows = py::len(object);
    for (size_t i = 0; i < count; i++) {
      const std::string column_name = py::str(columns[py::int_(i)]).cast<std::string>();
      MemoryColumn& column = add(column_name);
      py::object series = iloc[py::make_tuple(py::slice(py::none(), py::none(), py::none()), i)];
      SeriesColumn(series, pandas, column, *owner);
    }
  } else if (py::isinstance<py::dict>(object)) {
    py::dict dict = py::reinterpret_borrow<py::dict>(object);
    if (dict.size() == 0) return nullptr;
    for (auto [key, value] : dict) {
      if (!py::isinstance<py::str>(key) || !py::isinstance<py::array>(value) ||
          value.cast<py::array>().ndim() != 1) {
        return nullptr;  // not a dict of columns
      }
    }
    for (auto [key, value] : dict) {
      const std::string column_name = key.cast<std::string>();
      MemoryColumn& column = add(column_name);
      py::array array = value.cast<py::array>();
      check_rows(static_cast<size_t>(array.shape(0)), column_name);
      ArrayColumn(array, pandas, column, *owner);
    }
  } else if (py::isinstance<py::array>(object)) {
    py::array array = py::reinterpret_borrow<py::array>(object);
    if (array.ndim() == 1) {
      MemoryColumn& column = add("column0");
      check_rows(static_cast<size_t>(array.shape(0)), "column0");
      ArrayColumn(array, pandas, column, *owner);
    } else if (array.ndim() == 2) {
      for (py::ssize_t c = 0; c < array.shape(1); c++) {
        const std::string column_name = "column" + std::to_string(c);
        MemoryColumn& column = add(column_name);
        check_rows(static_cast<size_t>(array.shape(0)), column_name);
        py::array slice =
            array[py::make_tuple(py::slice(py::none(), py::none(), py::none()), py::int_(c))];
        ArrayColumn(slice, pandas, column, *owner);
      }
    } else {
      throw NotSupportedError("'{}' is a {}-D numpy array; shears reads 1-D and 2-D arrays", name,
                              array.ndim());
    }
  } else {
    return nullptr;
  }
  if (table->columns.empty()) {
    throw BinderError("'{}' has no columns", name);
  }
  table->owner = std::move(owner);
  return Dataset::FromMemory(std::move(table));
}

}  // namespace shears::python
