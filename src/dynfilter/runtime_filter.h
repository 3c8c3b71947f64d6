#pragma once
// Runtime join filters: what a hash join's build side produced, summarized so the probe
// side's scan can drop rows (and skip row groups) that cannot join, before they reach the join.
//
//   planning rule   optimizer/runtime_filter.cpp (which join produces, which scan consumes)
//   build           execution/operator/physical_hash_join.cpp Finalize (from the hash table)
//   registry        dynfilter/dynamic_filter.h (shared with dynamic partition pruning)
//   legality        join_legality.h
//   probe           storage/split_pruning.cpp (row groups, pages), dynfilter/runtime_filter_probe
//                   (rows, adaptively)
//
// The kind is chosen when the build side has finished, from what it really produced:
//   exact set   small builds of integer-like or string keys: no false positives
//   bloom       otherwise: a split-block bloom filter (Parquet's layout: one 256-bit block per
//               key, one cache line per probe) over the join's own key hash
//   range       min/max of each key column, kept next to either, for statistics pruning
//   per column  a key of several columns also lists each column's own keys (an exact set, or a
//               bitmap of integer keys) while they stay few: a file, row group or page none of
//               whose values of one key column is among that column's keys holds no row that
//               can join (column_filter), tested against min/max, bloom filters and dictionaries
// A filter never drops a row whose key the join could match; NULL keys never match.
//
// The row probe form is chosen in Finish too (RuntimeFilterProbeForm), so probing a batch is
// one tight loop without hashing through a generic set: integer keys spanning a small dense
// range test a bitmap (also in place of a bloom filter: it is exact), a few integer keys a
// linear scan, more an open-addressing table with a multiplicative hash.

#include <absl/container/flat_hash_set.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bloom_filter.h"
#include "common/value.h"
#include "common/vector.h"

namespace shears {

enum RuntimeFilterKind : uint8_t {
  kRuntimeFilterRange = 1,
  kRuntimeFilterExactSet = 2,
  kRuntimeFilterBloom = 4,
  // A bitmap of integer keys set directly from the join's hash table (ExpectKeys): exact, and
  // no bloom filter is built beside it.
  kRuntimeFilterBitmap = 8,
};
/// "exact_set+range", "bloom+range", "bitmap+range", "empty", "none".
std::string RuntimeFilterKindName(uint8_t kinds);

/// How rows are tested (the kind says what the filter summarizes; this, how it is probed).
enum class RuntimeFilterProbeForm : uint8_t {
  kNone,       // not built, disabled or empty
  kBitmap,     // integer keys, one bit per value of [min, max]
  kLinear,     // a few integer keys, compared one by one
  kIntTable,   // integer keys: open addressing, multiplicative hash
  kStringSet,  // string keys
  kBloom,      // the bloom filter over the join's key hash
};
const char* RuntimeFilterProbeFormName(RuntimeFilterProbeForm form);

/// Integer keys whose max - min is below this many bits are probed with a bitmap (512 KiB at
/// most: about the join's own direct array for such keys).
inline constexpr uint64_t kRuntimeFilterMaxBitmapBits = uint64_t{1} << 22;
/// A bitmap of at most this many keys past max_exact_keys keeps them listed, to probe Parquet
/// bloom filters with (one hash each per row group).
inline constexpr size_t kRuntimeFilterMaxBloomProbeKeys = 4096;
/// At most this many integer keys outside a bitmap's range: compared one by one.
inline constexpr size_t kRuntimeFilterMaxLinearKeys = 8;

/// One closed interval of integer keys (a filter of several ranges, RuntimeFilter::OfRange).
struct KeyInterval {
  int64_t min = 0, max = 0;
  bool operator==(const KeyInterval&) const = default;
};

/// Limits the build uses to choose the kind.
struct RuntimeFilterLimits {
  /// More distinct keys than this: the filter is not applied (the build was larger than
  /// planned).
  uint64_t max_keys = 4'000'000;
  /// At most this many distinct keys: an exact set (when the key type allows one).
  uint64_t max_exact_keys = 1024;
  /// Target false-positive probability of the bloom filter (sized for the distinct keys).
  double bloom_fpp = 0.01;
  /// Probe forms of integer keys (RuntimeFilterProbeForm): a bitmap when max - min is below
  /// this many bits, else a linear scan of at most max_linear_keys keys.
  uint64_t max_bitmap_bits = kRuntimeFilterMaxBitmapBits;
  size_t max_linear_keys = kRuntimeFilterMaxLinearKeys;
  /// Past max_exact_keys, the keys of a single-column filter whose probe form is not exact
  /// stay listed up to this many, for ValueMayMatch alone (a partition use: exact, so an anti
  /// join's skip mode can rely on it); statistics and rows use the form max_exact_keys chose.
  uint64_t max_value_keys = 0;
};

/// When the join key is computed from the scan column by an invertible integer computation
/// (CASTs between INTEGER and BIGINT, + or - a constant: `CAST(k AS BIGINT)`, `k + 1`), each
/// build key is mapped back to the one column value that computes to it, so the filter holds
/// column values and tests row groups, pages and rows on the column itself. A key no column
/// value computes to (out of the column type's range) is left out.
struct RuntimeFilterKeyInverse {
  struct Step {
    int64_t add = 0;          // key += add (fails on overflow)
    bool fits_int32 = false;  // then: fails unless the result fits INTEGER
  };
  std::vector<Step> steps;  // in order, from the key to the column value
  LogicalType column_type;  // INTEGER or BIGINT
  std::string description;  // the computation, for EXPLAIN ("(ss_item_sk + 1)")
  /// The key is the integer's text (`CAST(k AS VARCHAR)`, outermost): a key reads back to the
  /// one integer whose canonical text it is ("-12"; not "+12", "012", " 12").
  bool from_text = false;

