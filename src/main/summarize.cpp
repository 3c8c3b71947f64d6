// SUMMARIZE (DuckDB's): one row per column of a table, view or query with its type, min, max,
// approximate distinct count, mean, standard deviation, quartiles, row count and share of
// NULLs. The statistics come from one aggregate query over the input (one pass over it), whose
// single row is turned into a row per column here.
#include <fmt/format.h>
#include "common/error.h"
#include "common/value.h"
#include "main/connection.h"

namespace shears {

QueryResult Connection::Summarize(const std::string& query_sql) {
  const BoundQuery bound = BindForColumns(query_sql, "SUMMARIZE");
  const size_t n = bound.names.size();
  // Columns are renamed by position (c0, c1, ...), so equal or awkward names stay apart. Per
  // column: min, max, approximate distinct count, non-NULL count, then the moments.
  constexpr int kPerColumn = 9;
  std::string select = "SELECT count(*)";
  std::string aliases;
  for (size_t i = 0; i < n; i++) {
    aliases += fmt::format("{}c{}", i == 0 ? "" : ", ", i);
    const bool typed = bound.types[i].valid();
    const std::string c = typed ? fmt::format("c{}", i) : "CAST(NULL AS INTEGER)";
    select += fmt::format(
        ", CAST(min({0}) AS VARCHAR), CAST(max({0}) AS VARCHAR), "
        "approx_count_distinct({0}), count({0})",
        c);
    // Mean, deviation and quartiles are for numbers only (DuckDB leaves them NULL otherwise).
    if (bound.types[i].IsNumeric()) {
      select += fmt::format(
          ", CAST(avg({0}) AS VARCHAR), CAST(stddev_samp({0}) AS VARCHAR), "
          "CAST(quantile_cont({0}, 0.25) AS VARCHAR), CAST(quantile_cont({0}, 0.5) AS VARCHAR), "
          "CAST(quantile_cont({0}, 0.75) AS VARCHAR)",
          c);
    } else {
      select += ", NULL, NULL, NULL, NULL, NULL";
    }
  }
  select += fmt::format(" FROM ({}) AS __summarized", query_sql);
  if (n > 0) select += "(" + aliases + ")";
  const QueryResult stats = Query(select);
  std::vector<Value> row;
  for (size_t b = 0; b < stats.rows->batch_count() && row.empty(); b++) {
    const Batch& batch = stats.rows->batch(b);
    if (batch.size() == 0) continue;
    for (size_t c = 0; c < batch.column_count(); c++)
      row.push_back(ReadValue(batch.column(c), 0));
  }
  if (row.size() != 1 + n * kPerColumn) throw InternalError("SUMMARIZE: unexpected statistics");

  QueryResult result;
  result.names = {"column_name", "column_type", "min", "max", "approx_unique", "avg",
                  "std",         "q25",         "q50", "q75", "count",         "null_percentage"};
  const LogicalType text = LogicalType::Varchar();
  const LogicalType percent = LogicalType::Decimal(9, 2);
  result.types = {text, text, text, text, LogicalType::Bigint(), text,
                  text, text, text, text, LogicalType::Bigint(), percent};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, std::max<idx_t>(n, 1));
  const int64_t total = row[0].GetInt64();
  for (size_t i = 0; i < n; i++) {
    const Value* s = &row[1 + i * kPerColumn];
    const int64_t non_null = s[3].GetInt64();
    // The share of NULLs in hundredths of a percent, rounded half up.
    const int64_t hundredths = total == 0 ? 0 : ((total - non_null) * 20000 / total + 1) / 2;
    const Value cells[] = {
        Value::Varchar(bound.names[i]),
        Value::Varchar(bound.types[i].valid() ? bound.types[i].ToString() : "NULL"),
        s[0],
        s[1],
        Value::Bigint(s[2].is_null() ? 0 : s[2].GetInt64()),
        s[4],
        s[5],
        s[6],
        s[7],
        s[8],
        Value::Bigint(total),
        Value::Decimal(hundredths, 9, 2)};
    for (size_t c = 0; c < result.types.size(); c++) {
      WriteValue(batch.column(c), i, cells[c].is_null() ? Value::Null(result.types[c]) : cells[c]);
    }
  }
  batch.SetSize(n);
  result.rows->Append(batch);
  return result;
}

}  // namespace shears
