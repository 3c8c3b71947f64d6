// Subqueries used as values: scalar subqueries, EXISTS, IN / op ANY / op ALL anywhere an
// expression may stand (select list, WHERE under OR, HAVING, ORDER BY). Each becomes a join
// below the clause, never a per-row evaluation:
//
//   uncorrelated scalar    plan CROSS [one row: any_value(v), count(*)]  -> check(count, v)
//   correlated scalar      the correlation `inner = outer` equalities are pulled up out of
//                          the subquery and become GROUP BY keys, then
//                          plan LEFT JOIN [k, any_value(v), count(*) GROUP BY k] ON outer = k
//                          (a subquery that is one aggregate without GROUP BY needs no
//                          regrouping: its value for a missing group is the aggregate of no
//                          rows, e.g. count(*) = 0)
//   EXISTS                 MARK join (with the correlation equalities as keys)
//   x IN / op ANY          MARK join on x = v (hash) or x op v (nested loop); correlated:
//                          two MARK joins (see PlanCorrelatedAny)
//   x op ALL               NOT (x negated-op ANY)
//
// `check` raises "more than one row returned by a subquery used as an expression" when a
// group had more than one row. Top-level WHERE conjuncts `[NOT] IN` / `[NOT] EXISTS` are
// bound as semi/anti joins by BindWhere instead (they need no mark and prune partitions).

#include <atomic>
#include <set>

#include "common/error.h"
#include "expression/expression_executor.h"
#include "function/function.h"
#include "planner/bind_context.h"
#include "planner/dependent_join.h"
#include "planner/plan_copy.h"

namespace shears {

BoundExprPtr BindFunctionCall(const std::string& name, std::vector<BoundExprPtr> args);

std::string BoundSubquery::ToString() const {
  return "SUBQUERY#" + std::to_string(info->id);
}

BoundExprPtr BoundSubquery::Copy() const {
  auto copy = std::make_unique<BoundSubquery>(type, info);
  copy->alias = alias;
  return copy;
}

std::vector<BoundExprPtr*> BoundSubquery::Children() {
  if (!info->left) return {};
  return {&info->left};
}

namespace {

BoundExprPtr Ref(const LogicalType& type, ColumnBinding binding, std::string name) {
  return std::make_unique<BoundColumnRef>(type, binding, std::move(name));
}

NotSupportedError UnsupportedCorrelation(const std::string& what) {
  return NotSupportedError(
      "correlated subquery: {} is not supported yet (supported: correlation through "
      "`inner = outer` equalities in the subquery's WHERE clause)",
      what);
}

/// A correlation equality pulled out of a subquery: `inner` is over the subquery's output
/// columns once pulled up, `outer` over the enclosing query.
struct Correlation {
  BoundExprPtr inner;
  BoundExprPtr outer;
};

/// Moves the correlated conditions of the subquery plan `op` up and out of it. Equalities
/// `inner = outer` go to `correlations` (their inner side made an output column of `op`,
/// and a GROUP BY key of aggregates on the way); other correlated conditions go to
/// `residuals` when that is given and no aggregate is in the way.
class CorrelationPuller {
 public:
  CorrelationPuller(Binder& binder, std::set<uint32_t> inner_tables,
                    std::vector<BoundExprPtr>* residuals)
      : binder_(binder), inner_(std::move(inner_tables)), residuals_(residuals) {}

  std::vector<Correlation> correlations;

  void Pull(LogicalOperatorPtr& op) {
    switch (op->type) {
      case LogicalOperatorType::kFilter:
        PullFilter(op);
        return;
      case LogicalOperatorType::kProjection:
        PullProjection(static_cast<LogicalProjection&>(*op));
        return;
      case LogicalOperatorType::kAggregate:
        PullAggregate(static_cast<LogicalAggregate&>(*op));
        return;
      default:
        if (SubtreeReferencesOutside(*op, inner_)) {
          throw UnsupportedCorrelation("an outer column below " + op->Describe());
        }
    }
  }

 private:
  bool IsInner(const BoundExpr& e) const { return !ReferencesOutside(e, inner_); }
  bool IsOuter(const BoundExpr& e) const {
    for (const auto& b : ReferencedBindings(e)) {
      if (inner_.count(b.table_index)) return false;
    }
    return true;
  }

