// SelectStmt (SELECT, VALUES, set operations, WITH, ORDER BY, LIMIT) and FROM items.

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "common/error.h"
#include "parser/sql_rewrite_internal.h"
#include "parser/transformer.h"

namespace shears::parser_internal {

namespace {

/// The column RewriteSql writes for GROUP BY ALL / ORDER BY ALL.
bool IsAllColumnsMarker(const ast::Expr& expr) {
  if (expr.kind != ast::ExprKind::kColumnRef) return false;
  const auto& names = static_cast<const ast::ColumnRefExpr&>(expr).names;
  return names.size() == 1 && names[0] == kAllColumnsMarker;
}

/// Whether a select item is the marker RewriteSql writes for UNION BY NAME.
bool IsUnionByNameMarker(const PgQuery__Node* item) {
  if (Transformer::IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_RES_TARGET) return false;
  const PgQuery__Node* val = item->res_target->val;
  if (Transformer::IsNull(val) || val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return false;
  const PgQuery__ColumnRef* ref = val->column_ref;
  return ref->n_fields == 1 && ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
         std::string_view(ref->fields[0]->string->sval) == kUnionByNameMarker;
}

/// Whether the right input of a set operation starts with that marker: its leftmost SELECT is
/// the one written right after BY NAME.
bool RightInputByName(const PgQuery__SelectStmt* right) {
  while (right->op != PG_QUERY__SET_OPERATION__SETOP_NONE && right->larg != nullptr) {
    right = right->larg;
  }
  return right->n_target_list > 0 && IsUnionByNameMarker(right->target_list[0]);
}

bool IsNullConstant(const PgQuery__Node* node) {
  return !Transformer::IsNull(node) && node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
         node->a_const->isnull;
}

/// The sample RewriteSql wrote as a window's PARTITION BY constants: the amount's text, whether
/// it is a percentage, the seed's text or NULL (RewriteSql checked them).
ast::SelectNode::Sample SampleOf(const ast::WindowSpec& spec) {
  auto constant = [&](size_t i) -> const Value& {
    if (spec.partition_by.size() != 3 || spec.partition_by[i]->kind != ast::ExprKind::kConstant) {
      throw InternalError("malformed rewritten USING SAMPLE clause");
    }
    return static_cast<const ast::ConstantExpr&>(*spec.partition_by[i]).value;
  };
  ast::SelectNode::Sample sample;
  sample.amount = std::strtod(constant(0).GetString().c_str(), nullptr);  // inf when huge
  sample.percent = constant(1).GetBoolean();
  if (!constant(2).is_null()) {
    int64_t seed = 0;
    const std::string& text = constant(2).GetString();
    std::from_chars(text.data(), text.data() + text.size(), seed);  // checked by RewriteSql
    sample.seed = seed;
  }
  return sample;
}

}  // namespace

/// The marker calls RewriteSql writes for * EXCLUDE (...) / * REPLACE (...) join the star
/// before them; true when `expr` was one.
bool Transformer::FoldStarModifier(ast::Expr& expr, std::vector<ast::SelectItem>& select_list) {
  if (expr.kind != ast::ExprKind::kFunction) return false;
  auto& call = static_cast<ast::FunctionExpr&>(expr);
  const bool exclude = call.name == kStarExcludeMarker, replace = call.name == kStarReplaceMarker;
  if (!exclude && !replace) return false;
  if (select_list.empty() || select_list.back().expr->kind != ast::ExprKind::kStar ||
      !select_list.back().alias.empty()) {
    ThrowNotSupportedAt("EXCLUDE and REPLACE follow a * of the select list", call.location);
  }
  auto& star = static_cast<ast::StarExpr&>(*select_list.back().expr);
  if (exclude) {
    for (const auto& arg : call.args) {
      if (arg->kind != ast::ExprKind::kColumnRef) {
        ThrowNotSupportedAt("EXCLUDE takes column names", arg->location);
      }
      star.exclude.push_back(static_cast<const ast::ColumnRefExpr&>(*arg).names.back());
    }
    return true;
  }
  for (size_t i = 0; i < call.args.size(); i++) {
    const bool named = i + 1 < call.args.size() &&
                       call.args[i + 1]->kind == ast::ExprKind::kConstant &&
                       static_cast<const ast::ConstantExpr&>(*call.args[i + 1]).value.type().id() ==
                           TypeId::kVarchar;
    if (!named) ThrowNotSupportedAt("REPLACE takes expr AS column, ...", call.args[i]->location);
    std::string name = static_cast<const ast::ConstantExpr&>(*call.args[i + 1]).value.GetString();
    star.replace.emplace_back(std::move(name), std::move(call.args[i]));
    i++;
  }
  return true;
}

/// DISTINCT ON (a, b) keeps the first row of each (a, b) in the query's ORDER BY (PostgreSQL,
/// DuckDB): a QUALIFY row_number() OVER (PARTITION BY a, b ORDER BY <the ORDER BY>) = 1. The
/// window's expressions are transformed afresh from the parse tree; a position or an output
/// name stands for its select item, as in ORDER BY.
void Transformer::AddDistinctOn(const PgQuery__SelectStmt* stmt, ast::SelectNode& select) {
  auto select_item = [&](const PgQuery__Node* node) -> ast::ExprPtr {
    ast::ExprPtr expr = TransformExpr(node);
    if (expr->kind == ast::ExprKind::kConstant) {
      const Value& v = static_cast<const ast::ConstantExpr&>(*expr).value;
      if (v.type().id() == TypeId::kInteger) {
        const int64_t pos = v.GetInt64();
        if (pos < 1 || pos > static_cast<int64_t>(stmt->n_target_list)) {
          ThrowParseError(fmt::format("DISTINCT ON position {} is not in the select list", pos),
                          NodeLocation(node));
        }
        return TransformExpr(stmt->target_list[pos - 1]->res_target->val);
      }
    }
    if (expr->kind == ast::ExprKind::kColumnRef) {
      const auto& names = static_cast<const ast::ColumnRefExpr&>(*expr).names;
      for (size_t i = 0; names.size() == 1 && i < stmt->n_target_list; i++) {
        const PgQuery__ResTarget* target = stmt->target_list[i]->res_target;
        if (target->name != nullptr && Lower(target->name) == Lower(names[0])) {
          return TransformExpr(target->val);
        }
      }
    }
    return expr;
  };
  auto row_number = std::make_unique<ast::FunctionExpr>();
  row_number->name = "row_number";
  row_number->location = Loc(NodeLocation(stmt->distinct_clause[0]));
  row_number->over = std::make_unique<ast::WindowSpec>();
  for (size_t i = 0; i < stmt->n_distinct_clause; i++)
    row_number->over->partition_by.push_back(select_item(stmt->distinct_clause[i]));
  for (size_t i = 0; i < stmt->n_sort_clause; i++) {
    ast::OrderByItem item = TransformSortBy(stmt->sort_clause[i]);
    item.expr = select_item(stmt->sort_clause[i]->sort_by->node);
    row_number->over->order_by.push_back(std::move(item));
  }
  auto first = std::make_unique<ast::OperatorExpr>();
  first->op = "=";
  first->location = row_number->location;
  first->children.push_back(std::move(row_number));
  auto one = std::make_unique<ast::ConstantExpr>();
  one->value = Value::Integer(1);
  first->children.push_back(std::move(one));
  // QUALIFY filters before DISTINCT ON picks: one filter cannot do both.
  if (select.qualify) {
    ThrowNotSupported("DISTINCT ON together with QUALIFY is not supported",
                      NodeLocation(stmt->distinct_clause[0]));
  }
  select.qualify = std::move(first);
}

ast::QueryNodePtr Transformer::TransformQuery(const PgQuery__Node* node) {
  if (IsNull(node) || node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
    ThrowNotSupported(fmt::format("{} is not supported as a query", NodeTypeName(node)),
                      NodeLocation(node));
  }
  return TransformSelect(node->select_stmt);
}

ast::QueryNodePtr Transformer::TransformSelect(const PgQuery__SelectStmt* stmt) {
  ast::QueryNodePtr node;
  switch (stmt->op) {
    case PG_QUERY__SET_OPERATION__SETOP_UNION:
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT:
    case PG_QUERY__SET_OPERATION__SETOP_EXCEPT: {
      auto setop = std::make_unique<ast::SetOperationNode>();
      setop->op = stmt->op == PG_QUERY__SET_OPERATION__SETOP_UNION ? ast::SetOperationType::kUnion
                  : stmt->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT
                      ? ast::SetOperationType::kIntersect
                      : ast::SetOperationType::kExcept;
      setop->all = stmt->all;
      if (stmt->larg == nullptr || stmt->rarg == nullptr) {
        throw InternalError("set operation without two inputs in libpg_query's tree");
      }
      setop->by_name = RightInputByName(stmt->rarg);
      setop->left = TransformSelect(stmt->larg);
      setop->right = TransformSelect(stmt->rarg);
      setop->location = setop->left->location;
      node = std::move(setop);
      break;
    }
    default:
      node = stmt->n_values_lists > 0 ? TransformValues(stmt) : TransformSimpleSelect(stmt);
      break;
  }
  TransformQueryModifiers(stmt, *node);
  return node;
}

ast::QueryNodePtr Transformer::TransformSimpleSelect(const PgQuery__SelectStmt* stmt) {
  auto select = std::make_unique<ast::SelectNode>();
  if (stmt->into_clause != nullptr) {
    int loc = stmt->into_clause->rel != nullptr ? stmt->into_clause->rel->location : -1;
    ThrowNotSupported("SELECT ... INTO is not supported", loc);
  }
  for (size_t i = 0; i < stmt->n_window_clause; i++) {
    const PgQuery__Node* item = stmt->window_clause[i];
    if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_WINDOW_DEF) {
      throw InternalError("WINDOW item is not a WindowDef");
    }
    ast::WindowSpec spec = TransformWindowDef(item->window_def);
    // QUALIFY arrives as a window of a reserved name (see RewriteSql).
    if (spec.name == kQualifyWindowName) {
      select->qualify = std::move(spec.partition_by[0]);
      continue;
    }
    if (spec.name == kSampleWindowName) {
      select->sample = SampleOf(spec);
      continue;
    }
    for (const auto& other : select->windows) {
      if (other.name == spec.name) {
        ThrowParseError(fmt::format("window \"{}\" is already defined", spec.name),
                        item->window_def->location);
      }
    }
    select->windows.push_back(std::move(spec));
  }
  // DISTINCT arrives as a list holding one empty node; DISTINCT ON as its expressions (below).
  const bool distinct_on = stmt->n_distinct_clause > 0 &&
                           !(stmt->n_distinct_clause == 1 && IsNull(stmt->distinct_clause[0]));
  if (stmt->n_distinct_clause > 0 && !distinct_on) select->distinct = true;
  TransformTargetList(stmt->target_list, stmt->n_target_list, select->select_list);
  if (distinct_on) AddDistinctOn(stmt, *select);
  const size_t first_target = stmt->n_target_list > 0 && IsUnionByNameMarker(stmt->target_list[0]);
  select->location = stmt->n_target_list > first_target
                         ? Loc(stmt->target_list[first_target]->res_target->location)
                         : -1;
  select->from = TransformFromList(stmt->from_clause, stmt->n_from_clause);
  if (!IsNull(stmt->where_clause)) select->where = TransformExpr(stmt->where_clause);
  if (stmt->group_distinct) {
    ThrowNotSupported("GROUP BY DISTINCT is not supported yet",
                      stmt->n_group_clause > 0 ? NodeLocation(stmt->group_clause[0]) : -1);
  }
  bool any_grouping_set = false;
  for (size_t i = 0; i < stmt->n_group_clause; i++) {
    const PgQuery__Node* item = stmt->group_clause[i];
    any_grouping_set =
        any_grouping_set || (!IsNull(item) && item->node_case == PG_QUERY__NODE__NODE_GROUPING_SET);
  }
  if (!any_grouping_set) {
    for (size_t i = 0; i < stmt->n_group_clause; i++)
      select->group_by.push_back(TransformExpr(stmt->group_clause[i]));
    if (select->group_by.size() == 1 && IsAllColumnsMarker(*select->group_by[0])) {
      select->group_by.clear();
      select->group_by_all = true;
    }
  } else {
    // The sets of a GROUP BY list are the cross product of its items' sets.
    std::vector<std::vector<size_t>> sets{{}};
    for (size_t i = 0; i < stmt->n_group_clause; i++) {
      const auto item_sets = GroupingSetsOf(stmt->group_clause[i], *select);
      std::vector<std::vector<size_t>> product;
      for (const auto& left : sets) {
        for (const auto& right : item_sets) {
          product.push_back(left);
          product.back().insert(product.back().end(), right.begin(), right.end());
          if (product.size() > kMaxGroupingSets) {
            ThrowNotSupported(fmt::format("more than {} grouping sets", kMaxGroupingSets),
                              NodeLocation(stmt->group_clause[i]));
          }
        }
      }
      sets = std::move(product);
    }
    select->grouping_sets = std::move(sets);
  }
  if (!IsNull(stmt->having_clause)) select->having = TransformExpr(stmt->having_clause);
  return select;
}

void Transformer::TransformTargetList(PgQuery__Node* const* list, size_t n,
                                      std::vector<ast::SelectItem>& select_list) {
  for (size_t i = 0; i < n; i++) {
    const PgQuery__Node* item = list[i];
    if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_RES_TARGET) {
      throw InternalError("select list item is not a ResTarget");
    }
    if (IsUnionByNameMarker(item)) continue;  // read by the set operation above
    const PgQuery__ResTarget* target = item->res_target;
    if (target->n_indirection > 0) {
      ThrowNotSupported("indirection in the select list is not supported", target->location);
    }
    ast::SelectItem select_item;
    select_item.expr = TransformExpr(target->val);
    if (FoldStarModifier(*select_item.expr, select_list)) continue;
    if (target->name != nullptr) select_item.alias = target->name;
    select_list.push_back(std::move(select_item));
  }
}