  /// Maps `value` in place; false when no column value computes to it.
  bool Apply(int64_t& value) const;
  /// The integer whose text is `text` (then Apply), or false.
  bool ApplyText(std::string_view text, int64_t& value) const;
};

/// A filter holding the union of the build keys of several joins (the OR of the filters of
/// every reference to a materialized CTE, for the CTE's own scans, which serve them all): each
/// join contributes its keys to it (DynamicFilterRegistry::ContributeToUnion); the last one
/// finishes and publishes it.
struct RuntimeFilterUnion {
  int filter_id = 0;
  size_t contributors = 0;  // distinct (join, key) producers united
  double probe_rows = -1;   // the scan it filters (as RuntimeFilterSpec::probe_rows)
};

/// A runtime filter the join builds from its hash table once the build side finished.
struct RuntimeFilterSpec {
  int filter_id = 0;
  std::vector<size_t> keys;  // indexes into the join's conditions: the filter's combined key
  /// One key computed from the scan column (see RuntimeFilterKeyInverse): the filter holds the
  /// column values the build keys map back to.
  std::optional<RuntimeFilterKeyInverse> inverse;
  RuntimeFilterLimits limits;
  /// `auto` mode: the filter is not applied when what the build produced makes it useless
  /// (estimated filter ratio below min_filter_ratio against probe_rows). `always`: applied.
  bool always = false;
  double probe_rows = -1;  // the target scan's estimate
  /// Distinct keys the probe column may hold (its NDV, or the rows of the dimension the build
  /// key is a column of), -1 when unknown: a build side with most of them drops few rows.
  double key_domain = -1;
  double min_filter_ratio = 0;
  /// Every scan filtered feeds the join's probe through filters and projections only: a row
  /// dropped at the scan saves the join's probe and nothing more. Through another join (the
  /// scan on its build side, feeding a dynamic partition filter, or on its probe side) it saves
  /// that join's work too.
  bool probe_is_direct = false;
  /// A dynamic partition filter's (DynamicPartitionFilter): scans test partition values with
  /// it, not rows. Always built (`always`), never disabled for its size, and kept exact up to
  /// 2^20 keys, so an anti join's skip mode can rely on it.
  bool partitions_only = false;
  /// A runtime filter that is also the dynamic partition filter `partition_filter_id` (0:
  /// none) on the same key: one object, built once and published under both ids. Its
  /// partition use is kept as partitions_only's (always built, exact up to 2^20 keys) even
  /// when `auto` keeps it from files, row groups, pages and rows (KeepForPartitionsOnly).
  int partition_filter_id = 0;
  /// Unions this filter's keys (one key, held as column values) go into, before it finishes.
  std::vector<RuntimeFilterUnion> unions;

