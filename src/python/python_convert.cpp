// Engine values <-> Python objects, one value at a time: fetchone / fetchall rows and query
// parameters. Whole columns go through python_numpy.cpp instead.

// Python.h (through pybind11) before datetime.h, which needs it.
#include "python/python_internal.h"

#include <datetime.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "common/interval.h"
#include "common/list.h"
#include "common/types.h"
#include "common/vector.h"

namespace shears::python {

namespace {

// Imported once at module load; the module holds them for the process's lifetime (never
// released: they live as long as the interpreter's own modules).
PyObject* g_decimal = nullptr;  // decimal.Decimal
PyObject* g_utc = nullptr;      // datetime.timezone.utc

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

py::object DateObject(int32_t days) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year < 1 || year > 9999) {
    throw OutOfRangeError("date {} is outside Python's datetime.date range (years 1 to 9999)",
                          FormatDate(days));
  }
  return py::reinterpret_steal<py::object>(
      PyDate_FromDate(static_cast<int>(year), static_cast<int>(month), static_cast<int>(day)));
}

py::object TimestampObject(int64_t micros) {
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    days--;
  }
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  if (year < 1 || year > 9999) {
    throw OutOfRangeError(
        "timestamp {} is outside Python's datetime.datetime range (years 1 to 9999)",
        FormatTimestamp(micros));
  }
  const int64_t seconds = rest / 1000000;
  return py::reinterpret_steal<py::object>(PyDateTime_FromDateAndTime(
      static_cast<int>(year), static_cast<int>(month), static_cast<int>(day),
      static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
      static_cast<int>(seconds % 60), static_cast<int>(rest % 1000000)));
}

py::object DecimalObject(int128_t unscaled, int scale) {
  const std::string text = FormatDecimal(unscaled, scale);
  return py::reinterpret_borrow<py::object>(g_decimal)(py::str(text));
}

}  // namespace

void InitConversions() {
  PyDateTime_IMPORT;
  if (!PyDateTimeAPI) throw py::error_already_set();
  g_decimal = py::object(py::module_::import("decimal").attr("Decimal")).release().ptr();
  g_utc = py::object(py::module_::import("datetime").attr("timezone").attr("utc")).release().ptr();
}

