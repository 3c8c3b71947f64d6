#include "execution/aggregate_ops.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "common/decimal.h"
#include "common/error.h"
#include "execution/row_layout.h"
#include "execution/spill.h"

namespace shears {

namespace {

// ---- states and their per-value operations ----

struct CountState {
  int64_t count;
};

/// Sums of doubles; sums of integers and decimals are exact 128-bit integers, kept as two
/// halves so the state needs only 8-byte alignment (smaller rows, fewer cache misses).
template <typename Acc>
struct SumState {
  Acc sum;
  int64_t count;  // values seen: 0 means the sum is NULL
  Acc Sum() const { return sum; }
  void SetSum(Acc v) { sum = v; }
};

template <>
struct SumState<int128_t> {
  uint64_t low;
  int64_t high;
  int64_t count;
  int128_t Sum() const {
    return static_cast<int128_t>((static_cast<uint128_t>(static_cast<uint64_t>(high)) << 64) | low);
  }
  void SetSum(int128_t v) {
    low = static_cast<uint64_t>(v);
    high = static_cast<int64_t>(static_cast<uint128_t>(v) >> 64);
  }
};

template <typename T>
struct ValueState {
  T value;
  uint8_t set;
};

/// A string kept by min/max/any_value: bytes in the arena, reused while they fit.
struct StringState {
  char* ptr;
  uint32_t len;
  uint32_t capacity;
  uint8_t set;
};

// Spilled, the kept string's bytes follow the row; read back, the state points at them (its
// capacity as written: the state is only read before it goes).
void StringStateSpillWrite(const uint8_t* state, std::vector<uint8_t>& out) {
  StringState s;
  std::memcpy(&s, state, sizeof(s));
  if (s.len > 0) out.insert(out.end(), s.ptr, s.ptr + s.len);
}

void StringStateSpillRead(uint8_t* state, SpilledStateBytes& in) {
  StringState s;
  std::memcpy(&s, state, sizeof(s));
  if (s.len == 0) return;
  s.ptr = reinterpret_cast<char*>(in.Take(s.len));
  std::memcpy(state, &s, sizeof(s));
}

struct StddevState {
  int64_t count;
  double mean;
  double m2;
};

template <typename T>
inline bool LessThan(const T& a, const T& b) {
  return AggregateLess(a, b);
}

inline StringRef View(const StringState& s) {
  return s.len == 0 ? StringRef("", 0) : StringRef(s.ptr, s.len);
}

inline void AssignString(StringState& s, StringRef value, StringArena& arena) {
  if (value.len > s.capacity) {
    const uint32_t capacity = std::max(value.len, s.capacity * 2);
    s.ptr = arena.Allocate(capacity);
    s.capacity = capacity;
  }
  if (value.len > 0) std::memcpy(s.ptr, value.ptr, value.len);
  s.len = value.len;
  s.set = 1;
}

struct CountOp {
  using State = CountState;
  template <typename T>
  static void Update(State& s, const T&, StringArena&) {
    s.count++;
  }
  static void Combine(const State& src, State& dst, StringArena&) { dst.count += src.count; }
};

template <typename Acc, typename Input>
struct SumOp {
  using State = SumState<Acc>;
  static void Update(State& s, const Input& v, StringArena&) {
    if constexpr (std::is_same_v<Input, int128_t>) {
      int128_t sum;
      if (__builtin_add_overflow(s.Sum(), v, &sum)) throw OutOfRangeError("Overflow in SUM");
      s.SetSum(sum);
    } else {
      s.SetSum(s.Sum() + static_cast<Acc>(v));
    }
    s.count++;
  }
  static void Combine(const State& src, State& dst, StringArena&) {
    if constexpr (std::is_same_v<Acc, int128_t>) {
      int128_t sum;
      if (__builtin_add_overflow(dst.Sum(), src.Sum(), &sum)) {
        throw OutOfRangeError("Overflow in SUM");
      }
      dst.SetSum(sum);
    } else {
      dst.sum += src.sum;
    }
    dst.count += src.count;
  }
};

template <typename T, int kMode>  // 0 = min, 1 = max, 2 = any_value (first non-NULL)
struct ValueOp {
  using State = ValueState<T>;
  static bool Better(const T& candidate, const T& current) {
    if constexpr (kMode == 0) return LessThan(candidate, current);
    if constexpr (kMode == 1) return LessThan(current, candidate);
    return false;
  }
  static void Update(State& s, const T& v, StringArena&) {
    if (!s.set || Better(v, s.value)) {
      s.value = v;
      s.set = 1;
    }
  }
  static void Combine(const State& src, State& dst, StringArena& arena) {
    if (src.set) Update(dst, src.value, arena);
  }
};

template <int kMode>
struct StringValueOp {
  using State = StringState;
  static bool Better(StringRef candidate, StringRef current) {
    if constexpr (kMode == 0) return LessThan(candidate, current);
    if constexpr (kMode == 1) return LessThan(current, candidate);
    return false;
  }
  static void Update(State& s, const StringRef& v, StringArena& arena) {
    if (!s.set || Better(v, View(s))) AssignString(s, v, arena);
  }
  static void Combine(const State& src, State& dst, StringArena& arena) {
    if (src.set) Update(dst, View(src), arena);
  }
};

template <typename Input>
struct StddevOp {
  using State = StddevState;
  static void Update(State& s, const Input& v, StringArena&) {
    // Welford: numerically stable running mean and sum of squared deviations.
    const double x = static_cast<double>(v);
    s.count++;
    const double delta = x - s.mean;
    s.mean += delta / static_cast<double>(s.count);
    s.m2 += delta * (x - s.mean);
  }
  static void Combine(const State& src, State& dst, StringArena&) {
    if (src.count == 0) return;
    if (dst.count == 0) {
      dst = src;
      return;
    }
    // Chan et al.: merging two partial Welford states.
    const double n = static_cast<double>(src.count + dst.count);
    const double delta = src.mean - dst.mean;
    dst.mean += delta * static_cast<double>(src.count) / n;
    dst.m2 += src.m2 +
              delta * delta * static_cast<double>(src.count) * static_cast<double>(dst.count) / n;
    dst.count += src.count;
  }
};

// ---- the vector loops, instantiated per (op, input type) ----

// Calls fn(i) for the valid rows i < count of `validity` (not all valid), in order: a word of
// the mask at a time, its set bits one by one, so NULL rows cost no branch each (a CASE ...
// ELSE NULL END argument, valid on one row in seven in q59, mispredicted a branch per row at
// the validity test: half of its sums' time).
template <typename Fn>
inline void ForEachValid(const ValidityMask& validity, idx_t count, Fn&& fn) {
  const uint64_t* bits = validity.data();
  for (idx_t w = 0; w * 64 < count; w++) {
    uint64_t word = bits[w];
    const idx_t rows = std::min<idx_t>(64, count - w * 64);
    if (rows < 64) word &= (uint64_t{1} << rows) - 1;
    for (; word != 0; word &= word - 1)
      fn(w * 64 + static_cast<idx_t>(std::countr_zero(word)));
  }
}

template <typename Op, typename Input>
void UpdateRows(uint8_t* const* rows, uint32_t offset, const Vector* arg, idx_t count,
                StringArena& arena) {
  using State = typename Op::State;
  const Input* data = arg->data<Input>();
  const auto& validity = arg->validity();
  if (validity.AllValid()) {
    for (idx_t i = 0; i < count; i++) {
      Op::Update(*reinterpret_cast<State*>(rows[i] + offset), data[i], arena);
    }
  } else {
    ForEachValid(validity, count, [&](idx_t i) {
      Op::Update(*reinterpret_cast<State*>(rows[i] + offset), data[i], arena);
    });
  }
}

template <typename Op, typename Input>
void UpdateSingle(uint8_t* state_ptr, const Vector* arg, idx_t count, StringArena& arena) {
  using State = typename Op::State;
  // A local copy lets the compiler keep the state in registers.
  State state = *reinterpret_cast<State*>(state_ptr);
  const Input* data = arg->data<Input>();
  const auto& validity = arg->validity();
  if (validity.AllValid()) {
    for (idx_t i = 0; i < count; i++)
      Op::Update(state, data[i], arena);
  } else {
    ForEachValid(validity, count, [&](idx_t i) { Op::Update(state, data[i], arena); });
  }
  *reinterpret_cast<State*>(state_ptr) = state;
}

template <typename Op, typename Input>
void UpdateRange(uint8_t* state_ptr, const Vector* arg, idx_t begin, idx_t count,
                 StringArena& arena) {
  using State = typename Op::State;
  State state = *reinterpret_cast<State*>(state_ptr);
  const Input* data = arg->data<Input>();
  const auto& validity = arg->validity();
  if (validity.AllValid()) {
    for (idx_t i = begin; i < begin + count; i++)
      Op::Update(state, data[i], arena);
  } else {
    for (idx_t i = begin; i < begin + count; i++) {
      if (validity.IsValid(i)) Op::Update(state, data[i], arena);
    }
  }
  *reinterpret_cast<State*>(state_ptr) = state;
}

template <typename Op>
void CombineRows(uint8_t* const* src, uint8_t* const* dst, uint32_t offset, idx_t count,
                 StringArena& arena) {
  using State = typename Op::State;
  for (idx_t i = 0; i < count; i++) {
    Op::Combine(*reinterpret_cast<const State*>(src[i] + offset),
                *reinterpret_cast<State*>(dst[i] + offset), arena);
  }
}

void CountStarUpdate(uint8_t* const* rows, uint32_t offset, const Vector*, idx_t count,
                     StringArena&) {
  for (idx_t i = 0; i < count; i++)
    reinterpret_cast<CountState*>(rows[i] + offset)->count++;
}

void CountStarUpdateSingle(uint8_t* state, const Vector*, idx_t count, StringArena&) {
  reinterpret_cast<CountState*>(state)->count += static_cast<int64_t>(count);
}

void CountStarUpdateRange(uint8_t* state, const Vector*, idx_t, idx_t count, StringArena&) {
  reinterpret_cast<CountState*>(state)->count += static_cast<int64_t>(count);
}

void CountUpdateRange(uint8_t* state, const Vector* arg, idx_t begin, idx_t count, StringArena&) {
  const auto& validity = arg->validity();
  int64_t valid = 0;
  for (idx_t i = begin; i < begin + count; i++)
    valid += validity.IsValid(i);
  reinterpret_cast<CountState*>(state)->count += valid;
}

void CountUpdate(uint8_t* const* rows, uint32_t offset, const Vector* arg, idx_t count,
                 StringArena&) {
  const auto& validity = arg->validity();
  for (idx_t i = 0; i < count; i++) {
    reinterpret_cast<CountState*>(rows[i] + offset)->count += validity.IsValid(i);
  }
}

void CountUpdateSingle(uint8_t* state, const Vector* arg, idx_t count, StringArena&) {
  reinterpret_cast<CountState*>(state)->count +=
      static_cast<int64_t>(count - arg->validity().CountNulls(count));
}

// ---- finalizers ----

void CountFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                   idx_t out_offset, const AggregateOp&) {
  int64_t* data = out.data<int64_t>() + out_offset;
  for (idx_t i = 0; i < count; i++)
    data[i] = reinterpret_cast<CountState*>(rows[i] + offset)->count;
}

/// Writes an exact integral sum (unscaled at the argument's scale) as the result type.
void WriteIntegralSum(int128_t sum, Vector& out, idx_t row, const AggregateOp& op) {
  const LogicalType& type = op.result_type;
  const int arg_scale = op.arg_type.id() == TypeId::kDecimal ? op.arg_type.scale() : 0;
  switch (type.id()) {
    case TypeId::kBigint:
      if (sum > INT64_MAX || sum < INT64_MIN) {
        throw OutOfRangeError("Overflow in SUM: {} does not fit BIGINT", FormatInt128(sum));
      }
      out.data<int64_t>()[row] = static_cast<int64_t>(sum);
      return;
    case TypeId::kDecimal: {
      int128_t value = sum;
      if (type.scale() > arg_scale) {
        if (__builtin_mul_overflow(value, Pow10(type.scale() - arg_scale), &value)) {
          throw OutOfRangeError("Overflow in SUM: the result does not fit {}", type.ToString());
        }
      }
      const int128_t limit = Pow10(type.precision());
      if (value >= limit || value <= -limit) {
        throw OutOfRangeError("Overflow in SUM: {} does not fit {}",
                              FormatDecimal(value, type.scale()), type.ToString());
      }
      if (type.physical() == PhysicalType::kInt64) {
        out.data<int64_t>()[row] = static_cast<int64_t>(value);
      } else {
        out.data<int128_t>()[row] = value;
      }
      return;
    }
    case TypeId::kDouble:
      out.data<double>()[row] = static_cast<double>(static_cast<long double>(sum) /
                                                    static_cast<long double>(Pow10(arg_scale)));
      return;
    default:
      break;
  }
  throw InternalError("sum with result type {}", type.ToString());
}

/// SUM of integers or decimals into a DECIMAL result: the scale factor and the precision's
/// limit once per batch, not per group (WriteIntegralSum is kept for what does not fit, to
/// throw its error).
template <typename Out>
void DecimalSumFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                        idx_t out_offset, const AggregateOp& op) {
  const LogicalType& type = op.result_type;
  const int arg_scale = op.arg_type.id() == TypeId::kDecimal ? op.arg_type.scale() : 0;
  const int128_t factor = type.scale() > arg_scale ? Pow10(type.scale() - arg_scale) : 1;
  const int128_t limit = Pow10(type.precision());
  Out* data = out.data<Out>() + out_offset;
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const SumState<int128_t>*>(rows[i] + offset);
    if (s.count == 0) {
      out.validity().SetNull(out_offset + i);
      continue;
    }
    int128_t value = s.Sum();
    if ((factor != 1 && __builtin_mul_overflow(value, factor, &value)) || value >= limit ||
        value <= -limit) {
      WriteIntegralSum(s.Sum(), out, out_offset + i, op);  // throws the overflow's error
      continue;
    }
    data[i] = static_cast<Out>(value);
  }
}

