#include "main/write_internal.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "catalog/staged_write.h"
#include "common/error.h"
#include "common/string_util.h"
#include "execution/operator/physical_csv_write.h"
#include "execution/operator/physical_parquet_write.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "optimizer/optimizer.h"
#include "parser/parser.h"
#include "parser/type_text.h"
#include "planner/binder.h"
#include "storage/csv/csv_options.h"

namespace shears::write_internal {

namespace fs = std::filesystem;

/// A fresh copy of `statement` (the AST has no deep copy): its text parsed again, the rest of
/// `sql` blanked so offsets stay the user's and other statements are not parsed again.
ast::StatementPtr Reparse(const std::string& sql, const ast::Statement& statement) {
  const size_t begin = std::min(static_cast<size_t>(std::max(statement.location, 0)), sql.size());
  const size_t end = statement.length > 0
                         ? std::min(sql.size(), begin + static_cast<size_t>(statement.length))
                         : sql.size();
  std::string blanked = sql;
  for (size_t i = 0; i < blanked.size(); i++) {
    if ((i < begin || i >= end) && blanked[i] != '\n') blanked[i] = ' ';
  }
  for (auto& candidate : Parser::Parse(blanked)) {
    if (candidate->location == statement.location && candidate->kind == statement.kind) {
      if (statement.kind == ast::StatementKind::kInsert) {
        // INSERT BY NAME: the column list RunInsert found from the query's names stays.
        const auto& from = static_cast<const ast::InsertStatement&>(statement);
        auto& to = static_cast<ast::InsertStatement&>(*candidate);
        if (to.by_name && !from.by_name) {
          to.by_name = false;
          to.columns = from.columns;
        }
      }
      return std::move(candidate);
    }
  }
  throw InternalError("the statement at offset {} did not parse again", statement.location);
}

ast::ExprPtr ColumnRef(const std::string& relation, const std::string& column) {
  auto ref = std::make_unique<ast::ColumnRefExpr>();
  if (!relation.empty()) ref->names.push_back(relation);
  ref->names.push_back(column);
  return ref;
}

ast::ExprPtr Constant(Value value) {
  auto constant = std::make_unique<ast::ConstantExpr>();
  constant->value = std::move(value);
  return constant;
}

/// CAST(expr AS type), the type spelled as the binder reads it back.
ast::ExprPtr CastAst(ast::ExprPtr expr, const LogicalType& type) {
  auto cast = std::make_unique<ast::CastExpr>();
  cast->child = std::move(expr);
  // The type's text ("DECIMAL(10,2)[]", "STRUCT(a INTEGER)") read as a type name.
  cast->type = ParseTypeText(type.ToString());
  return cast;
}

namespace {

// ---------------------------------------------------------------- UPDATE and DELETE
//
// Both rewrite the whole table: a query over it computes the new rows, which are written as a
// staged write (checked against the table's constraints like an INSERT), then one catalog
// transaction swaps the old file list for the new one (the commit point: readers see the old
// or the new table, never a mix) and the old files are deleted.

std::unique_ptr<ast::BaseTableRef> TableRefAst(const std::string& name, const std::string& alias) {
  auto ref = std::make_unique<ast::BaseTableRef>();
  ref->name.push_back(name);
  ref->alias = alias;
  return ref;
}

/// NOT EXISTS (SELECT 1 FROM from WHERE condition) / EXISTS (...).
ast::ExprPtr ExistsAst(ast::TableRefPtr from, ast::ExprPtr condition, bool negated) {
  auto inner = std::make_unique<ast::SelectNode>();
  inner->select_list.push_back({Constant(Value::Integer(1)), ""});
  inner->from = std::move(from);
  inner->where = std::move(condition);
  auto exists = std::make_unique<ast::SubqueryExpr>();
  exists->subquery_kind = ast::SubqueryKind::kExists;
  exists->negated = negated;
  exists->query = std::move(inner);
  return exists;
}

/// The managed table an UPDATE or DELETE may rewrite.
TableDefinition RequireManaged(const Catalog& catalog, const std::string& sql,
                               const std::string& name, int location, const char* verb) {
  TableDefinition table = RequireTable(catalog, sql, name, location, verb);
  if (!table.managed) {
    throw NotSupportedError(
        "{} on the external table '{}' is not supported (shears changes only tables it "
        "created)\n{}",
        verb, name, FormatErrorPosition(sql, location));
  }
  return table;
}

/// SELECT count(*) FROM from [WHERE where].
int64_t CountRows(const Catalog& catalog, const Settings& settings, const std::string& sql,
                  ast::TableRefPtr from, ast::ExprPtr where) {
  auto query = std::make_unique<ast::SelectNode>();
  auto count_star = std::make_unique<ast::FunctionExpr>();
  count_star->name = "count";
  count_star->star = true;
  query->select_list.push_back({std::move(count_star), ""});
  query->from = std::move(from);
  query->where = std::move(where);
  BoundWrite bound = BindWrite(catalog, settings, sql, *query);
  auto sink = std::make_unique<PhysicalResultCollector>(bound.query.types);
  return ExecuteInto(std::move(bound.query), settings, std::move(sink),
                     [](ExecutionContext& context, const PhysicalOperator& op) {
                       const auto& rows = PhysicalResultCollector::Result(context, op);
                       return rows.batch(0).column(0).data<int64_t>()[0];
                     });
}

QueryResult CountResult(int64_t count) {
  QueryResult result;
  result.names = {"rows"};
  result.types = {LogicalType::Bigint()};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, 1);
  batch.column(0).data<int64_t>()[0] = count;
  batch.SetSize(1);
  result.rows->Append(batch);
  return result;
}

/// Writes the rows `query` computes (the table's columns, in order) as the table's new
/// content in place of every file it has now.
std::vector<WrittenPartFile> RewriteTable(Database& database, const Settings& settings,
                                          const std::string& sql, const TableDefinition& table,
                                          const ast::QueryNode& query,
                                          const std::string& statement) {
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  for (const auto& c : table.columns) {
    types.push_back(c.type);
    names.push_back(c.name);
  }
  std::vector<std::string> old_files;
  for (const auto& partition : table.partitions)
    for (const auto& file : partition.files)
      old_files.push_back(file.path);
  Catalog& catalog = database.catalog();
  BoundWrite bound = BindWrite(catalog, settings, sql, query);
  CastForWrite(bound, types, names);
  ProjectNotNullChecks(bound, table);
  return WriteManaged(
      database, settings, std::move(bound.query), table, statement,
      [&](std::vector<CatalogPartition> partitions) {
        catalog.SwapFiles(table.name, old_files, partitions);
      },
      &old_files);
}

/// For each column of `table`, the index of its assignment in `assignments`, or -1;
/// BinderError for an unknown column or one assigned twice.
std::vector<int> AssignedColumns(const std::string& sql, const TableDefinition& table,
                                 const std::vector<ast::ColumnAssignment>& assignments) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  std::vector<int> assigned(table.columns.size(), -1);
  for (size_t i = 0; i < assignments.size(); i++) {
    const auto& assignment = assignments[i];
    const int index = FindName(names, assignment.column);
    RejectGeneratedUpdate(table, assignment.column);
    if (index < 0) {
      throw BinderError("table '{}' has no column '{}'\n{}", table.name, assignment.column,
                        FormatErrorPosition(sql, assignment.location));
    }
    if (assigned[index] >= 0) {
      throw BinderError("column '{}' is assigned twice\n{}", assignment.column,
                        FormatErrorPosition(sql, assignment.location));
    }
    assigned[index] = static_cast<int>(i);
  }
  return assigned;
}

}  // namespace