  void PullFilter(LogicalOperatorPtr& op) {
    auto& filter = static_cast<LogicalFilter&>(*op);
    Pull(filter.children[0]);
    // A correlation written in every branch of an OR (TPC-DS q41) is one for the whole OR.
    std::vector<BoundExprPtr> conditions;
    for (auto& condition : filter.conditions)
      SplitConjunction(FactorOrBranches(std::move(condition)), conditions);
    std::vector<BoundExprPtr> kept;
    for (auto& condition : conditions) {
      if (IsInner(*condition)) {
        kept.push_back(std::move(condition));
        continue;
      }
      if (condition->kind == BoundExprKind::kFunction &&
          static_cast<BoundFunction&>(*condition).function.name == "=") {
        auto& eq = static_cast<BoundFunction&>(*condition);
        if (IsInner(*eq.args[1]) && IsOuter(*eq.args[0])) std::swap(eq.args[0], eq.args[1]);
        if (IsInner(*eq.args[0]) && IsOuter(*eq.args[1])) {
          correlations.push_back({std::move(eq.args[0]), std::move(eq.args[1])});
          continue;
        }
      }
      if (!residuals_) throw UnsupportedCorrelation("the condition " + QualifiedString(*condition));
      residuals_->push_back(std::move(condition));
    }
    filter.conditions = std::move(kept);
    if (filter.conditions.empty()) {
      LogicalOperatorPtr child = std::move(filter.children[0]);
      op = std::move(child);
    }
  }

  // Rewrites the columns of `op`'s input that `expr` uses into new output columns of the
  // projection (columns of the enclosing query stay as they are).
  void ExposeThroughProjection(LogicalProjection& projection, BoundExprPtr& expr) {
    if (expr->kind == BoundExprKind::kColumnRef) {
      auto& ref = static_cast<BoundColumnRef&>(*expr);
      if (!inner_.count(ref.binding.table_index)) return;
      uint32_t index = 0;
      for (; index < projection.expressions.size(); index++) {
        const auto& e = *projection.expressions[index];
        if (e.kind == BoundExprKind::kColumnRef &&
            static_cast<const BoundColumnRef&>(e).binding == ref.binding) {
          break;
        }
      }
      if (index == projection.expressions.size()) projection.expressions.push_back(expr->Copy());
      expr = Ref(ref.type, ColumnBinding{projection.table_index, index}, ref.name);
      return;
    }
    for (BoundExprPtr* child : expr->Children())
      ExposeThroughProjection(projection, *child);
  }

  void PullProjection(LogicalProjection& projection) {
    for (const auto& e : projection.expressions) {
      if (!IsInner(*e)) {
        throw UnsupportedCorrelation("an outer column in the select item " + QualifiedString(*e));
      }
    }
    Pull(projection.children[0]);
    for (auto& c : correlations)
      ExposeThroughProjection(projection, c.inner);
    if (residuals_) {
      for (auto& r : *residuals_)
        ExposeThroughProjection(projection, r);
    }
  }

  void PullAggregate(LogicalAggregate& aggregate) {
    for (BoundExprPtr* e : aggregate.Expressions()) {
      if (!IsInner(**e)) {
        throw UnsupportedCorrelation("an outer column in the aggregate expression " +
                                     QualifiedString(**e));
      }
    }
    Pull(aggregate.children[0]);
    if (residuals_ && !residuals_->empty()) {
      throw UnsupportedCorrelation("a condition other than an equality below an aggregate");
    }
    // Its group columns are inner columns now, even when it had none before.
    inner_.insert(aggregate.group_index);
    for (auto& c : correlations) {
      const auto index = static_cast<uint32_t>(aggregate.groups.size());
      const LogicalType type = c.inner->type;
      const std::string name = c.inner->ToString();
      aggregate.groups.push_back(std::move(c.inner));
      c.inner = Ref(type, ColumnBinding{aggregate.group_index, index}, name);
    }
  }