  /// What the join builds with: `limits`, widened for the partition use when there is one.
  RuntimeFilterLimits BuildLimits() const;
};

/// The spec of the dynamic partition filter `filter_id` a join builds on its condition
/// `condition`.
RuntimeFilterSpec PartitionFilterSpec(int filter_id, size_t condition);
/// Folds each partition filter of `partition_filters` ((filter id, condition)) into the
/// runtime filter of `specs` on that condition alone, held as column values (no inverse), and
/// adds a PartitionFilterSpec for each other one.
void AddPartitionFilterSpecs(std::vector<RuntimeFilterSpec>& specs,
                             const std::vector<std::pair<int, size_t>>& partition_filters);

/// Counters of one filter, summed over every scan thread that applies it.
struct RuntimeFilterCounters {
  std::atomic<uint64_t> rows_tested{0};
  std::atomic<uint64_t> rows_dropped{0};
  std::atomic<uint64_t> rows_passed_paused{0};  // not tested: the filter was paused
  std::atomic<uint64_t> files_skipped{0};       // by whole-file statistics, the file never opened
  std::atomic<uint64_t> row_groups_skipped{0};
  std::atomic<uint64_t> row_groups_skipped_bloom{0};       // of those, by a Parquet bloom filter
  std::atomic<uint64_t> row_groups_skipped_dictionary{0};  // of those, by a chunk's dictionary
  std::atomic<uint64_t> pages_skipped{0};  // pages of the projected columns, by the page index
  std::atomic<uint64_t> pauses{0};
  std::atomic<uint64_t> rechecks{0};  // samples tested while paused
  std::atomic<uint64_t> resumes{0};   // of those, the ones that dropped enough: tested again
  // Statistics checks (files, row groups, pages) paused at a level that pruned nothing,
  // checks skipped while paused, and pauses ended by a sample that pruned.
  std::atomic<uint64_t> pruning_pauses{0};
  std::atomic<uint64_t> pruning_checks_skipped{0};
  std::atomic<uint64_t> pruning_resumes{0};
  /// The same by level (storage/split_pruning's: files by statistics known unopened, row
  /// groups by bloom filters and dictionaries, pages by the page index), so EXPLAIN ANALYZE
  /// tells which level checked, pruned or paused: checks made, of those the ones that pruned,
  /// checks not made while the level was paused, and its pauses.
  struct LevelCounters {
    std::atomic<uint64_t> checks{0};
    std::atomic<uint64_t> pruned{0};
    std::atomic<uint64_t> skipped{0};
    std::atomic<uint64_t> pauses{0};
  };
  LevelCounters file_checks, row_group_checks, page_checks;
  std::atomic<uint64_t> dense_pauses{0};  // pauses because dictionaries held many keys
  std::atomic<uint64_t> probe_nanos{0};
};

class RuntimeFilter {
 public:
  /// A filter on the combined key of `key_types` (one column per join condition it covers).
  /// `keys_only`: a column filter of a combined key's (column_filter): it lists its keys (an
  /// exact set or bitmap) or is disabled; no hashes, no bloom filter.
  explicit RuntimeFilter(std::vector<LogicalType> key_types, bool keys_only = false);

