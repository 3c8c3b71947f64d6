#pragma once
// What one running query needs from its session: settings (a copy, so SET during the query
// does not change it), cancellation and memory accounting.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>

#include "common/clock.h"
#include "common/settings.h"
#include "execution/spill.h"

namespace shears {

/// Tracks bytes held by a query's operators (hash tables, sort buffers, materialized
/// results); Reserve throws OutOfMemoryError past the limit, before the OS would kill us.
class MemoryTracker {
 public:
  explicit MemoryTracker(int64_t limit_bytes) : limit_(limit_bytes) {}
  void Reserve(int64_t bytes);
  void Release(int64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }
  /// Below this limit a query may fail for want of the memory every thread needs to work
  /// (a batch, a spill buffer, a block to merge): the error then says so and names it.
  void set_minimum(int64_t bytes) { minimum_ = bytes; }
  /// What a query needs at least per thread, whatever its data.
  static constexpr int64_t kMinimumPerThread = 1 << 20;

 private:
  int64_t limit_;
  int64_t minimum_ = 0;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

/// Bytes an object holds outside the operators' own accounting (a reader's or writer's
/// buffers), kept counted in `memory` as they change: Set reserves the growth (throwing past
/// the limit) and releases the shrinking; the destructor releases the rest. Movable.
class MemoryHold {
 public:
  MemoryHold() = default;
  explicit MemoryHold(MemoryTracker* memory) : memory_(memory) {}
  MemoryHold(MemoryHold&& other) noexcept
      : memory_(other.memory_), held_(std::exchange(other.held_, 0)) {}
  MemoryHold& operator=(MemoryHold&& other) noexcept {
    if (this != &other) {
      Set(0);
      memory_ = other.memory_;
      held_ = std::exchange(other.held_, 0);
    }
    return *this;
  }
  ~MemoryHold() { Set(0); }
  void Set(int64_t bytes) {
    if (!memory_ || bytes == held_) return;
    if (bytes > held_) {
      memory_->Reserve(bytes - held_);
    } else {
      memory_->Release(held_ - bytes);
    }
    held_ = bytes;
  }

 private:
  MemoryTracker* memory_ = nullptr;
  int64_t held_ = 0;
};

/// How far a query's scans are, in bytes of Parquet files: `planned` is the size of every file
/// the plan's scans may read (known before execution), `done` grows as row groups are read or
/// skipped and as whole files are pruned. Read from another thread (the shell's progress bar).
class QueryProgress {
 public:
  void AddPlanned(uint64_t bytes) { planned_.fetch_add(bytes, std::memory_order_relaxed); }
  void AddDone(uint64_t bytes) { done_.fetch_add(bytes, std::memory_order_relaxed); }
  /// In [0, 1]; negative when the query scans no files (no estimate).
  double Fraction() const;

 private:
  std::atomic<uint64_t> planned_{0};
  std::atomic<uint64_t> done_{0};
};

class QueryContext {
 public:
  /// `interrupt`, when given, is a flag owned by the session that cancels the query when set
  /// (Connection::Interrupt, safe to set from a signal handler).
  /// `default_temp_directory`: where to spill when temp_directory is empty (the database's);
  /// "" means the system's.
  explicit QueryContext(Settings settings, const std::atomic<bool>* interrupt = nullptr,
                        const std::string& default_temp_directory = "");
  const Settings& settings() const { return settings_; }
  /// Where and how much this query may spill (temp_directory, max_temp_directory_size).
  const SpillOptions& spill() const { return spill_; }
  MemoryTracker& memory() { return memory_; }
  QueryProgress& progress() { return progress_; }
  void Cancel() { cancelled_.store(true); }
  /// Throws CancelledError when Cancel was called (from any thread), the session's interrupt
  /// flag is set, the query has run longer than statement_timeout (counted from the
  /// context's creation) or has been checked more than statement_batch_limit times (callers
  /// check once per batch, so that is a bound on work independent of the machine).
  void CheckCancelled() const;

 private:
  Settings settings_;
  SpillOptions spill_;
  MemoryTracker memory_;
  QueryProgress progress_;
  std::atomic<bool> cancelled_{false};
  const std::atomic<bool>* interrupt_ = nullptr;
  int64_t timeout_ms_ = 0;
  clock::TimePoint deadline_;
  int64_t batch_limit_ = 0;
  mutable std::atomic<int64_t> batches_{0};
};

/// Physical memory of the machine, in bytes.
int64_t PhysicalMemoryBytes();

}  // namespace shears
