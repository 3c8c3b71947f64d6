// join_order: reorders each maximal tree of inner and cross joins by estimated cost.
//
//   JOIN ss_item_sk = i_item_sk                 JOIN ss_sold_date_sk = d_date_sk
//     JOIN ss_sold_date_sk = d_date_sk   ==>      JOIN ss_item_sk = i_item_sk
//       GET store_sales                             GET store_sales
//       GET date_dim  (d_year = 2000)               GET item  (i_category = 'Books', 1 in 500)
//     GET item  (i_category = 'Books')            GET date_dim  (d_year = 2000, 1 in 6)
//
// The joins' inputs that are not inner or cross joins (scans, filters, aggregates, outer, semi,
// anti and mark joins) are the relations; equi-join conditions between two of them are the
// edges of a join graph, weighted by the selectivities cardinality estimation computes from
// NDVs. Dynamic programming over connected subsets finds the bushy tree with the smallest sum
// of intermediate result sizes for up to `join_order.dp_limit` relations; a greedy pass (join
// the connected pair with the smallest result first) orders more. A cross product is only
// planned between parts that no condition connects. Every other conjunct of the joins goes to
// the lowest join that has all its columns. Relations are reordered inside first (a barrier's
// inputs are ordered on their own). In a star the fact ends up joined first with its most
// selective dimension, every dimension on the build side (build_side then confirms it), which
// is also what dynamic partition pruning and runtime filters want: the dimension runs first.

#include "optimizer/join_order.h"

#include <algorithm>
#include <bit>
#include <map>

#include "common/error.h"
#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

bool Subset(uint64_t a, uint64_t b) {
  return (a & ~b) == 0;
}

/// The graph in a form the enumeration reads fast.
class Enumerator {
 public:
  explicit Enumerator(const JoinGraph& graph) : graph_(graph), n_(graph.rows.size()) {
    neighbors_.assign(n_, 0);
    selectivity_.assign(n_, std::vector<double>(n_, 1));
    seen_.assign(n_, std::vector<bool>(n_, false));
    for (const auto& edge : graph.edges) {
      const auto l = static_cast<size_t>(edge.left), r = static_cast<size_t>(edge.right);
      if (l == r || l >= n_ || r >= n_) continue;
      neighbors_[l] |= uint64_t{1} << r;
      neighbors_[r] |= uint64_t{1} << l;
      // Parallel edges (several keys between two relations) are correlated: the most
      // selective one counts, as cardinality estimation does for a join with several keys.
      double& s = selectivity_[l][r];
      s = seen_[l][r] ? std::min(s, edge.selectivity) : edge.selectivity;
      selectivity_[r][l] = s;
      seen_[l][r] = seen_[r][l] = true;
    }
  }

  double Rows(uint64_t set) const {
    double rows = 1;
    for (size_t i = 0; i < n_; i++) {
      if (!(set >> i & 1)) continue;
      rows *= std::max(1.0, graph_.rows[i]);
      for (size_t j = i + 1; j < n_; j++) {
        if (set >> j & 1) rows *= selectivity_[i][j];
      }
    }
    return std::max(rows, 1.0);
  }

  /// An edge or a hyper edge joins `a` to `b`.
  bool Connected(uint64_t a, uint64_t b) const {
    for (size_t i = 0; i < n_; i++) {
      if ((a >> i & 1) && (neighbors_[i] & b)) return true;
    }
    for (const auto& h : graph_.hyper_edges) {
      if ((Subset(h.left, a) && Subset(h.right, b)) || (Subset(h.left, b) && Subset(h.right, a)))
        return true;
    }
    return false;
  }

  /// Every hyper edge this join covers first can be a key of it.
  bool Legal(uint64_t a, uint64_t b) const {
    for (const auto& h : graph_.hyper_edges) {
      const uint64_t both = h.left | h.right;
      if (!Subset(both, a | b) || Subset(both, a) || Subset(both, b)) continue;
      if (!(Subset(h.left, a) && Subset(h.right, b)) && !(Subset(h.left, b) && Subset(h.right, a)))
        return false;
    }
    return true;
  }

  std::shared_ptr<const JoinTree> Leaf(size_t i) const {
    auto leaf = std::make_shared<JoinTree>();
    leaf->relations = uint64_t{1} << i;
    leaf->relation = static_cast<int>(i);
    leaf->rows = std::max(1.0, graph_.rows[i]);
    return leaf;
  }

  std::shared_ptr<const JoinTree> Join(std::shared_ptr<const JoinTree> left,
                                       std::shared_ptr<const JoinTree> right, double rows) const {
    auto join = std::make_shared<JoinTree>();
    join->relations = left->relations | right->relations;
    join->rows = rows;
    join->cost = left->cost + right->cost + rows;
    join->left = std::move(left);
    join->right = std::move(right);
    return join;
  }