  // ---- build (one thread; partials built elsewhere combine with Merge) ----

  /// Optional, before the first Add, for one integer key column whose build side is known:
  /// `distinct_keys` distinct keys, all within [low, high] (a join's hash table counted them).
  /// When the filter will end as a bitmap whose keys are not listed (more keys than any
  /// listing keeps, a span within limits.max_bitmap_bits), Add sets the bitmap's bits instead
  /// of listing each key in a hash set (the set's inserts and growth were most of a 165,000-key
  /// build: TPC-DS q13's customer_demographics), and neither hashes the keys nor builds the
  /// bloom filter, which such a bitmap never consults: the kind is then "bitmap" (and range).
  /// Otherwise the set is sized for them.
  void ExpectKeys(uint64_t distinct_keys, int64_t low, int64_t high,
                  const RuntimeFilterLimits& limits);
  /// Adds `count` build keys (rows 0..count of each vector; rows with a NULL key must not be
  /// passed: they never match).
  void Add(const std::vector<const Vector*>& keys, idx_t count);
  /// Unites `other` (same key types) into this one: sets united, ranges widened, bloom bits
  /// OR-ed (or rebuilt from the hashes both kept).
  void Merge(RuntimeFilter&& other);
  /// Chooses the kind from what was added; afterwards the filter is read-only and may be
  /// probed from any thread. `distinct_keys`: the exact distinct count when the caller knows
  /// it (a join's hash table does), else 0 (counted here). Past limits.max_keys distinct keys
  /// the filter is disabled (disabled_reason() says why).
  void Finish(const RuntimeFilterLimits& limits, uint64_t build_rows, double build_ms,
              uint64_t distinct_keys = 0);
  /// No use at all: the filter does not hold the build keys (not built, or a merge failed).
  void Disable(std::string reason) {
    unusable_reason_ = reason;
    disabled_reason_ = std::move(reason);
  }
  /// Keeps the filter for partition values (prunes_partitions) but not for files, row groups,
  /// pages and rows (`auto` mode: it would drop too few rows, or has more keys than a runtime
  /// filter may). `enabled()` is then false and disabled_reason() says why.
  void KeepForPartitionsOnly(std::string reason) { disabled_reason_ = std::move(reason); }
  /// The build state before Finish as bytes, and its merge (as Merge): for partial filters
  /// built in other processes, a shuffle join's build side on each rank (src/distributed).
  /// In runtime_filter_encoding.cpp; MergeEncoded throws InternalError on bytes not so made.
  std::string EncodeBuild() const;
  void MergeEncoded(std::string_view bytes);
  // Partial filters of disjoint key shares united without sending their key hashes (also in
  // runtime_filter_encoding.cpp): the processes agree on the union's distinct count (the sum
  // of CountDistinctHashes or of their tables'), each builds BloomBits for it, the blocks are
  // OR-ed (MPI_BOR) into the union's bloom filter, bit for bit the one Finish builds from all
  // keys, and ReplaceHashes installs it before the sets and ranges are encoded and merged.
  /// The exact set's keys so far, or nullopt when this build keeps none.
  std::optional<uint64_t> exact_set_keys() const;
  /// Distinct hashes of the keys added so far (sorts and deduplicates them in place).
  uint64_t CountDistinctHashes();
  /// The bits of the bloom filter Finish builds for `distinct_keys`, from the keys added here.
  std::string BloomBits(uint64_t distinct_keys, double fpp) const;
  /// Drops the key hashes, and the exact set unless `keep_exact_set`. Finish then uses
  /// `bloom_bits` (BloomBits' size, OR-ed across processes) when it chooses a bloom filter;
  /// empty: the union is known to be an exact set. Finish needs the distinct count given.
  void ReplaceHashes(std::string bloom_bits, bool keep_exact_set);
  /// The bloom filter's bits after Finish, empty without one.
  std::string_view bloom_bits() const {
    return bloom_ ? std::string_view(bloom_->bytes()) : std::string_view();
  }
  /// A filter of bounds alone: the smallest and largest non-NULL value a nested loop join's
  /// build side produced, for partition filters `key >= build` (DynamicFilterMode kAtLeast and
  /// the like); `min` unset when it produced none. Rows are never tested with it.
  static std::unique_ptr<RuntimeFilter> OfBounds(LogicalType type, std::optional<Value> min,
                                                 std::optional<Value> max, uint64_t build_rows,
                                                 double build_ms);
  /// A filter of ranges known from statistics (a statistics transfer: the key's range over
  /// the files another scan keeps): files, row groups and pages whose bounds miss [min, max],
  /// or each of `ranges` (sorted disjoint intervals within [min, max], for an integer key;
  /// fewer than two: [min, max] alone), are skipped, and so are partition values
  /// (ValueMayMatch); unset bounds mean no key at all (empty(): nothing joins). `files`: the
  /// files it covers (build_rows()). Rows are never tested with it (the join tests them).
  static std::unique_ptr<RuntimeFilter> OfRange(LogicalType type, std::optional<Value> min,
                                                std::optional<Value> max,
                                                std::vector<KeyInterval> ranges, uint64_t files,
                                                double build_ms);
  /// OfRange's ranges when there are several (else empty: [min, max] is the one range).
  const std::vector<KeyInterval>& ranges() const { return ranges_; }
  /// Keeps the filter for partitions, row groups and pages but stops the scan testing rows
  /// (`auto` mode, when the join's own probe is as cheap as the filter's).
  void SkipRows(std::string reason) { rows_skipped_reason_ = std::move(reason); }

