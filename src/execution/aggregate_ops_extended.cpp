// Aggregates beyond the arithmetic ones of aggregate_ops.cpp: two-input statistics (covar_pop,
// covar_samp, corr), first / last, arg_min / arg_max, approx_count_distinct, and the holistic ones
// that collect their values (quantile_cont / quantile_disc / median, mode, string_agg with an
// optional ORDER BY). Results follow DuckDB's definitions (see each Finalize).
//
// Each aggregate is an Op with a per-row Update (it reads its inputs, which may be several
// consecutive vectors, and skips rows with a NULL input), a Combine and a per-state Finalize;
// the loops around them are below. Collected values live in the arena of the rows (counted
// against memory_limit); a state holds only a pointer, a count and a capacity.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "catalog/hyperloglog.h"
#include "common/error.h"
#include "execution/aggregate_op_loops.h"
#include "execution/aggregate_ops.h"
#include "execution/row_layout.h"

namespace shears {

namespace {

using namespace aggregate_loops;

// ---- covar_pop, covar_samp, corr ----

template <AggregateKind kKind>
struct CovarOp : CoMomentsOp {
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    const auto n = static_cast<double>(s.count);
    if (s.count == 0 || (kKind == AggregateKind::kCovarSamp && s.count < 2)) {
      out.validity().SetNull(row);
      return;
    }
    double result;
    if constexpr (kKind == AggregateKind::kCovarPop) {
      result = s.co_moment / n;
    } else if constexpr (kKind == AggregateKind::kCovarSamp) {
      result = s.co_moment / (n - 1);
    } else {
      // NaN when either side is constant (0 / 0), as DuckDB.
      result = s.co_moment / std::sqrt(s.m2_x * s.m2_y);
    }
    out.data<double>()[row] = result;
  }
};

// ---- arg_min / arg_max ----

/// One value of any physical type; strings point into the state's arena.
struct Cell {
  alignas(8) uint8_t bytes[16];
};

Cell CellOf(const Vector& v, idx_t row) {
  Cell cell{};
  const size_t width = v.type().value_size();
  std::memcpy(cell.bytes, v.data<uint8_t>() + row * width, width);
  return cell;
}

/// <0, 0, >0 as a < b, a = b, a > b in the order of ORDER BY (NaN above every number).
int CompareCells(const Cell& a, const Cell& b, PhysicalType physical) {
  auto three_way = [](const auto& x, const auto& y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (physical) {
    case PhysicalType::kBool:
      return three_way(Load<uint8_t>(a.bytes), Load<uint8_t>(b.bytes));
    case PhysicalType::kInt32:
      return three_way(Load<int32_t>(a.bytes), Load<int32_t>(b.bytes));
    case PhysicalType::kInt64:
      return three_way(Load<int64_t>(a.bytes), Load<int64_t>(b.bytes));
    case PhysicalType::kInt128:
      return three_way(Load<int128_t>(a.bytes), Load<int128_t>(b.bytes));
    case PhysicalType::kDouble: {
      const double x = Load<double>(a.bytes), y = Load<double>(b.bytes);
      if (std::isnan(x) || std::isnan(y)) return three_way(std::isnan(x), std::isnan(y));
      return three_way(x, y);
    }
    case PhysicalType::kString: {
      const auto x = Load<StringRef>(a.bytes), y = Load<StringRef>(b.bytes);
      const uint32_t common = std::min(x.len, y.len);
      const int c = common == 0 ? 0 : std::memcmp(x.ptr, y.ptr, common);
      return c != 0 ? c : three_way(x.len, y.len);
    }
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("comparison of an invalid type");
}

/// A copy of `cell` whose string bytes (if any) live in `arena`.
Cell OwnCell(const Cell& cell, PhysicalType physical, StringArena& arena) {
  if (physical != PhysicalType::kString) return cell;
  const auto s = Load<StringRef>(cell.bytes);
  Cell owned{};
  Store(owned.bytes, arena.Add(s.ptr, s.len));
  return owned;
}

// Spilled, a string cell's bytes follow the row; read back, the cell points at them.
void SpillCell(const Cell& cell, uint8_t physical, std::vector<uint8_t>& out) {
  if (static_cast<PhysicalType>(physical) != PhysicalType::kString) return;
  const auto s = Load<StringRef>(cell.bytes);
  if (s.len > 0) out.insert(out.end(), s.ptr, s.ptr + s.len);
}

void UnspillCell(Cell& cell, uint8_t physical, SpilledStateBytes& in) {
  if (static_cast<PhysicalType>(physical) != PhysicalType::kString) return;
  auto s = Load<StringRef>(cell.bytes);
  s.ptr = s.len == 0 ? "" : reinterpret_cast<const char*>(in.Take(s.len));
  Store(cell.bytes, s);
}

struct ArgState {
  Cell value;  // the ordering input
  Cell arg;    // the result
  uint8_t set;
  uint8_t value_type;  // PhysicalType of each (Combine has no vectors to ask)
  uint8_t arg_type;
};

template <bool kMax>
struct ArgOp {
  using State = ArgState;
  static bool Better(const Cell& candidate, const State& s) {
    if (!s.set) return true;
    const int c = CompareCells(candidate, s.value, static_cast<PhysicalType>(s.value_type));
    return kMax ? c > 0 : c < 0;
  }
  static void Update(State& s, const Vector* in, idx_t row, StringArena& arena) {
    // As DuckDB: rows where either the argument or the value is NULL are skipped.
    if (in[0].IsNull(row) || in[1].IsNull(row)) return;
    s.value_type = static_cast<uint8_t>(in[1].type().physical());
    s.arg_type = static_cast<uint8_t>(in[0].type().physical());
    const Cell value = CellOf(in[1], row);
    if (!Better(value, s)) return;
    s.value = OwnCell(value, in[1].type().physical(), arena);
    s.arg = OwnCell(CellOf(in[0], row), in[0].type().physical(), arena);
    s.set = 1;
  }
  static void Combine(const State& src, State& dst, StringArena& arena) {
    if (!src.set) return;
    dst.value_type = src.value_type;
    dst.arg_type = src.arg_type;
    if (!Better(src.value, dst)) return;
    dst.value = OwnCell(src.value, static_cast<PhysicalType>(src.value_type), arena);
    dst.arg = OwnCell(src.arg, static_cast<PhysicalType>(src.arg_type), arena);
    dst.set = 1;
  }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp& op) {
    if (!s.set) {
      out.validity().SetNull(row);
      return;
    }
    const size_t width = op.result_type.value_size();
    std::memcpy(out.raw_data() + row * width, s.arg.bytes, width);
  }
  static void SpillWrite(const State& s, std::vector<uint8_t>& out) {
    if (!s.set) return;
    SpillCell(s.value, s.value_type, out);
    SpillCell(s.arg, s.arg_type, out);
  }
  static void SpillRead(State& s, SpilledStateBytes& in) {
    if (!s.set) return;
    UnspillCell(s.value, s.value_type, in);
    UnspillCell(s.arg, s.arg_type, in);
  }
};

// ---- approx_count_distinct ----

struct SketchState {
  HyperLogLog* sketch;  // in the arena, made by the first value
};

HyperLogLog& SketchOf(SketchState& s, StringArena& arena) {
  if (s.sketch == nullptr)
    s.sketch = new (AllocateAligned(arena, sizeof(HyperLogLog))) HyperLogLog();
  return *s.sketch;
}

// The sketch needs each value's hash: hashed a vector at a time, not row by row.
void SketchUpdateRows(uint8_t* const* rows, uint32_t offset, const Vector* in, idx_t count,
                      StringArena& arena) {
  thread_local std::vector<uint64_t> hashes;
  if (hashes.size() < count) hashes.resize(count);
  HashVector(*in, count, hashes.data(), false);
  for (idx_t i = 0; i < count; i++) {
    if (in->IsNull(i)) continue;
    SketchOf(*reinterpret_cast<SketchState*>(rows[i] + offset), arena).AddHash(hashes[i]);
  }
}

void SketchUpdateRange(uint8_t* state, const Vector* in, idx_t begin, idx_t count,
                       StringArena& arena) {
  thread_local std::vector<uint64_t> hashes;
  if (hashes.size() < begin + count) hashes.resize(begin + count);
  HashVector(*in, begin + count, hashes.data(), false);
  auto& s = *reinterpret_cast<SketchState*>(state);
  for (idx_t i = begin; i < begin + count; i++) {
    if (!in->IsNull(i)) SketchOf(s, arena).AddHash(hashes[i]);
  }
}

void SketchUpdateSingle(uint8_t* state, const Vector* in, idx_t count, StringArena& arena) {
  SketchUpdateRange(state, in, 0, count, arena);
}

struct SketchOp {
  using State = SketchState;
  static void Combine(State& src, State& dst, StringArena& arena) {
    if (src.sketch != nullptr) SketchOf(dst, arena).Merge(*src.sketch);
  }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    out.data<int64_t>()[row] = s.sketch == nullptr ? 0 : s.sketch->Estimate();
  }
  // Spilled, the registers follow the row.
  static void SpillWrite(const State& s, std::vector<uint8_t>& out) {
    if (s.sketch == nullptr) return;
    const auto* bytes = reinterpret_cast<const uint8_t*>(s.sketch);
    out.insert(out.end(), bytes, bytes + sizeof(HyperLogLog));
  }
  static void SpillRead(State& s, SpilledStateBytes& in) {
    if (s.sketch == nullptr) return;
    s.sketch = reinterpret_cast<HyperLogLog*>(in.Take(sizeof(HyperLogLog), alignof(HyperLogLog)));
  }
};

void UseSketch(AggregateOp& op) {
  op.state_size = sizeof(SketchState);
  op.state_align = alignof(SketchState);
  op.update = SketchUpdateRows;
  op.update_single = SketchUpdateSingle;
  op.update_range = SketchUpdateRange;
  op.combine = OpCombine<SketchOp>;
  op.finalize = OpFinalize<SketchOp>;
  op.spill_write = OpSpillWrite<SketchOp>;
  op.spill_read = OpSpillRead<SketchOp>;
}

// ---- collected values: quantiles, mode ----

/// Values collected in the arena, doubling the capacity as they grow (the old copy stays in
/// the arena, so at most twice the bytes).
struct ListState {
  uint8_t* data;
  uint32_t count;
  uint32_t capacity;
};

uint8_t* AppendSlot(ListState& s, size_t width, StringArena& arena) {
  if (s.count == s.capacity) {
    // From 2: a partial group of a spilling aggregate often holds one or two values.
    const uint32_t capacity = std::max<uint32_t>(2, s.capacity * 2);
    uint8_t* data = AllocateAligned(arena, capacity * width);
    if (s.count > 0) std::memcpy(data, s.data, s.count * width);
    s.data = data;
    s.capacity = capacity;
  }
  return s.data + (s.count++) * width;
}

template <typename T>
void AppendValue(ListState& s, T value, StringArena& arena) {
  if constexpr (std::is_same_v<T, StringRef>) value = arena.Add(value.ptr, value.len);
  Store(AppendSlot(s, sizeof(T), arena), value);
}

/// Spilled, a list's values follow its row (aligned): what SpillWrite of a collecting state
/// writes first, and where SpillRead points the state read back (then it has no spare room).
void SpillValues(const ListState& s, size_t width, size_t align, std::vector<uint8_t>& out) {
  if (s.count == 0) return;
  AlignSpillBytes(out, align);
  out.insert(out.end(), s.data, s.data + size_t{s.count} * width);
}

void UnspillValues(ListState& s, size_t width, size_t align, SpilledStateBytes& in) {
  s.data = s.count == 0 ? nullptr : in.Take(size_t{s.count} * width, align);
  s.capacity = s.count;
}

template <typename T>
bool Less(const T& a, const T& b) {
  return AggregateLess(a, b);
}

template <typename T>
struct CollectOp {
  using State = ListState;
  static T* Values(State& s) { return reinterpret_cast<T*>(s.data); }
  static bool Empty(const State& s) { return s.count == 0; }
  static void Update(State& s, const Vector* in, idx_t row, StringArena& arena) {
    if (!in->IsNull(row)) AppendValue<T>(s, in->data<T>()[row], arena);
  }
  static void Combine(State& src, State& dst, StringArena& arena) {
    for (uint32_t i = 0; i < src.count; i++)
      AppendValue<T>(dst, Values(src)[i], arena);
  }
  // Spilled, the values follow the row, then the strings' bytes; read back, the state
  // points at them.
  static void SpillWrite(const State& s, std::vector<uint8_t>& out) {
    SpillValues(s, sizeof(T), alignof(T), out);
    if constexpr (std::is_same_v<T, StringRef>) {
      for (uint32_t i = 0; i < s.count; i++) {
        const auto value = Load<StringRef>(s.data + i * sizeof(T));
        if (value.len > 0) out.insert(out.end(), value.ptr, value.ptr + value.len);
      }
    }
  }
  static void SpillRead(State& s, SpilledStateBytes& in) {
    UnspillValues(s, sizeof(T), alignof(T), in);
    if constexpr (std::is_same_v<T, StringRef>) {
      for (uint32_t i = 0; i < s.count; i++) {
        auto value = Load<StringRef>(s.data + i * sizeof(T));
        value.ptr = value.len == 0 ? "" : reinterpret_cast<const char*>(in.Take(value.len));
        Store(s.data + i * sizeof(T), value);
      }
    }
  }
};

/// The position quantile_disc picks among n sorted values, as DuckDB computes it: exactly for a
/// DECIMAL fraction, in doubles otherwise.
idx_t DiscreteIndex(const AggregateParams& params, idx_t n) {
  idx_t floored;
  if (params.fraction_scale >= 0) {
    int128_t scaling = 1;
    for (int i = 0; i < params.fraction_scale; i++)
      scaling *= 10;
    const int128_t big_n = static_cast<int128_t>(n);
    floored = static_cast<idx_t>((big_n * scaling - big_n * params.fraction_units) / scaling);
  } else {
    floored = static_cast<idx_t>(
        std::floor(static_cast<double>(n) - static_cast<double>(n) * params.fraction));
  }
  return std::max<idx_t>(1, n - std::min(n, floored)) - 1;
}

bool Descending(const AggregateOp& op) {
  return op.params.descending;
}

/// The k-th smallest (or, descending, largest) value; partially sorts `values`.
template <typename T>
T Select(T* values, idx_t n, idx_t k, bool descending) {
  auto less = [](const T& a, const T& b) { return Less(a, b); };
  const idx_t position = descending ? n - 1 - k : k;
  std::nth_element(values, values + position, values + n, less);
  return values[position];
}

template <typename T>
struct QuantileDiscOp : CollectOp<T> {
  using State = ListState;
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp& op) {
    T* values = CollectOp<T>::Values(s);
    out.data<T>()[row] = Select(values, s.count, DiscreteIndex(op.params, s.count), Descending(op));
  }
};

