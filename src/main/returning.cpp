// RETURNING of INSERT, UPDATE and DELETE: a select list over the rows a write inserted,
// changed (their new values) or deleted, run as a query.
//
// INSERT computes its rows once, into memory, then writes them and runs RETURNING over them
// (a second run of the query would draw new sequence values, random numbers or clock
// readings). UPDATE and DELETE rewrite the whole table; their RETURNING reads the same
// snapshot before the rewrite: the deleted rows, or the changed rows' new values (refused
// when computing them calls a volatile function, which could give other values than the ones
// written).

#include <utility>

#include "common/error.h"
#include "common/value.h"
#include "execution/operator/physical_result_collector.h"
#include "expression/expression.h"
#include "main/write_internal.h"
#include "parser/ast_visit.h"
#include "planner/bind_context.h"

namespace shears::write_internal {

namespace {

bool PlanCallsVolatile(LogicalOperator& op) {
  for (BoundExprPtr* expr : op.Expressions()) {
    if (*expr && CallsVolatile(**expr)) return true;
  }
  for (auto& child : op.children) {
    if (PlanCallsVolatile(*child)) return true;
  }
  return false;
}

/// Runs a bound query into memory.
std::shared_ptr<ColumnDataCollection> Materialize(BoundQuery bound, const Settings& settings) {
  const std::vector<LogicalType> types = bound.types;
  auto sink = std::make_unique<PhysicalResultCollector>(types);
  return ExecuteInto(std::move(bound), settings, std::move(sink),
                     [&](ExecutionContext& context, const PhysicalOperator& op) {
                       auto rows = std::make_shared<ColumnDataCollection>(types);
                       rows->Combine(PhysicalResultCollector::Result(context, op));
                       return rows;
                     });
}

/// VALUES (...), ... of `rows` as constants of their columns' types.
ast::QueryNodePtr ValuesAst(const ColumnDataCollection& rows) {
  auto values = std::make_unique<ast::ValuesNode>();
  for (size_t b = 0; b < rows.batch_count(); b++) {
    const Batch& batch = rows.batch(b);
    for (idx_t r = 0; r < batch.size(); r++) {
      std::vector<ast::ExprPtr> row;
      for (idx_t c = 0; c < batch.column_count(); c++)
        row.push_back(Constant(ReadValue(batch.column(c), r)));
      values->rows.push_back(std::move(row));
    }
  }
  return values;
}

/// `rows` as the FROM item `alias(names)`.
ast::TableRefPtr RowsAsTable(const ColumnDataCollection& rows,
                             const std::vector<std::string>& names, const std::string& alias) {
  return DerivedAst(RowsAsQuery(rows, names), alias, names);
}

/// Aggregates and window functions have no meaning over the written rows one by one, and a
/// subquery would read the table mid-write: DuckDB refuses all three, and so does this.
void CheckReturningItem(const ast::Expr& expr) {
  if (expr.kind == ast::ExprKind::kSubquery)
    throw BinderError("SUBQUERY is not supported in RETURNING");
  if (expr.kind == ast::ExprKind::kFunction) {
    const auto& call = static_cast<const ast::FunctionExpr&>(expr);
    if (call.over) throw BinderError("window functions are not allowed in RETURNING");
    if (IsAggregateFunction(call.name)) {
      throw BinderError("aggregate function {} is not allowed in RETURNING", call.name);
    }
  }
  ast::ForEachChild(expr, [](const ast::Expr& child) { CheckReturningItem(child); });
}

}  // namespace

ast::QueryNodePtr RowsAsQuery(const ColumnDataCollection& rows,
                              const std::vector<std::string>& names) {
  auto select = std::make_unique<ast::SelectNode>();
  if (rows.row_count() > 0) {
    select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
    select->from = DerivedAst(ValuesAst(rows), "__shears_rows", names);
    return select;
  }
  for (size_t c = 0; c < names.size(); c++)
    select->select_list.push_back({Constant(Value::Null(rows.types()[c])), names[c]});
  select->where = Constant(Value::Boolean(false));
  return select;
}

std::string ShortName(const TableDefinition& table) {
  return table.name.substr(table.name.rfind('.') + 1);
}

namespace {

BoundWrite BindReturning(const Catalog& catalog, const Settings& settings, const std::string& sql,
                         std::vector<ast::SelectItem> items, ast::TableRefPtr from,
                         ast::ExprPtr where) {
  for (const auto& item : items)
    CheckReturningItem(*item.expr);
  auto query = std::make_unique<ast::SelectNode>();
  query->select_list = std::move(items);
  query->from = std::move(from);
  query->where = std::move(where);
  return BindWrite(catalog, settings, sql, *query);
}

std::vector<ast::SelectItem> ReturningOf(const std::string& sql,
                                         const ast::InsertStatement& insert) {
  // From a copy of the statement: the AST has no deep copy.
  auto copy = Reparse(sql, insert);
  return std::move(static_cast<ast::InsertStatement&>(*copy).returning);
}

}  // namespace

QueryResult RunReturning(const Catalog& catalog, const Settings& settings, const std::string& sql,
                         std::vector<ast::SelectItem> items, ast::TableRefPtr from,
                         ast::ExprPtr where) {
  BoundWrite bound =
      BindReturning(catalog, settings, sql, std::move(items), std::move(from), std::move(where));
  QueryResult result;
  result.names = bound.query.names;
  result.types = bound.query.types;
  result.rows = Materialize(std::move(bound.query), settings);
  return result;
}

void RejectVolatile(const Catalog& catalog, const Settings& settings, const std::string& sql,
                    const ast::QueryNode& query, const char* statement) {
  BoundWrite bound = BindWrite(catalog, settings, sql, query);
  if (PlanCallsVolatile(*bound.query.plan)) {
    throw NotSupportedError(
        "{} ... RETURNING is not supported when the new values or the condition call a volatile "
        "function (random(), nextval(), now() in a transaction, ...): RETURNING could show other "
        "values than those written; run the {} and a SELECT apart",
        statement, statement);
  }
}

QueryResult InsertReturning(Database& database, const Settings& settings, const std::string& sql,
                            const TableDefinition& table, const ast::InsertStatement& insert,
                            BoundWrite bound) {
  Catalog& catalog = database.catalog();
  const std::vector<std::string> names = bound.query.names;
  const std::vector<LogicalType> types = bound.query.types;
  // RETURNING binds (or fails) before anything is written.
  BindReturning(catalog, settings, sql, ReturningOf(sql, insert),
                RowsAsTable(ColumnDataCollection(types), names, ShortName(table)), nullptr);
  const auto rows = Materialize(std::move(bound.query), settings);
  if (rows->row_count() > 0) {
    BoundWrite values = BindWrite(catalog, settings, sql, *ValuesAst(*rows));
    CastForWrite(values, types, names);
    WriteManaged(database, settings, std::move(values.query), table, "INSERT",
                 [&](std::vector<CatalogPartition> partitions) {
                   catalog.AppendFiles(table.name, partitions);
                 });
  }
  return RunReturning(catalog, settings, sql, ReturningOf(sql, insert),
                      RowsAsTable(*rows, names, ShortName(table)), nullptr);
}

}  // namespace shears::write_internal