  // ---- probe ----

  /// Whether scans test files, row groups and pages with it (and rows, applies_to_rows).
  bool enabled() const { return disabled_reason_.empty(); }
  /// Whether scans may test partition values with it (ValueMayMatch): it holds the build
  /// keys, whether or not `enabled()` for the scan's data.
  bool prunes_partitions() const { return unusable_reason_.empty(); }
  /// Whether rows are tested with it (partitions, row groups and pages are pruned whenever
  /// it is enabled).
  bool applies_to_rows() const { return enabled() && rows_skipped_reason_.empty(); }
  const std::string& rows_skipped_reason() const { return rows_skipped_reason_; }
  RuntimeFilterProbeForm probe_form() const { return form_; }
  /// Whether Probe lets through only the build keys (no false positives): an exact set, or a
  /// bitmap of integer keys past max_exact_keys. Then a dictionary none of whose entries pass
  /// rules its row group out, which a bloom filter's false positives seldom allow.
  bool probe_is_exact() const {
    return (kinds_ & kRuntimeFilterExactSet) || form_ == RuntimeFilterProbeForm::kBitmap;
  }
  /// Whether ValueMayMatch tells every value exactly (no false positives): probe_is_exact, or
  /// the keys listed for it (limits.max_value_keys).
  bool values_exact() const { return probe_is_exact() || values_listed_; }
  /// The exact keys of key column `column` alone, as a single-column filter (probe_is_exact),
  /// or null: this filter itself for a single-column exact one; for a key of several columns,
  /// that column's own keys when they stayed few enough to list (a bitmap of integers, or
  /// max_exact_keys). A split none of whose values of the column is one of them cannot join.
  const RuntimeFilter* column_filter(size_t column) const;
  const std::string& disabled_reason() const { return disabled_reason_; }
  uint8_t kinds() const { return kinds_; }
  /// True when the build side produced no key at all: nothing can join.
  bool empty() const { return distinct_ == 0; }
  uint64_t distinct_keys() const { return distinct_; }
  uint64_t build_rows() const { return build_rows_; }
  double build_ms() const { return build_ms_; }
  size_t bytes() const;
  const std::vector<LogicalType>& key_types() const { return key_types_; }
  /// The smallest and largest value of key column `column`, when it has a range.
  const std::optional<Value>& min(size_t column = 0) const { return mins_[column]; }
  const std::optional<Value>& max(size_t column = 0) const { return maxs_[column]; }

