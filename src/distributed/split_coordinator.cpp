#include "distributed/split_coordinator.h"

#include <algorithm>

#include "common/clock.h"
#include "common/error.h"

namespace shears {

namespace {

constexpr int kRequestTag = 1;
constexpr int kReplyTag = 2;
constexpr int64_t kNone = -1;

class Coordinator : public FileAssignment {
 public:
  Coordinator(std::shared_ptr<MpiQueryShare> share, std::shared_ptr<DistributedScanStats> stats)
      : share_(std::move(share)), stats_(std::move(stats)) {}

  ~Coordinator() override {
    if (server_.joinable()) server_.join();
  }

  void Start(const Dataset& dataset, const std::vector<size_t>& kept) override {
    std::vector<size_t> order = kept;
    // Largest first: the last files handed out are small, so ranks finish close together.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return dataset.files()[a].size > dataset.files()[b].size;
    });
    for (size_t file : order)
      queue_.push_back({file, dataset.files()[file].size});
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
    queue_.pop_front();
    return true;
  }

  void Serve() {
    int stopped = 0;
    while (stopped < share_->size - 1) {
      int64_t request;
      MPI_Status status;
      MPI_Recv(&request, 1, MPI_INT64_T, MPI_ANY_SOURCE, kRequestTag, share_->splits, &status);
      if (request == kNone) {  // that rank stopped asking
        stopped++;
        continue;
      }
      size_t file;
      uint64_t bytes;
      const int64_t reply = Pop(file, bytes) ? static_cast<int64_t>(file) : kNone;
      if (reply == kNone) stopped++;
      MPI_Send(&reply, 1, MPI_INT64_T, status.MPI_SOURCE, kReplyTag, share_->splits);
      share_->bytes_sent += sizeof(reply);
    }
  }

  std::shared_ptr<MpiQueryShare> share_;
  std::shared_ptr<DistributedScanStats> stats_;
  std::mutex mutex_;
  std::deque<std::pair<size_t, uint64_t>> queue_;  // file index, bytes
  std::thread server_;
};

class Client : public FileAssignment {
 public:
  Client(std::shared_ptr<MpiQueryShare> share, std::shared_ptr<DistributedScanStats> stats)
      : share_(std::move(share)), stats_(std::move(stats)) {}

  ~Client() override {
    // Stopped before rank 0 said none is left (LIMIT, an error): it must not wait for us.
    if (!done_) {
      int64_t stop = kNone;
      MPI_Send(&stop, 1, MPI_INT64_T, 0, kRequestTag, share_->splits);
      share_->bytes_sent += sizeof(stop);
    }
  }

  void Start(const Dataset& dataset, const std::vector<size_t>&) override { dataset_ = &dataset; }

  bool Next(size_t& file_index) override {
    if (done_) return false;
    const auto started = clock::Now();
    int64_t request = 0, reply = kNone;
    MPI_Send(&request, 1, MPI_INT64_T, 0, kRequestTag, share_->splits);
    share_->bytes_sent += sizeof(request);
    MPI_Recv(&reply, 1, MPI_INT64_T, 0, kReplyTag, share_->splits, MPI_STATUS_IGNORE);
    stats_->wait_nanos += clock::NanosSince(started);
    if (reply == kNone) {
      done_ = true;
      return false;
    }
    file_index = static_cast<size_t>(reply);
    if (!dataset_ || file_index >= dataset_->files().size())
      throw InternalError("rank 0 assigned file {} of a dataset of fewer files", reply);
    stats_->files++;
    stats_->bytes += dataset_->files()[file_index].size;
    return true;
  }

 private:
  std::shared_ptr<MpiQueryShare> share_;
  std::shared_ptr<DistributedScanStats> stats_;
  const Dataset* dataset_ = nullptr;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<FileAssignment> MakeFileAssignment(std::shared_ptr<MpiQueryShare> share,
                                                   std::shared_ptr<DistributedScanStats> stats) {
  if (share->rank == 0) return std::make_unique<Coordinator>(std::move(share), std::move(stats));
  return std::make_unique<Client>(std::move(share), std::move(stats));
}

}  // namespace shears