  // DPsub: every connected subset from its best split into two connected, connected parts.
  std::shared_ptr<const JoinTree> DynamicProgramming() const {
    const uint64_t full = n_ == 64 ? ~uint64_t{0} : (uint64_t{1} << n_) - 1;
    std::vector<std::shared_ptr<const JoinTree>> best(static_cast<size_t>(full) + 1);
    for (size_t i = 0; i < n_; i++)
      best[uint64_t{1} << i] = Leaf(i);
    for (uint64_t set = 1; set <= full; set++) {
      if (std::popcount(set) < 2) continue;
      const uint64_t lowest = set & (~set + 1);
      double rows = -1;
      for (uint64_t part = (set - 1) & set; part > 0; part = (part - 1) & set) {
        if (!(part & lowest)) continue;  // each split once
        const uint64_t rest = set ^ part;
        if (!best[part] || !best[rest] || !Connected(part, rest) || !Legal(part, rest)) continue;
        if (rows < 0) rows = Rows(set);
        const double cost = best[part]->cost + best[rest]->cost + rows;
        if (!best[set] || cost < best[set]->cost) best[set] = Join(best[part], best[rest], rows);
      }
    }
    if (best[full]) return best[full];
    // Not connected: the best tree of each connected part, then cross products between the
    // parts, smallest first.
    std::vector<std::shared_ptr<const JoinTree>> parts;
    for (uint64_t component : Components()) {
      if (!best[component]) return nullptr;  // hyper edges allow no order
      parts.push_back(best[component]);
    }
    return CrossProducts(std::move(parts));
  }

  // Joins the connected pair with the smallest result first; cross products only when no pair
  // is connected.
  std::shared_ptr<const JoinTree> Greedy() const {
    std::vector<std::shared_ptr<const JoinTree>> trees;
    for (size_t i = 0; i < n_; i++)
      trees.push_back(Leaf(i));
    while (trees.size() > 1) {
      size_t best_i = 0, best_j = 0;
      double best_rows = -1;
      for (size_t i = 0; i < trees.size(); i++) {
        for (size_t j = i + 1; j < trees.size(); j++) {
          const uint64_t a = trees[i]->relations, b = trees[j]->relations;
          if (!Connected(a, b) || !Legal(a, b)) continue;
          const double rows = Rows(a | b);
          if (best_rows < 0 || rows < best_rows) {
            best_rows = rows;
            best_i = i;
            best_j = j;
          }
        }
      }
      if (best_rows < 0) return CrossProducts(std::move(trees));
      auto joined = Join(trees[best_i], trees[best_j], best_rows);
      trees.erase(trees.begin() + static_cast<std::ptrdiff_t>(best_j));
      trees[best_i] = std::move(joined);
    }
    return trees[0];
  }

 private:
  std::vector<uint64_t> Components() const {
    std::vector<uint64_t> components;
    uint64_t seen = 0;
    for (size_t i = 0; i < n_; i++) {
      if (seen >> i & 1) continue;
      uint64_t component = uint64_t{1} << i;
      for (bool grew = true; grew;) {
        grew = false;
        for (size_t j = 0; j < n_; j++) {
          if (!(component >> j & 1)) continue;
          uint64_t next = component | neighbors_[j];
          for (const auto& h : graph_.hyper_edges) {
            if ((h.left | h.right) & next) next |= h.left | h.right;
          }
          if (next != component) {
            component = next;
            grew = true;
          }
        }
      }
      seen |= component;
      components.push_back(component);
    }
    return components;
  }

  std::shared_ptr<const JoinTree> CrossProducts(
      std::vector<std::shared_ptr<const JoinTree>> parts) const {
    std::stable_sort(parts.begin(), parts.end(),
                     [](const auto& a, const auto& b) { return a->rows < b->rows; });
    auto tree = parts[0];
    for (size_t i = 1; i < parts.size(); i++) {
      if (!Legal(tree->relations, parts[i]->relations)) return nullptr;
      tree = Join(tree, parts[i], Rows(tree->relations | parts[i]->relations));
    }
    return tree;
  }

  const JoinGraph& graph_;
  size_t n_;
  std::vector<uint64_t> neighbors_;
  std::vector<std::vector<double>> selectivity_;
  std::vector<std::vector<bool>> seen_;
};

// ---- The rule: from the logical plan to a join graph and back.

bool Reorderable(const LogicalOperator& op) {
  if (op.type != LogicalOperatorType::kJoin) return false;
  const auto kind = static_cast<const LogicalJoin&>(op).join_kind;
  return kind == JoinKind::kInner || kind == JoinKind::kCross;
}

