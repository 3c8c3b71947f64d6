// The dependent-join rewrite (see dependent_join.h). Push(op) rewrites `op` into a plan that
// computes op's rows for every domain value d, with op's correlated columns replaced by d,
// and returns where d appears in its output. An operator whose subtree uses no correlated
// column needs no rewrite: it is crossed with the domain.
//
//   FILTER / ORDER BY     the child pushed, its conditions over the domain columns
//   PROJECTION            also outputs the domain columns
//   AGGREGATE             grouped by the domain columns too; without GROUP BY it has a row
//                         for each domain value: domain LEFT JOIN aggregate, count(*) 0
//   LIMIT / OFFSET        row_number() OVER (PARTITION BY domain ORDER BY ...) in range
//   WINDOW                partitioned by the domain columns too
//   JOIN                  into the correlated side; both sides (matched on the domain) when
//                         the side that must keep every row is not the correlated one
//   UNION / INTERSECT /   every input pushed, the domain columns one more set column each
//   EXCEPT
//
// The domain is DISTINCT over a copy of the outer plan, computed once for each place it
// joins in.

#include "planner/dependent_join.h"

#include <map>

#include "common/error.h"
#include "planner/bind_context.h"
#include "planner/plan_copy.h"

namespace shears {

std::set<uint32_t> ProducedTables(const LogicalOperator& op) {
  std::set<uint32_t> out;
  std::function<void(const LogicalOperator&)> visit = [&](const LogicalOperator& node) {
    for (const auto& b : node.GetColumnBindings())
      out.insert(b.table_index);
    for (const auto& child : node.children)
      visit(*child);
  };
  visit(op);
  return out;
}

bool ReferencesOutside(const BoundExpr& expr, const std::set<uint32_t>& tables) {
  for (const auto& b : ReferencedBindings(expr)) {
    if (!tables.count(b.table_index)) return true;
  }
  return false;
}

bool SubtreeReferencesOutside(LogicalOperator& op, const std::set<uint32_t>& tables) {
  for (BoundExprPtr* e : op.Expressions()) {
    if (ReferencesOutside(**e, tables)) return true;
  }
  for (auto& child : op.children) {
    if (SubtreeReferencesOutside(*child, tables)) return true;
  }
  return false;
}

namespace {

using Bindings = std::vector<ColumnBinding>;

BoundExprPtr Ref(const LogicalType& type, ColumnBinding binding, std::string name) {
  return std::make_unique<BoundColumnRef>(type, binding, std::move(name));
}

BoundExprPtr Call(const std::string& name, BoundExprPtr a, BoundExprPtr b) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return BindFunctionCall(name, std::move(args));
}

NotSupportedError Unsupported(const std::string& what) {
  return NotSupportedError("correlated subquery: {} is not supported yet", what);
}

class Flattener {
 public:
  Flattener(Binder& binder, const LogicalOperator& outer, Bindings correlated,
            std::vector<BoundExprPtr> outer_exprs, const LogicalAggregate* only_matched)
      : binder_(binder),
        outer_(outer),
        correlated_(std::move(correlated)),
        outer_exprs_(std::move(outer_exprs)),
        only_matched_(only_matched) {}

  /// Push, or the cross product with the domain when `op` uses no correlated column.
  Bindings PushOrCross(LogicalOperatorPtr& op) {
    if (HasCorrelation(*op)) return Push(op);
    Bindings domain_columns;
    auto join = std::make_unique<LogicalJoin>();
    join->join_kind = JoinKind::kCross;
    join->children.push_back(std::move(op));
    join->children.push_back(Domain(domain_columns));
    op = std::move(join);
    return domain_columns;
  }

