// Table functions in FROM: read_parquet (files), range and generate_series (sequences), glob
// (file names) and repeat (a value n times).

#include <algorithm>
#include <functional>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include "common/error.h"
#include "common/interval.h"
#include "common/string_util.h"
#include "function/function.h"
#include "parser/ast_visit.h"
#include "planner/bind_context.h"

#include "planner/binder.h"
#include "planner/metadata_query.h"
#include "storage/csv/csv_dataset.h"
#include "storage/dataset.h"
#include "storage/file_system.h"
#include "storage/json/json_dataset.h"

namespace shears {

namespace {

/// The constant BIGINT value of a table function argument (nullopt for NULL).
std::optional<int64_t> ConstantBigint(const BoundExpr& expr, const std::string& function,
                                      size_t position) {
  if (expr.kind != BoundExprKind::kConstant) {
    throw BinderError("{}() argument {} must be a constant", function, position + 1);
  }
  const Value& v = static_cast<const BoundConstant&>(expr).value;
  if (v.is_null()) return std::nullopt;
  if (!CanImplicitCast(v.type(), LogicalType::Bigint())) {
    throw BinderError("{}() argument {} must be an integer, not {}", function, position + 1,
                      v.type().ToString());
  }
  return CastValue(v, LogicalType::Bigint()).GetInt64();
}

/// How many values start, start + step, ... lie before `stop` (or up to it when inclusive).
int64_t SequenceLength(int64_t start, int64_t stop, int64_t step, bool inclusive) {
  const __int128 distance = step > 0 ? __int128{stop} - start : __int128{start} - stop;
  const __int128 stride = step > 0 ? __int128{step} : -__int128{step};
  if (distance < 0 || (distance == 0 && !inclusive)) return 0;
  // Every value lies between start and stop, so the count (at most 2^64) fits once we know
  // the sequence is not empty; it exceeds INT64_MAX only for full-width ranges with step 1.
  const __int128 n = inclusive ? distance / stride + 1 : (distance + stride - 1) / stride;
  if (n > INT64_MAX) throw InvalidInputError("range has more than {} values", INT64_MAX);
  return static_cast<int64_t>(n);
}

/// Without an alias, a path is known by its last component without extension, as in
/// DuckDB: FROM 'data/sales/' is "sales", FROM 'x/orders.parquet' is "orders"; a glob by the
/// function's name.
std::string PathStem(const std::string& path, const char* function) {
  std::string stem = path;
  while (stem.size() > 1 && stem.back() == '/')
    stem.pop_back();
  stem = stem.substr(stem.find_last_of('/') == std::string::npos ? 0 : stem.find_last_of('/') + 1);
  if (stem.find_first_of("*?[") != std::string::npos) stem = function;
  return stem.substr(0, stem.find('.'));
}

/// A type named in a read_csv option ("INTEGER", "DECIMAL(10,2)"), by the rules of CAST.
LogicalType ResolveCsvType(const std::string& text) {
  ast::TypeName type;
  const size_t paren = text.find('(');
  type.name = std::string(text.substr(0, paren));
  while (!type.name.empty() && type.name.back() == ' ')
    type.name.pop_back();
  if (paren != std::string::npos) {
    const size_t close = text.find(')', paren);
    std::string inner =
        text.substr(paren + 1, close == std::string::npos ? std::string::npos : close - paren - 1);
    size_t pos = 0;
    while (pos < inner.size()) {
      size_t comma = inner.find(',', pos);
      if (comma == std::string::npos) comma = inner.size();
      try {
        type.modifiers.push_back(std::stoi(inner.substr(pos, comma - pos)));
      } catch (const std::exception&) {
        throw BinderError("unknown type '{}'", text);
      }
      pos = comma + 1;
    }
  }
  return ResolveTypeName(type);
}

/// Whether a table function argument is a DATE or TIMESTAMP constant (the temporal form).
bool IsTemporalArgument(const BoundExpr& expr) {
  const TypeId id = expr.type.id();
  return expr.kind == BoundExprKind::kConstant && (id == TypeId::kDate || id == TypeId::kTimestamp);
}

/// The TIMESTAMP `months` months after `ts` whose day of month is at most 28 (no clamping).
int64_t AddMonthsUnclamped(int64_t ts, int64_t months) {
  int64_t days = ts / kMicrosPerIntervalDay, time = ts % kMicrosPerIntervalDay;
  if (time < 0) {
    time += kMicrosPerIntervalDay;
    days--;
  }
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  const int64_t index = year * 12 + (month - 1) + months;
  const int64_t new_year = index >= 0 ? index / 12 : -((-index + 11) / 12);
  const auto new_month = static_cast<unsigned>(index - new_year * 12 + 1);
  return int64_t{DaysFromCivil(new_year, new_month, day)} * kMicrosPerIntervalDay + time;
}

/// How many of start, start + m months, start + 2m months, ... lie before stop (up to it when
/// inclusive); start's day of month is at most 28.
int64_t MonthSequenceLength(int64_t start, int64_t stop, int64_t m, bool inclusive) {
  auto within = [&](int64_t value) {
    const int64_t ahead = m > 0 ? stop - value : value - stop;
    return inclusive ? ahead >= 0 : ahead > 0;
  };
  if (!within(start)) return 0;
  // Months from start to stop, then the last step that stays within, found from an estimate
  // at most one step off.
  auto month_index = [](int64_t ts) {
    int64_t year;
    unsigned month, day;
    CivilFromDays(ts / kMicrosPerIntervalDay - (ts % kMicrosPerIntervalDay < 0), &year, &month,
                  &day);
    return year * 12 + month;
  };
  int64_t steps = (month_index(stop) - month_index(start)) / m + 1;
  while (steps > 0 && !within(AddMonthsUnclamped(start, steps * m)))
    steps--;
  return steps + 1;
}

/// generate_series / range over DATE or TIMESTAMP: a projection (table index
/// `projection_index`) over a LogicalRange (`range_index`).
LogicalOperatorPtr BindTemporalSeries(const std::string& name, std::vector<BoundExprPtr> args,
                                      uint32_t range_index, uint32_t projection_index) {
  // generate_series / range(start, stop, step INTERVAL) over DATE or TIMESTAMP: TIMESTAMPs, as
  // DuckDB. A step of a fixed length (days, hours, ...) gives start + i * step, a range of
  // microsecond offsets added to start; a step of months gives start + i * step months, which
  // is DuckDB's repeated addition when start's day of month is at most 28 (later days are
  // clamped at short months, and the clamping carries on).
  if (args.size() != 3) {
    throw BinderError("{}() of dates or timestamps takes (start, stop, step INTERVAL)", name);
  }
  std::optional<int64_t> bounds[2];
  for (size_t i = 0; i < 2; i++) {
    const TypeId id = args[i]->type.id();
    if (args[i]->kind != BoundExprKind::kConstant ||
        (id != TypeId::kDate && id != TypeId::kTimestamp && id != TypeId::kInvalid)) {
      throw BinderError("{}() argument {} must be a constant DATE or TIMESTAMP", name, i + 1);
    }
    const Value& v = static_cast<const BoundConstant&>(*args[i]).value;
    if (!v.is_null()) bounds[i] = CastValue(v, LogicalType::Timestamp()).GetInt64();
  }
  if (args[2]->kind != BoundExprKind::kConstant || args[2]->type.id() != TypeId::kInterval) {
    throw BinderError("{}() argument 3 must be a constant INTERVAL", name);
  }
  const Value& step_value = static_cast<const BoundConstant&>(*args[2]).value;
  auto range = std::make_unique<LogicalRange>();
  range->table_index = range_index;
  range->function = name;
  range->column_name = "offset";
  bool by_months = false;
  if (bounds[0] && bounds[1] && !step_value.is_null()) {
    const Interval step = step_value.GetInterval();
    by_months = step.months != 0;
    if (by_months) {
      int64_t year;
      unsigned month, day;
      const int64_t start_day =
          *bounds[0] / kMicrosPerIntervalDay - (*bounds[0] % kMicrosPerIntervalDay < 0);
      CivilFromDays(start_day, &year, &month, &day);
      if (step.days != 0 || step.micros != 0 || day > 28) {
        throw NotSupportedError(
            "{}() with a step in months is supported from a day of month up to 28 and without "
            "days or time in the step, not {} from {}",
            name, FormatInterval(step), FormatTimestamp(*bounds[0]));
      }
      range->start = 0;
      range->step = step.months;
      range->count =
          MonthSequenceLength(*bounds[0], *bounds[1], step.months, name == "generate_series");
    } else {
      const __int128 micros = __int128{step.days} * kMicrosPerIntervalDay + step.micros;
      if (micros == 0) throw InvalidInputError("{}() step must not be zero", name);
      if (micros > INT64_MAX || micros < INT64_MIN) {
        throw OutOfRangeError("{}() step {} is too large", name, FormatInterval(step));
      }
      range->start = 0;
      range->step = static_cast<int64_t>(micros);
      range->count =
          SequenceLength(0, *bounds[1] - *bounds[0], range->step, name == "generate_series");
    }
  }  // a NULL argument gives no rows, as DuckDB does
  auto projection = std::make_unique<LogicalProjection>();
  projection->table_index = projection_index;
  const ColumnBinding offset = range->GetColumnBindings()[0];
  std::vector<BoundExprPtr> call;
  call.push_back(CastTo(std::move(args[0]), LogicalType::Timestamp()));
  BoundExprPtr offset_ref =
      std::make_unique<BoundColumnRef>(LogicalType::Bigint(), offset, "offset");
  if (by_months) {
    // The months stay below the TIMESTAMP range's, far inside INTEGER.
    call.push_back(CastTo(std::move(offset_ref), LogicalType::Integer()));
    projection->expressions.push_back(BindFunctionCall("date_add_months", std::move(call)));
  } else {
    call.push_back(std::move(offset_ref));
    projection->expressions.push_back(BindFunctionCall("timestamp_add_micros", std::move(call)));
  }
  projection->children.push_back(std::move(range));
  return projection;
}

}  // namespace

LogicalOperatorPtr Binder::BindTableFunction(const ast::TableFunctionRef& fn, Scope& scope) {
  const ast::TableRef& ref = fn;
  const std::string name = AsciiLower(fn.name);
  if (name == "range" || name == "generate_series") {
    // range(stop) | range(start, stop[, step]): stop excluded, column `id` (as Spark names
    // it); generate_series includes stop, as in PostgreSQL and DuckDB.
    const bool inclusive = name == "generate_series";
    if (fn.args.empty() || fn.args.size() > 3 || !fn.named_args.empty()) {
      throw BinderError("{}() takes (stop), (start, stop) or (start, stop, step)", name);
    }
    ExprContext ctx;
    ctx.clause = inclusive ? "generate_series argument" : "range argument";
    std::vector<BoundExprPtr> bound;
    for (const auto& arg : fn.args)
      bound.push_back(BindExpr(*arg, ctx));
    if (IsTemporalArgument(*bound[0])) {
      const uint32_t range_index = NewTableIndex();
      LogicalOperatorPtr series =
          BindTemporalSeries(name, std::move(bound), range_index, NewTableIndex());
      ScopeEntry entry;
      entry.alias = ref.alias.empty() ? name : ref.alias;
      entry.names = {name};
      entry.types = series->GetTypes();
      entry.bindings = series->GetColumnBindings();
      ApplyColumnAliases(entry, ref.column_aliases);
      scope.entries.push_back(std::move(entry));
      return series;
    }
    std::vector<std::optional<int64_t>> args;
    for (size_t i = 0; i < bound.size(); i++)
      args.push_back(ConstantBigint(*bound[i], name, i));
    auto range = std::make_unique<LogicalRange>();
    range->table_index = NewTableIndex();
    range->function = name;
    range->column_name = name;  // the column is named after the function, as in DuckDB
    const bool any_null = std::any_of(args.begin(), args.end(), [](auto& a) { return !a; });
    if (!any_null) {
      const int64_t start = args.size() == 1 ? 0 : *args[0];
      const int64_t stop = args.size() == 1 ? *args[0] : *args[1];
      const int64_t step = args.size() == 3 ? *args[2] : 1;
      if (step == 0) throw InvalidInputError("{}() step must not be zero", name);
      range->start = start;
      range->step = step;
      range->count = SequenceLength(start, stop, step, inclusive);
    }  // a NULL argument gives no rows, as DuckDB does
    ScopeEntry entry;
    entry.alias = ref.alias.empty() ? name : ref.alias;
    entry.names = {range->column_name};
    entry.types = range->GetTypes();
    entry.bindings = range->GetColumnBindings();
    ApplyColumnAliases(entry, ref.column_aliases);
    if (!inclusive && ref.column_aliases.empty()) {
      // Spark names range()'s column `id`: it answers to that name too, outside `*`.
      entry.names.push_back("id");
      entry.types.push_back(entry.types[0]);
      entry.bindings.push_back(entry.bindings[0]);
      entry.SetVisibility(1, ColumnVisibility::kHidden);
    }
    scope.entries.push_back(std::move(entry));
    return range;
  }
  // Table functions whose rows are constants of one column (unnest of a constant list, glob,
  // repeat): a row appended, and the rows put in scope under the function's name or alias.
  auto add_row = [](LogicalValues& values, Value value) {
    std::vector<BoundExprPtr> row;
    row.push_back(std::make_unique<BoundConstant>(std::move(value)));
    values.rows.push_back(std::move(row));
  };
  auto in_scope = [&](std::unique_ptr<LogicalValues> values) -> LogicalOperatorPtr {
    ScopeEntry entry;
    entry.alias = ref.alias.empty() ? name : ref.alias;
    entry.names = values->names;
    entry.types = values->GetTypes();
    entry.bindings = values->GetColumnBindings();
    ApplyColumnAliases(entry, ref.column_aliases);
    scope.entries.push_back(std::move(entry));
    return values;
  };
  if (name == "unnest") {
    // FROM unnest(list): a row per element of a constant list, column `unnest`.
    if (fn.args.size() != 1 || !fn.named_args.empty()) {
      throw BinderError("unnest() takes one LIST argument");
    }
    // Of a column (in a correlated subquery's FROM, or first in FROM): the lateral form.
    if (const ast::TableRef* lateral = ast::LateralUnnest(fn)) return BindTableRef(*lateral, scope);
    ExprContext ctx;
    ctx.clause = "unnest argument";
    BoundExprPtr arg = BindExpr(*fn.args[0], ctx);
    if (arg->kind != BoundExprKind::kConstant) {
      throw NotSupportedError("FROM unnest(...) of a list that is not a constant is not supported");
    }
    const Value& list = static_cast<const BoundConstant&>(*arg).value;
    if (list.type().valid() && !list.type().IsList()) {
      throw BinderError("unnest() needs a LIST, not {}", list.type().ToString());
    }
    const LogicalType element = list.type().IsList() && list.type().element().valid()
                                    ? list.type().element()
                                    : LogicalType::Integer();
    auto values = std::make_unique<LogicalValues>();
    values->table_index = NewTableIndex();
    values->types = {element};
    values->names = {"unnest"};
    if (!list.is_null() && list.type().IsList()) {
      for (const Value& v : list.GetList()) {
        add_row(*values, CastValue(v, element));
      }
    }
    return in_scope(std::move(values));
  }
  // glob(pattern): the files the pattern matches, sorted, column `file` (DuckDB's; a path
  // that is no file and a pattern matching nothing give no rows). repeat(value, n): n rows of
  // the value, its column named by its text (as DuckDB names it).
  if (name == "glob" || name == "repeat") {
    const size_t arity = name == "glob" ? 1 : 2;
    if (fn.args.size() != arity || !fn.named_args.empty()) {
      throw BinderError(name == "glob" ? "glob() takes one pattern (a constant string)"
                                       : "repeat() takes a value and a count");
    }
    ExprContext ctx;
    const std::string clause = name + " argument";
    ctx.clause = clause.c_str();
    auto values = std::make_unique<LogicalValues>();
    values->table_index = NewTableIndex();
    if (name == "glob") {
      BoundExprPtr pattern = BindExpr(*fn.args[0], ctx);
      if (pattern->kind != BoundExprKind::kConstant || pattern->type.id() != TypeId::kVarchar) {
        throw BinderError("glob() needs a constant string pattern");
      }
      const Value& text = static_cast<const BoundConstant&>(*pattern).value;
      values->types = {LogicalType::Varchar()};
      values->names = {"file"};
      std::vector<ListedFile> files;
      if (!text.is_null()) {
        const std::string path = text.GetString();
        if (path.find_first_of("*?[") != std::string::npos ||
            (PathExists(path) && !IsDirectory(path))) {
          files = ExpandGlob(path);
        }
      }
      for (const ListedFile& file : files) {
        add_row(*values, Value::Varchar(file.path));
      }
    } else {
      BoundExprPtr value = TypeUntyped(BindExpr(*fn.args[0], ctx));
      BoundExprPtr count = BindExpr(*fn.args[1], ctx);
      if (value->kind != BoundExprKind::kConstant || count->kind != BoundExprKind::kConstant) {
        throw BinderError("repeat() needs a constant value and count");
      }
      const Value& n = static_cast<const BoundConstant&>(*count).value;
      if (n.is_null() || (n.type().id() != TypeId::kInteger && n.type().id() != TypeId::kBigint)) {
        throw BinderError("repeat() needs an integer count, not {}",
                          n.is_null() ? "NULL" : n.type().ToString());
      }
      const int64_t times = n.GetInt64();
      constexpr int64_t kMaxRows = int64_t{1} << 24;
      if (times < 0 || times > kMaxRows) {
        throw OutOfRangeError("repeat(): the count {} is outside 0 to {}", times, kMaxRows);
      }
      const Value& v = static_cast<const BoundConstant&>(*value).value;
      values->types = {value->type};
      values->names = {v.is_null() ? "NULL" : v.ToString()};
      for (int64_t i = 0; i < times; i++) {
        add_row(*values, v);
      }
    }
    return in_scope(std::move(values));
  }
  // read_csv / read_json: one constant path or glob and constant options, each handed to `set`;
  // the datasets are cached per statement by reader, path and options.
  auto reader_arguments = [&](const char* reader, std::string* key,
                              const std::function<void(const std::string&, const Value&)>& set) {
    if (fn.args.size() != 1) throw BinderError("{} takes one path or glob argument", name);
    ExprContext ctx;
    const std::string clause = std::string(reader) + " argument";
    ctx.clause = clause.c_str();
    auto path_expr = BindExpr(*fn.args[0], ctx);
    if (path_expr->kind != BoundExprKind::kConstant || path_expr->type.id() != TypeId::kVarchar) {
      throw BinderError("{} needs a constant string path", name);
    }
    std::string path = static_cast<BoundConstant&>(*path_expr).value.GetString();
    *key = reader + std::string(1, '\0') + path;
    for (const auto& [arg_name, arg] : fn.named_args) {
      auto value_expr = BindExpr(*arg, ctx);
      if (value_expr->kind != BoundExprKind::kConstant) {
        throw BinderError("{} option '{}' must be a constant", name, arg_name);
      }
      const Value& v = static_cast<BoundConstant&>(*value_expr).value;
      set(arg_name, v);
      *key += '\0' + AsciiLower(arg_name) + '=' + (v.is_null() ? "NULL" : v.ToString());
    }
    return path;
  };
  if (name == "read_csv" || name == "read_csv_auto") {
    // read_csv('file_or_glob', option = value, ...): DuckDB's options (storage/csv/).
    CsvOptions options;
    std::string key;
    const std::string path =
        reader_arguments("read_csv", &key, [&](const std::string& option, const Value& v) {
          options.Set(option, v, "read_csv", ResolveCsvType);
        });
    const std::string stem = PathStem(path, "read_csv");
    auto& dataset = datasets_[key];
    if (!dataset) dataset = OpenCsvDataset(path, options);
    return BindDataset(dataset, ref.alias.empty() ? path : ref.alias,
                       ref.alias.empty() ? stem : ref.alias, ref, scope);
  }
  if (name == "read_json" || name == "read_json_auto" || name == "read_ndjson" ||
      name == "read_ndjson_auto") {
    // read_json('file_or_glob', option = value, ...): DuckDB's (storage/json/).
    JsonOptions options;
    if (name.rfind("read_ndjson", 0) == 0) options.format = JsonOptions::Format::kNewlineDelimited;
    std::string key;
    const std::string path = reader_arguments(
        "read_json", &key,
        [&](const std::string& option, const Value& v) { options.Set(option, v); });
    key += '\0' + std::to_string(static_cast<int>(options.format));
    const std::string stem = PathStem(path, "read_json");
    auto& dataset = datasets_[key];
    if (!dataset) dataset = OpenJsonDataset(path, options);
    return BindDataset(dataset, ref.alias.empty() ? path : ref.alias,
                       ref.alias.empty() ? stem : ref.alias, ref, scope);
  }
  if (name == "__shears_pivot__") return BindPivot(fn, scope);
  if (name != "read_parquet" && name != "parquet_scan") {
    if (std::optional<MacroDefinition> macro = catalog_.FindMacro(fn.name)) {
      return BindTableMacro(fn, *macro, scope);
    }
    // DuckDB's catalog functions (duckdb_tables(), pragma_table_info('t'), ...): constant
    // arguments, a name as an identifier or a string.
    std::vector<std::string> args;
    for (const auto& arg : fn.args) {
      if (arg->kind == ast::ExprKind::kColumnRef) {
        const auto& names = static_cast<const ast::ColumnRefExpr&>(*arg).names;
        args.push_back(fmt::format("{}", fmt::join(names, ".")));
        continue;
      }
      ExprContext ctx;
      ctx.clause = "table function argument";
      auto bound = BindExpr(*arg, ctx);
      if (bound->kind != BoundExprKind::kConstant ||
          static_cast<BoundConstant&>(*bound).value.is_null()) {
        args.clear();
        break;
      }
      args.push_back(static_cast<BoundConstant&>(*bound).value.ToString());
    }
    if (args.size() == fn.args.size() && fn.named_args.empty()) {
      if (auto query = MetadataFunctionQuery(catalog_, settings_, name, args, ViewColumnsOf())) {
        BoundQuery q = BindQueryText(*query, name);
        ScopeEntry entry = EntryFor(ref.alias.empty() ? name : ref.alias, *q.plan, q.names);
        ApplyColumnAliases(entry, ref.column_aliases);
        scope.entries.push_back(std::move(entry));
        return std::move(q.plan);
      }
    }
    throw BinderError(
        "table function '{}' does not exist (known: read_parquet, read_csv, read_json, range, "
        "generate_series, the duckdb_*() catalog functions, pragma_table_info, and table "
        "macros)",
        fn.name);
  }
  if (fn.args.size() != 1) throw BinderError("read_parquet takes one path or glob argument");
  ExprContext ctx;
  ctx.clause = "read_parquet argument";
  auto path_expr = BindExpr(*fn.args[0], ctx);
  if (path_expr->kind != BoundExprKind::kConstant || path_expr->type.id() != TypeId::kVarchar) {
    throw BinderError("read_parquet needs a constant string path");
  }
  const std::string path = static_cast<BoundConstant&>(*path_expr).value.GetString();
  DatasetOptions options;
  options.first_file_only = check_only_;
  options.lazy_listing = true;  // scans list only the partitions they keep
  for (const auto& [arg_name, arg] : fn.named_args) {
    auto value_expr = BindExpr(*arg, ctx);
    if (value_expr->kind != BoundExprKind::kConstant) {
      throw BinderError("read_parquet option '{}' must be a constant", arg_name);
    }
    const Value& v = static_cast<BoundConstant&>(*value_expr).value;
    const std::string option = AsciiLower(arg_name);
    if (option == "hive_partitioning") {
      options.hive_partitioning = CastValue(v, LogicalType::Boolean()).GetBoolean();
    } else if (option == "union_by_name") {
      options.union_by_name = CastValue(v, LogicalType::Boolean()).GetBoolean();
    } else {
      throw BinderError(
          "unknown read_parquet option '{}' (known: hive_partitioning, union_by_name)", arg_name);
    }
  }
  const std::string stem = PathStem(path, "read_parquet");
  auto option_key = [](const std::optional<bool>& option) {
    return option ? (*option ? '1' : '0') : '-';
  };
  const std::string key =
      path + '\0' + option_key(options.hive_partitioning) + option_key(options.union_by_name);
  auto& dataset = datasets_[key];
  if (!dataset) dataset = Dataset::Open(path, options);
  return BindDataset(dataset, ref.alias.empty() ? path : ref.alias,
                     ref.alias.empty() ? stem : ref.alias, ref, scope);
}

}  // namespace shears
