#pragma once
// The aggregate functions of GROUP BY (count(*), count, sum, avg, min, max, the variances and
// standard deviations, bool_and / bool_or, any_value; the others in aggregate_ops_extended.cpp)
// as vectorized kernels over fixed-size states that live inside hash-table rows.
// A kernel is chosen once per (function, argument type, result type); it then runs a tight
// typed loop over a whole vector, so there is no per-row dispatch.
//
// States start zeroed (rows are zero-filled) and hold no owning pointers: strings kept by
// min/max/any_value, and the values median, mode and string_agg collect, live in the
// StringArena of the rows' collection (counted against memory_limit).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "common/vector.h"
#include "expression/expression.h"

namespace shears {

class StringArena;
class SpilledStateBytes;

/// The order of min, max and the collecting aggregates: ORDER BY's (NaN above every number,
/// strings bytewise).
template <typename T>
inline bool AggregateLess(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>) {
    return !std::isnan(a) && (std::isnan(b) || a < b);
  } else if constexpr (std::is_same_v<T, StringRef>) {
    const uint32_t common = std::min(a.len, b.len);
    const int c = common == 0 ? 0 : std::memcmp(a.ptr, b.ptr, common);
    return c != 0 ? c < 0 : a.len < b.len;
  } else {
    return a < b;
  }
}

struct AggregateOp {
  AggregateKind kind = AggregateKind::kCountStar;
  LogicalType arg_type;  // invalid for count(*)
  LogicalType result_type;
  uint32_t state_size = 0;
  uint32_t state_align = 8;
  /// Aggregates of several inputs (covar_pop(y, x), string_agg(x, ',' ORDER BY y)) get them as
  /// consecutive vectors: `arg` below points at the first of `input_types.size()`.
  std::vector<LogicalType> input_types;
  AggregateParams params;

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
  /// For a state that points into the arena (a kept string, collected values, arg_min /
  /// arg_max's strings, a sketch): appends what it points to after its row in a spill
  /// segment, and points a state read back at those bytes (SpilledState). Null when the
  /// state is plain bytes.
  void (*spill_write)(const uint8_t* state, std::vector<uint8_t>& out) = nullptr;
  void (*spill_read)(uint8_t* state, SpilledStateBytes& in) = nullptr;
};

/// Whether the aggregate collects its values (median, quantiles, mode, string_agg): its
/// finalize costs time linear in the values, not constant.
inline bool IsCollectingAggregate(AggregateKind kind) {
  return kind == AggregateKind::kQuantileCont || kind == AggregateKind::kQuantileDisc ||
         kind == AggregateKind::kMode || kind == AggregateKind::kStringAgg;
}

/// The kernels for `kind` over `arg_type` producing `result_type` (as the binder typed the
/// BoundAggregate). Throws NotSupportedError for combinations the engine has no kernel for.
AggregateOp BindAggregateOp(AggregateKind kind, const LogicalType& arg_type,
                            const LogicalType& result_type);
/// The same for an aggregate of any number of inputs (none for count(*)).
AggregateOp BindAggregateOp(AggregateKind kind, const std::vector<LogicalType>& input_types,
                            const LogicalType& result_type, const AggregateParams& params);

/// The kernels of the aggregates of aggregate_ops_extended.cpp (covar_*, corr, arg_min /
/// arg_max, approx_count_distinct, quantiles, mode, string_agg) into `op`; false for other
/// kinds.
bool BindExtendedAggregateOp(AggregateOp& op);
/// The same for aggregate_ops_numeric.cpp (bit_and / bit_or / bit_xor, product, regr_*).
bool BindNumericAggregateOp(AggregateOp& op);

}  // namespace shears
