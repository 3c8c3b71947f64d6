// Tables of huge pages (AllocateTable / FreeTable in execution/row_layout.h) must stay inside
// their own mapping: freeing one once unmapped the start of the mapping after it (memory of
// someone else), which crashed the aggregate tests after unrelated allocations.

#include <gtest/gtest.h>

#include <cstring>

#include <sys/mman.h>

#include "execution/row_layout.h"

namespace shears {
namespace {

TEST(RowLayoutTest, HugePageTablesLeaveTheirNeighboursMapped) {
  constexpr size_t kMiB = size_t{1} << 20;
  for (size_t bytes :
       {2 * kMiB, 2 * kMiB + 1, 3 * kMiB + 12345, 4 * kMiB - 1, 5 * kMiB + 7, 7 * kMiB + 999999}) {
    for (int round = 0; round < 8; round++) {
      // The kernel places a new mapping right below the last one: the table's mapping ends
      // where `neighbour` starts.
      const size_t neighbour_bytes = 4 * kMiB;
      void* raw = mmap(nullptr, neighbour_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      ASSERT_NE(raw, MAP_FAILED);
      auto* neighbour = static_cast<unsigned char*>(raw);
      std::memset(neighbour, 0x5a, neighbour_bytes);
      auto* table = static_cast<unsigned char*>(AllocateTable(bytes));
      ASSERT_NE(table, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(table) % (2 * kMiB), 0u);
      for (size_t i = 0; i < bytes; i += 4096)
        EXPECT_EQ(table[i], 0) << bytes;  // zeroed
      std::memset(table, 1, bytes);
      FreeTable(table, bytes);
      // Still mapped and untouched (an unmapped page would crash here).
      size_t intact = 0;
      for (size_t i = 0; i < neighbour_bytes; i += 4096)
        intact += neighbour[i] == 0x5a;
      EXPECT_EQ(intact, neighbour_bytes / 4096) << bytes;
      munmap(raw, neighbour_bytes);
    }
  }
}

}  // namespace
}  // namespace shears