 private:
  /// DISTINCT correlated values over a new copy of the outer plan.
  LogicalOperatorPtr Domain(Bindings& columns) {
    std::map<uint32_t, uint32_t> remap;
    auto aggregate = std::make_unique<LogicalAggregate>();
    aggregate->children.push_back(CopyPlan(outer_, binder_, remap));
    aggregate->group_index = binder_.NewTableIndex();
    aggregate->aggregate_index = binder_.NewTableIndex();
    for (const auto& e : outer_exprs_) {
      BoundExprPtr group = e->Copy();
      RemapBindings(*group, remap);
      columns.push_back({aggregate->group_index, static_cast<uint32_t>(aggregate->groups.size())});
      aggregate->groups.push_back(std::move(group));
    }
    return aggregate;
  }

  bool IsCorrelated(const BoundExpr& expr) const {
    for (const auto& b : ReferencedBindings(expr)) {
      for (const auto& c : correlated_) {
        if (b == c) return true;
      }
    }
    return false;
  }

  bool HasCorrelation(LogicalOperator& op) const {
    for (BoundExprPtr* e : op.Expressions()) {
      if (IsCorrelated(**e)) return true;
    }
    for (auto& child : op.children) {
      if (HasCorrelation(*child)) return true;
    }
    return false;
  }

  /// The correlated columns of `expr` replaced by the domain columns `domain`.
  void Rebind(BoundExpr& expr, const Bindings& domain) const {
    VisitExpression(expr, [&](BoundExpr& e) {
      if (e.kind != BoundExprKind::kColumnRef) return;
      auto& ref = static_cast<BoundColumnRef&>(e);
      for (size_t i = 0; i < correlated_.size(); i++) {
        if (ref.binding == correlated_[i]) {
          ref.binding = domain[i];
          return;
        }
      }
    });
  }

  void RebindOperator(LogicalOperator& op, const Bindings& domain) const {
    for (BoundExprPtr* e : op.Expressions())
      Rebind(**e, domain);
  }

  BoundExprPtr DomainRef(size_t i, ColumnBinding binding) const {
    return Ref(outer_exprs_[i]->type, binding, "domain");
  }

  Bindings Push(LogicalOperatorPtr& op) {
    switch (op->type) {
      case LogicalOperatorType::kFilter:
      case LogicalOperatorType::kOrderBy: {
        Bindings domain = PushOrCross(op->children[0]);
        RebindOperator(*op, domain);
        return domain;
      }
      case LogicalOperatorType::kProjection: {
        auto& projection = static_cast<LogicalProjection&>(*op);
        Bindings domain = PushOrCross(projection.children[0]);
        RebindOperator(projection, domain);
        Bindings out;
        for (size_t i = 0; i < domain.size(); i++) {
          out.push_back(
              {projection.table_index, static_cast<uint32_t>(projection.expressions.size())});
          projection.expressions.push_back(DomainRef(i, domain[i]));
        }
        return out;
      }
      case LogicalOperatorType::kAggregate:
        return PushAggregate(op);
      case LogicalOperatorType::kJoin:
        return PushJoin(op);
      case LogicalOperatorType::kLimit:
        return PushLimit(op);
      case LogicalOperatorType::kWindow: {
        auto& window = static_cast<LogicalWindow&>(*op);
        Bindings domain = PushOrCross(window.children[0]);
        RebindOperator(window, domain);
        for (auto& w : window.windows) {
          for (size_t i = 0; i < domain.size(); i++)
            static_cast<BoundWindow&>(*w).partitions.push_back(DomainRef(i, domain[i]));
        }
        return domain;
      }
      case LogicalOperatorType::kUnnest: {
        // The input's columns pass through: so do the domain's.
        Bindings domain = PushOrCross(op->children[0]);
        RebindOperator(*op, domain);
        return domain;
      }
      case LogicalOperatorType::kSetOperation:
        return PushSetOperation(static_cast<LogicalSetOperation&>(*op));
      case LogicalOperatorType::kMaterializedCte:
        // The CTE itself is uncorrelated (bound without outer scopes): only the query is.
        return PushOrCross(op->children[1]);
      default:
        throw Unsupported("an outer column in " + op->Describe());
    }
  }

