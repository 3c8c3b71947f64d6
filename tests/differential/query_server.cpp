// shears_query_server: runs SQL requests from standard input on one connection and answers each
// with one JSON line, so the differential tests (tests/differential/) pay one process start for
// thousands of queries, and a failing query does not end the session.
//
// Usage: shears_query_server [DBDIR]: the catalog in DBDIR (as `shears DBDIR`), else in memory.
// Request: SQL text, then a line holding only "\x1e" (ASCII record separator). A first line
// "\x1d" NAME runs the request on the connection NAME (made at its first request, to the same
// database; the peer runner's `statement ok con2`), else on the default connection.
// Answer, one line per request (the result of its last statement; ms is that statement's wall
// time, as `shears --timer` prints it, which bench/star_bench.mjs times queries by; cpu_ms is
// the CPU time, user and system, of all the process's threads over the whole request, which
// bench/auto_vs_off.mjs compares by):
//   {"names":[...],"types":["INTEGER","DECIMAL(7,2)",...],"rows":[["1","2.50"],[null,...]],"ms":1.5,"cpu_ms":2.9}
//   {"error":"Not Supported Error","message":"..."}
// Values are shears' own text (doubles shortest round-trip), NULL is null.

#include <time.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "common/error.h"
#include "main/connection.h"
#include "output/result_writer.h"

namespace {

/// CPU time of every thread of this process so far, those that ended included, in ms.
double ProcessCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

std::string Answer(const shears::QueryResult& result, double cpu_ms) {
  std::string out = "{\"names\":[";
  for (size_t c = 0; c < result.names.size(); c++)
    out += (c ? "," : "") + shears::JsonQuote(result.names[c]);
  out += "],\"types\":[";
  for (size_t c = 0; c < result.types.size(); c++)
    out += (c ? "," : "") + shears::JsonQuote(result.types[c].ToString());
  out += "],\"rows\":[";
  bool first_row = true;
  if (result.rows) {
    for (size_t b = 0; b < result.rows->batch_count(); b++) {
      const auto& batch = result.rows->batch(b);
      for (shears::idx_t row = 0; row < batch.size(); row++) {
        out += first_row ? "[" : ",[";
        first_row = false;
        for (shears::idx_t c = 0; c < batch.column_count(); c++) {
          if (c) out += ",";
          const auto& column = batch.column(c);
          out += column.IsNull(row) ? "null" : shears::JsonQuote(column.ValueToString(row));
        }
        out += "]";
      }
    }
  }
  return out + "],\"ms\":" + std::to_string(result.elapsed_ms) +
         ",\"cpu_ms\":" + std::to_string(cpu_ms) + "}";
}

std::string ErrorAnswer(const std::string& kind, const std::string& message) {
  return "{\"error\":" + shears::JsonQuote(kind) + ",\"message\":" + shears::JsonQuote(message) +
         "}";
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  if (argc > 2) {
    std::cerr << "usage: shears_query_server [DBDIR]" << std::endl;
    return 2;
  }
  std::unique_ptr<shears::Database> owned;
  try {
    owned = argc == 2 ? std::make_unique<shears::Database>(argv[1])
                      : std::make_unique<shears::Database>();
  } catch (const shears::Error& e) {
    std::cerr << shears::ErrorKindName(e.kind()) << ": " << e.what() << std::endl;
    return 1;
  }
  shears::Database& database = *owned;
  shears::Connection connection(database);
  std::map<std::string, std::unique_ptr<shears::Connection>> named;
  shears::Connection* current = &connection;
  std::string line, sql;
  while (std::getline(std::cin, line)) {
    if (sql.empty() && !line.empty() && line[0] == '\x1d') {
      auto& slot = named[line.substr(1)];
      if (!slot) slot = std::make_unique<shears::Connection>(database);
      current = slot.get();
      continue;
    }
    if (line != "\x1e") {
      sql += line + "\n";
      continue;
    }
    std::string answer;
    try {
      const double cpu_before = ProcessCpuMs();
      shears::QueryResult result = current->Query(sql);
      answer = Answer(result, ProcessCpuMs() - cpu_before);
    } catch (const shears::Error& e) {
      answer = ErrorAnswer(shears::ErrorKindName(e.kind()), e.what());
    } catch (const std::exception& e) {
      // Anything but a shears::Error escaping is a bug; the test reports it as such.
      answer = ErrorAnswer("Internal Error", std::string("uncaught exception: ") + e.what());
    }
    std::cout << answer << std::endl;
    sql.clear();
    current = &connection;
  }
  return 0;
}
