#include "execution/operator/physical_memory_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "expression/expression_executor.h"
#include "storage/memory_table.h"

namespace shears {

namespace {

struct MemoryScanState : GlobalSourceState {
  explicit MemoryScanState(idx_t rows) : batches((rows + kBatchSize - 1) / kBatchSize) {}
  idx_t MaxThreads() const override { return std::max<idx_t>(1, batches); }
  const idx_t batches;
  std::atomic<idx_t> next{0};
};

struct MemoryScanLocalState : LocalSourceState {
  SelectionVector sel{kBatchSize};
};

template <typename From, typename To>
void Convert(const void* data, idx_t first, idx_t count, Vector& out) {
  const From* in = static_cast<const From*>(data) + first;
  To* values = out.data<To>();
  for (idx_t i = 0; i < count; i++)
    values[i] = static_cast<To>(in[i]);
}

// int64 times in `unit_micros` (a negative value: 1 / -unit_micros) to microseconds or days,
// INT64_MIN (numpy's NaT) as NULL. Nanoseconds round toward negative infinity, as a cast of a
// pandas Timestamp to microseconds does.
void ConvertTimes(const void* data, idx_t first, idx_t count, int64_t multiply, int64_t divide,
                  const std::string& column, Vector& out) {
  const int64_t* in = static_cast<const int64_t*>(data) + first;
  int64_t* values = out.data<int64_t>();
  int32_t* days = out.data<int32_t>();
  const bool to_days = out.type().id() == TypeId::kDate;
  for (idx_t i = 0; i < count; i++) {
    int64_t v = in[i];
    if (v == std::numeric_limits<int64_t>::min()) {
      out.validity().SetNull(i);
      if (to_days) {
        days[i] = 0;
      } else {
        values[i] = 0;
      }
      continue;
    }
    if (divide > 1) v = v / divide - ((v % divide) < 0 ? 1 : 0);
    if (multiply > 1) {
      if (__builtin_mul_overflow(v, multiply, &v)) {
        throw OutOfRangeError("column '{}': time value {} is out of the TIMESTAMP range", column,
                              in[i]);
      }
    }
    if (to_days) {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        throw OutOfRangeError("column '{}': date value {} is out of the DATE range", column, in[i]);
      }
      days[i] = static_cast<int32_t>(v);
    } else {
      values[i] = v;
    }
  }
}

void ScanColumn(const MemoryColumn& column, idx_t first, idx_t count,
                const std::shared_ptr<const void>& owner, Vector& out) {
  using Source = MemoryColumn::Source;
  if (column.source == Source::kNative) {
    const auto* bytes = static_cast<const uint8_t*>(column.data);
    out.ReferenceExternal(bytes + first * column.type.value_size(), count, owner);
  } else {
    out.Reset();
    out.Reserve(kBatchSize);
    switch (column.source) {
      case Source::kInt8:
        Convert<int8_t, int32_t>(column.data, first, count, out);
        break;
      case Source::kInt16:
        Convert<int16_t, int32_t>(column.data, first, count, out);
        break;
      case Source::kUInt8:
        Convert<uint8_t, int32_t>(column.data, first, count, out);
        break;
      case Source::kUInt16:
        Convert<uint16_t, int32_t>(column.data, first, count, out);
        break;
      case Source::kUInt32:
        Convert<uint32_t, int64_t>(column.data, first, count, out);
        break;
      case Source::kUInt64: {
        const uint64_t* in = static_cast<const uint64_t*>(column.data) + first;
        for (idx_t i = 0; i < count; i++) {
          if (in[i] > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            throw OutOfRangeError("column '{}': value {} does not fit in BIGINT", column.name,
                                  in[i]);
          }
        }
        Convert<uint64_t, int64_t>(column.data, first, count, out);
        break;
      }
      case Source::kFloat32:
        Convert<float, double>(column.data, first, count, out);
        break;
      case Source::kTimeNanos:
        ConvertTimes(column.data, first, count, 1, 1000, column.name, out);
        break;
      case Source::kTimeMicros:
        ConvertTimes(column.data, first, count, 1, 1, column.name, out);
        break;
      case Source::kTimeMillis:
        ConvertTimes(column.data, first, count, 1000, 1, column.name, out);
        break;
      case Source::kTimeSeconds:
        ConvertTimes(column.data, first, count, 1000000, 1, column.name, out);
        break;
      case Source::kTimeDays:
        ConvertTimes(column.data, first, count, 1, 1, column.name, out);
        break;
      case Source::kNative:
        break;
    }
  }
  if (column.null_mask) {
    const uint8_t* nulls = column.null_mask + first;
    for (idx_t i = 0; i < count; i++) {
      if (nulls[i]) out.validity().SetNull(i);
    }
  }
  if (column.nan_is_null) {
    const double* values = out.data<double>();
    for (idx_t i = 0; i < count; i++) {
      if (std::isnan(values[i])) out.validity().SetNull(i);
    }
  }
}

std::vector<LogicalType> ColumnTypes(const Dataset& dataset, const std::vector<int>& column_ids) {
  std::vector<LogicalType> types;
  for (int id : column_ids)
    types.push_back(dataset.columns()[static_cast<size_t>(id)].type);
  return types;
}

}  // namespace

