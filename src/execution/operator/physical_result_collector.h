#pragma once
// The root sink of every query: collects the result batches.

#include <mutex>

#include "execution/column_data.h"
#include "execution/physical_operator.h"

namespace shears {

struct ResultCollectorState : GlobalSinkState {
  explicit ResultCollectorState(ColumnDataCollection c) : result(std::move(c)) {}
  std::mutex mutex;
  ColumnDataCollection result;
};

class PhysicalResultCollector : public PhysicalOperator {
 public:
  explicit PhysicalResultCollector(std::vector<LogicalType> types)
      : PhysicalOperator("RESULT_COLLECTOR", std::move(types)) {}
  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  /// The collected rows after execution.
  static ColumnDataCollection& Result(ExecutionContext& context, const PhysicalOperator& op);
};

/// A source that replays a materialized collection (tests, CTE reuse).
class PhysicalColumnDataScan : public PhysicalOperator {
 public:
  PhysicalColumnDataScan(std::vector<LogicalType> types, std::shared_ptr<ColumnDataCollection> data)
      : PhysicalOperator("COLUMN_DATA_SCAN", std::move(types)), data_(std::move(data)) {}
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

 private:
  std::shared_ptr<ColumnDataCollection> data_;
};

}  // namespace shears
