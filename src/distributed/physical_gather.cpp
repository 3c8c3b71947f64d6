#include "distributed/physical_gather.h"

#include <fmt/format.h>

#include <mutex>

#include "common/clock.h"
#include "distributed/batch_codec.h"
#include "distributed/watchdog.h"
#include "execution/column_data.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"

namespace shears {

namespace {

constexpr int kSizeTag = 10;
constexpr int kDataTag = 11;
// MPI counts are ints: larger payloads go in pieces.
constexpr uint64_t kPiece = uint64_t{1} << 30;

/// What each rank reports with its rows.
struct RankReport {
  uint64_t rows = 0;
  uint64_t bytes_sent = 0;  // this gather's payload and the rank's file requests
  uint64_t files = 0;
  uint64_t file_bytes = 0;
  uint64_t wait_nanos = 0;  // waiting for rank 0 to assign files
  uint64_t scan_nanos = 0;  // from the query's start to this gather's Finalize
};

struct GatherGlobalState : ResultCollectorState {
  using ResultCollectorState::ResultCollectorState;
  std::vector<RankReport> reports;  // rank 0: one per rank
  clock::TimePoint created = clock::Now();
  uint64_t exchange_nanos = 0;
};

void SendBytes(const std::string& data, MPI_Comm comm) {
  const uint64_t size = data.size();
  MPI_Send(&size, 1, MPI_UINT64_T, 0, kSizeTag, comm);
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int piece = static_cast<int>(std::min(kPiece, size - at));
    MPI_Send(data.data() + at, piece, MPI_BYTE, 0, kDataTag, comm);
  }
}

std::string ReceiveBytes(int from, MPI_Comm comm) {
  uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, kSizeTag, comm, MPI_STATUS_IGNORE);
  std::string data(size, '\0');
  for (uint64_t at = 0; at < size; at += kPiece) {
    const int piece = static_cast<int>(std::min(kPiece, size - at));
    MPI_Recv(data.data() + at, piece, MPI_BYTE, from, kDataTag, comm, MPI_STATUS_IGNORE);
  }
  return data;
}

}  // namespace

PhysicalGather::PhysicalGather(std::vector<LogicalType> types, std::shared_ptr<MpiQueryShare> share,
                               std::shared_ptr<DistributedScanStats> scan)
    : PhysicalExchange("GATHER", std::move(types)),
      share_(std::move(share)),
      scan_(std::move(scan)) {}

std::unique_ptr<GlobalSinkState> PhysicalGather::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<GatherGlobalState>(
      ColumnDataCollection(types_, &context.query().memory()));
}

void PhysicalGather::Finalize(ExecutionContext&, GlobalSinkState& global) const {
  auto& state = static_cast<GatherGlobalState&>(global);
  const auto started = clock::Now();
  RankReport mine;
  mine.rows = state.result.row_count();
  mine.files = scan_->files;
  mine.file_bytes = scan_->bytes;
  mine.wait_nanos = scan_->wait_nanos;
  mine.scan_nanos = clock::NanosSince(state.created);
  FaultPoint("gather", share_->rank);
  if (share_->rank != 0) {
    std::string payload;
    for (size_t b = 0; b < state.result.batch_count(); b++)
      EncodeBatch(state.result.batch(b), payload);
    share_->bytes_sent += payload.size() + sizeof(RankReport) + 2 * sizeof(uint64_t);
    mine.bytes_sent = share_->bytes_sent;
    MPI_Send(&mine, sizeof(mine), MPI_BYTE, 0, kSizeTag, share_->rows);
    SendBytes(payload, share_->rows);
    return;
  }
  state.reports.assign(static_cast<size_t>(share_->size), RankReport{});
  for (int r = 1; r < share_->size; r++) {
    MPI_Recv(&state.reports[static_cast<size_t>(r)], sizeof(RankReport), MPI_BYTE, r, kSizeTag,
             share_->rows, MPI_STATUS_IGNORE);
    DecodeBatches(ReceiveBytes(r, share_->rows), state.result);
  }
  mine.bytes_sent = share_->bytes_sent;
  state.reports[0] = mine;
  state.exchange_nanos = clock::NanosSince(started);
}

const ColumnDataCollection* PhysicalGather::Output(ExecutionContext& context) const {
  // Only rank 0 emits rows.
  if (share_->rank != 0) return nullptr;
  return &static_cast<GatherGlobalState&>(context.sink_state(this)).result;
}

std::string PhysicalGather::Describe() const {
  return fmt::format("GATHER to rank 0 from {} ranks", share_->size);
}

std::vector<std::pair<std::string, std::string>> PhysicalGather::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& state = static_cast<GatherGlobalState&>(context.sink_state(this));
  std::vector<std::pair<std::string, std::string>> details;
  uint64_t total_sent = 0;
  for (size_t r = 0; r < state.reports.size(); r++) {
    const RankReport& report = state.reports[r];
    total_sent += report.bytes_sent;
    details.push_back(
        {fmt::format("rank {}", r),
         fmt::format("{} rows, {} files ({} bytes) assigned, {} bytes sent, {:.3f} ms waiting for "
                     "files, {:.3f} ms to here",
                     report.rows, report.files, report.file_bytes, report.bytes_sent,
                     report.wait_nanos / 1e6, report.scan_nanos / 1e6)});
  }
  if (!state.reports.empty()) {
    details.push_back({"bytes exchanged", std::to_string(total_sent)});
    details.push_back({"files enumerated on rank 0",
                       fmt::format("{} ({} pruned before enumeration)", scan_->enumerated.load(),
                                   scan_->pruned_before.load())});
    details.push_back({"gather time", fmt::format("{:.3f} ms", state.exchange_nanos / 1e6)});
  }
  return details;
}

}  // namespace shears
