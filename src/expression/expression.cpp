#include "expression/expression.h"

#include <functional>

#include "common/error.h"

namespace shears {

namespace {
std::string JoinExprs(const std::vector<BoundExprPtr>& exprs, const char* sep) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); i++) {
    if (i) out += sep;
    out += exprs[i]->ToString();
  }
  return out;
}

std::vector<BoundExprPtr> CopyAll(const std::vector<BoundExprPtr>& exprs) {
  std::vector<BoundExprPtr> out;
  out.reserve(exprs.size());
  for (const auto& e : exprs)
    out.push_back(e->Copy());
  return out;
}

template <typename T>
BoundExprPtr WithAlias(std::unique_ptr<T> copy, const BoundExpr& original) {
  copy->alias = original.alias;
  return copy;
}

bool IsInfixOperator(const std::string& name) {
  static const char* kOps[] = {"+",
                               "-",
                               "*",
                               "/",
                               "%",
                               "//",
                               "^",
                               "&",
                               "|",
                               "#",
                               "<<",
                               ">>",
                               "~",
                               "!~",
                               "~*",
                               "!~*",
                               "||",
                               "=",
                               "<>",
                               "<",
                               "<=",
                               ">",
                               ">=",
                               "IS DISTINCT FROM",
                               "IS NOT DISTINCT FROM"};
  for (const char* op : kOps) {
    if (name == op) return true;
  }
  return false;
}
}  // namespace

BoundExprPtr BoundColumnRef::Copy() const {
  auto copy = std::make_unique<BoundColumnRef>(type, binding, name);
  copy->qualifier = qualifier;
  return WithAlias(std::move(copy), *this);
}

std::string QualifiedString(const BoundExpr& expr) {
  auto copy = expr.Copy();
  VisitExpression(*copy, [](BoundExpr& e) {
    if (e.kind != BoundExprKind::kColumnRef) return;
    auto& ref = static_cast<BoundColumnRef&>(e);
    if (!ref.qualifier.empty()) ref.name = ref.qualifier + "." + ref.name;
  });
  return copy->ToString();
}

BoundExprPtr BoundReference::Copy() const {
  return WithAlias(std::make_unique<BoundReference>(type, index, name), *this);
}

std::string BoundRuntimeFilter::ToString() const {
  std::string key;
  if (key_expr) {
    key = key_expr->ToString();
  } else {
    for (size_t i = 0; i < columns.size(); i++)
      key += (i ? ", " : "") + columns[i]->ToString();
    if (columns.size() > 1) key = "(" + key + ")";
  }
  return key + " IN runtime_filter #" + std::to_string(filter_id);
}

BoundExprPtr BoundRuntimeFilter::Copy() const {
  return WithAlias(
      std::make_unique<BoundRuntimeFilter>(filter_id, CopyAll(columns), key_expr, monotone, slot),
      *this);
}

std::vector<BoundExprPtr*> BoundRuntimeFilter::Children() {
  std::vector<BoundExprPtr*> out;
  for (auto& column : columns)
    out.push_back(&column);
  return out;
}

std::string BoundConstant::ToString() const {
  if (value.is_null()) return "NULL";
  if (value.type().IsNested()) return value.ToString();
  if (value.type().IsString()) return "'" + value.ToString() + "'";
  if (value.type().id() == TypeId::kDate) return "DATE '" + value.ToString() + "'";
  if (value.type().id() == TypeId::kTimestamp) return "TIMESTAMP '" + value.ToString() + "'";
  if (value.type().id() == TypeId::kTime) return "TIME '" + value.ToString() + "'";
  return value.ToString();
}

BoundExprPtr BoundConstant::Copy() const {
  return WithAlias(std::make_unique<BoundConstant>(value), *this);
}

