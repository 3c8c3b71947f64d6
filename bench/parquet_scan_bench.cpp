// Scan throughput of the Parquet reader over a 10M-row file written by our own writer, and the
// writer's throughput. The file (id BIGINT sequential, k INTEGER 0..999, price DECIMAL(12,2),
// d DATE over ~5 years, s VARCHAR of ~1000 distinct 10-20 character values, x DOUBLE; SNAPPY)
// is generated from a fixed seed once and cached in /tmp/shears_bench/scan_10m.parquet.
// items/s counts rows; bytes/s counts the bytes the reader read (its counters), or for the
// writer the bytes of the file written.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/vector.h"
#include "storage/parquet/parquet_reader.h"
#include "storage/parquet/parquet_writer.h"

namespace shears::parquet {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kScanRows = 10'000'000;
constexpr int64_t kWriteRows = 1'000'000;
const char kBenchDir[] = "/tmp/shears_bench";
const char kScanFile[] = "/tmp/shears_bench/scan_10m.parquet";

const std::vector<std::string> kNames = {"id", "k", "price", "d", "s", "x"};

std::vector<LogicalType> Types() {
  return {LogicalType::Bigint(), LogicalType::Integer(), LogicalType::Decimal(12, 2),
          LogicalType::Date(),   LogicalType::Varchar(), LogicalType::Double()};
}

/// The benchmark rows, generated in order from a fixed seed.
class RowGenerator {
 public:
  RowGenerator() : rng_(20240601) {
    for (int i = 0; i < 1000; i++) {
      std::string s = std::to_string(i) + "-";
      const size_t length = 10 + rng_() % 11;
      while (s.size() < length)
        s.push_back(static_cast<char>('a' + rng_() % 26));
      strings_.push_back(std::move(s));
    }
  }

  /// Fills `batch` with the next `count` rows. The strings point into this generator.
  void Fill(Batch& batch, idx_t count) {
    auto* id = batch.column(0).data<int64_t>();
    auto* k = batch.column(1).data<int32_t>();
    auto* price = batch.column(2).data<int64_t>();
    auto* d = batch.column(3).data<int32_t>();
    auto* s = batch.column(4).data<StringRef>();
    auto* x = batch.column(5).data<double>();
    for (idx_t r = 0; r < count; r++) {
      id[r] = next_id_++;
      k[r] = static_cast<int32_t>(rng_() % 1000);
      price[r] = 100 + static_cast<int64_t>(rng_() % 9'999'900);  // 1.00 .. 99999.99
      d[r] = kFirstDay + static_cast<int32_t>(rng_() % 1826);
      s[r] = StringRef(strings_[rng_() % strings_.size()]);
      x[r] = static_cast<double>(rng_() >> 11) * 0x1.0p-53 * 1000.0;
    }
    batch.SetSize(count);
  }

 private:
  static inline const int32_t kFirstDay = DaysFromCivil(2019, 1, 1);
  std::mt19937_64 rng_;
  std::vector<std::string> strings_;
  int64_t next_id_ = 0;
};

WrittenFile WriteRows(const std::string& path, int64_t rows) {
  WriterOptions options;
  options.codec = format::CompressionCodec::SNAPPY;
  ParquetWriter writer(path, kNames, Types(), options);
  RowGenerator generator;
  Batch batch(Types());
  for (int64_t done = 0; done < rows; done += static_cast<int64_t>(kBatchSize)) {
    generator.Fill(batch, static_cast<idx_t>(std::min<int64_t>(kBatchSize, rows - done)));
    writer.Write(batch);
  }
  return writer.Close();
}

/// The cached scan file, written (to a temporary name, then renamed) when missing or stale.
const std::string& ScanFile() {
  static const std::string path = [] {
    fs::create_directories(kBenchDir);
    try {
      if (fs::exists(kScanFile) && ParquetFile::Open(kScanFile)->num_rows() == kScanRows) {
        return std::string(kScanFile);
      }
    } catch (const Error&) {
      // Unreadable: write it again.
    }
    const std::string temp = std::string(kScanFile) + ".tmp";
    WriteRows(temp, kScanRows);
    fs::rename(temp, kScanFile);
    return std::string(kScanFile);
  }();
  return path;
}

void Scan(benchmark::State& state, std::vector<int> columns) {
  const std::string& path = ScanFile();
  uint64_t rows = 0, bytes = 0;
  for (auto _ : state) {
    ParquetReader reader(ParquetFile::Open(path), columns);
    Batch batch(reader.output_types());
    while (reader.Next(batch))
      benchmark::DoNotOptimize(batch.column(0).raw_data());
    rows += reader.counters().rows_read;
    bytes += reader.counters().bytes_read;
  }
  state.SetItemsProcessed(static_cast<int64_t>(rows));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

void BM_ScanAllColumns(benchmark::State& state) {
  std::vector<int> all(kNames.size());
  std::iota(all.begin(), all.end(), 0);
  Scan(state, all);
}
BENCHMARK(BM_ScanAllColumns)->Unit(benchmark::kMillisecond);

void BM_ScanIntegerColumn(benchmark::State& state) {
  Scan(state, {1});
}
BENCHMARK(BM_ScanIntegerColumn)->Unit(benchmark::kMillisecond);

void BM_ScanVarcharColumn(benchmark::State& state) {
  Scan(state, {4});
}
BENCHMARK(BM_ScanVarcharColumn)->Unit(benchmark::kMillisecond);

/// Writes kWriteRows rows of the same data (SNAPPY, dictionary, statistics, page index),
/// generated beforehand so only the writer is timed.
void BM_WriteParquet(benchmark::State& state) {
  fs::create_directories(kBenchDir);
  const std::string path = std::string(kBenchDir) + "/write_bench.parquet";
  RowGenerator generator;
  std::vector<Batch> batches;
  for (int64_t done = 0; done < kWriteRows; done += static_cast<int64_t>(kBatchSize)) {
    generator.Fill(batches.emplace_back(Types()),
                   static_cast<idx_t>(std::min<int64_t>(kBatchSize, kWriteRows - done)));
  }
  uint64_t bytes = 0;
  for (auto _ : state) {
    ParquetWriter writer(path, kNames, Types());
    for (const auto& batch : batches)
      writer.Write(batch);
    bytes += writer.Close().size;
  }
  fs::remove(path);
  state.SetItemsProcessed(state.iterations() * kWriteRows);
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_WriteParquet)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace shears::parquet
