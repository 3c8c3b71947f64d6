// cardinality_estimation: rows per operator, bottom-up. Scans start from the row counts file
// footers (or the catalog) know; filters scale them by selectivities from column statistics
// (ANALYZE's NDV, min/max and null counts for catalog tables; the partition values themselves
// for partition columns); joins by 1 / max(NDV) per key; aggregates by their group keys' NDVs.
// Where nothing is known, fixed defaults. See cardinality.h for the formulas.

#include "optimizer/cardinality.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "function/function.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

// Defaults where statistics say nothing (as DuckDB's 0.2 for any filter; equalities are
// usually more selective than ranges).
constexpr double kFilterSelectivity = 0.2;
constexpr double kEqualitySelectivity = 0.1;
constexpr double kRangeSelectivity = 0.25;
constexpr double kNullSelectivity = 0.05;

/// What is known about one scan column.
struct ColumnStats {
  double rows = -1;  // rows of its table
  double distinct = -1;
  double null_fraction = -1;
  Value min, max;
};

// Partition columns: their values are known exactly from the file list.
ColumnStats PartitionColumnStats(const Dataset& dataset, size_t column_id) {
  ColumnStats stats;
  const auto& partition = dataset.partition_statistics(column_id - dataset.num_file_columns());
  stats.rows = static_cast<double>(dataset.total_rows());
  stats.distinct = static_cast<double>(partition.distinct_count);
  if (stats.rows > 0) stats.null_fraction = static_cast<double>(partition.null_count) / stats.rows;
  stats.min = partition.min;
  stats.max = partition.max;
  return stats;
}

ColumnStats ScanColumnStats(const LogicalGet& get, int column_id) {
  const Dataset& dataset = *get.dataset;
  const auto id = static_cast<size_t>(column_id);
  if (id >= dataset.columns().size()) return {};
  if (id >= dataset.num_file_columns()) return PartitionColumnStats(dataset, id);
  ColumnStats stats;
  const auto& analyzed = dataset.column_statistics(id);
  stats.rows = static_cast<double>(dataset.total_rows());
  if (analyzed.distinct_count >= 0) stats.distinct = static_cast<double>(analyzed.distinct_count);
  if (analyzed.null_count >= 0 && stats.rows > 0)
    stats.null_fraction = static_cast<double>(analyzed.null_count) / stats.rows;
  stats.min = analyzed.min;
  stats.max = analyzed.max;
  return stats;
}

const BoundExpr& StripCasts(const BoundExpr& expr) {
  const BoundExpr* e = &expr;
  while (e->kind == BoundExprKind::kCast)
    e = static_cast<const BoundCast*>(e)->child.get();
  return *e;
}

// The statistics of the scan column `expr` (a column, possibly under casts) comes from.
std::optional<ColumnStats> StatsOf(LogicalOperator& input, const BoundExpr& expr) {
  const BoundExpr& column = StripCasts(expr);
  if (column.kind != BoundExprKind::kColumnRef) return std::nullopt;
  const auto traced = TraceToSource(input, static_cast<const BoundColumnRef&>(column).binding);
  if (!traced) return std::nullopt;
  return ScanColumnStats(*traced->get, traced->column_id);
}

std::optional<Value> ConstantOf(const BoundExpr& expr) {
  if (expr.kind == BoundExprKind::kConstant) return static_cast<const BoundConstant&>(expr).value;
  if (expr.kind == BoundExprKind::kCast) {
    const auto& cast = static_cast<const BoundCast&>(expr);
    if (cast.child->kind != BoundExprKind::kConstant) return std::nullopt;
    Value value = CastValue(static_cast<const BoundConstant&>(*cast.child).value, cast.type, true);
    if (value.is_null()) return std::nullopt;
    return value;
  }
  return std::nullopt;
}

