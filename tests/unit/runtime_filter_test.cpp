// Runtime join filters: the bloom filter's false positive rate, the kind chosen from what the
// build produced, probing (NULLs, selections), merging partial filters and range checks.

#include "dynfilter/runtime_filter.h"
#include "dynfilter/dynamic_filter.h"
#include "dynfilter/runtime_filter_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>

#include <absl/container/flat_hash_set.h>

#include "common/error.h"
#include "execution/row_layout.h"
#include "expression/expression.h"
#include "storage/parquet/minmax_pruning.h"

namespace shears {
namespace {

Vector Int64s(const std::vector<int64_t>& values) {
  Vector v(LogicalType::Bigint(), std::max<idx_t>(values.size(), 1));
  for (size_t i = 0; i < values.size(); i++)
    v.data<int64_t>()[i] = values[i];
  return v;
}

std::vector<int64_t> Range(int64_t from, int64_t to) {
  std::vector<int64_t> out;
  for (int64_t i = from; i < to; i++)
    out.push_back(i);
  return out;
}

std::unique_ptr<RuntimeFilter> Build(const std::vector<int64_t>& keys,
                                     RuntimeFilterLimits limits = {}) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  Vector v = Int64s(keys);
  filter->Add({&v}, keys.size());
  filter->Finish(limits, keys.size(), 0);
  return filter;
}

std::vector<uint32_t> Survivors(const RuntimeFilter& filter, const Vector& keys, idx_t count,
                                const uint32_t* sel = nullptr) {
  std::vector<uint32_t> out(count);
  std::vector<uint64_t> hashes;
  out.resize(filter.Probe({&keys}, count, sel, out.data(), hashes));
  return out;
}

uint64_t HashOf(int64_t value) {
  Vector v = Int64s({value});
  uint64_t hash;
  HashVector(v, 1, &hash, false);
  return hash;
}

// The runtime bloom filter is Parquet's split-block filter keyed by the join's own hash.
TEST(RuntimeBloomTest, JoinHashesKeepTheFalsePositiveRate) {
  const uint64_t keys = 100000;
  auto bloom = parquet::SplitBlockBloomFilter::ForNdv(keys, 0.01);
  for (uint64_t k = 0; k < keys; k++)
    bloom.InsertHash(HashOf(static_cast<int64_t>(k)));
  for (uint64_t k = 0; k < keys; k++)
    ASSERT_TRUE(bloom.MightContainHash(HashOf(static_cast<int64_t>(k)))) << k;
  uint64_t false_positives = 0;
  const uint64_t probes = 1000000;
  for (uint64_t k = 0; k < probes; k++)
    false_positives += bloom.MightContainHash(HashOf(static_cast<int64_t>(keys + 1000 + k)));
  // Sized for 1%; the join hash is not XXH64, so allow a little slack.
  EXPECT_LT(static_cast<double>(false_positives) / probes, 0.0125)
      << false_positives << " false positives";
}

TEST(RuntimeBloomTest, UnionOfPartials) {
  auto a = parquet::SplitBlockBloomFilter::ForNdv(1000, 0.01);
  auto b = parquet::SplitBlockBloomFilter::ForNdv(1000, 0.01);
  for (int64_t k = 0; k < 500; k++)
    a.InsertHash(HashOf(k));
  for (int64_t k = 500; k < 1000; k++)
    b.InsertHash(HashOf(k));
  a.Union(b);
  for (int64_t k = 0; k < 1000; k++)
    EXPECT_TRUE(a.MightContainHash(HashOf(k))) << k;
  auto small = parquet::SplitBlockBloomFilter::ForNdv(10, 0.01);
  EXPECT_THROW(a.Union(small), InternalError);
}

// Keys computed from an INTEGER column as (CAST(x AS BIGINT) + 10): mapped back by
// subtracting 10, then kept only where the value fits INTEGER.
TEST(RuntimeFilterKeyInverseTest, MapsBackAndDropsKeysNoColumnValueGives) {
  RuntimeFilterKeyInverse inverse;
  inverse.column_type = LogicalType::Integer();
  inverse.steps = {{-10, false}, {0, true}};
  int64_t value = 15;
  EXPECT_TRUE(inverse.Apply(value));
  EXPECT_EQ(value, 5);
  value = int64_t{INT32_MAX} + 11;
  EXPECT_FALSE(inverse.Apply(value));
  value = int64_t{INT32_MIN} + 10;
  EXPECT_TRUE(inverse.Apply(value));
  EXPECT_EQ(value, INT32_MIN);
  value = INT64_MIN + 5;  // subtracting overflows: no column value
  EXPECT_FALSE(inverse.Apply(value));
}

TEST(RuntimeFilterTest, SmallBuildIsExactSet) {
  auto filter = Build({10, 20, 30, 20});
  ASSERT_TRUE(filter->enabled());
  EXPECT_EQ(filter->kinds(), kRuntimeFilterExactSet | kRuntimeFilterRange);
  EXPECT_EQ(RuntimeFilterKindName(filter->kinds()), "exact_set+range");
  EXPECT_EQ(filter->distinct_keys(), 3u);
  Vector probe = Int64s({5, 10, 15, 20, 25, 30, 35});
  EXPECT_EQ(Survivors(*filter, probe, 7), (std::vector<uint32_t>{1, 3, 5}));
}

TEST(RuntimeFilterTest, LargeBuildIsBloomWithoutFalseNegatives) {
  RuntimeFilterLimits limits;
  limits.max_exact_keys = 100;
  auto filter = Build(Range(0, 5000), limits);
  EXPECT_EQ(filter->kinds(), kRuntimeFilterBloom | kRuntimeFilterRange);
  EXPECT_EQ(filter->distinct_keys(), 5000u);
  Vector inside = Int64s(Range(0, 2048));
  EXPECT_EQ(Survivors(*filter, inside, 2048).size(), 2048u);
  Vector outside = Int64s(Range(100000, 102048));
  EXPECT_LT(Survivors(*filter, outside, 2048).size(), 20u);
}

TEST(RuntimeFilterTest, TooManyKeysDisablesTheFilter) {
  RuntimeFilterLimits limits;
  limits.max_keys = 10;
  auto filter = Build(Range(0, 11), limits);
  EXPECT_FALSE(filter->enabled());
  EXPECT_NE(filter->disabled_reason().find("11 distinct keys"), std::string::npos);
}

TEST(RuntimeFilterTest, NullProbeKeysAreDroppedAndSelectionIsHonoured) {
  auto filter = Build({1, 2, 3});
  Vector probe = Int64s({1, 2, 3, 4});
  probe.validity().SetNull(1);
  EXPECT_EQ(Survivors(*filter, probe, 4), (std::vector<uint32_t>{0, 2}));
  const uint32_t sel[] = {2, 3};
  EXPECT_EQ(Survivors(*filter, probe, 2, sel), (std::vector<uint32_t>{2}));
  RuntimeFilterLimits bloom_only;
  bloom_only.max_exact_keys = 0;
  auto bloom = Build({1, 2, 3}, bloom_only);
  EXPECT_EQ(Survivors(*bloom, probe, 4), (std::vector<uint32_t>{0, 2}));
}

TEST(RuntimeFilterTest, EmptyBuildDropsEverything) {
  auto filter = Build({});
  ASSERT_TRUE(filter->enabled());
  EXPECT_TRUE(filter->empty());
  Vector probe = Int64s({1, 2});
  EXPECT_TRUE(Survivors(*filter, probe, 2).empty());
  EXPECT_FALSE(filter->RangeMayMatch(0, Value::Bigint(0), Value::Bigint(100)));
}

TEST(RuntimeFilterTest, RangeChecksUseTheExactSet) {
  auto filter = Build({10, 500});
  EXPECT_TRUE(filter->RangeMayMatch(0, Value::Bigint(0), Value::Bigint(10)));
  EXPECT_TRUE(filter->RangeMayMatch(0, Value::Bigint(400), Value::Bigint(600)));
  // Inside [min, max] but holding no key: only the set can tell.
  EXPECT_FALSE(filter->RangeMayMatch(0, Value::Bigint(11), Value::Bigint(499)));
  EXPECT_FALSE(filter->RangeMayMatch(0, Value::Bigint(501), Value::Bigint(1000)));
  RuntimeFilterLimits limits;
  limits.max_exact_keys = 1;
  // Past the exact set limit, keys spanning a small range are a bitmap, which tells as well.
  auto bitmap = Build({10, 500}, limits);
  EXPECT_FALSE(bitmap->RangeMayMatch(0, Value::Bigint(11), Value::Bigint(499)));
  // A bloom filter only has the range.
  auto bloom = Build({10, 10'000'000'000}, limits);
  ASSERT_EQ(bloom->probe_form(), RuntimeFilterProbeForm::kBloom);
  EXPECT_TRUE(bloom->RangeMayMatch(0, Value::Bigint(11), Value::Bigint(499)));
  EXPECT_FALSE(
      bloom->RangeMayMatch(0, Value::Bigint(10'000'000'001), Value::Bigint(20'000'000'000)));
}

TEST(RuntimeFilterTest, StringKeys) {
  RuntimeFilter filter({LogicalType::Varchar()});
  Vector build(LogicalType::Varchar(), 3);
  const char* words[] = {"apple", "kiwi", "pear"};
  for (int i = 0; i < 3; i++)
    build.data<StringRef>()[i] = StringRef(std::string_view(words[i]));
  filter.Add({&build}, 3);
  filter.Finish({}, 3, 0);
  EXPECT_EQ(filter.kinds(), kRuntimeFilterExactSet | kRuntimeFilterRange);
  Vector probe(LogicalType::Varchar(), 3);
  const char* probes[] = {"banana", "kiwi", "pear"};
  for (int i = 0; i < 3; i++)
    probe.data<StringRef>()[i] = StringRef(std::string_view(probes[i]));
  EXPECT_EQ(Survivors(filter, probe, 3), (std::vector<uint32_t>{1, 2}));
  EXPECT_FALSE(filter.RangeMayMatch(0, Value::Varchar("b"), Value::Varchar("c")));
  EXPECT_TRUE(filter.RangeMayMatch(0, Value::Varchar("k"), Value::Varchar("l")));
}

TEST(RuntimeFilterTest, PartialFiltersMerge) {
  // Two threads' partials: sets united, ranges widened.
  RuntimeFilter a({LogicalType::Bigint()}), b({LogicalType::Bigint()});
  Vector va = Int64s({1, 2}), vb = Int64s({100, 200});
  a.Add({&va}, 2);
  b.Add({&vb}, 2);
  a.Merge(std::move(b));
  a.Finish({}, 4, 0);
  EXPECT_EQ(a.distinct_keys(), 4u);
  EXPECT_EQ(a.min()->GetInt64(), 1);
  EXPECT_EQ(a.max()->GetInt64(), 200);
  Vector probe = Int64s({1, 50, 200});
  EXPECT_EQ(Survivors(a, probe, 3), (std::vector<uint32_t>{0, 2}));
}

TEST(RuntimeFilterTest, MultiColumnKeyUsesCombinedHash) {
  RuntimeFilter filter({LogicalType::Bigint(), LogicalType::Bigint()});
  Vector a = Int64s({1, 2}), b = Int64s({10, 20});
  filter.Add({&a, &b}, 2);
  filter.Finish({}, 2, 0);
  EXPECT_EQ(filter.kinds(), kRuntimeFilterBloom | kRuntimeFilterRange);
  // Each key column has its own range.
  EXPECT_FALSE(filter.RangeMayMatch(0, Value::Bigint(3), Value::Bigint(9)));
  EXPECT_TRUE(filter.RangeMayMatch(1, Value::Bigint(3), Value::Bigint(10)));
  EXPECT_FALSE(filter.RangeMayMatch(1, Value::Bigint(21), Value::Bigint(90)));
  Vector pa = Int64s({1, 1, 2, 2}), pb = Int64s({10, 20, 20, 10});
  std::vector<uint32_t> out(4);
  std::vector<uint64_t> hashes;
  const idx_t kept = filter.Probe({&pa, &pb}, 4, nullptr, out.data(), hashes);
  // (1,10) and (2,20) are in; the crossed pairs are not (barring a false positive).
  ASSERT_GE(kept, 2u);
  EXPECT_EQ(out[0], 0u);
  EXPECT_LE(kept, 3u);
}

TEST(RuntimeFilterTest, MultiColumnKeyListsEachColumnsKeys) {
  RuntimeFilter filter({LogicalType::Bigint(), LogicalType::Bigint()});
  Vector a = Int64s({1, 2}), b = Int64s({10, 50});
  filter.Add({&a, &b}, 2);
  // A partial built elsewhere (another rank) merges its columns' keys too.
  RuntimeFilter other({LogicalType::Bigint(), LogicalType::Bigint()});
  Vector oa = Int64s({3}), ob = Int64s({70});
  other.Add({&oa, &ob}, 1);
  filter.MergeEncoded(other.EncodeBuild());
  filter.Finish({}, 3, 0);
  ASSERT_NE(filter.column_filter(1), nullptr);
  // b's range [10, 70] holds [30, 40], its keys do not.
  EXPECT_FALSE(filter.RangeMayMatch(1, Value::Bigint(30), Value::Bigint(40)));
  EXPECT_TRUE(filter.RangeMayMatch(1, Value::Bigint(60), Value::Bigint(70)));
  EXPECT_TRUE(filter.RangeMayMatch(0, Value::Bigint(3), Value::Bigint(3)));
  EXPECT_EQ(ColumnKeysText(filter), ", column keys: 3 exact_set, 3 exact_set");
  // A partial that stopped listing (too many build rows) stops the merged filter's listing.
  RuntimeFilter large({LogicalType::Bigint(), LogicalType::Bigint()});
  const auto keys = Range(0, 70000);
  Vector la = Int64s(keys), lb = Int64s(keys);
  large.Add({&la, &lb}, keys.size());
  RuntimeFilter small({LogicalType::Bigint(), LogicalType::Bigint()});
  small.Add({&a, &b}, 2);
  small.MergeEncoded(large.EncodeBuild());
  small.Finish({}, 70002, 0);
  EXPECT_EQ(small.column_filter(0), nullptr);
  EXPECT_EQ(ColumnKeysText(small), ", column keys: not listed, not listed");
  EXPECT_TRUE(small.RangeMayMatch(1, Value::Bigint(30), Value::Bigint(40)));
}

}  // namespace
}  // namespace shears

namespace shears {
namespace {

// Batches of kBatchSize keys, all equal to `key`.
idx_t ApplyBatch(RuntimeFilterProbes& probes, int64_t key) {
  Batch batch({LogicalType::Bigint()});
  for (idx_t r = 0; r < kBatchSize; r++)
    batch.column(0).data<int64_t>()[r] = key;
  batch.SetSize(kBatchSize);
  uint64_t dropped = 0;
  return probes.Apply(batch, nullptr, &dropped);
}

// ---- probe forms: each must give the same rows as the exact answer (bloom: a superset) ----

// Limits that force one probe form for integer keys.
RuntimeFilterLimits FormLimits(RuntimeFilterProbeForm form) {
  RuntimeFilterLimits limits;
  limits.max_exact_keys = 1 << 20;
  if (form != RuntimeFilterProbeForm::kBitmap) limits.max_bitmap_bits = 0;
  if (form != RuntimeFilterProbeForm::kLinear) limits.max_linear_keys = 0;
  if (form == RuntimeFilterProbeForm::kBloom) limits.max_exact_keys = 0;
  return limits;
}

// Writes `values` into a vector of `type` (INTEGER-like: int32, else int64); nullopt: NULL.
Vector IntegerVector(const LogicalType& type, const std::vector<std::optional<int64_t>>& values) {
  Vector v(type, std::max<idx_t>(values.size(), 1));
  for (size_t i = 0; i < values.size(); i++) {
    if (!values[i]) {
      v.validity().SetNull(i);
    } else if (type.physical() == PhysicalType::kInt32) {
      v.data<int32_t>()[i] = static_cast<int32_t>(*values[i]);
    } else {
      v.data<int64_t>()[i] = *values[i];
    }
  }
  return v;
}

TEST(RuntimeFilterProbeFormTest, IntegerFormsAgreeOnRandomKeys) {
  std::mt19937_64 rng(42);
  const LogicalType types[] = {LogicalType::Integer(), LogicalType::Date(), LogicalType::Bigint(),
                               LogicalType::Timestamp(), LogicalType::Decimal(18, 2)};
  for (const LogicalType& type : types) {
    const bool narrow = type.physical() == PhysicalType::kInt32;
    const int64_t lowest = narrow ? INT32_MIN : INT64_MIN;
    const int64_t highest = narrow ? INT32_MAX : INT64_MAX;
    // Key sets: dense around zero (negative keys), few keys at the extremes, many sparse huge.
    std::vector<std::vector<int64_t>> key_sets;
    key_sets.push_back(Range(-300, 700));
    key_sets.push_back({lowest, -1, 0, highest});
    key_sets.push_back({lowest, lowest + 1, highest - 1, highest, 5, -5, 1 << 30, -(1 << 30), 77});
    std::vector<int64_t> sparse;
    for (int i = 0; i < 500; i++)
      sparse.push_back(static_cast<int64_t>(rng()) >> (narrow ? 32 : 0));
    key_sets.push_back(sparse);
    for (const auto& keys : key_sets) {
      const absl::flat_hash_set<int64_t> truth(keys.begin(), keys.end());
      // Probe rows: keys, neighbours of keys, random values, the extremes, NULLs.
      std::vector<std::optional<int64_t>> values;
      for (int i = 0; i < 3000; i++) {
        const int64_t key = keys[rng() % keys.size()];
        switch (rng() % 5) {
          case 0:
            values.push_back(key);
            break;
          case 1:
            values.push_back(key == highest ? key : key + 1);
            break;
          case 2:
            values.push_back(static_cast<int64_t>(rng()) >> (narrow ? 32 : 0));
            break;
          case 3:
            values.push_back(rng() % 2 ? lowest : highest);
            break;
          default:
            values.push_back(std::nullopt);
        }
      }
      Vector probe = IntegerVector(type, values);
      std::vector<uint32_t> expected;
      for (size_t i = 0; i < values.size(); i++) {
        if (values[i] && truth.contains(*values[i])) expected.push_back(i);
      }
      std::vector<uint32_t> sel;  // every third row
      std::vector<uint32_t> expected_sel;
      for (uint32_t i = 0; i < values.size(); i += 3) {
        sel.push_back(i);
        if (values[i] && truth.contains(*values[i])) expected_sel.push_back(i);
      }
      Vector build = IntegerVector(type, {keys.begin(), keys.end()});
      for (auto form : {RuntimeFilterProbeForm::kBitmap, RuntimeFilterProbeForm::kLinear,
                        RuntimeFilterProbeForm::kIntTable, RuntimeFilterProbeForm::kBloom}) {
        RuntimeFilter filter({type});
        filter.Add({&build}, keys.size());
        filter.Finish(FormLimits(form), keys.size(), 0);
        ASSERT_TRUE(filter.enabled());
        const uint64_t width =  // max - min: span - 1, which cannot wrap
            static_cast<uint64_t>(*std::max_element(keys.begin(), keys.end())) -
            static_cast<uint64_t>(*std::min_element(keys.begin(), keys.end()));
        // A form is used only when it fits; else the next one is.
        if ((form == RuntimeFilterProbeForm::kBitmap && width >= kRuntimeFilterMaxBitmapBits) ||
            (form == RuntimeFilterProbeForm::kLinear && truth.size() > kRuntimeFilterMaxLinearKeys))
          continue;
        SCOPED_TRACE(std::string(RuntimeFilterProbeFormName(form)) + " " + type.ToString() +
                     " keys " + std::to_string(keys.size()));
        ASSERT_EQ(filter.probe_form(), form);
        const auto all = Survivors(filter, probe, values.size());
        const auto some = Survivors(filter, probe, sel.size(), sel.data());
        // A partition value is tested without a vector, with the same answer as a row.
        const absl::flat_hash_set<uint32_t> passed(all.begin(), all.end());
        for (uint32_t i = 0; i < values.size(); i++)
          ASSERT_EQ(filter.ValueMayMatch(ReadValue(probe, i)), passed.contains(i)) << i;
        if (form == RuntimeFilterProbeForm::kBloom) {
          EXPECT_TRUE(std::includes(all.begin(), all.end(), expected.begin(), expected.end()));
          EXPECT_TRUE(
              std::includes(some.begin(), some.end(), expected_sel.begin(), expected_sel.end()));
          for (uint32_t row : all)
            EXPECT_TRUE(values[row].has_value());
        } else {
          EXPECT_EQ(all, expected);
          EXPECT_EQ(some, expected_sel);
        }
      }
    }
  }
}

TEST(RuntimeFilterProbeFormTest, DenseKeysUseABitmapEvenPastTheExactSetLimit) {
  // 5,000 dense keys: too many for the exact set (the kind is bloom) yet exact as a bitmap.
  auto filter = Build(Range(1000, 6000));
  EXPECT_EQ(filter->kinds(), kRuntimeFilterBloom | kRuntimeFilterRange);
  EXPECT_EQ(filter->probe_form(), RuntimeFilterProbeForm::kBitmap);
  Vector probe = Int64s({999, 1000, 5999, 6000, -1, INT64_MAX, INT64_MIN, 3000});
  EXPECT_EQ(Survivors(*filter, probe, 8), (std::vector<uint32_t>{1, 2, 7}));
  // Sparse keys past the exact set limit stay a bloom filter (no huge table).
  std::vector<int64_t> sparse;
  for (int64_t i = 0; i < 5000; i++)
    sparse.push_back(i * 1'000'003);
  EXPECT_EQ(Build(sparse)->probe_form(), RuntimeFilterProbeForm::kBloom);
  // Few sparse keys: the linear scan; more: the table.
  EXPECT_EQ(Build({INT64_MIN, 0, INT64_MAX})->probe_form(), RuntimeFilterProbeForm::kLinear);
  std::vector<int64_t> hundred;
  for (int64_t i = 0; i < 100; i++)
    hundred.push_back(i * 1'000'000'007);
  EXPECT_EQ(Build(hundred)->probe_form(), RuntimeFilterProbeForm::kIntTable);
}

TEST(RuntimeFilterProbeFormTest, ExactProbesAreTheExactSetAndTheBitmap) {
  // What dictionary pruning relies on: no dictionary entry outside the keys passes.
  auto dense = Build(Range(1000, 6000));
  EXPECT_FALSE(dense->kinds() & kRuntimeFilterExactSet);
  EXPECT_TRUE(dense->probe_is_exact());
  EXPECT_TRUE(Build({3, 5, 8})->probe_is_exact());
  std::vector<int64_t> sparse;
  for (int64_t i = 0; i < 5000; i++)
    sparse.push_back(i * 1'000'003);
  EXPECT_FALSE(Build(sparse)->probe_is_exact());
}

TEST(RuntimeFilterProbeFormTest, BitmapRulesOutBoundsHoldingNoKey) {
  // 2,001 even keys: past the exact set limit, a bitmap; statistics bounds are checked bit by
  // bit, as an exact set's key by key.
  std::vector<int64_t> even;
  for (int64_t i = 0; i <= 4000; i += 2)
    even.push_back(i);
  auto filter = Build(even);
  ASSERT_EQ(filter->probe_form(), RuntimeFilterProbeForm::kBitmap);
  ASSERT_FALSE(filter->kinds() & kRuntimeFilterExactSet);
  auto may = [&](int64_t lo, int64_t hi) {
    return filter->RangeMayMatch(0, Value::Bigint(lo), Value::Bigint(hi));
  };
  EXPECT_FALSE(may(5, 5));
  EXPECT_FALSE(may(63, 63));
  EXPECT_TRUE(may(5, 6));
  EXPECT_TRUE(may(63, 64));
  EXPECT_TRUE(may(-10, 0));
  EXPECT_TRUE(may(3999, 4000));
  EXPECT_FALSE(may(3999, 3999));
  EXPECT_FALSE(may(4001, 9000));
  EXPECT_FALSE(may(-10, -1));
  EXPECT_TRUE(may(INT64_MIN, INT64_MAX));
}

// ExpectKeys (the join's hash table knows the distinct count and bounds): the bitmap is set
// directly by Add, and the filter answers exactly as one built by listing the keys.
TEST(RuntimeFilterProbeFormTest, ExpectedKeysBuildTheSameFilterWithoutListing) {
  std::mt19937_64 rng(11);
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 20000; i++) {
    if (rng() % 3 == 0) keys.push_back(5000 + i);  // about 6,700 keys in [5000, 25000)
  }
  keys.push_back(keys.front());  // a duplicate
  const int64_t low = *std::min_element(keys.begin(), keys.end());
  const int64_t high = *std::max_element(keys.begin(), keys.end());
  const uint64_t distinct = keys.size() - 1;
  auto listed = Build(keys);
  // Two partials, as the join's threads build them, merged.
  auto expected = [&](size_t from, size_t to) {
    auto f = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
    f->ExpectKeys(distinct, low, high, {});
    std::vector<int64_t> part(keys.begin() + from, keys.begin() + to);
    Vector v = Int64s(part);
    f->Add({&v}, part.size());
    return f;
  };
  auto direct = expected(0, keys.size() / 2);
  direct->Merge(std::move(*expected(keys.size() / 2, keys.size())));
  direct->Finish({}, keys.size(), 0, distinct);
  EXPECT_EQ(direct->probe_form(), RuntimeFilterProbeForm::kBitmap);
  EXPECT_EQ(direct->probe_form(), listed->probe_form());
  // The direct bitmap builds no bloom filter beside it (listing built one, never probed): its
  // kind says so.
  EXPECT_EQ(listed->kinds(), kRuntimeFilterBloom | kRuntimeFilterRange);
  EXPECT_EQ(direct->kinds(), kRuntimeFilterBitmap | kRuntimeFilterRange);
  EXPECT_EQ(RuntimeFilterKindName(direct->kinds()), "bitmap+range");
  EXPECT_EQ(direct->bloom_bits().size(), 0u);
  EXPECT_EQ(direct->distinct_keys(), listed->distinct_keys());
  EXPECT_EQ(direct->probes_parquet_bloom(), listed->probes_parquet_bloom());
  std::vector<int64_t> probes = Range(low - 70, high + 70);
  probes.push_back(INT64_MIN);
  probes.push_back(INT64_MAX);
  Vector probe = Int64s(probes);
  EXPECT_EQ(Survivors(*direct, probe, probes.size()), Survivors(*listed, probe, probes.size()));
  for (int64_t lo = low - 100; lo < high + 100; lo += 37) {
    EXPECT_EQ(direct->RangeMayMatch(0, Value::Bigint(lo), Value::Bigint(lo + 2)),
              listed->RangeMayMatch(0, Value::Bigint(lo), Value::Bigint(lo + 2)))
        << lo;
  }
}

TEST(RuntimeFilterProbeFormTest, ExpectedKeysFallBackToListing) {
  // A key outside the bounds given, and fewer keys than expected: listed after all, so the
  // filter is the one listing gives (an exact set here).
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  filter->ExpectKeys(50000, 0, 100000, {});
  Vector v = Int64s({10, 20, 200000, -5});
  filter->Add({&v}, 4);
  filter->Finish({}, 4, 0);
  EXPECT_TRUE(filter->kinds() & kRuntimeFilterExactSet);
  Vector probe = Int64s({10, 20, 200000, -5, 11, 100000});
  EXPECT_EQ(Survivors(*filter, probe, 6), (std::vector<uint32_t>{0, 1, 2, 3}));
  // Within the bounds but fewer than expected: the keys are listed at Finish.
  auto few = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  few->ExpectKeys(50000, 0, 100000, {});
  Vector w = Int64s({7, 9});
  few->Add({&w}, 2);
  few->Finish({}, 2, 0);
  EXPECT_TRUE(few->kinds() & kRuntimeFilterExactSet);
  EXPECT_EQ(few->exact_set_keys(), std::optional<uint64_t>(2));
  // A partial built with ExpectKeys merged into one built without it.
  auto plain = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  Vector p = Int64s(Range(0, 3000));
  plain->Add({&p}, 3000);
  auto direct = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
  direct->ExpectKeys(6000, 0, 5999, {});
  Vector d = Int64s(Range(3000, 6000));
  direct->Add({&d}, 3000);
  plain->Merge(std::move(*direct));
  plain->Finish({}, 6000, 0);
  EXPECT_EQ(plain->distinct_keys(), 6000u);
  Vector q = Int64s({-1, 0, 2999, 3000, 5999, 6000});
  EXPECT_EQ(Survivors(*plain, q, 6), (std::vector<uint32_t>{1, 2, 3, 4}));
}

// A direct bitmap that falls back to listing (a key outside the bounds, mid-batch, or partials
// over other bounds merged) hashes the keys it skipped: the bloom filter then chosen (keys too
// spread for a bitmap) holds every key.
TEST(RuntimeFilterProbeFormTest, ExpectedKeysFallingBackHashEveryKey) {
  std::vector<int64_t> first = Range(0, 6000), second = Range(6000, 12000);
  second[2999] = int64_t{1} << 40;  // outside the bounds, mid-batch
  auto make = [](int64_t low, int64_t high) {
    auto f = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Bigint()});
    f->ExpectKeys(12000, low, high, {});
    return f;
  };
  auto filter = make(0, 11999);
  Vector a = Int64s(first);
  filter->Add({&a}, first.size());
  auto other = make(6000, 11999);  // other bounds: both listed at the merge
  Vector b = Int64s(second);
  other->Add({&b}, second.size());
  filter->Merge(std::move(*other));
  filter->Finish({}, 12000, 0);
  EXPECT_EQ(filter->probe_form(), RuntimeFilterProbeForm::kBloom);
  EXPECT_EQ(filter->kinds(), kRuntimeFilterBloom | kRuntimeFilterRange);
  EXPECT_EQ(filter->distinct_keys(), 12000u);
  std::vector<int64_t> all = first;
  all.insert(all.end(), second.begin(), second.end());
  Vector probe = Int64s(all);
  EXPECT_EQ(Survivors(*filter, probe, all.size()).size(), all.size());
}

TEST(RuntimeFilterProbeFormTest, StringSetAndBloomAgree) {
  std::mt19937_64 rng(7);
  std::vector<std::string> keys, values;
  for (int i = 0; i < 200; i++)
    keys.push_back("key" + std::to_string(rng() % 100000));
  keys.push_back("");
  for (int i = 0; i < 2000; i++)
    values.push_back(rng() % 2 ? keys[rng() % keys.size()]
                               : "key" + std::to_string(rng() % 100000));
  const absl::flat_hash_set<std::string> truth(keys.begin(), keys.end());
  Vector build(LogicalType::Varchar(), keys.size());
  for (size_t i = 0; i < keys.size(); i++)
    build.data<StringRef>()[i] = StringRef(std::string_view(keys[i]));
  Vector probe(LogicalType::Varchar(), values.size());
  std::vector<uint32_t> expected;
  for (size_t i = 0; i < values.size(); i++) {
    probe.data<StringRef>()[i] = StringRef(std::string_view(values[i]));
    if (i % 7 == 0) {
      probe.validity().SetNull(i);
    } else if (truth.contains(values[i])) {
      expected.push_back(i);
    }
  }
  for (auto form : {RuntimeFilterProbeForm::kStringSet, RuntimeFilterProbeForm::kBloom}) {
    RuntimeFilter filter({LogicalType::Varchar()});
    filter.Add({&build}, keys.size());
    RuntimeFilterLimits limits;
    if (form == RuntimeFilterProbeForm::kBloom) limits.max_exact_keys = 0;
    filter.Finish(limits, keys.size(), 0);
    ASSERT_EQ(filter.probe_form(), form);
    const auto all = Survivors(filter, probe, values.size());
    const absl::flat_hash_set<uint32_t> passed(all.begin(), all.end());
    for (uint32_t i = 0; i < values.size(); i++)
      ASSERT_EQ(filter.ValueMayMatch(ReadValue(probe, i)), passed.contains(i)) << i;
    if (form == RuntimeFilterProbeForm::kStringSet) {
      EXPECT_EQ(all, expected);
    } else {
      EXPECT_TRUE(std::includes(all.begin(), all.end(), expected.begin(), expected.end()));
      for (uint32_t row : all)
        EXPECT_NE(row % 7, 0u);
    }
  }
}

// One scan thread's probes of filter 1 on batch column 0.
struct OneFilterProbes {
  explicit OneFilterProbes(DynamicFilterRegistry& registry) : targets(1), probes(targets, columns) {
    targets[0].filter_id = 1;
    targets[0].column_ids = {0};
    probes.Refresh(registry);
  }
  std::vector<RuntimeFilterTarget> targets;
  std::vector<std::vector<idx_t>> columns = {{0}};
  RuntimeFilterProbes probes;
};

TEST(RuntimeFilterProbeTest, FilterKeptForStatisticsSkipsRows) {
  // SkipRows: the scan passes every row untested; the filter still prunes by range.
  auto filter = Build({1, 2, 3});
  filter->SkipRows("test");
  EXPECT_TRUE(filter->enabled());
  EXPECT_FALSE(filter->applies_to_rows());
  EXPECT_FALSE(filter->RangeMayMatch(0, Value::Bigint(10), Value::Bigint(20)));
  DynamicFilterRegistry registry;
  registry.PublishRuntime(1, std::move(filter));
  OneFilterProbes one(registry);
  RuntimeFilterProbes& probes = one.probes;
  EXPECT_EQ(ApplyBatch(probes, 99), kBatchSize);
  EXPECT_EQ(registry.FindRuntime(1)->counters().rows_tested.load(), 0u);
}

// A filter that drops nothing is paused after a window, re-checked on one batch after the
// pause and resumed when that batch drops enough; each step is counted.
TEST(RuntimeFilterProbeTest, PausesThenResumesOnASample) {
  DynamicFilterRegistry registry;
  registry.PublishRuntime(1, Build(Range(0, 10)));
  const RuntimeFilter& filter = *registry.FindRuntime(1);
  OneFilterProbes one(registry);
  RuntimeFilterProbes& probes = one.probes;
  // A window of 8 batches whose keys all join: paused.
  for (int b = 0; b < 8; b++)
    EXPECT_EQ(ApplyBatch(probes, 5), kBatchSize);
  EXPECT_EQ(filter.counters().pauses.load(), 1u);
  // Paused for 16 windows: rows that cannot join pass untested.
  for (int b = 0; b < 16 * 8; b++)
    EXPECT_EQ(ApplyBatch(probes, 99), kBatchSize);
  EXPECT_EQ(filter.counters().rows_passed_paused.load(), 16u * 8 * kBatchSize);
  // The sample drops everything: resumed, and it keeps filtering.
  EXPECT_EQ(ApplyBatch(probes, 99), 0u);
  EXPECT_EQ(filter.counters().rechecks.load(), 1u);
  EXPECT_EQ(filter.counters().resumes.load(), 1u);
  EXPECT_EQ(ApplyBatch(probes, 99), 0u);
  // Paused again once a window drops too little (the window with the batch above drops 1/8, the
  // next none); a sample that drops nothing pauses again.
  for (int b = 0; b < 7 + 8; b++)
    ApplyBatch(probes, 5);
  EXPECT_EQ(filter.counters().pauses.load(), 2u);
  for (int b = 0; b < 16 * 8; b++)
    ApplyBatch(probes, 5);
  EXPECT_EQ(ApplyBatch(probes, 5), kBatchSize);
  EXPECT_EQ(filter.counters().rechecks.load(), 2u);
  EXPECT_EQ(filter.counters().resumes.load(), 1u);
  EXPECT_EQ(filter.counters().pauses.load(), 3u);
}

// A key computed from the column (CAST(k AS INTEGER) = INTEGER keys): the scan computes it for
// each row and probes with it; a batch it cannot compute for passes untested (the join, which
// computes it for the rows reaching it, decides); a monotone cast maps a column's bounds.
TEST(RuntimeFilterProbeTest, ComputedKeys) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Integer()});
  Vector keys(LogicalType::Integer(), 2);
  keys.data<int32_t>()[0] = 5;
  keys.data<int32_t>()[1] = 7;
  filter->Add({&keys}, 2);
  filter->Finish({}, 2, 0);
  DynamicFilterRegistry registry;
  registry.PublishRuntime(1, std::move(filter));
  std::vector<RuntimeFilterTarget> targets(1);
  targets[0].filter_id = 1;
  targets[0].column_ids = {0};
  targets[0].key_expr = std::make_shared<BoundCast>(
      std::make_unique<BoundReference>(LogicalType::Bigint(), 0, "k"), LogicalType::Integer());
  targets[0].monotone = 1;
  const std::vector<std::vector<idx_t>> columns = {{0}};
  RuntimeFilterProbes probes(targets, columns);
  probes.Refresh(registry);
  Batch batch({LogicalType::Bigint()});
  for (idx_t r = 0; r < 10; r++)
    batch.column(0).data<int64_t>()[r] = static_cast<int64_t>(r);
  batch.SetSize(10);
  uint64_t dropped = 0;
  ASSERT_EQ(probes.Apply(batch, nullptr, &dropped), 2u);
  EXPECT_EQ(batch.column(0).data<int64_t>()[0], 5);
  EXPECT_EQ(batch.column(0).data<int64_t>()[1], 7);
  EXPECT_EQ(dropped, 8u);
  // 2^40 does not fit INTEGER: the cast fails, the batch passes untested.
  Batch wide({LogicalType::Bigint()});
  wide.column(0).data<int64_t>()[0] = 3;
  wide.column(0).data<int64_t>()[1] = int64_t{1} << 40;
  wide.SetSize(2);
  EXPECT_EQ(probes.Apply(wide, nullptr, &dropped), 2u);
  EXPECT_EQ(registry.FindRuntime(1)->counters().rows_tested.load(), 10u);

  // Statistics through the cast: [6, 6] computes to keys [6, 6], which hold no key; an
  // unmonotone computation tells nothing.
  parquet::ColumnChunkStatistics column;
  column.num_values = 4;
  column.null_count = 0;
  column.min = Value::Bigint(6);
  column.max = Value::Bigint(6);
  const ComputedRuntimeKey key{targets[0].key_expr.get(), 1};
  const auto mapped = ComputedKeyStatistics(column, key);
  ASSERT_TRUE(mapped && mapped->min && mapped->max);
  EXPECT_EQ(mapped->min->type(), LogicalType::Integer());
  EXPECT_FALSE(registry.FindRuntime(1)->RangeMayMatch(0, *mapped->min, *mapped->max));
  EXPECT_FALSE(ComputedKeyStatistics(column, {key.expr, 0}).has_value());
  // A bound the cast fails on: no bounds, null counts kept.
  column.max = Value::Bigint(int64_t{1} << 40);
  const auto unbounded = ComputedKeyStatistics(column, key);
  ASSERT_TRUE(unbounded.has_value());
  EXPECT_FALSE(unbounded->min.has_value());
  EXPECT_EQ(unbounded->null_count, 0);
}