QueryResult RunUpdate(Database& database, const Settings& settings, const std::string& sql,
                      const ast::UpdateStatement& update) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireManaged(catalog, sql, update.name, update.name_location, "UPDATE");
  // s.t answers to t, as a FROM item's name does.
  const std::string alias = update.alias.empty() ? ShortName(table) : update.alias;
  // Each assignment's column, validated before any scan.
  const std::vector<int> assigned = AssignedColumns(sql, table, update.assignments);
  // How many rows change: those WHERE holds for (with FROM: that have a FROM row it holds for).
  auto copy = Reparse(sql, update);
  auto& counted = static_cast<ast::UpdateStatement&>(*copy);
  ast::ExprPtr changes = std::move(counted.where);
  if (counted.from) {
    changes = ExistsAst(std::move(counted.from),
                        changes ? std::move(changes) : Constant(Value::Boolean(true)),
                        /*negated=*/false);
  }
  const int64_t count =
      CountRows(catalog, settings, sql, TableRefAst(table.name, alias), std::move(changes));

  // The new rows: CASE WHEN <row changes> THEN CAST(value AS type) ELSE column END per column;
  // with `matched`, a last column says whether the row changes (for RETURNING).
  const std::string kMatched = "__shears_update_matched";
  auto new_rows = [&](bool matched_column) {
    auto statement = Reparse(sql, update);
    auto& rewritten = static_cast<ast::UpdateStatement&>(*statement);
    for (size_t c = 0; c < table.columns.size(); c++) {
      if (assigned[c] < 0) continue;
      ast::ExprPtr& value = rewritten.assignments[static_cast<size_t>(assigned[c])].value;
      if (value->kind == ast::ExprKind::kDefault)
        value = DefaultValueAst(table, c);  // SET c = DEFAULT
    }
    auto query = std::make_unique<ast::SelectNode>();
    std::string value_relation = alias;  // where the assigned values are read
    const bool has_from = rewritten.from != nullptr;
    if (has_from) {
      // FROM t AS a LEFT JOIN LATERAL (SELECT values..., TRUE AS matched FROM from WHERE cond
      // LIMIT 1) u ON TRUE: one matching FROM row per row of t (any one, as in DuckDB).
      value_relation = "__shears_update_values";
      auto values = std::make_unique<ast::SelectNode>();
      for (size_t c = 0; c < table.columns.size(); c++) {
        if (assigned[c] < 0) continue;
        values->select_list.push_back(
            {CastAst(std::move(rewritten.assignments[static_cast<size_t>(assigned[c])].value),
                     table.columns[c].type),
             "__shears_value_" + std::to_string(c)});
      }
      values->select_list.push_back({Constant(Value::Boolean(true)), kMatched});
      values->from = std::move(rewritten.from);
      values->where = std::move(rewritten.where);
      values->limit = Constant(Value::Integer(1));
      auto lateral = std::make_unique<ast::SubqueryRef>();
      lateral->query = std::move(values);
      lateral->lateral = true;
      lateral->alias = value_relation;
      auto join = std::make_unique<ast::JoinRef>();
      join->join_type = ast::JoinType::kLeft;
      join->left = TableRefAst(table.name, alias);
      join->right = std::move(lateral);
      join->condition = Constant(Value::Boolean(true));
      query->from = std::move(join);
    } else {
      // FROM (SELECT *, (cond) IS TRUE AS matched FROM t AS a) AS a.
      auto inner = std::make_unique<ast::SelectNode>();
      inner->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
      ast::ExprPtr matched = Constant(Value::Boolean(true));
      if (rewritten.where) {
        auto is_true = std::make_unique<ast::IsBoolExpr>();
        is_true->child = std::move(rewritten.where);
        matched = std::move(is_true);
      }
      inner->select_list.push_back({std::move(matched), kMatched});
      inner->from = TableRefAst(table.name, alias);
      auto derived = std::make_unique<ast::SubqueryRef>();
      derived->query = std::move(inner);
      derived->alias = alias;
      query->from = std::move(derived);
    }
    for (size_t c = 0; c < table.columns.size(); c++) {
      const std::string& name = table.columns[c].name;
      if (assigned[c] < 0) {
        query->select_list.push_back({ColumnRef(alias, name), name});
        continue;
      }
      ast::ExprPtr value =
          has_from
              ? ColumnRef(value_relation, "__shears_value_" + std::to_string(c))
              : CastAst(std::move(rewritten.assignments[static_cast<size_t>(assigned[c])].value),
                        table.columns[c].type);
      auto choose = std::make_unique<ast::CaseExpr>();
      auto is_true = std::make_unique<ast::IsBoolExpr>();
      is_true->child = ColumnRef(value_relation, kMatched);
      choose->when_then.emplace_back(std::move(is_true), std::move(value));
      choose->else_expr = ColumnRef(alias, name);
      query->select_list.push_back({std::move(choose), name});
    }
    if (matched_column) {
      auto is_true = std::make_unique<ast::IsBoolExpr>();
      is_true->child = ColumnRef(value_relation, kMatched);
      query->select_list.push_back({std::move(is_true), kMatched});
    }
    return query;
  };
  QueryResult returned;
  if (!update.returning.empty()) {
    RejectVolatile(catalog, settings, sql, *new_rows(false), "UPDATE");
    // SELECT items FROM (SELECT columns FROM (new rows) AS a WHERE matched) AS a.
    auto changed = std::make_unique<ast::SelectNode>();
    for (const auto& c : table.columns)
      changed->select_list.push_back({ColumnRef(alias, c.name), c.name});
    changed->from = DerivedAst(new_rows(true), alias);
    changed->where = ColumnRef(alias, kMatched);
    auto items = std::move(static_cast<ast::UpdateStatement&>(*Reparse(sql, update)).returning);
    returned = RunReturning(catalog, settings, sql, std::move(items),
                            DerivedAst(std::move(changed), alias), nullptr);
  }
  if (count == 0) return update.returning.empty() ? CountResult(0) : returned;
  RewriteTable(database, settings, sql, table, *new_rows(false), "UPDATE");
  return update.returning.empty() ? CountResult(count) : returned;
}

