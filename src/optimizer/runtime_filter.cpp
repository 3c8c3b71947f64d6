// runtime_filter: for a hash join that drops probe rows without a match, the build side's keys
// (an exact set, a bloom filter, a min/max range: chosen at run time) filter the rows of the
// scan the probe key comes from, deep below the join: row groups are skipped by statistics and
// rows are dropped right after they are read, before any join sees them (FLIP-324 injects the
// filter just below the join; here it goes as deep as the key can be traced).
//
//   JOIN INNER ON ss_item_sk = i_item_sk      produces runtime filter #2 from i_item_sk
//     JOIN INNER ON ss_sold_date_sk = d_date_sk
//       GET store_sales  runtime_filter #2: ss_item_sk
//       ...
//     FILTER i_category = 'Music'
//       GET item
//
// Legal (dynfilter/join_legality.h) for INNER, SEMI and RIGHT joins (the probe is the left side
// here; RIGHT keeps only unmatched build rows). Keys are traced transitively: through an inner join
// on `key = other`, `other`'s scan is filtered too. Conditions compared with IS NOT DISTINCT FROM
// are left out (NULL matches there). Conditions that trace to the same scan form one filter on
// their combined key. A key already pruned by a dynamic partition filter of the same join gets no
// runtime filter: partition pruning is exact and costs nothing per row.
//
// In `auto` mode a filter is planned when the build side is estimated small enough
// (runtime_filter.max_build_size rows), the scan large enough (runtime_filter.min_probe_size
// rows read: RowsRead) and the estimated filter ratio 1 - build rows / scan rows at least
// runtime_filter.min_filter_ratio; the join revisits the decision with what its build side
// really produced, also against the keys the probe column may hold (its NDV, or the rows of
// the dimension the build key is a column of): a build side holding most of the key domain
// drops few rows, however small it is. `always` plans every legal filter, `off` none.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "common/error.h"
#include "common/numeric_cast.h"
#include "dynfilter/join_legality.h"
#include "optimizer/cardinality.h"
#include "optimizer/optimizer.h"

