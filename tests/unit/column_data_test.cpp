// ColumnDataCollection (what UNION ALL, CTEs and other materializing operators hold) copies a
// batch's strings into the copy's own heap: the values survive the source, NULLs stay NULL,
// and a column's bytes are allocated once (contiguous), not in a chain of doubling chunks.

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "execution/column_data.h"

namespace shears {
namespace {

TEST(ColumnDataTest, DeepCopyKeepsStringsInOneAllocation) {
  const std::vector<LogicalType> types = {LogicalType::Varchar(), LogicalType::Integer()};
  constexpr idx_t kRows = 2000;
  auto text = [](idx_t r) { return std::string(1 + r % 37, static_cast<char>('a' + r % 26)); };
  Batch source(types);
  for (idx_t r = 0; r < kRows; r++) {
    source.column(1).data<int32_t>()[r] = static_cast<int32_t>(r);
    if (r % 9 == 4) {
      source.column(0).validity().SetNull(r);
    } else {
      source.column(0).data<StringRef>()[r] = source.column(0).AddString(text(r));
    }
  }
  source.SetSize(kRows);
  ColumnDataCollection rows(types, nullptr);
  rows.Append(source);
  // The source's bytes are overwritten: the copy must not point into them.
  for (idx_t r = 0; r < kRows; r++) {
    const StringRef s = source.column(0).data<StringRef>()[r];
    if (r % 9 != 4) std::memset(const_cast<char*>(s.ptr), '#', s.len);
  }
  ASSERT_EQ(rows.row_count(), kRows);
  const Batch& copy = rows.batch(0);
  const char* next = nullptr;
  for (idx_t r = 0; r < kRows; r++) {
    EXPECT_EQ(copy.column(1).data<int32_t>()[r], static_cast<int32_t>(r));
    if (r % 9 == 4) {
      EXPECT_TRUE(copy.column(0).IsNull(r)) << r;
      continue;
    }
    const StringRef s = copy.column(0).data<StringRef>()[r];
    EXPECT_EQ(std::string(s.view()), text(r)) << r;
    // One allocation: each string follows the previous one.
    if (next) EXPECT_EQ(s.ptr, next) << r;
    next = s.ptr + s.len;
  }
}

}  // namespace
}  // namespace shears