std::string BoundFunction::ToString() const {
  if (IsInfixOperator(function.name) && args.size() == 2) {
    return "(" + args[0]->ToString() + " " + function.name + " " + args[1]->ToString() + ")";
  }
  if (function.name == "-" && args.size() == 1) return "(-" + args[0]->ToString() + ")";
  if (!function.lambda.empty() && !args.empty()) {
    // The captured columns after the list name what the body reads of its row.
    std::string out = function.name + "(" + args[0]->ToString() + ", " + function.lambda;
    for (size_t i = 1; i < args.size(); i++)
      out += ", " + args[i]->ToString();
    return out + ")";
  }
  return function.name + "(" + JoinExprs(args, ", ") + ")";
}

BoundExprPtr BoundFunction::Copy() const {
  return WithAlias(std::make_unique<BoundFunction>(function, CopyAll(args)), *this);
}

std::vector<BoundExprPtr*> BoundFunction::Children() {
  std::vector<BoundExprPtr*> out;
  for (auto& a : args)
    out.push_back(&a);
  return out;
}

std::string BoundCast::ToString() const {
  return std::string(try_cast ? "TRY_CAST(" : "CAST(") + child->ToString() + " AS " +
         type.ToString() + ")";
}

BoundExprPtr BoundCast::Copy() const {
  return WithAlias(std::make_unique<BoundCast>(child->Copy(), type, try_cast), *this);
}

std::string BoundConjunction::ToString() const {
  return "(" + JoinExprs(children, is_and ? " AND " : " OR ") + ")";
}

BoundExprPtr BoundConjunction::Copy() const {
  return WithAlias(std::make_unique<BoundConjunction>(is_and, CopyAll(children)), *this);
}

std::vector<BoundExprPtr*> BoundConjunction::Children() {
  std::vector<BoundExprPtr*> out;
  for (auto& c : children)
    out.push_back(&c);
  return out;
}

BoundExprPtr BoundNot::Copy() const {
  return WithAlias(std::make_unique<BoundNot>(child->Copy()), *this);
}

BoundExprPtr BoundIsNull::Copy() const {
  return WithAlias(std::make_unique<BoundIsNull>(child->Copy(), negated), *this);
}

std::string BoundCase::ToString() const {
  std::string out = "CASE";
  for (const auto& [when, then] : when_then) {
    out += " WHEN " + when->ToString() + " THEN " + then->ToString();
  }
  out += " ELSE " + else_expr->ToString() + " END";
  return out;
}

BoundExprPtr BoundCase::Copy() const {
  auto copy = std::make_unique<BoundCase>(type);
  for (const auto& [when, then] : when_then)
    copy->when_then.emplace_back(when->Copy(), then->Copy());
  copy->else_expr = else_expr->Copy();
  return WithAlias(std::move(copy), *this);
}

std::vector<BoundExprPtr*> BoundCase::Children() {
  std::vector<BoundExprPtr*> out;
  for (auto& [when, then] : when_then) {
    out.push_back(&when);
    out.push_back(&then);
  }
  out.push_back(&else_expr);
  return out;
}

std::string BoundInList::ToString() const {
  return "(" + value->ToString() + " IN (" + JoinExprs(list, ", ") + "))";
}

BoundExprPtr BoundInList::Copy() const {
  return WithAlias(std::make_unique<BoundInList>(value->Copy(), CopyAll(list)), *this);
}

std::vector<BoundExprPtr*> BoundInList::Children() {
  std::vector<BoundExprPtr*> out{&value};
  for (auto& e : list)
    out.push_back(&e);
  return out;
}

