// Partial runtime filters as bytes (RuntimeFilter::EncodeBuild / MergeEncoded): the union of
// partials built elsewhere (a shuffle join's ranks) is the filter of the whole build side.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "dynfilter/dynamic_filter.h"
#include "dynfilter/runtime_filter.h"

namespace shears {
namespace {

std::unique_ptr<RuntimeFilter> Partial(const LogicalType& type, const std::vector<Value>& keys) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{type});
  Vector v(type, std::max<idx_t>(keys.size(), 1));
  for (size_t i = 0; i < keys.size(); i++)
    WriteValue(v, i, keys[i]);
  filter->Add({&v}, keys.size());
  return filter;
}

std::vector<Value> Bigints(int64_t from, int64_t to) {
  std::vector<Value> out;
  for (int64_t i = from; i < to; i++)
    out.push_back(Value::Bigint(i));
  return out;
}

idx_t Passing(const RuntimeFilter& filter, const LogicalType& type,
              const std::vector<Value>& probe) {
  Vector v(type, std::max<idx_t>(probe.size(), 1));
  for (size_t i = 0; i < probe.size(); i++)
    WriteValue(v, i, probe[i]);
  std::vector<uint32_t> out(probe.size());
  std::vector<uint64_t> hashes;
  return filter.Probe({&v}, probe.size(), nullptr, out.data(), hashes);
}

TEST(RuntimeFilterEncodingTest, MergedPartialsEqualTheWholeBuild) {
  for (uint64_t max_exact : {uint64_t{1024}, uint64_t{10}}) {  // exact set, then bloom
    RuntimeFilterLimits limits;
    limits.max_exact_keys = max_exact;
    const LogicalType type = LogicalType::Bigint();
    auto partial = Partial(type, Bigints(0, 50));
    RuntimeFilter& merged = *partial;
    merged.MergeEncoded(Partial(type, Bigints(50, 120))->EncodeBuild());
    merged.Finish(limits, 120, 0);
    auto whole = Partial(type, Bigints(0, 120));
    whole->Finish(limits, 120, 0);
    EXPECT_EQ(merged.kinds(), whole->kinds());
    EXPECT_EQ(merged.distinct_keys(), 120u);
    EXPECT_EQ(merged.build_rows(), 120u);
    EXPECT_EQ(*merged.min(), Value::Bigint(0));
    EXPECT_EQ(*merged.max(), Value::Bigint(119));
    EXPECT_EQ(Passing(merged, type, Bigints(0, 120)), 120u);  // no false negatives
    EXPECT_EQ(Passing(merged, type, Bigints(1000, 1010)), 0u);
  }
}

TEST(RuntimeFilterEncodingTest, StringKeysAndTheirRange) {
  const LogicalType type = LogicalType::Varchar();
  auto partial = Partial(type, {Value::Varchar("pear"), Value::Varchar("apple")});
  RuntimeFilter& merged = *partial;
  merged.MergeEncoded(
      Partial(type, {Value::Varchar("zucchini"), Value::Varchar("melon")})->EncodeBuild());
  RuntimeFilter empty({type});
  merged.MergeEncoded(empty.EncodeBuild());  // a rank whose share was empty
  merged.Finish(RuntimeFilterLimits{}, 4, 0);
  EXPECT_EQ(merged.distinct_keys(), 4u);
  EXPECT_EQ(*merged.min(), Value::Varchar("apple"));
  EXPECT_EQ(*merged.max(), Value::Varchar("zucchini"));
  EXPECT_EQ(Passing(merged, type, {Value::Varchar("melon"), Value::Varchar("kiwi")}), 1u);
}

