#include "main/write_statements.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "catalog/staged_write.h"
#include "common/error.h"
#include "execution/operator/physical_csv_write.h"
#include "execution/operator/physical_parquet_write.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "optimizer/optimizer.h"
#include "parser/parser.h"
#include "parser/transformer.h"
#include "planner/binder.h"
#include "storage/csv/csv_options.h"

namespace shears {

namespace fs = std::filesystem;
using parser_internal::Lower;

namespace {

/// Rows, files and partitions written: the result of every write statement.
QueryResult WriteSummary(const std::vector<WrittenPartFile>& files) {
  int64_t rows = 0;
  std::set<std::string> partitions;
  for (const auto& f : files) {
    rows += f.file.rows;
    if (!f.partition.empty()) partitions.insert(f.partition);
  }
  QueryResult result;
  result.names = {"rows", "files", "partitions"};
  result.types = {LogicalType::Bigint(), LogicalType::Bigint(), LogicalType::Bigint()};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, 1);
  batch.column(0).data<int64_t>()[0] = rows;
  batch.column(1).data<int64_t>()[0] = static_cast<int64_t>(files.size());
  batch.column(2).data<int64_t>()[0] = static_cast<int64_t>(partitions.size());
  batch.SetSize(1);
  result.rows->Append(batch);
  return result;
}

/// A query bound for writing; the binder stays, to hand out table indexes for projections.
struct BoundWrite {
  std::unique_ptr<Binder> binder;
  BoundQuery query;
};

BoundWrite BindWrite(const Catalog& catalog, const Settings& settings, const std::string& sql,
                     const ast::QueryNode& query) {
  BoundWrite write;
  write.binder = std::make_unique<Binder>(catalog, &sql);
  write.binder->SetNullsLastByDefault(settings.GetString("default_null_order") == "nulls_last");
  write.query = write.binder->Bind(query);
  return write;
}

/// The query's column `i`, for the expressions of a projection above it.
BoundExprPtr QueryColumn(const BoundWrite& write, size_t i) {
  return std::make_unique<BoundColumnRef>(
      write.query.types[i], write.query.plan->GetColumnBindings()[i], write.query.names[i]);
}

/// Puts a projection computing `exprs` (named `names`) on top of the query.
void Project(BoundWrite& write, std::vector<BoundExprPtr> exprs, std::vector<std::string> names) {
  auto projection = std::make_unique<LogicalProjection>();
  projection->table_index = write.binder->NewTableIndex();
  write.query.types.clear();
  for (size_t i = 0; i < exprs.size(); i++) {
    exprs[i]->alias = names[i];
    write.query.types.push_back(exprs[i]->type);
  }
  projection->expressions = std::move(exprs);
  projection->children.push_back(std::move(write.query.plan));
  write.query.plan = std::move(projection);
  write.query.names = std::move(names);
}

/// Casts the query's columns to the types of the columns they are written to.
void CastForWrite(BoundWrite& write, const std::vector<LogicalType>& types,
                  const std::vector<std::string>& names) {
  if (write.query.types.size() != types.size()) {
    throw BinderError("the query gives {} columns but {} are written ({})",
                      write.query.types.size(), types.size(),
                      fmt::format("{}", fmt::join(names, ", ")));
  }
  std::vector<BoundExprPtr> exprs;
  for (size_t i = 0; i < types.size(); i++) {
    if (!CastExists(write.query.types[i], types[i])) {
      throw BinderError("column '{}' is {} but the query gives {}", names[i], types[i].ToString(),
                        write.query.types[i].ToString());
    }
    exprs.push_back(CastTo(QueryColumn(write, i), types[i]));
  }
  Project(write, std::move(exprs), names);
}

/// Optimizes and runs the bound query into `sink`; then `done(context)` reads what it wrote.
template <typename Done>
auto ExecuteInto(BoundQuery bound, const Settings& settings, PhysicalOperatorPtr sink, Done done) {
  Optimize(bound.plan, settings);
  PhysicalPlanner planner;
  sink->AddChild(planner.Plan(*bound.plan));
  QueryContext query_context(settings);
  ExecutionContext context(query_context, static_cast<int>(settings.GetInt("threads")));
  Executor executor(context);
  executor.Execute(*sink);
  return done(context, *sink);
}

/// Optimizes and runs the bound query into a PARQUET_WRITE sink; the files it wrote.
std::vector<WrittenPartFile> ExecuteWrite(BoundQuery bound, const Settings& settings,
                                          ParquetWriteSpec spec) {
  spec.max_partitions = settings.GetInt("partitioned_write_max_partitions");
  auto sink = std::make_unique<PhysicalParquetWrite>(bound.types, std::move(spec));
  return ExecuteInto(std::move(bound), settings, std::move(sink),
                     [](ExecutionContext& context, const PhysicalOperator& op) {
                       return PhysicalParquetWrite::TakeFiles(context, op);
                     });
}

/// Index of `name` (case-insensitive) among `names`, or -1.
int FindName(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); i++) {
    if (Lower(names[i]) == Lower(name)) return static_cast<int>(i);
  }
  return -1;
}

// ---------------------------------------------------------------- constraints

/// `column` unchanged, or a ConstraintError when a row is NULL: what the write projection
/// computes for a NOT NULL column, so a violation stops the write before anything is published.
BoundExprPtr CheckNotNull(BoundExprPtr column, const std::string& table, const std::string& name) {
  BoundScalarFunction check;
  check.name = "not_null_check";
  check.arg_types = {column->type};
  check.return_type = column->type;
  check.null_propagating = false;  // the kernel must see the NULLs
  check.deterministic = false;     // never folded away
  check.kernel = [table, name](const std::vector<const Vector*>& args, idx_t count,
                               Vector& result) {
    const Vector& in = *args[0];
    if (in.validity().CountNulls(count) > 0) {
      throw ConstraintError(
          "NULL in column '{}' violates its NOT NULL constraint (table '{}'); nothing was "
          "written",
          name, table);
    }
    const size_t width = in.type().value_size();
    std::memcpy(result.raw_data(), in.data<uint8_t>(), count * width);
    if (in.type().IsString()) result.ShareStringBuffers(in);
  };
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(column));
  return std::make_unique<BoundFunction>(std::move(check), std::move(args));
}

/// Wraps the NOT NULL columns of `table` (the query's columns, in table order) in CheckNotNull.
void ProjectNotNullChecks(BoundWrite& write, const TableDefinition& table) {
  bool any = false;
  for (const auto& c : table.columns)
    any = any || c.not_null;
  if (!any) return;
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (size_t i = 0; i < table.columns.size(); i++) {
    BoundExprPtr column = QueryColumn(write, i);
    if (table.columns[i].not_null)
      column = CheckNotNull(std::move(column), table.name, table.columns[i].name);
    exprs.push_back(std::move(column));
    names.push_back(table.columns[i].name);
  }
  Project(write, std::move(exprs), std::move(names));
}