QueryResult RunDelete(Database& database, const Settings& settings, const std::string& sql,
                      const ast::DeleteStatement& remove) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireManaged(catalog, sql, remove.name, remove.name_location, "DELETE");
  const std::string alias = remove.alias.empty() ? ShortName(table) : remove.alias;
  // The condition a deleted row meets; with USING: a USING row meets WHERE with it.
  auto condition = [&]() -> ast::ExprPtr {
    auto copy = Reparse(sql, remove);
    auto& statement = static_cast<ast::DeleteStatement&>(*copy);
    ast::ExprPtr where =
        statement.where ? std::move(statement.where) : Constant(Value::Boolean(true));
    if (!statement.using_tables) return where;
    return ExistsAst(std::move(statement.using_tables), std::move(where), /*negated=*/false);
  };
  const int64_t count =
      CountRows(catalog, settings, sql, TableRefAst(table.name, alias), condition());
  // RETURNING: the rows the condition holds for, read before they go.
  QueryResult returned;
  if (!remove.returning.empty()) {
    auto items = std::move(static_cast<ast::DeleteStatement&>(*Reparse(sql, remove)).returning);
    returned = RunReturning(catalog, settings, sql, std::move(items),
                            TableRefAst(table.name, alias), condition());
  }
  if (count == 0) return remove.returning.empty() ? CountResult(0) : returned;
  // The rows kept: those the condition is not true for (NULL keeps a row, as in SQL).
  auto query = std::make_unique<ast::SelectNode>();
  for (const auto& c : table.columns)
    query->select_list.push_back({ColumnRef(alias, c.name), c.name});
  query->from = TableRefAst(table.name, alias);
  auto kept = std::make_unique<ast::IsBoolExpr>();
  kept->child = condition();
  kept->negated = true;
  query->where = std::move(kept);
  RewriteTable(database, settings, sql, table, *query, "DELETE");
  return remove.returning.empty() ? CountResult(count) : returned;
}