  Binder& binder_;
  std::set<uint32_t> inner_;
  std::vector<BoundExprPtr>* residuals_;
};

/// count(*) of no rows is 0, every other aggregate NULL: the value an ungrouped aggregate
/// subquery has for an outer row no inner row matches.
BoundExprPtr ValueOverNoRows(const BoundExpr& select_item, const LogicalAggregate& aggregate) {
  BoundExprPtr expr = select_item.Copy();
  bool constant = true;
  std::function<void(BoundExprPtr&)> substitute = [&](BoundExprPtr& e) {
    if (e->kind == BoundExprKind::kColumnRef) {
      const auto& ref = static_cast<BoundColumnRef&>(*e);
      if (ref.binding.table_index != aggregate.aggregate_index) {
        constant = false;
        return;
      }
      const auto& agg =
          static_cast<const BoundAggregate&>(*aggregate.aggregates[ref.binding.column_index]);
      const bool counts =
          agg.aggregate == AggregateKind::kCount || agg.aggregate == AggregateKind::kCountStar;
      e = std::make_unique<BoundConstant>(counts ? Value::Bigint(0) : Value::Null(e->type));
      return;
    }
    for (BoundExprPtr* child : e->Children())
      substitute(*child);
  };
  substitute(expr);
  if (!constant) return nullptr;
  return std::make_unique<BoundConstant>(ExpressionExecutor::EvaluateConstant(*expr));
}

/// check(count, value): the value, or the cardinality error when its group had several rows.
BoundExprPtr SingleValueCheck(BoundExprPtr count, BoundExprPtr value) {
  BoundScalarFunction fn;
  fn.name = "single_row_check";
  fn.arg_types = {count->type, value->type};
  fn.return_type = value->type;
  fn.null_propagating = false;
  fn.deterministic = false;  // never folded or moved: it raises an error
  fn.kernel = [](const std::vector<const Vector*>& args, idx_t rows, Vector& result) {
    const Vector& counts = *args[0];
    const int64_t* values = counts.data<int64_t>();
    for (idx_t i = 0; i < rows; i++) {
      if (!counts.IsNull(i) && values[i] > 1) {
        throw InvalidInputError("more than one row returned by a subquery used as an expression");
      }
    }
    result.Reference(*args[1]);
  };
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(count));
  args.push_back(std::move(value));
  return std::make_unique<BoundFunction>(std::move(fn), std::move(args));
}

/// Wraps `plan` in an aggregate with [any_value(first column), count(*)], grouped by `keys`
/// (expressions over `plan`), which it rewrites to the group columns.
std::unique_ptr<LogicalAggregate> SingleValueAggregate(Binder& binder, LogicalOperatorPtr plan,
                                                       std::vector<Correlation>& correlations) {
  auto aggregate = std::make_unique<LogicalAggregate>();
  aggregate->group_index = binder.NewTableIndex();
  aggregate->aggregate_index = binder.NewTableIndex();
  const LogicalType type = plan->GetTypes()[0];
  auto value = Ref(type, plan->GetColumnBindings()[0], "value");  // first: also when flattened
  aggregate->aggregates.push_back(
      std::make_unique<BoundAggregate>(AggregateKind::kAny, type, std::move(value), false));
  aggregate->aggregates.push_back(std::make_unique<BoundAggregate>(
      AggregateKind::kCountStar, LogicalType::Bigint(), nullptr, false));
  for (auto& c : correlations) {
    const auto index = static_cast<uint32_t>(aggregate->groups.size());
    const LogicalType key_type = c.inner->type;
    aggregate->groups.push_back(std::move(c.inner));
    c.inner = Ref(key_type, ColumnBinding{aggregate->group_index, index}, "key");
  }
  aggregate->children.push_back(std::move(plan));
  return aggregate;
}

std::string NegatedComparison(const std::string& op) {
  if (op == "=") return "<>";
  if (op == "<>") return "=";
  if (op == "<") return ">=";
  if (op == "<=") return ">";
  if (op == ">") return "<=";
  if (op == ">=") return "<";
  throw NotSupportedError("comparison '{}' is not supported with ANY / ALL", op);
}

}  // namespace