/// quantile_cont: lo + (hi - lo) * d between the values around (n - 1) * q. As DuckDB: numbers
/// as DOUBLE, DECIMALs keep their type (the step truncated), dates and timestamps as TIMESTAMP
/// (the step rounded to a microsecond).
template <typename T>
struct QuantileContOp : CollectOp<T> {
  using State = ListState;
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp& op) {
    T* values = CollectOp<T>::Values(s);
    const idx_t n = s.count;
    const double rn = static_cast<double>(n - 1) * op.params.fraction;
    const auto floor_rn = static_cast<idx_t>(std::floor(rn));
    const auto ceil_rn = static_cast<idx_t>(std::ceil(rn));
    const bool descending = Descending(op);
    const T lo = Select(values, n, floor_rn, descending);
    const T hi = ceil_rn == floor_rn ? lo : Select(values, n, ceil_rn, descending);
    const double d = rn - static_cast<double>(floor_rn);
    const LogicalType& arg = op.arg_type;
    if (op.result_type.id() == TypeId::kDouble) {
      const double scale = arg.id() == TypeId::kDecimal ? std::pow(10.0, arg.scale()) : 1.0;
      const double l = static_cast<double>(lo) / scale, h = static_cast<double>(hi) / scale;
      out.data<double>()[row] = ceil_rn == floor_rn ? l : l + (h - l) * d;
      return;
    }
    if constexpr (std::is_same_v<T, double>) {
      throw InternalError("quantile_cont of DOUBLE as {}", op.result_type.ToString());
    } else {
      if (op.result_type.id() == TypeId::kTimestamp) {
        // A DATE's days become microseconds first.
        const int64_t factor = arg.id() == TypeId::kDate ? 86400000000LL : 1;
        const int64_t l = static_cast<int64_t>(lo) * factor, h = static_cast<int64_t>(hi) * factor;
        out.data<int64_t>()[row] =
            l + static_cast<int64_t>(std::llround(static_cast<double>(h - l) * d));
        return;
      }
      const T step = static_cast<T>(static_cast<double>(hi - lo) * d);
      out.data<T>()[row] = static_cast<T>(lo + step);
    }
  }
};