static const char* AggregateName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::kCountStar:
    case AggregateKind::kCount:
      return "count";
    case AggregateKind::kSum:
      return "sum";
    case AggregateKind::kAvg:
      return "avg";
    case AggregateKind::kAvgOfPartials:
      return "avg_of_partials";
    case AggregateKind::kMin:
      return "min";
    case AggregateKind::kMax:
      return "max";
    case AggregateKind::kStddevSamp:
      return "stddev_samp";
    case AggregateKind::kAny:
      return "any_value";
    case AggregateKind::kFirst:
      return "first";
    case AggregateKind::kLast:
      return "last";
    case AggregateKind::kStddevPop:
      return "stddev_pop";
    case AggregateKind::kVarSamp:
      return "var_samp";
    case AggregateKind::kVarPop:
      return "var_pop";
    case AggregateKind::kCovarPop:
      return "covar_pop";
    case AggregateKind::kCovarSamp:
      return "covar_samp";
    case AggregateKind::kCorr:
      return "corr";
    case AggregateKind::kBoolAnd:
      return "bool_and";
    case AggregateKind::kBoolOr:
      return "bool_or";
    case AggregateKind::kArgMin:
      return "arg_min";
    case AggregateKind::kArgMax:
      return "arg_max";
    case AggregateKind::kApproxCountDistinct:
      return "approx_count_distinct";
    case AggregateKind::kQuantileCont:
      return "quantile_cont";
    case AggregateKind::kQuantileDisc:
      return "quantile_disc";
    case AggregateKind::kMode:
      return "mode";
    case AggregateKind::kStringAgg:
      return "string_agg";
    case AggregateKind::kBitAnd:
      return "bit_and";
    case AggregateKind::kBitOr:
      return "bit_or";
    case AggregateKind::kBitXor:
      return "bit_xor";
    case AggregateKind::kProduct:
      return "product";
    case AggregateKind::kRegrCount:
      return "regr_count";
    case AggregateKind::kRegrAvgX:
      return "regr_avgx";
    case AggregateKind::kRegrAvgY:
      return "regr_avgy";
    case AggregateKind::kRegrSxx:
      return "regr_sxx";
    case AggregateKind::kRegrSyy:
      return "regr_syy";
    case AggregateKind::kRegrSxy:
      return "regr_sxy";
    case AggregateKind::kRegrSlope:
      return "regr_slope";
    case AggregateKind::kRegrIntercept:
      return "regr_intercept";
    case AggregateKind::kRegrR2:
      return "regr_r2";
  }
  return "?";
}