std::vector<std::vector<size_t>> Transformer::GroupingSetsOf(const PgQuery__Node* item,
                                                             ast::SelectNode& select) {
  auto add = [&](const PgQuery__Node* expr) {
    select.group_by.push_back(TransformExpr(expr));
    return select.group_by.size() - 1;
  };
  // One element of ROLLUP / CUBE / a set: an expression, or a parenthesised list of them.
  auto columns = [&](const PgQuery__Node* element) {
    std::vector<size_t> out;
    if (!IsNull(element) && element->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
        element->row_expr->row_format == PG_QUERY__COERCION_FORM__COERCE_IMPLICIT_CAST) {
      for (size_t i = 0; i < element->row_expr->n_args; i++)
        out.push_back(add(element->row_expr->args[i]));
    } else {
      out.push_back(add(element));
    }
    return out;
  };
  if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) return {columns(item)};
  const PgQuery__GroupingSet* set = item->grouping_set;
  std::vector<std::vector<size_t>> elements;
  switch (set->kind) {
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY:
      return {{}};
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE: {
      std::vector<size_t> all;
      for (size_t i = 0; i < set->n_content; i++) {
        for (size_t c : columns(set->content[i]))
          all.push_back(c);
      }
      return {all};
    }
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS: {
      std::vector<std::vector<size_t>> out;
      for (size_t i = 0; i < set->n_content; i++) {
        for (auto& s : GroupingSetsOf(set->content[i], select)) {
          out.push_back(std::move(s));
          if (out.size() > kMaxGroupingSets) {
            ThrowNotSupported(fmt::format("more than {} grouping sets", kMaxGroupingSets),
                              set->location);
          }
        }
      }
      return out;
    }
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP: {
      // ROLLUP (a, b, c): (a, b, c), (a, b), (a), ().
      for (size_t i = 0; i < set->n_content; i++)
        elements.push_back(columns(set->content[i]));
      std::vector<std::vector<size_t>> out;
      for (size_t n = elements.size() + 1; n-- > 0;) {
        std::vector<size_t> prefix;
        for (size_t i = 0; i < n; i++)
          prefix.insert(prefix.end(), elements[i].begin(), elements[i].end());
        out.push_back(std::move(prefix));
      }
      return out;
    }
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE: {
      // CUBE (a, b): every subset, (a, b), (a), (b), ().
      for (size_t i = 0; i < set->n_content; i++)
        elements.push_back(columns(set->content[i]));
      if (elements.size() > 12) {
        ThrowNotSupported("CUBE of more than 12 elements (4096 grouping sets)", set->location);
      }
      std::vector<std::vector<size_t>> out;
      const size_t count = size_t{1} << elements.size();
      for (size_t mask = count; mask-- > 0;) {
        std::vector<size_t> subset;
        for (size_t i = 0; i < elements.size(); i++) {
          if (mask >> (elements.size() - 1 - i) & 1)
            subset.insert(subset.end(), elements[i].begin(), elements[i].end());
        }
        out.push_back(std::move(subset));
      }
      return out;
    }
    default:
      throw InternalError("grouping set of an unknown kind in libpg_query's tree");
  }
}