// A join builds a large filter in parallel: partial filters of its threads merged must list
// what one filter of all the rows lists (each column of a combined key only up to 65,536 rows).
TEST(RuntimeFilterTest, MergedPartialsListLikeOneFilter) {
  const std::vector<LogicalType> types{LogicalType::Bigint(), LogicalType::Bigint()};
  auto add = [](RuntimeFilter& filter, int64_t from, int64_t to) {
    Vector a = Int64s(Range(from, to)), b = Int64s(Range(from + 7, to + 7));
    filter.Add({&a, &b}, static_cast<idx_t>(to - from));
  };
  for (int64_t rows : {int64_t{2000}, int64_t{80000}}) {
    RuntimeFilter whole(types), merged(types), part(types);
    add(whole, 0, rows);
    add(merged, 0, rows / 2);
    add(part, rows / 2, rows);
    merged.Merge(std::move(part));
    whole.Finish({}, rows, 0);
    merged.Finish({}, rows, 0);
    EXPECT_EQ(merged.distinct_keys(), whole.distinct_keys()) << rows;
    EXPECT_EQ(merged.kinds(), whole.kinds()) << rows;
    for (size_t k = 0; k < 2; k++) {
      ASSERT_EQ(merged.column_filter(k) != nullptr, whole.column_filter(k) != nullptr) << rows;
      if (whole.column_filter(k)) {
        EXPECT_EQ(merged.column_filter(k)->distinct_keys(),
                  whole.column_filter(k)->distinct_keys());
      }
    }
    EXPECT_EQ(whole.column_filter(0) != nullptr, rows <= 65536) << rows;
  }
}