BoundExprPtr Binder::BindSubqueryExpr(const ast::SubqueryExpr& subquery, ExprContext& ctx) {
  static std::atomic<int> next_id{1};
  auto info = std::make_shared<BoundSubqueryInfo>();
  info->kind = subquery.subquery_kind;
  info->op = subquery.op;
  info->id = next_id++;
  info->location = subquery.location;
  info->ast = &subquery;
  info->scope = ctx.scope;
  BoundQuery query = BindQueryNode(*subquery.query, ctx.scope);
  if (info->kind != ast::SubqueryKind::kExists && query.types.size() != 1) {
    throw BinderError("a subquery used as an expression must return one column, not {}",
                      query.types.size());
  }
  info->plan = std::move(query.plan);
  LogicalType type = LogicalType::Boolean();
  if (info->kind == ast::SubqueryKind::kScalar) type = query.types[0];
  if (info->kind == ast::SubqueryKind::kAny || info->kind == ast::SubqueryKind::kAll) {
    if (info->kind == ast::SubqueryKind::kAll) info->op = NegatedComparison(info->op);
    NegatedComparison(info->op);  // rejects operators other than comparisons
    ExprContext left_ctx = ctx;
    info->left = BindExpr(*subquery.left, left_ctx);
    auto common = CommonType(info->left->type, query.types[0]);
    if (!common) {
      throw BinderError("cannot compare {} with {} in {} subquery", info->left->type.ToString(),
                        query.types[0].ToString(),
                        info->kind == ast::SubqueryKind::kAll ? "ALL" : "IN / ANY");
    }
    info->left = CastTo(std::move(info->left), *common);
  }
  BoundExprPtr result = std::make_unique<BoundSubquery>(type, std::move(info));
  // x op ALL (S) is NOT (x negated-op ANY (S)), also under three-valued logic.
  const bool negate = subquery.negated != (subquery.subquery_kind == ast::SubqueryKind::kAll);
  if (negate) result = std::make_unique<BoundNot>(std::move(result));
  return result;
}

LogicalOperatorPtr Binder::PlanSubqueries(
    LogicalOperatorPtr plan, const std::vector<BoundExprPtr*>& exprs,
    const std::function<BoundExprPtr(BoundExprPtr)>& to_outer) {
  LogicalOperatorPtr input;
  std::function<void(BoundExprPtr&)> replace = [&](BoundExprPtr& e) {
    for (BoundExprPtr* child : e->Children()) {
      if (*child) replace(*child);
    }
    if (e->kind != BoundExprKind::kSubquery) return;
    auto& info = *static_cast<BoundSubquery&>(*e).info;
    if (!info.result) {
      // Each subquery joins the plan one to one: the plan as it came has the same rows.
      if (!input) input = CopyPlanAsIs(*plan);
      const LogicalOperator* saved = domain_source_;
      domain_source_ = input.get();
      try {
        plan = PlanSubquery(std::move(plan), info, to_outer);
      } catch (const Error&) {
        domain_source_ = saved;
        RethrowAt(info.location);
      }
      domain_source_ = saved;
    }
    const std::string alias = e->alias;
    e = info.result->Copy();
    e->alias = alias;
  };
  for (BoundExprPtr* e : exprs) {
    if (*e) replace(*e);
  }
  return plan;
}