ast::OrderByItem Transformer::TransformSortBy(const PgQuery__Node* item) {
  if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_SORT_BY) {
    throw InternalError("ORDER BY item is not a SortBy");
  }
  const PgQuery__SortBy* sort = item->sort_by;
  ast::OrderByItem order;
  switch (sort->sortby_dir) {
    case PG_QUERY__SORT_BY_DIR__SORTBY_DESC:
      order.descending = true;
      break;
    case PG_QUERY__SORT_BY_DIR__SORTBY_USING:
      ThrowNotSupported("ORDER BY ... USING is not supported", NodeLocation(sort->node));
    default:
      break;
  }
  if (sort->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST) {
    order.nulls_first = true;
  } else if (sort->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST) {
    order.nulls_first = false;
  }
  order.expr = TransformExpr(sort->node);
  return order;
}

ast::QueryNodePtr Transformer::TransformValues(const PgQuery__SelectStmt* stmt) {
  auto values = std::make_unique<ast::ValuesNode>();
  for (size_t i = 0; i < stmt->n_values_lists; i++) {
    const PgQuery__Node* row = stmt->values_lists[i];
    if (IsNull(row) || row->node_case != PG_QUERY__NODE__NODE_LIST) {
      throw InternalError("VALUES row is not a list");
    }
    values->rows.push_back(TransformExprList(row->list->items, row->list->n_items));
    if (values->rows.back().size() != values->rows[0].size()) {
      ThrowParseError("VALUES lists must all be the same length",
                      row->list->n_items > 0 ? NodeLocation(row->list->items[0]) : -1);
    }
    if (i == 0 && !values->rows[0].empty()) values->location = values->rows[0][0]->location;
  }
  return values;
}

