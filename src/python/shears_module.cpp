// import shears: connections, results, errors as Python classes, Ctrl-C. See docs/python.md.
//
//   con = shears.connect()                 # or shears.connect("mydb", config={"threads": 2})
//   con.sql("SELECT 42 AS x").fetchall()   # [(42,)]
//   con.execute("SELECT * FROM df WHERE a > ?", [3]).df()
//   shears.sql("SELECT 1")                 # the default connection
//
// Queries run with the GIL released. Names in FROM that are no table are looked up among the
// caller's local, then global variables (python_scan.cpp). While a query runs on the main
// thread, SIGINT interrupts it (Connection::Interrupt, which only sets a flag) and the call
// raises KeyboardInterrupt once the query stopped.

#include <pybind11/stl.h>
#include <signal.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "common/string_util.h"
#include "output/result_writer.h"
#include "python/arrow_export.h"
#include "python/python_internal.h"

namespace shears::python {

namespace {

// ---- errors: shears.Error and one subclass per ErrorKind

constexpr ErrorKind kKinds[] = {
    ErrorKind::kInvalidInput, ErrorKind::kIO,          ErrorKind::kCorruptFile,
    ErrorKind::kNotSupported, ErrorKind::kParse,       ErrorKind::kBinder,
    ErrorKind::kOutOfRange,   ErrorKind::kOutOfMemory, ErrorKind::kCancelled,
    ErrorKind::kConstraint,   ErrorKind::kTransaction, ErrorKind::kInternal};
constexpr const char* kClassNames[] = {"InvalidInputError", "IOError",          "CorruptFileError",
                                       "NotSupportedError", "ParseError",       "BinderError",
                                       "OutOfRangeError",   "OutOfMemoryError", "CancelledError",
                                       "ConstraintError",   "TransactionError", "InternalError"};
constexpr size_t kKindCount = sizeof(kKinds) / sizeof(kKinds[0]);
static_assert(sizeof(kClassNames) / sizeof(kClassNames[0]) == kKindCount);

PyObject* g_error_classes[kKindCount] = {};
PyObject* g_base_error = nullptr;

PyObject* ErrorClass(ErrorKind kind) {
  for (size_t i = 0; i < kKindCount; i++) {
    if (kKinds[i] == kind) return g_error_classes[i];
  }
  return g_base_error;
}

void RegisterErrors(py::module_& m) {
  g_base_error = PyErr_NewExceptionWithDoc(
      "shears.Error", "Base class of the errors shears raises.", PyExc_Exception, nullptr);
  m.add_object("Error", py::handle(g_base_error));
  for (size_t i = 0; i < kKindCount; i++) {
    const std::string name = std::string("shears.") + kClassNames[i];
    g_error_classes[i] = PyErr_NewException(name.c_str(), g_base_error, nullptr);
    m.add_object(kClassNames[i], py::handle(g_error_classes[i]));
  }
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const Error& e) {
      PyErr_SetString(ErrorClass(e.kind()), e.what());
    }
  });
}

// ---- Ctrl-C

std::atomic<Connection*> g_sigint_target{nullptr};
std::atomic<bool> g_sigint_seen{false};
static_assert(std::atomic<Connection*>::is_always_lock_free);

extern "C" void OnSigint(int) {
  g_sigint_seen.store(true);
  if (Connection* connection = g_sigint_target.load()) connection->Interrupt();
}

// While a query runs on the main thread with Python's default SIGINT handler, SIGINT
// interrupts it; Python's handler is back in place when the scope ends. Made holding the GIL.
class SigintScope {
 public:
  explicit SigintScope(Connection& connection) {
    py::module_ threading = py::module_::import("threading");
    if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return;
    py::module_ signal_module = py::module_::import("signal");
    if (!signal_module.attr("getsignal")(SIGINT).is(signal_module.attr("default_int_handler"))) {
      return;  // the program handles SIGINT itself
    }
    g_sigint_seen.store(false);
    g_sigint_target.store(&connection);
    struct sigaction action {};
    action.sa_handler = OnSigint;
    sigemptyset(&action.sa_mask);
    installed_ = sigaction(SIGINT, &action, &previous_) == 0;
    if (!installed_) g_sigint_target.store(nullptr);
  }
  ~SigintScope() {
    if (!installed_) return;
    sigaction(SIGINT, &previous_, nullptr);
    g_sigint_target.store(nullptr);
  }
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;
  /// Whether SIGINT arrived while the scope was installed.
  bool interrupted() const { return installed_ && g_sigint_seen.load(); }