namespace shears {

namespace {

struct Options {
  bool always = false;
  double max_build_rows = 0;
  double min_probe_rows = 0;
  double min_filter_ratio = 0;
  uint64_t max_exact_keys = 0;
  CteDefinitions ctes;  // only to say why a key reaching into a CTE gets no filter
};

// The rows a scan reads, which its filter may spare: its output estimate counts only those
// passing its own row filters, while files and row groups skipped by the join's keys spare
// all they hold. Without a filter on a partition column every row of the table is read.
double RowsRead(const LogicalGet& get) {
  if (get.estimated_rows < 0) return get.estimated_rows;
  for (const auto& filter : get.filters) {
    for (const auto& b : ReferencedBindings(*filter)) {
      if (b.table_index == get.table_index && b.column_index >= get.dataset->num_file_columns())
        return get.estimated_rows;
    }
  }
  return std::max(get.estimated_rows, static_cast<double>(get.dataset->total_rows()));
}

std::string Rows(double rows) {
  return rows < 0 ? "unknown" : FormatEstimate(rows);
}

bool IsIntegerType(const LogicalType& type) {
  return type == LogicalType::Integer() || type == LogicalType::Bigint();
}

std::optional<int64_t> IntegerConstant(const BoundExpr& expr) {
  const BoundExpr* e = &expr;
  // A literal widened to BIGINT keeps its value (a narrowing cast might fail instead).
  if (e->kind == BoundExprKind::kCast && e->type == LogicalType::Bigint())
    e = static_cast<const BoundCast*>(e)->child.get();
  if (e->kind != BoundExprKind::kConstant || !IsIntegerType(e->type)) return std::nullopt;
  const Value& value = static_cast<const BoundConstant*>(e)->value;
  if (value.is_null()) return std::nullopt;
  return value.GetInt64();
}

// The inverse of `key` (over #0, the scan column of `column_type`) when it is made of CASTs
// between INTEGER and BIGINT and + / - an integer constant, maybe all cast to VARCHAR: key =
// f(x) has the one solution x = f^-1(key), where every step stays in its operand's type (or
// f(x) would have failed), and a text is the canonical text of one integer at most.
std::optional<RuntimeFilterKeyInverse> InvertKey(const BoundExpr& key,
                                                 const LogicalType& column_type) {
  RuntimeFilterKeyInverse inverse;
  inverse.column_type = column_type;
  inverse.description = key.ToString();
  const BoundExpr* node = &key;
  if (node->kind == BoundExprKind::kCast && node->type == LogicalType::Varchar() &&
      IsIntegerType(static_cast<const BoundCast*>(node)->child->type)) {
    inverse.from_text = true;
    node = static_cast<const BoundCast*>(node)->child.get();
  }
  while (node->kind != BoundExprKind::kReference) {
    if (!IsIntegerType(node->type)) return std::nullopt;
    const BoundExpr* operand = nullptr;
    RuntimeFilterKeyInverse::Step step;
    if (node->kind == BoundExprKind::kCast) {
      operand = static_cast<const BoundCast*>(node)->child.get();
    } else if (node->kind == BoundExprKind::kFunction) {
      const auto& function = static_cast<const BoundFunction&>(*node);
      if (function.args.size() != 2) return std::nullopt;
      const auto& name = function.function.name;
      const auto right = IntegerConstant(*function.args[1]);
      const auto left = IntegerConstant(*function.args[0]);
      if (name == "+" && right) {
        operand = function.args[0].get();
        step.add = *right;
      } else if (name == "+" && left) {
        operand = function.args[1].get();
        step.add = *left;
      } else if (name == "-" && right) {
        operand = function.args[0].get();
        step.add = *right;
      } else {
        return std::nullopt;
      }
      // Undoing x + c subtracts c (the overflow of -c itself included).
      if (name == "+") {
        if (step.add == INT64_MIN) return std::nullopt;
        step.add = -step.add;
      }
    } else {
      return std::nullopt;
    }
    if (!IsIntegerType(operand->type)) return std::nullopt;
    step.fits_int32 = operand->type == LogicalType::Integer();
    inverse.steps.push_back(step);
    node = operand;
  }
  if (node->type != column_type || !IsIntegerType(column_type)) return std::nullopt;
  return inverse;
}

// The sign of a numeric constant (integer or DECIMAL, through casts between numeric types),
// or nullopt when `expr` is none or NULL.
std::optional<int> ConstantSign(const BoundExpr& expr) {
  const BoundExpr* e = &expr;
  while (e->kind == BoundExprKind::kCast && e->type.IsNumeric())
    e = static_cast<const BoundCast*>(e)->child.get();
  if (e->kind != BoundExprKind::kConstant) return std::nullopt;
  const Value& value = static_cast<const BoundConstant*>(e)->value;
  const TypeId id = value.type().id();
  if (value.is_null() ||
      (id != TypeId::kInteger && id != TypeId::kBigint && id != TypeId::kDecimal))
    return std::nullopt;
  const std::string text = value.ToString();
  if (text.find_first_of("123456789") == std::string::npos) return 0;
  return text[0] == '-' ? -1 : 1;
}

bool OrderedScalar(const LogicalType& type) {
  switch (type.id()) {
    case TypeId::kInteger:
    case TypeId::kBigint:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTimestamp:
      return true;
    default:
      return false;
  }
}

// Whether `f` is a calendar function non-decreasing in its DATE or TIMESTAMP argument (the
// only one not constant): the year (extract, date_part, year(), isoyear), the decade, the epoch,
// and date_trunc to a unit of time. Never failing on a date, so strict.
bool CalendarMonotone(const BoundFunction& f) {
  static const std::set<std::string> kOneArgument = {"year", "isoyear", "decade", "epoch"};
  static const std::set<std::string> kExtract = {"extract", "date_part", "datepart"};
  static const std::set<std::string> kTrunc = {"date_trunc", "datetrunc"};
  static const std::set<std::string> kExtractFields = {
      "year", "years", "y", "yr", "yrs", "isoyear", "decade", "decades", "epoch"};
  static const std::set<std::string> kTruncUnits = {
      "year",    "years",   "quarter",     "quarters",     "month",       "months",       "week",
      "weeks",   "day",     "days",        "hour",         "hours",       "minute",       "minutes",
      "second",  "seconds", "millisecond", "milliseconds", "microsecond", "microseconds", "decade",
      "decades", "century", "centuries",   "millennium",   "millennia"};
  const std::string& name = f.function.name;
  const BoundExpr* operand = nullptr;
  if (f.args.size() == 1 && kOneArgument.count(name)) {
    operand = f.args[0].get();
  } else if (f.args.size() == 2 && (kExtract.count(name) || kTrunc.count(name))) {
    if (f.args[0]->kind != BoundExprKind::kConstant) return false;
    const Value& field = static_cast<const BoundConstant&>(*f.args[0]).value;
    if (field.is_null() || field.type().id() != TypeId::kVarchar) return false;
    std::string unit;
    for (char c : field.GetString()) {
      if (c != ' ') unit.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c);
    }
    if (!(kExtract.count(name) ? kExtractFields : kTruncUnits).count(unit)) return false;
    operand = f.args[1].get();
  } else {
    return false;
  }
  return operand->type.id() == TypeId::kDate || operand->type.id() == TypeId::kTimestamp;
}

// Whether `key` (over #0) is monotone in its column and strict (NULL only from NULL; a value it
// fails on fails the query where the join computes it): +1 non-decreasing, -1 non-increasing, 0
// when not known to be either. Casts between integers, DECIMALs and to floating point, DATE to
// TIMESTAMP and back; + or - a constant, a constant minus it, times or divided by a nonzero
// constant, negation; the calendar functions above. Floating point operands are left out (NaN
// has no place in the order).
int Monotonicity(const BoundExpr& key) {
  if (key.kind == BoundExprKind::kReference) return OrderedScalar(key.type) ? 1 : 0;
  if (key.kind == BoundExprKind::kCast) {
    const auto& cast = static_cast<const BoundCast&>(key);
    const LogicalType& from = cast.child->type;
    const bool numeric = OrderedScalar(from) && from.IsNumeric() &&
                         (key.type.IsNumeric() || key.type.IsFloatingPoint());
    const bool temporal = (from.id() == TypeId::kDate || from.id() == TypeId::kTimestamp) &&
                          (key.type.id() == TypeId::kDate || key.type.id() == TypeId::kTimestamp);
    return numeric || temporal ? Monotonicity(*cast.child) : 0;
  }
  if (key.kind != BoundExprKind::kFunction) return 0;
  const auto& function = static_cast<const BoundFunction&>(key);
  const std::string& name = function.function.name;
  if (!OrderedScalar(key.type) && !key.type.IsFloatingPoint()) return 0;
  if (CalendarMonotone(function)) return Monotonicity(*function.args.back());
  if (function.args.size() == 1) return name == "-" ? -Monotonicity(*function.args[0]) : 0;
  if (function.args.size() != 2) return 0;
  const auto left = ConstantSign(*function.args[0]);
  const auto right = ConstantSign(*function.args[1]);
  if (right && !left) {
    const int m = Monotonicity(*function.args[0]);
    if (name == "+" || name == "-") return m;
    if (name == "*") return *right * m;
    if ((name == "/" || name == "//") && *right != 0) return *right * m;
    return 0;
  }
  if (left && !right) {
    const int m = Monotonicity(*function.args[1]);
    if (name == "+") return m;
    if (name == "-") return -m;
    if (name == "*") return *left * m;
    return 0;
  }
  return 0;
}

// The largest id dynamic partition pruning gave a filter: its producers' (key sets and bounds)
// and the ORs of a CTE's scan, which have none.
int MaxFilterId(const LogicalOperator& op) {
  int id = 0;
  if (op.type == LogicalOperatorType::kJoin) {
    const auto& join = static_cast<const LogicalJoin&>(op);
    for (const auto& [producer, condition] : join.dynamic_filter_producers)
      id = std::max(id, producer);
    for (const auto& [producer, expr] : join.dynamic_bound_producers)
      id = std::max(id, producer);
  }
  if (op.type == LogicalOperatorType::kGet) {
    for (const auto& filter : static_cast<const LogicalGet&>(op).dynamic_filters) {
      id = std::max(id, filter.filter_id);
      for (int producer : filter.ProducerIds())
        id = std::max(id, producer);
    }
  }
  for (const auto& child : op.children)
    id = std::max(id, MaxFilterId(*child));
  return id;
}

// Whether `get` is `op` or below it through filters and projections only.
bool DirectlyBelow(const LogicalOperator& op, const LogicalOperator* get) {
  if (&op == get) return true;
  if (op.type != LogicalOperatorType::kFilter && op.type != LogicalOperatorType::kProjection)
    return false;
  return DirectlyBelow(*op.children[0], get);
}

// The distinct keys the probe column may hold, for the join to weigh the keys its build side
// produced against: the column's NDV when statistics know it, else the rows of the table the
// build key is a plain column of (a star schema's dimension, keyed by it); -1 when unknown.
double KeyDomain(LogicalJoin& join, const LogicalGet& probe, int probe_column, size_t condition) {
  const double probe_distinct = ScanColumnDistinct(probe, probe_column);
  if (probe_distinct > 0) return probe_distinct;
  const auto referenced = ReferencedBindings(*join.conditions[condition].right);
  if (referenced.size() != 1 || join.conditions[condition].right->kind != BoundExprKind::kColumnRef)
    return -1;
  const auto source = TraceToSource(*join.children[1], referenced[0]);
  if (!source || !source->direct || source->branch || source->key_expr) return -1;
  const double build_distinct = ScanColumnDistinct(*source->get, source->column_id);
  return build_distinct > 0 ? build_distinct
                            : static_cast<double>(source->get->dataset->total_rows());
}

// The spec of `join`'s filter on `conditions` (mapped back through `inverse`), shared by every
// target keyed by the same conditions; created the first time.
RuntimeFilterSpec& SpecFor(LogicalJoin& join, const std::vector<size_t>& conditions,
                           const std::optional<RuntimeFilterKeyInverse>& inverse,
                           const Options& options, int& next_id) {
  for (auto& existing : join.runtime_filter_producers) {
    const bool same_inverse = existing.inverse.has_value() == inverse.has_value() &&
                              (!inverse || (existing.inverse->description == inverse->description &&
                                            existing.inverse->column_type == inverse->column_type));
    if (existing.keys == conditions && same_inverse) return existing;
  }
  RuntimeFilterSpec created;
  created.filter_id = next_id++;
  created.keys = conditions;
  created.inverse = inverse;
  created.limits.max_keys = SaturatingCast<uint64_t>(options.max_build_rows);
  created.limits.max_exact_keys = options.max_exact_keys;
  created.always = options.always;
  created.min_filter_ratio = options.min_filter_ratio;
  created.probe_is_direct = true;
  join.runtime_filter_producers.push_back(std::move(created));
  return join.runtime_filter_producers.back();
}

// A join key reaching a scan column inside a materialized CTE's query through reference
// `reference` (ResolveCteUnions).
struct CteUnionTarget {
  LogicalJoin* join = nullptr;
  size_t condition = 0;
  const LogicalCteScan* reference = nullptr;
  LogicalGet* get = nullptr;
  int column = -1;
};

// `in_recursive`: inside a recursive CTE's terms, which run in executions of their own: their
// joins' keys go into no union (a CTE materialized outside them could not wait for them).
void Visit(LogicalOperator& op, int& next_id, const Options& options,
           std::vector<CteUnionTarget>& union_targets, bool in_recursive = false) {
  const bool recursive = in_recursive || (op.type == LogicalOperatorType::kSetOperation &&
                                          static_cast<LogicalSetOperation&>(op).kind ==
                                              SetOperationKind::kRecursiveUnion);
  for (auto& child : op.children)
    Visit(*child, next_id, options, union_targets, recursive);
  if (op.type != LogicalOperatorType::kJoin) return;
  auto& join = static_cast<LogicalJoin&>(op);
  if (join.conditions.empty()) return;
  const ProbeFilterLegality legality = ProbeSideFilterLegality(join.FilterShape(), false);
  if (!legality.keep) {
    join.runtime_filter_note = legality.reason;
    return;
  }
  // Group the usable conditions by the scan their probe key reaches.
  struct Key {
    size_t condition;
    int column;
    std::optional<RuntimeFilterKeyInverse> inverse;
    std::shared_ptr<const BoundExpr> computed;  // the key computed from the column, tested so
    int monotone = 0;
  };
  // In the order the conditions name the scans, not by address: plans (filter ids, the
  // reasons EXPLAIN gives) must not depend on where the heap put the scans, so that
  // processes planning the same query alike (shears --distributed) get the same plan.
  std::vector<std::pair<LogicalGet*, std::vector<Key>>> by_scan;
  std::vector<std::pair<LogicalCteScan*, std::vector<Key>>> by_cte;
  std::string reason;
  for (size_t i = 0; i < join.conditions.size(); i++) {
    const auto& condition = join.conditions[i];
    if (!ConditionFiltersKeys(condition.null_equal)) {
      reason = "keys compared with IS NOT DISTINCT FROM";
      continue;
    }
    const auto referenced = ReferencedBindings(*condition.left);
    if (referenced.size() != 1) {
      reason = "probe key " + condition.left->ToString() + " is not computed from one column";
      continue;
    }
    // A file column of a scan inside a materialized CTE's query, reached through one reference:
    // a candidate for the union of every reference's keys (partition columns have dynamic
    // partition pruning's OR).
    if (!recursive) {
      for (const TracedColumn& traced :
           TraceToScans(*join.children[0], referenced[0], condition.left.get(), &options.ctes)) {
        if (!traced.cte_scan || traced.key_expr ||
            static_cast<size_t>(traced.column_id) >= traced.get->dataset->num_file_columns() ||
            traced.get->dataset->columns()[static_cast<size_t>(traced.column_id)].type !=
                condition.right->type) {
          continue;
        }
        union_targets.push_back({&join, i, traced.cte_scan, traced.get, traced.column_id});
      }
    }
    // A reference to a materialized CTE the key comes from as a plain column tests its rows.
    for (const TracedCteColumn& traced :
         TraceToCteScans(*join.children[0], referenced[0], condition.left.get())) {
      if (traced.key_expr) {
        reason = "probe key " + condition.left->ToString() + " is computed from CTE " +
                 traced.scan->name + "'s column";
        continue;
      }
      if (traced.scan->types[static_cast<size_t>(traced.column)] != condition.right->type) {
        reason = "key types differ: CTE " + traced.scan->name + "'s column is " +
                 traced.scan->types[static_cast<size_t>(traced.column)].ToString() +
                 ", build key " + condition.right->ToString() + " " +
                 condition.right->type.ToString();
        continue;
      }
      auto scan = std::find_if(by_cte.begin(), by_cte.end(),
                               [&](const auto& entry) { return entry.first == traced.scan; });
      if (scan == by_cte.end()) scan = by_cte.insert(by_cte.end(), {traced.scan, {}});
      scan->second.push_back({i, traced.column, std::nullopt, nullptr, 0});
    }
    const auto targets = TraceToScans(*join.children[0], referenced[0], condition.left.get());
    if (targets.empty()) {
      if (by_cte.empty())
        reason = "probe key " + condition.left->ToString() + " does not reach a scan";
      continue;
    }
    for (const TracedColumn& traced : targets) {
      const auto& column = traced.get->dataset->columns()[static_cast<size_t>(traced.column_id)];
      std::optional<RuntimeFilterKeyInverse> inverse;
      std::shared_ptr<const BoundExpr> computed;
      if (traced.key_expr) {
        // The filter holds key values: each key mapped back to the one column value computing
        // to it, so everything is tested on the column; else the scan computes the key (rows,
        // and statistics through a monotone computation).
        if (condition.right->type != traced.key_expr->type) {
          reason = "probe key " + condition.left->ToString() + " is computed from scan column " +
                   column.name + " by " + traced.key_expr->ToString() + " of another type";
          continue;
        }
        inverse = InvertKey(*traced.key_expr, column.type);
        if (!inverse) computed = traced.key_expr;
      } else if (column.type != condition.right->type) {
        reason = "key types differ: scan column " + column.name + " is " + column.type.ToString() +
                 ", build key " + condition.right->ToString() + " " +
                 condition.right->type.ToString();
        continue;
      }
      bool partition_pruned = false;
      for (const auto& f : traced.get->dynamic_filters) {
        for (const auto& [id, index] : join.dynamic_filter_producers)
          partition_pruned =
              partition_pruned || (f.filter_id == id && f.column_id == traced.column_id);
      }
      if (partition_pruned) {
        reason = "key " + condition.left->ToString() + " is pruned by partition";
        continue;
      }
      const int monotone = computed ? Monotonicity(*computed) : 0;
      auto scan = std::find_if(by_scan.begin(), by_scan.end(),
                               [&](const auto& entry) { return entry.first == traced.get; });
      if (scan == by_scan.end()) scan = by_scan.insert(by_scan.end(), {traced.get, {}});
      scan->second.push_back(
          {i, traced.column_id, std::move(inverse), std::move(computed), monotone});
    }
  }
  // A filter of several keys holds key tuples as the join has them, of the column values: the
  // plain keys of a scan share one filter, each key mapped back or computed gets its own (it is
  // tested on its own column, or on values the scan computes, and pruned through its bounds).
  std::vector<std::pair<LogicalGet*, std::vector<Key>>> filters;
  for (auto& [get, keys] : by_scan) {
    std::vector<Key> plain;
    for (auto& key : keys) {
      if (!key.inverse && !key.computed) plain.push_back(std::move(key));
    }
    if (!plain.empty()) filters.push_back({get, std::move(plain)});
    for (auto& key : keys) {
      if (key.inverse || key.computed) filters.push_back({get, {std::move(key)}});
    }
  }
  const double build_rows = join.children[1]->estimated_rows;
  // Why a filter on `keys` would not pay in `auto` mode against a scan of `probe_rows`, or "".
  auto not_worth = [&](const std::string& scan_name, double probe_rows) -> std::string {
    if (options.always) return "";
    if (build_rows < 0 || build_rows > options.max_build_rows) {
      return fmt::format("build side estimated at {} rows, above runtime_filter.max_build_size {}",
                         Rows(build_rows), Rows(options.max_build_rows));
    }
    if (probe_rows < 0 || probe_rows < options.min_probe_rows) {
      return fmt::format("scan {} estimated at {} rows, below runtime_filter.min_probe_size {}",
                         scan_name, Rows(probe_rows), Rows(options.min_probe_rows));
    }
    const double ratio = probe_rows > 0 ? 1 - build_rows / probe_rows : 0;
    if (ratio < options.min_filter_ratio) {
      return fmt::format(
          "estimated filter ratio {:.2f} (1 - {} build rows / {} scan rows) below "
          "runtime_filter.min_filter_ratio {:.2f}",
          ratio, Rows(build_rows), Rows(probe_rows), options.min_filter_ratio);
    }
    return "";
  };
  auto spec_for = [&](const std::vector<Key>& keys) -> RuntimeFilterSpec& {
    std::vector<size_t> conditions;
    for (const auto& key : keys)
      conditions.push_back(key.condition);
    return SpecFor(join, conditions, keys[0].inverse, options, next_id);
  };
  auto keys_text = [&](const std::vector<Key>& keys) {
    std::string text;
    for (const auto& key : keys) {
      text += (text.empty() ? "" : " AND ") + join.conditions[key.condition].left->ToString() +
              " = " + join.conditions[key.condition].right->ToString();
    }
    return std::string("from JOIN ") + JoinKindName(join.join_kind) + " (" + text + ")";
  };
  for (auto& [get, keys] : filters) {
    const double probe_rows = RowsRead(*get);
    const std::string why = not_worth(get->table_name, probe_rows);
    if (!why.empty()) {
      reason = why;
      continue;
    }
    // Scans keyed by the same conditions (mapped back the same way) share one filter.
    const auto& inverse = keys[0].inverse;
    const size_t specs_before = join.runtime_filter_producers.size();
    RuntimeFilterSpec* spec = &spec_for(keys);
    if (join.runtime_filter_producers.size() > specs_before && keys.size() == 1 && !inverse &&
        !keys[0].computed)
      spec->key_domain = KeyDomain(join, *get, keys[0].column, keys[0].condition);
    spec->probe_rows = std::max(spec->probe_rows, probe_rows);
    spec->probe_is_direct = spec->probe_is_direct && DirectlyBelow(*join.children[0], get);
    RuntimeFilterTarget target;
    target.filter_id = spec->filter_id;
    for (const auto& key : keys)
      target.column_ids.push_back(key.column);
    target.description = keys_text(keys);
    if (inverse) target.description += ", keys mapped back through " + inverse->description;
    if (keys[0].computed) {
      target.key_expr = keys[0].computed;
      target.monotone = keys[0].monotone;
      target.description += ", keys computed by " + keys[0].computed->ToString() +
                            (keys[0].monotone ? " (monotone)" : " (rows only)");
    }
    get->runtime_filters.push_back(std::move(target));
  }
  // A reference to a materialized CTE tests the rows it reads with the same filter: they are
  // in memory already, so only what lies between it and this join is spared (the CTE's own
  // scans serve every reference).
  for (auto& [scan, keys] : by_cte) {
    const std::string why = not_worth("of CTE " + scan->name, scan->estimated_rows);
    if (!why.empty()) {
      reason = why;
      continue;
    }
    RuntimeFilterSpec& spec = spec_for(keys);
    spec.probe_rows = std::max(spec.probe_rows, scan->estimated_rows);
    spec.probe_is_direct = spec.probe_is_direct && DirectlyBelow(*join.children[0], scan);
    RuntimeFilterTarget target;
    target.filter_id = spec.filter_id;
    for (const auto& key : keys)
      target.column_ids.push_back(key.column);
    target.description = keys_text(keys);
    scan->runtime_filters.push_back(std::move(target));
  }
  if (join.runtime_filter_producers.empty()) join.runtime_filter_note = reason;
}

void CollectCteScans(LogicalOperator& op,
                     std::map<uint32_t, std::vector<const LogicalCteScan*>>& out) {
  if (op.type == LogicalOperatorType::kCteScan) {
    const auto& scan = static_cast<const LogicalCteScan&>(op);
    out[scan.cte_index].push_back(&scan);
  }
  for (auto& child : op.children)
    CollectCteScans(*child, out);
}

bool ReadsCte(const LogicalOperator& op, uint32_t cte_index) {
  if (op.type == LogicalOperatorType::kCteScan &&
      static_cast<const LogicalCteScan&>(op).cte_index == cte_index)
    return true;
  for (const auto& child : op.children) {
    if (ReadsCte(*child, cte_index)) return true;
  }
  return false;
}

// A scan inside a materialized CTE's query serves every reference: it may drop a row only when
// no reference's join keeps it. When each reference has a join whose key reaches the same file
// column, the scan gets one filter holding the union of their keys (the OR of their filters),
// which each join contributes to as it finishes its build (RuntimeFilterUnion); the executor
// runs those build sides before the CTE's query, or, when one cannot run first (it reads the
// CTE), the union is never complete and the scan reads everything.
void ResolveCteUnions(LogicalOperator& plan, const std::vector<CteUnionTarget>& targets,
                      const Options& options, int& next_id) {
  if (targets.empty()) return;
  std::map<uint32_t, std::vector<const LogicalCteScan*>> references;
  CollectCteScans(plan, references);
  std::vector<std::pair<LogicalGet*, int>> columns;
  for (const auto& t : targets) {
    if (std::find(columns.begin(), columns.end(), std::make_pair(t.get, t.column)) == columns.end())
      columns.emplace_back(t.get, t.column);
  }
  for (const auto& [get, column] : columns) {
    std::vector<const CteUnionTarget*> group;
    for (const auto& t : targets) {
      if (t.get == get && t.column == column) group.push_back(&t);
    }
    const auto& cte_references = references[group[0]->reference->cte_index];
    // Each reference's target, and the distinct producers: preferably a join whose build side
    // does not read the CTE (one that does runs after it, and the union would never be
    // complete when the scan runs).
    std::vector<const CteUnionTarget*> per_reference;
    for (const LogicalCteScan* reference : cte_references) {
      const CteUnionTarget* chosen = nullptr;
      for (const CteUnionTarget* t : group) {
        if (t->reference != reference) continue;
        if (!chosen || (ReadsCte(*chosen->join->children[1], reference->cte_index) &&
                        !ReadsCte(*t->join->children[1], reference->cte_index)))
          chosen = t;
      }
      if (chosen) per_reference.push_back(chosen);
    }
    // A join whose build side reads the CTE runs after it: its keys would come too late.
    if (per_reference.size() < cte_references.size() ||
        std::any_of(per_reference.begin(), per_reference.end(), [](const CteUnionTarget* t) {
          return ReadsCte(*t->join->children[1], t->reference->cte_index);
        }))
      continue;
    std::vector<std::pair<LogicalJoin*, size_t>> producers;
    double build_rows = 0;
    for (const CteUnionTarget* t : per_reference) {
      if (std::find(producers.begin(), producers.end(), std::make_pair(t->join, t->condition)) !=
          producers.end())
        continue;
      producers.emplace_back(t->join, t->condition);
      const double rows = t->join->children[1]->estimated_rows;
      build_rows = build_rows < 0 || rows < 0 ? -1 : build_rows + rows;
    }
    const double probe_rows = RowsRead(*get);
    if (!options.always && (build_rows < 0 || build_rows > options.max_build_rows ||
                            probe_rows < 0 || probe_rows < options.min_probe_rows ||
                            1 - build_rows / probe_rows < options.min_filter_ratio)) {
      continue;
    }
    RuntimeFilterUnion united;
    united.filter_id = next_id++;
    united.contributors = producers.size();
    united.probe_rows = probe_rows;
    std::map<std::pair<LogicalJoin*, size_t>, int> producer_ids;
    for (const auto& [join, condition] : producers) {
      RuntimeFilterSpec& spec = SpecFor(*join, {condition}, std::nullopt, options, next_id);
      spec.unions.push_back(united);
      producer_ids[{join, condition}] = spec.filter_id;
      join->runtime_filter_note.clear();
    }
    RuntimeFilterTarget target;
    target.filter_id = united.filter_id;
    target.column_ids = {column};
    target.description = fmt::format("OR of the {} references to CTE {}:", cte_references.size(),
                                     group[0]->reference->name);
    for (size_t r = 0; r < per_reference.size(); r++) {
      const CteUnionTarget& t = *per_reference[r];
      const auto& c = t.join->conditions[t.condition];
      target.description += fmt::format(
          "{} #{} from JOIN {} ({} = {})", r ? " OR" : "", producer_ids[{t.join, t.condition}],
          JoinKindName(t.join->join_kind), c.left->ToString(), c.right->ToString());
    }
    get->runtime_filters.push_back(std::move(target));
  }
}

}  // namespace

void PlanRuntimeFilters(LogicalOperatorPtr& plan, const Settings& settings) {
  if (!settings.GetBool("dynamic_filtering")) return;
  const std::string mode = settings.GetString("runtime_filter");
  if (mode == "off") return;
  Options options;
  options.always = mode == "always";
  options.max_build_rows = static_cast<double>(settings.GetInt("runtime_filter.max_build_size"));
  options.min_probe_rows = static_cast<double>(settings.GetInt("runtime_filter.min_probe_size"));
  options.min_filter_ratio = settings.GetDouble("runtime_filter.min_filter_ratio");
  options.max_exact_keys = static_cast<uint64_t>(settings.GetInt("runtime_filter.max_exact_keys"));
  options.ctes = FindCteDefinitions(*plan);
  int next_id = MaxFilterId(*plan) + 1;
  std::vector<CteUnionTarget> union_targets;
  Visit(*plan, next_id, options, union_targets);
  ResolveCteUnions(*plan, union_targets, options, next_id);
}

}  // namespace shears