std::string AggregateParams::ToString(AggregateKind kind,
                                      const std::vector<std::string>& orders) const {
  std::string out;
  if (kind == AggregateKind::kQuantileCont || kind == AggregateKind::kQuantileDisc) {
    out += ", " + Value::Double(fraction).ToString() + (descending ? " DESC" : "");
  }
  if (kind == AggregateKind::kStringAgg) out += ", '" + separator + "'";
  for (size_t i = 0; i < order.size() && i < orders.size(); i++) {
    out += (i == 0 ? " ORDER BY " : ", ") + orders[i] + (order[i].descending ? " DESC" : "") +
           (order[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

std::string BoundAggregate::ToString() const {
  if (aggregate == AggregateKind::kCountStar) return "count_star()";
  std::string out =
      std::string(AggregateName(aggregate)) + "(" + (distinct ? "DISTINCT " : "") + arg->ToString();
  const size_t plain = extra_args.size() - params.order.size();
  std::vector<std::string> orders;
  for (size_t i = 0; i < extra_args.size(); i++) {
    if (i < plain) {
      out += ", " + extra_args[i]->ToString();
    } else {
      orders.push_back(extra_args[i]->ToString());
    }
  }
  return out + params.ToString(aggregate, orders) + ")";
}

BoundExprPtr BoundAggregate::Copy() const {
  auto copy =
      std::make_unique<BoundAggregate>(aggregate, type, arg ? arg->Copy() : nullptr, distinct);
  copy->extra_args = CopyAll(extra_args);
  copy->params = params;
  return WithAlias(std::move(copy), *this);
}

std::vector<BoundExprPtr*> BoundAggregate::Children() {
  if (!arg) return {};
  std::vector<BoundExprPtr*> out{&arg};
  for (auto& e : extra_args)
    out.push_back(&e);
  return out;
}

namespace {
const char* BoundText(WindowBoundKind kind) {
  switch (kind) {
    case WindowBoundKind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case WindowBoundKind::kOffsetPreceding:
      return "PRECEDING";
    case WindowBoundKind::kCurrentRow:
      return "CURRENT ROW";
    case WindowBoundKind::kOffsetFollowing:
      return "FOLLOWING";
    case WindowBoundKind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "?";
}
}  // namespace

std::string BoundWindow::SpecToString() const {
  std::string out;
  if (!partitions.empty()) out += "PARTITION BY " + JoinExprs(partitions, ", ");
  for (size_t i = 0; i < orders.size(); i++) {
    out += (i             ? ", "
            : out.empty() ? "ORDER BY "
                          : " ORDER BY ") +
           orders[i].expr->ToString() + (orders[i].descending ? " DESC" : " ASC") +
           (orders[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  return out;
}

std::string BoundWindow::ToString() const {
  std::string out = name + (distinct ? "(DISTINCT " : "(");
  if (function == WindowFunction::kAggregate && !params.order.empty()) {
    // An ordered aggregate: its last inputs are the ORDER BY keys.
    const size_t plain = args.size() - params.order.size();
    std::vector<std::string> orders;
    for (size_t i = 0; i < args.size(); i++) {
      if (i < plain) {
        out += (i == 0 ? "" : ", ") + args[i]->ToString();
      } else {
        orders.push_back(args[i]->ToString());
      }
    }
    out += params.ToString(aggregate, orders);
  } else {
    out += JoinExprs(args, ", ");
    if (function == WindowFunction::kAggregate) out += params.ToString(aggregate, {});
  }
  if (ignore_nulls) out += " IGNORE NULLS";
  out += ") OVER (" + SpecToString();
  // Ranking functions, lag and lead ignore the frame.
  if (function != WindowFunction::kAggregate && function != WindowFunction::kFirstValue &&
      function != WindowFunction::kLastValue && function != WindowFunction::kNthValue) {
    return out + ")";
  }
  const char* units[] = {"ROWS", "RANGE", "GROUPS"};
  auto bound = [&](WindowBoundKind kind, int64_t offset, const BoundExprPtr& value) {
    std::string text = BoundText(kind);
    if (kind == WindowBoundKind::kOffsetPreceding || kind == WindowBoundKind::kOffsetFollowing) {
      text = (value ? value->ToString() : std::to_string(offset)) + " " + text;
    }
    return text;
  };
  out += std::string(out.back() == '(' ? "" : " ") + units[static_cast<int>(unit)] + " BETWEEN " +
         bound(start, start_offset, range_start) + " AND " + bound(end, end_offset, range_end);
  const char* excludes[] = {"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES"};
  return out + excludes[static_cast<int>(exclude)] + ")";
}

BoundExprPtr BoundWindow::Copy() const {
  auto copy = std::make_unique<BoundWindow>(function, type);
  copy->name = name;
  copy->aggregate = aggregate;
  copy->params = params;
  copy->args = CopyAll(args);
  copy->partitions = CopyAll(partitions);
  for (const auto& o : orders)
    copy->orders.push_back(o.Copy());
  copy->unit = unit;
  copy->start = start;
  copy->end = end;
  copy->start_offset = start_offset;
  copy->end_offset = end_offset;
  if (range_key) copy->range_key = range_key->Copy();
  if (range_start) copy->range_start = range_start->Copy();
  if (range_end) copy->range_end = range_end->Copy();
  copy->exclude = exclude;
  copy->ignore_nulls = ignore_nulls;
  copy->distinct = distinct;
  return WithAlias(std::move(copy), *this);
}

std::vector<BoundExprPtr*> BoundWindow::Children() {
  std::vector<BoundExprPtr*> out;
  for (auto& a : args)
    out.push_back(&a);
  for (auto& p : partitions)
    out.push_back(&p);
  for (auto& o : orders)
    out.push_back(&o.expr);
  for (BoundExprPtr* e : {&range_key, &range_start, &range_end}) {
    if (*e) out.push_back(e);
  }
  return out;
}

void VisitExpression(BoundExpr& expr, const std::function<void(BoundExpr&)>& visit) {
  visit(expr);
  for (BoundExprPtr* child : expr.Children())
    VisitExpression(**child, visit);
}

bool CallsVolatile(BoundExpr& expr) {
  bool found = false;
  VisitExpression(expr, [&](BoundExpr& e) {
    found = found || (e.kind == BoundExprKind::kFunction &&
                      !static_cast<BoundFunction&>(e).function.deterministic);
  });
  return found;
}

std::string BindingKey(const BoundExpr& expr) {
  BoundExprPtr copy = expr.Copy();
  VisitExpression(*copy, [](BoundExpr& e) {
    if (e.kind != BoundExprKind::kColumnRef) return;
    auto& ref = static_cast<BoundColumnRef&>(e);
    ref.name += "#" + std::to_string(ref.binding.table_index) + "." +
                std::to_string(ref.binding.column_index);
  });
  return copy->ToString();
}

std::vector<ColumnBinding> ReferencedBindings(const BoundExpr& expr) {
  std::vector<ColumnBinding> out;
  VisitExpression(const_cast<BoundExpr&>(expr), [&](BoundExpr& e) {
    if (e.kind == BoundExprKind::kColumnRef) out.push_back(static_cast<BoundColumnRef&>(e).binding);
  });
  return out;
}

bool ExpressionsEqual(const BoundExpr& a, const BoundExpr& b) {
  if (a.kind != b.kind || !(a.type == b.type)) return false;
  switch (a.kind) {
    case BoundExprKind::kColumnRef:
      return static_cast<const BoundColumnRef&>(a).binding ==
             static_cast<const BoundColumnRef&>(b).binding;
    case BoundExprKind::kReference:
      return static_cast<const BoundReference&>(a).index ==
             static_cast<const BoundReference&>(b).index;
    case BoundExprKind::kConstant: {
      const Value& x = static_cast<const BoundConstant&>(a).value;
      const Value& y = static_cast<const BoundConstant&>(b).value;
      return x.is_null() == y.is_null() && x == y;
    }
    case BoundExprKind::kFunction: {
      const auto& f = static_cast<const BoundFunction&>(a);
      const auto& g = static_cast<const BoundFunction&>(b);
      if (f.function.name != g.function.name || !f.function.deterministic) return false;
      break;
    }
    case BoundExprKind::kCast:
      if (static_cast<const BoundCast&>(a).try_cast != static_cast<const BoundCast&>(b).try_cast)
        return false;
      break;
    case BoundExprKind::kConjunction:
      if (static_cast<const BoundConjunction&>(a).is_and !=
          static_cast<const BoundConjunction&>(b).is_and)
        return false;
      break;
    case BoundExprKind::kIsNull:
      if (static_cast<const BoundIsNull&>(a).negated != static_cast<const BoundIsNull&>(b).negated)
        return false;
      break;
    case BoundExprKind::kAggregate: {
      const auto& x = static_cast<const BoundAggregate&>(a);
      const auto& y = static_cast<const BoundAggregate&>(b);
      if (x.aggregate != y.aggregate || x.distinct != y.distinct) return false;
      break;
    }
    case BoundExprKind::kSubquery:
      return static_cast<const BoundSubquery&>(a).info == static_cast<const BoundSubquery&>(b).info;
    case BoundExprKind::kRuntimeFilter:
      if (static_cast<const BoundRuntimeFilter&>(a).filter_id !=
          static_cast<const BoundRuntimeFilter&>(b).filter_id)
        return false;
      break;
    default:
      break;
  }
  auto x = const_cast<BoundExpr&>(a).Children();
  auto y = const_cast<BoundExpr&>(b).Children();
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); i++) {
    if (!ExpressionsEqual(**x[i], **y[i])) return false;
  }
  return true;
}

void FlattenConnective(BoundExprPtr expr, bool is_and, std::vector<BoundExprPtr>& out) {
  if (expr->kind == BoundExprKind::kConjunction &&
      static_cast<BoundConjunction&>(*expr).is_and == is_and) {
    for (auto& child : static_cast<BoundConjunction&>(*expr).children)
      FlattenConnective(std::move(child), is_and, out);
    return;
  }
  out.push_back(std::move(expr));
}

BoundExprPtr CombineConnective(bool is_and, std::vector<BoundExprPtr> parts) {
  if (parts.size() == 1) return std::move(parts[0]);
  return std::make_unique<BoundConjunction>(is_and, std::move(parts));
}

// Rewrites ORs inside `expr` (bottom-up) with their common conjuncts factored out.
BoundExprPtr FactorOrBranches(BoundExprPtr expr) {
  if (expr->kind != BoundExprKind::kConjunction) return expr;
  auto& conjunction = static_cast<BoundConjunction&>(*expr);
  for (auto& child : conjunction.children)
    child = FactorOrBranches(std::move(child));
  if (conjunction.is_and) return expr;
  std::vector<BoundExprPtr> disjuncts;
  FlattenConnective(std::move(expr), false, disjuncts);
  std::vector<std::vector<BoundExprPtr>> branches(disjuncts.size());
  for (size_t i = 0; i < disjuncts.size(); i++)
    FlattenConnective(std::move(disjuncts[i]), true, branches[i]);
  std::vector<BoundExprPtr> common;
  for (size_t c = 0; c < branches[0].size();) {
    // Where the candidate occurs in each other branch.
    std::vector<size_t> at(branches.size(), 0);
    bool everywhere = true;
    for (size_t b = 1; b < branches.size() && everywhere; b++) {
      everywhere = false;
      for (size_t i = 0; i < branches[b].size(); i++) {
        if (ExpressionsEqual(*branches[0][c], *branches[b][i])) {
          at[b] = i;
          everywhere = true;
          break;
        }
      }
    }
    if (!everywhere) {
      c++;
      continue;
    }
    common.push_back(std::move(branches[0][c]));
    branches[0].erase(branches[0].begin() + static_cast<long>(c));
    for (size_t b = 1; b < branches.size(); b++)
      branches[b].erase(branches[b].begin() + static_cast<long>(at[b]));
  }
  bool some_branch_true = false;
  std::vector<BoundExprPtr> rest;
  for (auto& branch : branches) {
    if (branch.empty()) {
      some_branch_true = true;  // that branch was all common: the OR of the rest adds nothing
    } else {
      rest.push_back(CombineConnective(true, std::move(branch)));
    }
  }
  if (!some_branch_true) common.push_back(CombineConnective(false, std::move(rest)));
  return CombineConnective(true, std::move(common));
}

void SplitConjunction(BoundExprPtr expr, std::vector<BoundExprPtr>& out) {
  if (expr->kind == BoundExprKind::kConjunction && static_cast<BoundConjunction&>(*expr).is_and) {
    for (auto& child : static_cast<BoundConjunction&>(*expr).children) {
      SplitConjunction(std::move(child), out);
    }
    return;
  }
  out.push_back(std::move(expr));
}

BoundExprPtr MakeConjunction(std::vector<BoundExprPtr> conjuncts) {
  if (conjuncts.empty()) return std::make_unique<BoundConstant>(Value::Boolean(true));
  if (conjuncts.size() == 1) return std::move(conjuncts[0]);
  return std::make_unique<BoundConjunction>(true, std::move(conjuncts));
}

BoundExprPtr ResolveBindings(const BoundExpr& expr, const std::vector<ColumnBinding>& inputs) {
  BoundExprPtr copy = expr.Copy();
  std::function<void(BoundExprPtr&)> resolve = [&](BoundExprPtr& e) {
    if (e->kind == BoundExprKind::kColumnRef) {
      auto& ref = static_cast<BoundColumnRef&>(*e);
      for (size_t i = 0; i < inputs.size(); i++) {
        if (inputs[i] == ref.binding) {
          auto resolved = std::make_unique<BoundReference>(ref.type, i, ref.name);
          resolved->alias = ref.alias;
          e = std::move(resolved);
          return;
        }
      }
      throw InternalError("column {} (binding {}.{}) is not an input of its operator", ref.name,
                          ref.binding.table_index, ref.binding.column_index);
    }
    for (BoundExprPtr* child : e->Children())
      resolve(*child);
  };
  resolve(copy);
  return copy;
}

}  // namespace shears