// A value on the number line for interpolation (dates as days, timestamps as microseconds).
std::optional<double> Numeric(const Value& value) {
  if (value.is_null()) return std::nullopt;
  switch (value.type().id()) {
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTime:
      return static_cast<double>(value.GetInt64());
    case TypeId::kDouble:
    case TypeId::kFloat:
      return value.GetDouble();
    case TypeId::kDecimal:
      return static_cast<double>(value.GetInt128()) / std::pow(10.0, value.type().scale());
    default:
      return std::nullopt;
  }
}

bool Integral(const Value& value) {
  const TypeId id = value.type().id();
  return id == TypeId::kInteger || id == TypeId::kBigint || id == TypeId::kDate ||
         id == TypeId::kTimestamp || id == TypeId::kTime;
}

double NonNull(const ColumnStats& stats) {
  return stats.null_fraction >= 0 ? 1 - stats.null_fraction : 1;
}

/// A range on one column: lower and upper bounds from `col > c`, `col <= c`, BETWEEN...
struct Range {
  const BoundExpr* column = nullptr;
  std::optional<double> low, high;
  bool low_inclusive = true, high_inclusive = true;
  bool numeric = true;  // every bound is a number

  void AddLow(std::optional<double> v, bool inclusive) {
    if (!v) {
      numeric = false;
      return;
    }
    if (!low || *v > *low || (*v == *low && !inclusive)) {
      low = v;
      low_inclusive = inclusive;
    }
  }
  void AddHigh(std::optional<double> v, bool inclusive) {
    if (!v) {
      numeric = false;
      return;
    }
    if (!high || *v < *high || (*v == *high && !inclusive)) {
      high = v;
      high_inclusive = inclusive;
    }
  }
};

double RangeSelectivity(LogicalOperator& input, const Range& range) {
  const auto stats = StatsOf(input, *range.column);
  if (!stats || !range.numeric) return kRangeSelectivity;
  const auto min = Numeric(stats->min), max = Numeric(stats->max);
  if (!min || !max) return kRangeSelectivity;
  // Integer-like columns: count values, so `x <= max` keeps everything and `x < min` nothing.
  const double step = Integral(stats->min) ? 1 : 0;
  double low = *min, high = *max + step;
  if (range.low) low = std::max(low, *range.low + (range.low_inclusive ? 0 : step));
  if (range.high) high = std::min(high, *range.high + (range.high_inclusive ? step : 0));
  const double width = *max + step - *min;
  if (high <= low) return 0;
  if (width <= 0) return NonNull(*stats);
  return std::clamp((high - low) / width, 0.0, 1.0) * NonNull(*stats);
}

double EqualitySelectivity(LogicalOperator& input, const BoundExpr& column,
                           const std::vector<Value>& constants) {
  const auto stats = StatsOf(input, column);
  if (!stats || stats->distinct < 0) {
    return std::min(1.0, kEqualitySelectivity * static_cast<double>(constants.size()));
  }
  // Constants outside [min, max] match nothing.
  double matching = 0;
  const auto min = Numeric(stats->min), max = Numeric(stats->max);
  for (const Value& constant : constants) {
    const auto v = Numeric(constant);
    if (v && min && max && (*v < *min || *v > *max)) continue;
    matching++;
  }
  if (stats->distinct == 0) return 0;
  return std::min(1.0, matching / stats->distinct) * NonNull(*stats);
}

double PredicateSelectivity(LogicalOperator& input, const BoundExpr& expr);