// ---- the same filter tests partition values (dynamic partition pruning) ----

std::unique_ptr<RuntimeFilter> PartitionFilter(const std::vector<int64_t>& keys) {
  return Build(keys, PartitionFilterSpec(1, 0).limits);
}

TEST(PartitionValueTest, ExactSetAndBitmapTellEveryValue) {
  auto few = PartitionFilter({2451545, 2451546, 2451600});
  ASSERT_TRUE(few->probe_is_exact());
  EXPECT_TRUE(few->ValueMayMatch(Value::Bigint(2451546)));
  EXPECT_FALSE(few->ValueMayMatch(Value::Bigint(2451547)));
  EXPECT_FALSE(few->ValueMayMatch(Value::Null(LogicalType::Bigint())));  // NULL is no key
  // Another type cannot be told (the planner makes the types equal): kept.
  EXPECT_TRUE(few->ValueMayMatch(Value::Integer(7)));
  // 10,000 dense keys: past a runtime filter's exact set, still exact for partitions.
  auto dense = PartitionFilter(Range(0, 10000));
  ASSERT_TRUE(dense->probe_is_exact());
  for (int64_t v : {0, 1, 4999, 9999})
    EXPECT_TRUE(dense->ValueMayMatch(Value::Bigint(v))) << v;
  EXPECT_FALSE(dense->ValueMayMatch(Value::Bigint(10000)));
  EXPECT_FALSE(dense->ValueMayMatch(Value::Bigint(-1)));
}

