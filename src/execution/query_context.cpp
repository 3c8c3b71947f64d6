#include "execution/query_context.h"

#include <unistd.h>

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"

namespace shears {

int64_t PhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return int64_t{8} << 30;
  return static_cast<int64_t>(pages) * page_size;
}

static std::string FormatBytes(int64_t bytes) {
  if (bytes >= (int64_t{1} << 30)) return fmt::format("{:.1f} GiB", bytes / double(1 << 30));
  if (bytes >= (1 << 20)) return fmt::format("{:.1f} MiB", bytes / double(1 << 20));
  return fmt::format("{} bytes", bytes);
}

void MemoryTracker::Reserve(int64_t bytes) {
  int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ > 0 && now > limit_) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    if (limit_ < minimum_) {
      throw OutOfMemoryError(
          "the query needs more than memory_limit = {} (it had {} in use), which is below "
          "the minimum of {} for its threads (1 MiB per thread); raise it with SET "
          "memory_limit = '...' or lower SET threads",
          FormatBytes(limit_), FormatBytes(now - bytes), FormatBytes(minimum_));
    }
    throw OutOfMemoryError(
        "the query needs more than memory_limit = {} (it had {} in use); raise it with "
        "SET memory_limit = '...'",
        FormatBytes(limit_), FormatBytes(now - bytes));
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
  }
}

double QueryProgress::Fraction() const {
  const uint64_t planned = planned_.load(std::memory_order_relaxed);
  if (planned == 0) return -1;
  return std::min(1.0, static_cast<double>(done_.load(std::memory_order_relaxed)) /
                           static_cast<double>(planned));
}

QueryContext::QueryContext(Settings settings, const std::atomic<bool>* interrupt,
                           const std::string& default_temp_directory)
    : settings_(std::move(settings)),
      memory_(settings_.GetInt("memory_limit") > 0 ? settings_.GetInt("memory_limit")
                                                   : PhysicalMemoryBytes() / 10 * 8),
      interrupt_(interrupt),
      timeout_ms_(settings_.GetInt("statement_timeout")),
      deadline_(clock::Now() + std::chrono::milliseconds(timeout_ms_)),
      batch_limit_(settings_.GetInt("statement_batch_limit")) {
  spill_.directory = settings_.GetString("temp_directory");
  if (spill_.directory.empty()) spill_.directory = default_temp_directory;
  if (spill_.directory.empty()) spill_.directory = DefaultTempDirectory("");
  spill_.max_bytes = settings_.GetInt("max_temp_directory_size");
  spill_.memory = &memory_;
  memory_.set_minimum(std::max<int64_t>(1, settings_.GetInt("threads")) *
                      MemoryTracker::kMinimumPerThread);
}

void QueryContext::CheckCancelled() const {
  if (cancelled_.load(std::memory_order_relaxed) ||
      (interrupt_ && interrupt_->load(std::memory_order_relaxed))) {
    throw CancelledError("the query was cancelled");
  }
  if (timeout_ms_ > 0 && clock::Now() > deadline_) {
    throw CancelledError(
        "the query ran longer than statement_timeout ({} ms) and was cancelled (SET "
        "statement_timeout = 0 removes the limit)",
        timeout_ms_);
  }
  if (batch_limit_ > 0 && batches_.fetch_add(1, std::memory_order_relaxed) >= batch_limit_) {
    throw CancelledError(
        "the query processed more than statement_batch_limit ({}) batches and was cancelled "
        "(SET statement_batch_limit = 0 removes the limit)",
        batch_limit_);
  }
}

}  // namespace shears