namespace {

// ---------------------------------------------------------------- INSERT ... ON CONFLICT
//
// DuckDB's forms: ON CONFLICT [(cols)] DO NOTHING (also INSERT OR IGNORE) inserts the rows
// whose keys are not in the table yet, the first of several rows with one key value;
// DO UPDATE SET col = expr (also INSERT OR REPLACE: every inserted column from `excluded`)
// changes the rows whose key an inserted row has, reading the new values as `excluded.col`,
// and inserts the others: a rewrite of the table like UPDATE's.

ast::ExprPtr OperatorAst(const std::string& op, std::vector<ast::ExprPtr> children) {
  auto expr = std::make_unique<ast::OperatorExpr>();
  expr->op = op;
  expr->children = std::move(children);
  return expr;
}

/// left.k1 = right.k1 AND ...
ast::ExprPtr KeyMatch(const std::vector<std::string>& key, const std::string& left,
                      const std::string& right) {
  std::vector<ast::ExprPtr> equal;
  for (const auto& column : key) {
    std::vector<ast::ExprPtr> sides;
    sides.push_back(ColumnRef(left, column));
    sides.push_back(ColumnRef(right, column));
    equal.push_back(OperatorAst("=", std::move(sides)));
  }
  return equal.size() == 1 ? std::move(equal[0]) : OperatorAst("AND", std::move(equal));
}

}  // namespace