std::string QuoteIdentifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string QuoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// The first key value of `columns` that two rows of `source` share (the FROM clause of a
/// query over the table's columns), rows with a NULL in the key exempt (SQL's rule for
/// UNIQUE); nullopt when there is none. Runs as a query: a scan of the key columns.
std::optional<std::vector<std::string>> FindDuplicateKey(Database& database,
                                                         const Settings& settings,
                                                         const TableDefinition& table,
                                                         const std::vector<int>& key_columns,
                                                         const std::string& source) {
  std::vector<std::string> columns, not_null;
  for (int c : key_columns) {
    const std::string quoted = QuoteIdentifier(table.columns[static_cast<size_t>(c)].name);
    columns.push_back(quoted);
    not_null.push_back(quoted + " IS NOT NULL");
  }
  const std::string list = fmt::format("{}", fmt::join(columns, ", "));
  const std::string sql =
      fmt::format("SELECT {0} FROM {1} WHERE {2} GROUP BY {0} HAVING count(*) > 1 LIMIT 1", list,
                  source, fmt::join(not_null, " AND "));
  Connection check(database);
  check.settings() = settings;
  auto rows = check.Query(sql).ToStrings();
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

/// `SELECT cols FROM read_parquet(staged files)`: the rows of a staged write, partition
/// values (typed by inference when read back from directory names) cast to the table's types.
std::string StagedRows(const TableDefinition& table, const std::string& staged_directory) {
  std::vector<std::string> casts;
  for (const auto& column : table.columns) {
    const std::string quoted = QuoteIdentifier(column.name);
    casts.push_back("CAST(" + quoted + " AS " + column.type.ToString() + ") AS " + quoted);
  }
  return fmt::format("SELECT {} FROM read_parquet({}{})", fmt::join(casts, ", "),
                     QuoteString(staged_directory),
                     table.num_partition_columns() > 0 ? ", hive_partitioning = true" : "");
}

/// What a duplicate of `values` in `key_columns` violates, as the error says it.
[[noreturn]] void ThrowDuplicate(const TableDefinition& table, const std::vector<int>& key_columns,
                                 const std::vector<std::string>& values, const std::string& what,
                                 const std::string& consequence) {
  std::vector<std::string> names;
  for (int c : key_columns)
    names.push_back(table.columns[static_cast<size_t>(c)].name);
  const std::string joined_names = fmt::format("{}", fmt::join(names, ", "));
  const std::string joined_values = fmt::format("{}", fmt::join(values, ", "));
  const bool single = key_columns.size() == 1;
  throw ConstraintError("duplicate key {} = {} violates the {} ({}) of table '{}'; {}",
                        single ? joined_names : "(" + joined_names + ")",
                        single ? joined_values : "(" + joined_values + ")", what, joined_names,
                        table.name, consequence);
}

/// Checks each PRIMARY KEY, UNIQUE and UNIQUE index of `table` over the rows of the files just
/// written to `staged_directory` (not yet visible), plus the committed rows unless `replacing`
/// (UPDATE and DELETE write the whole table anew): ConstraintError naming the first duplicate.
void CheckKeys(Database& database, const Settings& settings, const TableDefinition& table,
               const std::string& staged_directory, bool replacing) {
  std::vector<std::pair<const std::vector<int>*, std::string>> keys;
  for (const auto& key : table.keys)
    keys.emplace_back(&key.columns, key.primary ? "PRIMARY KEY" : "UNIQUE");
  for (const auto& index : table.indexes) {
    if (index.unique) keys.emplace_back(&index.columns, "UNIQUE index '" + index.name + "'");
  }
  if (keys.empty()) return;
  const std::string staged = "(" + StagedRows(table, staged_directory) + ")";
  for (const auto& [key_columns, what] : keys) {
    // Twice among the new rows...
    if (auto values = FindDuplicateKey(database, settings, table, *key_columns, staged))
      ThrowDuplicate(table, *key_columns, *values, what, "nothing was written");
    if (replacing) continue;
    // ... or in the table already: a semi join the staged keys build, so their runtime filter
    // skips the table's row groups by min/max instead of a scan of every key.
    std::vector<std::string> columns, match;
    for (int c : *key_columns) {
      const std::string quoted = QuoteIdentifier(table.columns[static_cast<size_t>(c)].name);
      columns.push_back("e." + quoted);
      match.push_back("s." + quoted + " = e." + quoted);
    }
    Connection check(database);
    check.settings() = settings;
    auto rows = check
                    .Query(fmt::format(
                        "SELECT {} FROM {} AS e WHERE EXISTS (SELECT 1 FROM {} AS s WHERE {}) "
                        "LIMIT 1",
                        fmt::join(columns, ", "), QuoteIdentifier(table.name), staged,
                        fmt::join(match, " AND ")))
                    .ToStrings();
    if (!rows.empty()) ThrowDuplicate(table, *key_columns, rows[0], what, "nothing was written");
  }
}

/// Checks each CHECK constraint of `table` over the staged rows: ConstraintError when a row
/// makes one FALSE (NULL passes, as in SQL). One query per constraint.
void CheckChecks(Database& database, const Settings& settings, const TableDefinition& table,
                 const std::string& staged_directory) {
  for (const auto& check : table.checks) {
    Connection connection(database);
    connection.settings() = settings;
    const std::string sql = fmt::format("SELECT 1 FROM ({}) WHERE ({}) IS FALSE LIMIT 1",
                                        StagedRows(table, staged_directory), check);
    if (connection.Query(sql).row_count() > 0) {
      throw ConstraintError(
          "CHECK constraint failed on table '{}' with expression CHECK({}); nothing was written",
          table.name, check);
    }
  }
}

/// A CHECK expression must bind over the table's columns and be BOOLEAN: tried at CREATE TABLE
/// on no rows (BinderError otherwise).
void ValidateChecks(Database& database, const TableDefinition& table) {
  std::vector<std::string> columns;
  for (const auto& column : table.columns) {
    columns.push_back(fmt::format("CAST(NULL AS {}) AS {}", column.type.ToString(),
                                  QuoteIdentifier(column.name)));
  }
  for (const auto& check : table.checks) {
    Connection connection(database);
    try {
      connection.Query(fmt::format("SELECT 1 FROM (SELECT {}) WHERE ({}) IS FALSE LIMIT 0",
                                   fmt::join(columns, ", "), check));
    } catch (const Error& e) {
      if (!e.IsUserError()) throw;
      throw BinderError("CHECK({}) of table '{}' is not a condition on its columns: {}", check,
                        table.name, e.what());
    }
  }
}

// ---------------------------------------------------------------- COPY

struct CopyOptions {
  parquet::WriterOptions writer;
  std::vector<std::string> partition_by;
  bool overwrite = false, overwrite_or_ignore = false, append = false;
  bool per_thread_output = false;
  bool write_partition_columns = false;
};

bool OptionBool(const ast::WriteOption& option) {
  if (option.values.empty()) return true;
  const std::string v = Lower(option.values[0]);
  if (v == "true" || v == "1" || v == "on") return true;
  if (v == "false" || v == "0" || v == "off") return false;
  throw InvalidInputError("COPY option {} takes true or false, not '{}'", option.name,
                          option.values[0]);
}

int64_t OptionInt(const ast::WriteOption& option) {
  int64_t value = 0;
  size_t used = 0;
  try {
    if (option.values.size() == 1) value = std::stoll(option.values[0], &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (option.values.size() != 1 || used != option.values[0].size() || value < 0) {
    throw InvalidInputError("COPY option {} takes a number", option.name);
  }
  return value;
}

format::CompressionCodec::type ParseCodec(const std::string& text) {
  const std::string name = Lower(text);
  if (name == "snappy") return format::CompressionCodec::SNAPPY;
  if (name == "zstd") return format::CompressionCodec::ZSTD;
  if (name == "gzip") return format::CompressionCodec::GZIP;
  // DuckDB's "lz4" writes LZ4_RAW, the codec the format recommends.
  if (name == "lz4_raw" || name == "lz4") return format::CompressionCodec::LZ4_RAW;
  if (name == "uncompressed" || name == "none") return format::CompressionCodec::UNCOMPRESSED;
  throw InvalidInputError(
      "unknown COMPRESSION '{}' (use snappy, zstd, gzip, lz4_raw, lz4 or uncompressed)", text);
}

CopyOptions ParseCopyOptions(const std::vector<ast::WriteOption>& options) {
  CopyOptions out;
  for (const auto& option : options) {
    const std::string& name = option.name;
    if (name == "format") {
      continue;  // parquet: CopyFormat sent csv elsewhere
    } else if (name == "partition_by") {
      if (option.values.empty()) throw InvalidInputError("PARTITION_BY needs column names");
      out.partition_by = option.values;
    } else if (name == "compression" || name == "codec") {
      if (option.values.size() != 1) throw InvalidInputError("COMPRESSION takes one codec name");
      out.writer.codec = ParseCodec(option.values[0]);
    } else if (name == "compression_level") {
      out.writer.compression_level = static_cast<int>(OptionInt(option));
    } else if (name == "row_group_size") {
      out.writer.row_group_rows = OptionInt(option);
      if (out.writer.row_group_rows < 1) throw InvalidInputError("ROW_GROUP_SIZE must be >= 1");
    } else if (name == "overwrite_or_ignore") {
      out.overwrite_or_ignore = OptionBool(option);
    } else if (name == "overwrite") {
      out.overwrite = OptionBool(option);
    } else if (name == "append") {
      out.append = OptionBool(option);
    } else if (name == "per_thread_output") {
      out.per_thread_output = OptionBool(option);
    } else if (name == "write_partition_columns") {
      out.write_partition_columns = OptionBool(option);
    } else if (name == "bloom_filter_columns") {
      out.writer.bloom_filter_columns = option.values;
    } else {
      throw InvalidInputError(
          "unknown COPY option '{}' (supported: FORMAT, PARTITION_BY, COMPRESSION, "
          "COMPRESSION_LEVEL, ROW_GROUP_SIZE, OVERWRITE_OR_IGNORE, OVERWRITE, APPEND, "
          "PER_THREAD_OUTPUT, WRITE_PARTITION_COLUMNS, BLOOM_FILTER_COLUMNS)",
          name);
    }
  }
  if (out.overwrite + out.overwrite_or_ignore + out.append > 1) {
    throw InvalidInputError("COPY takes only one of OVERWRITE, OVERWRITE_OR_IGNORE and APPEND");
  }
  return out;
}

/// Removes a staging path unless released (COPY's files are moved out of it on success).
class ScopedRemove {
 public:
  explicit ScopedRemove(fs::path path) : path_(std::move(path)) {}
  ~ScopedRemove() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }

 private:
  fs::path path_;
};

/// The FORMAT option's value, else the path's extension: "csv" or "parquet".
std::string CopyFormat(const ast::CopyStatement& copy) {
  for (const auto& option : copy.options) {
    if (option.name == "format" && option.values.size() == 1) {
      const std::string format = Lower(option.values[0]);
      if (format != "csv" && format != "parquet") {
        throw NotSupportedError("COPY reads and writes FORMAT csv or parquet, not '{}'",
                                option.values[0]);
      }
      return format;
    }
  }
  return HasCsvExtension(copy.path) ? "csv" : "parquet";
}

/// A staging file next to `target` (same file system, so the rename into place is atomic;
/// hidden, so readers of the directory skip it).
fs::path StagingPath(const fs::path& target) {
  const std::string id =
      std::to_string(::getpid()) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  return target.parent_path() / ("." + target.filename().string() + ".shears-staging-" + id);
}

/// COPY ... TO 'x.csv' (FORMAT csv, HEADER, DELIMITER ',', QUOTE '"', ESCAPE '"', NULLSTR '').
QueryResult RunCopyToCsv(Database& database, const Settings& settings, const std::string& sql,
                         const ast::CopyStatement& copy) {
  CsvWriteSpec spec;
  auto single_char = [](const ast::WriteOption& option) {
    const std::string v = option.values.size() == 1 ? option.values[0] : std::string();
    if (v == "\\t") return '\t';
    if (v.size() != 1) {
      throw InvalidInputError("COPY option {} takes a single character", option.name);
    }
    return v[0];
  };
  std::string compression = "auto";
  bool escape_given = false;
  for (const auto& option : copy.options) {
    const std::string& name = option.name;
    if (name == "format") {
      continue;
    } else if (name == "header") {
      spec.header = OptionBool(option);
    } else if (name == "delimiter" || name == "delim" || name == "sep") {
      spec.delimiter = single_char(option);
    } else if (name == "quote") {
      spec.quote = single_char(option);
    } else if (name == "escape") {
      spec.escape = single_char(option);
      escape_given = true;
    } else if (name == "nullstr" || name == "null") {
      spec.null_string = option.values.empty() ? std::string() : option.values[0];
    } else if (name == "compression") {
      compression = option.values.size() == 1 ? Lower(option.values[0]) : std::string();
      if (compression != "gzip" && compression != "none" && compression != "auto" &&
          compression != "uncompressed") {
        throw InvalidInputError("COPY ... (FORMAT csv) takes COMPRESSION gzip or none");
      }
    } else {
      throw InvalidInputError(
          "unknown COPY option '{}' for FORMAT csv (supported: FORMAT, HEADER, DELIMITER, "
          "QUOTE, ESCAPE, NULLSTR, COMPRESSION)",
          name);
    }
  }
  if (!escape_given) spec.escape = spec.quote;
  const fs::path target = fs::absolute(copy.path).lexically_normal();
  spec.gzip = compression == "gzip" ||
              (compression == "auto" && Lower(target.extension().string()) == ".gz");
  std::error_code ec;
  if (!fs::is_directory(target.parent_path(), ec)) {
    throw IOError("COPY: the directory '{}' does not exist", target.parent_path().string());
  }
  if (fs::is_directory(target, ec)) {
    throw IOError("COPY: '{}' is a directory; give a file name", target.string());
  }
  BoundQuery bound = BindWrite(database.catalog(), settings, sql, *copy.query).query;
  const fs::path staging = StagingPath(target);
  ScopedRemove cleanup(staging);
  spec.path = staging.string();
  spec.names = bound.names;
  auto sink = std::make_unique<PhysicalCsvWrite>(bound.types, std::move(spec));
  WrittenPartFile written;
  written.file_name = target.filename().string();
  written.file.rows = ExecuteInto(std::move(bound), settings, std::move(sink),
                                  [](ExecutionContext& context, const PhysicalOperator& op) {
                                    return PhysicalCsvWrite::RowsWritten(context, op);
                                  });
  fs::rename(staging, target, ec);
  if (ec) throw IOError("COPY: cannot move the file to '{}': {}", target.string(), ec.message());
  return WriteSummary({written});
}

QueryResult RunInsert(Database& database, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert);

/// COPY t [(cols)] FROM 'file' (options): INSERT INTO t [(cols)] SELECT * FROM
/// read_csv('file', options, columns = the target columns' names and types) (read_parquet
/// for FORMAT parquet). The header is off unless HEADER says otherwise, as in PostgreSQL.
QueryResult RunCopyFrom(Database& database, const Settings& settings, const std::string& sql,
                        const ast::CopyStatement& copy) {
  auto table = database.catalog().FindTable(copy.table);
  if (!table) {
    throw BinderError("{}\n{}", fmt::format("table '{}' does not exist", copy.table),
                      FormatErrorPosition(sql, copy.table_location));
  }
  // CSV unless FORMAT parquet says otherwise or the file is named .parquet.
  bool csv = Lower(fs::path(copy.path).extension().string()) != ".parquet";
  for (const auto& option : copy.options) {
    if (option.name == "format") csv = CopyFormat(copy) == "csv";
  }
  auto function = std::make_unique<ast::TableFunctionRef>();
  function->name = csv ? "read_csv" : "read_parquet";
  auto constant = [](std::string text) {
    auto c = std::make_unique<ast::ConstantExpr>();
    c->value = Value::Varchar(std::move(text));
    return c;
  };
  function->args.push_back(constant(copy.path));
  if (csv) {
    bool header = false;
    for (const auto& option : copy.options) {
      if (option.name == "format") continue;
      if (option.name == "header") header = true;
      function->named_args.emplace_back(
          option.name, constant(option.values.empty() ? "true" : option.values[0]));
    }
    if (!header) function->named_args.emplace_back("header", constant("false"));
    std::string columns;
    std::vector<std::string> names;
    for (const auto& column : table->columns)
      names.push_back(column.name);
    auto add = [&](const CatalogColumn& column) {
      columns += (columns.empty() ? "" : ", ") + column.name + " " + column.type.ToString();
    };
    for (const auto& name : copy.columns.empty() ? names : copy.columns) {
      const int index = FindName(names, name);
      if (index < 0) throw BinderError("table '{}' has no column '{}'", copy.table, name);
      add(table->columns[static_cast<size_t>(index)]);
    }
    function->named_args.emplace_back("columns", constant(columns));
  } else if (!copy.options.empty() &&
             !(copy.options.size() == 1 && copy.options[0].name == "format")) {
    throw InvalidInputError("COPY ... FROM a Parquet file takes no options but FORMAT");
  }
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  select->from = std::move(function);
  ast::InsertStatement insert;
  insert.name = copy.table;
  insert.name_location = copy.table_location;
  insert.columns = copy.columns;
  insert.query = std::move(select);
  return RunInsert(database, settings, sql, insert);
}

QueryResult RunCopy(Database& database, const Settings& settings, const std::string& sql,
                    const ast::CopyStatement& copy) {
  if (copy.is_from) return RunCopyFrom(database, settings, sql, copy);
  if (CopyFormat(copy) == "csv") return RunCopyToCsv(database, settings, sql, copy);
  CopyOptions options = ParseCopyOptions(copy.options);
  BoundQuery bound = BindWrite(database.catalog(), settings, sql, *copy.query).query;
  ParquetWriteSpec spec;
  spec.statement = "COPY";
  spec.names = bound.names;
  spec.options = options.writer;
  for (const auto& column : options.partition_by) {
    const int index = FindName(bound.names, column);
    if (index < 0) {
      throw BinderError("PARTITION_BY column '{}' is not a column of the query ({})", column,
                        fmt::format("{}", fmt::join(bound.names, ", ")));
    }
    spec.partition_columns.push_back(static_cast<idx_t>(index));
  }
  spec.store_partition_columns = options.write_partition_columns;
  const fs::path target = fs::absolute(copy.path).lexically_normal();
  const fs::path parent = target.parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) {
    throw IOError("COPY: the directory '{}' does not exist", parent.string());
  }
  // The staging area is a hidden sibling of the target (same file system, so renames are
  // atomic; hidden, so readers of the parent directory skip it).
  const std::string id =
      std::to_string(::getpid()) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  const fs::path staging = parent / ("." + target.filename().string() + ".shears-staging-" + id);
  ScopedRemove cleanup(staging);
  const bool directory_mode = !spec.partition_columns.empty() || options.per_thread_output;
  if (!directory_mode) {
    if (fs::is_directory(target, ec)) {
      throw IOError(
          "COPY: '{}' is a directory; give a file name, or PARTITION_BY to write a "
          "directory",
          target.string());
    }
    fs::create_directories(staging, ec);
    spec.single_file = (staging / "file.parquet").string();
    auto files = ExecuteWrite(std::move(bound), settings, std::move(spec));
    fs::rename(staging / "file.parquet", target, ec);
    if (ec) throw IOError("COPY: cannot move the file to '{}': {}", target.string(), ec.message());
    return WriteSummary(files);
  }
  if (fs::exists(target, ec) && !fs::is_directory(target, ec)) {
    throw IOError("COPY: '{}' is a file; PARTITION_BY writes a directory", target.string());
  }
  const bool not_empty = fs::is_directory(target, ec) && !fs::is_empty(target, ec);
  if (not_empty && !options.overwrite && !options.overwrite_or_ignore && !options.append) {
    throw IOError(
        "COPY: the directory '{}' is not empty; use OVERWRITE (replace its contents), "
        "OVERWRITE_OR_IGNORE (replace files of the same name) or APPEND (add files)",
        target.string());
  }
  spec.directory = staging.string();
  // APPEND names files uniquely so they never replace what is there.
  spec.file_prefix = options.append ? "data_" + id + "_" : "data_";
  auto files = ExecuteWrite(std::move(bound), settings, std::move(spec));
  // Files are complete: now make them the target's.
  if (options.overwrite && fs::is_directory(target, ec)) {
    for (const auto& entry : fs::directory_iterator(target, ec))
      fs::remove_all(entry.path(), ec);
  }
  fs::create_directories(target, ec);
  for (const auto& f : files) {
    const fs::path relative = fs::path(f.partition) / f.file_name;
    fs::create_directories((target / relative).parent_path(), ec);
    fs::rename(staging / relative, target / relative, ec);
    if (ec) {
      throw IOError("COPY: cannot move '{}' into '{}': {}", relative.string(), target.string(),
                    ec.message());
    }
  }
  return WriteSummary(files);
}

// ---------------------------------------------------------------- managed tables

/// The catalog entries of written files; paths relative to the table's location.
std::vector<CatalogPartition> CatalogPartitionsOf(const std::vector<WrittenPartFile>& files,
                                                  const std::vector<std::string>& data_names) {
  std::map<std::string, CatalogPartition> partitions;
  for (const auto& f : files) {
    CatalogPartition& partition = partitions[f.partition];
    partition.path = f.partition;
    CatalogFile file;
    file.path = f.partition.empty() ? f.file_name : f.partition + "/" + f.file_name;
    file.size = f.file.size;
    file.num_rows = f.file.rows;
    StatisticsEntry stats{"file", file.path, f.file.rows, static_cast<int64_t>(f.file.size), {}};
    for (size_t c = 0; c < data_names.size(); c++) {
      file.column_map.push_back(static_cast<int>(c));
      const auto& column = f.file.columns[c];
      ColumnStatistics cs;
      cs.column = data_names[c];
      cs.null_count = column.null_count;
      if (column.min) cs.min = column.min->ToString();
      if (column.max) cs.max = column.max->ToString();
      stats.columns.push_back(std::move(cs));
    }
    file.statistics = std::move(stats);
    partition.files.push_back(std::move(file));
  }
  std::vector<CatalogPartition> out;
  for (auto& [path, partition] : partitions)
    out.push_back(std::move(partition));
  return out;
}

/// Writes `bound` (columns in table order) into a staged write for table `table` and commits
/// with `commit` (which records the files in the catalog). `replaced` (paths relative to the
/// location): files the write replaces (UPDATE, DELETE), deleted once the commit is done.
template <typename Commit>
std::vector<WrittenPartFile> WriteManaged(Database& database, const Settings& settings,
                                          BoundQuery bound, const TableDefinition& table,
                                          const std::string& statement, Commit&& commit,
                                          const std::vector<std::string>* replaced = nullptr) {
  Catalog& catalog = database.catalog();
  StagedWrite staged(catalog.DataDirectory());
  const bool replacing = replaced != nullptr;
  ParquetWriteSpec spec;
  spec.statement = statement;
  spec.directory = staged.directory();
  spec.file_prefix = "part-" + staged.id() + "-";
  std::vector<std::string> data_names;
  for (size_t i = 0; i < table.columns.size(); i++) {
    spec.names.push_back(table.columns[i].name);
    if (table.columns[i].is_partition) {
      spec.partition_columns.push_back(i);
    } else {
      data_names.push_back(table.columns[i].name);
    }
  }
  auto files = ExecuteWrite(std::move(bound), settings, std::move(spec));
  if (!files.empty()) {
    CheckChecks(database, settings, table, staged.directory());
    CheckKeys(database, settings, table, staged.directory(), replacing);
  }
  std::vector<CatalogPartition> partitions = CatalogPartitionsOf(files, data_names);
  std::vector<std::string> relative;
  for (const auto& f : files)
    relative.push_back(f.partition.empty() ? f.file_name : f.partition + "/" + f.file_name);
  staged.Publish(table.name, table.location, relative);
  if (replacing) staged.Retire(table.name, table.location, *replaced);
  commit(std::move(partitions));  // the commit point
  staged.Finish();
  return files;
}

QueryResult RunCreateTable(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateTableStatement& create) {
  Catalog& catalog = database.catalog();
  if (catalog.FindTable(create.name) || catalog.FindView(create.name)) {
    if (create.if_not_exists) return QueryResult();
    throw BinderError("'{}' already exists\n{}", create.name,
                      FormatErrorPosition(sql, create.name_location));
  }
  TableDefinition table;
  table.name = create.name;
  table.managed = true;
  table.columns_declared = true;
  table.location = ManagedTableLocation(catalog.DataDirectory(), create.name);
  std::vector<CatalogColumn> columns;  // in the order given
  std::optional<BoundWrite> bound;
  if (create.query) {
    bound = BindWrite(catalog, settings, sql, *create.query);
    for (size_t i = 0; i < bound->query.names.size(); i++)
      columns.push_back({bound->query.names[i], bound->query.types[i]});
  } else {
    for (const auto& column : create.columns)
      columns.push_back({column.name, ResolveTypeName(*column.type)});
  }
  // Spark's PARTITIONED BY (p) names a column; Hive's (p type) adds one (column lists only).
  std::vector<CatalogColumn> partition_columns;
  for (const auto& p : create.partition_columns) {
    std::vector<std::string> names;
    for (const auto& c : columns)
      names.push_back(c.name);
    const int index = FindName(names, p.name);
    if (index >= 0) {
      if (p.type) {
        throw BinderError(
            "partition column '{}' is in the column list; give its type there only\n{}", p.name,
            FormatErrorPosition(sql, p.location));
      }
      partition_columns.push_back(columns[index]);
      columns.erase(columns.begin() + index);
    } else if (p.type && !create.query) {
      partition_columns.push_back({p.name, ResolveTypeName(*p.type)});
    } else {
      throw BinderError("PARTITIONED BY column '{}' is not a column of the table ({})\n{}", p.name,
                        fmt::format("{}", fmt::join(names, ", ")),
                        FormatErrorPosition(sql, p.location));
    }
    partition_columns.back().is_partition = true;
    if (partition_columns.back().type.id() == TypeId::kBlob) {
      throw NotSupportedError("cannot partition by the BLOB column '{}'", p.name);
    }
  }
  if (columns.empty()) {
    throw BinderError("table '{}' needs at least one column that is not a partition column",
                      create.name);
  }
  std::set<std::string> seen;
  for (auto& c : columns)
    table.columns.push_back(c);
  for (auto& c : partition_columns)
    table.columns.push_back(c);
  for (const auto& c : table.columns) {
    if (c.name.empty() || !seen.insert(Lower(c.name)).second) {
      throw BinderError("table '{}' would have two columns named '{}'; give them distinct names",
                        create.name, c.name);
    }
  }
  std::vector<std::string> table_names;
  for (const auto& c : table.columns)
    table_names.push_back(c.name);
  for (const auto& column : create.columns) {
    if (column.not_null)
      table.columns[static_cast<size_t>(FindName(table_names, column.name))].not_null = true;
  }
  bool has_primary = false;
  for (const auto& key : create.keys) {
    TableKey resolved;
    resolved.primary = key.primary;
    for (const auto& name : key.columns) {
      const int index = FindName(table_names, name);
      if (index < 0) {
        throw BinderError("key column '{}' is not a column of table '{}'\n{}", name, create.name,
                          FormatErrorPosition(sql, key.location));
      }
      if (std::find(resolved.columns.begin(), resolved.columns.end(), index) !=
          resolved.columns.end()) {
        throw BinderError("column '{}' appears twice in a key\n{}", name,
                          FormatErrorPosition(sql, key.location));
      }
      resolved.columns.push_back(index);
      // PRIMARY KEY implies NOT NULL (SQL).
      if (key.primary) table.columns[static_cast<size_t>(index)].not_null = true;
    }
    if (key.primary && std::exchange(has_primary, true)) {
      throw BinderError("table '{}' has more than one PRIMARY KEY\n{}", create.name,
                        FormatErrorPosition(sql, key.location));
    }
    table.keys.push_back(std::move(resolved));
  }
  table.checks = create.checks;
  if (!bound) {
    ValidateChecks(database, table);
    catalog.CreateTable(table);
    return WriteSummary({});
  }
  // The query's columns in the table's order (partition columns last).
  std::vector<BoundExprPtr> exprs;
  std::vector<std::string> names;
  for (const auto& c : table.columns) {
    exprs.push_back(QueryColumn(*bound, FindName(bound->query.names, c.name)));
    names.push_back(c.name);
  }
  Project(*bound, std::move(exprs), std::move(names));
  BoundQuery reordered = std::move(bound->query);
  auto files = WriteManaged(database, settings, std::move(reordered), table, "CREATE TABLE",
                            [&](std::vector<CatalogPartition> partitions) {
                              table.partitions = std::move(partitions);
                              catalog.CreateTable(table);
                            });
  return WriteSummary(files);
}

// ON CONFLICT (defined with UPDATE, whose pieces they use).
ast::QueryNodePtr DoNothingQuery(const Catalog& catalog, const Settings& settings,
                                 const std::string& sql, const TableDefinition& table,
                                 const ast::InsertStatement& insert);
QueryResult RunInsertDoUpdate(Database& database, const Settings& settings, const std::string& sql,
                              const TableDefinition& table, const ast::InsertStatement& insert);

QueryResult RunInsert(Database& database, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert) {
  Catalog& catalog = database.catalog();
  auto table = catalog.FindTable(insert.name);
  if (!table) {
    throw BinderError("{}\n{}",
                      catalog.FindView(insert.name)
                          ? fmt::format("cannot INSERT INTO the view '{}'", insert.name)
                          : fmt::format("table '{}' does not exist", insert.name),
                      FormatErrorPosition(sql, insert.name_location));
  }
  if (!table->managed) {
    throw NotSupportedError(
        "INSERT INTO the external table '{}' is not supported (shears writes only tables it "
        "created; write files with COPY and run ALTER TABLE {} RECOVER PARTITIONS)\n{}",
        insert.name, insert.name, FormatErrorPosition(sql, insert.name_location));
  }
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  for (const auto& c : table->columns) {
    types.push_back(c.type);
    names.push_back(c.name);
  }
  if (insert.on_conflict == ast::InsertStatement::OnConflict::kUpdate)
    return RunInsertDoUpdate(database, settings, sql, *table, insert);
  // DO NOTHING: the rows whose keys are new, one per key value.
  ast::QueryNodePtr new_rows;
  if (insert.on_conflict == ast::InsertStatement::OnConflict::kNothing)
    new_rows = DoNothingQuery(catalog, settings, sql, *table, insert);
  BoundWrite bound = BindWrite(catalog, settings, sql, new_rows ? *new_rows : *insert.query);
  if (insert.columns.empty()) {
    CastForWrite(bound, types, names);
  } else {
    // The listed columns from the query, the others NULL.
    std::vector<LogicalType> listed_types;
    std::vector<int> position(names.size(), -1);
    for (size_t i = 0; i < insert.columns.size(); i++) {
      const int index = FindName(names, insert.columns[i]);
      if (index < 0) {
        throw BinderError("table '{}' has no column '{}'", insert.name, insert.columns[i]);
      }
      if (position[index] >= 0) throw BinderError("column '{}' is listed twice", insert.columns[i]);
      position[index] = static_cast<int>(i);
      listed_types.push_back(types[index]);
    }
    CastForWrite(bound, listed_types, insert.columns);
    std::vector<BoundExprPtr> exprs;
    for (size_t c = 0; c < names.size(); c++) {
      if (position[c] < 0 && table->columns[c].not_null) {
        throw ConstraintError(
            "column '{}' of table '{}' is NOT NULL but the INSERT gives it no value; nothing was "
            "written",
            names[c], insert.name);
      }
      exprs.push_back(position[c] >= 0 ? QueryColumn(bound, static_cast<size_t>(position[c]))
                                       : std::make_unique<BoundConstant>(Value::Null(types[c])));
    }
    Project(bound, std::move(exprs), names);
  }
  ProjectNotNullChecks(bound, *table);
  auto files = WriteManaged(database, settings, std::move(bound.query), *table, "INSERT",
                            [&](std::vector<CatalogPartition> partitions) {
                              catalog.AppendFiles(table->name, partitions);
                            });
  return WriteSummary(files);
}

// ---------------------------------------------------------------- indexes

/// The managed or external table a statement names: BinderError naming the position when it
/// is a view or missing.
TableDefinition RequireTable(const Catalog& catalog, const std::string& sql,
                             const std::string& name, int location, const char* action) {
  auto table = catalog.FindTable(name);
  if (table) return std::move(*table);
  throw BinderError("{}\n{}",
                    catalog.FindView(name) ? fmt::format("cannot {} the view '{}'", action, name)
                                           : fmt::format("table '{}' does not exist", name),
                    FormatErrorPosition(sql, location));
}

QueryResult RunCreateIndex(Database& database, const Settings& settings, const std::string& sql,
                           const ast::CreateIndexStatement& create) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireTable(catalog, sql, create.table, create.table_location, "create an index on");
  IndexDefinition index{create.name, table.name, create.unique, {}};
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  for (const auto& column : create.columns) {
    const int position = FindName(names, column);
    if (position < 0) {
      throw BinderError("index column '{}' is not a column of table '{}' ({})", column, table.name,
                        fmt::format("{}", fmt::join(names, ", ")));
    }
    if (std::find(index.columns.begin(), index.columns.end(), position) != index.columns.end())
      throw BinderError("column '{}' appears twice in index '{}'", column, create.name);
    index.columns.push_back(position);
  }
  if (create.if_not_exists) {
    for (const auto& existing : catalog.ListIndexes(""))
      if (Lower(existing.name) == Lower(create.name)) return QueryResult();
  }
  if (create.unique) {
    if (!table.managed) {
      // Files that RECOVER PARTITIONS finds later could break it unnoticed.
      throw NotSupportedError(
          "CREATE UNIQUE INDEX on the external table '{}' is not supported (shears checks "
          "uniqueness only on tables it writes)\n{}",
          table.name, FormatErrorPosition(sql, create.table_location));
    }
    if (auto values = FindDuplicateKey(database, settings, table, index.columns,
                                       QuoteIdentifier(table.name))) {
      ThrowDuplicate(table, index.columns, *values, "UNIQUE index '" + create.name + "'",
                     "the index was not created");
    }
  }
  catalog.CreateIndex(index, create.if_not_exists);
  return QueryResult();
}

