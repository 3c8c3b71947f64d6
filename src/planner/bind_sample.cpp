// DuckDB's USING SAMPLE over the rows of a SELECT's FROM clause, before WHERE:
//   n ROWS    ORDER BY hash(seed, every column) LIMIT n (a uniform sample of n rows)
//   p PERCENT WHERE hash(seed, every column) & (2^32 - 1) < p% of 2^32 (each row with
//             probability p%, Bernoulli)
// The hash of the row's values rather than random(): the same seed (REPEATABLE) gives the same
// sample whatever the number of threads and the order rows arrive in, and the filter keeps
// its place above joins (it reads every column). Equal rows share their fate; without a seed
// one is drawn per query.

#include <random>

#include "common/error.h"
#include "planner/bind_context.h"
#include "planner/logical_plan.h"

namespace shears {

LogicalOperatorPtr BindSample(const ast::SelectNode::Sample& sample, LogicalOperatorPtr plan) {
  const int64_t seed = sample.seed ? *sample.seed : static_cast<int64_t>(std::random_device{}());
  std::vector<BoundExprPtr> args;
  args.push_back(std::make_unique<BoundConstant>(Value::Bigint(seed)));
  const auto bindings = plan->GetColumnBindings();
  const auto types = plan->GetTypes();
  for (size_t i = 0; i < bindings.size(); i++)
    args.push_back(std::make_unique<BoundColumnRef>(types[i], bindings[i], ""));
  BoundExprPtr hash = BindFunctionCall("hash", std::move(args));
  if (!sample.percent) {
    auto order = std::make_unique<LogicalOrderBy>();
    order->orders.push_back(BoundOrderBy{std::move(hash), false, false});
    order->children.push_back(std::move(plan));
    auto limit = std::make_unique<LogicalLimit>();
    limit->limit = static_cast<int64_t>(std::min(sample.amount, 9.0e18));  // 2.5 rows: 2
    limit->children.push_back(std::move(order));
    return limit;
  }
  constexpr double kRange = 4294967296.0;  // 2^32
  std::vector<BoundExprPtr> mask;
  mask.push_back(std::move(hash));
  mask.push_back(std::make_unique<BoundConstant>(Value::Bigint(int64_t{0xFFFFFFFF})));
  std::vector<BoundExprPtr> compare;
  compare.push_back(BindFunctionCall("&", std::move(mask)));
  compare.push_back(std::make_unique<BoundConstant>(
      Value::Bigint(static_cast<int64_t>(sample.amount / 100 * kRange))));
  auto filter = std::make_unique<LogicalFilter>();
  filter->conditions.push_back(BindFunctionCall("<", std::move(compare)));
  filter->children.push_back(std::move(plan));
  return filter;
}

}  // namespace shears