// `column op constant` with op one of < <= > >= (either way round): adds it to `range`.
bool AsRangeBound(const BoundExpr& expr, const BoundExpr** column, std::string* op,
                  std::optional<Value>* constant) {
  if (expr.kind != BoundExprKind::kFunction) return false;
  const auto& function = static_cast<const BoundFunction&>(expr);
  static const std::map<std::string, std::string> kFlipped = {
      {"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}};
  const auto flipped = kFlipped.find(function.function.name);
  if (flipped == kFlipped.end() || function.args.size() != 2) return false;
  for (size_t side = 0; side < 2; side++) {
    if (StripCasts(*function.args[side]).kind != BoundExprKind::kColumnRef) continue;
    auto value = ConstantOf(*function.args[1 - side]);
    if (!value) continue;
    *column = &StripCasts(*function.args[side]);
    *op = side == 0 ? function.function.name : flipped->second;
    *constant = std::move(value);
    return true;
  }
  return false;
}

double PredicateSelectivity(LogicalOperator& input, const BoundExpr& expr) {
  switch (expr.kind) {
    case BoundExprKind::kConjunction: {
      const auto& conjunction = static_cast<const BoundConjunction&>(expr);
      if (conjunction.is_and) return EstimateSelectivity(input, {&expr});
      // `x = 1 OR x = 2 ...` (how IN lists arrive): disjoint values, as an IN list.
      std::vector<Value> constants;
      const BoundExpr* column = nullptr;
      for (const auto& child : conjunction.children) {
        if (child->kind != BoundExprKind::kFunction) break;
        const auto& eq = static_cast<const BoundFunction&>(*child);
        if (eq.function.name != "=" || eq.args.size() != 2) break;
        auto value = ConstantOf(*eq.args[1]);
        const BoundExpr& side = StripCasts(*eq.args[0]);
        if (!value || side.kind != BoundExprKind::kColumnRef ||
            (column && static_cast<const BoundColumnRef&>(side).binding !=
                           static_cast<const BoundColumnRef*>(column)->binding)) {
          break;
        }
        column = &side;
        constants.push_back(std::move(*value));
      }
      if (constants.size() == conjunction.children.size())
        return EqualitySelectivity(input, *column, constants);
      double none = 1;  // OR: independent disjuncts
      for (const auto& child : conjunction.children)
        none *= 1 - PredicateSelectivity(input, *child);
      return 1 - none;
    }
    case BoundExprKind::kNot:
      return std::clamp(1 - PredicateSelectivity(input, *static_cast<const BoundNot&>(expr).child),
                        0.0, 1.0);
    case BoundExprKind::kIsNull: {
      const auto& test = static_cast<const BoundIsNull&>(expr);
      const auto stats = StatsOf(input, *test.child);
      const double nulls =
          stats && stats->null_fraction >= 0 ? stats->null_fraction : kNullSelectivity;
      return test.negated ? 1 - nulls : nulls;
    }
    case BoundExprKind::kInList: {
      const auto& in = static_cast<const BoundInList&>(expr);
      std::vector<Value> constants;
      for (const auto& item : in.list) {
        auto value = ConstantOf(*item);
        if (!value) return kFilterSelectivity;
        constants.push_back(std::move(*value));
      }
      return EqualitySelectivity(input, *in.value, constants);
    }
    case BoundExprKind::kFunction: {
      const auto& function = static_cast<const BoundFunction&>(expr);
      const std::string& name = function.function.name;
      if (function.args.size() != 2) return kFilterSelectivity;
      if (name == "=" || name == "<>" || name == "!=") {
        for (size_t side = 0; side < 2; side++) {
          auto value = ConstantOf(*function.args[1 - side]);
          if (!value) continue;
          const double equal = EqualitySelectivity(input, *function.args[side], {*value});
          return name == "=" ? equal : std::max(0.0, 1 - equal);
        }
        return kFilterSelectivity;
      }
      const BoundExpr* column = nullptr;
      std::string op;
      std::optional<Value> constant;
      if (AsRangeBound(expr, &column, &op, &constant)) return EstimateSelectivity(input, {&expr});
      return kFilterSelectivity;
    }
    default:
      return kFilterSelectivity;
  }
}

/// Rows of the scans below `op` before any filter and the fraction of them `op` keeps.
double KeptFraction(const LogicalOperator& op) {
  const double base = BaseRows(op);
  if (base <= 0 || op.estimated_rows < 0) return 1;
  return std::clamp(op.estimated_rows / base, 0.0, 1.0);
}

// The number of distinct partition-value combinations when every group of `agg` traces to a
// partition column of one scan, else -1.
double PartitionGroups(LogicalAggregate& agg) {
  if (agg.groups.empty()) return -1;
  const LogicalGet* get = nullptr;
  std::vector<size_t> columns;
  for (const auto& group : agg.groups) {
    if (group->kind != BoundExprKind::kColumnRef) return -1;
    const auto traced =
        TraceToSource(*agg.children[0], static_cast<BoundColumnRef&>(*group).binding);
    if (!traced) return -1;
    const auto& dataset = *traced->get->dataset;
    if (static_cast<size_t>(traced->column_id) < dataset.num_file_columns()) return -1;
    if (get && get != traced->get) return -1;
    get = traced->get;
    columns.push_back(static_cast<size_t>(traced->column_id) - dataset.num_file_columns());
  }
  std::set<std::vector<std::string>> distinct;
  for (size_t p = 0; p < get->dataset->num_partitions(); p++) {
    const std::vector<Value>& values = get->dataset->partition_values(p);
    std::vector<std::string> key;
    for (size_t c : columns)
      key.push_back(values[c].ToString());
    distinct.insert(std::move(key));
  }
  return static_cast<double>(distinct.size());
}

double AggregateRows(LogicalAggregate& agg, double input_rows) {
  if (agg.groups.empty()) return 1;
  // The product of the group keys' NDVs when all are known, else a tenth of the input.
  double groups = 1;
  for (const auto& group : agg.groups) {
    const double distinct = EstimateDistinct(*agg.children[0], *group);
    if (distinct < 0) {
      groups = -1;
      break;
    }
    groups *= std::max(1.0, distinct);
  }
  double rows = groups >= 0 ? std::min(input_rows, groups) : std::max(1.0, input_rows / 10);
  // Grouping on partition columns: at most as many groups as their distinct combinations.
  const double partitions = PartitionGroups(agg);
  if (partitions > 0) rows = std::min(rows, partitions);
  return rows;
}

// The rows (`rows`) of the kept side (the left one for SEMI, the right for RIGHT_SEMI) whose
// key the other side holds: NDV other / NDV kept when both are known.
double SemiJoinRows(LogicalJoin& join, bool left_kept, double rows) {
  LogicalOperator& kept = *join.children[left_kept ? 0 : 1];
  LogicalOperator& other = *join.children[left_kept ? 1 : 0];
  if (join.conditions.size() == 1) {
    const auto& c = join.conditions[0];
    const double ndv_kept = EstimateDistinct(kept, left_kept ? *c.left : *c.right);
    const double ndv_other = EstimateDistinct(other, left_kept ? *c.right : *c.left);
    if (ndv_kept > 0 && ndv_other >= 0) return rows * std::min(1.0, ndv_other / ndv_kept);
  }
  return rows * KeptFraction(other);
}

double JoinRows(LogicalJoin& join, double left, double right) {
  LogicalOperator& l = *join.children[0];
  LogicalOperator& r = *join.children[1];
  // Several keys are usually correlated (ticket and item of one sale): the most selective one
  // stands for all of them rather than their product.
  double selectivity = 1;
  for (const auto& condition : join.conditions) {
    selectivity =
        std::min(selectivity, EstimateKeySelectivity(l, *condition.left, r, *condition.right));
  }
  if (join.residual && (join.join_kind == JoinKind::kInner || join.join_kind == JoinKind::kCross))
    selectivity *= EstimateSelectivity(join, {join.residual.get()});
  const double inner = left * right * selectivity;
  switch (join.join_kind) {
    case JoinKind::kInner:
    case JoinKind::kCross:
      return inner;
    case JoinKind::kLeft:
      return std::max(inner, left);
    case JoinKind::kRight:
      return std::max(inner, right);
    case JoinKind::kFull:
      return std::max(inner, std::max(left, right));
    case JoinKind::kSemi:
      return SemiJoinRows(join, true, left);
    case JoinKind::kRightSemi:
      return SemiJoinRows(join, false, right);
    case JoinKind::kRightAnti:
      return right;
    default:  // anti and mark joins: at most the left side
      return left;
  }
}

}  // namespace

double BaseRows(const LogicalOperator& op) {
  if (op.type == LogicalOperatorType::kGet)
    return static_cast<double>(static_cast<const LogicalGet&>(op).dataset->total_rows());
  double rows = -1;
  for (const auto& child : op.children)
    rows = std::max(rows, BaseRows(*child));
  return rows;
}

void FlattenConjunction(const BoundExpr& expr, std::vector<const BoundExpr*>& out) {
  if (expr.kind == BoundExprKind::kConjunction &&
      static_cast<const BoundConjunction&>(expr).is_and) {
    for (const auto& child : static_cast<const BoundConjunction&>(expr).children)
      FlattenConjunction(*child, out);
    return;
  }
  out.push_back(&expr);
}

double ScanColumnDistinct(const LogicalGet& get, int column_id) {
  return ScanColumnStats(get, column_id).distinct;
}

double EstimateSelectivity(LogicalOperator& input, const std::vector<const BoundExpr*>& conjuncts) {
  std::vector<const BoundExpr*> flat;
  for (const BoundExpr* conjunct : conjuncts)
    FlattenConjunction(*conjunct, flat);
  // Range bounds on one column form one range (BETWEEN is two of them), the rest multiply.
  std::vector<Range> ranges;
  double selectivity = 1;
  for (const BoundExpr* conjunct : flat) {
    const BoundExpr* column = nullptr;
    std::string op;
    std::optional<Value> constant;
    if (!AsRangeBound(*conjunct, &column, &op, &constant)) {
      selectivity *= PredicateSelectivity(input, *conjunct);
      continue;
    }
    const auto& binding = static_cast<const BoundColumnRef*>(column)->binding;
    Range* range = nullptr;
    for (auto& r : ranges) {
      if (static_cast<const BoundColumnRef*>(r.column)->binding == binding) range = &r;
    }
    if (!range) {
      ranges.push_back({});
      range = &ranges.back();
      range->column = column;
    }
    const auto value = Numeric(*constant);
    if (op == ">" || op == ">=") {
      range->AddLow(value, op == ">=");
    } else {
      range->AddHigh(value, op == "<=");
    }
  }
  for (const auto& range : ranges)
    selectivity *= RangeSelectivity(input, range);
  return std::clamp(selectivity, 0.0, 1.0);
}

double EstimateDistinct(LogicalOperator& op, const BoundExpr& key) {
  const auto referenced = ReferencedBindings(key);
  if (referenced.size() != 1) return -1;
  const auto traced = TraceToSource(op, referenced[0]);
  if (!traced) return -1;
  const ColumnStats stats = ScanColumnStats(*traced->get, traced->column_id);
  if (stats.distinct < 0) return -1;
  return op.estimated_rows >= 0 ? std::min(stats.distinct, std::max(1.0, op.estimated_rows))
                                : stats.distinct;
}

double EstimateKeySelectivity(LogicalOperator& left, const BoundExpr& left_key,
                              LogicalOperator& right, const BoundExpr& right_key) {
  double ndv_left = EstimateDistinct(left, left_key);
  double ndv_right = EstimateDistinct(right, right_key);
  const double rows_left = std::max(1.0, left.estimated_rows);
  const double rows_right = std::max(1.0, right.estimated_rows);
  if (ndv_left < 0 && ndv_right < 0) {
    // The dimension is the side whose scans are smaller before filters (the fact may be the
    // smaller side after joins with selective dimensions); without a scan below it (VALUES)
    // the side estimated smaller, taken whole: the join keeps the other side's rows.
    const double base_left = BaseRows(left), base_right = BaseRows(right);
    const bool bases = base_left > 0 && base_right > 0;
    const bool left_is_dimension = bases ? base_left <= base_right : rows_left <= rows_right;
    const double base = left_is_dimension ? base_left : base_right;
    return 1 / std::max(1.0, base > 0 ? base : std::min(rows_left, rows_right));
  }
  if (ndv_left < 0) ndv_left = rows_left;
  if (ndv_right < 0) ndv_right = rows_right;
  return 1 / std::max(1.0, std::max(ndv_left, ndv_right));
}

double EstimateSubtree(LogicalOperator& op) {
  std::vector<double> child_rows;
  for (auto& child : op.children)
    child_rows.push_back(EstimateSubtree(*child));
  double rows = 1;
  switch (op.type) {
    case LogicalOperatorType::kGet: {
      auto& get = static_cast<LogicalGet&>(op);
      std::vector<const BoundExpr*> filters;
      for (const auto& filter : get.filters)
        filters.push_back(filter.get());
      rows = static_cast<double>(get.dataset->total_rows()) * EstimateSelectivity(get, filters);
      break;
    }
    case LogicalOperatorType::kDummyScan:
      rows = 1;
      break;
    case LogicalOperatorType::kValues:
      rows = static_cast<double>(static_cast<LogicalValues&>(op).rows.size());
      break;
    case LogicalOperatorType::kRange:
      rows = static_cast<double>(static_cast<LogicalRange&>(op).count);
      break;
    case LogicalOperatorType::kFilter: {
      std::vector<const BoundExpr*> conditions;
      for (const auto& condition : static_cast<LogicalFilter&>(op).conditions)
        conditions.push_back(condition.get());
      rows = child_rows[0] * EstimateSelectivity(*op.children[0], conditions);
      break;
    }
    case LogicalOperatorType::kAggregate:
      rows = AggregateRows(static_cast<LogicalAggregate&>(op), child_rows[0]);
      break;
    case LogicalOperatorType::kJoin:
      rows = JoinRows(static_cast<LogicalJoin&>(op), child_rows[0], child_rows[1]);
      break;
    case LogicalOperatorType::kLimit: {
      auto& limit = static_cast<LogicalLimit&>(op);
      rows = limit.limit < 0 ? child_rows[0]
                             : std::min<double>(child_rows[0], static_cast<double>(limit.limit));
      break;
    }
    case LogicalOperatorType::kSetOperation:
      // INTERSECT keeps rows both inputs hold and EXCEPT rows of the first: neither more than
      // that input (taken as a UNION's sum, TPC-DS q08's 3-row INTERSECT was estimated at
      // 167,268 rows and made the 537,559-row side of the join above it the build side).
      switch (static_cast<LogicalSetOperation&>(op).kind) {
        case SetOperationKind::kIntersect:
          rows = std::min(child_rows[0], child_rows[1]);
          break;
        case SetOperationKind::kExcept:
          rows = child_rows[0];
          break;
        default:
          rows = child_rows[0] + child_rows[1];
      }
      break;
    case LogicalOperatorType::kMaterializedCte: {
      // The references read the definition's rows: estimate the query again now they are known.
      const auto& cte = static_cast<LogicalMaterializedCte&>(op);
      SetCteScanRows(*op.children[1], cte.cte_index, child_rows[0]);
      rows = EstimateSubtree(*op.children[1]);
      break;
    }
    case LogicalOperatorType::kCteScan:
      rows = static_cast<LogicalCteScan&>(op).definition_rows;
      break;
    default:
      rows = child_rows.empty() ? 1 : child_rows[0];
  }
  // Estimates below one row only mislead the comparisons made with them.
  op.estimated_rows = std::max(rows, 1.0);
  return op.estimated_rows;
}

void EstimateCardinalities(LogicalOperatorPtr& plan, const Settings&) {
  EstimateSubtree(*plan);
}

}  // namespace shears