template <typename Acc>
void SumFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out, idx_t out_offset,
                 const AggregateOp& op) {
  if constexpr (std::is_same_v<Acc, int128_t>) {
    if (op.result_type.id() == TypeId::kDecimal) {
      if (op.result_type.physical() == PhysicalType::kInt64) {
        DecimalSumFinalize<int64_t>(rows, offset, count, out, out_offset, op);
      } else {
        DecimalSumFinalize<int128_t>(rows, offset, count, out, out_offset, op);
      }
      return;
    }
  }
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const SumState<Acc>*>(rows[i] + offset);
    if (s.count == 0) {
      out.validity().SetNull(out_offset + i);
      continue;
    }
    if constexpr (std::is_same_v<Acc, double>) {
      out.data<double>()[out_offset + i] = s.sum;
    } else {
      WriteIntegralSum(s.Sum(), out, out_offset + i, op);
    }
  }
}

template <typename Acc>
void AvgFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out, idx_t out_offset,
                 const AggregateOp& op) {
  const int arg_scale = op.arg_type.id() == TypeId::kDecimal ? op.arg_type.scale() : 0;
  const LogicalType& type = op.result_type;
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const SumState<Acc>*>(rows[i] + offset);
    const idx_t row = out_offset + i;
    if (s.count == 0) {
      out.validity().SetNull(row);
      continue;
    }
    if constexpr (std::is_same_v<Acc, double>) {
      out.data<double>()[row] = s.sum / static_cast<double>(s.count);
    } else if (type.id() == TypeId::kDecimal) {
      // Exact average at the result scale, rounded half away from zero.
      int128_t scaled = s.Sum();
      if (type.scale() > arg_scale &&
          __builtin_mul_overflow(scaled, Pow10(type.scale() - arg_scale), &scaled)) {
        throw OutOfRangeError("Overflow in AVG");
      }
      int128_t q = scaled / s.count;
      int128_t r = scaled % s.count;
      if (r * 2 >= s.count) q++;
      if (r * 2 <= -s.count) q--;
      if (type.physical() == PhysicalType::kInt64) {
        out.data<int64_t>()[row] = static_cast<int64_t>(q);
      } else {
        out.data<int128_t>()[row] = q;
      }
    } else {
      const long double avg = static_cast<long double>(s.Sum()) / static_cast<long double>(s.count);
      out.data<double>()[row] =
          static_cast<double>(avg / static_cast<long double>(Pow10(arg_scale)));
    }
  }
}