  Bindings PushAggregate(LogicalOperatorPtr& op) {
    auto& aggregate = static_cast<LogicalAggregate&>(*op);
    if (!aggregate.empty_input_groups.empty()) throw Unsupported("GROUPING SETS");
    Bindings domain = PushOrCross(aggregate.children[0]);
    RebindOperator(aggregate, domain);
    const bool ungrouped = aggregate.groups.empty();
    Bindings out;
    for (size_t i = 0; i < domain.size(); i++) {
      out.push_back({aggregate.group_index, static_cast<uint32_t>(aggregate.groups.size())});
      aggregate.groups.push_back(DomainRef(i, domain[i]));
    }
    if (!ungrouped || &aggregate == only_matched_) return out;
    // Without GROUP BY it has one row even for no input: one for each domain value, the
    // aggregates of no rows (count 0, the others NULL) for those that no row matched. Its
    // aggregate columns keep their bindings, now of a projection over the LEFT JOIN.
    const uint32_t visible_index = aggregate.aggregate_index;
    aggregate.aggregate_index = binder_.NewTableIndex();
    auto projection = std::make_unique<LogicalProjection>();
    projection->table_index = visible_index;
    for (size_t i = 0; i < aggregate.aggregates.size(); i++) {
      const auto& agg = static_cast<const BoundAggregate&>(*aggregate.aggregates[i]);
      BoundExprPtr value =
          Ref(agg.type, {aggregate.aggregate_index, static_cast<uint32_t>(i)}, agg.ToString());
      if (agg.aggregate == AggregateKind::kCount || agg.aggregate == AggregateKind::kCountStar) {
        value =
            Call("coalesce", std::move(value), std::make_unique<BoundConstant>(Value::Bigint(0)));
      }
      projection->expressions.push_back(std::move(value));
    }
    Bindings domain_columns;
    auto join = std::make_unique<LogicalJoin>();
    join->join_kind = JoinKind::kLeft;
    join->children.push_back(Domain(domain_columns));
    for (size_t i = 0; i < domain.size(); i++) {
      join->conditions.push_back(
          {DomainRef(i, domain_columns[i]), DomainRef(i, out[i]), /*null_equal=*/true});
    }
    join->children.push_back(std::move(op));
    Bindings visible;
    for (size_t i = 0; i < domain.size(); i++) {
      visible.push_back({visible_index, static_cast<uint32_t>(projection->expressions.size())});
      projection->expressions.push_back(DomainRef(i, domain_columns[i]));
    }
    projection->children.push_back(std::move(join));
    op = std::move(projection);
    return visible;
  }

