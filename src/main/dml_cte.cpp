// WITH name AS (INSERT | UPDATE | DELETE ... [RETURNING ...]) before a SELECT: each write
// runs first, in the order written, and the CTE reads its RETURNING rows
// (without RETURNING: a row per row written, with no column to read but `rows`). The
// statement then runs as usual and sees what the writes did, as in DuckDB.

#include "main/dml_cte.h"

#include <algorithm>

#include "common/error.h"
#include "main/write_internal.h"
#include "main/write_statements.h"

namespace shears {

namespace {

// Only a SELECT's: the writes (INSERT's defaults, ON CONFLICT, RETURNING) parse their
// statement again, which would bring the CTE's write back.
ast::QueryNode* TopQuery(const ast::Statement& statement) {
  if (statement.kind != ast::StatementKind::kSelect) return nullptr;
  return static_cast<const ast::SelectStatement&>(statement).query.get();
}

/// Whether the write has RETURNING (its result is then the rows, else the count).
bool Returns(const ast::Statement& write) {
  switch (write.kind) {
    case ast::StatementKind::kInsert:
      return !static_cast<const ast::InsertStatement&>(write).returning.empty();
    case ast::StatementKind::kUpdate:
      return !static_cast<const ast::UpdateStatement&>(write).returning.empty();
    default:
      return !static_cast<const ast::DeleteStatement&>(write).returning.empty();
  }
}

}  // namespace

bool HasDmlCte(const ast::Statement& statement) {
  const ast::QueryNode* query = TopQuery(statement);
  if (query == nullptr) return false;
  for (const auto& cte : query->ctes) {
    if (cte.dml) return true;
  }
  return false;
}

ast::StatementPtr RunDmlCtes(Database& database, const Settings& settings, const std::string& sql,
                             const ast::Statement& statement) {
  // A copy to change: a prepared statement's AST serves every EXECUTE.
  ast::StatementPtr copy = write_internal::Reparse(sql, statement);
  for (auto& cte : TopQuery(*copy)->ctes) {
    if (!cte.dml) continue;
    QueryResult result = RunWriteStatement(database, settings, sql, *cte.dml);
    std::vector<std::string> names = result.names;
    if (!result.rows) result.rows = std::make_shared<ColumnDataCollection>(result.types);
    if (!Returns(*cte.dml)) {
      // No RETURNING: the count, as that many rows.
      const int64_t count = result.rows->batch(0).column(0).data<int64_t>()[0];
      result.rows = std::make_shared<ColumnDataCollection>(result.types);
      for (int64_t done = 0; done < count;) {
        const idx_t n = static_cast<idx_t>(std::min<int64_t>(count - done, kBatchSize));
        Batch batch(result.types, n);
        for (idx_t r = 0; r < n; r++)
          batch.column(0).data<int64_t>()[r] = done + static_cast<int64_t>(r) + 1;
        batch.SetSize(n);
        result.rows->Append(batch);
        done += static_cast<int64_t>(n);
      }
    }
    cte.query = write_internal::RowsAsQuery(*result.rows, names);
    cte.dml.reset();
  }
  return copy;
}

}  // namespace shears
