// dynfilter/join_legality.h judged on joins described without a plan (JoinFilterShape).

#include "dynfilter/join_legality.h"

#include <gtest/gtest.h>

#include <memory>

namespace shears {
namespace {

BoundExprPtr Column(uint32_t table, const std::string& name) {
  return std::make_unique<BoundColumnRef>(LogicalType::Integer(), ColumnBinding{table, 0}, name);
}

JoinFilterShape Shape(JoinKind kind, const BoundExpr& key, bool null_equal = false,
                      bool residual = false) {
  JoinFilterShape shape;
  shape.kind = kind;
  shape.probe_keys = {&key};
  shape.null_equal = {null_equal};
  shape.residual = residual;
  shape.mark = ColumnBinding{9, 0};
  return shape;
}

TEST(JoinLegalityTest, KeepFiltersOnlyWhereUnmatchedProbeRowsGo) {
  const BoundExprPtr key = Column(1, "k");
  for (JoinKind kind : {JoinKind::kInner, JoinKind::kSemi, JoinKind::kRight, JoinKind::kRightSemi,
                        JoinKind::kRightAnti}) {
    for (bool partitions : {true, false}) {
      const ProbeFilterLegality legality = ProbeSideFilterLegality(Shape(kind, *key), partitions);
      EXPECT_TRUE(legality.keep) << JoinKindName(kind);
      EXPECT_FALSE(legality.skip);
    }
  }
  for (JoinKind kind : {JoinKind::kLeft, JoinKind::kFull, JoinKind::kMark}) {
    const ProbeFilterLegality legality = ProbeSideFilterLegality(Shape(kind, *key), true);
    EXPECT_FALSE(legality.any()) << JoinKindName(kind);
    EXPECT_EQ(legality.reason,
              std::string(JoinKindName(kind)) + " join keeps unmatched probe rows");
  }
  JoinFilterShape cross;
  cross.kind = JoinKind::kCross;
  EXPECT_EQ(ProbeSideFilterLegality(cross, true).reason, "no equality key to prune by");
}

TEST(JoinLegalityTest, AntiJoinSkipsPartitionsOnlyOnOneConditionWithoutResidual) {
  const BoundExprPtr key = Column(1, "k");
  EXPECT_TRUE(ProbeSideFilterLegality(Shape(JoinKind::kAnti, *key), true).skip);
  // Rows: a filter's false positives would drop rows the anti join keeps.
  const ProbeFilterLegality rows = ProbeSideFilterLegality(Shape(JoinKind::kAnti, *key), false);
  EXPECT_FALSE(rows.any());
  EXPECT_EQ(rows.reason, "ANTI join keeps probe rows without a match");
  const ProbeFilterLegality residual =
      ProbeSideFilterLegality(Shape(JoinKind::kAnti, *key, false, true), true);
  EXPECT_FALSE(residual.any());
  EXPECT_EQ(residual.reason, "anti join with several conditions or a residual");
}

TEST(JoinLegalityTest, MarkJoinUnderMarkOrKeyIsNullKeepsKeysAndNulls) {
  const BoundExprPtr key = Column(1, "k");
  const JoinFilterShape mark = Shape(JoinKind::kMark, *key);
  std::vector<BoundExprPtr> above;
  std::vector<BoundExprPtr> branches;
  branches.push_back(std::make_unique<BoundColumnRef>(LogicalType::Boolean(), mark.mark, "mark"));
  branches.push_back(std::make_unique<BoundIsNull>(Column(1, "k"), false));
  above.push_back(std::make_unique<BoundConjunction>(false, std::move(branches)));
  const ProbeFilterLegality legality = ProbeSideFilterLegality(mark, true, &above);
  ASSERT_EQ(legality.keep_or_null.size(), 1u);
  EXPECT_TRUE(legality.keep_or_null[0]);
  EXPECT_FALSE(legality.keep);
  // Not for rows, and not when the condition matches NULLs (IS NOT DISTINCT FROM).
  EXPECT_FALSE(ProbeSideFilterLegality(mark, false, &above).any());
  EXPECT_FALSE(ProbeSideFilterLegality(Shape(JoinKind::kMark, *key, true), true, &above).any());
  // `mark OR other IS NULL` says nothing about k.
  std::vector<BoundExprPtr> other;
  std::vector<BoundExprPtr> other_branches;
  other_branches.push_back(
      std::make_unique<BoundColumnRef>(LogicalType::Boolean(), mark.mark, "mark"));
  other_branches.push_back(std::make_unique<BoundIsNull>(Column(2, "j"), false));
  other.push_back(std::make_unique<BoundConjunction>(false, std::move(other_branches)));
  EXPECT_FALSE(ProbeSideFilterLegality(mark, true, &other).any());
}

TEST(JoinLegalityTest, FiltersPassTheKeptSideAndKeysTransferOnlyWhereRowsMatch) {
  EXPECT_TRUE(FilterPassesJoin(JoinKind::kInner, true));
  EXPECT_TRUE(FilterPassesJoin(JoinKind::kInner, false));
  EXPECT_TRUE(FilterPassesJoin(JoinKind::kLeft, true));
  EXPECT_FALSE(FilterPassesJoin(JoinKind::kLeft, false));
  EXPECT_FALSE(FilterPassesJoin(JoinKind::kFull, true));
  EXPECT_FALSE(FilterPassesJoin(JoinKind::kFull, false));
  EXPECT_FALSE(FilterPassesJoin(JoinKind::kSemi, false));
  EXPECT_TRUE(FilterPassesJoin(JoinKind::kRightSemi, false));
  EXPECT_TRUE(JoinEquatesKeys(JoinKind::kSemi));
  EXPECT_FALSE(JoinEquatesKeys(JoinKind::kLeft));
  EXPECT_FALSE(ConditionFiltersKeys(true));
  EXPECT_EQ(BoundFilterLegality(JoinKind::kInner, true), "");
  EXPECT_EQ(BoundFilterLegality(JoinKind::kLeft, true), "LEFT join keeps unmatched probe rows");
  EXPECT_FALSE(BoundsOrderLikeSql(LogicalType::Double()));
  EXPECT_TRUE(BoundsOrderLikeSql(LogicalType::Varchar()));
}

// The statistics transfer bounds a join's build side by what its probe side may hold: only
// where a build row matching no probe row changes nothing in the output.
TEST(JoinLegalityTest, BuildSideFilteredOnlyWhereUnmatchedBuildRowsGoUnseen) {
  for (JoinKind kind : {JoinKind::kInner, JoinKind::kLeft, JoinKind::kSemi, JoinKind::kAnti,
                        JoinKind::kRightSemi}) {
    EXPECT_EQ(BuildSideFilterLegality(kind), "") << JoinKindName(kind);
  }
  EXPECT_EQ(BuildSideFilterLegality(JoinKind::kRight), "RIGHT join keeps unmatched build rows");
  for (JoinKind kind : {JoinKind::kFull, JoinKind::kRightAnti, JoinKind::kMark, JoinKind::kCross})
    EXPECT_NE(BuildSideFilterLegality(kind), "") << JoinKindName(kind);
}

}  // namespace
}  // namespace shears