namespace {

/// A subquery plan with its correlation pulled out (see CorrelationPuller).
struct Decorrelated {
  std::vector<Correlation> correlations;
  std::vector<BoundExprPtr> residuals;
};

/// Pulls the correlation out of `subplan` and checks it refers to `outer_plan` (after
/// `to_outer`); residuals (conditions other than equalities) only when `allow_residuals`.
Decorrelated Decorrelate(Binder& binder, LogicalOperatorPtr& subplan,
                         const LogicalOperator& outer_plan, bool allow_residuals,
                         const std::function<BoundExprPtr(BoundExprPtr)>& to_outer) {
  Decorrelated out;
  CorrelationPuller puller(binder, ProducedTables(*subplan),
                           allow_residuals ? &out.residuals : nullptr);
  puller.Pull(subplan);
  out.correlations = std::move(puller.correlations);
  const auto outer_tables = ProducedTables(outer_plan);
  auto tables = outer_tables;
  for (const auto& b : subplan->GetColumnBindings())
    tables.insert(b.table_index);
  auto too_deep = [] {
    return NotSupportedError(
        "subqueries correlated with a query more than one level out are not supported yet");
  };
  for (auto& c : out.correlations) {
    if (to_outer) c.outer = to_outer(std::move(c.outer));
    if (ReferencesOutside(*c.outer, outer_tables)) throw too_deep();
  }
  if (!out.residuals.empty() && to_outer) {
    throw UnsupportedCorrelation("a condition other than an equality in an aggregate query");
  }
  for (auto& r : out.residuals) {
    if (ReferencesOutside(*r, tables)) throw too_deep();
  }
  return out;
}

/// The correlation equalities as join keys `outer = inner`, both cast to their common type.
void AddCorrelationKeys(LogicalJoin& join, std::vector<Correlation>& correlations) {
  for (auto& c : correlations) {
    auto common = CommonType(c.outer->type, c.inner->type);
    if (!common) {
      throw BinderError("cannot compare {} with {} in a correlated subquery",
                        c.outer->type.ToString(), c.inner->type.ToString());
    }
    JoinCondition condition;
    condition.left = CastTo(std::move(c.outer), *common);
    condition.right = CastTo(std::move(c.inner), *common);
    join.conditions.push_back(std::move(condition));
  }
}

/// `mark` as EXISTS means it: a NULL mark (NULL keys) is no match.
BoundExprPtr MarkIsTrue(BoundExprPtr mark) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(mark));
  args.push_back(std::make_unique<BoundConstant>(Value::Boolean(false)));
  return BindFunctionCall("coalesce", std::move(args));
}

}  // namespace

LogicalOperatorPtr Binder::PlanSubquery(LogicalOperatorPtr plan, BoundSubqueryInfo& info,
                                        const std::function<BoundExprPtr(BoundExprPtr)>& to_outer,
                                        bool correlated_further_out) {
  const bool correlated =
      !correlated_further_out && SubtreeReferencesOutside(*info.plan, ProducedTables(*info.plan));
  const bool scalar = info.kind == ast::SubqueryKind::kScalar;
  const bool exists = info.kind == ast::SubqueryKind::kExists;
  if (correlated && !scalar && !exists) return PlanCorrelatedAny(std::move(plan), info, to_outer);

  // A subquery that is one aggregate without GROUP BY has exactly one row per outer row.
  const LogicalAggregate* ungrouped = nullptr;
  BoundExprPtr select_item;
  if (info.plan->type == LogicalOperatorType::kProjection &&
      info.plan->children[0]->type == LogicalOperatorType::kAggregate &&
      static_cast<LogicalAggregate&>(*info.plan->children[0]).groups.empty()) {
    ungrouped = &static_cast<LogicalAggregate&>(*info.plan->children[0]);
    select_item = static_cast<LogicalProjection&>(*info.plan).expressions[0]->Copy();
  }
  Decorrelated decorrelated;
  if (correlated) {
    // The fast path (correlation through equalities only) works on the plan in place; the
    // general one needs it as bound.
    std::map<uint32_t, uint32_t> remap;
    LogicalOperatorPtr as_bound = CopyPlan(*info.plan, *this, remap);
    try {
      decorrelated = Decorrelate(*this, info.plan, *plan, !scalar, to_outer);
    } catch (const NotSupportedError&) {
      info.plan = std::move(as_bound);
      return PlanFlattenedSubquery(std::move(plan), info, to_outer);
    }
  }
  auto& correlations = decorrelated.correlations;
  auto& residuals = decorrelated.residuals;

  auto join = std::make_unique<LogicalJoin>();
  if (scalar) {
    BoundExprPtr missing_value;  // the value when no inner row matched (correlated, ungrouped)
    if (ungrouped && correlated) missing_value = ValueOverNoRows(*select_item, *ungrouped);
    LogicalOperatorPtr right = std::move(info.plan);
    BoundExprPtr value, count;
    if (ungrouped && (!correlated || missing_value)) {
      value = Ref(right->GetTypes()[0], right->GetColumnBindings()[0], "subquery");
    } else {
      auto aggregate = SingleValueAggregate(*this, std::move(right), correlations);
      value = Ref(aggregate->aggregates[0]->type, ColumnBinding{aggregate->aggregate_index, 0},
                  "subquery");
      count = Ref(LogicalType::Bigint(), ColumnBinding{aggregate->aggregate_index, 1}, "count");
      right = std::move(aggregate);
      missing_value.reset();
    }
    BoundExprPtr matched_key =
        correlations.empty() ? nullptr : correlations[0].inner->Copy();  // NULL: no match
    join->join_kind = correlated ? JoinKind::kLeft : JoinKind::kCross;
    AddCorrelationKeys(*join, correlations);
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(right));
    if (count) value = SingleValueCheck(std::move(count), std::move(value));
    if (missing_value && !(missing_value->kind == BoundExprKind::kConstant &&
                           static_cast<BoundConstant&>(*missing_value).value.is_null())) {
      auto when = std::make_unique<BoundCase>(value->type);
      when->when_then.emplace_back(std::make_unique<BoundIsNull>(std::move(matched_key), false),
                                   CastTo(std::move(missing_value), value->type));
      when->else_expr = std::move(value);
      value = std::move(when);
    }
    info.result = std::move(value);
    return join;
  }

  // EXISTS, and uncorrelated IN / op ANY: a mark join.
  join->join_kind = JoinKind::kMark;
  join->mark_index = NewTableIndex();
  LogicalOperatorPtr right = std::move(info.plan);
  AddCorrelationKeys(*join, correlations);
  if (!exists) {
    auto right_value = Ref(right->GetTypes()[0], right->GetColumnBindings()[0], "subquery");
    right_value = CastTo(std::move(right_value), info.left->type);
    if (info.op == "=") {
      // Hash mark join: its mark is NULL when no match and NULLs are involved, as IN needs.
      JoinCondition condition;
      condition.left = std::move(info.left);
      condition.right = std::move(right_value);
      join->conditions.push_back(std::move(condition));
    } else {
      std::vector<BoundExprPtr> args;
      args.push_back(std::move(info.left));
      args.push_back(std::move(right_value));
      residuals.push_back(BindFunctionCall(info.op, std::move(args)));
    }
  }
  if (!residuals.empty()) join->residual = MakeConjunction(std::move(residuals));
  join->children.push_back(std::move(plan));
  join->children.push_back(std::move(right));
  BoundExprPtr mark = Ref(LogicalType::Boolean(), ColumnBinding{join->mark_index, 0}, "mark");
  if (exists && (!join->conditions.empty() || join->residual)) mark = MarkIsTrue(std::move(mark));
  info.result = std::move(mark);
  return join;
}

