// A batch's pending selections (what the hash join's probe hands on instead of copying its
// columns): Flatten copies exactly the selected rows, NULLs and strings included, only of the
// columns that have one; Reset drops them; a vector that referenced another gets its own
// buffer back at Reset, so the referenced values are never written.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/batch_selection.h"
#include "common/vector.h"
#include "expression/expression_executor.h"

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

// What a filter or join probe hands on: the rows kept, through each column's own selection,
// the columns sharing one selection sharing the composed one, nothing copied.
TEST(BatchSelectionTest, ReferenceSelectedComposesEachColumnsSelection) {
  Vector a(LogicalType::Integer());
  Vector b(LogicalType::Varchar());
  for (idx_t r = 0; r < 8; r++) {
    a.data<int32_t>()[r] = static_cast<int32_t>(r);
    b.data<StringRef>()[r] = b.AddString("b" + std::to_string(r));
  }
  Batch input({LogicalType::Integer(), LogicalType::Varchar(), LogicalType::Integer()});
  input.column(0).Reference(a);
  input.column(1).Reference(b);
  input.column(2).Reference(a);
  auto in_sel = std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{7, 5, 4, 2, 1});
  input.SetSelection(0, in_sel);
  input.SetSelection(2, in_sel);  // column 1 keeps its rows in order
  input.SetSize(5);

  SelectionPool pool;
  Batch output(input.types());
  const uint32_t keep[] = {0, 3, 4};
  ReferenceSelected(input, keep, 3, output, pool);
  ASSERT_EQ(output.size(), 3u);
  EXPECT_EQ(output.column(0).data<int32_t>(), a.data<int32_t>());  // referenced, not copied
  EXPECT_EQ(*output.selection(0), (std::vector<uint32_t>{7, 2, 1}));
  EXPECT_EQ(output.selection(0), output.selection(2));  // composed once
  EXPECT_EQ(*output.selection(1), (std::vector<uint32_t>{0, 3, 4}));
  output.Flatten();
  const std::vector<int32_t> want_a = {7, 2, 1};
  const std::vector<std::string> want_b = {"b0", "b3", "b4"};
  for (idx_t r = 0; r < 3; r++) {
    EXPECT_EQ(output.column(0).data<int32_t>()[r], want_a[r]);
    EXPECT_EQ(output.column(1).data<StringRef>()[r].view(), want_b[r]);
    EXPECT_EQ(output.column(2).data<int32_t>()[r], want_a[r]);
  }

  // Every row kept: each column passes its selection on as it is.
  Batch all(input.types());
  const uint32_t every[] = {0, 1, 2, 3, 4};
  ReferenceSelected(input, every, 5, all, pool);
  EXPECT_EQ(all.selection(0), in_sel);
  EXPECT_EQ(all.selection(1), nullptr);
}

TEST(BatchSelectionTest, SelectionPoolReusesOnlyBuffersNoBatchShows) {
  SelectionPool pool;
  auto first = pool.Get(4);
  const std::vector<uint32_t>* first_address = first.get();
  auto second = pool.Get(2);
  EXPECT_NE(first.get(), second.get());  // the first is still held
  first.reset();
  auto third = pool.Get(3);
  EXPECT_EQ(third.get(), first_address);
  EXPECT_EQ(third->size(), 3u);
}

TEST(BatchSelectionTest, FlattenColumnsCopiesOnlyTheColumnsAsked) {
  Vector a(LogicalType::Bigint());
  for (idx_t r = 0; r < 4; r++)
    a.data<int64_t>()[r] = static_cast<int64_t>(r * 100);
  Batch batch({LogicalType::Bigint(), LogicalType::Bigint()});
  batch.column(0).Reference(a);
  batch.column(1).Reference(a);
  auto sel = std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{3, 1});
  batch.SetSelection(0, sel);
  batch.SetSelection(1, sel);
  batch.SetSize(2);
  FlattenColumns(batch, {1});
  EXPECT_EQ(batch.selection(0), sel);
  EXPECT_EQ(batch.selection(1), nullptr);
  EXPECT_EQ(batch.column(1).data<int64_t>()[0], 300);
  EXPECT_EQ(batch.column(1).data<int64_t>()[1], 100);
  EXPECT_EQ(batch.column(0).data<int64_t>(), a.data<int64_t>());
}

TEST(BatchSelectionTest, ReferencedColumnsListsEachInputColumnOnce) {
  std::vector<BoundExprPtr> children;
  children.push_back(std::make_unique<BoundReference>(LogicalType::Bigint(), 4, "x"));
  children.push_back(std::make_unique<BoundReference>(LogicalType::Bigint(), 1, "y"));
  auto conjunction = std::make_unique<BoundConjunction>(true, std::move(children));
  BoundReference again(LogicalType::Bigint(), 4, "x");
  BoundConstant constant(Value::Integer(3));
  EXPECT_EQ(ReferencedColumns({conjunction.get(), &again, &constant}), (std::vector<idx_t>{1, 4}));
  EXPECT_TRUE(ReferencedColumns({&constant}).empty());
}

}  // namespace
}  // namespace shears
