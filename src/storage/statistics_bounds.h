#pragma once
// Statistics bounds: the ranges of one key column over the files another scan keeps, from those
// files' statistics alone (the catalog's per-file bounds, or each footer; no row read). The
// statistics transfer (optimizer/statistics_transfer.cpp) bounds one fact's scan by them: a row
// of that fact whose key lies outside every range cannot join a row of the other fact's scan.
//
// The ranges are always a correct filter: every file the other scan may read is covered (its
// partitions are pruned only by its static filters and the dynamic filters published by
// then), and a file whose bounds are unknown makes them unknown (nothing is published).
// Whether it is worth computing (the key follows the partitioning, so the kept files cover a
// narrow range) is judged apart, from a sample (KeySpreadPerFile), and only decides the time
// spent.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/value.h"
#include "dynfilter/dynamic_filter.h"
#include "storage/dataset.h"

namespace shears {

class ScanFilterSpec;

/// The scan whose kept files a statistics bound covers (the probe fact's): set by the physical
/// planner when it plans the scan, shared with the scans it bounds.
struct StatisticsBoundsSource {
  std::shared_ptr<const Dataset> dataset;
  const ScanFilterSpec* filters = nullptr;  // owned by the scan, which outlives the query
  std::vector<int> column_ids;              // the scan's output columns (dataset column ids)
  /// Physical scans planned from the one logical scan: a bound is published only for one
  /// (two copies of the scan would each keep their own files).
  int scans = 0;
};

/// A statistics bound a scan publishes itself when it starts (before its splits): runtime
/// filter `filter_id` on its column, the range of `source_column` (a dataset file column of
/// source->dataset) over the files `source`'s scan keeps.
struct StatisticsBoundsTarget {
  int filter_id = 0;
  std::shared_ptr<StatisticsBoundsSource> source;
  int source_column = -1;
  std::string source_name;  // "store_sales.ss_ticket_number", for EXPLAIN
};

/// At most this many ranges per statistics bound (a bound of many far-apart kept files, the
/// Novembers of five years, keeps one range per run of them; past this the closest are joined).
inline constexpr size_t kMaxStatisticsRanges = 64;

/// The union of `intervals` as sorted disjoint intervals, overlapping or adjacent ones joined
/// (integer keys: [1, 4] and [5, 9] are [1, 9]); while more than `max_ranges` (at least 1)
/// remain, the two separated by the smallest gap are joined (the leftmost first among equal
/// gaps, so every process gets the same list). Each result covers every value of the input.
std::vector<KeyInterval> MergeKeyIntervals(std::vector<KeyInterval> intervals, size_t max_ranges);

/// The range of a key column over a set of files.
struct KeyRange {
  /// Both unset: no file covered holds a non-NULL key (nothing can join).
  std::optional<Value> min, max;
  /// The files' intervals merged (MergeKeyIntervals, kMaxStatisticsRanges), within [min, max]:
  /// a key outside all of them is in no file covered. Empty when min and max are unset.
  std::vector<KeyInterval> ranges;
  size_t files = 0;  // files covered
  /// Non-empty: no range is known (why: a file's bounds unknown, its statistics unreadable).
  std::string unknown;
};

/// The partitions `source`'s scan keeps by its literal conjuncts and the dynamic partition
/// filters published in `registry` so far (one flag per partition of source.dataset).
std::vector<uint8_t> KeptPartitions(const StatisticsBoundsSource& source,
                                    DynamicFilterRegistry& registry);

/// The range of dataset file column `column_id` over the files of the partitions `keep` marks
/// (a dataset listed lazily has those partitions listed): each file's bounds from the catalog
/// (its size confirmed) or its footer (read once, cached for the scan that reads the file),
/// the footers read by up to `threads` threads. Only for integer-like columns (physical INT32 /
/// INT64).
KeyRange FilesKeyRange(const std::shared_ptr<const Dataset>& dataset,
                       const std::vector<uint8_t>& keep, int column_id, size_t threads = 1);

/// For EXPLAIN ANALYZE, a statistics bound's keys: "in [1, 9]", "in 3 ranges spanning 12
/// keys of [1, 90]", "no key (every partition pruned)".
std::string StatisticsRangesText(const RuntimeFilter& filter);

/// How narrow one file's range of column `column_id` is against the range of all: the mean of
/// (max - min) over the first file of up to 16 partitions spread over the dataset (the catalog's
/// bounds, else the footer's, read once and cached: the same on every rank), divided by the span
/// of their union. Near 0 when the key follows the partitioning (ticket numbers by sale date),
/// near 1 when every file spans the key's domain. nullopt when fewer than 3 files tell.
std::optional<double> KeySpreadPerFile(const std::shared_ptr<const Dataset>& dataset,
                                       int column_id);

}  // namespace shears
