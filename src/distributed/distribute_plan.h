#pragma once
// A query's physical plan as one rank's share (docs/distributed.md):
//
//   - the fact scan (the table scan reading the most bytes) is split over the ranks: rank 0's
//     coordinator assigns its files (split_coordinator.h);
//   - every other scan, every join's build side among them, is read by each rank in full: the
//     joins above the fact scan are broadcast joins whose small side each rank builds itself,
//     so each rank's dynamic and runtime filters are already the global ones;
//   - a hash join over the split side is a broadcast join (BROADCAST marks its build side)
//     or, when its build side is estimated large (distributed.shuffle_join_rows), cannot be
//     broadcast (RIGHT and FULL joins, or the fact on the build side) or the setting
//     distributed.join_strategy says so, a shuffle join: the split side is SHUFFLEd by key hash,
//     each rank keeps the other side's rows hashing to it (HASH_SELECT), and the join's runtime
//     filters, built from partial build sides, are merged across ranks (filter_merge.h);
//   - the operators that treat each fact row by itself (filters, projections, the probe of
//     inner, left, semi, anti and mark joins, shuffle joins) run on every rank's share; where the
//     first operator needing all rows stands, a GATHER brings the rows to rank 0: an aggregate is
//     split into a partial one below the gather and a final one above (count, sum, min, max,
//     bool_and/or, any without DISTINCT), or, with many groups, a partial one, a SHUFFLE by
//     group key and a final one on every rank below the gather; a top-N or LIMIT keeps each
//     rank's first rows before the gather and merges them above; anything else gets all rows
//     at rank 0.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "distributed/mpi_runtime.h"
#include "execution/operator/physical_table_scan.h"
#include "execution/physical_operator.h"

namespace shears {

struct DistributeOptions {
  /// An aggregate estimated to give at least this many groups is shuffled (setting
  /// distributed.shuffle_groups).
  int64_t shuffle_groups = 100'000;
  /// How joins over the split fact run: "auto", "broadcast" or "shuffle" (setting
  /// distributed.join_strategy).
  std::string join = "auto";
  /// With "auto", a build side estimated at this many rows or more is shuffled (setting
  /// distributed.shuffle_join_rows).
  int64_t shuffle_join_rows = 1'000'000;
  /// False: every rank reads the fact scan's files in full and runs the whole plan (the ranks
  /// do not share them: tables of an in-memory catalog live in each process's own directory).
  bool split_fact = true;
  /// The scans whose files are the same on every rank (MpiRuntime checks): only those may be
  /// split besides the fact's (a shuffle join's other side).
  std::vector<const PhysicalTableScan*> shared_scans;
};

/// The scan DistributePlan splits: the table scan over the most bytes, or null.
const PhysicalTableScan* FactScan(PhysicalOperator& plan);
/// Every table scan of the plan, in plan order (the same on ranks that planned alike).
std::vector<const PhysicalTableScan*> TableScans(const PhysicalOperator& plan);

/// Rewrites `plan` for `share`'s rank; the plan unchanged when it scans no Parquet table.
PhysicalOperatorPtr DistributePlan(PhysicalOperatorPtr plan, std::shared_ptr<MpiQueryShare> share,
                                   const DistributeOptions& options);

/// On a rank other than 0, what it must run of a plan DistributePlan rewrote: the gather and
/// what lies below, under a PhysicalNoRows. The plan unchanged on rank 0 or without a gather.
PhysicalOperatorPtr RankShare(PhysicalOperatorPtr plan, int rank);

/// A fingerprint of the plan's shape and parameters, equal on ranks that planned alike.
uint64_t PlanFingerprint(const PhysicalOperator& plan);
/// FNV-1a of `text`: the same on every rank.
uint64_t TextFingerprint(std::string_view text);

}  // namespace shears
