#pragma once
// The loops around a row-at-a-time aggregate Op (Update over one row of its input vectors,
// Combine, Finalize), shared by the aggregates of aggregate_ops_extended.cpp and
// aggregate_ops_numeric.cpp: Use<Op>(op) fills an AggregateOp's kernels from them.

#include <cmath>
#include <cstring>

#include "common/error.h"
#include "execution/aggregate_ops.h"
#include "execution/row_layout.h"
#include "execution/spill.h"

namespace shears::aggregate_loops {

template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
void Store(uint8_t* p, const T& value) {
  std::memcpy(p, &value, sizeof(T));
}

/// Arena bytes aligned for any value (the arena itself hands out unaligned bytes).
inline uint8_t* AllocateAligned(StringArena& arena, size_t size) {
  const auto address = reinterpret_cast<uintptr_t>(arena.Allocate(size + 15));
  return reinterpret_cast<uint8_t*>((address + 15) & ~uintptr_t{15});
}

inline double ToDouble(const Vector& v, idx_t row) {
  double x;
  switch (v.type().physical()) {
    case PhysicalType::kInt32:
      x = v.data<int32_t>()[row];
      break;
    case PhysicalType::kInt64:
      x = static_cast<double>(v.data<int64_t>()[row]);
      break;
    case PhysicalType::kInt128:
      x = static_cast<double>(v.data<int128_t>()[row]);
      break;
    case PhysicalType::kDouble:
      return v.data<double>()[row];
    default:
      throw InternalError("numeric aggregate over {}", v.type().ToString());
  }
  return v.type().id() == TypeId::kDecimal ? x / std::pow(10.0, v.type().scale()) : x;
}

/// Welford's running means and (co-)moments of (y, x) pairs, merged as Chan et al. merge two
/// partial states: the state of covar_*, corr and regr_*.
struct CoMoments {
  int64_t count;
  double mean_x, mean_y;
  double co_moment;   // sum of (x - mean_x) * (y - mean_y)
  double m2_x, m2_y;  // sums of squared deviations

  void Add(double y, double x) {
    count++;
    const double n = static_cast<double>(count);
    const double dx = x - mean_x, dy = y - mean_y;
    mean_x += dx / n;
    mean_y += dy / n;
    co_moment += dx * (y - mean_y);
    m2_x += dx * (x - mean_x);
    m2_y += dy * (y - mean_y);
  }
  void Merge(const CoMoments& src) {
    if (src.count == 0) return;
    if (count == 0) {
      *this = src;
      return;
    }
    const double na = static_cast<double>(count), nb = static_cast<double>(src.count);
    const double n = na + nb;
    const double dx = src.mean_x - mean_x, dy = src.mean_y - mean_y;
    co_moment += src.co_moment + dx * dy * na * nb / n;
    m2_x += src.m2_x + dx * dx * na * nb / n;
    m2_y += src.m2_y + dy * dy * na * nb / n;
    mean_x += dx * nb / n;
    mean_y += dy * nb / n;
    count += src.count;
  }
};

/// Update and Combine of the aggregates of (y, x) pairs over CoMoments (covar_*, corr, regr_*):
/// rows where either is NULL are skipped (y first: DuckDB's and the standard's order).
struct CoMomentsOp {
  using State = CoMoments;
  static void Update(State& s, const Vector* in, idx_t row, StringArena&) {
    if (in[0].IsNull(row) || in[1].IsNull(row)) return;
    s.Add(ToDouble(in[0], row), ToDouble(in[1], row));
  }
  static void Combine(const State& src, State& dst, StringArena&) { dst.Merge(src); }
};

// ---- the loops ----

template <typename Op>
typename Op::State& StateAt(uint8_t* p) {
  return *reinterpret_cast<typename Op::State*>(p);
}

template <typename Op>
void OpUpdateRows(uint8_t* const* rows, uint32_t offset, const Vector* in, idx_t count,
                  StringArena& arena) {
  for (idx_t i = 0; i < count; i++)
    Op::Update(StateAt<Op>(rows[i] + offset), in, i, arena);
}

template <typename Op>
void OpUpdateRange(uint8_t* state, const Vector* in, idx_t begin, idx_t count, StringArena& arena) {
  auto& s = StateAt<Op>(state);
  for (idx_t i = begin; i < begin + count; i++)
    Op::Update(s, in, i, arena);
}

template <typename Op>
void OpUpdateSingle(uint8_t* state, const Vector* in, idx_t count, StringArena& arena) {
  OpUpdateRange<Op>(state, in, 0, count, arena);
}

template <typename Op>
void OpCombine(uint8_t* const* src, uint8_t* const* dst, uint32_t offset, idx_t count,
               StringArena& arena) {
  for (idx_t i = 0; i < count; i++)
    Op::Combine(StateAt<Op>(src[i] + offset), StateAt<Op>(dst[i] + offset), arena);
}

template <typename Op>
void OpFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out, idx_t out_offset,
                const AggregateOp& op) {
  for (idx_t i = 0; i < count; i++) {
    auto& state = StateAt<Op>(rows[i] + offset);
    // Collecting aggregates are NULL without values.
    if constexpr (requires { Op::Empty(state); }) {
      if (Op::Empty(state)) {
        out.validity().SetNull(out_offset + i);
        continue;
      }
    }
    Op::Finalize(state, out, out_offset + i, op);
  }
}

template <typename Op>
void OpSpillWrite(const uint8_t* state, std::vector<uint8_t>& out) {
  Op::SpillWrite(*reinterpret_cast<const typename Op::State*>(state), out);
}

template <typename Op>
void OpSpillRead(uint8_t* state, SpilledStateBytes& in) {
  Op::SpillRead(StateAt<Op>(state), in);
}

template <typename Op>
void Use(AggregateOp& op) {
  op.state_size = sizeof(typename Op::State);
  op.state_align = alignof(typename Op::State);
  op.update = OpUpdateRows<Op>;
  op.update_single = OpUpdateSingle<Op>;
  op.update_range = OpUpdateRange<Op>;
  op.combine = OpCombine<Op>;
  op.finalize = OpFinalize<Op>;
  // States pointing into the arena say how they spill.
  if constexpr (requires { &Op::SpillWrite; }) {
    op.spill_write = OpSpillWrite<Op>;
    op.spill_read = OpSpillRead<Op>;
  }
}

}  // namespace shears::aggregate_loops