TEST(PartitionValueTest, StringKeysAndEmptyBuilds) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{LogicalType::Varchar()});
  Vector v(LogicalType::Varchar(), 2);
  WriteValue(v, 0, Value::Varchar("CA"));
  WriteValue(v, 1, Value::Varchar("TX"));
  filter->Add({&v}, 2);
  filter->Finish(PartitionFilterSpec(1, 0).limits, 2, 0);
  EXPECT_TRUE(filter->ValueMayMatch(Value::Varchar("TX")));
  EXPECT_FALSE(filter->ValueMayMatch(Value::Varchar("NY")));
  auto empty = PartitionFilter({});
  EXPECT_FALSE(empty->ValueMayMatch(Value::Bigint(1)));  // nothing was built: nothing joins
}

TEST(PartitionValueTest, SkipModeNeedsAnExactFilter) {
  // Wide, sparse integer keys past max_exact_keys: a bloom filter, whose false positives must
  // never remove a partition an anti join keeps.
  std::vector<int64_t> sparse;
  for (int64_t i = 0; i < 3000; i++)
    sparse.push_back(i * 1000003);
  RuntimeFilterLimits limits;
  limits.max_exact_keys = 100;
  auto bloom = Build(sparse, limits);
  ASSERT_FALSE(bloom->probe_is_exact());
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kKeep, Value::Bigint(1000003), *bloom));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(1000003), *bloom));
  auto exact = PartitionFilter({5, 6});
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(5), *exact));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(7), *exact));
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kKeep, Value::Bigint(7), *exact));
  const Value null = Value::Null(LogicalType::Bigint());
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kKeepOrNull, null, *exact));
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kKeep, null, *exact));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kSkip, null, *exact));
}