std::unique_ptr<ast::SubqueryRef> DerivedAst(ast::QueryNodePtr query, const std::string& alias,
                                             std::vector<std::string> column_aliases) {
  auto derived = std::make_unique<ast::SubqueryRef>();
  derived->query = std::move(query);
  derived->alias = alias;
  derived->column_aliases = std::move(column_aliases);
  return derived;
}

namespace {

constexpr const char* kIncoming = "__shears_incoming";
constexpr const char* kExisting = "__shears_existing";

/// The inserted rows named `columns`, keeping for each key one row per key value (rows with
/// a NULL in the key never collide, so all stay): SELECT * FROM (query) AS incoming(columns)
/// QUALIFY row_number() OVER (PARTITION BY key) = 1 OR k1 IS NULL OR ..., once per key.
ast::QueryNodePtr IncomingRows(ast::QueryNodePtr query, const std::vector<std::string>& columns,
                               const std::vector<std::vector<std::string>>& keys) {
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  select->from = DerivedAst(std::move(query), kIncoming, columns);
  ast::QueryNodePtr rows = std::move(select);
  for (const auto& key : keys) {
    auto dedup = std::make_unique<ast::SelectNode>();
    dedup->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
    dedup->from = DerivedAst(std::move(rows), kIncoming);
    auto number = std::make_unique<ast::FunctionExpr>();
    number->name = "row_number";
    number->over = std::make_unique<ast::WindowSpec>();
    for (const auto& column : key)
      number->over->partition_by.push_back(ColumnRef(kIncoming, column));
    std::vector<ast::ExprPtr> keep, first;
    first.push_back(std::move(number));
    first.push_back(Constant(Value::Bigint(1)));
    keep.push_back(OperatorAst("=", std::move(first)));
    for (const auto& column : key) {
      auto is_null = std::make_unique<ast::IsNullExpr>();
      is_null->child = ColumnRef(kIncoming, column);
      keep.push_back(std::move(is_null));
    }
    dedup->qualify = OperatorAst("OR", std::move(keep));
    rows = std::move(dedup);
  }
  return rows;
}

/// The columns an INSERT gives (its list, else the table's) and the keys ON CONFLICT is about
/// (by column name): the one its columns name, else every PRIMARY KEY, UNIQUE and UNIQUE
/// index; keys with a column the INSERT leaves NULL are left out (they cannot collide).
std::pair<std::vector<std::string>, std::vector<std::vector<std::string>>> ConflictKeys(
    const std::string& sql, const TableDefinition& table, const ast::InsertStatement& insert) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  std::vector<std::vector<int>> keys;
  for (const auto& key : table.keys)
    keys.push_back(key.columns);
  for (const auto& index : table.indexes)
    if (index.unique) keys.push_back(index.columns);
  if (keys.empty()) {
    throw BinderError(
        "table '{}' has no PRIMARY KEY, UNIQUE constraint or UNIQUE index for ON CONFLICT to "
        "refer to\n{}",
        table.name, FormatErrorPosition(sql, insert.conflict_location));
  }
  if (!insert.conflict_columns.empty()) {
    std::vector<int> wanted;
    for (const auto& column : insert.conflict_columns) {
      const int index = FindName(names, column);
      if (index < 0) throw BinderError("table '{}' has no column '{}'", table.name, column);
      wanted.push_back(index);
    }
    std::sort(wanted.begin(), wanted.end());
    std::vector<std::vector<int>> matching;
    for (auto key : keys) {
      std::sort(key.begin(), key.end());
      if (key == wanted) matching.push_back(key);
    }
    if (matching.empty()) {
      throw BinderError(
          "the ON CONFLICT columns ({}) are not a PRIMARY KEY, UNIQUE constraint or UNIQUE "
          "index of table '{}'\n{}",
          fmt::format("{}", fmt::join(insert.conflict_columns, ", ")), table.name,
          FormatErrorPosition(sql, insert.conflict_location));
    }
    keys = {matching[0]};
  }
  const std::vector<std::string> columns = insert.columns.empty() ? names : insert.columns;
  std::vector<std::vector<std::string>> named;
  for (const auto& key : keys) {
    std::vector<std::string> key_names;
    bool given = true;
    for (int c : key) {
      key_names.push_back(names[static_cast<size_t>(c)]);
      given = given && FindName(columns, names[static_cast<size_t>(c)]) >= 0;
    }
    if (given) named.push_back(std::move(key_names));
  }
  return {columns, named};
}

}  // namespace