 private:
  bool installed_ = false;
  struct sigaction previous_ {};
};

// ---- results

class PyConnection;

/// A query's result, fetched as rows, numpy arrays, a DataFrame or an Arrow stream.
class PyResult {
 public:
  PyResult(std::shared_ptr<PyConnection> connection, std::string sql, std::vector<Value> params,
           std::shared_ptr<const QueryResult> result)
      : connection_(std::move(connection)),
        sql_(std::move(sql)),
        params_(std::move(params)),
        result_(std::move(result)) {}

  py::object FetchOne() {
    const auto& rows = result_->rows;
    while (rows && batch_ < rows->batch_count() && row_ >= rows->batch(batch_).size()) {
      batch_++;
      row_ = 0;
    }
    if (!rows || batch_ >= rows->batch_count()) return py::none();
    py::object row = Row(rows->batch(batch_), row_);
    row_++;
    return row;
  }

  /// The rows fetchone has not returned yet.
  py::list FetchMany(int64_t limit) {
    py::list out;
    const auto& rows = result_->rows;
    while (rows && batch_ < rows->batch_count() && (limit < 0 || py::len(out) < size_t(limit))) {
      const Batch& batch = rows->batch(batch_);
      if (row_ >= batch.size()) {
        batch_++;
        row_ = 0;
        continue;
      }
      out.append(Row(batch, row_));
      row_++;
    }
    return out;
  }

  py::dict FetchNumpyArrays() const { return FetchNumpy(*result_); }
  py::object Df() const { return FetchDataFrame(*result_); }

  std::string Render() const {
    std::ostringstream text;
    size_t width = 0;
    try {
      width =
          py::module_::import("shutil").attr("get_terminal_size")().attr("columns").cast<size_t>();
    } catch (const py::error_already_set&) {
      width = 100;
    }
    auto writer = ResultWriter::Make(OutputFormat::kBox, text, width);
    writer->Begin(result_->names, result_->types);
    if (result_->rows) {
      for (size_t b = 0; b < result_->rows->batch_count(); b++)
        writer->Write(result_->rows->batch(b));
    }
    writer->End();
    return text.str();
  }

  std::string Explain() const;

  py::object ArrowStream(py::object requested_schema) const {
    // A requested schema may be ignored (the PyCapsule protocol leaves casting to the
    // consumer); the stream always has the result's own types.
    (void)requested_schema;
    auto* stream = new ArrowArrayStream();
    ExportArrowStream(result_, stream);
    PyObject* capsule = PyCapsule_New(stream, "arrow_array_stream", [](PyObject* object) {
      auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(object, "arrow_array_stream"));
      if (s && s->release) s->release(s);
      delete s;
    });
    if (!capsule) {
      stream->release(stream);
      delete stream;
      throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
  }

  py::list Columns() const {
    py::list out;
    for (const auto& name : result_->names)
      out.append(name);
    return out;
  }
  py::list Types() const {
    py::list out;
    for (const auto& type : result_->types)
      out.append(type.ToString());
    return out;
  }
  idx_t RowCount() const { return result_->row_count(); }
  const std::shared_ptr<const QueryResult>& result() const { return result_; }

 private:
  py::tuple Row(const Batch& batch, idx_t row) const {
    py::tuple out(batch.column_count());
    for (idx_t c = 0; c < batch.column_count(); c++)
      out[c] = ToPython(batch.column(c), row);
    return out;
  }

  // Weak: the connection holds its last result (a cycle otherwise); results own their rows.
  std::weak_ptr<PyConnection> connection_;
  std::string sql_;
  std::vector<Value> params_;
  std::shared_ptr<const QueryResult> result_;
  size_t batch_ = 0;  // fetchone's position
  idx_t row_ = 0;
};

// ---- connections

// Where a query's unknown table names are looked up: the caller's variables.
struct CallerVariables {
  py::object locals;
  py::object globals;

  static CallerVariables Capture() {
    CallerVariables vars{py::dict(), py::dict()};
    PyFrameObject* frame = PyEval_GetFrame();  // borrowed; the Python code calling us
    if (frame) {
      py::handle f(reinterpret_cast<PyObject*>(frame));
      vars.locals = f.attr("f_locals");
      vars.globals = f.attr("f_globals");
    }
    return vars;
  }

