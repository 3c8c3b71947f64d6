// shears_query_server: runs SQL requests from standard input on one connection and answers each
// with one JSON line, so the differential tests (tests/differential/) pay one process start for
// thousands of queries, and a failing query does not end the session.
//
// Request: SQL text, then a line holding only "\x1e" (ASCII record separator).
// Answer, one line per request (the result of its last statement):
//   {"names":[...],"types":["INTEGER","DECIMAL(7,2)",...],"rows":[["1","2.50"],[null,...]]}
//   {"error":"Not Supported Error","message":"..."}
// Values are shears' own text (doubles shortest round-trip), NULL is null.

#include <iostream>
#include <string>

#include "common/error.h"
#include "format/result_writer.h"
#include "main/connection.h"

namespace {

std::string Answer(const shears::QueryResult& result) {
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
  return out + "]}";
}

std::string ErrorAnswer(const std::string& kind, const std::string& message) {
  return "{\"error\":" + shears::JsonQuote(kind) + ",\"message\":" + shears::JsonQuote(message) +
         "}";
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  shears::Database database;
  shears::Connection connection(database);
  std::string line, sql;
  while (std::getline(std::cin, line)) {
    if (line != "\x1e") {
      sql += line + "\n";
      continue;
    }
    std::string answer;
    try {
      answer = Answer(connection.Query(sql));
    } catch (const shears::Error& e) {
      answer = ErrorAnswer(shears::ErrorKindName(e.kind()), e.what());
    } catch (const std::exception& e) {
      // Anything but a shears::Error escaping is a bug; the test reports it as such.
      answer = ErrorAnswer("Internal Error", std::string("uncaught exception: ") + e.what());
    }
    std::cout << answer << std::endl;
    sql.clear();
  }
  return 0;
}