// ---------------------------------------------------------------- UPDATE and DELETE
//
// Both rewrite the whole table: a query over it computes the new rows, which are written as a
// staged write (checked against the table's constraints like an INSERT), then one catalog
// transaction swaps the old file list for the new one (the commit point: readers see the old
// or the new table, never a mix) and the old files are deleted.

/// A fresh copy of `statement` (the AST has no deep copy): its text parsed again, the rest of
/// `sql` blanked so offsets stay the user's and other statements are not parsed again.
ast::StatementPtr Reparse(const std::string& sql, const ast::Statement& statement) {
  const size_t begin = std::min(static_cast<size_t>(std::max(statement.location, 0)), sql.size());
  const size_t end = statement.length > 0
                         ? std::min(sql.size(), begin + static_cast<size_t>(statement.length))
                         : sql.size();
  std::string blanked = sql;
  for (size_t i = 0; i < blanked.size(); i++) {
    if ((i < begin || i >= end) && blanked[i] != '\n') blanked[i] = ' ';
  }
  for (auto& candidate : Parser::Parse(blanked)) {
    if (candidate->location == statement.location && candidate->kind == statement.kind)
      return std::move(candidate);
  }
  throw InternalError("the statement at offset {} did not parse again", statement.location);
}

ast::ExprPtr ColumnRef(const std::string& relation, const std::string& column) {
  auto ref = std::make_unique<ast::ColumnRefExpr>();
  if (!relation.empty()) ref->names.push_back(relation);
  ref->names.push_back(column);
  return ref;
}

