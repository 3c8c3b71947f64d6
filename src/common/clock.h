#pragma once
// The engine's clocks. Every duration, deadline and "now" the engine reads comes from here, so a
// test or the fuzz gate can swap in a deterministic clock: with real clocks, timings change the
// text of EXPLAIN ANALYZE and the values libFuzzer sees compared, and two runs of one commit
// would explore differently (see scripts/fuzz.sh --gate).

#include <chrono>
#include <cstdint>

namespace shears::clock {

using TimePoint = std::chrono::steady_clock::time_point;

/// Monotonic time, for durations and deadlines.
TimePoint Now();

/// Milliseconds (fractional) and nanoseconds from `start` to Now().
double MillisSince(TimePoint start);
uint64_t NanosSince(TimePoint start);

/// Wall-clock time in nanoseconds since the Unix epoch: current_date, now(), file ages.
int64_t WallNanos();

/// From here on, both clocks are counters: Now() advances by one microsecond per reading,
/// WallNanos() reads `wall_nanos` plus the same advance. For the fuzz targets and tests that
/// need runs to repeat exactly; never set in the shell or library.
void UseDeterministicClock(int64_t wall_nanos);

/// Back to the real clocks (tests that used the deterministic one).
void UseRealClock();

}  // namespace shears::clock