/// The "columns given / written" error before the inserted rows get `columns` as names (an
/// alias count error would name an internal table).
void CheckInsertWidth(const Catalog& catalog, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert, const std::vector<std::string>& columns) {
  const BoundWrite bound = BindWrite(catalog, settings, sql, *insert.query);
  if (bound.query.names.size() != columns.size()) {
    throw BinderError("the query gives {} columns but {} are written ({})",
                      bound.query.names.size(), columns.size(),
                      fmt::format("{}", fmt::join(columns, ", ")));
  }
}

namespace {

/// The inserted query again (a fresh copy of the statement's, with the table's defaults).
ast::QueryNodePtr InsertQueryCopy(const Catalog& catalog, const Settings& settings,
                                  const std::string& sql, const TableDefinition& table,
                                  const ast::InsertStatement& insert,
                                  std::unique_ptr<ast::InsertStatement>* whole = nullptr) {
  auto copy = Reparse(sql, insert);
  auto* statement = static_cast<ast::InsertStatement*>(copy.get());
  ApplyInsertDefaults(catalog, settings, sql, table, *statement);
  ast::QueryNodePtr query = std::move(statement->query);
  if (whole) {
    copy.release();
    whole->reset(statement);
  }
  return query;
}

}  // namespace

ast::QueryNodePtr DoNothingQuery(const Catalog& catalog, const Settings& settings,
                                 const std::string& sql, const TableDefinition& table,
                                 const ast::InsertStatement& insert) {
  auto [columns, keys] = ConflictKeys(sql, table, insert);
  CheckInsertWidth(catalog, settings, sql, insert, columns);
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  select->from = DerivedAst(
      IncomingRows(InsertQueryCopy(catalog, settings, sql, table, insert), columns, keys),
      kIncoming, columns);
  std::vector<ast::ExprPtr> absent;
  for (const auto& key : keys) {
    absent.push_back(
        ExistsAst(TableRefAst(table.name, kExisting), KeyMatch(key, kExisting, kIncoming), true));
  }
  if (!absent.empty())
    select->where =
        absent.size() == 1 ? std::move(absent[0]) : OperatorAst("AND", std::move(absent));
  return select;
}