ast::ExprPtr Constant(Value value) {
  auto constant = std::make_unique<ast::ConstantExpr>();
  constant->value = std::move(value);
  return constant;
}

/// CAST(expr AS type), the type spelled as the binder reads it back.
ast::ExprPtr CastAst(ast::ExprPtr expr, const LogicalType& type) {
  auto cast = std::make_unique<ast::CastExpr>();
  cast->child = std::move(expr);
  const std::string text = type.ToString();
  const size_t paren = text.find('(');
  cast->type.name = Lower(text.substr(0, paren));
  if (paren != std::string::npos) {
    int precision = 0, scale = 0;
    if (std::sscanf(text.c_str() + paren, "(%d,%d)", &precision, &scale) == 2)
      cast->type.modifiers = {precision, scale};
  }
  return cast;
}

std::unique_ptr<ast::BaseTableRef> TableRefAst(const std::string& name, const std::string& alias) {
  auto ref = std::make_unique<ast::BaseTableRef>();
  ref->name.push_back(name);
  ref->alias = alias;
  return ref;
}

/// NOT EXISTS (SELECT 1 FROM from WHERE condition) / EXISTS (...).
ast::ExprPtr ExistsAst(ast::TableRefPtr from, ast::ExprPtr condition, bool negated) {
  auto inner = std::make_unique<ast::SelectNode>();
  inner->select_list.push_back({Constant(Value::Integer(1)), ""});
  inner->from = std::move(from);
  inner->where = std::move(condition);
  auto exists = std::make_unique<ast::SubqueryExpr>();
  exists->subquery_kind = ast::SubqueryKind::kExists;
  exists->negated = negated;
  exists->query = std::move(inner);
  return exists;
}

