#include "execution/window_functions.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_set>

#include "common/error.h"
#include "execution/aggregate_ops.h"
#include "execution/query_context.h"
#include "execution/row_layout.h"

namespace shears {

MemoryReservation::~MemoryReservation() {
  if (bytes_ > 0) memory_->Release(bytes_);
}

void MemoryReservation::Add(int64_t bytes) {
  memory_->Reserve(bytes);
  bytes_ += bytes;
}

namespace {

struct Piece {
  idx_t begin, end;
};

template <typename T>
bool Less(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>) {
    // NaN is above every number, as ORDER BY sorts it.
    return !std::isnan(a) && (std::isnan(b) || a < b);
  } else {
    return a < b;
  }
}

/// The frame of each row of one partition, with EXCLUDE applied (at most three pieces).
class FrameCalculator {
 public:
  FrameCalculator(const BoundWindow& window, const WindowRun& run, const WindowArguments& args)
      : w_(window), run_(run), args_(args) {}

  void SetPartition(idx_t begin, idx_t end) {
    ps_ = begin;
    pe_ = end;
    if (!args_.range_key) return;
    // NULL keys sort together at one end of the partition; RANGE offsets compare the others.
    const Vector& key = *args_.range_key;
    nb_ = begin;
    ne_ = end;
    if (w_.orders[0].nulls_first) {
      while (nb_ < ne_ && key.IsNull(nb_))
        nb_++;
    } else {
      while (ne_ > nb_ && key.IsNull(ne_ - 1))
        ne_--;
    }
  }

  idx_t PeerBegin(idx_t i) const { return run_.group_starts[run_.group_of[i]]; }
  idx_t PeerEnd(idx_t i) const { return run_.group_starts[run_.group_of[i] + 1]; }

  idx_t Start(idx_t i) const { return Bound(i, w_.start, w_.start_offset, true); }
  idx_t End(idx_t i) const { return Bound(i, w_.end, w_.end_offset, false); }

  /// The rows of row i's frame, in order; returns how many pieces.
  int Pieces(idx_t i, Piece* out) const {
    const idx_t fs = Start(i);
    const idx_t fe = std::max(fs, End(i));
    int n = 0;
    auto add = [&](idx_t b, idx_t e) {
      b = std::max(b, fs);
      e = std::min(e, fe);
      if (b < e) out[n++] = {b, e};
    };
    switch (w_.exclude) {
      case WindowExclude::kNoOthers:
        add(fs, fe);
        break;
      case WindowExclude::kCurrentRow:
        add(fs, i);
        add(i + 1, fe);
        break;
      case WindowExclude::kGroup:
        add(fs, PeerBegin(i));
        add(PeerEnd(i), fe);
        break;
      case WindowExclude::kTies:
        add(fs, PeerBegin(i));
        add(i, i + 1);
        add(PeerEnd(i), fe);
        break;
    }
    return n;
  }

 private:
  idx_t Bound(idx_t i, WindowBoundKind kind, int64_t offset, bool start) const {
    const auto n = static_cast<idx_t>(offset);
    switch (kind) {
      case WindowBoundKind::kUnboundedPreceding:
        return ps_;
      case WindowBoundKind::kUnboundedFollowing:
        return pe_;
      case WindowBoundKind::kCurrentRow:
        if (w_.unit == WindowFrameUnit::kRows) return start ? i : i + 1;
        return start ? PeerBegin(i) : PeerEnd(i);
      case WindowBoundKind::kOffsetPreceding:
      case WindowBoundKind::kOffsetFollowing:
        break;
    }
    const bool preceding = kind == WindowBoundKind::kOffsetPreceding;
    switch (w_.unit) {
      case WindowFrameUnit::kRows: {
        // start: row i -/+ n; end (exclusive): one past it. Clamped to the partition.
        const idx_t first = start ? 0 : 1;
        if (preceding) return i + first >= ps_ + n ? i + first - n : ps_;
        return std::min(pe_, i + first + std::min(n, pe_));
      }
      case WindowFrameUnit::kGroups: {
        const idx_t first_group = run_.group_of[ps_];
        const idx_t last_group = run_.group_of[pe_ - 1];
        const idx_t g = run_.group_of[i];
        const idx_t first = start ? 0 : 1;
        if (preceding) {
          if (g + first < first_group + n) return ps_;
          return run_.group_starts[g + first - n];
        }
        if (g + first + n > last_group) return pe_;
        return run_.group_starts[g + first + n];
      }
      case WindowFrameUnit::kRange:
        break;
    }
    // RANGE: a NULL key has only its peers within any offset.
    if (args_.range_key->IsNull(i)) return start ? PeerBegin(i) : PeerEnd(i);
    const Vector& bound = start ? *args_.range_start : *args_.range_end;
    return RangeSearch(bound, i, start);
  }

