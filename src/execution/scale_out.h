#pragma once
// The hook through which a Connection runs its queries as one process of several
// (`shears --distributed` under mpirun; src/distributed implements it over MPI). A plain
// process has none, and nothing here costs it anything.

#include <exception>
#include <functional>

#include "common/settings.h"
#include "execution/physical_operator.h"

namespace shears {

class ScaleOut {
 public:
  virtual ~ScaleOut() = default;
  /// Rewrites a query's physical plan into this process's share. Every process plans the same
  /// query identically and calls this at the same point.
  virtual PhysicalOperatorPtr Distribute(PhysicalOperatorPtr plan, const Settings& settings) = 0;
  /// Instead of Distribute when planning failed here (the caller rethrows): the other
  /// processes learn it rather than wait.
  virtual void PlanFailed(const std::exception& error) = 0;
  /// Runs a statement that changes what all processes share (files, a catalog on disk) on one
  /// process only; every process returns (or throws) its outcome.
  virtual void RunOnce(const std::function<void()>& run) = 0;
  /// A query failed after Distribute: the other processes may wait for this one in a
  /// collective, so the whole job ends, with an error naming this process.
  [[noreturn]] virtual void Fail(const std::exception& error) = 0;
};

}  // namespace shears