/// The managed table an UPDATE or DELETE may rewrite.
TableDefinition RequireManaged(const Catalog& catalog, const std::string& sql,
                               const std::string& name, int location, const char* verb) {
  TableDefinition table = RequireTable(catalog, sql, name, location, verb);
  if (!table.managed) {
    throw NotSupportedError(
        "{} on the external table '{}' is not supported (shears changes only tables it "
        "created)\n{}",
        verb, name, FormatErrorPosition(sql, location));
  }
  return table;
}

/// SELECT count(*) FROM from [WHERE where].
int64_t CountRows(const Catalog& catalog, const Settings& settings, const std::string& sql,
                  ast::TableRefPtr from, ast::ExprPtr where) {
  auto query = std::make_unique<ast::SelectNode>();
  auto count_star = std::make_unique<ast::FunctionExpr>();
  count_star->name = "count";
  count_star->star = true;
  query->select_list.push_back({std::move(count_star), ""});
  query->from = std::move(from);
  query->where = std::move(where);
  BoundWrite bound = BindWrite(catalog, settings, sql, *query);
  auto sink = std::make_unique<PhysicalResultCollector>(bound.query.types);
  return ExecuteInto(std::move(bound.query), settings, std::move(sink),
                     [](ExecutionContext& context, const PhysicalOperator& op) {
                       const auto& rows = PhysicalResultCollector::Result(context, op);
                       return rows.batch(0).column(0).data<int64_t>()[0];
                     });
}

