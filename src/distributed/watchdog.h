#pragma once
// Our own timeout for `shears --distributed` (MPI has none): a thread per rank that exchanges
// heartbeats with rank 0 on a communicator of its own, so that a rank that stops (a stalled
// or stopped process, a machine gone from the network) or dies without the launcher ending
// the job makes every other rank fail with an error naming it, within `distributed.timeout`
// seconds, instead of waiting in a collective forever. Rank 0 hears from every rank and every
// rank hears from rank 0: 2 (N - 1) small messages a period, whatever the query does.
//
// A rank that fails (MpiRuntime::Fail) also tells the others through it before ending the
// job, so each surviving rank prints an error naming the failed one.

#include <mpi.h>

#include <atomic>
#include <string>
#include <string_view>
#include <thread>

namespace shears {

class Watchdog {
 public:
  /// Starts the thread; `comm` is this watchdog's own (a duplicate of MPI_COMM_WORLD).
  Watchdog(MPI_Comm comm, int rank, int size, double timeout_seconds);
  /// Says goodbye to the peers and waits for theirs (still bounded by the timeout), so no
  /// message is left unmatched when MPI is finalized.
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// Seconds without a sign of life from a peer before the job is ended (distributed.timeout).
  void SetTimeout(double seconds);
  /// Tells every other rank that this one fails with `error` (they print it naming this
  /// rank and end); waits at most a second for the messages to leave.
  void TellOthers(const std::string& error);

 private:
  void Run();
  /// Ends the job: tells the ranks other than `silent` (-1: none) why, prints it, aborts.
  [[noreturn]] void EndJob(const std::string& why, int silent);

  MPI_Comm comm_;
  int rank_;
  int size_;
  std::atomic<double> timeout_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

/// Fault injection for tests (tests/distributed/faults.sh): when the environment variable
/// SHEARS_DISTRIBUTED_FAULT is `PHASE:RANK:kill` or `PHASE:RANK:stop` and this is rank RANK
/// reaching PHASE (plan, splits, filter_merge, shuffle, gather), the process sends itself
/// SIGKILL or SIGSTOP. Costs one comparison otherwise.
void FaultPoint(std::string_view phase, int rank);

}  // namespace shears
