#pragma once
// Pieces shared by the data generators (star_generator.cpp, tpcds_*.cpp): a seeded random
// stream, a row-at-a-time Parquet table file, a compact schema notation and a parallel loop.

#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/parquet/parquet_writer.h"

namespace shears::gen {

/// SplitMix64: small and fast, and plenty for synthetic data. Each table, partition or day has
/// a stream of its own, so the values of one never depend on how many draws another made (and
/// work can run on any thread in any order with the same output).
class Rng {
 public:
  Rng(uint64_t seed, uint64_t stream) : state_(seed * 0xD1B54A32D192ED03ULL + stream) { Next(); }
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t Between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }
  /// An index into a list of `n`.
  size_t Pick(size_t n) { return static_cast<size_t>(Next() % n); }

 private:
  uint64_t state_;
};

/// The value that stands for NULL in int64 row buffers.
constexpr int64_t kNull = INT64_MIN;

/// A table's columns, written compactly as "name:t,name:t,..." where t is i (INTEGER),
/// l (BIGINT), d (DATE), s (VARCHAR), m (DECIMAL(7,2)), g (DECIMAL(5,2)) or p (DECIMAL(15,2)).
struct Schema {
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  explicit Schema(std::string_view spec) {
    size_t start = 0;
    while (start < spec.size()) {
      size_t end = spec.find(',', start);
      if (end == std::string_view::npos) end = spec.size();
      const std::string_view column = spec.substr(start, end - start);
      const size_t colon = column.rfind(':');
      names.emplace_back(column.substr(0, colon));
      switch (column[colon + 1]) {
        case 'i':
          types.push_back(LogicalType::Integer());
          break;
        case 'l':
          types.push_back(LogicalType::Bigint());
          break;
        case 'd':
          types.push_back(LogicalType::Date());
          break;
        case 's':
          types.push_back(LogicalType::Varchar());
          break;
        case 'm':
          types.push_back(LogicalType::Decimal(7, 2));
          break;
        case 'g':
          types.push_back(LogicalType::Decimal(5, 2));
          break;
        default:
          types.push_back(LogicalType::Decimal(15, 2));
          break;
      }
      start = end + 1;
    }
  }
};

/// Appends rows to one Parquet file, a value at a time in column order:
/// `f.Int(1).Str("x").Null(); f.EndRow();`. Integers go to INTEGER, BIGINT, DATE (days) and
/// DECIMAL (unscaled) columns alike.
class RowFile {
 public:
  RowFile(const std::string& path, const Schema& schema)
      : writer_(path, schema.names, schema.types), batch_(schema.types) {
    for (const auto& type : schema.types)
      wide_.push_back(type.physical() == PhysicalType::kInt64);
  }
  RowFile& Int(int64_t value) {
    if (value == kNull) return Null();
    auto& vector = batch_.column(column_);
    if (wide_[column_]) {
      vector.data<int64_t>()[row_] = value;
    } else {
      vector.data<int32_t>()[row_] = static_cast<int32_t>(value);
    }
    column_++;
    return *this;
  }
  RowFile& Int(std::optional<int64_t> value) { return value ? Int(*value) : Null(); }
  RowFile& Str(std::string_view value) {
    auto& vector = batch_.column(column_++);
    vector.data<StringRef>()[row_] = vector.AddString(value);
    return *this;
  }
  /// A string or NULL (nullptr).
  RowFile& Str(const char* value) { return value ? Str(std::string_view(value)) : Null(); }
  RowFile& Str(const std::string& value) { return Str(std::string_view(value)); }
  RowFile& Null() {
    batch_.column(column_++).validity().SetNull(row_);
    return *this;
  }
  /// A row of int64 values (kNull for NULL), one per column.
  void Ints(const int64_t* values) {
    for (size_t i = 0; i < wide_.size(); i++)
      Int(values[i]);
    EndRow();
  }
  void EndRow() {
    if (column_ != wide_.size()) {
      throw InternalError("generator row for '{}' has {} values, not {}", writer_.path(), column_,
                          wide_.size());
    }
    column_ = 0;
    rows_total_++;
    if (++row_ == kBatchSize) Flush();
  }
  int64_t rows() const { return rows_total_; }
  /// Writes what is buffered and the footer; returns the file size.
  uint64_t Close() {
    Flush();
    return writer_.Close().size;
  }

 private:
  void Flush() {
    if (row_ == 0) return;
    batch_.SetSize(row_);
    writer_.Write(batch_);
    batch_.Reset();
    row_ = 0;
  }
  parquet::ParquetWriter writer_;
  Batch batch_;
  std::vector<bool> wide_;
  idx_t row_ = 0, column_ = 0;
  int64_t rows_total_ = 0;
};

/// Runs fn(0) .. fn(n-1) on `threads` threads (tasks taken in order); rethrows the first
/// exception after all threads have stopped.
inline void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = n;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < n; t++)
    pool.emplace_back(work);
  work();
  for (auto& thread : pool)
    thread.join();
  if (error) std::rethrow_exception(error);
}

/// Checks a generator's scale and output directory (InvalidInputError: scale outside
/// (0, 1000], no directory, or one that is not empty) and creates the directory (IOError).
inline void PrepareOutput(double scale, const std::string& dir) {
  namespace fs = std::filesystem;
  if (!(scale > 0) || scale > 1000) {
    throw InvalidInputError("scale must be > 0 and <= 1000, got {}", scale);
  }
  if (dir.empty()) throw InvalidInputError("an output directory is required");
  std::error_code ec;
  if (fs::exists(dir) && !fs::is_empty(dir, ec)) {
    throw InvalidInputError("output directory '{}' exists and is not empty", dir);
  }
  fs::create_directories(dir, ec);
  if (ec) throw IOError("cannot create '{}': {}", dir, ec.message());
}

/// A 16-character business key as TPC-DS has them: "AAAAAAAA" and the number in 8 digits.
inline std::string BusinessKey(int64_t number) {
  std::string digits = std::to_string(number);
  return "AAAAAAAA" + std::string(digits.size() < 8 ? 8 - digits.size() : 0, '0') + digits;
}

}  // namespace shears::gen