QueryResult CountResult(int64_t count) {
  QueryResult result;
  result.names = {"rows"};
  result.types = {LogicalType::Bigint()};
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, 1);
  batch.column(0).data<int64_t>()[0] = count;
  batch.SetSize(1);
  result.rows->Append(batch);
  return result;
}

/// Writes the rows `query` computes (the table's columns, in order) as the table's new
/// content in place of every file it has now.
std::vector<WrittenPartFile> RewriteTable(Database& database, const Settings& settings,
                                          const std::string& sql, const TableDefinition& table,
                                          const ast::QueryNode& query,
                                          const std::string& statement) {
  std::vector<LogicalType> types;
  std::vector<std::string> names;
  for (const auto& c : table.columns) {
    types.push_back(c.type);
    names.push_back(c.name);
  }
  std::vector<std::string> old_files;
  for (const auto& partition : table.partitions)
    for (const auto& file : partition.files)
      old_files.push_back(file.path);
  Catalog& catalog = database.catalog();
  BoundWrite bound = BindWrite(catalog, settings, sql, query);
  CastForWrite(bound, types, names);
  ProjectNotNullChecks(bound, table);
  return WriteManaged(
      database, settings, std::move(bound.query), table, statement,
      [&](std::vector<CatalogPartition> partitions) {
        catalog.SwapFiles(table.name, old_files, partitions);
      },
      &old_files);
}

/// For each column of `table`, the index of its assignment in `assignments`, or -1;
/// BinderError for an unknown column or one assigned twice.
std::vector<int> AssignedColumns(const std::string& sql, const TableDefinition& table,
                                 const std::vector<ast::ColumnAssignment>& assignments) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  std::vector<int> assigned(table.columns.size(), -1);
  for (size_t i = 0; i < assignments.size(); i++) {
    const auto& assignment = assignments[i];
    const int index = FindName(names, assignment.column);
    if (index < 0) {
      throw BinderError("table '{}' has no column '{}'\n{}", table.name, assignment.column,
                        FormatErrorPosition(sql, assignment.location));
    }
    if (assigned[index] >= 0) {
      throw BinderError("column '{}' is assigned twice\n{}", assignment.column,
                        FormatErrorPosition(sql, assignment.location));
    }
    assigned[index] = static_cast<int>(i);
  }
  return assigned;
}

QueryResult RunUpdate(Database& database, const Settings& settings, const std::string& sql,
                      const ast::UpdateStatement& update) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireManaged(catalog, sql, update.name, update.name_location, "UPDATE");
  const std::string alias = update.alias.empty() ? table.name : update.alias;
  // Each assignment's column, validated before any scan.
  const std::vector<int> assigned = AssignedColumns(sql, table, update.assignments);
  // How many rows change: those WHERE holds for (with FROM: that have a FROM row it holds for).
  auto copy = Reparse(sql, update);
  auto& counted = static_cast<ast::UpdateStatement&>(*copy);
  ast::ExprPtr changes = std::move(counted.where);
  if (counted.from) {
    changes = ExistsAst(std::move(counted.from),
                        changes ? std::move(changes) : Constant(Value::Boolean(true)),
                        /*negated=*/false);
  }
  const int64_t count =
      CountRows(catalog, settings, sql, TableRefAst(table.name, alias), std::move(changes));
  if (count == 0) return CountResult(0);

  // The new rows: CASE WHEN <row changes> THEN CAST(value AS type) ELSE column END per column.
  copy = Reparse(sql, update);
  auto& rewritten = static_cast<ast::UpdateStatement&>(*copy);
  const std::string kMatched = "__shears_update_matched";
  auto query = std::make_unique<ast::SelectNode>();
  std::string value_relation = alias;  // where the assigned values are read
  const bool has_from = rewritten.from != nullptr;
  if (has_from) {
    // FROM t AS a LEFT JOIN LATERAL (SELECT values..., TRUE AS matched FROM from WHERE cond
    // LIMIT 1) u ON TRUE: one matching FROM row per row of t (any one, as in DuckDB).
    value_relation = "__shears_update_values";
    auto values = std::make_unique<ast::SelectNode>();
    for (size_t c = 0; c < table.columns.size(); c++) {
      if (assigned[c] < 0) continue;
      values->select_list.push_back(
          {CastAst(std::move(rewritten.assignments[static_cast<size_t>(assigned[c])].value),
                   table.columns[c].type),
           "__shears_value_" + std::to_string(c)});
    }
    values->select_list.push_back({Constant(Value::Boolean(true)), kMatched});
    values->from = std::move(rewritten.from);
    values->where = std::move(rewritten.where);
    values->limit = Constant(Value::Integer(1));
    auto lateral = std::make_unique<ast::SubqueryRef>();
    lateral->query = std::move(values);
    lateral->lateral = true;
    lateral->alias = value_relation;
    auto join = std::make_unique<ast::JoinRef>();
    join->join_type = ast::JoinType::kLeft;
    join->left = TableRefAst(table.name, alias);
    join->right = std::move(lateral);
    join->condition = Constant(Value::Boolean(true));
    query->from = std::move(join);
  } else {
    // FROM (SELECT *, (cond) IS TRUE AS matched FROM t AS a) AS a.
    auto inner = std::make_unique<ast::SelectNode>();
    inner->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
    ast::ExprPtr matched = Constant(Value::Boolean(true));
    if (rewritten.where) {
      auto is_true = std::make_unique<ast::IsBoolExpr>();
      is_true->child = std::move(rewritten.where);
      matched = std::move(is_true);
    }
    inner->select_list.push_back({std::move(matched), kMatched});
    inner->from = TableRefAst(table.name, alias);
    auto derived = std::make_unique<ast::SubqueryRef>();
    derived->query = std::move(inner);
    derived->alias = alias;
    query->from = std::move(derived);
  }
  for (size_t c = 0; c < table.columns.size(); c++) {
    const std::string& name = table.columns[c].name;
    if (assigned[c] < 0) {
      query->select_list.push_back({ColumnRef(alias, name), name});
      continue;
    }
    ast::ExprPtr value =
        has_from ? ColumnRef(value_relation, "__shears_value_" + std::to_string(c))
                 : CastAst(std::move(rewritten.assignments[static_cast<size_t>(assigned[c])].value),
                           table.columns[c].type);
    auto choose = std::make_unique<ast::CaseExpr>();
    auto is_true = std::make_unique<ast::IsBoolExpr>();
    is_true->child = ColumnRef(value_relation, kMatched);
    choose->when_then.emplace_back(std::move(is_true), std::move(value));
    choose->else_expr = ColumnRef(alias, name);
    query->select_list.push_back({std::move(choose), name});
  }
  RewriteTable(database, settings, sql, table, *query, "UPDATE");
  return CountResult(count);
}

QueryResult RunDelete(Database& database, const Settings& settings, const std::string& sql,
                      const ast::DeleteStatement& remove) {
  Catalog& catalog = database.catalog();
  const TableDefinition table =
      RequireManaged(catalog, sql, remove.name, remove.name_location, "DELETE");
  const std::string alias = remove.alias.empty() ? table.name : remove.alias;
  // The condition a deleted row meets; with USING: a USING row meets WHERE with it.
  auto condition = [&]() -> ast::ExprPtr {
    auto copy = Reparse(sql, remove);
    auto& statement = static_cast<ast::DeleteStatement&>(*copy);
    ast::ExprPtr where =
        statement.where ? std::move(statement.where) : Constant(Value::Boolean(true));
    if (!statement.using_tables) return where;
    return ExistsAst(std::move(statement.using_tables), std::move(where), /*negated=*/false);
  };
  const int64_t count =
      CountRows(catalog, settings, sql, TableRefAst(table.name, alias), condition());
  if (count == 0) return CountResult(0);
  // The rows kept: those the condition is not true for (NULL keeps a row, as in SQL).
  auto query = std::make_unique<ast::SelectNode>();
  for (const auto& c : table.columns)
    query->select_list.push_back({ColumnRef(alias, c.name), c.name});
  query->from = TableRefAst(table.name, alias);
  auto kept = std::make_unique<ast::IsBoolExpr>();
  kept->child = condition();
  kept->negated = true;
  query->where = std::move(kept);
  RewriteTable(database, settings, sql, table, *query, "DELETE");
  return CountResult(count);
}

