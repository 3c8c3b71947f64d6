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
#include "common/clock.h"
#include "common/error.h"
#include "common/file_format.h"
#include "common/string_util.h"
#include "execution/operator/physical_csv_write.h"
#include "execution/operator/physical_parquet_write.h"
#include "execution/operator/physical_result_collector.h"
#include "execution/physical_planner.h"
#include "execution/pipeline.h"
#include "execution/query_context.h"
#include "optimizer/optimizer.h"
#include "parser/parser.h"
#include "planner/binder.h"
#include "storage/csv/csv_options.h"

#include "main/write_internal.h"

namespace shears::write_internal {

namespace fs = std::filesystem;

/// What COPY, CREATE TABLE AS and INSERT return: the rows written, as DuckDB's Count (and as
/// UPDATE and DELETE here); with `write_result = 'files'` also the files and partitions
/// (directories) written.
QueryResult WriteSummary(const Settings& settings, const std::vector<WrittenPartFile>& files) {
  int64_t rows = 0;
  std::set<std::string> partitions;
  for (const auto& f : files) {
    rows += f.file.rows;
    if (!f.partition.empty()) partitions.insert(f.partition);
  }
  const bool with_files = settings.GetString("write_result") == "files";
  QueryResult result;
  result.names = {"rows"};
  if (with_files) {
    result.names.push_back("files");
    result.names.push_back("partitions");
  }
  result.types.assign(result.names.size(), LogicalType::Bigint());
  result.rows = std::make_shared<ColumnDataCollection>(result.types);
  Batch batch(result.types, 1);
  batch.column(0).data<int64_t>()[0] = rows;
  if (with_files) {
    batch.column(1).data<int64_t>()[0] = static_cast<int64_t>(files.size());
    batch.column(2).data<int64_t>()[0] = static_cast<int64_t>(partitions.size());
  }
  batch.SetSize(1);
  result.rows->Append(batch);
  return result;
}

BoundWrite BindWrite(const Catalog& catalog, const Settings& settings, const std::string& sql,
                     const ast::QueryNode& query, const std::vector<LogicalType>* values_types) {
  BoundWrite write;
  write.binder = std::make_unique<Binder>(catalog, &sql);
  write.binder->SetDefaultNullOrder(settings.GetString("default_null_order"));
  if (values_types && query.kind == ast::QueryNodeKind::kValues) {
    write.binder->SetValuesTargetTypes(*values_types);
  }
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

namespace {

bool IsNullConstant(const BoundExpr& expr) {
  return expr.kind == BoundExprKind::kConstant &&
         static_cast<const BoundConstant&>(expr).value.is_null();
}

/// Whether the query's column `i` is a NULL literal in every row (`VALUES (1, NULL)`, `SELECT
/// NULL`): typed INTEGER, it may still go into a column no INTEGER casts to (a LIST).
bool OnlyNullLiterals(const LogicalOperator& plan, size_t i) {
  if (plan.type == LogicalOperatorType::kProjection) {
    const auto& projection = static_cast<const LogicalProjection&>(plan);
    return i < projection.expressions.size() && IsNullConstant(*projection.expressions[i]);
  }
  if (plan.type == LogicalOperatorType::kValues) {
    const auto& values = static_cast<const LogicalValues&>(plan);
    for (const auto& row : values.rows) {
      if (i >= row.size() || !IsNullConstant(*row[i])) return false;
    }
    return !values.rows.empty();
  }
  return false;
}

}  // namespace

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
    if (!CastExists(write.query.types[i], types[i]) && OnlyNullLiterals(*write.query.plan, i)) {
      exprs.push_back(std::make_unique<BoundConstant>(Value::Null(types[i])));
      continue;
    }
    if (!CastExists(write.query.types[i], types[i])) {
      throw BinderError("column '{}' is {} but the query gives {}", names[i], types[i].ToString(),
                        write.query.types[i].ToString());
    }
    exprs.push_back(CastTo(QueryColumn(write, i), types[i]));
  }
  Project(write, std::move(exprs), names);
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
    if (AsciiLower(names[i]) == AsciiLower(name)) return static_cast<int>(i);
  }
  return -1;
}

namespace {

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
  const std::string v = AsciiLower(option.values[0]);
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
  const std::string name = AsciiLower(text);
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
      const std::string format = AsciiLower(option.values[0]);
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
  const std::string id = std::to_string(::getpid()) + "-" + std::to_string(clock::WallNanos());
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
      compression = option.values.size() == 1 ? AsciiLower(option.values[0]) : std::string();
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
              (compression == "auto" && AsciiLower(target.extension().string()) == ".gz");
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
  return WriteSummary(settings, {written});
}

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
  bool csv = AsciiLower(fs::path(copy.path).extension().string()) != ".parquet";
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
  // Columns COPY leaves out get their defaults here: RunInsert's copy of the statement is
  // parsed from the text, which is the COPY's.
  if (table->managed) ApplyInsertDefaults(database.catalog(), settings, sql, *table, insert);
  return RunInsert(database, settings, sql, insert);
}

}  // namespace

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
  const std::string id = std::to_string(::getpid()) + "-" + std::to_string(clock::WallNanos());
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
    return WriteSummary(settings, files);
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
  return WriteSummary(settings, files);
}

}  // namespace shears::write_internal

namespace shears {

using namespace write_internal;

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
    case ast::StatementKind::kAlterTable:
      return RunAlterTable(database, settings, sql,
                           static_cast<const ast::AlterTableStatement&>(statement));
    default:
      throw InternalError("not a write statement");
  }
}

}  // namespace shears