// avg_of_partials(sum, count): adds partial sums (DECIMAL(38, s), as int128) and their
// counts to avg's state, so avg's finalize gives the average of every value they summed.
void AddPartial(SumState<int128_t>& s, const Vector* in, idx_t row) {
  if (in[0].IsNull(row)) return;
  int128_t sum;
  if (__builtin_add_overflow(s.Sum(), in[0].data<int128_t>()[row], &sum)) {
    throw OutOfRangeError("Overflow in AVG");
  }
  s.SetSum(sum);
  s.count += in[1].data<int64_t>()[row];
}

void AvgOfPartialsUpdate(uint8_t* const* rows, uint32_t offset, const Vector* in, idx_t count,
                         StringArena&) {
  for (idx_t i = 0; i < count; i++)
    AddPartial(*reinterpret_cast<SumState<int128_t>*>(rows[i] + offset), in, i);
}

void AvgOfPartialsUpdateRange(uint8_t* state, const Vector* in, idx_t begin, idx_t count,
                              StringArena&) {
  auto& s = *reinterpret_cast<SumState<int128_t>*>(state);
  for (idx_t i = begin; i < begin + count; i++)
    AddPartial(s, in, i);
}

void AvgOfPartialsUpdateSingle(uint8_t* state, const Vector* in, idx_t count, StringArena& arena) {
  AvgOfPartialsUpdateRange(state, in, 0, count, arena);
}

