#include "dynfilter/runtime_filter.h"

#include <charconv>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>

#include "common/error.h"
#include "common/hash.h"

namespace shears {

// ---- RuntimeFilter ----

std::string RuntimeFilterKindName(uint8_t kinds) {
  std::string out;
  auto add = [&](uint8_t kind, const char* name) {
    if (kinds & kind) out += (out.empty() ? "" : "+") + std::string(name);
  };
  add(kRuntimeFilterExactSet, "exact_set");
  add(kRuntimeFilterBloom, "bloom");
  add(kRuntimeFilterBitmap, "bitmap");
  add(kRuntimeFilterRange, "range");
  return out.empty() ? "none" : out;
}

const char* RuntimeFilterProbeFormName(RuntimeFilterProbeForm form) {
  switch (form) {
    case RuntimeFilterProbeForm::kBitmap:
      return "bitmap";
    case RuntimeFilterProbeForm::kLinear:
      return "linear";
    case RuntimeFilterProbeForm::kIntTable:
      return "int_table";
    case RuntimeFilterProbeForm::kStringSet:
      return "string_set";
    case RuntimeFilterProbeForm::kBloom:
      return "bloom";
    default:
      return "none";
  }
}

std::string PruningLevelsText(const RuntimeFilterCounters& counters) {
  auto level = [](const char* name, const RuntimeFilterCounters::LevelCounters& c) {
    return fmt::format("{} {} checked ({} pruned), {} not checked while paused ({} pauses)", name,
                       c.checks.load(), c.pruned.load(), c.skipped.load(), c.pauses.load());
  };
  return fmt::format(
      "by level: {}; {}; {}; {} of the pauses as the dictionaries held many keys",
      level("files by statistics known unopened", counters.file_checks),
      level("row groups by bloom filters and dictionaries", counters.row_group_checks),
      level("pages by the page index", counters.page_checks), counters.dense_pauses.load());
}

std::string ColumnKeysText(const RuntimeFilter& filter) {
  if (filter.key_types().size() == 1) return "";
  std::string out = ", column keys:";
  for (size_t k = 0; k < filter.key_types().size(); k++) {
    const RuntimeFilter* keys = filter.column_filter(k);
    out += k ? ", " : " ";
    if (!keys) {
      out += "not listed";
    } else {
      out += std::to_string(keys->distinct_keys()) +
             ((keys->kinds() & kRuntimeFilterExactSet) ? " exact_set" : " bitmap");
    }
  }
  return out;
}

std::string RowsText(const RuntimeFilter& filter) {
  if (!filter.rows_skipped_reason().empty())
    return "rows not tested: " + filter.rows_skipped_reason();
  return std::string("rows probed by ") + RuntimeFilterProbeFormName(filter.probe_form());
}

RuntimeFilter::RuntimeFilter(std::vector<LogicalType> key_types, bool keys_only)
    : key_types_(std::move(key_types)),
      mins_(key_types_.size()),
      maxs_(key_types_.size()),
      keys_only_(keys_only) {
  SHEARS_CHECK(!key_types_.empty());
  const PhysicalType p = key_types_[0].physical();
  exact_possible_ = key_types_.size() == 1 && (IntegerKeys() || p == PhysicalType::kString);
  if (key_types_.size() == 1) return;
  column_filters_.resize(key_types_.size());
  for (size_t k = 0; k < key_types_.size(); k++) {
    const PhysicalType column = key_types_[k].physical();
    if (column == PhysicalType::kInt32 || column == PhysicalType::kInt64 ||
        column == PhysicalType::kString) {
      column_filters_[k] = std::make_unique<RuntimeFilter>(std::vector{key_types_[k]}, true);
    }
  }
}

const RuntimeFilter* RuntimeFilter::column_filter(size_t column) const {
  if (key_types_.size() == 1) return probe_is_exact() ? this : nullptr;
  const RuntimeFilter* filter = column_filters_[column].get();
  return filter && filter->enabled() && filter->probe_is_exact() ? filter : nullptr;
}

bool RuntimeFilter::NarrowIntegers() const {
  if (!IntegerKeys() || int_set_.empty()) return false;
  return static_cast<uint64_t>(int_hi_) - static_cast<uint64_t>(int_lo_) <
         kRuntimeFilterMaxBitmapBits;
}

bool RuntimeFilter::IntegerKeys() const {
  const PhysicalType p = key_types_[0].physical();
  return key_types_.size() == 1 && (p == PhysicalType::kInt32 || p == PhysicalType::kInt64);
}

bool RuntimeFilterKeyInverse::Apply(int64_t& value) const {
  for (const Step& step : steps) {
    if (step.add != 0 && __builtin_add_overflow(value, step.add, &value)) return false;
    if (step.fits_int32 && (value < INT32_MIN || value > INT32_MAX)) return false;
  }
  return true;
}

bool RuntimeFilterKeyInverse::ApplyText(std::string_view text, int64_t& value) const {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  // Only the canonical text: a key "007" or "-0" is no integer's text.
  char buffer[24];
  const auto written = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (std::string_view(buffer, static_cast<size_t>(written.ptr - buffer)) != text) return false;
  if (!Apply(value)) return false;
  // The text of the column itself (no step checked the range): an INTEGER's must fit.
  return column_type != LogicalType::Integer() || (value >= INT32_MIN && value <= INT32_MAX);
}

int64_t RuntimeFilter::IntegerAt(const Vector& v, idx_t row) {
  return v.type().physical() == PhysicalType::kInt32 ? v.data<int32_t>()[row]
                                                     : v.data<int64_t>()[row];
}

namespace {

template <class T, class Less>
std::pair<int64_t, int64_t> MinMaxOf(const T* data, idx_t count, Less less) {
  idx_t lo = 0, hi = 0;
  for (idx_t i = 1; i < count; i++) {
    if (less(data[i], data[lo])) lo = i;
    if (less(data[hi], data[i])) hi = i;
  }
  return {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// Rows of the smallest and largest value of v[0..count), or (-1, -1) when the type has no
// range a filter may use: BOOLEAN (pointless) and DOUBLE (NaN has no place in an order, yet
// joins match NaN with NaN).
std::pair<int64_t, int64_t> MinMaxRows(const Vector& v, idx_t count) {
  if (count == 0) return {-1, -1};
  auto less = [](const auto& a, const auto& b) { return a < b; };
  switch (v.type().physical()) {
    case PhysicalType::kInt32:
      return MinMaxOf(v.data<int32_t>(), count, less);
    case PhysicalType::kInt64:
      return MinMaxOf(v.data<int64_t>(), count, less);
    case PhysicalType::kInt128:
      return MinMaxOf(v.data<int128_t>(), count, less);
    case PhysicalType::kString:
      return MinMaxOf(v.data<StringRef>(), count,
                      [](const StringRef& a, const StringRef& b) { return a.view() < b.view(); });
    default:
      return {-1, -1};
  }
}

}  // namespace

void RuntimeFilter::Add(const std::vector<const Vector*>& keys, idx_t count) {
  SHEARS_CHECK(keys.size() == key_types_.size());
  if (count == 0) return;
  // A direct bitmap (ExpectKeys) needs no hashes: they are made from its keys if it falls back
  // to listing them.
  if (!keys_only_ && !bitmap_direct_) {
    const size_t old = hashes_.size();
    hashes_.resize(old + count);
    for (size_t k = 0; k < keys.size(); k++)
      HashVector(*keys[k], count, hashes_.data() + old, k > 0);
  }
  // The ranges: the smallest and largest row of each key column, found on the raw values,
  // then read as Values once per batch.
  for (size_t k = 0; k < keys.size(); k++) {
    const auto [lo, hi] = MinMaxRows(*keys[k], count);
    if (lo < 0) continue;
    Value low = ReadValue(*keys[k], static_cast<idx_t>(lo));
    Value high = ReadValue(*keys[k], static_cast<idx_t>(hi));
    if (!mins_[k] || low.Compare(*mins_[k]) < 0) mins_[k] = std::move(low);
    if (!maxs_[k] || high.Compare(*maxs_[k]) > 0) maxs_[k] = std::move(high);
  }
  if (key_types_.size() != 1) {
    // Listing each column costs a set insertion per build row and column: bounded by listing
    // only for build sides of at most kKeysOnlyGiveUp rows (a larger one pays only for its
    // combined hashes). Past it every column stops (column_filter then gives none).
    const bool list = hashes_.size() <= kKeysOnlyGiveUp;
    for (size_t k = 0; k < keys.size(); k++) {
      if (!list) {
        column_filters_[k].reset();
      } else if (column_filters_[k]) {
        column_filters_[k]->Add({keys[k]}, count);
      }
    }
    return;
  }
  const Vector& v = *keys[0];
  if (!exact_possible_) return;
  if (IntegerKeys()) {
    idx_t i = 0;
    if (bitmap_direct_) {
      uint64_t* bits = bitmap_.data();
      const uint64_t base = static_cast<uint64_t>(bitmap_base_);
      for (; i < count; i++) {
        const int64_t key = IntegerAt(v, i);
        const uint64_t offset = static_cast<uint64_t>(key) - base;  // wraps below the base
        if (offset >= bitmap_span_) break;
        int_lo_ = std::min(int_lo_, key);
        int_hi_ = std::max(int_hi_, key);
        bits[offset >> 6] |= uint64_t{1} << (offset & 63);
      }
      if (i == count) return;
      ListBitmapKeys();  // a key outside the bounds given: list them all from here on
      // The rest of this batch is hashed as Add hashes every key outside a direct bitmap.
      std::vector<uint64_t> batch_hashes(count);
      HashVector(v, count, batch_hashes.data(), false);
      hashes_.insert(hashes_.end(), batch_hashes.begin() + static_cast<std::ptrdiff_t>(i),
                     batch_hashes.end());
    }
    for (; i < count; i++) {
      const int64_t key = IntegerAt(v, i);
      int_lo_ = std::min(int_lo_, key);
      int_hi_ = std::max(int_hi_, key);
      int_set_.insert(key);
    }
  } else {
    const StringRef* strings = v.data<StringRef>();
    for (idx_t i = 0; i < count; i++)
      string_set_.emplace(strings[i].ptr, strings[i].len);
  }
  CapListing();
}

void RuntimeFilter::ExpectKeys(uint64_t distinct_keys, int64_t low, int64_t high,
                               const RuntimeFilterLimits& limits) {
  if (key_types_.size() != 1 || keys_only_ || !IntegerKeys() || !exact_possible_ || low > high ||
      !int_set_.empty() || bitmap_direct_ || !hashes_.empty())
    return;
  const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) + 1;
  // Keys Finish would keep listed (an exact set, the values for partitions, the keys a bitmap
  // probes Parquet bloom filters with), or so many that the listing would stop (then a bloom
  // filter, not a bitmap): listed as before.
  const uint64_t listed = std::max<uint64_t>(
      {limits.max_exact_keys, limits.max_value_keys, kRuntimeFilterMaxBloomProbeKeys});
  if (distinct_keys > listed && distinct_keys <= (1u << 20) && span != 0 &&
      span <= limits.max_bitmap_bits) {
    bitmap_.assign(span / 64 + 1, 0);  // + 1: the spare zero bit at offset span
    bitmap_base_ = low;
    bitmap_span_ = span;
    bitmap_direct_ = true;
    return;
  }
  int_set_.reserve(std::min<uint64_t>(distinct_keys, 1u << 20));
}

void RuntimeFilter::ListBitmapKeys() {
  if (!bitmap_direct_) return;
  bitmap_direct_ = false;
  // The keys, listed and hashed (Add hashed none while the bitmap was set directly).
  Vector keys(key_types_[0], kBatchSize);
  const bool narrow = key_types_[0].physical() == PhysicalType::kInt32;
  idx_t pending = 0;
  auto hash_pending = [&] {
    const size_t old = hashes_.size();
    hashes_.resize(old + pending);
    HashVector(keys, pending, hashes_.data() + old, false);
    pending = 0;
  };
  for (size_t w = 0; w < bitmap_.size(); w++) {
    for (uint64_t word = bitmap_[w]; word != 0; word &= word - 1) {
      const int64_t key = bitmap_base_ + static_cast<int64_t>(w * 64 + std::countr_zero(word));
      int_set_.insert(key);
      if (narrow) {
        keys.data<int32_t>()[pending++] = static_cast<int32_t>(key);
      } else {
        keys.data<int64_t>()[pending++] = key;
      }
      if (pending == kBatchSize) hash_pending();
    }
  }
  if (pending > 0) hash_pending();
  bitmap_.clear();
  bitmap_base_ = 0;
  bitmap_span_ = 0;
}

void RuntimeFilter::CapListing() {
  if (key_types_.size() != 1) {
    // Each column is listed only while the build side stays within kKeysOnlyGiveUp rows.
    if (hashes_.size() > kKeysOnlyGiveUp) {
      for (auto& column : column_filters_)
        column.reset();
    }
    return;
  }
  // The cap is applied in Finish; past a generous bound stop paying for the set at all. A
  // column of a combined key lists only keys few or narrow enough to end as a set or bitmap:
  // past kKeysOnlyGiveUp keys spanning more than a bitmap's bits it stops (the combined key's
  // hashes are all a large build side pays for).
  const size_t listed = int_set_.size() + string_set_.size();
  if (listed > (1u << 20) || (keys_only_ && listed > kKeysOnlyGiveUp && !NarrowIntegers())) {
    exact_possible_ = false;
    int_set_.clear();
    string_set_.clear();
  }
}

void RuntimeFilter::Merge(RuntimeFilter&& other) {
  SHEARS_CHECK(other.key_types_.size() == key_types_.size());
  // Two direct bitmaps over the same bounds unite bit by bit; otherwise each is listed (and
  // its keys hashed) first.
  const bool same_bitmaps = bitmap_direct_ && other.bitmap_direct_ &&
                            bitmap_base_ == other.bitmap_base_ &&
                            bitmap_span_ == other.bitmap_span_;
  if (!same_bitmaps) {
    ListBitmapKeys();
    other.ListBitmapKeys();
  }
  hashes_.insert(hashes_.end(), other.hashes_.begin(), other.hashes_.end());
  for (size_t k = 0; k < mins_.size(); k++) {
    if (other.mins_[k] && (!mins_[k] || other.mins_[k]->Compare(*mins_[k]) < 0))
      mins_[k] = std::move(other.mins_[k]);
    if (other.maxs_[k] && (!maxs_[k] || other.maxs_[k]->Compare(*maxs_[k]) > 0))
      maxs_[k] = std::move(other.maxs_[k]);
  }
  exact_possible_ = exact_possible_ && other.exact_possible_;
  if (exact_possible_) {
    int_lo_ = std::min(int_lo_, other.int_lo_);
    int_hi_ = std::max(int_hi_, other.int_hi_);
    if (same_bitmaps) {
      for (size_t w = 0; w < bitmap_.size(); w++)
        bitmap_[w] |= other.bitmap_[w];
    } else {
      int_set_.insert(other.int_set_.begin(), other.int_set_.end());
    }
    string_set_.insert(other.string_set_.begin(), other.string_set_.end());
  } else {
    int_set_.clear();
    string_set_.clear();
    bitmap_direct_ = false;
    bitmap_.clear();
  }
  if (bloom_ && other.bloom_) bloom_->Union(*other.bloom_);
  build_rows_ += other.build_rows_;
  // A column one partial stopped listing is listed by neither: its keys would be incomplete.
  for (size_t k = 0; k < column_filters_.size(); k++) {
    if (column_filters_[k] && other.column_filters_[k]) {
      column_filters_[k]->Merge(std::move(*other.column_filters_[k]));
    } else {
      column_filters_[k].reset();
    }
  }
  // The united keys are listed as Add would have listed them all.
  CapListing();
}

void RuntimeFilter::Finish(const RuntimeFilterLimits& limits, uint64_t build_rows, double build_ms,
                           uint64_t distinct_keys) {
  build_rows_ = build_rows;
  build_ms_ = build_ms;
  kinds_ = 0;
  if (keys_only_) {
    FinishKeysOnly(limits);
    return;
  }
  for (auto& column : column_filters_) {
    if (column) column->Finish(limits, build_rows, 0);
  }
  size_t set_size = int_set_.size() + string_set_.size();
  if (bitmap_direct_) {
    size_t keys = 0;
    for (uint64_t word : bitmap_)
      keys += static_cast<size_t>(std::popcount(word));
    // Fewer keys came than expected: listed after all, and decided as without ExpectKeys.
    if (keys <= std::max<uint64_t>({limits.max_exact_keys, limits.max_value_keys,
                                    kRuntimeFilterMaxBloomProbeKeys})) {
      ListBitmapKeys();
      keys = int_set_.size();
    }
    set_size = keys;
  }
  const bool exact = exact_possible_ && set_size <= limits.max_exact_keys;
  if (exact || bitmap_direct_) {
    distinct_ = set_size;  // a direct bitmap's bits count its keys exactly
  } else if (distinct_keys > 0) {
    distinct_ = distinct_keys;
  } else {
    // Every build row was added, duplicates included: count the distinct hashes.
    distinct_ = CountDistinctHashes();
  }
  if (distinct_ > limits.max_keys) {
    Disable(fmt::format("build side produced {} distinct keys, more than {}", distinct_,
                        limits.max_keys));
    bloom_.reset();
  } else if (exact) {
    kinds_ |= kRuntimeFilterExactSet;
    bloom_.reset();
  } else if (bitmap_direct_) {
    // Exact, probed bit by bit (ChooseProbeForm): a bloom filter beside it would go unused.
    kinds_ |= kRuntimeFilterBitmap;
  } else {
    if (hashes_replaced_) {
      // The union's bits, OR-ed across processes (ReplaceHashes).
      if (!bloom_) throw InternalError("a merged runtime filter lacks the union's bloom filter");
    } else {
      bloom_ = parquet::SplitBlockBloomFilter::ForNdv(distinct_, limits.bloom_fpp);
      for (uint64_t h : hashes_)
        bloom_->InsertHash(h);
    }
    kinds_ |= kRuntimeFilterBloom;
  }
  hashes_.clear();
  hashes_.shrink_to_fit();
  if (kinds_ == 0) {
    int_set_.clear();
    string_set_.clear();
    bitmap_direct_ = false;
    bitmap_.clear();
    return;
  }
  ChooseProbeForm(limits);
  // A bitmap past max_exact_keys is exact too; its few keys stay listed so that a Parquet bloom
  // filter (which hashes values, not bits) can be probed with each.
  const bool list_bitmap_keys = form_ == RuntimeFilterProbeForm::kBitmap &&
                                int_set_.size() <= kRuntimeFilterMaxBloomProbeKeys;
  if (!exact && !list_bitmap_keys) {
    // A bloom filter tells partition values with false positives: the keys stay listed apart
    // for them, up to max_value_keys (statistics and Parquet bloom checks never walk them).
    if (!probe_is_exact() && exact_possible_ && set_size <= limits.max_value_keys) {
      values_listed_ = true;
      value_ints_ = std::move(int_set_);
      value_strings_ = std::move(string_set_);
    }
    int_set_.clear();
    string_set_.clear();
  }
  for (size_t k = 0; k < mins_.size(); k++) {
    if (mins_[k] && maxs_[k]) kinds_ |= kRuntimeFilterRange;
  }
  unusable_reason_.clear();
  disabled_reason_.clear();
}

void RuntimeFilter::FinishKeysOnly(const RuntimeFilterLimits& limits) {
  hashes_.clear();
  const size_t set_size = int_set_.size() + string_set_.size();
  distinct_ = set_size;
  if (exact_possible_ && set_size > 0 && set_size <= limits.max_exact_keys)
    kinds_ |= kRuntimeFilterExactSet;
  // Past max_exact_keys, integer keys of a narrow span still list as a bitmap.
  if (exact_possible_ && set_size > 0) ChooseProbeForm(limits);
  if (!probe_is_exact()) {
    form_ = RuntimeFilterProbeForm::kNone;
    kinds_ = 0;
    int_set_.clear();
    string_set_.clear();
    Disable("the column's keys are too many to list");
    return;
  }
  if (!(kinds_ & kRuntimeFilterExactSet) && int_set_.size() > kRuntimeFilterMaxBloomProbeKeys)
    int_set_.clear();  // the bitmap holds them; too many to probe a Parquet bloom filter with
  if (mins_[0] && maxs_[0]) kinds_ |= kRuntimeFilterRange;
  unusable_reason_.clear();
  disabled_reason_.clear();
}

namespace {

constexpr uint64_t kFibonacci = 0x9E3779B97F4A7C15ull;  // 2^64 / golden ratio, odd

inline size_t TableSlot(int64_t key, int shift) {
  return static_cast<size_t>((static_cast<uint64_t>(key) * kFibonacci) >> shift);
}

// One integer key against each form, shared by the probe loops and ValueMayMatch.
inline idx_t BitmapHas(const uint64_t* bits, uint64_t base, uint64_t span, int64_t value) {
  // Wraps for values below the base; every offset past the span reads the spare bit.
  const uint64_t offset = std::min(static_cast<uint64_t>(value) - base, span);
  return static_cast<idx_t>((bits[offset >> 6] >> (offset & 63)) & 1);
}

inline idx_t LinearHas(const int64_t* keys, int64_t value) {
  idx_t hit = 0;
  for (size_t i = 0; i < kRuntimeFilterMaxLinearKeys; i++)
    hit |= value == keys[i];
  return hit;
}

inline idx_t TableHas(const int64_t* table, size_t mask, int shift, int64_t empty, int64_t value) {
  for (size_t slot = TableSlot(value, shift);; slot = (slot + 1) & mask) {
    // A value equal to the free-slot marker stops at the first free slot: not a key.
    if (table[slot] == value) return static_cast<idx_t>(value != empty);
    if (table[slot] == empty) return idx_t{0};
  }
}

}  // namespace

void RuntimeFilter::ChooseProbeForm(const RuntimeFilterLimits& limits) {
  form_ = RuntimeFilterProbeForm::kNone;
  if (distinct_ == 0) return;
  if (bitmap_direct_) {
    // Built by Add over the bounds ExpectKeys was given (within limits.max_bitmap_bits).
    bitmap_direct_ = false;
    form_ = RuntimeFilterProbeForm::kBitmap;
    return;
  }
  if (!IntegerKeys() || !exact_possible_ || int_set_.empty()) {
    form_ = (kinds_ & kRuntimeFilterExactSet) ? RuntimeFilterProbeForm::kStringSet
                                              : RuntimeFilterProbeForm::kBloom;
    return;
  }
  // Integer keys, all known (also when the kind is bloom: the set was kept up to 2^20 keys).
  const auto [lo, hi] = std::minmax_element(int_set_.begin(), int_set_.end());
  const int64_t min = *lo, max = *hi;
  const uint64_t span = static_cast<uint64_t>(max) - static_cast<uint64_t>(min) + 1;
  if (span != 0 && span <= limits.max_bitmap_bits) {
    bitmap_.assign(span / 64 + 1, 0);  // + 1: the spare zero bit at offset span
    bitmap_base_ = min;
    bitmap_span_ = span;
    for (int64_t key : int_set_) {
      const uint64_t offset = static_cast<uint64_t>(key) - static_cast<uint64_t>(min);
      bitmap_[offset >> 6] |= uint64_t{1} << (offset & 63);
    }
    form_ = RuntimeFilterProbeForm::kBitmap;
  } else if (!(kinds_ & kRuntimeFilterExactSet)) {
    form_ = RuntimeFilterProbeForm::kBloom;  // many sparse keys: one cache line a probe
  } else if (int_set_.size() <= std::min(limits.max_linear_keys, kRuntimeFilterMaxLinearKeys)) {
    linear_.assign(int_set_.begin(), int_set_.end());
    linear_.resize(kRuntimeFilterMaxLinearKeys, linear_[0]);  // repeats never add a match
    form_ = RuntimeFilterProbeForm::kLinear;
  } else {
    size_t slots = 16;
    while (slots < 2 * int_set_.size())
      slots *= 2;
    table_shift_ = 64 - std::countr_zero(slots);
    // A value no key has marks the free slots.
    table_empty_ = INT64_MIN;
    while (int_set_.contains(table_empty_))
      table_empty_++;
    table_.assign(slots, table_empty_);
    for (int64_t key : int_set_) {
      size_t slot = TableSlot(key, table_shift_);
      while (table_[slot] != table_empty_)
        slot = (slot + 1) & (slots - 1);
      table_[slot] = key;
    }
    form_ = RuntimeFilterProbeForm::kIntTable;
  }
}

size_t RuntimeFilter::bytes() const {
  size_t bytes = bloom_ ? bloom_->bytes().size() : 0;
  for (const auto& column : column_filters_)
    bytes += column ? column->bytes() : 0;
  bytes += (bitmap_.size() + linear_.size() + table_.size()) * sizeof(uint64_t);
  bytes += (int_set_.size() + value_ints_.size()) * sizeof(int64_t);
  bytes += ranges_.size() * sizeof(KeyInterval);
  for (const auto* set : {&string_set_, &value_strings_}) {
    for (const auto& s : *set)
      bytes += s.size() + sizeof(std::string);
  }
  return bytes;
}

namespace {

// The probe loops, specialized on whether a selection is given and whether keys may be NULL,
// so the common case (no selection, no NULLs) is a tight loop.
template <bool kHasSel, bool kHasNulls, class Test>
idx_t ProbeLoop(idx_t count, const uint32_t* sel, const std::vector<const Vector*>& keys,
                uint32_t* out_sel, Test&& test) {
  idx_t kept = 0;
  for (idx_t i = 0; i < count; i++) {
    const uint32_t row = kHasSel ? sel[i] : static_cast<uint32_t>(i);
    if constexpr (kHasNulls) {
      bool null = false;
      for (const Vector* v : keys)
        null = null || v->IsNull(row);
      if (null) continue;
    }
    out_sel[kept] = row;
    kept += test(row);  // branch-free: the slot is overwritten when the row fails
  }
  return kept;
}

// A single key with NULLs whose test only reads the key's slot (integer forms: any value in a
// NULL row's slot is harmless to test): the row's validity bit is ANDed in, with no branch.
// Keys of TPC-DS facts carry a few percent of NULLs, which made the branchy loop the slow one.
template <bool kHasSel, class Test>
idx_t ProbeLoopMasked(idx_t count, const uint32_t* sel, const uint64_t* valid, uint32_t* out_sel,
                      Test&& test) {
  idx_t kept = 0;
  for (idx_t i = 0; i < count; i++) {
    const uint32_t row = kHasSel ? sel[i] : static_cast<uint32_t>(i);
    out_sel[kept] = row;
    kept += test(row) & static_cast<idx_t>((valid[row >> 6] >> (row & 63)) & 1);
  }
  return kept;
}

template <bool kNullSlotsSafe = false, class Test>
idx_t Dispatch(idx_t count, const uint32_t* sel, const std::vector<const Vector*>& keys,
               uint32_t* out_sel, Test&& test) {
  bool nulls = false;
  for (const Vector* v : keys)
    nulls = nulls || !v->validity().AllValid();
  if (kNullSlotsSafe && nulls && keys.size() == 1) {
    const uint64_t* valid = keys[0]->validity().data();
    return sel ? ProbeLoopMasked<true>(count, sel, valid, out_sel, test)
               : ProbeLoopMasked<false>(count, sel, valid, out_sel, test);
  }
  if (sel) {
    return nulls ? ProbeLoop<true, true>(count, sel, keys, out_sel, test)
                 : ProbeLoop<true, false>(count, sel, keys, out_sel, test);
  }
  return nulls ? ProbeLoop<false, true>(count, sel, keys, out_sel, test)
               : ProbeLoop<false, false>(count, sel, keys, out_sel, test);
}

}  // namespace

template <class T>
idx_t RuntimeFilter::ProbeIntegers(const std::vector<const Vector*>& keys, idx_t count,
                                   const uint32_t* sel, uint32_t* out_sel) const {
  const T* data = keys[0]->data<T>();
  switch (form_) {
    case RuntimeFilterProbeForm::kBitmap: {
      const uint64_t* bits = bitmap_.data();
      const uint64_t base = static_cast<uint64_t>(bitmap_base_), span = bitmap_span_;
      return Dispatch<true>(count, sel, keys, out_sel, [=](uint32_t row) {
        return BitmapHas(bits, base, span, static_cast<int64_t>(data[row]));
      });
    }
    case RuntimeFilterProbeForm::kLinear: {
      std::array<int64_t, kRuntimeFilterMaxLinearKeys> set;
      std::copy(linear_.begin(), linear_.end(), set.begin());
      return Dispatch<true>(count, sel, keys, out_sel,
                            [&](uint32_t row) { return LinearHas(set.data(), data[row]); });
    }
    default: {  // kIntTable
      const int64_t* table = table_.data();
      const int64_t empty = table_empty_;
      const size_t mask = table_.size() - 1;
      const int shift = table_shift_;
      return Dispatch<true>(count, sel, keys, out_sel, [=](uint32_t row) {
        return TableHas(table, mask, shift, empty, static_cast<int64_t>(data[row]));
      });
    }
  }
}

idx_t RuntimeFilter::Probe(const std::vector<const Vector*>& keys, idx_t count, const uint32_t* sel,
                           uint32_t* out_sel, std::vector<uint64_t>& hashes) const {
  if (distinct_ == 0) return 0;  // nothing can join
  switch (form_) {
    case RuntimeFilterProbeForm::kBitmap:
    case RuntimeFilterProbeForm::kLinear:
    case RuntimeFilterProbeForm::kIntTable:
      return keys[0]->type().physical() == PhysicalType::kInt32
                 ? ProbeIntegers<int32_t>(keys, count, sel, out_sel)
                 : ProbeIntegers<int64_t>(keys, count, sel, out_sel);
    case RuntimeFilterProbeForm::kStringSet: {
      const StringRef* data = keys[0]->data<StringRef>();
      return Dispatch(count, sel, keys, out_sel, [&](uint32_t row) {
        return static_cast<idx_t>(
            string_set_.contains(absl::string_view(data[row].ptr, data[row].len)));
      });
    }
    default:
      break;
  }
  // Bloom: hash the batch up to the last selected row (vectorized), then test.
  const idx_t rows = sel ? (count ? *std::max_element(sel, sel + count) + 1 : 0) : count;
  if (hashes.size() < rows) hashes.resize(rows);
  for (size_t k = 0; k < keys.size(); k++)
    HashVector(*keys[k], rows, hashes.data(), k > 0);
  const uint64_t* h = hashes.data();
  const parquet::SplitBlockBloomFilter& bloom = *bloom_;
  return Dispatch(count, sel, keys, out_sel,
                  [&](uint32_t row) { return bloom.MightContainHash(h[row]); });
}

RuntimeFilterSpec PartitionFilterSpec(int filter_id, size_t condition) {
  RuntimeFilterSpec spec;
  spec.filter_id = filter_id;
  spec.keys = {condition};
  spec.always = true;
  spec.partitions_only = true;
  spec.limits.max_keys = UINT64_MAX;
  spec.limits.max_exact_keys = uint64_t{1} << 20;  // Add keeps listing up to there
  return spec;
}

RuntimeFilterLimits RuntimeFilterSpec::BuildLimits() const {
  RuntimeFilterLimits build = limits;
  if (partition_filter_id != 0) {
    // As PartitionFilterSpec's: never disabled for its size (past limits.max_keys the join
    // keeps it for partitions only), partition values told exactly up to 2^20 keys.
    const RuntimeFilterLimits partitions = PartitionFilterSpec(partition_filter_id, 0).limits;
    build.max_keys = partitions.max_keys;
    build.max_value_keys = partitions.max_exact_keys;
  }
  return build;
}

void AddPartitionFilterSpecs(std::vector<RuntimeFilterSpec>& specs,
                             const std::vector<std::pair<int, size_t>>& partition_filters) {
  for (const auto& [id, condition] : partition_filters) {
    // The runtime filter holds the build keys themselves (a partition value is mapped into
    // the key space by the scan), so one of that condition alone serves partitions too.
    const std::vector<size_t> keys{condition};  // a lambda may not capture a structured binding
    auto shared = std::find_if(specs.begin(), specs.end(), [&](const RuntimeFilterSpec& spec) {
      return !spec.partitions_only && spec.partition_filter_id == 0 && !spec.inverse &&
             spec.keys == keys;
    });
    if (shared != specs.end()) {
      shared->partition_filter_id = id;
    } else {
      specs.push_back(PartitionFilterSpec(id, condition));
    }
  }
}

std::unique_ptr<RuntimeFilter> RuntimeFilter::OfBounds(LogicalType type, std::optional<Value> min,
                                                       std::optional<Value> max,
                                                       uint64_t build_rows, double build_ms) {
  auto filter = std::make_unique<RuntimeFilter>(std::vector<LogicalType>{type});
  filter->bounds_only_ = true;
  filter->build_rows_ = build_rows;
  filter->build_ms_ = build_ms;
  if (min && max) {
    filter->mins_[0] = std::move(min);
    filter->maxs_[0] = std::move(max);
    filter->kinds_ = kRuntimeFilterRange;
  }
  filter->unusable_reason_.clear();
  filter->disabled_reason_.clear();
  filter->rows_skipped_reason_ = "a filter of bounds";
  return filter;
}

std::unique_ptr<RuntimeFilter> RuntimeFilter::OfRange(LogicalType type, std::optional<Value> min,
                                                      std::optional<Value> max,
                                                      std::vector<KeyInterval> ranges,
                                                      uint64_t files, double build_ms) {
  const bool integers =
      type.physical() == PhysicalType::kInt32 || type.physical() == PhysicalType::kInt64;
  auto filter = OfBounds(type, std::move(min), std::move(max), files, build_ms);
  // Tested against statistics as any filter's range (RangeMayMatch), not only partition values.
  filter->bounds_only_ = false;
  // Not a count of keys: non-zero when there is a range, so empty() means no key at all.
  if (filter->mins_[0]) filter->distinct_ = 1;
  if (filter->mins_[0] && integers && ranges.size() > 1) filter->ranges_ = std::move(ranges);
  filter->rows_skipped_reason_ = "a range of file statistics";
  return filter;
}

bool RuntimeFilter::ValueMayMatch(const Value& value) const {
  if (value.is_null()) return false;  // NULL equals no key
  if (!prunes_partitions() || key_types_.size() != 1 || value.type() != key_types_[0]) return true;
  if (bounds_only_) {
    return mins_[0] && value.Compare(*mins_[0]) >= 0 && value.Compare(*maxs_[0]) <= 0;
  }
  if (distinct_ == 0) return false;
  if (form_ == RuntimeFilterProbeForm::kNone) return RangeMayMatch(0, value, value);
  // Scans test every partition value: integers and strings without a vector or allocation.
  switch (key_types_[0].physical()) {
    case PhysicalType::kInt32:  // as WriteValue stores it
      return IntegerMayMatch(static_cast<int32_t>(value.GetInt64()));
    case PhysicalType::kInt64:
      return IntegerMayMatch(value.GetInt64());
    case PhysicalType::kString:
      return StringMayMatch(value.GetString());
    default:
      break;
  }
  Vector key(key_types_[0], 1);
  WriteValue(key, 0, value);
  uint32_t out = 0;
  std::vector<uint64_t> hashes;
  return Probe({&key}, 1, nullptr, &out, hashes) == 1;
}

bool RuntimeFilter::IntegerMayMatch(int64_t key) const {
  if (values_listed_) return value_ints_.contains(key);
  switch (form_) {
    case RuntimeFilterProbeForm::kBitmap:
      return BitmapHas(bitmap_.data(), static_cast<uint64_t>(bitmap_base_), bitmap_span_, key);
    case RuntimeFilterProbeForm::kLinear:
      return LinearHas(linear_.data(), key);
    case RuntimeFilterProbeForm::kIntTable:
      return TableHas(table_.data(), table_.size() - 1, table_shift_, table_empty_, key);
    default:  // kBloom
      return bloom_->MightContainHash(HashInteger(key));
  }
}

bool RuntimeFilter::StringMayMatch(std::string_view key) const {
  const absl::string_view view(key.data(), key.size());
  if (values_listed_) return value_strings_.contains(view);
  if (form_ == RuntimeFilterProbeForm::kStringSet) return string_set_.contains(view);
  return bloom_->MightContainHash(HashString(key));
}

bool RuntimeFilter::RangeMayMatch(size_t column, const Value& lo, const Value& hi) const {
  if (distinct_ == 0) return false;
  if (!(kinds_ & kRuntimeFilterRange) || lo.is_null() || hi.is_null()) return true;
  if (!mins_[column] || !maxs_[column]) return true;
  if (lo.type() != key_types_[column] || hi.type() != key_types_[column]) return true;
  if (maxs_[column]->Compare(lo) < 0 || mins_[column]->Compare(hi) > 0) return false;
  if (!ranges_.empty()) return RangesOverlap(lo.GetInt64(), hi.GetInt64());
  // A key of several columns: the column's own keys, when listed.
  if (key_types_.size() > 1) {
    const RuntimeFilter* keys = column_filter(column);
    return !keys || keys->RangeMayMatch(0, lo, hi);
  }
  const bool bitmap = form_ == RuntimeFilterProbeForm::kBitmap;
  if ((kinds_ & kRuntimeFilterExactSet) || bitmap) {
    // A small set, or a bitmap of the keys: some key must lie inside the bounds.
    if (IntegerKeys()) {
      // Bounds in the keys' physical form (as WriteValue stores them), without a vector: a
      // scan checks every split's bounds.
      const bool int32 = key_types_[0].physical() == PhysicalType::kInt32;
      const int64_t lo_i = int32 ? static_cast<int32_t>(lo.GetInt64()) : lo.GetInt64();
      const int64_t hi_i = int32 ? static_cast<int32_t>(hi.GetInt64()) : hi.GetInt64();
      if (bitmap) return BitmapAnyWithin(lo_i, hi_i);
      for (int64_t key : int_set_) {
        if (key >= lo_i && key <= hi_i) return true;
      }
      return false;
    }
    const std::string lo_s = lo.GetString(), hi_s = hi.GetString();
    for (const auto& key : string_set_) {
      if (key >= lo_s && key <= hi_s) return true;
    }
    return false;
  }
  return true;
}

bool RuntimeFilter::RangesOverlap(int64_t lo, int64_t hi) const {
  // The first range ending at or after lo: [lo, hi] meets a range only if it meets that one.
  const auto at =
      std::lower_bound(ranges_.begin(), ranges_.end(), lo,
                       [](const KeyInterval& range, int64_t v) { return range.max < v; });
  return at != ranges_.end() && at->min <= hi;
}

bool RuntimeFilter::BitmapAnyWithin(int64_t lo, int64_t hi) const {
  const int64_t last = bitmap_base_ + static_cast<int64_t>(bitmap_span_) - 1;
  lo = std::max(lo, bitmap_base_);
  hi = std::min(hi, last);
  if (lo > hi) return false;
  const uint64_t from = static_cast<uint64_t>(lo - bitmap_base_);
  const uint64_t to = static_cast<uint64_t>(hi - bitmap_base_);  // inclusive
  // Word by word, the first and last masked to the bounds.
  for (uint64_t word = from >> 6; word <= to >> 6; word++) {
    uint64_t bits = bitmap_[word];
    if (word == from >> 6) bits &= ~uint64_t{0} << (from & 63);
    if (word == to >> 6 && (to & 63) != 63) bits &= (uint64_t{1} << ((to & 63) + 1)) - 1;
    if (bits) return true;
  }
  return false;
}

bool RuntimeFilter::ParquetBloomMayMatch(const parquet::SplitBlockBloomFilter& bloom,
                                         PhysicalType stored) const {
  using parquet::SplitBlockBloomFilter;
  if (!probes_parquet_bloom()) return true;
  // The chunk stores the key's own physical type, or it cannot tell.
  const PhysicalType key = key_types_[0].physical();
  if (key != stored || (stored != PhysicalType::kInt32 && stored != PhysicalType::kInt64 &&
                        stored != PhysicalType::kString))
    return true;
  // Listed keys no longer change once the filter is published (probes_parquet_bloom).
  std::call_once(parquet_hashes_once_, [&] {
    if (stored == PhysicalType::kString) {
      parquet_hashes_.reserve(string_set_.size());
      for (const auto& k : string_set_)
        parquet_hashes_.push_back(SplitBlockBloomFilter::HashBytes(k.data(), k.size()));
      return;
    }
    parquet_hashes_.reserve(int_set_.size());
    for (int64_t k : int_set_) {
      parquet_hashes_.push_back(stored == PhysicalType::kInt32
                                    ? SplitBlockBloomFilter::HashInt32(static_cast<int32_t>(k))
                                    : SplitBlockBloomFilter::HashInt64(k));
    }
  });
  for (uint64_t hash : parquet_hashes_) {
    if (bloom.MightContainHash(hash)) return true;
  }
  return false;
}

}  // namespace shears