/// mode: the most frequent value; of equally frequent ones the first collected (DuckDB keeps
/// the first it saw too).
template <typename T>
struct ModeOp : CollectOp<T> {
  using State = ListState;
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp&) {
    const T* values = CollectOp<T>::Values(s);
    std::vector<uint32_t> order(s.count);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return Less(values[a], values[b]); });
    uint32_t best = order[0], best_count = 0;
    for (size_t i = 0; i < order.size();) {
      size_t j = i + 1;
      while (j < order.size() && !Less(values[order[i]], values[order[j]]))
        j++;
      const auto run = static_cast<uint32_t>(j - i);
      if (run > best_count || (run == best_count && order[i] < best)) {
        best = order[i];
        best_count = run;
      }
      i = j;
    }
    out.data<T>()[row] = values[best];
  }
};

template <template <typename> class Op>
void UseCollect(AggregateOp& op, PhysicalType physical) {
  switch (physical) {
    case PhysicalType::kBool:
      return Use<Op<uint8_t>>(op);
    case PhysicalType::kInt32:
      return Use<Op<int32_t>>(op);
    case PhysicalType::kInt64:
      return Use<Op<int64_t>>(op);
    case PhysicalType::kInt128:
      return Use<Op<int128_t>>(op);
    case PhysicalType::kDouble:
      return Use<Op<double>>(op);
    case PhysicalType::kString:
      return Use<Op<StringRef>>(op);
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("aggregate over an invalid type");
}

// ---- string_agg ----

/// Each collected string with its ORDER BY keys, one fixed-width record: a StringRef, then
/// per key a Cell and a tag (NULL or not, the physical type: Combine re-owns string keys).
template <int kKeys>
struct StringAggOp {
  struct Key {
    Cell cell;
    uint8_t is_null;
    uint8_t physical;
  };
  struct Record {
    StringRef value;
    Key keys[kKeys > 0 ? kKeys : 1];
  };
  using State = ListState;

  static Record* Records(State& s) { return reinterpret_cast<Record*>(s.data); }
  static bool Empty(const State& s) { return s.count == 0; }
  static void Own(Record& r, StringArena& arena) {
    r.value = arena.Add(r.value.ptr, r.value.len);
    for (int k = 0; k < kKeys; k++) {
      Key& key = r.keys[k];
      if (!key.is_null)
        key.cell = OwnCell(key.cell, static_cast<PhysicalType>(key.physical), arena);
    }
  }
  static void Update(State& s, const Vector* in, idx_t row, StringArena& arena) {
    if (in[0].IsNull(row)) return;
    Record record{};
    record.value = in[0].data<StringRef>()[row];
    for (int k = 0; k < kKeys; k++) {
      const Vector& key = in[1 + k];
      record.keys[k].is_null = key.IsNull(row) ? 1 : 0;
      record.keys[k].physical = static_cast<uint8_t>(key.type().physical());
      if (!key.IsNull(row)) record.keys[k].cell = CellOf(key, row);
    }
    Own(record, arena);
    Store(AppendSlot(s, sizeof(Record), arena), record);
  }
  static void Combine(State& src, State& dst, StringArena& arena) {
    for (uint32_t i = 0; i < src.count; i++) {
      Record record = Records(src)[i];
      Own(record, arena);
      Store(AppendSlot(dst, sizeof(Record), arena), record);
    }
  }
  // Spilled, the records follow the row, then each record's string bytes (its value, then
  // its string keys); read back, the records point at them.
  static void SpillWrite(const State& s, std::vector<uint8_t>& out) {
    SpillValues(s, sizeof(Record), alignof(Record), out);
    for (uint32_t i = 0; i < s.count; i++) {
      const auto record = Load<Record>(s.data + i * sizeof(Record));
      if (record.value.len > 0)
        out.insert(out.end(), record.value.ptr, record.value.ptr + record.value.len);
      for (int k = 0; k < kKeys; k++) {
        if (!record.keys[k].is_null) SpillCell(record.keys[k].cell, record.keys[k].physical, out);
      }
    }
  }
  static void SpillRead(State& s, SpilledStateBytes& in) {
    UnspillValues(s, sizeof(Record), alignof(Record), in);
    for (uint32_t i = 0; i < s.count; i++) {
      auto record = Load<Record>(s.data + i * sizeof(Record));
      record.value.ptr =
          record.value.len == 0 ? "" : reinterpret_cast<const char*>(in.Take(record.value.len));
      for (int k = 0; k < kKeys; k++) {
        if (!record.keys[k].is_null) UnspillCell(record.keys[k].cell, record.keys[k].physical, in);
      }
      Store(s.data + i * sizeof(Record), record);
    }
  }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp& op) {
    Record* records = Records(s);
    std::vector<uint32_t> sorted(s.count);
    std::iota(sorted.begin(), sorted.end(), 0);
    const auto& order = op.params.order;
    if constexpr (kKeys > 0) {
      std::stable_sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
        for (int k = 0; k < kKeys; k++) {
          const Key& ka = records[a].keys[k];
          const Key& kb = records[b].keys[k];
          if (ka.is_null || kb.is_null) {
            if (ka.is_null == kb.is_null) continue;
            return (ka.is_null != 0) == order[k].nulls_first;
          }
          const int c = CompareCells(ka.cell, kb.cell, static_cast<PhysicalType>(ka.physical));
          if (c != 0) return order[k].descending ? c > 0 : c < 0;
        }
        return false;
      });
    }
    std::string text;
    for (uint32_t i = 0; i < s.count; i++) {
      if (i > 0) text += op.params.separator;
      const StringRef value = records[sorted[i]].value;
      text.append(value.ptr, value.len);
    }
    out.data<StringRef>()[row] = out.AddString(text);
  }
};

