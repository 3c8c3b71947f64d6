#pragma once
// An aggregate over the ranks' shares as a partial aggregate on every rank and a final one
// (at rank 0, or at each group's owner after a shuffle): docs/distributed.md.

#include <memory>

#include "execution/operator/physical_hash_aggregate.h"

namespace shears {

struct AggregateSplit {
  /// The aggregate each rank runs on its share; null: the original aggregate itself serves
  /// (its results are the partial states the final one combines).
  std::unique_ptr<PhysicalHashAggregate> partial;
  /// Over the partial one's rows: the original's result.
  std::unique_ptr<PhysicalHashAggregate> final_aggregate;
  /// How many of the partial rows' leading columns are the group keys a shuffle hashes.
  size_t keys = 0;
};

/// How `agg` splits, or nothing (final_aggregate null) when it does not:
///   - count, sum, min, max, bool_and/or, any: the same aggregates per rank, combined by the
///     final one (a count's by sum);
///   - avg of an exact argument (integers, DECIMAL) besides those: partial sum and count, and
///     avg_of_partials of them (the final division sees the exact total, as alone);
///   - DISTINCT aggregates all of one argument: each rank's distinct (groups, argument) pairs,
///     and the original aggregate over them (a value repeated on two ranks counts once).
AggregateSplit SplitAggregate(const PhysicalHashAggregate& agg);

}  // namespace shears