std::shared_ptr<ast::Statement> Transformer::TransformCteStatement(
    const PgQuery__CommonTableExpr* cte) {
  // The statement's text: what the parentheses after the CTE's AS hold. Its span lets the
  // write statements parse it again alone (Reparse), as they do a statement of its own.
  const auto& tokens = rewritten().tokens;
  const int name_at = Loc(cte->location);
  size_t t = 0;
  while (t < tokens.size() && tokens[t].start < name_at)
    t++;
  while (t < tokens.size() && tokens[t].token != PG_QUERY__TOKEN__AS)
    t++;
  while (t < tokens.size() && tokens[t].token != '(')
    t++;
  size_t close = t;
  for (int depth = 0; close < tokens.size(); close++) {
    if (tokens[close].token == '(') depth++;
    if (tokens[close].token == ')' && --depth == 0) break;
  }
  if (t + 1 >= close || close >= tokens.size()) {
    ThrowNotSupported("cannot find the text of the statement in WITH", cte->location);
  }
  const int begin = tokens[t + 1].start;
  const int end = tokens[close - 1].end;
  ast::StatementPtr statement;
  switch (cte->ctequery->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      statement = TransformInsert(cte->ctequery->insert_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      statement = TransformUpdate(cte->ctequery->update_stmt, begin);
      break;
    default:
      statement = TransformDelete(cte->ctequery->delete_stmt, begin);
      break;
  }
  statement->location = begin;
  statement->length = end - begin;
  return statement;
}

void Transformer::TransformWithClause(const PgQuery__WithClause* with,
                                      std::vector<ast::CommonTableExpr>& ctes) {
  for (size_t i = 0; i < with->n_ctes; i++) {
    const PgQuery__Node* item = with->ctes[i];
    if (IsNull(item) || item->node_case != PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR) {
      throw InternalError("WITH item is not a CommonTableExpr");
    }
    const PgQuery__CommonTableExpr* cte = item->common_table_expr;
    if (cte->search_clause != nullptr || cte->cycle_clause != nullptr) {
      ThrowNotSupported("SEARCH/CYCLE clauses are not supported", cte->location);
    }
    const bool dml =
        !IsNull(cte->ctequery) && (cte->ctequery->node_case == PG_QUERY__NODE__NODE_INSERT_STMT ||
                                   cte->ctequery->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
                                   cte->ctequery->node_case == PG_QUERY__NODE__NODE_DELETE_STMT);
    if (!dml &&
        (IsNull(cte->ctequery) || cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)) {
      ThrowNotSupported("a CTE body must be a query or an INSERT, UPDATE or DELETE", cte->location);
    }
    if (dml && with->recursive) {
      ThrowNotSupported("Recursive CTEs with DML statements are not supported", cte->location);
    }
    ast::CommonTableExpr out;
    out.name = cte->ctename;
    out.column_aliases = StringList(cte->aliascolnames, cte->n_aliascolnames, cte->location);
    if (dml) {
      out.dml = TransformCteStatement(cte);
    } else {
      out.query = TransformSelect(cte->ctequery->select_stmt);
    }
    if (cte->ctematerialized == PG_QUERY__CTEMATERIALIZE__CTEMaterializeAlways) {
      out.materialize = ast::CteMaterialize::kAlways;
    } else if (cte->ctematerialized == PG_QUERY__CTEMATERIALIZE__CTEMaterializeNever) {
      out.materialize = ast::CteMaterialize::kNever;
    }
    out.recursive = with->recursive;
    ctes.push_back(std::move(out));
  }
}

void Transformer::TransformQueryModifiers(const PgQuery__SelectStmt* stmt, ast::QueryNode& node) {
  if (stmt->n_locking_clause > 0) {
    ThrowNotSupported("FOR UPDATE/SHARE is not supported", NodeLocation(stmt->locking_clause[0]));
  }
  if (stmt->with_clause != nullptr) TransformWithClause(stmt->with_clause, node.ctes);
  for (size_t i = 0; i < stmt->n_sort_clause; i++)
    node.order_by.push_back(TransformSortBy(stmt->sort_clause[i]));
  node.order_by_all = node.order_by.size() == 1 && IsAllColumnsMarker(*node.order_by[0].expr);
  if (stmt->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES) {
    ThrowNotSupported("FETCH ... WITH TIES is not supported", NodeLocation(stmt->limit_count));
  }
  // LIMIT ALL (and LIMIT NULL) arrive as a NULL constant: no limit.
  if (!IsNull(stmt->limit_count) && !IsNullConstant(stmt->limit_count)) {
    node.limit = TransformExpr(stmt->limit_count);
  }
  if (!IsNull(stmt->limit_offset)) node.offset = TransformExpr(stmt->limit_offset);
}

// ---------------------------------------------------------------- FROM

ast::TableRefPtr Transformer::TransformFromList(PgQuery__Node** items, size_t n) {
  ast::TableRefPtr result;
  for (size_t i = 0; i < n; i++) {
    ast::TableRefPtr ref = TransformTableRef(items[i]);
    if (!result) {
      result = std::move(ref);
      continue;
    }
    // Comma lists become left-deep cross joins.
    auto join = std::make_unique<ast::JoinRef>();
    join->join_type = ast::JoinType::kCross;
    join->location = ref->location;
    join->left = std::move(result);
    join->right = std::move(ref);
    result = std::move(join);
  }
  return result;
}

void Transformer::TransformAlias(const PgQuery__Alias* alias, ast::TableRef& ref, int location) {
  if (alias == nullptr) return;
  if (alias->aliasname != nullptr) ref.alias = alias->aliasname;
  ref.column_aliases = StringList(alias->colnames, alias->n_colnames, location);
}

ast::TableRefPtr Transformer::TransformTableRef(const PgQuery__Node* node) {
  if (IsNull(node)) throw InternalError("empty FROM item");
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
      const PgQuery__RangeVar* range = node->range_var;
      if (!range->inh) ThrowNotSupported("FROM ONLY is not supported", range->location);
      auto ref = std::make_unique<ast::BaseTableRef>();
      ref->name = NameParts(range);
      ref->location = Loc(range->location);
      TransformAlias(range->alias, *ref, range->location);
      return ref;
    }
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
      return TransformRangeFunction(node->range_function);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
      const PgQuery__RangeSubselect* sub = node->range_subselect;
      auto ref = std::make_unique<ast::SubqueryRef>();
      ref->query = TransformQuery(sub->subquery);
      ref->lateral = sub->lateral;
      ref->location = ref->query->location;
      TransformAlias(sub->alias, *ref, -1);
      return ref;
    }
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
      return TransformJoin(node->join_expr);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:
      ThrowNotSupported("TABLESAMPLE is not supported", node->range_table_sample->location);
    default:
      ThrowNotSupported(fmt::format("{} in FROM is not supported", NodeTypeName(node)),
                        NodeLocation(node));
  }
}