// A runtime filter that is also a join's partition filter on the same key: built once with
// the spec's BuildLimits.
RuntimeFilterSpec SharedSpec(uint64_t max_exact_keys) {
  RuntimeFilterSpec spec;
  spec.filter_id = 2;
  spec.keys = {0};
  spec.limits.max_exact_keys = max_exact_keys;
  spec.limits.max_keys = 2000;
  spec.partition_filter_id = 1;
  return spec;
}

TEST(PartitionValueTest, SharedFilterTellsPartitionValuesExactlyPastItsExactSet) {
  // 3,000 sparse keys, past the runtime filter's exact set (100) and its max_keys (2,000):
  // rows and statistics see a bloom filter, partition values the listed keys.
  std::vector<int64_t> sparse;
  for (int64_t i = 0; i < 3000; i++)
    sparse.push_back(i * 1000003);
  const RuntimeFilterLimits limits = SharedSpec(100).BuildLimits();
  EXPECT_EQ(limits.max_keys, UINT64_MAX);
  EXPECT_EQ(limits.max_value_keys, uint64_t{1} << 20);
  auto filter = Build(sparse, limits);
  ASSERT_TRUE(filter->enabled());
  EXPECT_EQ(filter->probe_form(), RuntimeFilterProbeForm::kBloom);
  EXPECT_FALSE(filter->probe_is_exact());
  EXPECT_FALSE(filter->probes_parquet_bloom());  // the listed keys are not walked per chunk
  EXPECT_TRUE(filter->values_exact());
  // Every key kept, no other value: the bloom filter alone lets some through.
  size_t bloom_passes = 0;
  std::vector<uint64_t> hashes;
  for (int64_t v = 0; v < 200000; v++) {
    const int64_t value = v % 2 ? sparse[static_cast<size_t>(v) % sparse.size()] : v * 7 + 1;
    const bool key = value % 1000003 == 0 && value / 1000003 < 3000;
    ASSERT_EQ(filter->ValueMayMatch(Value::Bigint(value)), key) << value;
    Vector row = Int64s({value});
    uint32_t out;
    bloom_passes += filter->Probe({&row}, 1, nullptr, &out, hashes);
  }
  EXPECT_GT(bloom_passes, 100000u);  // the keys, and false positives
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(1000003), *filter));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(1000004), *filter));
  // The join keeps it from the scan's data (past the runtime max_keys, or dropping too few):
  // partitions are still pruned with it.
  filter->KeepForPartitionsOnly("test");
  EXPECT_FALSE(filter->enabled());
  EXPECT_FALSE(filter->applies_to_rows());
  EXPECT_TRUE(filter->prunes_partitions());
  EXPECT_EQ(filter->disabled_reason(), "test");
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kKeep, Value::Bigint(5), *filter));
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(0), *filter));
  // A filter without the build keys (a failed merge) tells nothing: every partition is kept.
  filter->Disable("merge failed");
  EXPECT_FALSE(filter->prunes_partitions());
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kKeep, Value::Bigint(5), *filter));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kSkip, Value::Bigint(0), *filter));
}

