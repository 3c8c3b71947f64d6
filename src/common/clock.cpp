#include "common/clock.h"

#include <atomic>

namespace shears::clock {
namespace {

std::atomic<bool> g_deterministic{false};
std::atomic<int64_t> g_wall_start{0};
std::atomic<int64_t> g_ticks{0};  // readings of the deterministic clock so far

constexpr int64_t kTickNanos = 1000;

int64_t Tick() {
  return g_ticks.fetch_add(1, std::memory_order_relaxed) * kTickNanos;
}

}  // namespace

TimePoint Now() {
  if (g_deterministic.load(std::memory_order_relaxed)) {
    return TimePoint(std::chrono::nanoseconds(Tick()));
  }
  return std::chrono::steady_clock::now();
}

double MillisSince(TimePoint start) {
  return std::chrono::duration<double, std::milli>(Now() - start).count();
}

uint64_t NanosSince(TimePoint start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Now() - start).count());
}

int64_t WallNanos() {
  if (g_deterministic.load(std::memory_order_relaxed)) {
    return g_wall_start.load(std::memory_order_relaxed) + Tick();
  }
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void UseDeterministicClock(int64_t wall_nanos) {
  g_wall_start.store(wall_nanos, std::memory_order_relaxed);
  g_ticks.store(0, std::memory_order_relaxed);
  g_deterministic.store(true, std::memory_order_relaxed);
}

void UseRealClock() {
  g_deterministic.store(false, std::memory_order_relaxed);
}

}  // namespace shears::clock