  Bindings PushJoin(LogicalOperatorPtr& op) {
    auto& join = static_cast<LogicalJoin&>(*op);
    const bool left = HasCorrelation(*join.children[0]);
    const bool right = HasCorrelation(*join.children[1]);
    // Keys over a correlated column become part of the residual, which sees both sides.
    std::vector<BoundExprPtr> residual;
    if (join.residual) residual.push_back(std::move(join.residual));
    std::vector<JoinCondition> keys;
    for (auto& c : join.conditions) {
      if (IsCorrelated(*c.left) || IsCorrelated(*c.right)) {
        SHEARS_CHECK(!c.null_equal);
        residual.push_back(Call("=", std::move(c.left), std::move(c.right)));
      } else {
        keys.push_back(std::move(c));
      }
    }
    join.conditions = std::move(keys);
    if (!residual.empty()) join.residual = MakeConjunction(std::move(residual));

    // Both sides carry the domain, matched: the domain of the left side is the output's.
    auto push_both = [&](bool output_left) {
      Bindings l = PushOrCross(join.children[0]);
      Bindings r = PushOrCross(join.children[1]);
      for (size_t i = 0; i < l.size(); i++)
        join.conditions.push_back({DomainRef(i, l[i]), DomainRef(i, r[i]), true});
      return output_left ? l : r;
    };
    Bindings domain;
    switch (join.join_kind) {
      case JoinKind::kInner:
      case JoinKind::kCross:
        if (left && right) {
          domain = push_both(true);
        } else if (right) {
          domain = Push(join.children[1]);
        } else {
          domain = PushOrCross(join.children[0]);
        }
        break;
      case JoinKind::kLeft:
      case JoinKind::kSemi:
      case JoinKind::kAnti:
      case JoinKind::kMark:
        domain = right ? push_both(true) : PushOrCross(join.children[0]);
        break;
      case JoinKind::kRight:
        domain = left ? push_both(false) : PushOrCross(join.children[1]);
        break;
      case JoinKind::kFull:
        throw Unsupported("an outer column in a FULL JOIN");
      case JoinKind::kRightSemi:
      case JoinKind::kRightAnti:
        throw InternalError("a RIGHT_SEMI/RIGHT_ANTI join is made by the optimizer, after binding");
    }
    if (join.join_kind == JoinKind::kCross && (!join.conditions.empty() || join.residual))
      join.join_kind = JoinKind::kInner;
    RebindOperator(join, domain);
    if (join.join_kind == JoinKind::kMark && right) {
      // A hash mark join knows NULL keys of its whole build side only, not those of one
      // domain value: every key becomes part of the residual, whose three-valued result per
      // pair the nested loop join combines exactly.
      std::vector<BoundExprPtr> conjuncts;
      for (auto& c : join.conditions) {
        conjuncts.push_back(Call(c.null_equal ? "IS NOT DISTINCT FROM" : "=", std::move(c.left),
                                 std::move(c.right)));
      }
      join.conditions.clear();
      if (join.residual) conjuncts.push_back(std::move(join.residual));
      join.residual = MakeConjunction(std::move(conjuncts));
    }
    return domain;
  }

  Bindings PushLimit(LogicalOperatorPtr& op) {
    auto& limit = static_cast<LogicalLimit&>(*op);
    LogicalOperatorPtr input = std::move(limit.children[0]);
    std::vector<BoundOrderBy> orders;
    if (input->type == LogicalOperatorType::kOrderBy) {
      orders = std::move(static_cast<LogicalOrderBy&>(*input).orders);
      input = std::move(input->children[0]);
    }
    Bindings domain = PushOrCross(input);
    // The first rows of each domain value: row_number() OVER (PARTITION BY domain ORDER BY
    // the subquery's order) within (offset, offset + limit].
    auto row_number =
        std::make_unique<BoundWindow>(WindowFunction::kRowNumber, LogicalType::Bigint());
    row_number->name = "row_number";
    for (size_t i = 0; i < domain.size(); i++)
      row_number->partitions.push_back(DomainRef(i, domain[i]));
    for (auto& o : orders) {
      Rebind(*o.expr, domain);
      row_number->orders.push_back(std::move(o));
    }
    auto window = std::make_unique<LogicalWindow>();
    window->window_index = binder_.NewTableIndex();
    window->windows.push_back(std::move(row_number));
    window->children.push_back(std::move(input));
    const ColumnBinding number{window->window_index, 0};
    auto filter = std::make_unique<LogicalFilter>();
    if (limit.offset > 0) {
      filter->conditions.push_back(
          Call(">", Ref(LogicalType::Bigint(), number, "row_number"),
               std::make_unique<BoundConstant>(Value::Bigint(limit.offset))));
    }
    if (limit.limit >= 0) {
      filter->conditions.push_back(Call(
          "<=", Ref(LogicalType::Bigint(), number, "row_number"),
          std::make_unique<BoundConstant>(Value::Bigint(
              limit.limit > INT64_MAX - limit.offset ? INT64_MAX : limit.offset + limit.limit))));
    }
    if (filter->conditions.empty()) {
      op = std::move(window->children[0]);
      return domain;
    }
    filter->children.push_back(std::move(window));
    op = std::move(filter);
    return domain;
  }