TEST(PartitionValueTest, SharedStringFilterListsItsKeys) {
  const size_t count = 3000;
  Vector v(LogicalType::Varchar(), count);
  for (size_t i = 0; i < count; i++)
    WriteValue(v, i, Value::Varchar("k" + std::to_string(i * 7)));
  RuntimeFilter filter({LogicalType::Varchar()});
  filter.Add({&v}, count);
  filter.Finish(SharedSpec(1024).BuildLimits(), count, 0);
  EXPECT_EQ(filter.probe_form(), RuntimeFilterProbeForm::kBloom);
  EXPECT_TRUE(filter.values_exact());
  for (size_t i = 0; i < 30000; i++) {
    ASSERT_EQ(filter.ValueMayMatch(Value::Varchar("k" + std::to_string(i))),
              i % 7 == 0 && i / 7 < count)
        << i;
  }
  // Without a partition use the keys are not kept: partition values go through the bloom
  // filter (a runtime filter alone is never asked, but the answer must still be safe).
  RuntimeFilter alone({LogicalType::Varchar()});
  alone.Add({&v}, count);
  alone.Finish(RuntimeFilterLimits{}, count, 0);
  EXPECT_FALSE(alone.values_exact());
  EXPECT_TRUE(alone.ValueMayMatch(Value::Varchar("k7")));
}