namespace {

/// How DO UPDATE's join names `excluded`'s columns, so that a bare column name means the
/// table's (as DuckDB), never an ambiguous one.
std::string ExcludedName(const std::string& column) {
  return "__shears_excluded_" + column;
}

/// Turns `excluded.col` into `excluded.<ExcludedName(col)>` throughout `expr` (subqueries
/// aside: they see `excluded` under its renamed columns).
void RenameExcluded(ast::Expr* expr) {
  if (expr == nullptr) return;
  auto each = [](auto&... children) { (RenameExcluded(children.get()), ...); };
  switch (expr->kind) {
    case ast::ExprKind::kColumnRef: {
      auto& names = static_cast<ast::ColumnRefExpr*>(expr)->names;
      if (names.size() == 2 && AsciiLower(names[0]) == "excluded")
        names[1] = ExcludedName(names[1]);
      break;
    }
    case ast::ExprKind::kOperator:
      for (auto& child : static_cast<ast::OperatorExpr*>(expr)->children)
        RenameExcluded(child.get());
      break;
    case ast::ExprKind::kFunction: {
      auto* f = static_cast<ast::FunctionExpr*>(expr);
      for (auto& arg : f->args)
        RenameExcluded(arg.get());
      each(f->filter);
      for (auto& item : f->order_by)
        RenameExcluded(item.expr.get());
      break;
    }
    case ast::ExprKind::kCast:
      each(static_cast<ast::CastExpr*>(expr)->child);
      break;
    case ast::ExprKind::kCase: {
      auto* c = static_cast<ast::CaseExpr*>(expr);
      each(c->operand, c->else_expr);
      for (auto& [when, then] : c->when_then)
        each(when, then);
      break;
    }
    case ast::ExprKind::kSubquery:
      each(static_cast<ast::SubqueryExpr*>(expr)->left);
      break;
    case ast::ExprKind::kInList: {
      auto* in = static_cast<ast::InListExpr*>(expr);
      each(in->value);
      for (auto& item : in->list)
        RenameExcluded(item.get());
      break;
    }
    case ast::ExprKind::kBetween: {
      auto* b = static_cast<ast::BetweenExpr*>(expr);
      each(b->value, b->low, b->high);
      break;
    }
    case ast::ExprKind::kLike: {
      auto* l = static_cast<ast::LikeExpr*>(expr);
      each(l->value, l->pattern, l->escape);
      break;
    }
    case ast::ExprKind::kIsNull:
      each(static_cast<ast::IsNullExpr*>(expr)->child);
      break;
    case ast::ExprKind::kIsBool:
      each(static_cast<ast::IsBoolExpr*>(expr)->child);
      break;
    case ast::ExprKind::kStar:
    case ast::ExprKind::kConstant:
    case ast::ExprKind::kInterval:
    case ast::ExprKind::kParameter:
    case ast::ExprKind::kDefault:
      break;
  }
}

}  // namespace