// ---- first / last ----

/// first(x [ORDER BY k]) / last(x ...): x of the first / last row, NULL or not (DuckDB's;
/// any_value skips NULLs). Without ORDER BY the rows' order is the input's, and Combine
/// assumes `src` follows `dst` (as the window's segment tree adds ranges). With ORDER BY the
/// state keeps the key of the row it holds; ties keep the earlier row for first and the later
/// one for last (a stable sort's answer). Kernels get no parameters, so the key's direction is
/// a template argument, and so is kFiltered: input 1 is then the FILTER condition (FILTER
/// cannot turn x into NULL here, NULL being a value first keeps). Inputs: x, [condition], key.
template <bool kLast, bool kKeyed, bool kDescending, bool kNullsFirst, bool kFiltered>
struct FirstLastOp {
  struct State {
    Cell value;
    Cell key;
    uint8_t set;
    uint8_t value_null;
    uint8_t value_physical;
    uint8_t key_null;
    uint8_t key_physical;
  };

  /// <0, 0, >0: a row with key (a, a_null) before, tied with, after the one `s` holds.
  static int Compare(const Cell& a, bool a_null, const State& s) {
    if (a_null || s.key_null) {
      if (a_null == (s.key_null != 0)) return 0;
      return a_null == kNullsFirst ? -1 : 1;
    }
    const int c = CompareCells(a, s.key, static_cast<PhysicalType>(s.key_physical));
    return kDescending ? -c : c;
  }
  static bool Replaces(const State& s, const Cell& key, bool key_null) {
    if (!s.set) return true;
    if constexpr (!kKeyed) {
      return kLast;
    } else {
      const int c = Compare(key, key_null, s);
      return kLast ? c >= 0 : c < 0;
    }
  }
  static void Take(State& s, const Cell& value, bool value_null, uint8_t value_physical,
                   const Cell& key, bool key_null, uint8_t key_physical, StringArena& arena) {
    s.set = 1;
    s.value_null = value_null ? 1 : 0;
    s.value_physical = value_physical;
    if (!value_null) s.value = OwnCell(value, static_cast<PhysicalType>(value_physical), arena);
    if constexpr (kKeyed) {
      s.key_null = key_null ? 1 : 0;
      s.key_physical = key_physical;
      if (!key_null) s.key = OwnCell(key, static_cast<PhysicalType>(key_physical), arena);
    }
  }
  static void Update(State& s, const Vector* in, idx_t row, StringArena& arena) {
    if constexpr (kFiltered) {
      if (in[1].IsNull(row) || in[1].data<uint8_t>()[row] == 0) return;
    }
    Cell key{};
    bool key_null = false;
    uint8_t key_physical = 0;
    if constexpr (kKeyed) {
      const Vector& k = in[kFiltered ? 2 : 1];
      key_null = k.IsNull(row);
      key_physical = static_cast<uint8_t>(k.type().physical());
      if (!key_null) key = CellOf(k, row);
    }
    if (!Replaces(s, key, key_null)) return;
    const bool value_null = in[0].IsNull(row);
    Take(s, value_null ? Cell{} : CellOf(in[0], row), value_null,
         static_cast<uint8_t>(in[0].type().physical()), key, key_null, key_physical, arena);
  }
  static void Combine(const State& src, State& dst, StringArena& arena) {
    if (!src.set || !Replaces(dst, src.key, src.key_null != 0)) return;
    Take(dst, src.value, src.value_null != 0, src.value_physical, src.key, src.key_null != 0,
         src.key_physical, arena);
  }
  static void Finalize(State& s, Vector& out, idx_t row, const AggregateOp& op) {
    if (!s.set || s.value_null) {
      out.validity().SetNull(row);
      return;
    }
    const size_t width = op.result_type.value_size();
    std::memcpy(out.raw_data() + row * width, s.value.bytes, width);
  }
  // Spilled, the strings' bytes (the value's, then the key's) follow the row.
  static void SpillWrite(const State& s, std::vector<uint8_t>& out) {
    if (!s.set) return;
    if (!s.value_null) SpillCell(s.value, s.value_physical, out);
    if (kKeyed && !s.key_null) SpillCell(s.key, s.key_physical, out);
  }
  static void SpillRead(State& s, SpilledStateBytes& in) {
    if (!s.set) return;
    if (!s.value_null) UnspillCell(s.value, s.value_physical, in);
    if (kKeyed && !s.key_null) UnspillCell(s.key, s.key_physical, in);
  }
};