TEST(PartitionValueTest, PartitionFiltersFoldIntoTheRuntimeFilterOnTheirKey) {
  std::vector<RuntimeFilterSpec> specs(3);
  specs[0].filter_id = 5;
  specs[0].keys = {0, 1};  // a key of two columns: not the partition filter's
  specs[1].filter_id = 6;
  specs[1].keys = {1};
  specs[1].inverse = RuntimeFilterKeyInverse{};  // holds column values, not keys
  specs[2].filter_id = 7;
  specs[2].keys = {1};
  AddPartitionFilterSpecs(specs, {{1, 1}, {2, 0}});
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].partition_filter_id, 0);
  EXPECT_EQ(specs[1].partition_filter_id, 0);
  EXPECT_EQ(specs[2].partition_filter_id, 1);  // one object for filters #7 and #1
  EXPECT_TRUE(specs[3].partitions_only);       // #2 on condition 0 has no runtime filter
  EXPECT_EQ(specs[3].filter_id, 2);
  EXPECT_EQ(specs[3].keys, std::vector<size_t>{0});
  // Two partition filters on one key: the second gets its own object.
  AddPartitionFilterSpecs(specs, {{3, 1}});
  ASSERT_EQ(specs.size(), 5u);
  EXPECT_TRUE(specs[4].partitions_only);
}

