#include "distributed/split_coordinator.h"

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"
#include "distributed/watchdog.h"

namespace shears {

namespace {

// Tags of a query's first distributed scan; its scan number n adds 3 n (a shuffle join's
// other side is a second one, whose coordinator may still answer while the first starts).
constexpr int kRequestTag = 1;
constexpr int kReplyTag = 2;
constexpr int kPartitionsTag = 3;
constexpr int kTagsPerScan = 3;
constexpr int64_t kNone = -1;
constexpr size_t kMaxChunk = 1024;  // files per answer

class Coordinator : public FileAssignment {
 public:
  Coordinator(std::shared_ptr<MpiQueryShare> share, std::shared_ptr<DistributedScanStats> stats,
              int scan)
      : share_(std::move(share)), stats_(std::move(stats)), tag_(kTagsPerScan * scan) {}

  ~Coordinator() override {
    if (server_.joinable()) server_.join();
  }

  /// Its decision is the one every rank lists: sent to each, a byte per partition.
  void AgreeOnPartitions(std::vector<uint8_t>& keep) override {
    for (int rank = 1; rank < share_->size; rank++) {
      MPI_Send(keep.data(), static_cast<int>(keep.size()), MPI_UINT8_T, rank, kPartitionsTag + tag_,
               share_->splits);
      share_->bytes_sent += keep.size();
    }
  }

  void Start(const Dataset& dataset, const std::vector<size_t>& kept) override {
    std::vector<size_t> order = kept;
    // Largest first: the last files handed out are small, so ranks finish close together.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return dataset.files()[a].size > dataset.files()[b].size;
    });
    for (size_t file : order) {
      queue_.push_back({file, dataset.files()[file].size});
      queued_bytes_ += dataset.files()[file].size;
    }
    stats_->enumerated = order.size();
    stats_->pruned_before = dataset.files().size() - order.size();
    if (share_->size > 1) server_ = std::thread([this] { Serve(); });
  }

  bool Next(size_t& file_index) override {
    uint64_t bytes;
    if (!Pop(file_index, bytes)) return false;
    stats_->files++;
    stats_->bytes += bytes;
    return true;
  }

 private:
  bool Pop(size_t& file_index, uint64_t& bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty()) return false;
    file_index = queue_.front().first;
    bytes = queue_.front().second;
    queued_bytes_ -= bytes;
    queue_.pop_front();
    return true;
  }

  /// Files for another rank: guided self-scheduling, a share of what is left that shrinks as
  /// the queue does (one file at the end, so ranks finish together), bounding round trips.
  std::vector<int64_t> PopChunk() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<int64_t> chunk;
    const uint64_t target = queued_bytes_ / (2 * static_cast<uint64_t>(share_->size));
    uint64_t bytes = 0;
    while (!queue_.empty() && chunk.size() < kMaxChunk && (chunk.empty() || bytes < target)) {
      chunk.push_back(static_cast<int64_t>(queue_.front().first));
      bytes += queue_.front().second;
      queued_bytes_ -= queue_.front().second;
      queue_.pop_front();
    }
    return chunk;
  }

  void Serve() {
    int stopped = 0;
    while (stopped < share_->size - 1) {
      int64_t request;
      MPI_Status status;
      MPI_Recv(&request, 1, MPI_INT64_T, MPI_ANY_SOURCE, kRequestTag + tag_, share_->splits,
               &status);
      if (request == kNone) {  // that rank stopped asking
        stopped++;
        continue;
      }
      const std::vector<int64_t> chunk = PopChunk();
      if (chunk.empty()) stopped++;  // it is told none is left
      MPI_Send(chunk.data(), static_cast<int>(chunk.size()), MPI_INT64_T, status.MPI_SOURCE,
               kReplyTag + tag_, share_->splits);
      share_->bytes_sent += chunk.size() * sizeof(int64_t);
    }
  }

  std::shared_ptr<MpiQueryShare> share_;
  std::shared_ptr<DistributedScanStats> stats_;
  std::mutex mutex_;
  const int tag_;                                  // added to the tags
  std::deque<std::pair<size_t, uint64_t>> queue_;  // file index, bytes
  uint64_t queued_bytes_ = 0;
  std::thread server_;
};

