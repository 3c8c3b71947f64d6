#include "distributed/physical_shuffle.h"

#include <fmt/format.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <mutex>

#include "common/clock.h"
#include "common/error.h"
#include "distributed/batch_codec.h"
#include "distributed/watchdog.h"
#include "execution/operator/join_exprs.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

struct ShuffleGlobalState : GlobalSinkState {
  ShuffleGlobalState(ColumnDataCollection received, size_t ranks)
      : received(std::move(received)), outgoing(ranks) {}
  std::mutex mutex;
  ColumnDataCollection received;      // this rank's own rows, then the others' for it
  std::vector<std::string> outgoing;  // per rank: encoded batches for it
  uint64_t rows_kept = 0, rows_sent = 0, bytes_sent = 0;
  uint64_t nanos = 0;
};

struct ShuffleLocalState : LocalSinkState {
  ShuffleLocalState(ColumnDataCollection kept, size_t ranks)
      : kept(std::move(kept)), outgoing(ranks), rows_to(ranks) {}
  ColumnDataCollection kept;
  std::vector<std::string> outgoing;
  uint64_t rows_kept = 0, rows_sent = 0;
  // Scratch.
  std::vector<Vector> key_values;
  std::vector<uint32_t> rank_of;
  std::vector<std::vector<uint32_t>> rows_to;
};

// FNV-1a, the same on every rank (std::hash need not be).
uint64_t Mix(uint64_t hash, const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; i++)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

int CountOf(uint64_t bytes) {
  if (bytes > static_cast<uint64_t>(INT_MAX))
    throw NotSupportedError("a shuffle of more than 2 GiB between two ranks is not supported yet");
  return static_cast<int>(bytes);
}

}  // namespace

PhysicalShuffle::PhysicalShuffle(std::vector<LogicalType> types, std::vector<BoundExprPtr> keys,
                                 std::shared_ptr<MpiQueryShare> share, std::string purpose)
    : PhysicalExchange("SHUFFLE", std::move(types)),
      keys_(std::move(keys)),
      share_(std::move(share)),
      purpose_(std::move(purpose)) {}

std::vector<const Vector*> PhysicalShuffle::EvaluateKeys(const std::vector<BoundExprPtr>& keys,
                                                         const Batch& batch,
                                                         std::vector<Vector>& values) {
  if (values.size() != keys.size()) {
    values.clear();
    for (const auto& key : keys)
      values.emplace_back(key->type);
  }
  std::vector<const Vector*> out;
  for (size_t k = 0; k < keys.size(); k++) {
    ExpressionExecutor::Execute(*keys[k], batch, values[k]);
    out.push_back(&values[k]);
  }
  return out;
}

void PhysicalShuffle::RanksOf(const std::vector<const Vector*>& keys, idx_t count, int ranks,
                              std::vector<uint32_t>& out) {
  out.assign(count, 0);
  std::vector<uint64_t> hashes(count, 1469598103934665603ull);
  for (const Vector* key : keys) {
    const Vector& column = *key;
    const PhysicalType physical = column.type().physical();
    const size_t width = column.type().value_size();
    for (idx_t r = 0; r < count; r++) {
      if (column.IsNull(r)) {
        const uint8_t null_marker = 0xff;
        hashes[r] = Mix(hashes[r], &null_marker, 1);
      } else if (physical == PhysicalType::kString) {
        const StringRef value = column.data<StringRef>()[r];
        hashes[r] = Mix(hashes[r], &value.len, sizeof(value.len));
        hashes[r] = Mix(hashes[r], value.ptr, value.len);
      } else if (physical == PhysicalType::kDouble) {
        // Values a GROUP BY or a join takes as equal hash alike: -0.0 as 0.0, every NaN as one.
        double value = column.data<double>()[r];
        if (value == 0) value = 0;
        if (std::isnan(value)) value = std::nan("");
        hashes[r] = Mix(hashes[r], &value, sizeof(value));
      } else {
        hashes[r] = Mix(hashes[r], column.data<uint8_t>() + r * width, width);
      }
    }
  }
  for (idx_t r = 0; r < count; r++)
    out[r] = static_cast<uint32_t>(hashes[r] % static_cast<uint64_t>(ranks));
}

std::unique_ptr<GlobalSinkState> PhysicalShuffle::GetGlobalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<ShuffleGlobalState>(
      ColumnDataCollection(types_, &context.query().memory()), static_cast<size_t>(share_->size));
}

std::unique_ptr<LocalSinkState> PhysicalShuffle::GetLocalSinkState(
    ExecutionContext& context) const {
  return std::make_unique<ShuffleLocalState>(
      ColumnDataCollection(types_, &context.query().memory()), static_cast<size_t>(share_->size));
}