/// One maximal tree of inner and cross joins, seen without changing it.
struct JoinRegion {
  std::vector<LogicalOperatorPtr*> relations;
  std::vector<const JoinCondition*> conditions;
  std::vector<const BoundExpr*> predicates;  // residual conjuncts
};

/// Collects the region and returns the relation sets of its joins as they are now (leaves
/// numbered in visiting order).
std::shared_ptr<JoinTree> Survey(LogicalOperatorPtr& op, JoinRegion& region) {
  auto tree = std::make_shared<JoinTree>();
  if (!Reorderable(*op)) {
    tree->relation = static_cast<int>(region.relations.size());
    tree->relations = region.relations.size() < 64 ? uint64_t{1} << region.relations.size() : 0;
    region.relations.push_back(&op);
    return tree;
  }
  auto& join = static_cast<LogicalJoin&>(*op);
  for (const auto& condition : join.conditions)
    region.conditions.push_back(&condition);
  if (join.residual) FlattenConjunction(*join.residual, region.predicates);
  tree->left = Survey(join.children[0], region);
  tree->right = Survey(join.children[1], region);
  tree->relations = tree->left->relations | tree->right->relations;
  return tree;
}

/// The cost of an existing tree, as the enumeration counts it.
double TreeCost(const JoinGraph& graph, const JoinTree& tree) {
  if (tree.relation >= 0) return 0;
  return TreeCost(graph, *tree.left) + TreeCost(graph, *tree.right) +
         JoinSetRows(graph, tree.relations);
}

/// The same walk, taking the pieces out (in the same order as Survey saw them).
void Take(LogicalOperatorPtr& op, std::vector<LogicalOperatorPtr>& relations,
          std::vector<JoinCondition>& conditions, std::vector<BoundExprPtr>& predicates) {
  if (!Reorderable(*op)) {
    relations.push_back(std::move(op));
    return;
  }
  auto& join = static_cast<LogicalJoin&>(*op);
  for (auto& condition : join.conditions)
    conditions.push_back(std::move(condition));
  if (join.residual) SplitConjunction(std::move(join.residual), predicates);
  Take(join.children[0], relations, conditions, predicates);
  Take(join.children[1], relations, conditions, predicates);
}

struct Placement {
  uint64_t left = 0, right = 0;  // conditions: relations of each side
  bool placed = false;
};

class Rebuilder {
 public:
  Rebuilder(std::vector<LogicalOperatorPtr> relations, std::vector<JoinCondition> conditions,
            std::vector<Placement> condition_sets, std::vector<BoundExprPtr> predicates,
            std::vector<uint64_t> predicate_sets)
      : relations_(std::move(relations)),
        conditions_(std::move(conditions)),
        condition_sets_(std::move(condition_sets)),
        predicates_(std::move(predicates)),
        predicate_sets_(std::move(predicate_sets)),
        predicate_placed_(predicates_.size(), false) {}

  LogicalOperatorPtr Build(const JoinTree& tree, bool root) {
    if (tree.relation >= 0) return std::move(relations_[static_cast<size_t>(tree.relation)]);
    auto join = std::make_unique<LogicalJoin>();
    join->children.push_back(Build(*tree.left, false));
    join->children.push_back(Build(*tree.right, false));
    for (size_t i = 0; i < conditions_.size(); i++) {
      Placement& p = condition_sets_[i];
      if (p.placed || !Subset(p.left | p.right, tree.relations)) continue;
      JoinCondition condition = std::move(conditions_[i]);
      if (Subset(p.left, tree.right->relations) && Subset(p.right, tree.left->relations)) {
        std::swap(condition.left, condition.right);
      } else if (!Subset(p.left, tree.left->relations) || !Subset(p.right, tree.right->relations)) {
        throw InternalError("join_order placed the condition {} = {} where it is no key",
                            condition.left->ToString(), condition.right->ToString());
      }
      join->conditions.push_back(std::move(condition));
      p.placed = true;
    }
    std::vector<BoundExprPtr> residual;
    for (size_t i = 0; i < predicates_.size(); i++) {
      if (predicate_placed_[i] || (!root && !Subset(predicate_sets_[i], tree.relations))) continue;
      residual.push_back(std::move(predicates_[i]));
      predicate_placed_[i] = true;
    }
    if (!residual.empty()) join->residual = MakeConjunction(std::move(residual));
    join->join_kind = join->conditions.empty() ? JoinKind::kCross : JoinKind::kInner;
    return join;
  }

