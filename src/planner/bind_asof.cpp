// DuckDB's ASOF JOIN: `l ASOF [LEFT | RIGHT] JOIN r ON l.k = r.k AND l.t >= r.t` pairs each
// row of l with the one row of r of equal keys whose t is the nearest by the inequality (the
// largest r.t <= l.t here), or none. Planned over a union, a sort and two windows, O((n + m)
// log(n + m)), not as a join of every pair:
//
//   FILTER (probe rows, matched or not as the join kind keeps them; RIGHT: unmatched r rows)
//     WINDOW first_value(r.*) OVER (PARTITION BY valid, keys, c ORDER BY t, tie)
//       WINDOW c = count(build) OVER (PARTITION BY valid, keys ORDER BY t, tie ROWS UNBOUNDED
//                                     PRECEDING): how many r rows come before a row
//         UNION ALL (l's rows as probes, r's rows as builds, each with the other's NULLs)
//
// Sorted by t (descending for <= and <), an l row's nearest r row is the last r row before it,
// the c-th of its partition; the rows of (keys, c) are that r row followed by the l rows it
// matches, so first_value gives them its columns. `tie` orders an r row before l rows of the
// same t for >= / <= (equal counts) and after them for > / <. Rows with a NULL key or t match
// nothing (`valid` false), but for keys compared by IS NOT DISTINCT FROM.

#include <map>
#include <set>

#include "planner/binder.h"

#include "common/error.h"
#include "planner/bind_context.h"