// The union built as src/distributed/filter_merge.cpp does: sizes summed, bloom bits OR-ed,
// then only sets and ranges encoded and merged.
std::unique_ptr<RuntimeFilter> UniteWithoutHashes(
    std::vector<std::unique_ptr<RuntimeFilter>> shares, const RuntimeFilterLimits& limits,
    uint64_t build_rows) {
  uint64_t distinct = 0, set_keys = 0;
  bool sets = true;
  for (auto& share : shares) {
    distinct += share->CountDistinctHashes();
    const auto keys = share->exact_set_keys();
    sets = sets && keys.has_value();
    set_keys += keys.value_or(0);
  }
  const bool certainly_exact = sets && set_keys <= limits.max_exact_keys;
  std::string bits;
  if (!certainly_exact) {
    for (auto& share : shares) {
      const std::string mine = share->BloomBits(distinct, limits.bloom_fpp);
      if (bits.empty()) bits.assign(mine.size(), '\0');
      for (size_t i = 0; i < bits.size(); i++)
        bits[i] = static_cast<char>(bits[i] | mine[i]);
    }
  }
  std::vector<std::string> encoded;
  for (auto& share : shares) {
    share->ReplaceHashes(bits, sets);
    encoded.push_back(share->EncodeBuild());
  }
  for (size_t r = 1; r < shares.size(); r++)
    shares[0]->MergeEncoded(encoded[r]);
  shares[0]->Finish(limits, build_rows, 0, distinct);
  return std::move(shares[0]);
}

TEST(RuntimeFilterEncodingTest, BloomBitsOredAcrossSharesEqualTheWholeBuildsBitForBit) {
  // Integer keys (their set kept, a bitmap probe), then strings past the set's bound: bloom.
  for (const LogicalType& type : {LogicalType::Bigint(), LogicalType::Varchar()}) {
    std::vector<Value> all;
    std::vector<std::vector<Value>> parts(3);
    for (int64_t i = 0; i < 20000; i++) {
      const int64_t key = i * 7919 % 100003;
      Value value = type == LogicalType::Bigint() ? Value::Bigint(key)
                                                  : Value::Varchar("k" + std::to_string(key));
      all.push_back(value);
      parts[static_cast<size_t>(key % 3)].push_back(value);  // disjoint shares, by key
      if (i % 5 == 0) {                                      // duplicates within a share
        all.push_back(value);
        parts[static_cast<size_t>(key % 3)].push_back(value);
      }
    }
    RuntimeFilterLimits limits;
    auto whole = Partial(type, all);
    whole->Finish(limits, all.size(), 0);
    std::vector<std::unique_ptr<RuntimeFilter>> shares;
    for (const auto& part : parts)
      shares.push_back(Partial(type, part));
    auto merged = UniteWithoutHashes(std::move(shares), limits, all.size());
    ASSERT_FALSE(whole->bloom_bits().empty());
    EXPECT_EQ(merged->bloom_bits(), whole->bloom_bits()) << type.ToString();
    EXPECT_EQ(merged->kinds(), whole->kinds());
    EXPECT_EQ(merged->probe_form(), whole->probe_form());
    EXPECT_EQ(merged->distinct_keys(), whole->distinct_keys());
    EXPECT_EQ(merged->build_rows(), whole->build_rows());
    EXPECT_EQ(*merged->min(), *whole->min());
    EXPECT_EQ(*merged->max(), *whole->max());
    EXPECT_EQ(Passing(*merged, type, all), all.size());
  }
}

TEST(RuntimeFilterEncodingTest, SmallSharesUniteIntoAnExactSetWithoutBloomBits) {
  std::vector<std::unique_ptr<RuntimeFilter>> shares;
  shares.push_back(Partial(LogicalType::Bigint(), Bigints(0, 40)));
  shares.push_back(Partial(LogicalType::Bigint(), Bigints(40, 100)));
  shares.push_back(Partial(LogicalType::Bigint(), {}));  // an empty share
  auto merged = UniteWithoutHashes(std::move(shares), RuntimeFilterLimits{}, 100);
  EXPECT_EQ(merged->kinds(), kRuntimeFilterExactSet | kRuntimeFilterRange);
  EXPECT_TRUE(merged->bloom_bits().empty());
  EXPECT_EQ(merged->distinct_keys(), 100u);
  EXPECT_EQ(Passing(*merged, LogicalType::Bigint(), Bigints(90, 110)), 10u);
}