ast::TableRefPtr Transformer::TransformRangeFunction(const PgQuery__RangeFunction* range) {
  // functions: one List per function, holding the FuncCall and its column definitions.
  const PgQuery__FuncCall* call = nullptr;
  if (range->n_functions == 1 && !IsNull(range->functions[0]) &&
      range->functions[0]->node_case == PG_QUERY__NODE__NODE_LIST) {
    const PgQuery__List* list = range->functions[0]->list;
    if (list->n_items >= 1 && !IsNull(list->items[0]) &&
        list->items[0]->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
      call = list->items[0]->func_call;
    }
    if (list->n_items >= 2 && !IsNull(list->items[1])) {
      ThrowNotSupported("column definition lists for table functions are not supported",
                        call != nullptr ? call->location : -1);
    }
  }
  int location = call != nullptr ? call->location : -1;
  if (call == nullptr || range->is_rowsfrom) {
    ThrowNotSupported("ROWS FROM is not supported", location);
  }
  const bool is_unnest = call != nullptr && call->n_funcname == 1 && !IsNull(call->funcname[0]) &&
                         call->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
                         Lower(call->funcname[0]->string->sval) == "unnest";
  if (range->lateral && !is_unnest) {  // LATERAL unnest(t.l) is what unnest(t.l) is anyway
    ThrowNotSupportedAt("LATERAL is not supported yet",
                        FindTokenBefore(PG_QUERY__TOKEN__LATERAL_P, Loc(location)));
  }
  if (range->ordinality) ThrowNotSupported("WITH ORDINALITY is not supported", location);
  if (range->n_coldeflist > 0) {
    ThrowNotSupported("column definition lists for table functions are not supported", location);
  }
  if (call->over != nullptr || call->agg_filter != nullptr || call->n_agg_order > 0 ||
      call->agg_star || call->agg_distinct || call->func_variadic) {
    ThrowNotSupported("this form of table function call is not supported", location);
  }

  auto ref = std::make_unique<ast::TableFunctionRef>();
  ref->name = FunctionName(StringList(call->funcname, call->n_funcname, location));
  ref->location = Loc(location);
  for (size_t i = 0; i < call->n_args; i++) {
    const PgQuery__Node* arg = call->args[i];
    if (!IsNull(arg) && arg->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
      ref->named_args.emplace_back(Lower(arg->named_arg_expr->name),
                                   TransformExpr(arg->named_arg_expr->arg));
      continue;
    }
    // DuckDB's `read_parquet('x', hive_partitioning = true)`: a comparison with a bare
    // column name on the left is a named argument.
    if (!IsNull(arg) && arg->node_case == PG_QUERY__NODE__NODE_A_EXPR) {
      const PgQuery__AExpr* expr = arg->a_expr;
      if (expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP && expr->n_name == 1 &&
          expr->name[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
          std::string(expr->name[0]->string->sval) == "=" && !IsNull(expr->lexpr) &&
          expr->lexpr->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
          expr->lexpr->column_ref->n_fields == 1 &&
          expr->lexpr->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
        ref->named_args.emplace_back(Lower(expr->lexpr->column_ref->fields[0]->string->sval),
                                     TransformExpr(expr->rexpr));
        continue;
      }
    }
    ref->args.push_back(TransformExpr(arg));
  }
  TransformAlias(range->alias, *ref, location);
  if (ref->name == "unnest" && ref->args.size() == 1 && ref->named_args.empty()) {
    // The lateral form, from a second transform of the argument (the AST has no copies).
    auto call_expr = std::make_unique<ast::FunctionExpr>();
    call_expr->name = "unnest";
    call_expr->location = ref->location;
    call_expr->args.push_back(TransformExpr(call->args[0]));
    auto select = std::make_unique<ast::SelectNode>();
    select->select_list.push_back({std::move(call_expr), "unnest"});
    auto sub = std::make_unique<ast::SubqueryRef>();
    sub->query = std::move(select);
    sub->lateral = true;
    sub->alias = ref->alias.empty() ? "unnest" : ref->alias;
    sub->column_aliases = ref->column_aliases;
    sub->location = ref->location;
    ref->lateral_unnest = std::move(sub);
  }
  return ref;
}

namespace {

/// The join kind a marker of FindDuckDbJoins names ("semi", "anti", "asof", with "_natural"
/// for a NATURAL join), or "" when `node` is no marker.
std::string JoinMarkerKind(const PgQuery__Node* node) {
  if (Transformer::IsNull(node) || node->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return "";
  const PgQuery__ColumnRef* ref = node->column_ref;
  if (ref->n_fields != 1 || ref->fields[0]->node_case != PG_QUERY__NODE__NODE_STRING) return "";
  const std::string name = ref->fields[0]->string->sval;
  const std::string prefix = kJoinMarkerPrefix, suffix = kJoinMarkerSuffix;
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return "";
  return name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
}

}  // namespace

ast::TableRefPtr Transformer::TransformJoin(const PgQuery__JoinExpr* join) {
  auto ref = std::make_unique<ast::JoinRef>();
  ref->left = TransformTableRef(join->larg);
  ref->right = TransformTableRef(join->rarg);
  ref->location = ref->left->location;
  ref->natural = join->is_natural;
  switch (join->jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER:
      ref->join_type = ast::JoinType::kInner;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
      ref->join_type = ast::JoinType::kLeft;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
      ref->join_type = ast::JoinType::kRight;
      break;
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      ref->join_type = ast::JoinType::kFull;
      break;
    default:
      ThrowNotSupported("this join type is not supported", -1);
  }
  if (join->join_using_alias != nullptr) {
    ThrowNotSupported("USING (...) AS alias is not supported", -1);
  }
  // DuckDB's SEMI / ANTI / ASOF JOIN: the marker FindDuckDbJoins put first in the ON
  // condition, last in the USING list, or alone in the ON of a NATURAL join.
  std::string marker;
  const PgQuery__Node* quals = join->quals;
  size_t n_using = join->n_using_clause;
  if (n_using > 0 && join->using_clause[n_using - 1]->node_case == PG_QUERY__NODE__NODE_STRING) {
    const std::string last = join->using_clause[n_using - 1]->string->sval;
    if (last.starts_with(kJoinMarkerPrefix) && last.ends_with(kJoinMarkerSuffix)) {
      marker = last.substr(std::string(kJoinMarkerPrefix).size(),
                           last.size() - std::string(kJoinMarkerPrefix).size() -
                               std::string(kJoinMarkerSuffix).size());
      n_using--;
    }
  }
  if (marker.empty()) marker = JoinMarkerKind(quals);
  if (!marker.empty() && marker == JoinMarkerKind(quals)) {
    quals = nullptr;  // NATURAL
  } else if (marker.empty() && !IsNull(quals) &&
             quals->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
             quals->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR &&
             quals->bool_expr->n_args == 2) {
    marker = JoinMarkerKind(quals->bool_expr->args[0]);
    if (!marker.empty()) quals = quals->bool_expr->args[1];
  }
  if (marker.ends_with("_natural")) {
    marker.resize(marker.size() - std::string("_natural").size());
    ref->natural = true;
  }
  if (marker == "semi" || marker == "anti") {
    if (ref->join_type != ast::JoinType::kInner) {
      ThrowNotSupported("LEFT / RIGHT / FULL with SEMI or ANTI JOIN is not supported", -1);
    }
    ref->join_type = marker == "semi" ? ast::JoinType::kSemi : ast::JoinType::kAnti;
  } else if (marker == "asof") {
    if (ref->join_type == ast::JoinType::kFull) {
      ThrowNotSupported("ASOF FULL JOIN is not supported (ASOF [LEFT | RIGHT] JOIN are)", -1);
    }
    ref->asof = true;
  }
  ref->using_columns = StringList(join->using_clause, n_using, -1);
  if (!IsNull(quals)) ref->condition = TransformExpr(quals);
  if (ref->join_type == ast::JoinType::kInner && !ref->natural && !ref->condition &&
      ref->using_columns.empty()) {
    ref->join_type = ast::JoinType::kCross;
  }
  TransformAlias(join->alias, *ref, -1);
  return ref;
}

}  // namespace shears::parser_internal
