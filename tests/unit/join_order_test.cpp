// The join-order enumerator (optimizer/join_order.h): on small graphs its tree must cost exactly
// what the cheapest of all trees without needless cross products costs, found here by
// enumerating every tree without memoization.

#include "optimizer/join_order.h"

#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <limits>
#include <random>

#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

bool Subset(uint64_t a, uint64_t b) {
  return (a & ~b) == 0;
}

bool Connected(const JoinGraph& graph, uint64_t a, uint64_t b) {
  for (const auto& e : graph.edges) {
    const uint64_t l = uint64_t{1} << e.left, r = uint64_t{1} << e.right;
    if (((l & a) && (r & b)) || ((l & b) && (r & a))) return true;
  }
  return false;
}

/// The cheapest cost over every bushy tree of `set` whose joins each have a condition (the
/// graph is connected in these tests), by plain recursion over all splits (no memoization).
double BruteForce(const JoinGraph& graph, const std::vector<double>& rows, uint64_t set) {
  if (std::popcount(set) == 1) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (uint64_t part = (set - 1) & set; part > 0; part = (part - 1) & set) {
    const uint64_t rest = set ^ part;
    if (!Connected(graph, part, rest)) continue;
    best =
        std::min(best, BruteForce(graph, rows, part) + BruteForce(graph, rows, rest) + rows[set]);
  }
  return best;
}

double BruteForce(const JoinGraph& graph) {
  std::vector<double> rows(size_t{1} << graph.rows.size());
  for (uint64_t set = 1; set < rows.size(); set++)
    rows[set] = JoinSetRows(graph, set);
  return BruteForce(graph, rows, rows.size() - 1);
}

/// Checks the tree's shape: every relation once, costs and rows add up, no cross product
/// where the two sides are connected... and none at all when `connected`.
void CheckTree(const JoinGraph& graph, const JoinTree& tree, bool connected) {
  if (tree.relation >= 0) {
    EXPECT_EQ(tree.relations, uint64_t{1} << tree.relation);
    EXPECT_EQ(tree.cost, 0);
    return;
  }
  ASSERT_TRUE(tree.left && tree.right);
  EXPECT_EQ(tree.left->relations & tree.right->relations, 0u);
  EXPECT_EQ(tree.relations, tree.left->relations | tree.right->relations);
  EXPECT_DOUBLE_EQ(tree.rows, JoinSetRows(graph, tree.relations));
  EXPECT_DOUBLE_EQ(tree.cost, tree.left->cost + tree.right->cost + tree.rows);
  if (connected) EXPECT_TRUE(Connected(graph, tree.left->relations, tree.right->relations));
  CheckTree(graph, *tree.left, connected);
  CheckTree(graph, *tree.right, connected);
}

uint64_t All(size_t n) {
  return (uint64_t{1} << n) - 1;
}

JoinGraph RandomGraph(std::mt19937& random, size_t n, const std::string& shape) {
  std::uniform_real_distribution<double> rows(1, 1e6);
  std::uniform_real_distribution<double> exponent(-6, 0);
  JoinGraph graph;
  for (size_t i = 0; i < n; i++)
    graph.rows.push_back(std::round(rows(random)));
  auto edge = [&](size_t a, size_t b) {
    graph.edges.push_back(
        {static_cast<int>(a), static_cast<int>(b), std::pow(10.0, exponent(random))});
  };
  for (size_t i = 1; i < n; i++) {
    if (shape == "chain") edge(i - 1, i);
    if (shape == "star") edge(0, i);
    if (shape == "clique") {
      for (size_t j = 0; j < i; j++)
        edge(j, i);
    }
    if (shape == "snowflake") edge(i < 4 ? 0 : (i - 4) % 3 + 1, i);  // dims of dims
  }
  return graph;
}

TEST(JoinOrderTest, DynamicProgrammingFindsTheCheapestTree) {
  std::mt19937 random(7);
  for (const std::string shape : {"chain", "star", "clique", "snowflake"}) {
    for (size_t n = 2; n <= 6; n++) {
      for (int round = 0; round < 5; round++) {
        const JoinGraph graph = RandomGraph(random, n, shape);
        const auto tree = OrderJoins(graph, 10);
        ASSERT_TRUE(tree) << shape << " " << n;
        EXPECT_EQ(tree->relations, All(n));
        CheckTree(graph, *tree, true);
        const double best = BruteForce(graph);
        EXPECT_NEAR(tree->cost, best, best * 1e-12) << shape << " with " << n << " relations";
      }
    }
  }
}

