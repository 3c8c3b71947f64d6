#pragma once
// The join-order enumerator behind the join_order rule, on an abstract join graph (relations
// with estimated rows, equi-join edges with selectivities), so it can be tested on its own.

#include <cstdint>
#include <memory>
#include <vector>

namespace shears {

struct JoinGraph {
  /// Estimated rows of each relation (after its own filters).
  std::vector<double> rows;
  struct Edge {
    int left = 0, right = 0;
    double selectivity = 1;  // fraction of the pairs of rows the join keeps
  };
  std::vector<Edge> edges;
  /// Conditions over several relations on a side (`a.x + b.y = c.z`): legal as a hash-join key
  /// only at a join with one side's relations all left and the other's all right, so a join
  /// that first covers both must split them that way. They connect such splits too.
  struct HyperEdge {
    uint64_t left = 0, right = 0;  // relation bit sets
  };
  std::vector<HyperEdge> hyper_edges;
};

/// A bushy join tree over relation ids.
struct JoinTree {
  uint64_t relations = 0;  // bit set
  int relation = -1;       // a leaf's relation, -1 for a join
  std::shared_ptr<const JoinTree> left, right;
  double rows = 0;  // estimated output rows
  double cost = 0;  // sum of the rows of every join in the tree (leaves cost nothing)
};

/// Estimated rows of joining `relations`: their rows times the selectivity of every edge
/// between them (parallel edges between two relations count once, the most selective one).
double JoinSetRows(const JoinGraph& graph, uint64_t relations);

/// The cheapest tree (cost = sum of intermediate result sizes): dynamic programming over
/// connected subsets when there are at most `dp_limit` relations, greedy above (join the
/// connected pair with the smallest result first). A cross product only joins parts the
/// graph leaves unconnected (smallest first). Null when the hyper edges allow no tree, or for
/// more than 64 relations.
std::shared_ptr<const JoinTree> OrderJoins(const JoinGraph& graph, size_t dp_limit);

}  // namespace shears