  /// The variable `name` (exactly, else the one variable whose name matches ignoring case: SQL
  /// folds unquoted names to lower case), locals first; null when there is none.
  py::object Find(const std::string& name) const {
    for (const py::object& scope : {locals, globals}) {
      if (!py::isinstance<py::dict>(scope) && !py::hasattr(scope, "items")) continue;
      py::object found;
      int matches = 0;
      for (auto item : scope.attr("items")()) {
        py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
        if (!py::isinstance<py::str>(pair[0])) continue;
        const std::string key = pair[0].cast<std::string>();
        if (key == name) return pair[1];
        if (AsciiLower(key) == AsciiLower(name)) {
          found = pair[1];
          matches++;
        }
      }
      if (matches == 1) return found;
    }
    return py::object();
  }
};

class PyConnection : public std::enable_shared_from_this<PyConnection> {
 public:
  PyConnection(const std::optional<std::string>& path, const py::dict& config) {
    database_ = path ? std::make_unique<Database>(*path) : std::make_unique<Database>();
    connection_ = std::make_unique<Connection>(*database_);
    for (auto [key, value] : config) {
      connection_->settings().Set(py::str(key).cast<std::string>(), FromPython(value));
    }
  }

  /// Runs `sql` (with `params` for its $n / ? parameters, when given).
  std::shared_ptr<PyResult> Run(const std::string& sql, const py::object& params) {
    if (!connection_) throw InvalidInputError("the connection is closed");
    std::vector<Value> values;
    const bool prepared = !params.is_none();
    if (prepared) {
      if (py::isinstance<py::str>(params) || !py::isinstance<py::sequence>(params)) {
        throw InvalidInputError("query parameters are given as a list or tuple");
      }
      for (auto value : params)
        values.push_back(FromPython(value));
    }
    return RunValues(sql, std::move(values), prepared);
  }

  std::shared_ptr<PyResult> RunValues(const std::string& sql, std::vector<Value> values,
                                      bool prepared) {
    if (!connection_) throw InvalidInputError("the connection is closed");
    const CallerVariables variables = CallerVariables::Capture();
    QueryResult result;
    // One statement at a time on a connection: waited for without the GIL, so a statement
    // running in another thread can take it to read its variables.
    std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
    {
      py::gil_scoped_release release;
      lock.lock();
    }
    {
      SigintScope sigint(*connection_);
      connection_->SetReplacementScan(
          [&variables](const std::string& name) -> std::shared_ptr<const Dataset> {
            py::gil_scoped_acquire gil;
            try {
              py::object object = variables.Find(name);
              if (!object) return nullptr;
              if (py::isinstance<PyResult>(object)) {
                return ScanQueryResult(object.cast<const PyResult&>().result());
              }
              return ScanPythonObject(object, name);
            } catch (py::error_already_set& e) {
              // A Python error while reading the object: its text, as a shears error (the
              // engine's frames between here and the caller know only those).
              throw InvalidInputError("reading Python variable '{}': {}", name, e.what());
            }
          });
      struct ClearScan {
        Connection& connection;
        ~ClearScan() { connection.SetReplacementScan(nullptr); }
      } clear_scan{*connection_};
      try {
        py::gil_scoped_release release;
        if (prepared) {
          result = connection_->Execute(connection_->Prepare(sql), values);
        } else {
          result = connection_->Query(sql);
        }
      } catch (const CancelledError&) {
        if (!sigint.interrupted()) throw;
      }
      if (sigint.interrupted()) {
        connection_->ClearInterrupt();
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
      }
    }
    last_ = std::make_shared<PyResult>(shared_from_this(), sql, std::move(values),
                                       std::make_shared<QueryResult>(std::move(result)));
    return last_;
  }

  PyResult& Last() {
    if (!last_) throw InvalidInputError("no query has run on this connection yet");
    return *last_;
  }

  void Close() {
    last_.reset();
    connection_.reset();
    // The database goes with the last result holding this connection.
  }

 private:
  std::unique_ptr<Database> database_;
  std::unique_ptr<Connection> connection_;
  std::shared_ptr<PyResult> last_;
  std::mutex mutex_;  // one statement at a time per connection
};

std::string PyResult::Explain() const {
  auto connection = connection_.lock();
  if (!connection) throw InvalidInputError("the connection of this result is gone");
  auto explained = connection->RunValues("EXPLAIN " + sql_, params_, !params_.empty());
  std::string text;
  for (auto row : explained->FetchMany(-1)) {
    text += py::reinterpret_borrow<py::tuple>(row)[0].cast<std::string>();
    text += '\n';
  }
  return text;
}