  /// Of the rows sel[0..count) (sel null: rows 0..count), writes to out_sel those whose key
  /// may join and returns how many. Rows with a NULL key are dropped. `hashes` is scratch.
  idx_t Probe(const std::vector<const Vector*>& keys, idx_t count, const uint32_t* sel,
              uint32_t* out_sel, std::vector<uint64_t>& hashes) const;
  /// Whether `value` (one key column, of the key type) may be a build key: exactly when
  /// values_exact, with a bloom filter's rare false positives otherwise, by the range alone
  /// for a filter of bounds. A NULL never is; a filter that does not prune partitions or a
  /// value of another type cannot tell (true). A partition value is tested so: integers and
  /// strings without allocating.
  bool ValueMayMatch(const Value& value) const;
  /// Whether this is a filter of bounds alone (OfBounds).
  bool bounds_only() const { return bounds_only_; }
  /// False when no value of key column `column` lies within [min, max] (values of its type),
  /// so a row group or page with these bounds holds no row that can join. Each column of a
  /// multi-column key has its own range; a single-column exact set is checked key by key, a
  /// bitmap of integer keys bit by bit.
  bool RangeMayMatch(size_t column, const Value& min, const Value& max) const;

  /// Whether ParquetBloomMayMatch can tell: the keys are listed (an exact set, or a bitmap of
  /// at most kRuntimeFilterMaxBloomProbeKeys keys).
  bool probes_parquet_bloom() const {
    return (kinds_ & kRuntimeFilterExactSet) ||
           (form_ == RuntimeFilterProbeForm::kBitmap && !int_set_.empty());
  }
  /// For a single-column exact set or listed bitmap: false when `bloom`, the Parquet bloom filter
  /// of a column chunk storing the key as plain INT32 / INT64 / BYTE_ARRAY (`stored`: kInt32,
  /// kInt64, kString; no conversion), contains none of the keys. True when that cannot be told.
  /// (Our PhysicalType, not Parquet's thrift type: runtime filters sit below storage.)
  bool ParquetBloomMayMatch(const parquet::SplitBlockBloomFilter& bloom, PhysicalType stored) const;

  RuntimeFilterCounters& counters() const { return counters_; }

 private:
  bool IntegerKeys() const;
  /// Integer keys whose range (so far) fits a bitmap.
  bool NarrowIntegers() const;
  static constexpr size_t kKeysOnlyGiveUp = 65536;
  /// The bitmap ExpectKeys started, listed into int_set_ instead (a key outside the expected
  /// bounds, or a partial built the other way), with the hashes of the keys listed (the direct
  /// bitmap kept none): the build goes on as without ExpectKeys.
  void ListBitmapKeys();
  /// Stops listing keys past the bounds Add keeps (also after Merge, so partial filters united
  /// list what one filter of all their keys lists).
  void CapListing();
  /// Whether a key of the bitmap lies in [lo, hi].
  bool BitmapAnyWithin(int64_t lo, int64_t hi) const;
  static int64_t IntegerAt(const Vector& v, idx_t row);
  /// ValueMayMatch of one integer or string key (by the probe form, without a vector).
  bool IntegerMayMatch(int64_t key) const;
  bool StringMayMatch(std::string_view key) const;

  void ChooseProbeForm(const RuntimeFilterLimits& limits);
  template <class T>
  idx_t ProbeIntegers(const std::vector<const Vector*>& keys, idx_t count, const uint32_t* sel,
                      uint32_t* out_sel) const;