TEST(PartitionValueTest, BoundsOfANestedLoopJoinsBuildSide) {
  auto bounds =
      RuntimeFilter::OfBounds(LogicalType::Bigint(), Value::Bigint(10), Value::Bigint(20), 5, 0);
  EXPECT_TRUE(bounds->bounds_only());
  EXPECT_FALSE(bounds->applies_to_rows());
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kAtLeast, Value::Bigint(10), *bounds));
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kAbove, Value::Bigint(10), *bounds));
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kAtMost, Value::Bigint(20), *bounds));
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kBelow, Value::Bigint(20), *bounds));
  EXPECT_FALSE(
      PartitionMayJoin(DynamicFilterMode::kAtLeast, Value::Null(LogicalType::Bigint()), *bounds));
  // A build side without a non-NULL value: nothing compares true.
  auto none = RuntimeFilter::OfBounds(LogicalType::Bigint(), std::nullopt, std::nullopt, 3, 0);
  EXPECT_FALSE(PartitionMayJoin(DynamicFilterMode::kAtMost, Value::Bigint(1), *none));
  // A filter of keys, not bounds, tells nothing about bound modes.
  auto keys = PartitionFilter({5});
  EXPECT_TRUE(PartitionMayJoin(DynamicFilterMode::kAtLeast, Value::Bigint(1), *keys));
}

// A statistics bound of several ranges: bounds (a file's, a row group's, a page's) and values
// (partitions) are tested against each range, not the span of all.
TEST(RuntimeFilterTest, RangesOfStatisticsBounds) {
  const std::vector<KeyInterval> ranges = {{10, 19}, {100, 199}, {1000, 1000}};
  auto filter = RuntimeFilter::OfRange(LogicalType::Bigint(), Value::Bigint(10),
                                       Value::Bigint(1000), ranges, 7, 0);
  EXPECT_TRUE(filter->enabled());
  EXPECT_FALSE(filter->applies_to_rows());
  EXPECT_FALSE(filter->empty());
  EXPECT_EQ(filter->ranges(), ranges);
  const auto may = [&](int64_t lo, int64_t hi) {
    return filter->RangeMayMatch(0, Value::Bigint(lo), Value::Bigint(hi));
  };
  EXPECT_FALSE(may(0, 9));        // below all
  EXPECT_TRUE(may(0, 10));        // touches the first
  EXPECT_TRUE(may(19, 19));       // its last key
  EXPECT_FALSE(may(20, 99));      // between the first two
  EXPECT_TRUE(may(20, 100));      // reaches the second
  EXPECT_TRUE(may(150, 160));     // inside the second
  EXPECT_TRUE(may(0, 5000));      // spans every range
  EXPECT_FALSE(may(200, 999));    // between the last two
  EXPECT_TRUE(may(1000, 1000));   // the one key of the last
  EXPECT_FALSE(may(1001, 5000));  // above all
  EXPECT_FALSE(filter->ValueMayMatch(Value::Bigint(50)));
  EXPECT_TRUE(filter->ValueMayMatch(Value::Bigint(150)));
  EXPECT_FALSE(filter->ValueMayMatch(Value::Null(LogicalType::Bigint())));
  // Another type's bounds cannot be told.
  EXPECT_TRUE(filter->RangeMayMatch(0, Value::Integer(50), Value::Integer(60)));
  // INTEGER keys: the same.
  auto ints = RuntimeFilter::OfRange(LogicalType::Integer(), Value::Integer(-5), Value::Integer(5),
                                     {{-5, -5}, {5, 5}}, 2, 0);
  EXPECT_FALSE(ints->RangeMayMatch(0, Value::Integer(-4), Value::Integer(4)));
  EXPECT_TRUE(ints->RangeMayMatch(0, Value::Integer(-4), Value::Integer(5)));
  // One range: the span alone; no key at all: nothing matches.
  auto one = RuntimeFilter::OfRange(LogicalType::Bigint(), Value::Bigint(10), Value::Bigint(20),
                                    {{10, 20}}, 1, 0);
  EXPECT_TRUE(one->ranges().empty());
  EXPECT_TRUE(one->RangeMayMatch(0, Value::Bigint(15), Value::Bigint(30)));
  auto none = RuntimeFilter::OfRange(LogicalType::Bigint(), std::nullopt, std::nullopt, {}, 4, 0);
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(none->RangeMayMatch(0, Value::Bigint(15), Value::Bigint(30)));
}

// A chunk's Parquet bloom filter is probed with the listed keys' Parquet hashes (computed once
// per filter, then reused for every chunk): a chunk holding one key may match, one holding
// none does not, and a chunk storing another physical type cannot tell.
TEST(RuntimeFilterTest, ParquetBloomProbedWithTheListedKeys) {
  auto filter = Build({10, 20, 30});
  ASSERT_TRUE(filter->probes_parquet_bloom());
  auto with_20 = parquet::SplitBlockBloomFilter::ForNdv(1000, 0.001);
  with_20.InsertHash(parquet::SplitBlockBloomFilter::HashInt64(20));
  auto without = parquet::SplitBlockBloomFilter::ForNdv(1000, 0.001);
  for (int64_t v = 100; v < 200; v++)
    without.InsertHash(parquet::SplitBlockBloomFilter::HashInt64(v));
  for (int round = 0; round < 2; round++) {
    EXPECT_TRUE(filter->ParquetBloomMayMatch(with_20, PhysicalType::kInt64));
    EXPECT_FALSE(filter->ParquetBloomMayMatch(without, PhysicalType::kInt64));
    EXPECT_TRUE(filter->ParquetBloomMayMatch(without, PhysicalType::kInt32));
    EXPECT_TRUE(filter->ParquetBloomMayMatch(without, PhysicalType::kString));
  }
}

}  // namespace
}  // namespace shears
