#include "common/memory_policy.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SHEARS_SANITIZER_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SHEARS_SANITIZER_ALLOCATOR 1
#endif

// Only glibc's malloc is tuned: a sanitizer replaces it (its mallopt does nothing), and other
// C libraries have neither the knobs nor the problem in this form.
#if defined(__GLIBC__) && !defined(SHEARS_SANITIZER_ALLOCATOR)
#define SHEARS_TUNE_GLIBC_MALLOC 1
#include <malloc.h>
#endif

namespace shears::memory_policy {

namespace {

std::atomic<int> running_statements{0};
std::atomic<uint64_t> statements_started{0};

[[maybe_unused]] size_t ResidentBytes() {
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return 0;
  unsigned long size_pages = 0, resident_pages = 0;
  const int read = std::fscanf(statm, "%lu %lu", &size_pages, &resident_pages);
  std::fclose(statm);
  if (read != 2) return 0;
  return resident_pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

/// The thread that releases free memory after a quiet delay. Never destroyed: it may be waiting
/// when the process exits.
struct IdleReleaser {
  std::mutex mutex;
  std::condition_variable wake;
  bool thread_started = false;
  bool pending = false;
  uint64_t started_at_schedule = 0;
  std::chrono::steady_clock::time_point deadline;

  void Schedule(int64_t delay_ms) {
    std::lock_guard<std::mutex> lock(mutex);
    pending = true;
    started_at_schedule = statements_started.load();
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms);
    if (!thread_started) {
      thread_started = true;
      std::thread([this] { Run(); }).detach();
    }
    wake.notify_one();
  }

  void Run() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      wake.wait(lock, [this] { return pending; });
      // A later Schedule moves the deadline; wait until the latest one passes.
      while (pending && wake.wait_until(lock, deadline) != std::cv_status::timeout) {
      }
      if (!pending || std::chrono::steady_clock::now() < deadline) continue;
      pending = false;
      // A statement started since: its own end schedules again.
      if (statements_started.load() != started_at_schedule || running_statements.load() != 0) {
        continue;
      }
      lock.unlock();
      Release();
      lock.lock();
    }
  }
};

[[maybe_unused]] IdleReleaser& Releaser() {
  static IdleReleaser* releaser = new IdleReleaser();
  return *releaser;
}

}  // namespace

void Apply() {
#ifdef SHEARS_TUNE_GLIBC_MALLOC
  static std::once_flag once;
  std::call_once(once, [] {
    // 32 MiB is glibc's largest mmap threshold (half its 64 MiB heaps for threads). A fixed
    // threshold also stops glibc raising it by itself, which it does only after the first
    // large free, so the first query paid for the mappings either way.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    // Never trim the heap's top by itself; StatementScope returns free memory between
    // statements. (mallopt takes an int: 2 GiB - 1 is its largest value.)
    mallopt(M_TRIM_THRESHOLD, 0x7fffffff);
    // A thread's arena unmaps a 64 MiB heap as soon as it is all free, whatever the trim
    // threshold, unless it keeps this much spare: without it q78 run again faulted in half its
    // memory afresh. Address space only: untouched, it costs no memory.
    mallopt(M_TOP_PAD, 64 << 20);
  });
#endif
}

bool Tunes() {
#ifdef SHEARS_TUNE_GLIBC_MALLOC
  return true;
#else
  return false;
#endif
}

size_t RetainedBytes() {
#ifdef SHEARS_TUNE_GLIBC_MALLOC
  const size_t resident = ResidentBytes();
  const struct mallinfo2 info = mallinfo2();
  // In use: handed out from the arenas (uordblks) and mmap'd blocks (hblkhd).
  const size_t in_use = info.uordblks + info.hblkhd;
  return resident > in_use ? resident - in_use : 0;
#else
  return 0;
#endif
}

void Release() {
#ifdef SHEARS_TUNE_GLIBC_MALLOC
  malloc_trim(0);
#endif
}

int64_t DefaultRetainLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return int64_t{1} << 30;
  return static_cast<int64_t>(pages) * page_size / 8;
}

StatementScope::StatementScope(int64_t retain_limit, int64_t release_delay_ms)
    : retain_limit_(retain_limit), release_delay_ms_(release_delay_ms) {
  statements_started.fetch_add(1, std::memory_order_relaxed);
  running_statements.fetch_add(1, std::memory_order_relaxed);
}

StatementScope::~StatementScope() {
#ifdef SHEARS_TUNE_GLIBC_MALLOC
  if (running_statements.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  // A statement starting meanwhile only finds less memory to reuse. Checking the resident size
  // first (one read of /proc) spares small processes mallinfo2's walk of the free lists.
  constexpr size_t kNotWorthAThread = 64 << 20;
  if (ResidentBytes() <= kNotWorthAThread) return;
  const size_t retained = RetainedBytes();
  if (release_delay_ms_ == 0 || retained > static_cast<size_t>(retain_limit_)) {
    Release();
  } else if (retained > kNotWorthAThread) {
    Releaser().Schedule(release_delay_ms_);
  }
#else
  running_statements.fetch_sub(1, std::memory_order_acq_rel);
#endif
}

}  // namespace shears::memory_policy
