// The order a scan thread tests its row conjuncts in (OrderRowConjuncts): runtime conjuncts move
// ahead of the literal ones they outrank (rows dropped per nanosecond); the literal ones keep
// their plan order, since one may guard another that fails on some rows.

#include "storage/scan_filter.h"

#include <gtest/gtest.h>

namespace shears {
namespace {

ConjunctCost Cost(double rows_in, double rows_out, double nanos) {
  return {rows_in, rows_out, nanos};
}

TEST(ScanFilterTest, ARuntimeFilterDroppingMorePerNanosecondRunsFirst) {
  // 0: a LIKE dropping 1% at 50 ns a row; 1: a cheap comparison dropping half; 2: a runtime
  // filter dropping 90% at 1 ns a row.
  const std::vector<bool> runtime = {false, false, true};
  std::vector<ConjunctCost> costs = {Cost(1000, 990, 50000), Cost(1000, 500, 1000),
                                     Cost(1000, 100, 1000)};
  EXPECT_EQ(OrderRowConjuncts({0, 1, 2}, runtime, costs), (std::vector<size_t>{2, 0, 1}));
  // Dropping less per nanosecond than the comparison but more than the LIKE: still before the
  // LIKE, which comes first in plan order and must stay before the comparison.
  costs[2] = Cost(1000, 700, 1000);
  EXPECT_EQ(OrderRowConjuncts({0, 1, 2}, runtime, costs), (std::vector<size_t>{2, 0, 1}));
  costs[0] = Cost(1000, 100, 1000);  // the first literal one outranks it: after it, and so on
  EXPECT_EQ(OrderRowConjuncts({2, 0, 1}, runtime, costs), (std::vector<size_t>{0, 1, 2}));
}

TEST(ScanFilterTest, UnmeasuredOrPausedRuntimeFiltersRunLast) {
  const std::vector<bool> runtime = {true, false, true, false};
  // Nothing measured yet: the plan's order, runtime conjuncts after the literal ones that
  // precede them... and a paused filter (all rows pass untested) drops nothing.
  std::vector<ConjunctCost> costs(4);
  EXPECT_EQ(OrderRowConjuncts({1, 3, 0, 2}, runtime, costs), (std::vector<size_t>{1, 3, 0, 2}));
  costs[0] = Cost(2048, 2048, 10);   // paused
  costs[2] = Cost(2048, 1000, 500);  // selective
  costs[1] = Cost(2048, 2000, 900);
  costs[3] = Cost(2048, 2048, 300);
  EXPECT_EQ(OrderRowConjuncts({1, 3, 0, 2}, runtime, costs), (std::vector<size_t>{2, 1, 3, 0}));
}

}  // namespace
}  // namespace shears
