#pragma once
// RANGE: the source behind range() and generate_series(). Threads claim batches of the
// sequence from an atomic counter, so a long range feeds every core.

#include <string>

#include "execution/physical_operator.h"

namespace shears {

class PhysicalRange : public PhysicalOperator {
 public:
  /// Produces start + i * step for i in [0, count); the binder has checked that the last
  /// value fits in BIGINT.
  PhysicalRange(std::string function, int64_t start, int64_t step, int64_t count);
  bool IsSource() const override { return true; }
  std::unique_ptr<GlobalSourceState> GetGlobalSourceState(ExecutionContext& context) const override;
  bool GetData(ExecutionContext& context, Batch& out, GlobalSourceState& global,
               LocalSourceState& local) const override;
  std::string Describe() const override;

 private:
  std::string function_;
  int64_t start_;
  int64_t step_;
  int64_t count_;
};

}  // namespace shears