TEST(JoinOrderTest, GreedyBuildsAValidTreeWithoutCrossProducts) {
  std::mt19937 random(11);
  for (const std::string shape : {"chain", "star", "clique", "snowflake"}) {
    const JoinGraph graph = RandomGraph(random, 6, shape);
    const auto greedy = OrderJoins(graph, 2);  // past the limit: greedy
    ASSERT_TRUE(greedy);
    EXPECT_EQ(greedy->relations, All(6));
    CheckTree(graph, *greedy, true);
    EXPECT_GE(greedy->cost, BruteForce(graph) * (1 - 1e-12));
  }
  // 40 relations: only greedy can do it, and still no cross product.
  const JoinGraph big = RandomGraph(random, 40, "snowflake");
  const auto tree = OrderJoins(big, 10);
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->relations, All(40));
  CheckTree(big, *tree, true);
}

TEST(JoinOrderTest, StarJoinsTheFactWithTheMostSelectiveDimensionFirst) {
  // Fact 1,000,000 rows; dimensions keep 50%, 1% and 10% of their keys.
  JoinGraph graph;
  graph.rows = {1e6, 500, 10, 100};
  graph.edges = {{0, 1, 1.0 / 1000}, {0, 2, 1.0 / 1000}, {0, 3, 1.0 / 1000}};
  const auto tree = OrderJoins(graph, 10);
  ASSERT_TRUE(tree);
  // Left-deep from the fact: ((fact x dim2) x dim3) x dim1.
  ASSERT_EQ(tree->right->relation, 1);
  ASSERT_EQ(tree->left->right->relation, 3);
  EXPECT_EQ(tree->left->left->relations, (uint64_t{1} << 0) | (uint64_t{1} << 2));
  EXPECT_DOUBLE_EQ(tree->cost, 10'000 + 1'000 + 500);
}

TEST(JoinOrderTest, CrossProductsOnlyBetweenUnconnectedParts) {
  // {0, 1} joined, 2 connected to nothing: one cross product, after the connected join.
  JoinGraph graph;
  graph.rows = {1000, 10, 5};
  graph.edges = {{0, 1, 0.01}};
  const auto tree = OrderJoins(graph, 10);
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->relations, All(3));
  // Smallest part first: relation 2 (5 rows) crossed with the join of 0 and 1 (100 rows).
  EXPECT_EQ(tree->left->relation, 2);
  EXPECT_EQ(tree->right->relations, uint64_t{3});
  EXPECT_DOUBLE_EQ(tree->cost, 100 + 500);
}

TEST(JoinOrderTest, HyperEdgesSplitTheirSidesApart) {
  // a.x + b.y = c.z with a-c and b-c also joined: c may not join a or b alone first, since the
  // condition must then be a key between {a, b} and c.
  JoinGraph graph;
  graph.rows = {100, 100, 100};
  graph.hyper_edges = {{0b011, 0b100}};
  graph.edges = {{0, 2, 0.001}, {1, 2, 0.5}, {0, 1, 1}};
  const auto tree = OrderJoins(graph, 10);
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->left->relations | tree->right->relations, uint64_t{0b111});
  const uint64_t first = tree->left->relation >= 0 ? tree->right->relations : tree->left->relations;
  EXPECT_EQ(first, uint64_t{0b011});
  // No legal tree at all: the hyper edge's sides overlap what must come first.
  JoinGraph impossible;
  impossible.rows = {10, 10, 10};
  impossible.edges = {{0, 2, 0.1}, {1, 2, 0.1}};
  impossible.hyper_edges = {{0b011, 0b100}, {0b101, 0b010}, {0b110, 0b001}};
  EXPECT_FALSE(OrderJoins(impossible, 10));
}

std::string Explain(const std::string& sql) {
  Database database;
  Connection connection(database);
  std::string text;
  for (const auto& row : connection.Query("EXPLAIN " + sql).ToStrings())
    text += row[0] + "\n";
  return text;
}

TEST(JoinOrderTest, ExplainShowsThePruningBenefitEstimate) {
  const std::string fact = "'" + test::DataDir() + "/hive/hive_year_month'";
  // A filtered build side: planned, with its numbers (no NDV for the key: the fallback ratio).
  const std::string planned = Explain("SELECT count(*) FROM " + fact + " a JOIN " + fact +
                                      " b ON a.year = b.year WHERE b.id = 1");
  EXPECT_NE(planned.find("produces dynamic filter #1"), std::string::npos) << planned;
  EXPECT_NE(planned.find("dynamic partition pruning benefit: filter ratio 0.50 "
                         "(fallback_filter_ratio) x "),
            std::string::npos)
      << planned;
  // No filter and as many bytes on both sides: half the probe side is less than the build side.
  const std::string rejected =
      Explain("SELECT count(*) FROM " + fact + " a JOIN " + fact + " b ON a.year = b.year");
  EXPECT_NE(rejected.find("build side has no filter and the estimated benefit is too small: "
                          "filter ratio 0.50 (fallback_filter_ratio)"),
            std::string::npos)
      << rejected;
}

}  // namespace
}  // namespace shears