  Bindings PushSetOperation(LogicalSetOperation& set) {
    const size_t width = set.types.size();
    for (auto& child : set.children) {
      // Set operations read their inputs by position: each input lists its columns, then the
      // domain columns.
      const Bindings columns = child->GetColumnBindings();
      const std::vector<LogicalType> types = child->GetTypes();
      Bindings domain = PushOrCross(child);
      auto projection = std::make_unique<LogicalProjection>();
      projection->table_index = binder_.NewTableIndex();
      for (size_t i = 0; i < width; i++)
        projection->expressions.push_back(Ref(types[i], columns[i], "column"));
      for (size_t i = 0; i < domain.size(); i++)
        projection->expressions.push_back(DomainRef(i, domain[i]));
      projection->children.push_back(std::move(child));
      child = std::move(projection);
    }
    Bindings out;
    for (size_t i = 0; i < correlated_.size(); i++) {
      out.push_back({set.table_index, static_cast<uint32_t>(set.types.size())});
      set.types.push_back(outer_exprs_[i]->type);
    }
    return out;
  }

  Binder& binder_;
  const LogicalOperator& outer_;           // the domain's source
  Bindings correlated_;                    // columns of the outer plan the subquery uses
  std::vector<BoundExprPtr> outer_exprs_;  // each as an expression over the outer plan
  const LogicalAggregate* only_matched_;
};

}  // namespace

FlattenedSubquery FlattenDependentJoin(Binder& binder, const LogicalOperator& outer,
                                       LogicalOperatorPtr subquery,
                                       const std::function<BoundExprPtr(BoundExprPtr)>& to_outer,
                                       const LogicalAggregate* only_matched,
                                       const LogicalOperator* domain_source) {
  const auto inner_tables = ProducedTables(*subquery);
  const auto outer_tables = ProducedTables(outer);
  Bindings correlated;
  std::vector<BoundExprPtr> outer_exprs;
  std::function<void(LogicalOperator&)> collect = [&](LogicalOperator& op) {
    for (BoundExprPtr* e : op.Expressions()) {
      VisitExpression(**e, [&](BoundExpr& x) {
        if (x.kind != BoundExprKind::kColumnRef) return;
        const auto& ref = static_cast<const BoundColumnRef&>(x);
        const ColumnBinding b = ref.binding;
        if (inner_tables.count(b.table_index) || !outer_tables.count(b.table_index)) return;
        for (const auto& c : correlated) {
          if (c == b) return;
        }
        correlated.push_back(b);
        BoundExprPtr column = ref.Copy();
        column->alias.clear();
        outer_exprs.push_back(to_outer ? to_outer(std::move(column)) : std::move(column));
      });
    }
    for (auto& child : op.children)
      collect(*child);
  };
  collect(*subquery);
  FlattenedSubquery out;
  if (correlated.empty()) {
    out.plan = std::move(subquery);
    return out;
  }
  // The domain is computed from copies of the outer plan: they must all give its rows.
  std::function<void(const LogicalOperator&)> check_volatile = [&](const LogicalOperator& op) {
    for (BoundExprPtr* e : const_cast<LogicalOperator&>(op).Expressions()) {
      VisitExpression(**e, [](BoundExpr& x) {
        if (x.kind != BoundExprKind::kFunction) return;
        const std::string& name = static_cast<BoundFunction&>(x).function.name;
        if (name == "random" || name == "rand") {
          throw Unsupported(
              "random() in the outer query of a subquery correlated other than through "
              "`inner = outer` equalities");
        }
      });
    }
    for (const auto& child : op.children)
      check_volatile(*child);
  };
  check_volatile(domain_source ? *domain_source : outer);
  std::vector<BoundExprPtr> key_exprs;
  for (const auto& e : outer_exprs)
    key_exprs.push_back(e->Copy());
  Flattener flattener(binder, domain_source ? *domain_source : outer, correlated,
                      std::move(outer_exprs), only_matched);
  const Bindings domain = flattener.PushOrCross(subquery);
  for (size_t i = 0; i < domain.size(); i++) {
    const LogicalType type = key_exprs[i]->type;
    out.keys.push_back({std::move(key_exprs[i]), Ref(type, domain[i], "domain"), true});
  }
  out.plan = std::move(subquery);
  return out;
}

}  // namespace shears
