#pragma once
// Shared by the files of the Python module: conversions between engine values and Python
// objects (python_convert.cpp), results as numpy arrays and pandas frames
// (python_numpy.cpp) and Python objects scanned as tables (python_scan.cpp).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "common/value.h"
#include "main/connection.h"

namespace shears::python {

namespace py = pybind11;

/// Once, at import: the datetime C API and the Python classes the conversions build.
void InitConversions();

/// Row `row` of `vector` as a Python object: None, bool, int, float, decimal.Decimal,
/// datetime.date, datetime.datetime, str or bytes.
py::object ToPython(const Vector& vector, idx_t row);

/// A query parameter's value: None, bool, int, float, str, bytes, datetime.date,
/// datetime.datetime (an aware one converted to UTC), decimal.Decimal or a numpy scalar.
/// InvalidInputError for other objects.
Value FromPython(py::handle object);

/// Every column of `result` as a numpy array (a masked array when it holds NULLs).
py::dict FetchNumpy(const QueryResult& result);
/// `result` as a pandas DataFrame (see docs/python.md for the dtypes).
py::object FetchDataFrame(const QueryResult& result);

/// `object` as a table, when it is one the module can scan (a pandas DataFrame, a dict of
/// 1-D numpy arrays, a numpy array); null otherwise. Needs the GIL.
std::shared_ptr<const Dataset> ScanPythonObject(py::handle object, const std::string& name);
/// A query's result as a table (a result queried by its variable name): its columns copied
/// into contiguous arrays once, strings pointing into the result, which the table keeps.
std::shared_ptr<const Dataset> ScanQueryResult(std::shared_ptr<const QueryResult> result);

}  // namespace shears::python
