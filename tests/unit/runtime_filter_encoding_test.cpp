// Partial runtime filters as bytes (RuntimeFilter::EncodeBuild / MergeEncoded): the union of
// partials built elsewhere (a shuffle join's ranks) is the filter of the whole build side.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
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

TEST(RuntimeFilterEncodingTest, TruncatedBytesAreAnInternalError) {
  const std::string bytes = Partial(LogicalType::Bigint(), Bigints(0, 5))->EncodeBuild();
  RuntimeFilter target({LogicalType::Bigint()});
  EXPECT_THROW(target.MergeEncoded(std::string_view(bytes).substr(0, bytes.size() - 3)),
               InternalError);
  EXPECT_THROW(target.MergeEncoded(bytes + "x"), InternalError);
}

}  // namespace
}  // namespace shears