namespace {

/// x op ANY (S) from two copies of S joined by mark joins on their `keys` and `residuals`:
/// found (x op s for some s) and unknown ((x op s) IS NULL for some s).
LogicalOperatorPtr JoinFoundAndUnknown(Binder& binder, LogicalOperatorPtr plan,
                                       BoundSubqueryInfo& info, LogicalOperatorPtr subplans[2],
                                       std::vector<JoinCondition> keys[2],
                                       std::vector<BoundExprPtr> residuals[2]) {
  BoundExprPtr marks[2];
  for (int i = 0; i < 2; i++) {
    auto join = std::make_unique<LogicalJoin>();
    join->join_kind = JoinKind::kMark;
    join->mark_index = binder.NewTableIndex();
    join->conditions = std::move(keys[i]);
    const auto& right = *subplans[i];
    std::vector<BoundExprPtr> args;
    args.push_back(info.left->Copy());
    args.push_back(CastTo(Ref(right.GetTypes()[0], right.GetColumnBindings()[0], "subquery"),
                          info.left->type));
    BoundExprPtr comparison = BindFunctionCall(info.op, std::move(args));
    if (i == 1) comparison = std::make_unique<BoundIsNull>(std::move(comparison), false);
    residuals[i].push_back(std::move(comparison));
    join->residual = MakeConjunction(std::move(residuals[i]));
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(subplans[i]));
    marks[i] = MarkIsTrue(Ref(LogicalType::Boolean(), ColumnBinding{join->mark_index, 0}, "mark"));
    plan = std::move(join);
  }
  auto value = std::make_unique<BoundCase>(LogicalType::Boolean());
  value->when_then.emplace_back(std::move(marks[0]),
                                std::make_unique<BoundConstant>(Value::Boolean(true)));
  value->when_then.emplace_back(
      std::move(marks[1]), std::make_unique<BoundConstant>(Value::Null(LogicalType::Boolean())));
  value->else_expr = std::make_unique<BoundConstant>(Value::Boolean(false));
  info.result = std::move(value);
  return plan;
}

}  // namespace

