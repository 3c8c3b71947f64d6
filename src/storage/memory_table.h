#pragma once
// Columns that live in memory the engine does not own (a host language's arrays: the Python
// module's numpy arrays and pandas columns), scanned in place by PhysicalMemoryScan. A column
// whose layout is the engine's (int32 for INTEGER, int64 for BIGINT and TIMESTAMP, double,
// one byte per BOOLEAN, StringRefs) is handed to operators without copying; the others are
// converted batch by batch while scanning.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"

namespace shears {

struct MemoryColumn {
  /// How the values are stored, when not in the engine's layout for `type`.
  enum class Source : uint8_t {
    kNative,   // the engine's layout for `type`
    kInt8,     // -> INTEGER
    kInt16,    // -> INTEGER
    kUInt8,    // -> INTEGER
    kUInt16,   // -> INTEGER
    kUInt32,   // -> BIGINT
    kUInt64,   // -> BIGINT; a value above its maximum is an OutOfRangeError
    kFloat32,  // -> REAL (vectors hold REALs as doubles)
    // int64 times -> TIMESTAMP (DATE for days), INT64_MIN (numpy's NaT) as NULL:
    kTimeNanos,    // nanoseconds (datetime64[ns]), rounded down to microseconds
    kTimeMillis,   // milliseconds
    kTimeSeconds,  // seconds
    kTimeMicros,   // microseconds (the native layout, but NaT must become NULL)
    kTimeDays,     // days (datetime64[D]) -> DATE
  };
  std::string name;
  LogicalType type;
  Source source = Source::kNative;
  /// `rows` values, contiguous.
  const void* data = nullptr;
  /// One byte per row, nonzero for NULL (numpy's masked arrays, pandas' masks), or null.
  const uint8_t* null_mask = nullptr;
  /// NaN reads as NULL (pandas' float columns, where NaN means missing).
  bool nan_is_null = false;
};

struct MemoryTable {
  std::vector<MemoryColumn> columns;
  idx_t rows = 0;
  /// Keeps the memory every column points into alive (and, for the Python module, releases
  /// it under the interpreter's lock); shared by every vector that references it.
  std::shared_ptr<const void> owner;
};

}  // namespace shears
