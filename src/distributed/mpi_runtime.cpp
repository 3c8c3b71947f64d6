#include "distributed/mpi_runtime.h"

#include <fmt/format.h>

#include <iostream>
#include <string>

#include "common/error.h"
#include "common/settings.h"
#include "distributed/distribute_plan.h"

namespace shears {

MpiRuntime::MpiRuntime(int* argc, char*** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  // A scan's threads ask for files one at a time (under the split enumerator's lock), while
  // rank 0 answers from a thread of its own: calls from several threads, never at once
  // within a process.
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw InvalidInputError(
        "--distributed: the MPI library gives thread level {}; shears needs MPI_THREAD_SERIALIZED",
        provided);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm_dup(MPI_COMM_WORLD, &splits_);
  MPI_Comm_dup(MPI_COMM_WORLD, &rows_);
  MPI_Comm_dup(MPI_COMM_WORLD, &shuffle_);
  MPI_Comm_dup(MPI_COMM_WORLD, &watchdog_comm_);
  // The watchdog calls MPI from its thread while the others may be in a call too. Its
  // timeout until a query sets distributed.timeout: that setting's default.
  if (size_ > 1 && provided == MPI_THREAD_MULTIPLE) {
    watchdog_ = std::make_unique<Watchdog>(watchdog_comm_, rank_, size_,
                                           Settings().GetDouble("distributed.timeout"));
  }
}

MpiRuntime::~MpiRuntime() {
  watchdog_.reset();
  MPI_Comm_free(&watchdog_comm_);
  MPI_Comm_free(&splits_);
  MPI_Comm_free(&rows_);
  MPI_Comm_free(&shuffle_);
  MPI_Finalize();
}

void MpiRuntime::RankZeroFirst(const std::function<void()>& run) {
  if (rank_ != 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    run();
    return;
  }
  std::exception_ptr error;
  try {
    run();
  } catch (...) {
    error = std::current_exception();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (error) std::rethrow_exception(error);
}

bool MpiRuntime::AgreeOnPlan(uint64_t fingerprint, uint64_t data, bool failed) {
  // One all-reduce with MAX: max(f) and max(~f) == ~min(f) tell whether all fingerprints are
  // equal (also the data's); max(failed) whether any rank failed, max(!failed) whether any
  // succeeded.
  uint64_t mine[6] = {fingerprint, ~fingerprint, failed ? 1u : 0u, failed ? 0u : 1u, data, ~data};
  uint64_t all[6];
  FaultPoint("plan", rank_);
  MPI_Allreduce(mine, all, 6, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (all[2] != 0) {
    if (failed) {
      // When every rank failed alike, rank 0 reports it as a plain shears would; a rank
      // failing alone says so itself (only rank 0's output is printed otherwise).
      return all[3] != 0;
    }
    throw InvalidInputError("another rank could not plan this query (its error is above)");
  }
  if (all[0] != ~all[1]) {
    throw InvalidInputError(
        "the ranks planned this query differently: do they all see the same files and catalog?");
  }
  return all[4] == ~all[5];
}

PhysicalOperatorPtr MpiRuntime::Distribute(PhysicalOperatorPtr plan, const Settings& settings) {
  auto share = std::make_shared<MpiQueryShare>();
  share->splits = splits_;
  share->rows = rows_;
  share->shuffle = shuffle_;
  share->rank = rank_;
  share->size = size_;
  DistributeOptions options;
  options.shuffle_groups = settings.GetInt("distributed.shuffle_groups");
  options.join = settings.GetString("distributed.join_strategy");
  options.shuffle_join_rows = settings.GetInt("distributed.shuffle_join_rows");
  if (watchdog_) watchdog_->SetTimeout(settings.GetDouble("distributed.timeout"));
  // The ranks agree on the plan before it is split (the split is a function of the plan, these
  // options and the ranks), and on where the fact scan reads: the same directory on every
  // rank, else (an in-memory catalog's table, written by each process under a temporary
  // directory of its own) the files differ and every rank runs the whole query alone.
  const PhysicalTableScan* fact = FactScan(*plan);
  const uint64_t fingerprint =
      PlanFingerprint(*plan) ^
      TextFingerprint(
          fmt::format("{}|{}|{}", options.shuffle_groups, options.join, options.shuffle_join_rows));
  options.split_fact =
      AgreeOnPlan(fingerprint, fact ? TextFingerprint(fact->dataset().root()) : 0, false);
  // The plans agree, so every rank lists the same scans: which of them read the same files
  // everywhere (MAX of each root's fingerprint and of its complement, as above)?
  const std::vector<const PhysicalTableScan*> scans = TableScans(*plan);
  if (options.split_fact && scans.size() > 1) {
    std::vector<uint64_t> mine, all(2 * scans.size());
    for (const PhysicalTableScan* scan : scans) {
      mine.push_back(TextFingerprint(scan->dataset().root()));
      mine.push_back(~mine.back());
    }
    MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()), MPI_UINT64_T, MPI_MAX,
                  MPI_COMM_WORLD);
    for (size_t i = 0; i < scans.size(); i++) {
      if (all[2 * i] == ~all[2 * i + 1]) options.shared_scans.push_back(scans[i]);
    }
  }
  plan = DistributePlan(std::move(plan), share, options);
  return RankShare(std::move(plan), rank_);
}

void MpiRuntime::PlanFailed(const std::exception& error) {
  if (AgreeOnPlan(0, 0, true) && rank_ != 0)
    std::cerr << "rank " + std::to_string(rank_) + ": " + error.what() + "\n" << std::flush;
}

void MpiRuntime::RunOnce(const std::function<void()>& run) {
  // Rank 0 runs it; its outcome (an error's kind and message) goes to every rank.
  int kind = -1;
  std::string message;
  if (rank_ == 0) {
    try {
      run();
    } catch (const Error& e) {
      kind = static_cast<int>(e.kind());
      message = e.what();
    } catch (const std::exception& e) {
      kind = static_cast<int>(ErrorKind::kInternal);
      message = e.what();
    }
  }
  uint64_t length = message.size();
  MPI_Bcast(&kind, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  message.resize(length);
  if (length > 0) MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (kind >= 0) ThrowError(static_cast<ErrorKind>(kind), message);
}

void MpiRuntime::Fail(const std::exception& error) {
  const auto* typed = dynamic_cast<const Error*>(&error);
  const std::string what =
      std::string(ErrorKindName(typed ? typed->kind() : ErrorKind::kInternal)) + ": " +
      error.what();
  // One write, so that ranks failing at once do not interleave their lines.
  std::cerr << "rank " + std::to_string(rank_) + ": " + what + "\n" << std::flush;
  // Each other rank prints that this one failed (it may not have failed itself).
  if (watchdog_) watchdog_->TellOthers(what);
  // The other ranks may wait for this one in a collective: end them all.
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

}  // namespace shears