// x op ANY (correlated S) is TRUE when x op s is TRUE for some s of x's group, else NULL when
// it is NULL for some s, else FALSE. A hash mark join knows only NULLs of the whole build
// side, so two mark joins ask the two questions per group:
//   found   = EXISTS (s in the group: x op s)
//   unknown = EXISTS (s in the group: (x op s) IS NULL)
//   value   = CASE WHEN found THEN TRUE WHEN unknown THEN NULL ELSE FALSE END
// The second join needs its own copy of the subquery: it is bound a second time.
LogicalOperatorPtr Binder::PlanCorrelatedAny(
    LogicalOperatorPtr plan, BoundSubqueryInfo& info,
    const std::function<BoundExprPtr(BoundExprPtr)>& to_outer) {
  LogicalOperatorPtr subplans[2];
  std::map<uint32_t, uint32_t> remap;
  LogicalOperatorPtr as_bound = CopyPlan(*info.plan, *this, remap);
  subplans[0] = std::move(info.plan);
  subplans[1] = BindQueryNode(*info.ast->query, info.scope).plan;
  Decorrelated decorrelated[2];
  try {
    for (int i = 0; i < 2; i++)
      decorrelated[i] = Decorrelate(*this, subplans[i], *plan, true, to_outer);
  } catch (const NotSupportedError&) {
    info.plan = std::move(as_bound);
    return PlanFlattenedSubquery(std::move(plan), info, to_outer);
  }
  std::vector<JoinCondition> keys[2];
  std::vector<BoundExprPtr> residuals[2];
  for (int i = 0; i < 2; i++) {
    LogicalJoin keyed;
    AddCorrelationKeys(keyed, decorrelated[i].correlations);
    keys[i] = std::move(keyed.conditions);
    residuals[i] = std::move(decorrelated[i].residuals);
  }
  return JoinFoundAndUnknown(*this, std::move(plan), info, subplans, keys, residuals);
}

