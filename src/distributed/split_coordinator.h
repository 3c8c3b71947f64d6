#pragma once
// The coordinator of a distributed scan, as in Flink's FLIP-248: rank 0 enumerates the fact
// scan's files once its dynamic filters are known (the scan starts after the joins that filter
// it built their sides, and pruned partitions never reach the list), then hands them out on
// request, largest first; a rank that runs out of files asks for more, so bytes balance by
// demand. An answer holds a share of the bytes left (guided self-scheduling: large chunks
// first, single files at the end), so round trips stay few. Requests go over their own
// communicator; rank 0 answers them from a thread while its own scan threads take files from the
// same queue.
//
//   rank 0 -> every rank r > 0:  kPartitions (a byte per partition: the ones rank 0 kept,
//                which every rank lists, so file indexes name the same files everywhere)
//   rank r > 0:  kRequest -> rank 0,  rank 0 -> kReply (file indexes; none: none left)
//                kRequest carrying -1 when r stops asking early (LIMIT reached)
// The coordinator ends when every other rank got an empty answer or said it stopped.

#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "distributed/mpi_runtime.h"
#include "storage/split_enumerator.h"

namespace shears {

/// Counters of one distributed scan on this rank, for EXPLAIN ANALYZE.
struct DistributedScanStats {
  std::atomic<uint64_t> files{0};
  std::atomic<uint64_t> bytes{0};          // the files' sizes
  std::atomic<uint64_t> wait_nanos{0};     // waiting for rank 0's answers
  std::atomic<uint64_t> enumerated{0};     // rank 0: files in the list handed out
  std::atomic<uint64_t> pruned_before{0};  // rank 0: files pruned before enumeration
};

/// Makes the FileAssignment of this rank for the query's distributed scan number `scan` (0:
/// the fact's; each has its own tags): the coordinator on rank 0, a client elsewhere.
std::unique_ptr<FileAssignment> MakeFileAssignment(std::shared_ptr<MpiQueryShare> share,
                                                   std::shared_ptr<DistributedScanStats> stats,
                                                   int scan);

}  // namespace shears