template <typename T>
void ValueFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                   idx_t out_offset, const AggregateOp&) {
  T* data = out.data<T>() + out_offset;
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const ValueState<T>*>(rows[i] + offset);
    if (s.set) {
      data[i] = s.value;
    } else {
      data[i] = T{};
      out.validity().SetNull(out_offset + i);
    }
  }
}

void StringFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                    idx_t out_offset, const AggregateOp&) {
  StringRef* data = out.data<StringRef>() + out_offset;
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const StringState*>(rows[i] + offset);
    if (s.set) {
      data[i] = View(s);
    } else {
      data[i] = StringRef();
      out.validity().SetNull(out_offset + i);
    }
  }
}

/// stddev_samp, stddev_pop, var_samp, var_pop: m2 over n - 1 (sample) or n, rooted or not.
template <bool kSample, bool kRoot>
void StddevFinalize(uint8_t* const* rows, uint32_t offset, idx_t count, Vector& out,
                    idx_t out_offset, const AggregateOp& op) {
  // Welford ran on unscaled decimals: scale the deviation once here.
  const int arg_scale = op.arg_type.id() == TypeId::kDecimal ? op.arg_type.scale() : 0;
  const double divisor = std::pow(10.0, arg_scale);
  double* data = out.data<double>() + out_offset;
  for (idx_t i = 0; i < count; i++) {
    const auto& s = *reinterpret_cast<const StddevState*>(rows[i] + offset);
    if (s.count < (kSample ? 2 : 1)) {
      data[i] = 0;
      out.validity().SetNull(out_offset + i);
      continue;
    }
    const double variance = s.m2 / static_cast<double>(kSample ? s.count - 1 : s.count);
    data[i] = kRoot ? std::sqrt(variance) / divisor : variance / (divisor * divisor);
  }
}

