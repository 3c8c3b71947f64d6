// Tables of huge pages (AllocateTable / FreeTable in execution/row_layout.h) must stay inside
// their own mapping: freeing one once unmapped the start of the mapping after it (memory of
// someone else), which crashed the aggregate tests after unrelated allocations.

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "execution/query_context.h"
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

// Past kChunkFrom bytes a collection cuts its blocks from large chunks: rows still start
// zeroed, keep their addresses and contents through moves and merges, and the tracker counts
// the blocks cut, not the chunks' unused rest.
TEST(RowLayoutTest, ChunkedBlocksStartZeroedAndSurviveMerges) {
  constexpr uint32_t kWidth = 72;
  MemoryTracker memory(0);
  auto fill = [&](RowCollection& rows, idx_t count, uint64_t tag) {
    std::vector<uint8_t*> out;
    for (idx_t i = 0; i < count; i++) {
      uint8_t* row = rows.AppendRow();
      for (uint32_t b = 0; b < kWidth; b++)
        EXPECT_EQ(row[b], 0) << "row " << i << " byte " << b;
      StoreRow<uint64_t>(row, tag + i);
      StoreRow<uint64_t>(row + kWidth - 8, ~(tag + i));
      out.push_back(row);
    }
    // Batches through AppendRows too, across block and chunk ends.
    std::vector<uint8_t*> batch(3000);
    rows.AppendRows(batch.size(), batch.data());
    for (idx_t i = 0; i < batch.size(); i++) {
      for (uint32_t b = 0; b < kWidth; b++)
        EXPECT_EQ(batch[i][b], 0) << "batch row " << i << " byte " << b;
      StoreRow<uint64_t>(batch[i], tag + count + i);
      StoreRow<uint64_t>(batch[i] + kWidth - 8, ~(tag + count + i));
      out.push_back(batch[i]);
    }
    return out;
  };
  auto check = [&](const RowCollection& rows, uint64_t tag, idx_t count) {
    idx_t seen = 0;
    for (const auto& block : rows.blocks()) {
      for (uint32_t i = 0; i < block.count; i++) {
        const uint8_t* row = block.data + static_cast<size_t>(i) * kWidth;
        const uint64_t value = LoadRow<uint64_t>(row);
        if (value < tag || value >= tag + count) continue;
        EXPECT_EQ(LoadRow<uint64_t>(row + kWidth - 8), ~value);
        seen++;
      }
    }
    EXPECT_EQ(seen, count);
  };
  // 100k rows of 72 bytes: 7 MB, the last 5 MB cut from chunks.
  constexpr idx_t kRows = 100000;
  RowCollection a(kWidth, &memory);
  auto rows_a = fill(a, kRows, 0);
  EXPECT_EQ(a.row_count(), kRows + 3000);
  int64_t block_bytes = 0;
  for (const auto& block : a.blocks())
    block_bytes += static_cast<int64_t>(block.capacity) * kWidth;
  EXPECT_EQ(a.bytes(), block_bytes);
  EXPECT_EQ(memory.used(), block_bytes);
  RowCollection b(kWidth, &memory);
  auto rows_b = fill(b, kRows, uint64_t{1} << 40);
  a.Merge(std::move(b));
  EXPECT_EQ(b.row_count(), 0u);
  // Merged rows stay where they were, and the merged collection goes on cutting blocks.
  auto rows_c = fill(a, 40000, uint64_t{2} << 40);
  RowCollection moved(std::move(a));
  EXPECT_EQ(moved.row_count(), 2 * (kRows + 3000) + 43000);
  EXPECT_EQ(LoadRow<uint64_t>(rows_b[5]), (uint64_t{1} << 40) + 5);
  check(moved, 0, kRows + 3000);
  check(moved, uint64_t{1} << 40, kRows + 3000);
  check(moved, uint64_t{2} << 40, 43000);
  for (const auto& block : moved.blocks())
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block.data) % 16, 0u);
  EXPECT_EQ(memory.used(), moved.bytes());
  moved = RowCollection(kWidth, &memory);
  EXPECT_EQ(memory.used(), 0);
}

}  // namespace
}  // namespace shears