// ---------------------------------------------------------------- INSERT ... ON CONFLICT
//
// DuckDB's forms: ON CONFLICT [(cols)] DO NOTHING (also INSERT OR IGNORE) inserts the rows
// whose keys are not in the table yet, the first of several rows with one key value;
// DO UPDATE SET col = expr (also INSERT OR REPLACE: every inserted column from `excluded`)
// changes the rows whose key an inserted row has, reading the new values as `excluded.col`,
// and inserts the others: a rewrite of the table like UPDATE's.

ast::ExprPtr OperatorAst(const std::string& op, std::vector<ast::ExprPtr> children) {
  auto expr = std::make_unique<ast::OperatorExpr>();
  expr->op = op;
  expr->children = std::move(children);
  return expr;
}

/// left.k1 = right.k1 AND ...
ast::ExprPtr KeyMatch(const std::vector<std::string>& key, const std::string& left,
                      const std::string& right) {
  std::vector<ast::ExprPtr> equal;
  for (const auto& column : key) {
    std::vector<ast::ExprPtr> sides;
    sides.push_back(ColumnRef(left, column));
    sides.push_back(ColumnRef(right, column));
    equal.push_back(OperatorAst("=", std::move(sides)));
  }
  return equal.size() == 1 ? std::move(equal[0]) : OperatorAst("AND", std::move(equal));
}

std::unique_ptr<ast::SubqueryRef> DerivedAst(ast::QueryNodePtr query, const std::string& alias,
                                             std::vector<std::string> column_aliases = {}) {
  auto derived = std::make_unique<ast::SubqueryRef>();
  derived->query = std::move(query);
  derived->alias = alias;
  derived->column_aliases = std::move(column_aliases);
  return derived;
}

constexpr const char* kIncoming = "__shears_incoming";
constexpr const char* kExisting = "__shears_existing";

/// The inserted rows named `columns`, keeping for each key one row per key value (rows with
/// a NULL in the key never collide, so all stay): SELECT * FROM (query) AS incoming(columns)
/// QUALIFY row_number() OVER (PARTITION BY key) = 1 OR k1 IS NULL OR ..., once per key.
ast::QueryNodePtr IncomingRows(ast::QueryNodePtr query, const std::vector<std::string>& columns,
                               const std::vector<std::vector<std::string>>& keys) {
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  select->from = DerivedAst(std::move(query), kIncoming, columns);
  ast::QueryNodePtr rows = std::move(select);
  for (const auto& key : keys) {
    auto dedup = std::make_unique<ast::SelectNode>();
    dedup->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
    dedup->from = DerivedAst(std::move(rows), kIncoming);
    auto number = std::make_unique<ast::FunctionExpr>();
    number->name = "row_number";
    number->over = std::make_unique<ast::WindowSpec>();
    for (const auto& column : key)
      number->over->partition_by.push_back(ColumnRef(kIncoming, column));
    std::vector<ast::ExprPtr> keep, first;
    first.push_back(std::move(number));
    first.push_back(Constant(Value::Bigint(1)));
    keep.push_back(OperatorAst("=", std::move(first)));
    for (const auto& column : key) {
      auto is_null = std::make_unique<ast::IsNullExpr>();
      is_null->child = ColumnRef(kIncoming, column);
      keep.push_back(std::move(is_null));
    }
    dedup->qualify = OperatorAst("OR", std::move(keep));
    rows = std::move(dedup);
  }
  return rows;
}

/// The columns an INSERT gives (its list, else the table's) and the keys ON CONFLICT is about
/// (by column name): the one its columns name, else every PRIMARY KEY, UNIQUE and UNIQUE
/// index; keys with a column the INSERT leaves NULL are left out (they cannot collide).
std::pair<std::vector<std::string>, std::vector<std::vector<std::string>>> ConflictKeys(
    const std::string& sql, const TableDefinition& table, const ast::InsertStatement& insert) {
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  std::vector<std::vector<int>> keys;
  for (const auto& key : table.keys)
    keys.push_back(key.columns);
  for (const auto& index : table.indexes)
    if (index.unique) keys.push_back(index.columns);
  if (keys.empty()) {
    throw BinderError(
        "table '{}' has no PRIMARY KEY, UNIQUE constraint or UNIQUE index for ON CONFLICT to "
        "refer to\n{}",
        table.name, FormatErrorPosition(sql, insert.conflict_location));
  }
  if (!insert.conflict_columns.empty()) {
    std::vector<int> wanted;
    for (const auto& column : insert.conflict_columns) {
      const int index = FindName(names, column);
      if (index < 0) throw BinderError("table '{}' has no column '{}'", table.name, column);
      wanted.push_back(index);
    }
    std::sort(wanted.begin(), wanted.end());
    std::vector<std::vector<int>> matching;
    for (auto key : keys) {
      std::sort(key.begin(), key.end());
      if (key == wanted) matching.push_back(key);
    }
    if (matching.empty()) {
      throw BinderError(
          "the ON CONFLICT columns ({}) are not a PRIMARY KEY, UNIQUE constraint or UNIQUE "
          "index of table '{}'\n{}",
          fmt::format("{}", fmt::join(insert.conflict_columns, ", ")), table.name,
          FormatErrorPosition(sql, insert.conflict_location));
    }
    keys = {matching[0]};
  }
  const std::vector<std::string> columns = insert.columns.empty() ? names : insert.columns;
  std::vector<std::vector<std::string>> named;
  for (const auto& key : keys) {
    std::vector<std::string> key_names;
    bool given = true;
    for (int c : key) {
      key_names.push_back(names[static_cast<size_t>(c)]);
      given = given && FindName(columns, names[static_cast<size_t>(c)]) >= 0;
    }
    if (given) named.push_back(std::move(key_names));
  }
  return {columns, named};
}

/// The "columns given / written" error before the inserted rows get `columns` as names (an
/// alias count error would name an internal table).
void CheckInsertWidth(const Catalog& catalog, const Settings& settings, const std::string& sql,
                      const ast::InsertStatement& insert, const std::vector<std::string>& columns) {
  const BoundWrite bound = BindWrite(catalog, settings, sql, *insert.query);
  if (bound.query.names.size() != columns.size()) {
    throw BinderError("the query gives {} columns but {} are written ({})",
                      bound.query.names.size(), columns.size(),
                      fmt::format("{}", fmt::join(columns, ", ")));
  }
}

/// The inserted query again (a fresh copy of the statement's).
ast::QueryNodePtr InsertQueryCopy(const std::string& sql, const ast::InsertStatement& insert,
                                  std::unique_ptr<ast::InsertStatement>* whole = nullptr) {
  auto copy = Reparse(sql, insert);
  auto* statement = static_cast<ast::InsertStatement*>(copy.get());
  ast::QueryNodePtr query = std::move(statement->query);
  if (whole) {
    copy.release();
    whole->reset(statement);
  }
  return query;
}

ast::QueryNodePtr DoNothingQuery(const Catalog& catalog, const Settings& settings,
                                 const std::string& sql, const TableDefinition& table,
                                 const ast::InsertStatement& insert) {
  auto [columns, keys] = ConflictKeys(sql, table, insert);
  CheckInsertWidth(catalog, settings, sql, insert, columns);
  auto select = std::make_unique<ast::SelectNode>();
  select->select_list.push_back({std::make_unique<ast::StarExpr>(), ""});
  select->from =
      DerivedAst(IncomingRows(InsertQueryCopy(sql, insert), columns, keys), kIncoming, columns);
  std::vector<ast::ExprPtr> absent;
  for (const auto& key : keys) {
    absent.push_back(
        ExistsAst(TableRefAst(table.name, kExisting), KeyMatch(key, kExisting, kIncoming), true));
  }
  if (!absent.empty())
    select->where =
        absent.size() == 1 ? std::move(absent[0]) : OperatorAst("AND", std::move(absent));
  return select;
}

/// How DO UPDATE's join names `excluded`'s columns, so that a bare column name means the
/// table's (as DuckDB), never an ambiguous one.
std::string ExcludedName(const std::string& column) {
  return "__shears_excluded_" + column;
}