// ---- binding ----

template <typename Op, typename Input>
void SetKernels(AggregateOp& op) {
  op.state_size = sizeof(typename Op::State);
  op.state_align = alignof(typename Op::State);
  op.update = UpdateRows<Op, Input>;
  op.update_single = UpdateSingle<Op, Input>;
  op.update_range = UpdateRange<Op, Input>;
  op.combine = CombineRows<Op>;
}

template <int kMode>
void BindValueOp(AggregateOp& op) {
  switch (op.arg_type.physical()) {
    case PhysicalType::kBool:
      SetKernels<ValueOp<uint8_t, kMode>, uint8_t>(op);
      op.finalize = ValueFinalize<uint8_t>;
      return;
    case PhysicalType::kInt32:
      SetKernels<ValueOp<int32_t, kMode>, int32_t>(op);
      op.finalize = ValueFinalize<int32_t>;
      return;
    case PhysicalType::kInt64:
      SetKernels<ValueOp<int64_t, kMode>, int64_t>(op);
      op.finalize = ValueFinalize<int64_t>;
      return;
    case PhysicalType::kInt128:
      SetKernels<ValueOp<int128_t, kMode>, int128_t>(op);
      op.finalize = ValueFinalize<int128_t>;
      return;
    case PhysicalType::kDouble:
      SetKernels<ValueOp<double, kMode>, double>(op);
      op.finalize = ValueFinalize<double>;
      return;
    case PhysicalType::kString:
      SetKernels<StringValueOp<kMode>, StringRef>(op);
      op.finalize = StringFinalize;
      op.spill_write = StringStateSpillWrite;
      op.spill_read = StringStateSpillRead;
      return;
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("aggregate over an invalid type");
}

template <template <typename, typename> class Op>
bool BindNumericOp(AggregateOp& op) {
  switch (op.arg_type.physical()) {
    case PhysicalType::kInt32:
      SetKernels<Op<int128_t, int32_t>, int32_t>(op);
      return true;
    case PhysicalType::kInt64:
      SetKernels<Op<int128_t, int64_t>, int64_t>(op);
      return true;
    case PhysicalType::kInt128:
      SetKernels<Op<int128_t, int128_t>, int128_t>(op);
      return true;
    case PhysicalType::kDouble:
      SetKernels<Op<double, double>, double>(op);
      return true;
    default:
      return false;
  }
}

}  // namespace