QueryResult RunInsertDoUpdate(Database& database, const Settings& settings, const std::string& sql,
                              const TableDefinition& table, const ast::InsertStatement& insert) {
  auto [columns, keys] = ConflictKeys(sql, table, insert);
  CheckInsertWidth(database.catalog(), settings, sql, insert, columns);
  if (keys.size() > 1) {
    throw NotSupportedError(
        "ON CONFLICT DO UPDATE on table '{}', which has several keys: name the conflict "
        "columns, ON CONFLICT (col, ...)\n{}",
        table.name, FormatErrorPosition(sql, insert.conflict_location));
  }
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  // What DO UPDATE sets: the SET list, or (OR REPLACE) every inserted column from excluded.
  std::vector<int> assigned(table.columns.size(), -1);
  std::unique_ptr<ast::InsertStatement> with_set;
  ast::QueryNodePtr updating =
      InsertQueryCopy(database.catalog(), settings, sql, table, insert, &with_set);
  std::vector<ast::ExprPtr> set_values;
  if (insert.or_replace) {
    for (const auto& column : columns) {
      if (FindName(insert.default_columns, column) >= 0) continue;
      assigned[static_cast<size_t>(FindName(names, column))] = static_cast<int>(set_values.size());
      set_values.push_back(ColumnRef("excluded", ExcludedName(column)));
    }
  } else {
    assigned = AssignedColumns(sql, table, with_set->conflict_set);
    for (auto& assignment : with_set->conflict_set) {
      RenameExcluded(assignment.value.get());
      set_values.push_back(std::move(assignment.value));
    }
  }
  const int64_t count = CountRows(
      database.catalog(), settings, sql,
      DerivedAst(IncomingRows(InsertQueryCopy(database.catalog(), settings, sql, table, insert),
                              columns, keys),
                 kIncoming),
      nullptr);
  if (count == 0) return WriteSummary(settings, {});
  if (keys.empty()) {
    // No key the INSERT gives: nothing can collide, all rows are new.
    auto plain = Reparse(sql, insert);
    static_cast<ast::InsertStatement&>(*plain).on_conflict =
        ast::InsertStatement::OnConflict::kError;
    return RunInsert(database, settings, sql, static_cast<ast::InsertStatement&>(*plain));
  }
  const auto& key = keys[0];
  // Rows of t no inserted row collides with.
  auto kept = std::make_unique<ast::SelectNode>();
  for (const auto& name : names)
    kept->select_list.push_back(
        {CastAst(ColumnRef(kExisting, name), table.columns[FindName(names, name)].type), name});
  kept->from = TableRefAst(table.name, kExisting);
  kept->where = ExistsAst(
      DerivedAst(IncomingRows(InsertQueryCopy(database.catalog(), settings, sql, table, insert),
                              columns, keys),
                 "excluded"),
      KeyMatch(key, "excluded", kExisting), /*negated=*/true);
  // Rows of t an inserted row collides with, updated.
  auto updated = std::make_unique<ast::SelectNode>();
  for (size_t c = 0; c < names.size(); c++) {
    ast::ExprPtr value = assigned[c] >= 0 ? std::move(set_values[static_cast<size_t>(assigned[c])])
                                          : ColumnRef(table.name, names[c]);
    updated->select_list.push_back({CastAst(std::move(value), table.columns[c].type), names[c]});
  }
  auto join = std::make_unique<ast::JoinRef>();
  join->join_type = ast::JoinType::kInner;
  join->left = TableRefAst(table.name, table.name);
  std::vector<std::string> renamed;
  for (const auto& column : columns)
    renamed.push_back(ExcludedName(column));
  join->right =
      DerivedAst(IncomingRows(std::move(updating), columns, keys), "excluded", std::move(renamed));
  std::vector<ast::ExprPtr> equal;
  for (const auto& column : key) {
    std::vector<ast::ExprPtr> sides;
    sides.push_back(ColumnRef(table.name, column));
    sides.push_back(ColumnRef("excluded", ExcludedName(column)));
    equal.push_back(OperatorAst("=", std::move(sides)));
  }
  join->condition = equal.size() == 1 ? std::move(equal[0]) : OperatorAst("AND", std::move(equal));
  updated->from = std::move(join);
  // Inserted rows whose key is new (the columns the INSERT leaves out NULL).
  auto added = std::make_unique<ast::SelectNode>();
  for (size_t c = 0; c < names.size(); c++) {
    ast::ExprPtr value = FindName(columns, names[c]) >= 0 ? ColumnRef("excluded", names[c])
                                                          : Constant(Value::Null(LogicalType()));
    added->select_list.push_back({CastAst(std::move(value), table.columns[c].type), names[c]});
  }
  added->from =
      DerivedAst(IncomingRows(InsertQueryCopy(database.catalog(), settings, sql, table, insert),
                              columns, keys),
                 "excluded");
  added->where = ExistsAst(TableRefAst(table.name, kExisting), KeyMatch(key, kExisting, "excluded"),
                           /*negated=*/true);
  auto first = std::make_unique<ast::SetOperationNode>();
  first->all = true;
  first->left = std::move(kept);
  first->right = std::move(updated);
  auto all = std::make_unique<ast::SetOperationNode>();
  all->all = true;
  all->left = std::move(first);
  all->right = std::move(added);
  QueryResult result =
      WriteSummary(settings, RewriteTable(database, settings, sql, table, *all, "INSERT"));
  result.rows->batch(0).column(0).data<int64_t>()[0] = count;  // rows inserted or updated
  return result;
}

}  // namespace shears::write_internal