TEST(RuntimeFilterEncodingTest, ABloomFilterWithoutTheUnionsBitsIsAnInternalError) {
  RuntimeFilterLimits limits;
  limits.max_exact_keys = 10;
  auto filter = Partial(LogicalType::Bigint(), Bigints(0, 100));
  filter->ReplaceHashes("", true);
  EXPECT_THROW(filter->Finish(limits, 100, 0, 100), InternalError);
}

TEST(RuntimeFilterEncodingTest, TruncatedBytesAreAnInternalError) {
  const std::string bytes = Partial(LogicalType::Bigint(), Bigints(0, 5))->EncodeBuild();
  RuntimeFilter target({LogicalType::Bigint()});
  EXPECT_THROW(target.MergeEncoded(std::string_view(bytes).substr(0, bytes.size() - 3)),
               InternalError);
  EXPECT_THROW(target.MergeEncoded(bytes + "x"), InternalError);
}

// The union of several joins' keys (a materialized CTE's scan, filtered by every reference's
// join): published only once every join contributed, holding all their keys; a join without
// keys to give publishes it disabled, since the others' keys alone would drop its rows.
TEST(RuntimeFilterEncodingTest, UnionIsPublishedByItsLastContributor) {
  const LogicalType type = LogicalType::Bigint();
  RuntimeFilterLimits limits;
  limits.max_keys = 1000;
  RuntimeFilterUnion target;
  target.filter_id = 7;
  target.contributors = 2;
  target.probe_rows = 100000;
  DynamicFilterRegistry registry;
  auto first = Partial(type, Bigints(0, 10));
  registry.ContributeToUnion(target, {type}, first.get(), "", limits, false, 0.5, 10, 0);
  EXPECT_EQ(registry.FindRuntime(7), nullptr);
  auto second = Partial(type, Bigints(100, 105));
  registry.ContributeToUnion(target, {type}, second.get(), "", limits, false, 0.5, 5, 0);
  const RuntimeFilter* united = registry.FindRuntime(7);
  ASSERT_NE(united, nullptr);
  EXPECT_TRUE(united->enabled());
  EXPECT_EQ(united->distinct_keys(), 15u);
  EXPECT_EQ(united->build_rows(), 15u);
  EXPECT_EQ(Passing(*united, type, Bigints(0, 10)), 10u);
  EXPECT_EQ(Passing(*united, type, Bigints(100, 105)), 5u);
  EXPECT_EQ(Passing(*united, type, Bigints(20, 90)), 0u);

  DynamicFilterRegistry without;
  target.filter_id = 8;
  without.ContributeToUnion(target, {type}, nullptr, "too few dropped", limits, false, 0.5, 0, 0);
  EXPECT_EQ(without.FindRuntime(8), nullptr);
  without.ContributeToUnion(target, {type}, first.get(), "", limits, false, 0.5, 10, 0);
  ASSERT_NE(without.FindRuntime(8), nullptr);
  EXPECT_FALSE(without.FindRuntime(8)->enabled());
  EXPECT_EQ(without.FindRuntime(8)->disabled_reason(), "too few dropped");

  // Most of the scan's rows kept: disabled in `auto` mode, kept with `always`.
  target.probe_rows = 20;
  for (bool always : {false, true}) {
    DynamicFilterRegistry registry_dense;
    target.filter_id = 9;
    registry_dense.ContributeToUnion(target, {type}, first.get(), "", limits, always, 0.5, 10, 0);
    registry_dense.ContributeToUnion(target, {type}, second.get(), "", limits, always, 0.5, 5, 0);
    EXPECT_EQ(registry_dense.FindRuntime(9)->enabled(), always);
  }
}

}  // namespace
}  // namespace shears