/// Turns `excluded.col` into `excluded.<ExcludedName(col)>` throughout `expr` (subqueries
/// aside: they see `excluded` under its renamed columns).
void RenameExcluded(ast::Expr* expr) {
  if (expr == nullptr) return;
  auto each = [](auto&... children) { (RenameExcluded(children.get()), ...); };
  switch (expr->kind) {
    case ast::ExprKind::kColumnRef: {
      auto& names = static_cast<ast::ColumnRefExpr*>(expr)->names;
      if (names.size() == 2 && Lower(names[0]) == "excluded") names[1] = ExcludedName(names[1]);
      break;
    }
    case ast::ExprKind::kOperator:
      for (auto& child : static_cast<ast::OperatorExpr*>(expr)->children)
        RenameExcluded(child.get());
      break;
    case ast::ExprKind::kFunction: {
      auto* f = static_cast<ast::FunctionExpr*>(expr);
      for (auto& arg : f->args)
        RenameExcluded(arg.get());
      each(f->filter);
      for (auto& item : f->order_by)
        RenameExcluded(item.expr.get());
      break;
    }
    case ast::ExprKind::kCast:
      each(static_cast<ast::CastExpr*>(expr)->child);
      break;
    case ast::ExprKind::kCase: {
      auto* c = static_cast<ast::CaseExpr*>(expr);
      each(c->operand, c->else_expr);
      for (auto& [when, then] : c->when_then)
        each(when, then);
      break;
    }
    case ast::ExprKind::kSubquery:
      each(static_cast<ast::SubqueryExpr*>(expr)->left);
      break;
    case ast::ExprKind::kInList: {
      auto* in = static_cast<ast::InListExpr*>(expr);
      each(in->value);
      for (auto& item : in->list)
        RenameExcluded(item.get());
      break;
    }
    case ast::ExprKind::kBetween: {
      auto* b = static_cast<ast::BetweenExpr*>(expr);
      each(b->value, b->low, b->high);
      break;
    }
    case ast::ExprKind::kLike: {
      auto* l = static_cast<ast::LikeExpr*>(expr);
      each(l->value, l->pattern, l->escape);
      break;
    }
    case ast::ExprKind::kIsNull:
      each(static_cast<ast::IsNullExpr*>(expr)->child);
      break;
    case ast::ExprKind::kIsBool:
      each(static_cast<ast::IsBoolExpr*>(expr)->child);
      break;
    case ast::ExprKind::kStar:
    case ast::ExprKind::kConstant:
    case ast::ExprKind::kInterval:
      break;
  }
}

QueryResult RunInsertDoUpdate(Database& database, const Settings& settings, const std::string& sql,
                              const TableDefinition& table, const ast::InsertStatement& insert) {
  auto [columns, keys] = ConflictKeys(sql, table, insert);
  CheckInsertWidth(database.catalog(), settings, sql, insert, columns);
  if (keys.size() > 1) {
    throw NotSupportedError(
        "ON CONFLICT DO UPDATE on table '{}', which has several keys: name the conflict "
        "columns, ON CONFLICT (col, ...)\n{}",
        table.name, FormatErrorPosition(sql, insert.conflict_location));
  }
  std::vector<std::string> names;
  for (const auto& c : table.columns)
    names.push_back(c.name);
  // What DO UPDATE sets: the SET list, or (OR REPLACE) every inserted column from excluded.
  std::vector<int> assigned(table.columns.size(), -1);
  std::unique_ptr<ast::InsertStatement> with_set;
  ast::QueryNodePtr updating = InsertQueryCopy(sql, insert, &with_set);
  std::vector<ast::ExprPtr> set_values;
  if (insert.or_replace) {
    for (const auto& column : columns) {
      assigned[static_cast<size_t>(FindName(names, column))] = static_cast<int>(set_values.size());
      set_values.push_back(ColumnRef("excluded", ExcludedName(column)));
    }
  } else {
    assigned = AssignedColumns(sql, table, with_set->conflict_set);
    for (auto& assignment : with_set->conflict_set) {
      RenameExcluded(assignment.value.get());
      set_values.push_back(std::move(assignment.value));
    }
  }
  const int64_t count = CountRows(
      database.catalog(), settings, sql,
      DerivedAst(IncomingRows(InsertQueryCopy(sql, insert), columns, keys), kIncoming), nullptr);
  if (count == 0) return WriteSummary({});
  if (keys.empty()) {
    // No key the INSERT gives: nothing can collide, all rows are new.
    auto plain = Reparse(sql, insert);
    static_cast<ast::InsertStatement&>(*plain).on_conflict =
        ast::InsertStatement::OnConflict::kError;
    return RunInsert(database, settings, sql, static_cast<ast::InsertStatement&>(*plain));
  }
  const auto& key = keys[0];
  // Rows of t no inserted row collides with.
  auto kept = std::make_unique<ast::SelectNode>();
  for (const auto& name : names)
    kept->select_list.push_back(
        {CastAst(ColumnRef(kExisting, name), table.columns[FindName(names, name)].type), name});
  kept->from = TableRefAst(table.name, kExisting);
  kept->where =
      ExistsAst(DerivedAst(IncomingRows(InsertQueryCopy(sql, insert), columns, keys), "excluded"),
                KeyMatch(key, "excluded", kExisting), /*negated=*/true);
  // Rows of t an inserted row collides with, updated.
  auto updated = std::make_unique<ast::SelectNode>();
  for (size_t c = 0; c < names.size(); c++) {
    ast::ExprPtr value = assigned[c] >= 0 ? std::move(set_values[static_cast<size_t>(assigned[c])])
                                          : ColumnRef(table.name, names[c]);
    updated->select_list.push_back({CastAst(std::move(value), table.columns[c].type), names[c]});
  }
  auto join = std::make_unique<ast::JoinRef>();
  join->join_type = ast::JoinType::kInner;
  join->left = TableRefAst(table.name, table.name);
  std::vector<std::string> renamed;
  for (const auto& column : columns)
    renamed.push_back(ExcludedName(column));
  join->right =
      DerivedAst(IncomingRows(std::move(updating), columns, keys), "excluded", std::move(renamed));
  std::vector<ast::ExprPtr> equal;
  for (const auto& column : key) {
    std::vector<ast::ExprPtr> sides;
    sides.push_back(ColumnRef(table.name, column));
    sides.push_back(ColumnRef("excluded", ExcludedName(column)));
    equal.push_back(OperatorAst("=", std::move(sides)));
  }
  join->condition = equal.size() == 1 ? std::move(equal[0]) : OperatorAst("AND", std::move(equal));
  updated->from = std::move(join);
  // Inserted rows whose key is new (the columns the INSERT leaves out NULL).
  auto added = std::make_unique<ast::SelectNode>();
  for (size_t c = 0; c < names.size(); c++) {
    ast::ExprPtr value = FindName(columns, names[c]) >= 0 ? ColumnRef("excluded", names[c])
                                                          : Constant(Value::Null(LogicalType()));
    added->select_list.push_back({CastAst(std::move(value), table.columns[c].type), names[c]});
  }
  added->from = DerivedAst(IncomingRows(InsertQueryCopy(sql, insert), columns, keys), "excluded");
  added->where = ExistsAst(TableRefAst(table.name, kExisting), KeyMatch(key, kExisting, "excluded"),
                           /*negated=*/true);
  auto first = std::make_unique<ast::SetOperationNode>();
  first->all = true;
  first->left = std::move(kept);
  first->right = std::move(updated);
  auto all = std::make_unique<ast::SetOperationNode>();
  all->all = true;
  all->left = std::move(first);
  all->right = std::move(added);
  QueryResult result = WriteSummary(RewriteTable(database, settings, sql, table, *all, "INSERT"));
  result.rows->batch(0).column(0).data<int64_t>()[0] = count;  // rows inserted or updated
  return result;
}

}  // namespace

QueryResult RunWriteStatement(Database& database, const Settings& session_settings,
                              const std::string& sql, const ast::Statement& statement) {
  // The queries below spill into the database's temp directory unless one is set.
  Settings settings = session_settings;
  if (settings.GetString("temp_directory").empty())
    settings.Set("temp_directory", Value::Varchar(database.temp_directory()));
  switch (statement.kind) {
    case ast::StatementKind::kCopy:
      return RunCopy(database, settings, sql, static_cast<const ast::CopyStatement&>(statement));
    case ast::StatementKind::kCreateTable:
      return RunCreateTable(database, settings, sql,
                            static_cast<const ast::CreateTableStatement&>(statement));
    case ast::StatementKind::kInsert:
      return RunInsert(database, settings, sql,
                       static_cast<const ast::InsertStatement&>(statement));
    case ast::StatementKind::kCreateIndex:
      return RunCreateIndex(database, settings, sql,
                            static_cast<const ast::CreateIndexStatement&>(statement));
    case ast::StatementKind::kUpdate:
      return RunUpdate(database, settings, sql,
                       static_cast<const ast::UpdateStatement&>(statement));
    case ast::StatementKind::kDelete:
      return RunDelete(database, settings, sql,
                       static_cast<const ast::DeleteStatement&>(statement));
    default:
      throw InternalError("not a write statement");
  }
}

}  // namespace shears