namespace shears {

namespace {

/// Whether `expr` reads columns of `bindings` and no others (a constant reads none).
bool Within(const BoundExpr& expr, const std::set<ColumnBinding>& bindings) {
  const auto referenced = ReferencedBindings(expr);
  for (const auto& b : referenced) {
    if (!bindings.count(b)) return false;
  }
  return !referenced.empty();
}

BoundExprPtr Column(const LogicalType& type, ColumnBinding binding, std::string name) {
  return std::make_unique<BoundColumnRef>(type, binding, std::move(name));
}

BoundExprPtr Constant(Value v) {
  return std::make_unique<BoundConstant>(std::move(v));
}

/// `a >= b` as seen from the left side: the operator with the left side's expression first.
std::string Flip(const std::string& op) {
  if (op == ">=") return "<=";
  if (op == ">") return "<";
  if (op == "<=") return ">=";
  return ">";
}

}  // namespace

LogicalOperatorPtr Binder::PlanAsofJoin(JoinKind kind, LogicalOperatorPtr left,
                                        LogicalOperatorPtr right,
                                        std::vector<BoundExprPtr> conjuncts,
                                        std::map<ColumnBinding, ColumnBinding>* remap) {
  const auto left_bindings = left->GetColumnBindings(), right_bindings = right->GetColumnBindings();
  const auto left_types = left->GetTypes(), right_types = right->GetTypes();
  const std::set<ColumnBinding> left_set(left_bindings.begin(), left_bindings.end());
  const std::set<ColumnBinding> right_set(right_bindings.begin(), right_bindings.end());

  // The condition: equalities l = r and exactly one inequality between a left and a right
  // expression.
  struct Key {
    BoundExprPtr left, right;
    bool null_equal;  // IS NOT DISTINCT FROM: NULL keys match each other
  };
  std::vector<Key> keys;
  BoundExprPtr probe_t, build_t;
  std::string op;
  // Conditions over one side only: a row failing them matches nothing (DuckDB's). Conditions
  // over both sides that are no such comparison need every pair (PlanAsofPairs).
  std::vector<BoundExprPtr> left_only, right_only;
  std::vector<BoundExprPtr> originals;
  bool pairwise = false;
  for (const auto& conjunct : conjuncts)
    originals.push_back(conjunct->Copy());
  for (auto& conjunct : conjuncts) {
    if (conjunct->kind == BoundExprKind::kConstant) {
      const Value& v = static_cast<const BoundConstant&>(*conjunct).value;
      if (!v.is_null() && v.GetBoolean()) continue;  // ON 1 = 1 AND ...
    }
    if (Within(*conjunct, right_set)) {
      right_only.push_back(std::move(conjunct));
      continue;
    }
    if (ReferencedBindings(*conjunct).empty() || Within(*conjunct, left_set)) {
      left_only.push_back(std::move(conjunct));
      continue;
    }
    std::string name;
    if (conjunct->kind == BoundExprKind::kFunction) {
      name = static_cast<const BoundFunction&>(*conjunct).function.name;
    }
    const bool null_equal = name == "IS NOT DISTINCT FROM" || name == "is_not_distinct_from";
    const bool comparison =
        name == "=" || null_equal || name == ">=" || name == ">" || name == "<=" || name == "<";
    auto* args = comparison ? &static_cast<BoundFunction&>(*conjunct).args : nullptr;
    bool swapped = false;
    if (args && args->size() == 2 && Within(*(*args)[0], left_set) &&
        Within(*(*args)[1], right_set)) {
    } else if (args && args->size() == 2 && Within(*(*args)[0], right_set) &&
               Within(*(*args)[1], left_set)) {
      swapped = true;
    } else {
      pairwise = true;
      continue;
    }
    BoundExprPtr l = std::move((*args)[swapped ? 1 : 0]);
    BoundExprPtr r = std::move((*args)[swapped ? 0 : 1]);
    // Both sides meet in one union column.
    if (l->type != r->type) {
      const auto common = CommonType(l->type, r->type);
      if (!common) throw InternalError("ASOF JOIN comparison of unrelated types");
      l = CastTo(std::move(l), *common);
      r = CastTo(std::move(r), *common);
    }
    if (name == "=" || null_equal) {
      keys.push_back({std::move(l), std::move(r), null_equal});
      continue;
    }
    if (probe_t) {
      throw BinderError("ASOF JOIN takes one inequality condition, not several ({} and {})", op,
                        name);
    }
    op = swapped ? Flip(name) : name;
    probe_t = std::move(l);
    build_t = std::move(r);
  }
  if (!probe_t) {
    throw BinderError("ASOF JOIN needs an inequality condition (>=, >, <=, <) between the sides");
  }
  const bool descending = op == "<=" || op == "<";
  const bool strict = op == ">" || op == "<";
  if (kind == JoinKind::kRight && (pairwise || !left_only.empty() || !right_only.empty())) {
    throw NotSupportedError(
        "ASOF RIGHT JOIN takes only equalities and one inequality between the sides (as DuckDB)");
  }
  if (pairwise) {
    return PlanAsofPairs(kind, std::move(left), std::move(right), std::move(originals), *build_t,
                         descending, remap);
  }

  // The union's columns: l's, r's, the keys, t, valid, build (1 or NULL), tie.
  const size_t nl = left_types.size(), nr = right_types.size(), nk = keys.size();
  std::vector<LogicalType> types;
  for (const auto& t : left_types)
    types.push_back(t);
  for (const auto& t : right_types)
    types.push_back(t);
  for (const auto& key : keys)
    types.push_back(key.left->type);
  types.push_back(probe_t->type);
  types.push_back(LogicalType::Boolean());
  types.push_back(LogicalType::Integer());
  types.push_back(LogicalType::Integer());
  const size_t key_at = nl + nr, t_at = key_at + nk, valid_at = t_at + 1, build_at = t_at + 2,
               tie_at = t_at + 3;

  auto side = [&](LogicalOperatorPtr plan, bool probe) {
    auto projection = std::make_unique<LogicalProjection>();
    projection->table_index = NewTableIndex();
    const auto& bindings = probe ? left_bindings : right_bindings;
    for (size_t i = 0; i < nl; i++) {
      projection->expressions.push_back(probe ? Column(left_types[i], bindings[i], "l")
                                              : Constant(Value::Null(left_types[i])));
    }
    for (size_t i = 0; i < nr; i++) {
      projection->expressions.push_back(probe ? Constant(Value::Null(right_types[i]))
                                              : Column(right_types[i], bindings[i], "r"));
    }
    std::vector<BoundExprPtr> not_null;
    for (const auto& key : keys) {
      const BoundExpr& value = probe ? *key.left : *key.right;
      projection->expressions.push_back(value.Copy());
      if (!key.null_equal) not_null.push_back(std::make_unique<BoundIsNull>(value.Copy(), true));
    }
    const BoundExpr& t = probe ? *probe_t : *build_t;
    projection->expressions.push_back(t.Copy());
    not_null.push_back(std::make_unique<BoundIsNull>(t.Copy(), true));
    for (const auto& condition : probe ? left_only : right_only)
      not_null.push_back(condition->Copy());
    // A NULL condition is a FALSE one.
    std::vector<BoundExprPtr> valid;
    valid.push_back(MakeConjunction(std::move(not_null)));
    valid.push_back(Constant(Value::Boolean(false)));
    projection->expressions.push_back(BindFunctionCall("coalesce", std::move(valid)));
    projection->expressions.push_back(
        Constant(probe ? Value::Null(LogicalType::Integer()) : Value::Integer(1)));
    // Non-strict: an r row before the l rows of its t; strict: after them.
    projection->expressions.push_back(Constant(Value::Integer(probe != strict ? 1 : 0)));
    projection->children.push_back(std::move(plan));
    return projection;
  };
  auto both = std::make_unique<LogicalSetOperation>();
  both->table_index = NewTableIndex();
  both->kind = SetOperationKind::kUnion;
  both->all = true;
  both->types = types;
  both->children.push_back(side(std::move(left), true));
  both->children.push_back(side(std::move(right), false));
  const uint32_t union_index = both->table_index;
  auto at = [&](size_t i) {
    return Column(types[i], ColumnBinding{union_index, static_cast<uint32_t>(i)}, "#");
  };
  auto partition = [&](std::vector<BoundExprPtr>& out) {
    out.push_back(at(valid_at));
    for (size_t k = 0; k < nk; k++)
      out.push_back(at(key_at + k));
  };
  auto order = [&](std::vector<BoundOrderBy>& out) {
    out.push_back({at(t_at), descending, false});
    out.push_back({at(tie_at), false, false});
  };

  // c: the r rows up to this row in its partition.
  auto count = std::make_unique<BoundWindow>(WindowFunction::kAggregate, LogicalType::Bigint());
  count->name = "count";
  count->aggregate = AggregateKind::kCount;
  count->args.push_back(at(build_at));
  partition(count->partitions);
  order(count->orders);
  count->unit = WindowFrameUnit::kRows;
  BoundExprPtr c = std::move(count);
  LogicalOperatorPtr plan = PlanWindows(std::move(both), {&c});

  // r's columns from the first row of (keys, c); for RIGHT joins the l rows r's row matched.
  std::vector<BoundExprPtr> firsts;
  auto by_match = [&](BoundWindow& w) {
    partition(w.partitions);
    w.partitions.push_back(c->Copy());
    order(w.orders);
    w.unit = WindowFrameUnit::kRows;
    w.end = WindowBoundKind::kUnboundedFollowing;
  };
  for (size_t j = 0; j < nr; j++) {
    auto first = std::make_unique<BoundWindow>(WindowFunction::kFirstValue, right_types[j]);
    first->name = "first_value";
    first->args.push_back(at(nl + j));
    by_match(*first);
    firsts.push_back(std::move(first));
  }
  BoundExprPtr probes;
  if (kind == JoinKind::kRight) {
    auto matched = std::make_unique<BoundWindow>(WindowFunction::kAggregate, LogicalType::Bigint());
    matched->name = "count";
    matched->aggregate = AggregateKind::kCountStar;
    by_match(*matched);
    probes = std::move(matched);
  }
  std::vector<BoundExprPtr*> windows;
  for (auto& f : firsts)
    windows.push_back(&f);
  if (probes) windows.push_back(&probes);
  plan = PlanWindows(std::move(plan), windows);

  // Which rows: l rows (matched ones only unless LEFT), and for RIGHT the r rows no l row
  // matched.
  auto is_probe = [&] { return std::make_unique<BoundIsNull>(at(build_at), false); };
  auto matched_probe = [&] {
    std::vector<BoundExprPtr> all;
    all.push_back(is_probe());
    all.push_back(at(valid_at));
    std::vector<BoundExprPtr> args;
    args.push_back(c->Copy());
    args.push_back(Constant(Value::Bigint(0)));
    all.push_back(BindFunctionCall(">", std::move(args)));
    return MakeConjunction(std::move(all));
  };
  BoundExprPtr keep;
  if (kind == JoinKind::kLeft) {
    keep = is_probe();
  } else if (kind == JoinKind::kInner) {
    keep = matched_probe();
  } else {
    // An r row alone: invalid, or the l rows of its group are only itself (count 1).
    std::vector<BoundExprPtr> alone;
    std::vector<BoundExprPtr> args;
    args.push_back(probes->Copy());
    args.push_back(Constant(Value::Bigint(1)));
    alone.push_back(BindFunctionCall("=", std::move(args)));
    alone.push_back(std::make_unique<BoundNot>(at(valid_at)));
    std::vector<BoundExprPtr> build_alone;
    build_alone.push_back(std::make_unique<BoundIsNull>(at(build_at), true));
    build_alone.push_back(std::make_unique<BoundConjunction>(false, std::move(alone)));
    std::vector<BoundExprPtr> either;
    either.push_back(matched_probe());
    either.push_back(MakeConjunction(std::move(build_alone)));
    keep = std::make_unique<BoundConjunction>(false, std::move(either));
  }
  auto filter = std::make_unique<LogicalFilter>();
  filter->conditions.push_back(std::move(keep));
  filter->children.push_back(std::move(plan));

  auto result = std::make_unique<LogicalProjection>();
  result->table_index = NewTableIndex();
  for (size_t i = 0; i < nl; i++) {
    result->expressions.push_back(at(i));
    (*remap)[left_bindings[i]] = ColumnBinding{result->table_index, static_cast<uint32_t>(i)};
  }
  for (size_t j = 0; j < nr; j++) {
    // Valid rows take their group's r row; an invalid r row keeps its own, an l row NULLs.
    auto value = std::make_unique<BoundCase>(right_types[j]);
    value->when_then.emplace_back(at(valid_at), std::move(firsts[j]));
    value->else_expr = at(nl + j);
    result->expressions.push_back(std::move(value));
    (*remap)[right_bindings[j]] = ColumnBinding{result->table_index, static_cast<uint32_t>(nl + j)};
  }
  result->children.push_back(std::move(filter));
  return result;
}

/// The ASOF JOIN whose condition has more than equalities and the inequality over both sides:
/// every pair the condition keeps (a hash join on the equalities, the rest checked per pair),
/// then each left row's nearest right row by row_number() over the left row's number.
LogicalOperatorPtr Binder::PlanAsofPairs(JoinKind kind, LogicalOperatorPtr left,
                                         LogicalOperatorPtr right,
                                         std::vector<BoundExprPtr> conjuncts,
                                         const BoundExpr& build_t, bool descending,
                                         std::map<ColumnBinding, ColumnBinding>* remap) {
  const auto left_bindings = left->GetColumnBindings(), right_bindings = right->GetColumnBindings();
  const auto left_types = left->GetTypes(), right_types = right->GetTypes();
  auto numbered = std::make_unique<LogicalWindow>();
  numbered->window_index = NewTableIndex();
  auto number = std::make_unique<BoundWindow>(WindowFunction::kRowNumber, LogicalType::Bigint());
  number->name = "row_number";
  numbered->windows.push_back(std::move(number));
  numbered->children.push_back(std::move(left));
  const ColumnBinding row{numbered->window_index, 0};

  auto join = std::make_unique<LogicalJoin>();
  join->join_kind = kind;
  join->residual = MakeConjunction(std::move(conjuncts));
  join->children.push_back(std::move(numbered));
  join->children.push_back(std::move(right));

  // The latest (>=, >) or earliest (<=, <) right row of each left row.
  auto nearest = std::make_unique<BoundWindow>(WindowFunction::kRowNumber, LogicalType::Bigint());
  nearest->name = "row_number";
  nearest->partitions.push_back(Column(LogicalType::Bigint(), row, "row"));
  nearest->orders.push_back({build_t.Copy(), !descending, false});
  nearest->unit = WindowFrameUnit::kRows;
  BoundExprPtr rank = std::move(nearest);
  LogicalOperatorPtr plan = PlanWindows(std::move(join), {&rank});
  auto filter = std::make_unique<LogicalFilter>();
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(rank));
  args.push_back(Constant(Value::Bigint(1)));
  filter->conditions.push_back(BindFunctionCall("=", std::move(args)));
  filter->children.push_back(std::move(plan));

  auto result = std::make_unique<LogicalProjection>();
  result->table_index = NewTableIndex();
  for (size_t i = 0; i < left_bindings.size(); i++) {
    result->expressions.push_back(Column(left_types[i], left_bindings[i], "l"));
    (*remap)[left_bindings[i]] = ColumnBinding{result->table_index, static_cast<uint32_t>(i)};
  }
  for (size_t j = 0; j < right_bindings.size(); j++) {
    const auto at = static_cast<uint32_t>(left_bindings.size() + j);
    result->expressions.push_back(Column(right_types[j], right_bindings[j], "r"));
    (*remap)[right_bindings[j]] = ColumnBinding{result->table_index, at};
  }
  result->children.push_back(std::move(filter));
  return result;
}

}  // namespace shears
