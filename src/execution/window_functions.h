#pragma once
// Window functions over one sorted run of rows (PhysicalWindow hands over one hash bucket at a
// time): its partitions and peer groups, the arguments gathered in sorted order, and the
// frame of each row (ROWS / RANGE / GROUPS, offsets, EXCLUDE).
//
// Aggregates whose frame starts at UNBOUNDED PRECEDING (without EXCLUDE) run incrementally:
// one state per partition, advanced as the frame end moves. Every other frame asks a segment
// tree (fanout 16, built bottom-up from the aggregate's own combine kernel) for its rows:
// O(log n) states per row, so large sliding frames cost O(n log n), not O(n * frame).

#include <functional>
#include <vector>

#include "common/vector.h"
#include "expression/expression.h"

namespace shears {

class MemoryTracker;

/// Memory counted against the query while an object holds it; released on destruction.
class MemoryReservation {
 public:
  explicit MemoryReservation(MemoryTracker* memory) : memory_(memory) {}
  ~MemoryReservation();
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  void Add(int64_t bytes);
  MemoryTracker* memory() const { return memory_; }

 private:
  MemoryTracker* memory_;
  int64_t bytes_ = 0;
};

/// The shape of a sorted run: partitions and peer groups (rows equal on PARTITION BY and
/// ORDER BY), as row positions.
struct WindowRun {
  idx_t count = 0;
  std::vector<idx_t> partition_starts;  // first row of each partition, then `count`
  std::vector<uint32_t> group_of;       // peer group of each row (numbered across the run)
  std::vector<idx_t> group_starts;      // first row of each peer group, then `count`
  /// Called every kBatchSize rows computed (cancellation); may be empty.
  std::function<void()> check_cancelled;
};

/// A window function's inputs in sorted order: BoundWindow::args, and for RANGE frames with
/// offsets the ORDER BY key and the bound values (null when the window has none).
struct WindowArguments {
  std::vector<const Vector*> args;
  const Vector* range_key = nullptr;
  const Vector* range_start = nullptr;
  const Vector* range_end = nullptr;
};

/// Computes `window` for every row of `run` into `out` (capacity >= run.count). Memory of
/// strings copied into `out` is added to `reservation`, which must live as long as `out`.
void ComputeWindow(const BoundWindow& window, const WindowRun& run, const WindowArguments& args,
                   Vector& out, MemoryReservation& reservation);

}  // namespace shears