  std::vector<LogicalType> key_types_;
  // Why no consumer may use it (it does not hold the build keys), and why the scan's data
  // (files, row groups, pages, rows) does not: the first implies the second.
  std::string unusable_reason_ = "not built yet";
  std::string disabled_reason_ = "not built yet";
  std::string rows_skipped_reason_;
  RuntimeFilterProbeForm form_ = RuntimeFilterProbeForm::kNone;
  // Probe forms for integer keys (see ChooseProbeForm).
  std::vector<uint64_t> bitmap_;  // bit i: value bitmap_base_ + i; one spare zero bit at the end
  int64_t bitmap_base_ = 0;
  uint64_t bitmap_span_ = 0;     // values covered; offsets past it test the spare bit
  std::vector<int64_t> linear_;  // kLinear: the keys, padded to kRuntimeFilterMaxLinearKeys
  std::vector<int64_t> table_;   // kIntTable: power-of-two slots, table_empty_ marks a free one
  int64_t table_empty_ = 0;
  int table_shift_ = 64;
  uint8_t kinds_ = 0;
  // Build state: the hashes of every key added (for the bloom filter, sized when the distinct
  // count is known), and the exact set while it stays small.
  std::vector<uint64_t> hashes_;
  bool exact_possible_ = true;
  bool hashes_replaced_ = false;  // ReplaceHashes: bloom_, if any, is the union's
  absl::flat_hash_set<int64_t> int_set_;
  // ExpectKeys chose to build bitmap_ (bitmap_base_, bitmap_span_) in Add instead of int_set_.
  bool bitmap_direct_ = false;
  int64_t int_lo_ = INT64_MAX, int_hi_ = INT64_MIN;  // of the integer keys added
  absl::flat_hash_set<std::string> string_set_;
  // The listed keys hashed as Parquet bloom filters hash them (XXH64 of the key's physical
  // type), once for every chunk's bloom filter a scan probes (ParquetBloomMayMatch): hashing
  // the 1,393 keys of a filter again for each of 1,827 chunks cost more than the probes.
  mutable std::once_flag parquet_hashes_once_;
  mutable std::vector<uint64_t> parquet_hashes_;
  // The keys listed for ValueMayMatch alone (limits.max_value_keys) when the probe form is a
  // bloom filter: exact partition values, without the statistics checks walking them.
  bool values_listed_ = false;
  absl::flat_hash_set<int64_t> value_ints_;
  absl::flat_hash_set<std::string> value_strings_;
  std::vector<std::optional<Value>> mins_, maxs_;  // per key column
  // OfRange's disjoint ranges of the one key column, sorted (binary searched): at least two,
  // within [mins_[0], maxs_[0]]; empty when that is the one range.
  std::vector<KeyInterval> ranges_;
  bool RangesOverlap(int64_t lo, int64_t hi) const;
  std::optional<parquet::SplitBlockBloomFilter> bloom_;
  // A key of several columns: each column's own keys (keys_only filters), or null where the
  // column's type lists none.
  bool keys_only_ = false;
  bool bounds_only_ = false;
  std::vector<std::unique_ptr<RuntimeFilter>> column_filters_;
  void FinishKeysOnly(const RuntimeFilterLimits& limits);
  uint64_t distinct_ = 0;
  uint64_t build_rows_ = 0;
  double build_ms_ = 0;
  mutable RuntimeFilterCounters counters_;
};

/// For EXPLAIN, of a key of several columns: each column's own keys as statistics checks use
/// them (", column keys: 2 exact_set, 300 bitmap, not listed"); empty for one column.
std::string ColumnKeysText(const RuntimeFilter& filter);
/// For EXPLAIN: "rows probed by <form>" or "rows not tested: <why>".
std::string RowsText(const RuntimeFilter& filter);
/// For EXPLAIN ANALYZE: the statistics checks by level, what each pruned and why one was not
/// made ("by level: files 1827 checked, 0 skipped, ...; row groups by bloom filters and
/// dictionaries ...; pages ...").
std::string PruningLevelsText(const RuntimeFilterCounters& counters);

}  // namespace shears
