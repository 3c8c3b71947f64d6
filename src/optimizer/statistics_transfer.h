#pragma once
// statistics_transfer: a join of two facts whose probe fact's key follows its partitioning
// (tickets handed out day by day: a day's files hold a narrow range of ticket numbers) bounds
// the build fact's scan by the key's ranges over the files the probe fact's scan keeps, known
// from their statistics alone (storage/statistics_bounds.h; no row of either fact read for it):
//
//   JOIN INNER ON ss_ticket = sr_ticket        the sr scan, when it starts, publishes
//     ss JOIN date_dim (July 2001)       =>    statistics_bounds #n: sr_ticket IN the ranges
//     sr (build side)                          of ss_ticket over the July files ss keeps
//
// The build side then runs as planned, its files skipped by the ranges, and its keys prune the
// probe fact as before. Legal where the join's output does not depend on build rows matching no
// probe row (dynfilter/join_legality.h, BuildSideFilterLegality). The ranges are always correct
// (every file the probe scan may read is covered: its partitions are pruned only by its own
// filters and the dynamic filters published by then); whether the key follows the partitioning
// is judged from a sample of the probe fact's file statistics (KeySpreadPerFile) and only
// decides whether to spend the time. `SET runtime_filter.statistics_transfer = false` turns it
// off.

#include <optional>
#include <string>

#include "common/settings.h"
#include "planner/logical_plan.h"

namespace shears {

/// A statistics transfer found for a join: the range of `probe_column` (a file column of
/// `probe`'s dataset) over its kept files bounds `build_column` of `build`.
struct StatisticsTransfer {
  LogicalGet* probe = nullptr;
  int probe_column = -1;
  LogicalGet* build = nullptr;
  int build_column = -1;
  size_t condition = 0;  // the join condition it comes from
  /// KeySpreadPerFile of the probe key: known to follow the partitioning when set (at most the
  /// rule's limit); nullopt when no sample told.
  std::optional<double> spread;
};

/// The statistics transfer for `join` (the best key: the narrowest spread), or nullopt: the
/// setting is off, the join may not filter its build side, no key is a plain integer file
/// column of a partitioned Parquet fact on each side, or the sampled files show the key spread
/// over its domain. Whether the probe fact's partitions are pruned (else its kept files cover
/// every key) is the caller's to judge.
std::optional<StatisticsTransfer> FindStatisticsTransfer(LogicalJoin& join,
                                                         const Settings& settings);

}  // namespace shears