PhysicalMemoryScan::PhysicalMemoryScan(std::shared_ptr<const Dataset> dataset,
                                       std::vector<int> column_ids,
                                       std::vector<BoundExprPtr> filters, std::string table_name)
    : PhysicalOperator("MEMORY_SCAN", ColumnTypes(*dataset, column_ids)),
      dataset_(std::move(dataset)),
      column_ids_(std::move(column_ids)),
      filters_(std::move(filters)),
      table_name_(std::move(table_name)) {}

std::unique_ptr<GlobalSourceState> PhysicalMemoryScan::GetGlobalSourceState(
    ExecutionContext&) const {
  return std::make_unique<MemoryScanState>(dataset_->memory()->rows);
}

std::unique_ptr<LocalSourceState> PhysicalMemoryScan::GetLocalSourceState(
    ExecutionContext&, GlobalSourceState&) const {
  return std::make_unique<MemoryScanLocalState>();
}

bool PhysicalMemoryScan::GetData(ExecutionContext&, Batch& out, GlobalSourceState& global,
                                 LocalSourceState& local_state) const {
  auto& state = static_cast<MemoryScanState&>(global);
  auto& local = static_cast<MemoryScanLocalState&>(local_state);
  const MemoryTable& table = *dataset_->memory();
  while (true) {
    const idx_t batch = state.next.fetch_add(1, std::memory_order_relaxed);
    if (batch >= state.batches) return false;
    const idx_t first = batch * kBatchSize;
    const idx_t count = std::min<idx_t>(kBatchSize, table.rows - first);
    for (size_t c = 0; c < column_ids_.size(); c++) {
      ScanColumn(table.columns[static_cast<size_t>(column_ids_[c])], first, count, table.owner,
                 out.column(c));
    }
    out.SetSize(count);
    idx_t kept = count;
    for (const auto& filter : filters_) {
      kept = ExpressionExecutor::Select(*filter, out, local.sel);
      if (kept < out.size()) out.Select(local.sel.data(), kept);
      if (kept == 0) break;
    }
    if (kept > 0) return true;
  }
}

std::string PhysicalMemoryScan::Describe() const {
  std::string out = "MEMORY_SCAN " + table_name_ + " (";
  for (size_t i = 0; i < column_ids_.size(); i++) {
    out += (i ? ", " : "") + dataset_->columns()[static_cast<size_t>(column_ids_[i])].name;
  }
  out += fmt::format(") {} rows", dataset_->memory()->rows);
  if (!filters_.empty()) {
    out += " filters: ";
    for (size_t i = 0; i < filters_.size(); i++)
      out += (i ? " AND " : "") + filters_[i]->ToString();
  }
  return out;
}

}  // namespace shears