  /// start: the first non-NULL row not before the bound value of row i in the ORDER BY
  /// order; end: the first one after it.
  idx_t RangeSearch(const Vector& bound, idx_t i, bool start) const {
    switch (args_.range_key->type().physical()) {
      case PhysicalType::kInt32:
        return Search<int32_t>(bound, i, start);
      case PhysicalType::kInt64:
        return Search<int64_t>(bound, i, start);
      case PhysicalType::kInt128:
        return Search<int128_t>(bound, i, start);
      case PhysicalType::kDouble:
        return Search<double>(bound, i, start);
      default:
        throw InternalError("RANGE frame over {}", args_.range_key->type().ToString());
    }
  }

  template <typename T>
  idx_t Search(const Vector& bound, idx_t i, bool start) const {
    const T* keys = args_.range_key->data<T>();
    const T value = bound.data<T>()[i];
    const bool descending = w_.orders[0].descending;
    // Rows before the bound (start) / not after it (end) come first: find where they end.
    auto before = [&](const T& key) {
      if (start) return descending ? Less(value, key) : Less(key, value);
      return descending ? !Less(key, value) : !Less(value, key);
    };
    idx_t low = nb_, high = ne_;
    while (low < high) {
      const idx_t mid = low + (high - low) / 2;
      if (before(keys[mid])) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  const BoundWindow& w_;
  const WindowRun& run_;
  const WindowArguments& args_;
  idx_t ps_ = 0, pe_ = 0;  // the partition
  idx_t nb_ = 0, ne_ = 0;  // its rows with a non-NULL RANGE key
};

template <typename F>
void ForEachPartition(const WindowRun& run, F&& f) {
  for (size_t p = 0; p + 1 < run.partition_starts.size(); p++)
    f(run.partition_starts[p], run.partition_starts[p + 1]);
}

/// Lets a long computation be cancelled: checks every kBatchSize rows.
inline void CheckEvery(const WindowRun& run, idx_t row) {
  if ((row & (kBatchSize - 1)) == 0 && run.check_cancelled) run.check_cancelled();
}

// ---- ranking ----

void ComputeRanking(const BoundWindow& w, const WindowRun& run, const WindowArguments& args,
                    Vector& out) {
  ForEachPartition(run, [&](idx_t ps, idx_t pe) {
    const auto size = static_cast<double>(pe - ps);
    for (idx_t i = ps; i < pe; i++) {
      CheckEvery(run, i);
      const idx_t peer_begin = run.group_starts[run.group_of[i]];
      const idx_t peer_end = run.group_starts[run.group_of[i] + 1];
      switch (w.function) {
        case WindowFunction::kRowNumber:
          out.data<int64_t>()[i] = static_cast<int64_t>(i - ps + 1);
          break;
        case WindowFunction::kRank:
          out.data<int64_t>()[i] = static_cast<int64_t>(peer_begin - ps + 1);
          break;
        case WindowFunction::kDenseRank:
          out.data<int64_t>()[i] = static_cast<int64_t>(run.group_of[i] - run.group_of[ps] + 1);
          break;
        case WindowFunction::kPercentRank:
          out.data<double>()[i] =
              pe - ps > 1 ? static_cast<double>(peer_begin - ps) / (size - 1) : 0.0;
          break;
        case WindowFunction::kCumeDist:
          out.data<double>()[i] = static_cast<double>(peer_end - ps) / size;
          break;
        case WindowFunction::kNtile: {
          const Vector& buckets = *args.args[0];
          if (buckets.IsNull(i)) {
            out.validity().SetNull(i);
            break;
          }
          const int64_t n = buckets.data<int64_t>()[i];
          if (n <= 0) throw InvalidInputError("argument of ntile must be greater than zero");
          // PostgreSQL's split: the first (size % n) buckets get one row more.
          const idx_t rows = pe - ps, r = i - ps;
          const auto buckets_n = static_cast<idx_t>(n);
          int64_t bucket;
          if (buckets_n >= rows) {
            bucket = static_cast<int64_t>(r + 1);
          } else {
            const idx_t per = rows / buckets_n, rest = rows % buckets_n;
            const idx_t big = rest * (per + 1);
            bucket = static_cast<int64_t>(r < big ? r / (per + 1) + 1 : (r - big) / per + rest + 1);
          }
          out.data<int64_t>()[i] = bucket;
          break;
        }
        default:
          throw InternalError("not a ranking function: {}", w.name);
      }
    }
  });
}

// ---- value functions: each row takes the value of some row (or a default, or NULL) ----

template <typename T>
void GatherValues(const Vector& values, const std::vector<int64_t>& source, const Vector* fallback,
                  Vector& out) {
  const T* data = values.data<T>();
  T* result = out.data<T>();
  for (idx_t i = 0; i < source.size(); i++) {
    const int64_t s = source[i];
    if (s >= 0 && !values.IsNull(static_cast<idx_t>(s))) {
      result[i] = data[s];
    } else if (s < 0 && fallback && !fallback->IsNull(i)) {
      result[i] = fallback->data<T>()[i];
    } else {
      result[i] = T{};
      out.validity().SetNull(i);
    }
  }
}

void GatherByType(const Vector& values, const std::vector<int64_t>& source, const Vector* fallback,
                  Vector& out) {
  switch (out.type().physical()) {
    case PhysicalType::kBool:
      return GatherValues<uint8_t>(values, source, fallback, out);
    case PhysicalType::kInt32:
      return GatherValues<int32_t>(values, source, fallback, out);
    case PhysicalType::kInt64:
      return GatherValues<int64_t>(values, source, fallback, out);
    case PhysicalType::kInt128:
      return GatherValues<int128_t>(values, source, fallback, out);
    case PhysicalType::kDouble:
      return GatherValues<double>(values, source, fallback, out);
    case PhysicalType::kString:
      out.ShareStringBuffers(values);
      if (fallback) out.ShareStringBuffers(*fallback);
      return GatherValues<StringRef>(values, source, fallback, out);
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("window value of an invalid type");
}

/// The row whose value row i takes under IGNORE NULLS, with ComputeValue's codes: -1 the
/// default (lag / lead), -2 NULL. `valued` lists the partition's rows with a value.
template <typename ValuedBefore>
int64_t IgnoringNullsSource(const BoundWindow& w, const WindowArguments& args,
                            FrameCalculator& frames, Piece* pieces,
                            const std::vector<idx_t>& valued, ValuedBefore valued_before, idx_t i) {
  const auto count = static_cast<int64_t>(valued.size());
  switch (w.function) {
    case WindowFunction::kLag:
    case WindowFunction::kLead: {
      // The o-th valued row before (lag) or after (lead) row i, ignoring the frame.
      const Vector& offsets = *args.args[1];
      if (offsets.IsNull(i)) return -2;
      const int64_t o = offsets.data<int64_t>()[i];
      if (o == 0) return static_cast<int64_t>(i);
      const int64_t before = valued_before(i);
      const bool self = before < count && valued[before] == i;
      // A negative offset looks the other way (lag(x, -1) is lead(x, 1)).
      const bool backward = (w.function == WindowFunction::kLag) == (o > 0);
      const int64_t steps = o > 0 ? o : -o;
      const int64_t at = backward ? before - steps : before + (self ? 1 : 0) + steps - 1;
      return at >= 0 && at < count ? static_cast<int64_t>(valued[at]) : -1;
    }
    case WindowFunction::kFirstValue: {
      const int n = frames.Pieces(i, pieces);
      for (int p = 0; p < n; p++) {
        const int64_t at = valued_before(pieces[p].begin);
        if (at < count && valued[at] < pieces[p].end) return static_cast<int64_t>(valued[at]);
      }
      return -2;
    }
    case WindowFunction::kLastValue: {
      const int n = frames.Pieces(i, pieces);
      for (int p = n - 1; p >= 0; p--) {
        const int64_t at = valued_before(pieces[p].end) - 1;
        if (at >= 0 && valued[at] >= pieces[p].begin) return static_cast<int64_t>(valued[at]);
      }
      return -2;
    }
    case WindowFunction::kNthValue: {
      const Vector& nth = *args.args[1];
      if (nth.IsNull(i)) return -2;
      const int64_t k = nth.data<int64_t>()[i];
      if (k <= 0) throw InvalidInputError("argument of nth_value must be greater than zero");
      int64_t left = k - 1;
      const int n = frames.Pieces(i, pieces);
      for (int p = 0; p < n; p++) {
        const int64_t first = valued_before(pieces[p].begin);
        const int64_t size = valued_before(pieces[p].end) - first;
        if (left < size) return static_cast<int64_t>(valued[first + left]);
        left -= size;
      }
      return -2;
    }
    default:
      throw InternalError("IGNORE NULLS on {}", w.name);
  }
}

void ComputeValue(const BoundWindow& w, const WindowRun& run, const WindowArguments& args,
                  Vector& out) {
  std::vector<int64_t> source(run.count, -1);
  const Vector* fallback = nullptr;
  FrameCalculator frames(w, run, args);
  Piece pieces[3];
  // IGNORE NULLS: the partition's rows with a value, in order; each function then searches
  // them (binary search per frame piece) instead of the rows.
  const Vector& values = *args.args[0];
  std::vector<idx_t> valued;
  ForEachPartition(run, [&](idx_t ps, idx_t pe) {
    frames.SetPartition(ps, pe);
    if (w.ignore_nulls) {
      valued.clear();
      for (idx_t r = ps; r < pe; r++) {
        if (!values.IsNull(r)) valued.push_back(r);
      }
    }
    // The number of valued rows before row r.
    auto valued_before = [&](idx_t r) {
      return static_cast<int64_t>(std::lower_bound(valued.begin(), valued.end(), r) -
                                  valued.begin());
    };
    for (idx_t i = ps; i < pe; i++) {
      CheckEvery(run, i);
      if (w.ignore_nulls) {
        source[i] = IgnoringNullsSource(w, args, frames, pieces, valued, valued_before, i);
        continue;
      }
      switch (w.function) {
        case WindowFunction::kLag:
        case WindowFunction::kLead: {
          // PostgreSQL: lag and lead ignore the frame; a NULL offset gives NULL.
          const Vector& offsets = *args.args[1];
          if (offsets.IsNull(i)) {
            source[i] = -2;
            break;
          }
          const int64_t o = offsets.data<int64_t>()[i];
          const int64_t target = w.function == WindowFunction::kLag ? static_cast<int64_t>(i) - o
                                                                    : static_cast<int64_t>(i) + o;
          const bool inside =
              target >= static_cast<int64_t>(ps) && target < static_cast<int64_t>(pe);
          source[i] = inside ? target : -1;
          break;
        }
        case WindowFunction::kFirstValue: {
          const int n = frames.Pieces(i, pieces);
          source[i] = n > 0 ? static_cast<int64_t>(pieces[0].begin) : -2;
          break;
        }
        case WindowFunction::kLastValue: {
          const int n = frames.Pieces(i, pieces);
          source[i] = n > 0 ? static_cast<int64_t>(pieces[n - 1].end - 1) : -2;
          break;
        }
        case WindowFunction::kNthValue: {
          const Vector& nth = *args.args[1];
          if (nth.IsNull(i)) {
            source[i] = -2;
            break;
          }
          const int64_t k = nth.data<int64_t>()[i];
          if (k <= 0) throw InvalidInputError("argument of nth_value must be greater than zero");
          auto left = static_cast<idx_t>(k - 1);
          source[i] = -2;
          const int n = frames.Pieces(i, pieces);
          for (int p = 0; p < n; p++) {
            const idx_t size = pieces[p].end - pieces[p].begin;
            if (left < size) {
              source[i] = static_cast<int64_t>(pieces[p].begin + left);
              break;
            }
            left -= size;
          }
          break;
        }
        default:
          throw InternalError("not a value function: {}", w.name);
      }
    }
  });
  if (w.function == WindowFunction::kLag || w.function == WindowFunction::kLead) {
    fallback = args.args[2];
    // -2: NULL offset (NULL, not the default).
    for (auto& s : source) {
      if (s == -2) s = -3;
    }
  }
  // -1 takes the default (lag/lead), any other negative value is NULL.
  if (!fallback) {
    for (auto& s : source) {
      if (s < 0) s = -1;
    }
    GatherByType(*args.args[0], source, nullptr, out);
    return;
  }
  std::vector<idx_t> null_rows;
  for (idx_t i = 0; i < source.size(); i++) {
    if (source[i] == -3) {
      null_rows.push_back(i);
      source[i] = -1;
    }
  }
  GatherByType(*args.args[0], source, fallback, out);
  for (idx_t i : null_rows)
    out.validity().SetNull(i);
}

// ---- aggregates ----

/// States of 16 rows, of 16 such states, ... over the whole run; a range of rows is the
/// states of at most 2 * 15 nodes per level plus the rows at its edges.
class SegmentTree {
 public:
  static constexpr idx_t kFanout = 16;

  SegmentTree(const AggregateOp& op, const Vector* arg, idx_t count, MemoryReservation& memory,
              StringArena& arena)
      : op_(op), arg_(arg) {
    stride_ = (op.state_size + 15) / 16 * 16;
    idx_t units = count;  // of the level below
    while (units > kFanout) {
      const idx_t nodes = (units + kFanout - 1) / kFanout;
      memory.Add(static_cast<int64_t>(nodes * stride_));
      levels_.emplace_back(nodes * stride_ / sizeof(int128_t));
      counts_.push_back(nodes);
      const size_t level = levels_.size();  // 1-based level of the new nodes
      for (idx_t k = 0; k < nodes; k++) {
        const idx_t begin = k * kFanout, end = std::min(units, begin + kFanout);
        if (level == 1) {
          op_.update_range(Node(1, k), arg_, begin, end - begin, arena);
        } else {
          for (idx_t c = begin; c < end; c++) {
            uint8_t* src = Node(level - 1, c);
            uint8_t* dst = Node(level, k);
            op_.combine(&src, &dst, 0, 1, arena);
          }
        }
      }
      units = nodes;
    }
  }

  /// Adds rows [begin, end) to `state`, in order (any_value keeps the first).
  void Query(idx_t begin, idx_t end, uint8_t* state, StringArena& arena) const {
    struct Part {
      size_t level;
      idx_t begin, end;
    };
    Part right[32];
    int rights = 0;
    size_t level = 0;
    while (begin < end) {
      if (level == levels_.size()) {
        Add(level, begin, end, state, arena);
        break;
      }
      const idx_t up = (begin + kFanout - 1) / kFanout, down = end / kFanout;
      if (up >= down) {
        Add(level, begin, end, state, arena);
        break;
      }
      Add(level, begin, up * kFanout, state, arena);
      right[rights++] = {level, down * kFanout, end};
      begin = up;
      end = down;
      level++;
    }
    while (rights > 0) {
      const Part& part = right[--rights];
      Add(part.level, part.begin, part.end, state, arena);
    }
  }

 private:
  uint8_t* Node(size_t level, idx_t k) const {
    return reinterpret_cast<uint8_t*>(const_cast<int128_t*>(levels_[level - 1].data())) +
           k * stride_;
  }

  void Add(size_t level, idx_t begin, idx_t end, uint8_t* state, StringArena& arena) const {
    if (begin >= end) return;
    if (level == 0) {
      op_.update_range(state, arg_, begin, end - begin, arena);
      return;
    }
    for (idx_t k = begin; k < end; k++) {
      uint8_t* src = Node(level, k);
      op_.combine(&src, &state, 0, 1, arena);
    }
  }

  const AggregateOp& op_;
  const Vector* arg_;
  uint32_t stride_ = 16;
  std::vector<std::vector<int128_t>> levels_;  // level 1 up (int128_t: aligned for any state)
  std::vector<idx_t> counts_;
};

/// Final states of consecutive rows, finalized a batch at a time (one kernel call, not one per
/// row).
class FinalizeBatch {
 public:
  FinalizeBatch(const AggregateOp& op, Vector& out, MemoryReservation& reservation, idx_t capacity)
      : op_(op), out_(out), reservation_(reservation), capacity_(capacity) {
    stride_ = (op.state_size + 15) / 16 * 16;
    storage_.resize(capacity * stride_ / sizeof(int128_t) + 1);
    for (idx_t k = 0; k < capacity; k++)
      states_.push_back(reinterpret_cast<uint8_t*>(storage_.data()) + k * stride_);
  }
  /// A zeroed state for row `row` (rows come in increasing order, without gaps).
  uint8_t* Next(idx_t row) {
    if (count_ == 0) first_ = row;
    uint8_t* state = states_[count_++];
    std::memset(state, 0, op_.state_size);
    return state;
  }
  bool Full() const { return count_ == capacity_; }
  /// Writes the results; strings move into the output's own heap (the states' bytes change).
  void Flush() {
    if (count_ == 0) return;
    op_.finalize(states_.data(), 0, count_, out_, first_, op_);
    if (out_.type().IsString()) {
      for (idx_t i = first_; i < first_ + count_; i++) {
        if (out_.IsNull(i)) continue;
        StringRef& s = out_.data<StringRef>()[i];
        reservation_.Add(s.len);
        s = out_.AddString(std::string_view(s.ptr, s.len));
      }
    }
    count_ = 0;
  }

 private:
  const AggregateOp& op_;
  Vector& out_;
  MemoryReservation& reservation_;
  idx_t capacity_;
  uint32_t stride_ = 16;
  std::vector<int128_t> storage_;
  std::vector<uint8_t*> states_;
  idx_t count_ = 0, first_ = 0;
};

/// The bytes that identify row `row`'s value for DISTINCT: a string's text, else the value's
/// own bytes (-0.0 as 0.0).
std::string_view DistinctKey(const Vector& v, idx_t row, double& zero) {
  if (v.type().IsString()) return v.data<StringRef>()[row].view();
  const size_t width = v.type().value_size();
  const auto* at = reinterpret_cast<const char*>(v.data<uint8_t>()) + row * width;
  if (v.type().physical() == PhysicalType::kDouble && v.data<double>()[row] == 0) {
    zero = 0.0;
    at = reinterpret_cast<const char*>(&zero);
  }
  return std::string_view(at, width);
}

/// count(DISTINCT x) OVER (...) and the other DISTINCT aggregates: each row's frame is read
/// row by row and a value seen before in it is skipped. A frame that starts at the partition
/// (UNBOUNDED PRECEDING) grows: one running state takes each value the first time it appears.
/// Other frames are collected anew per row (time linear in the frame), unless a row's frame is
/// its predecessor's.
void ComputeDistinctAggregate(const BoundWindow& w, const WindowRun& run, const AggregateOp& op,
                              const Vector* arg, FrameCalculator& frames, Vector& out,
                              MemoryReservation& reservation, MemoryTracker* memory) {
  auto arena = std::make_shared<StringArena>(memory);
  FinalizeBatch batch(op, out, reservation, 1);
  const idx_t width = out.type().value_size();
  std::vector<int128_t> storage((op.state_size + 15) / 16 + 1);
  auto* state = reinterpret_cast<uint8_t*>(storage.data());
  std::unordered_set<std::string> seen;
  size_t reserved = 0;  // the most keys held at once, counted against memory_limit
  double zero = 0;
  auto add = [&](idx_t r) {
    if (arg[0].IsNull(r)) return;
    const std::string_view key = DistinctKey(arg[0], r, zero);
    if (!seen.emplace(key).second) return;
    if (seen.size() > reserved) {
      reserved = seen.size();
      reservation.Add(static_cast<int64_t>(key.size() + 48));
    }
    op.update_range(state, arg, r, 1, *arena);
  };
  const bool running =
      w.start == WindowBoundKind::kUnboundedPreceding && w.exclude == WindowExclude::kNoOthers;
  Piece pieces[3], previous[3];
  int previous_count = -1;
  ForEachPartition(run, [&](idx_t ps, idx_t pe) {
    frames.SetPartition(ps, pe);
    std::memset(state, 0, op.state_size);
    seen.clear();
    previous_count = -1;
    idx_t added = ps;
    for (idx_t i = ps; i < pe; i++) {
      CheckEvery(run, i);
      const int n = running ? 0 : frames.Pieces(i, pieces);
      bool same = i > ps;
      if (running) {
        const idx_t end = std::max(frames.End(i), ps);
        same = same && end == added;
        for (; added < end; added++)
          add(added);
      } else {
        same = same && n == previous_count &&
               std::equal(pieces, pieces + n, previous, [](const Piece& a, const Piece& b) {
                 return a.begin == b.begin && a.end == b.end;
               });
        std::copy(pieces, pieces + n, previous);
        previous_count = n;
      }
      if (same) {  // the predecessor's frame: its result
        std::memcpy(out.raw_data() + i * width, out.raw_data() + (i - 1) * width, width);
        out.validity().Set(i, !out.IsNull(i - 1));
        continue;
      }
      if (!running) {
        std::memset(state, 0, op.state_size);
        seen.clear();
        for (int p = 0; p < n; p++) {
          for (idx_t r = pieces[p].begin; r < pieces[p].end; r++)
            add(r);
        }
      }
      std::memcpy(batch.Next(i), state, op.state_size);
      batch.Flush();
    }
  });
}

void ComputeAggregate(const BoundWindow& w, const WindowRun& run, const WindowArguments& args,
                      Vector& out, MemoryReservation& reservation) {
  // The kernels take several inputs as consecutive vectors: references to the arguments.
  std::vector<Vector> inputs(args.args.size());
  std::vector<LogicalType> input_types;
  for (size_t i = 0; i < args.args.size(); i++) {
    inputs[i].Reference(*args.args[i]);
    input_types.push_back(args.args[i]->type());
  }
  const Vector* arg = inputs.empty() ? nullptr : inputs.data();
  const AggregateOp op = BindAggregateOp(w.aggregate, input_types, w.type, w.params);
  MemoryTracker* memory = reservation.memory();
  auto arena = std::make_shared<StringArena>(memory);
  const bool strings = out.type().IsString();
  FrameCalculator frames(w, run, args);
  if (w.distinct) {
    return ComputeDistinctAggregate(w, run, op, arg, frames, out, reservation, memory);
  }
  if (w.start == WindowBoundKind::kUnboundedPreceding && w.exclude == WindowExclude::kNoOthers) {
    // Frames [partition start, end(i)) with end(i) never decreasing: one running state, copied
    // for each row (a string state is finalized at once: its bytes are overwritten later).
    // Collecting aggregates (median, string_agg, ...) finalize in time linear in the frame: a
    // row whose frame is its predecessor's (a whole partition, peers) copies that result.
    const bool collecting = IsCollectingAggregate(op.kind);
    std::vector<int128_t> running_storage((op.state_size + 15) / 16 + 1);
    auto* running = reinterpret_cast<uint8_t*>(running_storage.data());
    FinalizeBatch batch(op, out, reservation, strings || collecting ? 1 : kBatchSize);
    const idx_t width = out.type().value_size();
    ForEachPartition(run, [&](idx_t ps, idx_t pe) {
      frames.SetPartition(ps, pe);
      std::memset(running, 0, op.state_size);
      idx_t added = ps;
      for (idx_t i = ps; i < pe; i++) {
        CheckEvery(run, i);
        const idx_t end = std::max(frames.End(i), ps);
        if (collecting && i > ps && end == added) {
          std::memcpy(out.raw_data() + i * width, out.raw_data() + (i - 1) * width, width);
          out.validity().Set(i, !out.IsNull(i - 1));
          continue;
        }
        if (end > added) {
          op.update_range(running, arg, added, end - added, *arena);
          added = end;
        }
        std::memcpy(batch.Next(i), running, op.state_size);
        if (batch.Full()) batch.Flush();
      }
    });
    batch.Flush();
    return;
  }
  SegmentTree tree(op, arg, run.count, reservation, *arena);
  // String states allocate per row in `scratch`; their bytes are copied out at each flush, so
  // the arena is dropped then.
  auto scratch = std::make_shared<StringArena>(memory);
  FinalizeBatch batch(op, out, reservation, kBatchSize);
  Piece pieces[3];
  ForEachPartition(run, [&](idx_t ps, idx_t pe) {
    frames.SetPartition(ps, pe);
    for (idx_t i = ps; i < pe; i++) {
      CheckEvery(run, i);
      uint8_t* state = batch.Next(i);
      const int n = frames.Pieces(i, pieces);
      for (int p = 0; p < n; p++)
        tree.Query(pieces[p].begin, pieces[p].end, state, *scratch);
      if (batch.Full()) {
        batch.Flush();
        scratch = std::make_shared<StringArena>(memory);
      }
    }
  });
  batch.Flush();
}

}  // namespace

void ComputeWindow(const BoundWindow& window, const WindowRun& run, const WindowArguments& args,
                   Vector& out, MemoryReservation& reservation) {
  switch (window.function) {
    case WindowFunction::kAggregate:
      return ComputeAggregate(window, run, args, out, reservation);
    case WindowFunction::kRowNumber:
    case WindowFunction::kRank:
    case WindowFunction::kDenseRank:
    case WindowFunction::kPercentRank:
    case WindowFunction::kCumeDist:
    case WindowFunction::kNtile:
      return ComputeRanking(window, run, args, out);
    case WindowFunction::kLag:
    case WindowFunction::kLead:
    case WindowFunction::kFirstValue:
    case WindowFunction::kLastValue:
    case WindowFunction::kNthValue:
      return ComputeValue(window, run, args, out);
  }
}

}  // namespace shears
