// Numeric aggregates beyond the statistics of aggregate_ops*.cpp: the bitwise folds bit_and /
// bit_or / bit_xor of INTEGER and BIGINT, product (DOUBLE), and the SQL standard's linear
// regression family regr_*(y, x) (count, avgx, avgy, sxx, syy, sxy, slope, intercept, r2).
// Results follow DuckDB's definitions, which PostgreSQL shares except where noted at Finalize.

#include "execution/aggregate_op_loops.h"

namespace shears {

namespace {

using namespace aggregate_loops;

// ---- bit_and, bit_or, bit_xor ----

template <typename T>
struct BitState {
  T value;
  uint8_t set;
};

template <typename T, AggregateKind kKind>
struct BitOp {
  using State = BitState<T>;
  static void Fold(State& s, T v) {
    if (!s.set) {
      s.value = v;
      s.set = 1;
    } else if constexpr (kKind == AggregateKind::kBitAnd) {
      s.value &= v;
    } else if constexpr (kKind == AggregateKind::kBitOr) {
      s.value |= v;
    } else {
      s.value ^= v;
    }
  }
  static void Update(State& s, const Vector* in, idx_t row, StringArena&) {
    if (!in[0].IsNull(row)) Fold(s, in[0].data<T>()[row]);
  }
  static void Combine(const State& src, State& dst, StringArena&) {
    if (src.set) Fold(dst, src.value);
  }
  static bool Empty(const State& s) { return !s.set; }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    out.data<T>()[row] = s.value;
  }
};

template <AggregateKind kKind>
void UseBitOp(AggregateOp& op) {
  switch (op.arg_type.physical()) {
    case PhysicalType::kInt32:
      Use<BitOp<int32_t, kKind>>(op);
      return;
    case PhysicalType::kInt64:
      Use<BitOp<int64_t, kKind>>(op);
      return;
    default:
      throw NotSupportedError("bitwise aggregate over {} is not supported", op.arg_type.ToString());
  }
}

// ---- product ----

struct ProductState {
  double product;
  uint8_t set;
};

struct ProductOp {
  using State = ProductState;
  static void Update(State& s, const Vector* in, idx_t row, StringArena&) {
    if (in[0].IsNull(row)) return;
    const double x = ToDouble(in[0], row);
    s.product = s.set ? s.product * x : x;
    s.set = 1;
  }
  static void Combine(const State& src, State& dst, StringArena&) {
    if (!src.set) return;
    dst.product = dst.set ? dst.product * src.product : src.product;
    dst.set = 1;
  }
  static bool Empty(const State& s) { return !s.set; }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    out.data<double>()[row] = s.product;
  }
};

// ---- regr_* ----

template <AggregateKind kKind>
struct RegrOp : CoMomentsOp {
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    if constexpr (kKind == AggregateKind::kRegrCount) {
      out.data<int64_t>()[row] = s.count;  // 0, not NULL, without pairs
      return;
    }
    auto null = [&]() { out.validity().SetNull(row); };
    if (s.count == 0) return null();
    double result = 0;
    if constexpr (kKind == AggregateKind::kRegrAvgX) {
      result = s.mean_x;
    } else if constexpr (kKind == AggregateKind::kRegrAvgY) {
      result = s.mean_y;
    } else if constexpr (kKind == AggregateKind::kRegrSxx) {
      result = s.m2_x;
    } else if constexpr (kKind == AggregateKind::kRegrSyy) {
      result = s.m2_y;
    } else if constexpr (kKind == AggregateKind::kRegrSxy) {
      result = s.co_moment;
    } else if constexpr (kKind == AggregateKind::kRegrSlope) {
      // A constant x divides 0 by 0: NaN, as DuckDB (PostgreSQL gives NULL).
      result = s.co_moment / s.m2_x;
    } else if constexpr (kKind == AggregateKind::kRegrIntercept) {
      const double slope = s.co_moment / s.m2_x;
      if (!std::isfinite(slope)) return null();
      result = s.mean_y - slope * s.mean_x;
    } else {
      // r2: NULL for a constant x, 1 for a constant y, else corr squared.
      if (s.m2_x == 0) return null();
      if (s.m2_y == 0) {
        result = 1;
      } else {
        result = s.co_moment * s.co_moment / (s.m2_x * s.m2_y);
      }
    }
    out.data<double>()[row] = result;
  }
};

}  // namespace

bool BindNumericAggregateOp(AggregateOp& op) {
  switch (op.kind) {
    case AggregateKind::kBitAnd:
      UseBitOp<AggregateKind::kBitAnd>(op);
      return true;
    case AggregateKind::kBitOr:
      UseBitOp<AggregateKind::kBitOr>(op);
      return true;
    case AggregateKind::kBitXor:
      UseBitOp<AggregateKind::kBitXor>(op);
      return true;
    case AggregateKind::kProduct:
      Use<ProductOp>(op);
      return true;
    case AggregateKind::kRegrCount:
      Use<RegrOp<AggregateKind::kRegrCount>>(op);
      return true;
    case AggregateKind::kRegrAvgX:
      Use<RegrOp<AggregateKind::kRegrAvgX>>(op);
      return true;
    case AggregateKind::kRegrAvgY:
      Use<RegrOp<AggregateKind::kRegrAvgY>>(op);
      return true;
    case AggregateKind::kRegrSxx:
      Use<RegrOp<AggregateKind::kRegrSxx>>(op);
      return true;
    case AggregateKind::kRegrSyy:
      Use<RegrOp<AggregateKind::kRegrSyy>>(op);
      return true;
    case AggregateKind::kRegrSxy:
      Use<RegrOp<AggregateKind::kRegrSxy>>(op);
      return true;
    case AggregateKind::kRegrSlope:
      Use<RegrOp<AggregateKind::kRegrSlope>>(op);
      return true;
    case AggregateKind::kRegrIntercept:
      Use<RegrOp<AggregateKind::kRegrIntercept>>(op);
      return true;
    case AggregateKind::kRegrR2:
      Use<RegrOp<AggregateKind::kRegrR2>>(op);
      return true;
    default:
      return false;
  }
}

}  // namespace shears
