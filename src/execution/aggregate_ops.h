#pragma once
// The aggregate functions of GROUP BY (count(*), count, sum, avg, min, max, stddev_samp,
// any_value) as vectorized kernels over fixed-size states that live inside hash-table rows.
// A kernel is chosen once per (function, argument type, result type); it then runs a tight
// typed loop over a whole vector, so there is no per-row dispatch.
//
// States start zeroed (rows are zero-filled) and hold no owning pointers: strings kept by
// min/max/any_value live in the StringArena of the rows' collection.

#include "common/vector.h"
#include "planner/expression.h"

namespace shears {

class StringArena;

struct AggregateOp {
  AggregateKind kind = AggregateKind::kCountStar;
  LogicalType arg_type;  // invalid for count(*)
  LogicalType result_type;
  uint32_t state_size = 0;
  uint32_t state_align = 8;

  /// Adds arg[i] to the state at rows[i] + offset, i < count (NULLs are skipped; count(*)
  /// ignores `arg`, which may be null).
  void (*update)(uint8_t* const* rows, uint32_t offset, const Vector* arg, idx_t count,
                 StringArena& arena) = nullptr;
  /// Adds arg[0..count) to one state.
  void (*update_single)(uint8_t* state, const Vector* arg, idx_t count,
                        StringArena& arena) = nullptr;
  /// Adds arg[begin..begin + count) to one state (window frames over materialized rows).
  void (*update_range)(uint8_t* state, const Vector* arg, idx_t begin, idx_t count,
                       StringArena& arena) = nullptr;
  /// Merges the state at src[i] + offset into the one at dst[i] + offset.
  void (*combine)(uint8_t* const* src, uint8_t* const* dst, uint32_t offset, idx_t count,
                  StringArena& arena) = nullptr;
  /// out[out_offset + i] = result of the state at rows[i] + offset. Throws OutOfRangeError
  /// when a sum does not fit its result type.
  void (*finalize)(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                   idx_t out_offset, const AggregateOp& op) = nullptr;
};

/// The kernels for `kind` over `arg_type` producing `result_type` (as the binder typed the
/// BoundAggregate). Throws NotSupportedError for combinations the engine has no kernel for.
AggregateOp BindAggregateOp(AggregateKind kind, const LogicalType& arg_type,
                            const LogicalType& result_type);

}  // namespace shears
