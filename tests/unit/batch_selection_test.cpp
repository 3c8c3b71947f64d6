// A batch's pending selections (what the hash join's probe hands on instead of copying its
// columns): Flatten copies exactly the selected rows, NULLs and strings included, only of the
// columns that have one; Reset drops them; a vector that referenced another gets its own
// buffer back at Reset, so the referenced values are never written.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/vector.h"

namespace shears {
namespace {

TEST(BatchSelectionTest, FlattenCopiesTheSelectedRowsOfEachSelectedColumn) {
  Batch source({LogicalType::Integer(), LogicalType::Varchar()});
  for (idx_t r = 0; r < 10; r++) {
    source.column(0).data<int32_t>()[r] = static_cast<int32_t>(r * 10);
    if (r % 3 == 0) {
      source.column(0).validity().SetNull(r);
    }
    source.column(1).data<StringRef>()[r] = source.column(1).AddString("s" + std::to_string(r));
  }
  source.SetSize(10);

  Batch out({LogicalType::Integer(), LogicalType::Varchar()});
  out.column(0).Reference(source.column(0));
  out.column(1).Reference(source.column(1));
  auto sel = std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{1, 3, 4, 8});
  out.SetSelection(0, sel);  // column 1 stays as it is: its rows in order
  out.SetSize(4);
  EXPECT_TRUE(out.HasSelection());
  EXPECT_EQ(out.selection(0), sel);
  EXPECT_EQ(out.selection(1), nullptr);

  out.Flatten();
  EXPECT_FALSE(out.HasSelection());
  EXPECT_EQ(out.selection(0), nullptr);
  const std::vector<int32_t> want = {10, 30, 40, 80};
  for (idx_t r = 0; r < 4; r++) {
    EXPECT_EQ(out.column(0).IsNull(r), r == 1) << r;  // row 3 was NULL
    if (r != 1) {
      EXPECT_EQ(out.column(0).data<int32_t>()[r], want[r]);
    }
    EXPECT_EQ(out.column(1).data<StringRef>()[r].view(), "s" + std::to_string(r));
  }
  // The source's values were not overwritten by the copy.
  for (idx_t r = 0; r < 10; r++) {
    if (r % 3 != 0) {
      EXPECT_EQ(source.column(0).data<int32_t>()[r], static_cast<int32_t>(r * 10));
    }
  }
}

TEST(BatchSelectionTest, ResetDropsSelectionsAndGivesReferencingVectorsTheirOwnBuffer) {
  Vector source(LogicalType::Bigint());
  source.data<int64_t>()[0] = 42;
  Vector v(LogicalType::Bigint());
  v.data<int64_t>()[0] = 7;
  v.Reference(source);
  EXPECT_EQ(v.data<int64_t>()[0], 42);
  v.Reset();
  EXPECT_NE(v.data<int64_t>(), source.data<int64_t>());
  v.data<int64_t>()[0] = 1;
  EXPECT_EQ(source.data<int64_t>()[0], 42);

  Batch batch({LogicalType::Bigint()});
  batch.column(0).Reference(source);
  batch.SetSelection(0, std::make_shared<std::vector<uint32_t>>(1, 0));
  batch.SetSize(1);
  batch.Reset();
  EXPECT_FALSE(batch.HasSelection());
  EXPECT_NE(batch.column(0).data<int64_t>(), source.data<int64_t>());
  // A null selection on a batch without any is no selection at all.
  batch.SetSelection(0, nullptr);
  EXPECT_FALSE(batch.HasSelection());
}

TEST(BatchSelectionTest, SelectFlattensPendingSelectionsFirst) {
  Vector source(LogicalType::Integer());
  for (idx_t r = 0; r < 6; r++)
    source.data<int32_t>()[r] = static_cast<int32_t>(r);
  Batch batch({LogicalType::Integer()});
  batch.column(0).Reference(source);
  batch.SetSelection(0, std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{5, 4, 2}));
  batch.SetSize(3);
  const uint32_t keep[] = {0, 2};
  batch.Select(keep, 2);
  EXPECT_FALSE(batch.HasSelection());
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch.column(0).data<int32_t>()[0], 5);
  EXPECT_EQ(batch.column(0).data<int32_t>()[1], 2);
}

}  // namespace
}  // namespace shears
