// Tables of huge pages (AllocateTable / FreeTable in execution/row_layout.h) must stay inside
// their own mapping: freeing one once unmapped the start of the mapping after it (memory of
// someone else), which crashed the aggregate tests after unrelated allocations.

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "execution/row_layout.h"

namespace shears {
namespace {

// A mapping filled with a pattern, placed by the kernel right above the next table's mapping;
// Intact() says it is still mapped and untouched (an unmapped page would crash).
struct Neighbour {
  static constexpr size_t kBytes = size_t{4} << 20;
  unsigned char* data = nullptr;
  Neighbour() {
    void* raw = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw != MAP_FAILED) data = static_cast<unsigned char*>(raw);
    if (data) std::memset(data, 0x5a, kBytes);
  }
  ~Neighbour() {
    if (data) munmap(data, kBytes);
  }
  bool Intact() const {
    for (size_t i = 0; i < kBytes; i += 4096)
      if (data[i] != 0x5a) return false;
    return true;
  }
};

TEST(RowLayoutTest, HugePageTablesLeaveTheirNeighboursMapped) {
  constexpr size_t kMiB = size_t{1} << 20;
  for (size_t bytes :
       {2 * kMiB, 2 * kMiB + 1, 3 * kMiB + 12345, 4 * kMiB - 1, 5 * kMiB + 7, 7 * kMiB + 999999}) {
    for (int round = 0; round < 8; round++) {
      // The kernel places a new mapping right below the last one: the table's mapping ends
      // where `neighbour` starts.
      Neighbour neighbour;
      ASSERT_NE(neighbour.data, nullptr);
      auto* table = static_cast<unsigned char*>(AllocateTable(bytes));
      ASSERT_NE(table, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(table) % (2 * kMiB), 0u);
      for (size_t i = 0; i < bytes; i += 4096)
        EXPECT_EQ(table[i], 0) << bytes;  // zeroed
      std::memset(table, 1, bytes);
      FreeTable(table, bytes);
      EXPECT_TRUE(neighbour.Intact()) << bytes;
    }
  }
}

// GrowTable extends a mapped table in place: the contents stay at their offsets, the new part
// is zero, and freeing the grown table with its new size leaves the neighbours mapped.
TEST(RowLayoutTest, GrowTableKeepsContentsAndZeroesTheRest) {
  constexpr size_t kMiB = size_t{1} << 20;
  EXPECT_EQ(GrowTable(nullptr, 4 * kMiB, 8 * kMiB), nullptr);
  void* small = AllocateTable(64 * 1024);  // malloc'ed: not grown in place
  EXPECT_EQ(GrowTable(small, 64 * 1024, 4 * kMiB), nullptr);
  FreeTable(small, 64 * 1024);
  for (size_t from : {2 * kMiB, 3 * kMiB + 5}) {
    for (size_t to : {from, from + 1, 5 * kMiB + 7, 17 * kMiB}) {
      Neighbour neighbour;
      ASSERT_NE(neighbour.data, nullptr);
      auto* table = static_cast<unsigned char*>(AllocateTable(from));
      ASSERT_NE(table, nullptr);
      for (size_t i = 0; i < from; i++)
        table[i] = static_cast<unsigned char>(i * 7 + 1);
      auto* grown = static_cast<unsigned char*>(GrowTable(table, from, to));
      ASSERT_NE(grown, nullptr) << from << " -> " << to;
      size_t kept = 0, zero = 0;
      for (size_t i = 0; i < from; i++)
        kept += grown[i] == static_cast<unsigned char>(i * 7 + 1);
      for (size_t i = from; i < to; i++)
        zero += grown[i] == 0;
      EXPECT_EQ(kept, from);
      EXPECT_EQ(zero, to - from);
      FreeTable(grown, to);
      EXPECT_TRUE(neighbour.Intact());
    }
  }
}

// CopyRowStrings puts each selected row's strings side by side in the arena (the string keys
// of a group or build row then share cache lines): values, NULLs and empty strings survive,
// the copies no longer point into the input, and rows outside the selection are untouched.
TEST(RowLayoutTest, CopyRowStringsKeepsEachRowsStringsTogether) {
  const std::vector<LogicalType> types = {LogicalType::Varchar(), LogicalType::Integer(),
                                          LogicalType::Varchar(), LogicalType::Blob()};
  RowLayout layout(types, 8);
  constexpr idx_t kRows = 300;
  auto text = [](idx_t col, idx_t r) -> std::optional<std::string> {
    if ((r + col) % 7 == 0) return std::nullopt;
    if ((r + col) % 5 == 0) return std::string();
    return std::string(1 + (r * 13 + col) % 40, static_cast<char>('a' + (r + col) % 26));
  };
  std::vector<Vector> columns;
  for (const auto& type : types)
    columns.emplace_back(type);
  for (idx_t r = 0; r < kRows; r++) {
    columns[1].data<int32_t>()[r] = static_cast<int32_t>(r);
    for (idx_t col : {0, 2, 3}) {
      auto value = text(col, r);
      if (value) {
        columns[col].data<StringRef>()[r] = columns[col].AddString(*value);
      } else {
        columns[col].validity().SetNull(r);
      }
    }
  }
  std::vector<uint32_t> sel;
  for (uint32_t r = 0; r < kRows; r++)
    if (r % 3 != 1) sel.push_back(r);
  RowCollection rows(layout.row_width, nullptr);
  std::vector<uint8_t*> row_of(kRows);
  rows.AppendRows(kRows, row_of.data());
  for (idx_t col = 0; col < types.size(); col++)
    ScatterColumn(layout, col, columns[col], sel.data(), sel.size(), row_of.data(), nullptr);
  CopyRowStrings(layout, 0, types.size(), sel.data(), sel.size(), row_of.data(), rows.arena());
  // Overwrite the input's bytes: the rows must hold copies.
  for (idx_t col : {0, 2, 3}) {
    for (idx_t r = 0; r < kRows; r++) {
      const StringRef s = columns[col].data<StringRef>()[r];
      if (columns[col].validity().IsValid(r) && s.len > 0)
        std::memset(const_cast<char*>(s.ptr), '#', s.len);
    }
  }
  for (uint32_t r = 0; r < kRows; r++) {
    const uint8_t* row = row_of[r];
    const bool selected = r % 3 != 1;
    const char* next = nullptr;  // where the row's next non-empty string must start
    for (idx_t col : {0, 2, 3}) {
      const auto expected = text(col, r);
      ASSERT_EQ(layout.IsValid(row, col), selected && expected.has_value()) << r << " " << col;
      if (!selected || !expected) continue;
      const auto s = LoadRow<StringRef>(row + layout.offsets[col]);
      EXPECT_EQ(std::string(s.view()), *expected) << r << " " << col;
      if (s.len == 0) continue;
      if (next) EXPECT_EQ(s.ptr, next) << r << " " << col;
      next = s.ptr + s.len;
    }
    if (selected) EXPECT_EQ(LoadRow<int32_t>(row + layout.offsets[1]), static_cast<int32_t>(r));
  }
}

}  // namespace
}  // namespace shears