template <bool kLast, bool kFiltered>
void UseFirstLast(AggregateOp& op) {
  if (op.params.order.empty()) return Use<FirstLastOp<kLast, false, false, false, kFiltered>>(op);
  if (op.params.order.size() > 1) {
    throw NotSupportedError("{} with more than one ORDER BY key is not supported",
                            kLast ? "last" : "first");
  }
  const auto& d = op.params.order[0];
  if (d.descending) {
    if (d.nulls_first) return Use<FirstLastOp<kLast, true, true, true, kFiltered>>(op);
    return Use<FirstLastOp<kLast, true, true, false, kFiltered>>(op);
  }
  if (d.nulls_first) return Use<FirstLastOp<kLast, true, false, true, kFiltered>>(op);
  return Use<FirstLastOp<kLast, true, false, false, kFiltered>>(op);
}

template <bool kLast>
void UseFirstLast(AggregateOp& op) {
  // x, then the FILTER condition when there is one, then the ORDER BY keys.
  const bool filtered = op.input_types.size() > 1 + op.params.order.size();
  if (filtered) return UseFirstLast<kLast, true>(op);
  UseFirstLast<kLast, false>(op);
}

}  // namespace

bool BindExtendedAggregateOp(AggregateOp& op) {
  switch (op.kind) {
    case AggregateKind::kCovarPop:
      Use<CovarOp<AggregateKind::kCovarPop>>(op);
      return true;
    case AggregateKind::kCovarSamp:
      Use<CovarOp<AggregateKind::kCovarSamp>>(op);
      return true;
    case AggregateKind::kCorr:
      Use<CovarOp<AggregateKind::kCorr>>(op);
      return true;
    case AggregateKind::kFirst:
      UseFirstLast<false>(op);
      return true;
    case AggregateKind::kLast:
      UseFirstLast<true>(op);
      return true;
    case AggregateKind::kArgMin:
      Use<ArgOp<false>>(op);
      return true;
    case AggregateKind::kArgMax:
      Use<ArgOp<true>>(op);
      return true;
    case AggregateKind::kApproxCountDistinct:
      UseSketch(op);
      return true;
    case AggregateKind::kQuantileDisc:
      UseCollect<QuantileDiscOp>(op, op.arg_type.physical());
      return true;
    case AggregateKind::kQuantileCont:
      switch (op.arg_type.physical()) {
        case PhysicalType::kInt32:
          Use<QuantileContOp<int32_t>>(op);
          return true;
        case PhysicalType::kInt64:
          Use<QuantileContOp<int64_t>>(op);
          return true;
        case PhysicalType::kInt128:
          Use<QuantileContOp<int128_t>>(op);
          return true;
        case PhysicalType::kDouble:
          Use<QuantileContOp<double>>(op);
          return true;
        default:
          throw NotSupportedError("quantile_cont is not defined for {}", op.arg_type.ToString());
      }
    case AggregateKind::kMode:
      UseCollect<ModeOp>(op, op.arg_type.physical());
      return true;
    case AggregateKind::kStringAgg:
      switch (op.params.order.size()) {
        case 0:
          Use<StringAggOp<0>>(op);
          return true;
        case 1:
          Use<StringAggOp<1>>(op);
          return true;
        case 2:
          Use<StringAggOp<2>>(op);
          return true;
        case 3:
          Use<StringAggOp<3>>(op);
          return true;
        default:
          throw NotSupportedError("string_agg with more than 3 ORDER BY keys is not supported");
      }
    default:
      return false;
  }
}

}  // namespace shears
