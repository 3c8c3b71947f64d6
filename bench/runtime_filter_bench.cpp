// Probe cost of runtime join filters, in ns per key (items/s = keys probed): the bloom filter
// and the exact set against a hash-set baseline (absl::flat_hash_set, what a join's own hash
// lookup roughly costs without the row comparison), for build sides of several sizes. Probes
// are batches of kBatchSize keys, about 10% of which are build keys.

#include <absl/container/flat_hash_set.h>
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "common/vector.h"
#include "dynfilter/runtime_filter.h"

namespace shears {
namespace {

constexpr int kProbeBatches = 64;

struct Workload {
  std::vector<int64_t> build;
  std::vector<Vector> probes;
};

Workload MakeWorkload(int64_t build_keys) {
  Workload w;
  std::mt19937_64 rng(42);
  for (int64_t i = 0; i < build_keys; i++)
    w.build.push_back(i * 7);
  std::uniform_int_distribution<int64_t> in_build(0, build_keys - 1);
  std::uniform_int_distribution<int64_t> other(0, int64_t{1} << 40);
  for (int b = 0; b < kProbeBatches; b++) {
    Vector v(LogicalType::Bigint());
    for (idx_t i = 0; i < kBatchSize; i++) {
      v.data<int64_t>()[i] = rng() % 10 == 0 ? in_build(rng) * 7 : other(rng) * 7 + 1;
    }
    w.probes.push_back(std::move(v));
  }
  return w;
}

void ProbeFilter(benchmark::State& state, uint64_t max_exact_keys) {
  Workload w = MakeWorkload(state.range(0));
  RuntimeFilter filter({LogicalType::Bigint()});
  Vector build(LogicalType::Bigint(), w.build.size());
  for (size_t i = 0; i < w.build.size(); i++)
    build.data<int64_t>()[i] = w.build[i];
  filter.Add({&build}, w.build.size());
  RuntimeFilterLimits limits;
  limits.max_exact_keys = max_exact_keys;
  filter.Finish(limits, w.build.size(), 0);
  std::vector<uint32_t> out(kBatchSize);
  std::vector<uint64_t> hashes;
  uint64_t kept = 0;
  for (auto _ : state) {
    for (const auto& probe : w.probes)
      kept += filter.Probe({&probe}, kBatchSize, nullptr, out.data(), hashes);
  }
  benchmark::DoNotOptimize(kept);
  state.SetItemsProcessed(state.iterations() * kProbeBatches * kBatchSize);
  state.counters["filter_bytes"] = static_cast<double>(filter.bytes());
  state.SetLabel(RuntimeFilterKindName(filter.kinds()));
}

void BM_BloomProbe(benchmark::State& state) {
  ProbeFilter(state, 0);
}

void BM_ExactSetProbe(benchmark::State& state) {
  ProbeFilter(state, UINT64_MAX);
}

void BM_HashSetBaseline(benchmark::State& state) {
  Workload w = MakeWorkload(state.range(0));
  absl::flat_hash_set<int64_t> set(w.build.begin(), w.build.end());
  std::vector<uint32_t> out(kBatchSize);
  uint64_t kept = 0;
  for (auto _ : state) {
    for (const auto& probe : w.probes) {
      const int64_t* keys = probe.data<int64_t>();
      idx_t n = 0;
      for (idx_t i = 0; i < kBatchSize; i++) {
        if (set.contains(keys[i])) out[n++] = static_cast<uint32_t>(i);
      }
      kept += n;
    }
  }
  benchmark::DoNotOptimize(kept);
  state.SetItemsProcessed(state.iterations() * kProbeBatches * kBatchSize);
}

BENCHMARK(BM_BloomProbe)->Arg(1000)->Arg(100000)->Arg(4000000);
BENCHMARK(BM_ExactSetProbe)->Arg(1000)->Arg(100000)->Arg(4000000);
BENCHMARK(BM_HashSetBaseline)->Arg(1000)->Arg(100000)->Arg(4000000);

}  // namespace
}  // namespace shears
