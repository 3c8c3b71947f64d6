// The join hash table built serially and with several threads: every key's chain holds exactly
// the build rows with that key, NULL keys are left out unless null_equal, the distinct count,
// the direct array and its bounds are the same either way.

#include "execution/join_hash_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/vector.h"
#include "execution/query_context.h"

namespace shears {
namespace {

// One key column's values; nullopt is NULL. Strings are kept as text and converted per type.
using Column = std::vector<std::optional<std::string>>;

struct Case {
  std::vector<LogicalType> types;
  std::vector<bool> null_equal;
  std::vector<Column> keys;  // keys[c][row]
  idx_t rows() const { return keys[0].size(); }
};

void SetValue(Vector& v, idx_t row, const std::optional<std::string>& value) {
  if (!value) {
    v.validity().SetNull(row);
    return;
  }
  switch (v.type().physical()) {
    case PhysicalType::kInt32:
      v.data<int32_t>()[row] = std::stoi(*value);
      break;
    case PhysicalType::kInt64:
      v.data<int64_t>()[row] = std::stoll(*value);
      break;
    default:
      v.data<StringRef>()[row] = v.AddString(*value);
      break;
  }
}

// Fills vectors with c's rows at[0..count) and their hashes.
void Load(const Case& c, const idx_t* at, idx_t count, std::vector<Vector>& keys,
          std::vector<uint64_t>& hashes) {
  keys.clear();
  for (const auto& type : c.types)
    keys.emplace_back(type);
  for (idx_t k = 0; k < c.types.size(); k++) {
    for (idx_t r = 0; r < count; r++)
      SetValue(keys[k], r, c.keys[k][at[r]]);
    HashVector(keys[k], count, hashes.data(), k > 0);
  }
}

// The table over c's rows with a payload column holding each row's index, as the join's sink
// lays rows out.
std::unique_ptr<JoinHashTable> BuildTable(const Case& c, int threads,
                                          MemoryTracker* memory = nullptr) {
  auto table = std::make_unique<JoinHashTable>(c.types, std::vector{LogicalType::Bigint()},
                                               c.null_equal, true, memory);
  const RowLayout& layout = table->layout();
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<uint8_t*> rows(kBatchSize);
  std::vector<Vector> keys;
  Vector ids(LogicalType::Bigint());
  std::vector<idx_t> at(c.rows());
  for (idx_t r = 0; r < c.rows(); r++)
    at[r] = r;
  for (idx_t from = 0; from < c.rows(); from += kBatchSize) {
    const idx_t count = std::min<idx_t>(kBatchSize, c.rows() - from);
    Load(c, at.data() + from, count, keys, hashes);
    for (idx_t r = 0; r < count; r++)
      ids.data<int64_t>()[r] = static_cast<int64_t>(from + r);
    table->rows().AppendRows(count, rows.data());
    for (idx_t r = 0; r < count; r++)
      StoreRow<uint64_t>(rows[r], hashes[r]);
    for (idx_t k = 0; k < keys.size(); k++)
      ScatterColumn(layout, k, keys[k], nullptr, count, rows.data(), &table->rows().arena());
    ScatterColumn(layout, keys.size(), ids, nullptr, count, rows.data(), &table->rows().arena());
  }
  table->Build(threads);
  return table;
}

// Whether row `r` of c can match (no NULL in a key that is not null_equal).
bool Matchable(const Case& c, idx_t r) {
  for (idx_t k = 0; k < c.types.size(); k++) {
    if (!c.null_equal[k] && !c.keys[k][r]) return false;
  }
  return true;
}

// The sorted build row indexes of the chain each of `probes` (rows of c, matchable) finds.
std::vector<std::vector<int64_t>> ProbeRows(const Case& c, const JoinHashTable& table,
                                            const std::vector<idx_t>& probes) {
  std::vector<std::vector<int64_t>> out(probes.size());
  std::vector<uint64_t> hashes(kBatchSize);
  std::vector<uint8_t*> heads(kBatchSize);
  std::vector<uint32_t> sel(kBatchSize);
  std::vector<Vector> keys;
  JoinHashTable::ProbeScratch scratch;
  const uint32_t id_offset = table.layout().offsets[c.types.size()];
  for (idx_t from = 0; from < probes.size(); from += kBatchSize) {
    const idx_t count = std::min<idx_t>(kBatchSize, probes.size() - from);
    Load(c, probes.data() + from, count, keys, hashes);
    for (idx_t r = 0; r < count; r++) {
      heads[r] = nullptr;
      sel[r] = static_cast<uint32_t>(r);
    }
    if (table.direct()) {
      table.ProbeDirect(keys[0], sel.data(), count, heads.data());
    } else {
      std::vector<const Vector*> key_ptrs;
      for (const auto& v : keys)
        key_ptrs.push_back(&v);
      table.Probe(key_ptrs, hashes.data(), sel.data(), count, heads.data(), scratch);
    }
    for (idx_t r = 0; r < count; r++) {
      auto& chain = out[from + r];
      for (const uint8_t* row = heads[r]; row; row = JoinHashTable::Next(row))
        chain.push_back(LoadRow<int64_t>(row + id_offset));
      std::sort(chain.begin(), chain.end());
    }
  }
  return out;
}

// Checks the serial and the threaded table of c against the keys counted here: probing one
// row of each key finds exactly that key's rows, so no NULL-key row is in any chain.
void Check(const Case& c, bool expect_direct, MemoryTracker* serial_memory = nullptr,
           MemoryTracker* parallel_memory = nullptr) {
  std::map<std::vector<std::optional<std::string>>, std::vector<int64_t>> groups;
  for (idx_t r = 0; r < c.rows(); r++) {
    if (!Matchable(c, r)) continue;
    std::vector<std::optional<std::string>> key;
    for (const auto& column : c.keys)
      key.push_back(column[r]);
    groups[key].push_back(static_cast<int64_t>(r));
  }
  std::vector<idx_t> probes;
  for (const auto& [key, rows] : groups)
    probes.push_back(static_cast<idx_t>(rows.front()));
  auto serial = BuildTable(c, 1, serial_memory);
  auto parallel = BuildTable(c, 4, parallel_memory);
  EXPECT_EQ(serial->build_threads(), 1u);
  EXPECT_EQ(parallel->build_threads(), 4u);
  for (const JoinHashTable* table : {serial.get(), parallel.get()}) {
    EXPECT_EQ(table->distinct_keys(), groups.size());
    EXPECT_EQ(table->direct(), expect_direct);
    const auto chains = ProbeRows(c, *table, probes);
    idx_t g = 0;
    for (const auto& [key, rows] : groups) {
      ASSERT_EQ(chains[g], rows) << "key of row " << rows.front() << ", threads "
                                 << table->build_threads();
      g++;
    }
  }
}

std::optional<std::string> Text(int64_t v) {
  return std::to_string(v);
}

constexpr idx_t kRows = 200000;  // over JoinHashTable::kParallelBuildRows, 4 threads' worth

TEST(JoinHashTableTest, ManyDuplicatesAndNullsDirectArray) {
  // 1,000 keys of 200 rows each; every 97th row NULL: dense, so the direct array is made.
  Case c{{LogicalType::Bigint()}, {false}, {Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++)
    c.keys[0][r] = r % 97 == 0 ? std::nullopt : Text(static_cast<int64_t>(r % 1000) - 300);
  Check(c, true);
}

TEST(JoinHashTableTest, DirectArrayWithoutRoomToListHeads) {
  // The direct array is filled from the rows listed as heads while inserting; without room
  // under the memory limit for that list (a position per row), from a scan of the table: the
  // same array. The limit leaves room for the rows, the table and the array (what an unlimited
  // build holds after Build), not for the list beside them (800 kB here, the array 8 kB).
  Case c{{LogicalType::Bigint()}, {false}, {Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++)
    c.keys[0][r] = r % 89 == 0 ? std::nullopt : Text(static_cast<int64_t>(r % 1000) * 3 % 1000);
  // What a build holds after Build() (the list released), and at its peak (with the list).
  auto held = [&](int threads) {
    MemoryTracker unlimited(0);
    auto table = BuildTable(c, threads, &unlimited);
    EXPECT_TRUE(table->direct());
    return std::pair{unlimited.used(), unlimited.peak()};
  };
  const auto [serial_used, serial_peak] = held(1);
  const auto [parallel_used, parallel_peak] = held(4);
  MemoryTracker serial(serial_used + 64), parallel(parallel_used + 64);
  Check(c, true, &serial, &parallel);
  // The unlimited builds listed the heads, the limited ones could not.
  EXPECT_GE(serial_peak, serial.peak() + static_cast<int64_t>(kRows * 4 / 2));
  EXPECT_GE(parallel_peak, parallel.peak() + static_cast<int64_t>(kRows * 4 / 2));
}

TEST(JoinHashTableTest, SparseIntegerKeysHashOnly) {
  // Keys far apart: no direct array; two rows per key, in different halves of the build.
  Case c{{LogicalType::Integer()}, {false}, {Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++)
    c.keys[0][r] = Text(static_cast<int64_t>(r % (kRows / 2)) * 9973 - 1000000000);
  Check(c, false);
}

TEST(JoinHashTableTest, StringKeysMostlyDistinct) {
  Case c{{LogicalType::Varchar()}, {false}, {Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++)
    c.keys[0][r] = r % 1009 == 0 ? std::nullopt : Text(static_cast<int64_t>(r % 150000));
  for (auto& v : c.keys[0]) {
    if (v) *v = "key-" + *v + std::string(v->size() % 3 * 10, 'x');  // some not inlined
  }
  Check(c, false);
}

TEST(JoinHashTableTest, MultiColumnKeysWithNullEqual) {
  // (INTEGER, VARCHAR IS NOT DISTINCT FROM): NULL in the second key is a key of its own, NULL
  // in the first drops the row.
  Case c{{LogicalType::Integer(), LogicalType::Varchar()},
         {false, true},
         {Column(kRows), Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++) {
    c.keys[0][r] = r % 101 == 0 ? std::nullopt : Text(static_cast<int64_t>(r % 300));
    c.keys[1][r] =
        r % 7 == 0 ? std::nullopt : std::optional<std::string>("s" + Text(r % 11).value());
  }
  Check(c, false);
}

TEST(JoinHashTableTest, OneKeyForEveryRow) {
  // Every row in one chain: all threads link behind the same head.
  Case c{{LogicalType::Bigint()}, {true}, {Column(kRows)}};
  for (idx_t r = 0; r < kRows; r++)
    c.keys[0][r] = Text(42);
  Check(c, false);  // null_equal keys never take the direct array
}

TEST(JoinHashTableTest, SmallBuildStaysSerial) {
  Case c{{LogicalType::Bigint()}, {false}, {Column(1000)}};
  for (idx_t r = 0; r < 1000; r++)
    c.keys[0][r] = Text(static_cast<int64_t>(r % 10));
  auto table = BuildTable(c, 4);
  EXPECT_EQ(table->build_threads(), 1u);
  EXPECT_EQ(table->distinct_keys(), 10u);
}

}  // namespace
}  // namespace shears