// The general path (dependent_join.h), for correlation the paths above cannot pull out:
// the subquery decorrelated into a plan with the domain columns, joined on them.
//   scalar     plan LEFT JOIN [domain, any_value(v), count(*) GROUP BY domain] -> check
//              (a subquery that is one aggregate without GROUP BY already has one row per
//              domain value)
//   EXISTS     MARK join on the domain columns
//   op ANY     two MARK joins on the domain columns, as PlanCorrelatedAny
LogicalOperatorPtr Binder::PlanFlattenedSubquery(
    LogicalOperatorPtr plan, BoundSubqueryInfo& info,
    const std::function<BoundExprPtr(BoundExprPtr)>& to_outer) {
  const bool scalar = info.kind == ast::SubqueryKind::kScalar;
  const bool exists = info.kind == ast::SubqueryKind::kExists;
  const bool ungrouped =
      info.plan->type == LogicalOperatorType::kProjection &&
      info.plan->children[0]->type == LogicalOperatorType::kAggregate &&
      static_cast<LogicalAggregate&>(*info.plan->children[0]).groups.empty() &&
      static_cast<LogicalAggregate&>(*info.plan->children[0]).empty_input_groups.empty();
  // Its value for outer rows no inner row matched, when known without the domain join
  // (count(*) 0, sum NULL, ...; not when the select item uses outer columns).
  LogicalAggregate* aggregate =
      ungrouped ? &static_cast<LogicalAggregate&>(*info.plan->children[0]) : nullptr;
  BoundExprPtr missing_value;
  if (scalar && aggregate) {
    missing_value =
        ValueOverNoRows(*static_cast<LogicalProjection&>(*info.plan).expressions[0], *aggregate);
  }
  FlattenedSubquery flat =
      FlattenDependentJoin(*this, *plan, std::move(info.plan), to_outer,
                           missing_value ? aggregate : nullptr, domain_source_);
  info.plan = std::move(flat.plan);
  // Correlated only with queries further out: uncorrelated here (the outer columns stay in
  // the plan, which the enclosing query decorrelates in turn).
  if (flat.keys.empty()) return PlanSubquery(std::move(plan), info, to_outer, true);

  if (scalar) {
    LogicalOperatorPtr right = std::move(info.plan);
    BoundExprPtr value;
    auto join = std::make_unique<LogicalJoin>();
    join->join_kind = JoinKind::kLeft;
    if (ungrouped) {
      value = Ref(right->GetTypes()[0], right->GetColumnBindings()[0], "subquery");
      join->conditions = std::move(flat.keys);
      if (missing_value && !(missing_value->kind == BoundExprKind::kConstant &&
                             static_cast<BoundConstant&>(*missing_value).value.is_null())) {
        // count(*), NULL only where no row of the domain value matched (it has no group).
        auto& projection = static_cast<LogicalProjection&>(*right);
        auto index = static_cast<uint32_t>(aggregate->aggregates.size());
        for (uint32_t i = 0; i < aggregate->aggregates.size(); i++) {
          if (static_cast<BoundAggregate&>(*aggregate->aggregates[i]).aggregate ==
              AggregateKind::kCountStar) {
            index = i;
          }
        }
        if (index == aggregate->aggregates.size()) {
          aggregate->aggregates.push_back(std::make_unique<BoundAggregate>(
              AggregateKind::kCountStar, LogicalType::Bigint(), nullptr, false));
        }
        const ColumnBinding matched{projection.table_index,
                                    static_cast<uint32_t>(projection.expressions.size())};
        projection.expressions.push_back(
            Ref(LogicalType::Bigint(), {aggregate->aggregate_index, index}, "matched"));
        auto when = std::make_unique<BoundCase>(value->type);
        when->when_then.emplace_back(
            std::make_unique<BoundIsNull>(Ref(LogicalType::Bigint(), matched, "matched"), false),
            CastTo(std::move(missing_value), value->type));
        when->else_expr = std::move(value);
        value = std::move(when);
      }
    } else {
      std::vector<Correlation> correlations;
      for (auto& k : flat.keys)
        correlations.push_back({std::move(k.right), std::move(k.left)});
      auto aggregate = SingleValueAggregate(*this, std::move(right), correlations);
      value = SingleValueCheck(
          Ref(LogicalType::Bigint(), ColumnBinding{aggregate->aggregate_index, 1}, "count"),
          Ref(aggregate->aggregates[0]->type, ColumnBinding{aggregate->aggregate_index, 0},
              "subquery"));
      for (auto& c : correlations) {
        JoinCondition condition;
        condition.left = std::move(c.outer);
        condition.right = std::move(c.inner);
        condition.null_equal = true;
        join->conditions.push_back(std::move(condition));
      }
      right = std::move(aggregate);
    }
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(right));
    info.result = std::move(value);
    return join;
  }

  if (exists) {
    auto join = std::make_unique<LogicalJoin>();
    join->join_kind = JoinKind::kMark;
    join->mark_index = NewTableIndex();
    join->conditions = std::move(flat.keys);
    join->children.push_back(std::move(plan));
    join->children.push_back(std::move(info.plan));
    info.result =
        MarkIsTrue(Ref(LogicalType::Boolean(), ColumnBinding{join->mark_index, 0}, "mark"));
    return join;
  }

  // x op ANY: found and unknown per domain value, as in PlanCorrelatedAny.
  LogicalOperatorPtr subplans[2];
  std::vector<JoinCondition> keys[2];
  subplans[0] = std::move(info.plan);
  keys[0] = std::move(flat.keys);
  {
    LogicalOperatorPtr rebound = BindQueryNode(*info.ast->query, info.scope).plan;
    FlattenedSubquery second =
        FlattenDependentJoin(*this, *plan, std::move(rebound), to_outer, nullptr, domain_source_);
    subplans[1] = std::move(second.plan);
    keys[1] = std::move(second.keys);
  }
  std::vector<BoundExprPtr> residuals[2];
  return JoinFoundAndUnknown(*this, std::move(plan), info, subplans, keys, residuals);
}

}  // namespace shears