class Client : public FileAssignment {
 public:
  Client(std::shared_ptr<MpiQueryShare> share, std::shared_ptr<DistributedScanStats> stats,
         int scan)
      : share_(std::move(share)), stats_(std::move(stats)), tag_(kTagsPerScan * scan) {}

  ~Client() override {
    // Stopped before rank 0 said none is left (LIMIT, an error): it must not wait for us.
    if (!done_) {
      int64_t stop = kNone;
      MPI_Send(&stop, 1, MPI_INT64_T, 0, kRequestTag + tag_, share_->splits);
      share_->bytes_sent += sizeof(stop);
    }
  }

  /// Lists what rank 0 kept, whatever this rank's own filters decided: rank 0's file indexes
  /// are positions in its listing.
  void AgreeOnPartitions(std::vector<uint8_t>& keep) override {
    MPI_Status status;
    MPI_Probe(0, kPartitionsTag + tag_, share_->splits, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_UINT8_T, &count);
    std::vector<uint8_t> decided(static_cast<size_t>(count));
    MPI_Recv(decided.data(), count, MPI_UINT8_T, 0, kPartitionsTag + tag_, share_->splits,
             MPI_STATUS_IGNORE);
    if (decided.size() != keep.size())
      throw IOError(
          "rank 0 scans {} partitions where rank {} sees {}: the table's partition directories "
          "changed while the ranks listed them",
          decided.size(), share_->rank, keep.size());
    keep = std::move(decided);
  }

  void Start(const Dataset& dataset, const std::vector<size_t>&) override { dataset_ = &dataset; }

  bool Next(size_t& file_index) override {
    if (assigned_.empty() && !done_) Ask();
    if (assigned_.empty()) return false;
    file_index = assigned_.front();
    assigned_.pop_front();
    stats_->files++;
    stats_->bytes += dataset_->files()[file_index].size;
    return true;
  }

 private:
  /// Asks rank 0 for files: a chunk of file indexes, none when none is left.
  void Ask() {
    const auto started = clock::Now();
    int64_t request = 0;
    FaultPoint("splits", share_->rank);
    MPI_Send(&request, 1, MPI_INT64_T, 0, kRequestTag + tag_, share_->splits);
    share_->bytes_sent += sizeof(request);
    MPI_Status status;
    MPI_Probe(0, kReplyTag + tag_, share_->splits, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_INT64_T, &count);
    std::vector<int64_t> chunk(static_cast<size_t>(count));
    MPI_Recv(chunk.data(), count, MPI_INT64_T, 0, kReplyTag + tag_, share_->splits,
             MPI_STATUS_IGNORE);
    stats_->wait_nanos += clock::NanosSince(started);
    if (chunk.empty()) done_ = true;
    for (int64_t file : chunk) {
      if (!dataset_ || file < 0 || static_cast<size_t>(file) >= dataset_->files().size())
        throw IOError(
            "rank 0 assigned file {} of {}, where rank {} lists {} files: the files "
            "changed while the ranks listed them",
            file, dataset_ ? dataset_->root() : std::string("a table"), share_->rank,
            dataset_ ? dataset_->files().size() : 0);
      assigned_.push_back(static_cast<size_t>(file));
    }
  }

  std::shared_ptr<MpiQueryShare> share_;
  std::shared_ptr<DistributedScanStats> stats_;
  const int tag_;  // added to the tags
  const Dataset* dataset_ = nullptr;
  std::deque<size_t> assigned_;  // files rank 0 gave this rank, not yet taken
  bool done_ = false;            // rank 0 said none is left
};

}  // namespace

std::unique_ptr<FileAssignment> MakeFileAssignment(std::shared_ptr<MpiQueryShare> share,
                                                   std::shared_ptr<DistributedScanStats> stats,
                                                   int scan) {
  if (share->rank == 0)
    return std::make_unique<Coordinator>(std::move(share), std::move(stats), scan);
  return std::make_unique<Client>(std::move(share), std::move(stats), scan);
}

}  // namespace shears
