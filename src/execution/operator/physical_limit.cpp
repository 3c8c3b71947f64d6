#include "execution/operator/physical_limit.h"

#include <algorithm>
#include <string>
#include <vector>

namespace shears {

std::unique_ptr<OperatorState> PhysicalLimit::GetOperatorState(ExecutionContext&) const {
  // seen_ is shared by all threads of the one execution a physical plan gets.
  return std::make_unique<OperatorState>();
}

OperatorResult PhysicalLimit::Execute(ExecutionContext&, Batch& input, Batch& output,
                                      OperatorState&) const {
  const int64_t n = static_cast<int64_t>(input.size());
  const int64_t start = seen_.fetch_add(n);
  const int64_t end_wanted = limit_ < 0 ? INT64_MAX : offset_ + limit_;
  // This batch covers rows [start, start + n) of the stream.
  const int64_t from = std::max<int64_t>(start, offset_);
  const int64_t to = std::min<int64_t>(start + n, end_wanted);
  if (to > from) {
    std::vector<uint32_t> rows;
    for (int64_t r = from; r < to; r++)
      rows.push_back(static_cast<uint32_t>(r - start));
    for (idx_t c = 0; c < input.column_count(); c++) {
      output.column(c).CopyRows(input.column(c), rows.data(), rows.size());
    }
    output.SetSize(rows.size());
  }
  return start + n >= end_wanted ? OperatorResult::kFinished : OperatorResult::kNeedMoreInput;
}

std::string PhysicalLimit::Describe() const {
  return "LIMIT " + (limit_ < 0 ? std::string("ALL") : std::to_string(limit_)) +
         (offset_ ? " OFFSET " + std::to_string(offset_) : "");
}

}  // namespace shears