 private:
  std::vector<LogicalOperatorPtr> relations_;
  std::vector<JoinCondition> conditions_;
  std::vector<Placement> condition_sets_;
  std::vector<BoundExprPtr> predicates_;
  std::vector<uint64_t> predicate_sets_;
  std::vector<bool> predicate_placed_;
};

void Reorder(LogicalOperatorPtr& op, size_t dp_limit);

void ReorderChildren(LogicalOperator& op, size_t dp_limit) {
  for (auto& child : op.children)
    Reorder(child, dp_limit);
}

void Reorder(LogicalOperatorPtr& op, size_t dp_limit) {
  if (!Reorderable(*op)) {
    ReorderChildren(*op, dp_limit);
    return;
  }
  JoinRegion region;
  const auto current = Survey(op, region);
  // Inside the relations first; their estimates then reflect their own order.
  for (LogicalOperatorPtr* relation : region.relations) {
    ReorderChildren(**relation, dp_limit);
    EstimateSubtree(**relation);
  }
  const size_t n = region.relations.size();
  if (n < 3 || n > 64) {
    return;  // two inputs: build_side picks the sides; past 64 the sets do not fit
  }
  std::map<uint32_t, size_t> relation_of_table;
  for (size_t i = 0; i < n; i++) {
    for (const auto& binding : (*region.relations[i])->GetColumnBindings())
      relation_of_table[binding.table_index] = i;
  }
  auto relations_of = [&](const BoundExpr& expr) {
    uint64_t set = 0;
    for (const auto& binding : ReferencedBindings(expr)) {
      const auto found = relation_of_table.find(binding.table_index);
      if (found == relation_of_table.end()) return ~uint64_t{0};
      set |= uint64_t{1} << found->second;
    }
    return set;
  };
  JoinGraph graph;
  for (LogicalOperatorPtr* relation : region.relations)
    graph.rows.push_back((*relation)->estimated_rows);
  std::vector<Placement> condition_sets;
  for (const JoinCondition* condition : region.conditions) {
    const uint64_t left = relations_of(*condition->left);
    const uint64_t right = relations_of(*condition->right);
    // A key must see each of its sides whole on one side of the join: keep the order as it is
    // when one does not (a constant key, or sides sharing a relation).
    if (left == 0 || right == 0 || (left & right) || left == ~uint64_t{0} ||
        right == ~uint64_t{0}) {
      return;
    }
    condition_sets.push_back({left, right, false});
    if (std::popcount(left) == 1 && std::popcount(right) == 1) {
      const auto l = static_cast<size_t>(std::countr_zero(left));
      const auto r = static_cast<size_t>(std::countr_zero(right));
      graph.edges.push_back({static_cast<int>(l), static_cast<int>(r),
                             EstimateKeySelectivity(**region.relations[l], *condition->left,
                                                    **region.relations[r], *condition->right)});
    } else {
      graph.hyper_edges.push_back({left, right});
    }
  }
  std::vector<uint64_t> predicate_sets;
  for (const BoundExpr* predicate : region.predicates) {
    const uint64_t set = relations_of(*predicate);
    predicate_sets.push_back(set == ~uint64_t{0} ? (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1)
                                                 : set);
  }
  const auto tree = OrderJoins(graph, dp_limit);
  // Keep the order as written unless the new one is estimated cheaper: on ties the query's
  // own order (and the plans users and tests expect from it) stands.
  if (!tree || tree->cost >= TreeCost(graph, *current) * (1 - 1e-9)) return;
  std::vector<LogicalOperatorPtr> relations;
  std::vector<JoinCondition> conditions;
  std::vector<BoundExprPtr> predicates;
  Take(op, relations, conditions, predicates);
  Rebuilder rebuilder(std::move(relations), std::move(conditions), std::move(condition_sets),
                      std::move(predicates), std::move(predicate_sets));
  op = rebuilder.Build(*tree, true);
}

}  // namespace

double JoinSetRows(const JoinGraph& graph, uint64_t relations) {
  return Enumerator(graph).Rows(relations);
}

std::shared_ptr<const JoinTree> OrderJoins(const JoinGraph& graph, size_t dp_limit) {
  const size_t n = graph.rows.size();
  if (n == 0 || n > 64) return nullptr;
  Enumerator enumerator(graph);
  // DPsub visits 3^n splits: 59,049 for 10 relations, 43 million for 16.
  if (n <= std::min<size_t>(dp_limit, 16)) return enumerator.DynamicProgramming();
  return enumerator.Greedy();
}

void ReorderJoins(LogicalOperatorPtr& plan, const Settings& settings) {
  Reorder(plan, static_cast<size_t>(std::max<int64_t>(0, settings.GetInt("join_order.dp_limit"))));
  EstimateSubtree(*plan);
}

}  // namespace shears
