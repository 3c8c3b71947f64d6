#pragma once
// What the exchanges (GATHER, SHUFFLE) share: as a sink each collects this rank's rows as the
// result collector does; Finalize (each its own) moves rows between ranks; as a source each
// emits the rows that ended up on this rank, a batch per step, in parallel.

#include "execution/operator/physical_result_collector.h"

namespace shears {

class PhysicalExchange : public PhysicalResultCollector {
 public:
  PhysicalExchange(std::string name, std::vector<LogicalType> types)
      : PhysicalResultCollector(std::move(types)) {
    name_ = std::move(name);
  }
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;

 protected:
  /// The rows this rank emits after Finalize; null for none.
  virtual const ColumnDataCollection* Output(ExecutionContext& context) const = 0;
};

}  // namespace shears