py::object ToPython(const Vector& vector, idx_t row) {
  if (vector.IsNull(row)) return py::none();
  const LogicalType& type = vector.type();
  switch (type.id()) {
    case TypeId::kBoolean:
      return py::bool_(vector.data<uint8_t>()[row] != 0);
    case TypeId::kInteger:
      return py::int_(vector.data<int32_t>()[row]);
    case TypeId::kBigint:
      return py::int_(vector.data<int64_t>()[row]);
    case TypeId::kDouble:
    case TypeId::kFloat:
      return py::float_(vector.data<double>()[row]);
    case TypeId::kDecimal:
      if (type.physical() == PhysicalType::kInt64) {
        return DecimalObject(vector.data<int64_t>()[row], type.scale());
      }
      return DecimalObject(vector.data<int128_t>()[row], type.scale());
    case TypeId::kDate:
      return DateObject(vector.data<int32_t>()[row]);
    case TypeId::kTimestamp:
      return TimestampObject(vector.data<int64_t>()[row]);
    case TypeId::kTime: {
      const int64_t micros = vector.data<int64_t>()[row];
      if (micros >= 86400LL * 1000000) {
        throw OutOfRangeError("TIME 24:00:00 is outside Python's datetime.time range");
      }
      const int64_t seconds = micros / 1000000;
      return py::reinterpret_steal<py::object>(
          PyTime_FromTime(static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                          static_cast<int>(seconds % 60), static_cast<int>(micros % 1000000)));
    }
    case TypeId::kVarchar: {
      const StringRef s = vector.data<StringRef>()[row];
      return py::reinterpret_steal<py::object>(PyUnicode_FromStringAndSize(s.ptr, s.len));
    }
    case TypeId::kBlob: {
      const StringRef s = vector.data<StringRef>()[row];
      return py::bytes(s.ptr, s.len);
    }
    case TypeId::kInterval: {
      // A timedelta has no months: one counts as 30 days, as DuckDB's Python API does.
      const Interval interval = UnpackInterval(vector.data<int128_t>()[row]);
      const int64_t days =
          int64_t{interval.months} * 30 + interval.days + interval.micros / (86400LL * 1000000);
      const int64_t micros = interval.micros % (86400LL * 1000000);
      return py::reinterpret_steal<py::object>(PyDelta_FromDSU(static_cast<int>(days),
                                                               static_cast<int>(micros / 1000000),
                                                               static_cast<int>(micros % 1000000)));
    }
    case TypeId::kList: {
      // A Python list of the elements, each converted as a value of the element type.
      const LogicalType element = type.element();
      py::list out;
      ListReader reader(element, vector.data<StringRef>()[row].view());
      Vector one(element.valid() ? element : LogicalType::Integer(), 1);
      while (reader.Next()) {
        if (reader.IsNull()) {
          out.append(py::none());
          continue;
        }
        one.Reset();
        reader.WriteTo(one, 0);
        out.append(ToPython(one, 0));
      }
      return out;
    }
    case TypeId::kStruct:
    case TypeId::kMap: {
      // A dict: a STRUCT's fields by name, a MAP's keys to values (as DuckDB's Python API).
      py::dict out;
      const std::string_view bytes = vector.data<StringRef>()[row].view();
      auto convert = [](const Value& value) -> py::object {
        if (value.is_null()) return py::none();
        Vector one(value.type(), 1);
        WriteValue(one, 0, value);
        return ToPython(one, 0);
      };
      if (type.IsStruct()) {
        const std::vector<Value> fields = DecodeStruct(type, bytes);
        for (size_t i = 0; i < fields.size(); i++)
          out[py::str(type.field_names()[i])] = convert(fields[i]);
      } else {
        for (const Value& entry : DecodeList(type.element(), bytes)) {
          if (entry.is_null()) continue;
          const std::vector<Value> pair = entry.GetStruct();
          out[convert(pair[0])] = convert(pair[1]);
        }
      }
      return out;
    }
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("a result column of invalid type");
}

namespace {

Value DecimalValue(py::handle object) {
  // Decimal.as_tuple(): (sign, digits, exponent); exponent is 'n', 'N' or 'F' for NaN and
  // infinities.
  py::tuple parts = object.attr("as_tuple")();
  if (!py::isinstance<py::int_>(parts[2])) {
    throw InvalidInputError("decimal parameter {} is not a finite number",
                            py::str(object).cast<std::string>());
  }
  const int sign = parts[0].cast<int>();
  py::tuple digits = parts[1];
  int exponent = parts[2].cast<int>();
  int128_t unscaled = 0;
  int precision = 0;
  for (auto digit : digits) {
    if (precision == 0 && digit.cast<int>() == 0) continue;  // leading zeros
    unscaled = unscaled * 10 + digit.cast<int>();
    if (++precision > LogicalType::kMaxDecimalPrecision) {
      throw OutOfRangeError("decimal parameter {} has more than 38 digits",
                            py::str(object).cast<std::string>());
    }
  }
  // A positive exponent (1E+3): scale 0, the digits multiplied out.
  for (; exponent > 0; exponent--) {
    unscaled *= 10;
    if (++precision > LogicalType::kMaxDecimalPrecision) {
      throw OutOfRangeError("decimal parameter {} has more than 38 digits",
                            py::str(object).cast<std::string>());
    }
  }
  const int scale = -exponent;
  if (scale > LogicalType::kMaxDecimalPrecision) {
    throw OutOfRangeError("decimal parameter {} has more than 38 fraction digits",
                          py::str(object).cast<std::string>());
  }
  precision = std::max({precision, scale, 1});
  if (precision > LogicalType::kMaxDecimalPrecision) {
    throw OutOfRangeError("decimal parameter {} has more than 38 digits",
                          py::str(object).cast<std::string>());
  }
  return Value::Decimal(sign ? -unscaled : unscaled, precision, scale);
}

}  // namespace

Value FromPython(py::handle object) {
  PyObject* o = object.ptr();
  if (o == Py_None) return Value();
  if (PyBool_Check(o)) return Value::Boolean(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) {
      throw OutOfRangeError("integer parameter {} does not fit in BIGINT",
                            py::str(object).cast<std::string>());
    }
    if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
      return Value::Integer(static_cast<int32_t>(v));
    }
    return Value::Bigint(v);
  }
  if (PyFloat_Check(o)) return Value::Double(PyFloat_AS_DOUBLE(o));
  if (PyUnicode_Check(o)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(o, &size);
    if (!data) throw py::error_already_set();
    return Value::Varchar(std::string(data, static_cast<size_t>(size)));
  }
  if (PyBytes_Check(o)) {
    return Value::Blob(std::string(PyBytes_AS_STRING(o), static_cast<size_t>(PyBytes_GET_SIZE(o))));
  }
  if (PyByteArray_Check(o) || PyMemoryView_Check(o)) {
    return FromPython(py::bytes(py::reinterpret_borrow<py::object>(object)));
  }
  if (PyDateTime_Check(o)) {
    py::object value = py::reinterpret_borrow<py::object>(object);
    if (!value.attr("tzinfo").is_none()) {
      value = value.attr("astimezone")(py::reinterpret_borrow<py::object>(g_utc));
    }
    const int32_t days =
        DaysFromCivil(PyDateTime_GET_YEAR(value.ptr()), PyDateTime_GET_MONTH(value.ptr()),
                      PyDateTime_GET_DAY(value.ptr()));
    const int64_t seconds = PyDateTime_DATE_GET_HOUR(value.ptr()) * 3600 +
                            PyDateTime_DATE_GET_MINUTE(value.ptr()) * 60 +
                            PyDateTime_DATE_GET_SECOND(value.ptr());
    return Value::Timestamp(days * kMicrosPerDay + seconds * 1000000 +
                            PyDateTime_DATE_GET_MICROSECOND(value.ptr()));
  }
  if (PyDate_Check(o)) {
    return Value::Date(
        DaysFromCivil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o)));
  }
  if (PyObject_IsInstance(o, g_decimal) == 1) return DecimalValue(object);
  // numpy scalars (np.int64(3), np.float32(1.5), np.datetime64(...)): as their Python value.
  if (py::hasattr(object, "item") && py::hasattr(object, "dtype")) {
    py::object item = object.attr("item")();
    if (item.ptr() != o && !py::hasattr(item, "dtype")) return FromPython(item);
  }
  throw InvalidInputError(
      "a {} cannot be a query parameter (None, bool, int, float, str, bytes, "
      "date, datetime or Decimal)",
      py::str(py::type::of(object).attr("__name__")).cast<std::string>());
}

}  // namespace shears::python
