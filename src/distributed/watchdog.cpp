#include "distributed/watchdog.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace shears {

namespace {

using Clock = std::chrono::steady_clock;

// Tags on the watchdog's communicator. Acknowledgements are received only by the rank that
// waits for them (TellOthers, EndJob), never by the watchdog's loop.
constexpr int kBeatTag = 1;
constexpr int kByeTag = 2;
constexpr int kFailTag = 3;
constexpr int kAckTag = 4;

double SecondsSince(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

/// Sends `text` with kFailTag to every rank but `self` and `silent`, then waits at most a
/// second for each to acknowledge (it has printed its error): mpirun ends every rank once one
/// aborts, so without the wait the others might not get to say why.
void Broadcast(MPI_Comm comm, int self, int silent, int size, const std::string& text) {
  std::vector<MPI_Request> sends;
  for (int r = 0; r < size; r++) {
    if (r == self || r == silent) continue;
    sends.emplace_back();
    MPI_Isend(text.data(), static_cast<int>(text.size()), MPI_CHAR, r, kFailTag, comm,
              &sends.back());
  }
  const auto started = Clock::now();
  size_t acks = 0;
  while (acks < sends.size() && SecondsSince(started) < 1.0) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kAckTag, comm, &flag, &status);
    if (flag) {
      MPI_Recv(nullptr, 0, MPI_CHAR, status.MPI_SOURCE, kAckTag, comm, MPI_STATUS_IGNORE);
      acks++;
      continue;
    }
    // A rank telling us the same at once (two ranks noticed one silent peer) waits for our
    // acknowledgement as we wait for its: we printed ours already.
    MPI_Iprobe(MPI_ANY_SOURCE, kFailTag, comm, &flag, &status);
    if (flag) {
      int count = 0;
      MPI_Get_count(&status, MPI_CHAR, &count);
      std::string ignored(static_cast<size_t>(count), '\0');
      MPI_Recv(ignored.data(), count, MPI_CHAR, status.MPI_SOURCE, kFailTag, comm,
               MPI_STATUS_IGNORE);
      MPI_Send(nullptr, 0, MPI_CHAR, status.MPI_SOURCE, kAckTag, comm);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // The job ends next: requests still pending (a peer gone) are abandoned with it.
}

}  // namespace

Watchdog::Watchdog(MPI_Comm comm, int rank, int size, double timeout_seconds)
    : comm_(comm), rank_(rank), size_(size), timeout_(timeout_seconds) {
  thread_ = std::thread([this] { Run(); });
}

Watchdog::~Watchdog() {
  stopping_ = true;
  thread_.join();
}

void Watchdog::SetTimeout(double seconds) {
  timeout_ = seconds;
}

void Watchdog::TellOthers(const std::string& error) {
  Broadcast(comm_, rank_, -1, size_, fmt::format("stopped: rank {} failed: {}", rank_, error));
}

void Watchdog::EndJob(const std::string& why, int silent) {
  // Printed first: another rank may end the job as soon as it printed.
  std::cerr << fmt::format("rank {}: {}\n", rank_, why) << std::flush;
  Broadcast(comm_, rank_, silent, size_, why);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

void Watchdog::Run() {
  // Rank 0 watches every rank, the others watch rank 0: a silent rank other than 0 is noticed
  // by rank 0, which tells the rest; a silent rank 0 by every other rank.
  std::vector<int> peers;
  for (int r = 0; r < size_; r++) {
    if (r != rank_ && (rank_ == 0 || r == 0)) peers.push_back(r);
  }
  std::vector<Clock::time_point> heard(static_cast<size_t>(size_), Clock::now());
  std::vector<bool> gone(static_cast<size_t>(size_), false);  // said goodbye
  std::vector<MPI_Request> beats(static_cast<size_t>(size_), MPI_REQUEST_NULL);
  std::vector<MPI_Request> byes;
  Clock::time_point last_beat{};
  char beat = 0;
  for (;;) {
    // Everything that arrived first, then the judgement: a watchdog that was not scheduled
    // for a while must not blame peers whose heartbeats wait in its queue.
    for (int tag : {kBeatTag, kByeTag, kFailTag}) {
      for (;;) {
        int flag = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, tag, comm_, &flag, &status);
        if (!flag) break;
        int count = 0;
        MPI_Get_count(&status, MPI_CHAR, &count);
        std::string text(static_cast<size_t>(count), '\0');
        MPI_Recv(text.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, comm_, MPI_STATUS_IGNORE);
        const auto from = static_cast<size_t>(status.MPI_SOURCE);
        heard[from] = Clock::now();
        if (tag == kByeTag) gone[from] = true;
        if (tag == kFailTag) {
          std::cerr << fmt::format("rank {}: {}\n", rank_, text) << std::flush;
          MPI_Send(nullptr, 0, MPI_CHAR, status.MPI_SOURCE, kAckTag, comm_);
          // The rank that told us ends the job once all acknowledged; aborting at once could
          // end it before a third rank printed. This is the fallback.
          std::this_thread::sleep_for(std::chrono::seconds(2));
          MPI_Abort(MPI_COMM_WORLD, 1);
          std::abort();
        }
      }
    }
    if (stopping_ && byes.empty()) {
      for (int peer : peers) {
        byes.emplace_back();
        MPI_Isend(nullptr, 0, MPI_CHAR, peer, kByeTag, comm_, &byes.back());
      }
    }
    if (!byes.empty() && std::all_of(peers.begin(), peers.end(),
                                     [&](int p) { return gone[static_cast<size_t>(p)]; }))
      break;
    const double timeout = timeout_.load();
    for (int peer : peers) {
      const double silent = SecondsSince(heard[static_cast<size_t>(peer)]);
      if (!gone[static_cast<size_t>(peer)] && silent > timeout) {
        EndJob(fmt::format("IO Error: rank {} has not been heard from for {:.1f} s (more than "
                           "distributed.timeout, {} s; noticed by rank {}): it stopped, hangs or "
                           "died",
                           peer, silent, timeout, rank_),
               peer);
      }
    }
    const double period = std::clamp(timeout / 4, 0.01, 1.0);
    if (byes.empty() && SecondsSince(last_beat) >= period) {
      for (int peer : peers) {
        // One heartbeat in flight per peer: a stopped peer must not fill our send queue.
        MPI_Request& request = beats[static_cast<size_t>(peer)];
        int done = 1;
        if (request != MPI_REQUEST_NULL) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) MPI_Isend(&beat, 1, MPI_CHAR, peer, kBeatTag, comm_, &request);
      }
      last_beat = Clock::now();
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(period, 0.05)));
  }
  // Heartbeats that arrived with a goodbye; every peer drains ours until our goodbye, sent last.
  for (;;) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kBeatTag, comm_, &flag, &status);
    if (!flag) break;
    MPI_Recv(&beat, 1, MPI_CHAR, status.MPI_SOURCE, kBeatTag, comm_, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(byes.size()), byes.data(), MPI_STATUSES_IGNORE);
  MPI_Waitall(static_cast<int>(beats.size()), beats.data(), MPI_STATUSES_IGNORE);
}

void FaultPoint(std::string_view phase, int rank) {
  static const std::string fault = [] {
    const char* value = std::getenv("SHEARS_DISTRIBUTED_FAULT");
    return std::string(value ? value : "");
  }();
  if (fault.empty()) return;
  if (fault == fmt::format("{}:{}:kill", phase, rank)) std::raise(SIGKILL);
  if (fault == fmt::format("{}:{}:stop", phase, rank)) std::raise(SIGSTOP);
}

}  // namespace shears
