#pragma once
// Scans a dataset of in-memory columns (Dataset::FromMemory, storage/memory_table.h): threads
// claim batches of rows from an atomic counter; columns in the engine's layout are referenced
// in place (no copy), the others converted. Filters pushed into the scan are applied to each
// batch. Runtime join filters are not applied (the join checks its keys anyway).

#include <string>
#include <vector>

#include "execution/physical_operator.h"
#include "expression/expression.h"
#include "storage/dataset.h"

namespace shears {

class PhysicalMemoryScan : public PhysicalOperator {
 public:
  PhysicalMemoryScan(std::shared_ptr<const Dataset> dataset, std::vector<int> column_ids,
                     std::vector<BoundExprPtr> filters, std::string table_name);

  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSourceState> GetLocalSourceState(ExecutionContext& context,
                                                        GlobalSourceState& global) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  std::string Describe() const override;

 private:
  std::shared_ptr<const Dataset> dataset_;
  std::vector<int> column_ids_;
  std::vector<BoundExprPtr> filters_;
  std::string table_name_;
};

}  // namespace shears