AggregateOp BindAggregateOp(AggregateKind kind, const LogicalType& arg_type,
                            const LogicalType& result_type) {
  std::vector<LogicalType> inputs;
  if (arg_type.valid()) inputs.push_back(arg_type);
  return BindAggregateOp(kind, inputs, result_type, AggregateParams{});
}

AggregateOp BindAggregateOp(AggregateKind kind, const std::vector<LogicalType>& input_types,
                            const LogicalType& result_type, const AggregateParams& params) {
  AggregateOp op;
  op.kind = kind;
  op.arg_type = input_types.empty() ? LogicalType() : input_types[0];
  op.result_type = result_type;
  op.input_types = input_types;
  op.params = params;
  const LogicalType& arg_type = op.arg_type;
  if (BindExtendedAggregateOp(op) || BindNumericAggregateOp(op)) return op;
  auto unsupported = [&]() {
    return NotSupportedError("aggregate over {} with result {} is not supported",
                             arg_type.ToString(), result_type.ToString());
  };
  switch (kind) {
    case AggregateKind::kCountStar:
      op.state_size = sizeof(CountState);
      op.update = CountStarUpdate;
      op.update_single = CountStarUpdateSingle;
      op.update_range = CountStarUpdateRange;
      op.combine = CombineRows<CountOp>;
      op.finalize = CountFinalize;
      return op;
    case AggregateKind::kCount:
      op.state_size = sizeof(CountState);
      op.update = CountUpdate;
      op.update_single = CountUpdateSingle;
      op.update_range = CountUpdateRange;
      op.combine = CombineRows<CountOp>;
      op.finalize = CountFinalize;
      return op;
    case AggregateKind::kSum:
    case AggregateKind::kAvg: {
      if (!BindNumericOp<SumOp>(op)) throw unsupported();
      const bool is_double = arg_type.physical() == PhysicalType::kDouble;
      if (is_double && result_type.id() != TypeId::kDouble) throw unsupported();
      if (kind == AggregateKind::kSum) {
        op.finalize = is_double ? SumFinalize<double> : SumFinalize<int128_t>;
      } else {
        op.finalize = is_double ? AvgFinalize<double> : AvgFinalize<int128_t>;
      }
      return op;
    }
    case AggregateKind::kAvgOfPartials: {
      if (input_types.size() != 2 || arg_type.physical() != PhysicalType::kInt128 ||
          input_types[1].physical() != PhysicalType::kInt64)
        throw unsupported();
      SetKernels<SumOp<int128_t, int128_t>, int128_t>(op);  // avg's state and combine
      op.update = AvgOfPartialsUpdate;
      op.update_single = AvgOfPartialsUpdateSingle;
      op.update_range = AvgOfPartialsUpdateRange;
      op.finalize = AvgFinalize<int128_t>;
      return op;
    }
    case AggregateKind::kMin:
      BindValueOp<0>(op);
      return op;
    case AggregateKind::kMax:
      BindValueOp<1>(op);
      return op;
    case AggregateKind::kAny:
      BindValueOp<2>(op);
      return op;
    case AggregateKind::kBoolAnd:  // FALSE < TRUE: bool_and is min, bool_or max
      BindValueOp<0>(op);
      return op;
    case AggregateKind::kBoolOr:
      BindValueOp<1>(op);
      return op;
    case AggregateKind::kStddevSamp:
    case AggregateKind::kStddevPop:
    case AggregateKind::kVarSamp:
    case AggregateKind::kVarPop:
      switch (arg_type.physical()) {
        case PhysicalType::kInt32:
          SetKernels<StddevOp<int32_t>, int32_t>(op);
          break;
        case PhysicalType::kInt64:
          SetKernels<StddevOp<int64_t>, int64_t>(op);
          break;
        case PhysicalType::kInt128:
          SetKernels<StddevOp<int128_t>, int128_t>(op);
          break;
        case PhysicalType::kDouble:
          SetKernels<StddevOp<double>, double>(op);
          break;
        default:
          throw unsupported();
      }
      op.finalize = kind == AggregateKind::kStddevSamp  ? StddevFinalize<true, true>
                    : kind == AggregateKind::kStddevPop ? StddevFinalize<false, true>
                    : kind == AggregateKind::kVarSamp   ? StddevFinalize<true, false>
                                                        : StddevFinalize<false, false>;
      return op;
    default:
      break;
  }
  throw unsupported();
}

}  // namespace shears
