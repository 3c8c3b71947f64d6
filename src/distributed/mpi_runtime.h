#pragma once
// `shears --distributed` under mpirun or srun: one shears process per MPI rank, each running
// the same statements. Every rank plans a query itself (docs/distributed.md says why); this
// ScaleOut then rewrites each rank's physical plan into its share (distribute_plan.h) and checks
// that all ranks planned alike. Rank 0 prints.

#include <mpi.h>

#include <atomic>
#include <memory>
#include <string>

#include "distributed/watchdog.h"
#include "execution/scale_out.h"

namespace shears {

/// What one query's distributed parts share: the communicators and the bytes this rank sent.
struct MpiQueryShare {
  MPI_Comm splits = MPI_COMM_NULL;   // file requests to the coordinator (split_coordinator.h)
  MPI_Comm rows = MPI_COMM_NULL;     // the gather of rows at rank 0 (physical_gather.h)
  MPI_Comm shuffle = MPI_COMM_NULL;  // the all-to-all exchanges (physical_shuffle.h)
  int rank = 0;
  int size = 1;
  std::atomic<uint64_t> bytes_sent{0};  // payload this rank sent during the query
};

class MpiRuntime : public ScaleOut {
 public:
  /// Initializes MPI (threads: the scan's threads ask for files); InvalidInputError when the
  /// MPI library cannot serve several threads.
  MpiRuntime(int* argc, char*** argv);
  ~MpiRuntime() override;
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  /// Runs `run` on rank 0, then (after a barrier) on the other ranks: for what rank 0 must
  /// create before the others read it. Rank 0's error is rethrown after the barrier.
  void RankZeroFirst(const std::function<void()>& run);

  PhysicalOperatorPtr Distribute(PhysicalOperatorPtr plan, const Settings& settings) override;
  void PlanFailed(const std::exception& error) override;
  void RunOnce(const std::function<void()>& run) override;
  [[noreturn]] void Fail(const std::exception& error) override;

 private:
  /// Every rank contributes its plan's fingerprint and its fact scan's data (or its failure
  /// to plan); throws on every rank unless all planned the same plan. Returns whether the
  /// data is the same everywhere (with `failed`: whether some rank planned).
  bool AgreeOnPlan(uint64_t fingerprint, uint64_t data, bool failed);

  int rank_ = 0;
  int size_ = 1;
  MPI_Comm splits_ = MPI_COMM_NULL;
  MPI_Comm rows_ = MPI_COMM_NULL;
  MPI_Comm shuffle_ = MPI_COMM_NULL;
  MPI_Comm watchdog_comm_ = MPI_COMM_NULL;
  // Null with one rank, or when the MPI library cannot serve a thread of its own.
  std::unique_ptr<Watchdog> watchdog_;
};

}  // namespace shears