std::shared_ptr<PyConnection>& DefaultConnection() {
  static auto* connection = new std::shared_ptr<PyConnection>();  // lives until exit
  if (!*connection) *connection = std::make_shared<PyConnection>(std::nullopt, py::dict());
  return *connection;
}

}  // namespace

}  // namespace shears::python

PYBIND11_MODULE(shears, m) {
  using namespace shears::python;
  m.doc() =
      "shears, an analytical SQL engine: connect(), sql(), results as rows, numpy arrays, "
      "pandas DataFrames and Arrow streams; see docs/python.md";
  InitConversions();
  RegisterErrors(m);

  py::class_<PyResult, std::shared_ptr<PyResult>>(m, "Result",
                                                  "The result of a query (con.sql, con.execute).")
      .def("fetchone", &PyResult::FetchOne, "The next row as a tuple, or None after the last.")
      .def(
          "fetchall", [](PyResult& r) { return r.FetchMany(-1); },
          "The rows fetchone has not returned yet, as a list of tuples.")
      .def("fetchmany", &PyResult::FetchMany, py::arg("size") = 1,
           "Up to `size` of the rows fetchone has not returned yet.")
      .def("fetchnumpy", &PyResult::FetchNumpyArrays,
           "Every column as a numpy array (masked where it holds NULLs), by name.")
      .def("df", &PyResult::Df, "The result as a pandas DataFrame.")
      .def("fetchdf", &PyResult::Df, "The result as a pandas DataFrame.")
      .def(
          "show", [](const PyResult& r) { py::print(r.Render(), py::arg("end") = ""); },
          "Prints the result as a box.")
      .def("explain", &PyResult::Explain, "The query's plan (EXPLAIN), as text.")
      .def("__arrow_c_stream__", &PyResult::ArrowStream, py::arg("requested_schema") = py::none(),
           "The rows as an Arrow C stream (a PyCapsule 'arrow_array_stream').")
      .def_property_readonly("columns", &PyResult::Columns)
      .def_property_readonly("types", &PyResult::Types)
      .def("__len__", &PyResult::RowCount)
      .def("__repr__", &PyResult::Render);

  py::class_<PyConnection, std::shared_ptr<PyConnection>>(m, "Connection")
      .def("sql", &PyConnection::Run, py::arg("query"), py::arg("params") = py::none(),
           "Runs `query`; its $1 / ? parameters take `params` (a list) as a prepared statement.")
      .def("query", &PyConnection::Run, py::arg("query"), py::arg("params") = py::none())
      .def(
          "execute",
          [](PyConnection& c, const std::string& query, const py::object& params) {
            c.Run(query, params);
            return c.shared_from_this();
          },
          py::arg("query"), py::arg("params") = py::none(),
          "Runs `query` and returns the connection, whose fetch methods read its result.")
      .def("fetchone", [](PyConnection& c) { return c.Last().FetchOne(); })
      .def("fetchall", [](PyConnection& c) { return c.Last().FetchMany(-1); })
      .def(
          "fetchmany", [](PyConnection& c, int64_t size) { return c.Last().FetchMany(size); },
          py::arg("size") = 1)
      .def("fetchnumpy", [](PyConnection& c) { return c.Last().FetchNumpyArrays(); })
      .def("df", [](PyConnection& c) { return c.Last().Df(); })
      .def("fetchdf", [](PyConnection& c) { return c.Last().Df(); })
      .def("close", &PyConnection::Close)
      .def("__enter__", [](std::shared_ptr<PyConnection> c) { return c; })
      .def("__exit__", [](PyConnection& c, py::args) { c.Close(); });

  m.def(
      "connect",
      [](std::optional<std::string> path, py::object config) {
        py::dict settings = config.is_none() ? py::dict() : py::dict(config);
        return std::make_shared<PyConnection>(path, settings);
      },
      py::arg("path") = py::none(), py::arg("config") = py::none(),
      "A connection to the database in directory `path` (its catalog.db), or in memory.");
  m.def(
      "sql",
      [](const std::string& query, const py::object& params) {
        return DefaultConnection()->Run(query, params);
      },
      py::arg("query"), py::arg("params") = py::none(), "con.sql on the default connection.");
  m.def(
      "execute",
      [](const std::string& query, const py::object& params) {
        auto& connection = DefaultConnection();
        connection->Run(query, params);
        return connection;
      },
      py::arg("query"), py::arg("params") = py::none(), "con.execute on the default connection.");
  m.def("default_connection", []() { return DefaultConnection(); });
}
