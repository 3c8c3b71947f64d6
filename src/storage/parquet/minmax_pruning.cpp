#include "storage/parquet/minmax_pruning.h"

#include <utility>

#include "storage/partition_pruning.h"

namespace shears {

namespace {

// column <op> constant, with the op mirrored when the constant is on the left.
bool CompareMayMatch(const std::string& op, const parquet::ColumnChunkStatistics& s,
                     const Value& constant) {
  if (constant.is_null()) return false;  // a comparison with NULL is never TRUE
  if (s.num_values > 0 && s.null_count && *s.null_count == s.num_values) return false;
  if (!s.min || !s.max) return true;
  if (s.min->type().physical() != constant.type().physical() ||
      s.min->type().scale() != constant.type().scale()) {
    return true;  // different representations: do not guess
  }
  const int cmp_min = constant.Compare(*s.min);  // constant vs min
  const int cmp_max = constant.Compare(*s.max);
  if (op == "=") return cmp_min >= 0 && cmp_max <= 0;
  if (op == "<") return s.min->Compare(constant) < 0;  // some x < c  <=> min < c
  if (op == "<=") return s.min->Compare(constant) <= 0;
  if (op == ">") return s.max->Compare(constant) > 0;
  if (op == ">=") return s.max->Compare(constant) >= 0;
  if (op == "<>") return !(cmp_min == 0 && cmp_max == 0);
  return true;
}

std::string Mirror(const std::string& op) {
  if (op == "<") return ">";
  if (op == "<=") return ">=";
  if (op == ">") return "<";
  if (op == ">=") return "<=";
  return op;
}

}  // namespace

bool StatsMayMatch(const BoundExpr& predicate, const StatsLookup& stats) {
  switch (predicate.kind) {
    case BoundExprKind::kConjunction: {
      const auto& c = static_cast<const BoundConjunction&>(predicate);
      if (c.is_and) {
        for (const auto& child : c.children) {
          if (!StatsMayMatch(*child, stats)) return false;
        }
        return true;
      }
      for (const auto& child : c.children) {
        if (StatsMayMatch(*child, stats)) return true;
      }
      return false;
    }
    case BoundExprKind::kConstant: {
      const auto& value = static_cast<const BoundConstant&>(predicate).value;
      return !(value.type().id() == TypeId::kBoolean && (value.is_null() || !value.GetBoolean()));
    }
    case BoundExprKind::kIsNull: {
      const auto& n = static_cast<const BoundIsNull&>(predicate);
      if (n.child->kind != BoundExprKind::kReference) return true;
      const auto* s = stats(static_cast<const BoundReference&>(*n.child).index);
      if (!s || !s->null_count) return true;
      if (n.negated) return *s->null_count < s->num_values;  // IS NOT NULL
      return *s->null_count > 0;                             // IS NULL
    }
    case BoundExprKind::kFunction: {
      const auto& f = static_cast<const BoundFunction&>(predicate);
      if (f.args.size() != 2) return true;
      const std::string& op = f.function.name;
      if (op != "=" && op != "<" && op != "<=" && op != ">" && op != ">=" && op != "<>")
        return true;
      const BoundExpr* left = f.args[0].get();
      const BoundExpr* right = f.args[1].get();
      std::string effective = op;
      if (left->kind == BoundExprKind::kConstant && right->kind == BoundExprKind::kReference) {
        std::swap(left, right);
        effective = Mirror(op);
      }
      if (left->kind != BoundExprKind::kReference || right->kind != BoundExprKind::kConstant) {
        return true;
      }
      const auto* s = stats(static_cast<const BoundReference&>(*left).index);
      if (!s) return true;
      return CompareMayMatch(effective, *s, static_cast<const BoundConstant&>(*right).value);
    }
    default:
      return true;
  }
}

std::optional<parquet::ColumnChunkStatistics> ComputedKeyStatistics(
    const parquet::ColumnChunkStatistics& column, const ComputedRuntimeKey& key) {
  if (!key.expr || key.monotone == 0) return std::nullopt;
  parquet::ColumnChunkStatistics mapped;
  mapped.num_values = column.num_values;
  mapped.null_count = column.null_count;
  if (!column.min || !column.max) return mapped;
  auto lo = MapPartitionValue(*key.expr, *column.min);
  auto hi = MapPartitionValue(*key.expr, *column.max);
  if (!lo || !hi || lo->is_null() || hi->is_null()) return mapped;
  if (key.monotone < 0) std::swap(lo, hi);
  // A bound the expression maps out of order would say the range is empty: tell nothing.
  if (lo->type() != hi->type() || lo->Compare(*hi) > 0) return mapped;
  mapped.min = std::move(lo);
  mapped.max = std::move(hi);
  return mapped;
}

bool RuntimeFilterMayMatch(const RuntimeFilter& filter, const std::vector<idx_t>& columns,
                           const ComputedRuntimeKey& computed, const StatsLookup& lookup) {
  for (size_t k = 0; k < columns.size(); k++) {
    const parquet::ColumnChunkStatistics* stats = lookup(columns[k]);
    if (!stats) continue;
    std::optional<parquet::ColumnChunkStatistics> key_stats;
    if (computed.expr) {
      key_stats = ComputedKeyStatistics(*stats, computed);
      if (!key_stats) continue;
      stats = &*key_stats;
    }
    if (stats->null_count && *stats->null_count == stats->num_values && stats->num_values > 0)
      return false;  // only NULL keys: none can join
    if (stats->min && stats->max && !filter.RangeMayMatch(k, *stats->min, *stats->max))
      return false;
  }
  return true;
}

std::vector<idx_t> RuntimeKeyColumns(const BoundRuntimeFilter& conjunct) {
  std::vector<idx_t> columns;
  for (const auto& column : conjunct.columns)
    columns.push_back(static_cast<const BoundReference&>(*column).index);
  return columns;
}

ComputedRuntimeKey RuntimeComputedKey(const BoundRuntimeFilter& conjunct) {
  return {conjunct.key_expr.get(), conjunct.monotone};
}

}  // namespace shears