bool PhysicalShuffle::Sink(ExecutionContext&, Batch& input, GlobalSinkState&,
                           LocalSinkState& local_state) const {
  // Rows are sorted by destination here, on every thread, so Finalize only exchanges bytes.
  auto& local = static_cast<ShuffleLocalState&>(local_state);
  const int ranks = share_->size;
  RanksOf(EvaluateKeys(keys_, input, local.key_values), input.size(), ranks, local.rank_of);
  for (auto& rows : local.rows_to)
    rows.clear();
  for (idx_t r = 0; r < input.size(); r++)
    local.rows_to[local.rank_of[r]].push_back(static_cast<uint32_t>(r));
  for (int to = 0; to < ranks; to++) {
    const auto& rows = local.rows_to[static_cast<size_t>(to)];
    if (rows.empty()) continue;
    Batch part(types_, rows.size());
    for (idx_t c = 0; c < part.column_count(); c++)
      part.column(c).CopyRows(input.column(c), rows.data(), rows.size());
    part.SetSize(rows.size());
    if (to == share_->rank) {
      local.kept.Append(part);
      local.rows_kept += rows.size();
    } else {
      EncodeBatch(part, local.outgoing[static_cast<size_t>(to)]);
      local.rows_sent += rows.size();
    }
  }
  return true;
}

void PhysicalShuffle::Combine(ExecutionContext&, GlobalSinkState& global_state,
                              LocalSinkState& local_state) const {
  auto& global = static_cast<ShuffleGlobalState&>(global_state);
  auto& local = static_cast<ShuffleLocalState&>(local_state);
  std::lock_guard<std::mutex> lock(global.mutex);
  global.received.Combine(local.kept);
  for (size_t to = 0; to < global.outgoing.size(); to++)
    global.outgoing[to] += local.outgoing[to];
  global.rows_kept += local.rows_kept;
  global.rows_sent += local.rows_sent;
}

void PhysicalShuffle::Finalize(ExecutionContext&, GlobalSinkState& global) const {
  auto& state = static_cast<ShuffleGlobalState&>(global);
  const auto started = clock::Now();
  std::vector<std::string>& outgoing = state.outgoing;
  std::vector<uint64_t> send_sizes(outgoing.size()), recv_sizes(send_sizes.size());
  for (size_t to = 0; to < outgoing.size(); to++)
    send_sizes[to] = outgoing[to].size();
  FaultPoint("shuffle", share_->rank);
  MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
               share_->shuffle);
  std::vector<int> send_counts(send_sizes.size()), send_displs(send_sizes.size()),
      recv_counts(send_sizes.size()), recv_displs(send_sizes.size());
  std::string send_buffer, recv_buffer;
  uint64_t recv_total = 0;
  for (size_t r = 0; r < send_sizes.size(); r++) {
    send_counts[r] = CountOf(send_sizes[r]);
    send_displs[r] = CountOf(send_buffer.size());
    send_buffer += outgoing[r];
    recv_counts[r] = CountOf(recv_sizes[r]);
    recv_displs[r] = CountOf(recv_total);
    recv_total += recv_sizes[r];
  }
  CountOf(recv_total);
  recv_buffer.resize(recv_total);
  MPI_Alltoallv(send_buffer.data(), send_counts.data(), send_displs.data(), MPI_BYTE,
                recv_buffer.data(), recv_counts.data(), recv_displs.data(), MPI_BYTE,
                share_->shuffle);
  state.bytes_sent = send_buffer.size() + send_sizes.size() * sizeof(uint64_t);
  share_->bytes_sent += state.bytes_sent;
  for (size_t r = 0; r < recv_sizes.size(); r++) {
    DecodeBatches(
        std::string_view(recv_buffer)
            .substr(static_cast<size_t>(recv_displs[r]), static_cast<size_t>(recv_sizes[r])),
        state.received);
  }
  state.nanos = clock::NanosSince(started);
}

const ColumnDataCollection* PhysicalShuffle::Output(ExecutionContext& context) const {
  return &static_cast<ShuffleGlobalState&>(context.sink_state(this)).received;
}

std::string PhysicalShuffle::Describe() const {
  return fmt::format("SHUFFLE {}by hash of {} over {} ranks",
                     purpose_.empty() ? "" : purpose_ + " ", JoinExprs(keys_, ", "), share_->size);
}

std::vector<std::pair<std::string, std::string>> PhysicalShuffle::AnalyzeDetails(
    ExecutionContext& context) const {
  auto& state = static_cast<ShuffleGlobalState&>(context.sink_state(this));
  return {{"this rank (0)",
           fmt::format("{} rows kept, {} sent, {} received; {} bytes sent", state.rows_kept,
                       state.rows_sent, state.received.row_count() - state.rows_kept,
                       state.bytes_sent)},
          {"shuffle time", fmt::format("{:.3f} ms", state.nanos / 1e6)}};
}

}  // namespace shears
