// Statements that write data and that PostgreSQL's grammar parses: COPY (query) TO 'path' (...)
// and INSERT INTO t [(cols)] query. (CREATE TABLE ... PARTITIONED BY is Hive syntax, parsed in
// parse_catalog.cpp.) What the options mean is decided when the statement runs
// (main/write_statements.cpp); here they are only collected as text.

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "parser/transformer.h"

namespace shears::parser_internal {

namespace {

/// The text of an option argument node: a word, string, number or boolean.
bool OptionArgText(const PgQuery__Node* arg, std::string* text) {
  if (Transformer::IsNull(arg)) return false;
  switch (arg->node_case) {
    case PG_QUERY__NODE__NODE_STRING:
      *text = arg->string->sval;
      return true;
    case PG_QUERY__NODE__NODE_INTEGER:
      *text = std::to_string(arg->integer->ival);
      return true;
    case PG_QUERY__NODE__NODE_FLOAT:
      *text = arg->float_->fval;
      return true;
    case PG_QUERY__NODE__NODE_BOOLEAN:
      *text = arg->boolean->boolval ? "true" : "false";
      return true;
    default:
      return false;
  }
}

}  // namespace

ast::StatementPtr Transformer::TransformCopy(const PgQuery__CopyStmt* stmt, int begin) {
  if (stmt->is_program) ThrowNotSupportedAt("COPY ... PROGRAM is not supported", begin);
  if (stmt->filename == nullptr || *stmt->filename == '\0') {
    ThrowNotSupportedAt(stmt->is_from ? "COPY ... FROM needs a file: COPY t FROM 'x.csv'"
                                      : "COPY needs a file or directory: COPY (query) TO 'path'",
                        begin);
  }
  auto copy = std::make_unique<ast::CopyStatement>();
  copy->path = stmt->filename;
  if (stmt->is_from) {
    // COPY t [(cols)] FROM 'x.csv': runs as INSERT INTO t [(cols)] SELECT * FROM read_csv(...).
    if (stmt->relation == nullptr) ThrowNotSupportedAt("COPY ... FROM needs a table", begin);
    if (stmt->where_clause != nullptr)
      ThrowNotSupportedAt("COPY ... FROM ... WHERE is not supported", begin);
    copy->is_from = true;
    copy->table = QualifiedName(stmt->relation);
    copy->table_location = Loc(stmt->relation->location);
    copy->columns = StringList(stmt->attlist, stmt->n_attlist, -1);
  } else if (!IsNull(stmt->query)) {
    copy->query = TransformQuery(stmt->query);
  } else {
    // COPY t TO ...: all columns of the table (or the listed ones).
    if (stmt->relation == nullptr) ThrowNotSupportedAt("COPY needs a query or a table", begin);
    auto select = std::make_unique<ast::SelectNode>();
    auto ref = std::make_unique<ast::BaseTableRef>();
    ref->name = NameParts(stmt->relation);
    ref->location = Loc(stmt->relation->location);
    select->from = std::move(ref);
    if (stmt->n_attlist == 0) {
      select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
    } else {
      for (const auto& name : StringList(stmt->attlist, stmt->n_attlist, -1)) {
        auto column = std::make_unique<ast::ColumnRefExpr>();
        column->names.push_back(name);
        select->select_list.push_back({std::move(column), ""});
      }
    }
    copy->query = std::move(select);
  }
  for (size_t i = 0; i < stmt->n_options; i++) {
    const PgQuery__Node* node = stmt->options[i];
    if (IsNull(node) || node->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
    const PgQuery__DefElem* def = node->def_elem;
    ast::WriteOption option;
    option.name = Lower(def->defname);
    option.location = Loc(def->location);
    std::string text;
    if (!IsNull(def->arg) && def->arg->node_case == PG_QUERY__NODE__NODE_LIST) {
      option.parenthesized = true;
      for (size_t j = 0; j < def->arg->list->n_items; j++) {
        if (!OptionArgText(def->arg->list->items[j], &text)) {
          ThrowParseError(fmt::format("COPY option {} takes names or values", option.name),
                          def->location);
        }
        option.values.push_back(text);
      }
    } else if (OptionArgText(def->arg, &text)) {
      option.values.push_back(text);
    } else if (!IsNull(def->arg)) {
      ThrowParseError(fmt::format("COPY option {} has a value of an unexpected kind", option.name),
                      def->location);
    }
    copy->options.push_back(std::move(option));
  }
  return copy;
}

namespace {

/// `range`'s table name, lower-cased, with its schema ("s.t"; the catalog resolves it).
std::string UnqualifiedName(const Transformer&, const PgQuery__RangeVar* range) {
  return QualifiedName(range);
}

std::string AliasOf(const PgQuery__RangeVar* range) {
  return range->alias != nullptr && range->alias->aliasname != nullptr ? range->alias->aliasname
                                                                       : "";
}

}  // namespace

ast::StatementPtr Transformer::TransformCreateIndex(const PgQuery__IndexStmt* stmt, int begin) {
  if (stmt->idxname == nullptr || *stmt->idxname == '\0') {
    ThrowNotSupportedAt("CREATE INDEX needs a name: CREATE INDEX name ON t (cols)", begin);
  }
  if (!IsNull(stmt->where_clause))
    ThrowNotSupportedAt("partial indexes (CREATE INDEX ... WHERE) are not supported", begin);
  if (stmt->n_index_including_params > 0)
    ThrowNotSupportedAt("CREATE INDEX ... INCLUDE is not supported", begin);
  if (stmt->access_method != nullptr && *stmt->access_method &&
      Lower(stmt->access_method) != "btree" && Lower(stmt->access_method) != "art") {
    ThrowNotSupportedAt(
        fmt::format("CREATE INDEX ... USING {} is not supported", stmt->access_method), begin);
  }
  auto create = std::make_unique<ast::CreateIndexStatement>();
  create->name = stmt->idxname;
  create->table = UnqualifiedName(*this, stmt->relation);
  create->table_location = Loc(stmt->relation->location);
  create->unique = stmt->unique;
  create->if_not_exists = stmt->if_not_exists;
  for (size_t i = 0; i < stmt->n_index_params; i++) {
    const PgQuery__Node* param = stmt->index_params[i];
    if (IsNull(param) || param->node_case != PG_QUERY__NODE__NODE_INDEX_ELEM) continue;
    const PgQuery__IndexElem* elem = param->index_elem;
    // ASC/DESC and NULLS FIRST/LAST are accepted: an index that nothing reads through yet
    // has no order to keep.
    if (elem->name == nullptr || *elem->name == '\0') {
      ThrowNotSupportedAt("CREATE INDEX on expressions is not supported (index columns only)",
                          begin);
    }
    create->columns.push_back(elem->name);
  }
  return create;
}

ast::StatementPtr Transformer::TransformUpdate(const PgQuery__UpdateStmt* stmt, int begin) {
  if (stmt->with_clause != nullptr)
    ThrowNotSupportedAt("WITH before UPDATE is not supported", begin);
  auto update = std::make_unique<ast::UpdateStatement>();
  update->name = UnqualifiedName(*this, stmt->relation);
  update->alias = AliasOf(stmt->relation);
  update->name_location = Loc(stmt->relation->location);
  for (size_t i = 0; i < stmt->n_target_list; i++) {
    const PgQuery__Node* target = stmt->target_list[i];
    if (IsNull(target) || target->node_case != PG_QUERY__NODE__NODE_RES_TARGET) continue;
    const PgQuery__ResTarget* res = target->res_target;
    if (res->n_indirection > 0) {
      ThrowNotSupported("UPDATE of parts of a column is not supported", res->location);
    }
    const PgQuery__Node* value = res->val;
    if (!IsNull(value) && value->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) {
      // SET (a, b) = (x, y) / ROW(x, y): a = x, b = y; SET (a, b) = x sets both to x (DuckDB).
      const PgQuery__MultiAssignRef* multi = value->multi_assign_ref;
      value = multi->source;
      if (!IsNull(value) && value->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
        ThrowNotSupported("UPDATE ... SET (a, b) = (SELECT ...) is not supported; set each column",
                          res->location);
      }
      if (!IsNull(value) && value->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        const PgQuery__RowExpr* row = value->row_expr;
        if (row->n_args != static_cast<size_t>(multi->ncolumns)) {
          ThrowParseError(
              fmt::format("UPDATE ... SET: {} columns but {} values", multi->ncolumns, row->n_args),
              res->location);
        }
        value = row->args[multi->colno - 1];
      }
    }
    update->assignments.push_back({res->name, Loc(res->location), TransformExpr(value)});
  }
  if (stmt->n_from_clause > 0)
    update->from = TransformFromList(stmt->from_clause, stmt->n_from_clause);
  if (!IsNull(stmt->where_clause)) update->where = TransformExpr(stmt->where_clause);
  TransformTargetList(stmt->returning_list, stmt->n_returning_list, update->returning);
  return update;
}

ast::StatementPtr Transformer::TransformDelete(const PgQuery__DeleteStmt* stmt, int begin) {
  if (stmt->with_clause != nullptr)
    ThrowNotSupportedAt("WITH before DELETE is not supported", begin);
  auto remove = std::make_unique<ast::DeleteStatement>();
  remove->name = UnqualifiedName(*this, stmt->relation);
  remove->alias = AliasOf(stmt->relation);
  remove->name_location = Loc(stmt->relation->location);
  if (stmt->n_using_clause > 0)
    remove->using_tables = TransformFromList(stmt->using_clause, stmt->n_using_clause);
  if (!IsNull(stmt->where_clause)) remove->where = TransformExpr(stmt->where_clause);
  TransformTargetList(stmt->returning_list, stmt->n_returning_list, remove->returning);
  return remove;
}

ast::StatementPtr Transformer::TransformTruncate(const PgQuery__TruncateStmt* stmt, int begin) {
  // TRUNCATE [TABLE] t: a DELETE of every row (one table; RESTART IDENTITY has nothing to
  // restart, tables have no identity columns).
  if (stmt->n_relations != 1 || IsNull(stmt->relations[0]) ||
      stmt->relations[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR) {
    ThrowNotSupportedAt("TRUNCATE of more than one table is not supported", begin);
  }
  if (stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) {
    ThrowNotSupportedAt("TRUNCATE ... CASCADE is not supported", begin);
  }
  const PgQuery__RangeVar* relation = stmt->relations[0]->range_var;
  auto remove = std::make_unique<ast::DeleteStatement>();
  remove->name = UnqualifiedName(*this, relation);
  remove->name_location = Loc(relation->location);
  return remove;
}

ast::StatementPtr Transformer::TransformInsert(const PgQuery__InsertStmt* stmt, int begin) {
  if (stmt->with_clause != nullptr && IsNull(stmt->select_stmt)) {
    ThrowNotSupportedAt("WITH before INSERT ... DEFAULT VALUES is not supported", begin);
  }
  const PgQuery__RangeVar* range = stmt->relation;
  auto insert = std::make_unique<ast::InsertStatement>();
  insert->name = QualifiedName(range);
  insert->name_location = Loc(range->location);
  for (size_t i = 0; i < stmt->n_cols; i++) {
    const PgQuery__Node* col = stmt->cols[i];
    if (IsNull(col) || col->node_case != PG_QUERY__NODE__NODE_RES_TARGET) continue;
    if (col->res_target->n_indirection > 0) {
      ThrowNotSupported("INSERT into parts of a column is not supported",
                        col->res_target->location);
    }
    insert->columns.push_back(col->res_target->name);
  }
  if (IsNull(stmt->select_stmt)) {
    insert->default_values = true;  // the rows are made from the table's defaults
  } else {
    insert->query = TransformQuery(stmt->select_stmt);
    if (stmt->with_clause != nullptr) {
      // WITH ... INSERT INTO t query: the CTEs are the query's, before its own WITH (whose
      // names, bound later, shadow them).
      std::vector<ast::CommonTableExpr> ctes;
      TransformWithClause(stmt->with_clause, ctes);
      for (auto& own : insert->query->ctes)
        ctes.push_back(std::move(own));
      insert->query->ctes = std::move(ctes);
    }
  }
  // INSERT OR REPLACE / OR IGNORE (blanked for libpg_query, see sql_rewrite.cpp).
  const auto& tokens = rewritten().tokens;
  auto at = std::lower_bound(tokens.begin(), tokens.end(), begin,
                             [](const SqlToken& t, int v) { return t.start < v; });
  const int action = at == tokens.end() ? 0
                                        : InsertOrAction(original(), tokens,
                                                         static_cast<size_t>(at - tokens.begin()));
  bool by_name = false;
  if (at != tokens.end() &&
      InsertByToken(tokens, static_cast<size_t>(at - tokens.begin()), &by_name) != 0 && by_name) {
    if (!insert->columns.empty()) {
      ThrowNotSupportedAt("INSERT BY NAME cannot be combined with an explicit column list", begin);
    }
    if (!insert->query || insert->query->kind == ast::QueryNodeKind::kValues) {
      ThrowNotSupportedAt("INSERT BY NAME needs a query with column names, not VALUES", begin);
    }
    insert->by_name = true;
  }
  if (action != 0 && stmt->on_conflict_clause != nullptr) {
    ThrowNotSupportedAt("INSERT OR ... cannot have an ON CONFLICT clause as well", begin);
  }
  if (action == 'I') insert->on_conflict = ast::InsertStatement::OnConflict::kNothing;
  if (action == 'R') {
    insert->on_conflict = ast::InsertStatement::OnConflict::kUpdate;
    insert->or_replace = true;
  }
  if (const PgQuery__OnConflictClause* conflict = stmt->on_conflict_clause) {
    insert->conflict_location = Loc(conflict->location);
    if (conflict->infer != nullptr) {
      if (conflict->infer->conname != nullptr && *conflict->infer->conname) {
        ThrowNotSupported("ON CONFLICT ON CONSTRAINT is not supported; name the columns",
                          conflict->location);
      }
      if (!IsNull(conflict->infer->where_clause))
        ThrowNotSupported("ON CONFLICT (...) WHERE is not supported", conflict->location);
      for (size_t i = 0; i < conflict->infer->n_index_elems; i++) {
        const PgQuery__Node* elem = conflict->infer->index_elems[i];
        if (IsNull(elem) || elem->node_case != PG_QUERY__NODE__NODE_INDEX_ELEM ||
            elem->index_elem->name == nullptr) {
          ThrowNotSupported("ON CONFLICT takes column names", conflict->location);
        }
        insert->conflict_columns.push_back(elem->index_elem->name);
      }
    }
    if (conflict->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_NOTHING) {
      insert->on_conflict = ast::InsertStatement::OnConflict::kNothing;
    } else {
      insert->on_conflict = ast::InsertStatement::OnConflict::kUpdate;
      if (!IsNull(conflict->where_clause))
        ThrowNotSupported("ON CONFLICT DO UPDATE ... WHERE is not supported", conflict->location);
      for (size_t i = 0; i < conflict->n_target_list; i++) {
        const PgQuery__Node* target = conflict->target_list[i];
        if (IsNull(target) || target->node_case != PG_QUERY__NODE__NODE_RES_TARGET) continue;
        const PgQuery__ResTarget* res = target->res_target;
        if (res->n_indirection > 0 ||
            (!IsNull(res->val) && (res->val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF ||
                                   res->val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT))) {
          ThrowNotSupported("DO UPDATE SET takes col = expr only", res->location);
        }
        insert->conflict_set.push_back({res->name, Loc(res->location), TransformExpr(res->val)});
      }
    }
  }
  TransformTargetList(stmt->returning_list, stmt->n_returning_list, insert->returning);
  return insert;
}

}  // namespace shears::parser_internal
