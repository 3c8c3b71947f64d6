// The `shears` command: a thin client over libshears and the shell (src/shell).
//
//   shears [DBDIR]                           the interactive shell when stdin is a terminal
//   shears [DBDIR] -c SQL [--format box|table|csv|json]  run SQL (several statements:
//                                            ;-separated); DBDIR/catalog.db keeps tables and views
//   shears --timer ...                       also print each statement's run time to stderr
//   shears -f FILE                           run the SQL in FILE
//   mpirun -np N shears --distributed [DBDIR] -c SQL | -f FILE   one query over N processes
//                                            (docs/distributed.md); rank 0 prints
//   shears < FILE                            run SQL and dot commands from standard input
//   shears inspect FILE                      footer, schema, row groups, statistics
//   shears cat PATH [--columns a,b] [--format table|csv|json] [--limit N]
//   shears generate star --scale S --out DIR [--seed N]
//   shears generate tpcds --scale S --out DIR [--seed N] [--threads N]

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "common/error.h"
#include "main/connection.h"
#include "output/result_writer.h"
#include "shell/shell.h"
#include "storage/dataset.h"
#include "storage/dataset_reader.h"
#include "storage/parquet/inspect.h"
#include "tools/star_generator.h"
#include "tools/tpcds_generator.h"

#ifdef SHEARS_WITH_MPI
#include "distributed/mpi_runtime.h"
#endif

namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string part = text.substr(start, comma - start);
    while (!part.empty() && part.front() == ' ')
      part.erase(part.begin());
    while (!part.empty() && part.back() == ' ')
      part.pop_back();
    if (!part.empty()) parts.push_back(part);
    start = comma + 1;
  }
  return parts;
}

int RunCat(const std::string& path, const std::string& columns_arg, const std::string& format,
           int64_t limit) {
  auto output_format = shears::ParseOutputFormat(format);
  auto dataset = shears::Dataset::Open(path);
  std::vector<int> columns;
  if (columns_arg.empty()) {
    for (size_t i = 0; i < dataset->columns().size(); i++) {
      if (dataset->columns()[i].unsupported_reason.empty()) columns.push_back(static_cast<int>(i));
    }
  } else {
    for (const auto& name : SplitList(columns_arg)) {
      int index = dataset->FindColumn(name);
      if (index < 0) {
        std::string available;
        for (const auto& c : dataset->columns())
          available += (available.empty() ? "" : ", ") + c.name;
        throw shears::InvalidInputError("no column named '{}' in '{}' (columns: {})", name, path,
                                        available);
      }
      columns.push_back(index);
    }
  }
  shears::DatasetReader reader(dataset, columns);
  auto writer = shears::ResultWriter::Make(output_format, std::cout);
  writer->Begin(reader.output_names(), reader.output_types());
  shears::Batch batch(reader.output_types());
  int64_t remaining = limit < 0 ? INT64_MAX : limit;
  while (remaining > 0 && reader.Next(batch)) {
    if (static_cast<int64_t>(batch.size()) > remaining)
      batch.SetSize(static_cast<size_t>(remaining));
    remaining -= static_cast<int64_t>(batch.size());
    writer->Write(batch);
  }
  writer->End();
  return 0;
}

/// `shears generate tpcds`: a percentage on stderr while it runs when stderr is a terminal,
/// then a line per table on stdout.
int RunGenerateTpcds(double scale, const std::string& out, uint64_t seed, unsigned threads) {
  shears::TpcdsOptions options;
  options.scale = scale;
  options.out_dir = out;
  options.seed = seed;
  options.threads = threads;
  if (isatty(2)) {
    int last_percent = -1;
    options.progress = [last_percent](int64_t done, int64_t total) mutable {
      const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 100;
      if (percent == last_percent) return;
      last_percent = percent;
      std::cerr << "\rgenerating tpcds: " << percent << "%" << (done == total ? "\n" : "")
                << std::flush;
    };
  }
  const auto start = std::chrono::steady_clock::now();
  const auto summary = shears::GenerateTpcds(options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& table : summary.tables)
    std::cout << std::left << std::setw(24) << table.name << std::right << std::setw(10)
              << table.rows << " rows" << std::setw(6) << table.files << " files\n";
  std::cout << "wrote " << out << " in " << std::fixed << std::setprecision(1) << seconds << " s, "
            << summary.bytes / (1024 * 1024) << " MiB\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"shears: SQL over Hive-partitioned Parquet, with dynamic partition pruning"};
  app.require_subcommand(0, 1);
  std::string sql, sql_file, format = "table", dbdir;
  app.add_option("DBDIR", dbdir,
                 "database directory: its catalog.db keeps tables and views (created when "
                 "missing); without it the catalog lives in memory");
  app.add_option("-c,--command", sql, "SQL to run");
  app.add_option("-f,--file", sql_file, "file of SQL statements to run");
  auto* format_option = app.add_option(
      "--format", format,
      "output format: box (fits the terminal; the interactive default), table, csv or json");
  bool timer = false;
  app.add_flag("--timer", timer, "print each statement's run time (ms) to stderr");
  bool distributed = false;
  app.add_flag("--distributed", distributed,
               "run as one rank of an MPI job (mpirun -np N shears --distributed ...): each query "
               "is spread over the ranks and rank 0 prints (needs -c or -f)");

  auto* inspect =
      app.add_subcommand("inspect", "Show a Parquet file's footer, schema and statistics");
  std::string inspect_path;
  inspect->add_option("FILE", inspect_path, "Parquet file")->required();

  auto* cat = app.add_subcommand("cat", "Print the rows of a Parquet file, directory or glob");
  std::string cat_path, cat_columns, cat_format = "table";
  int64_t cat_limit = -1;
  cat->add_option("PATH", cat_path, "file, directory (Hive layout) or glob")->required();
  cat->add_option("--columns", cat_columns, "comma-separated columns to print (default: all)");
  cat->add_option("--format", cat_format, "table, csv or json")->capture_default_str();
  cat->add_option("--limit", cat_limit, "print at most this many rows");

  auto* generate = app.add_subcommand("generate", "Generate test data");
  generate->require_subcommand(1);
  auto* star = generate->add_subcommand(
      "star",
      "A TPC-DS-shaped star schema (date_dim, item, customer, customer_address, store, "
      "promotion; store_sales and store_returns partitioned by date key)");
  double star_scale = 1;
  std::string star_out;
  uint64_t star_seed = 42;
  star->add_option("--scale", star_scale, "scale factor (1 = about 2.9 million sales rows)")
      ->capture_default_str();
  star->add_option("--out", star_out, "output directory (must not exist or be empty)")->required();
  star->add_option("--seed", star_seed, "random seed")->capture_default_str();

  auto* tpcds = generate->add_subcommand(
      "tpcds",
      "The 24 TPC-DS tables (fact tables Hive-partitioned by their date key; see "
      "docs/generate.md)");
  double tpcds_scale = 1;
  std::string tpcds_out;
  uint64_t tpcds_seed = 42;
  unsigned tpcds_threads = 0;
  tpcds->add_option("--scale", tpcds_scale, "scale factor (1 = 2.9 million store_sales rows)")
      ->capture_default_str();
  tpcds->add_option("--out", tpcds_out, "output directory (must not exist or be empty)")
      ->required();
  tpcds->add_option("--seed", tpcds_seed, "random seed")->capture_default_str();
  tpcds->add_option("--threads", tpcds_threads, "threads (default: one per core)");

  CLI11_PARSE(app, argc, argv);
#ifdef SHEARS_WITH_MPI
  // Outside the try: MPI ends (MPI_Finalize) after the statements, also after an error.
  std::unique_ptr<shears::MpiRuntime> mpi;
#endif
  bool quiet = false;  // a rank other than 0: its output is rank 0's
  try {
    if (*inspect) {
      auto file = shears::parquet::ParquetFile::Open(inspect_path);
      shears::parquet::DescribeParquetFile(*file, std::cout);
      return 0;
    }
    if (*cat) return RunCat(cat_path, cat_columns, cat_format, cat_limit);
    if (*star) {
      shears::StarOptions options;
      options.scale = star_scale;
      options.out_dir = star_out;
      options.seed = star_seed;
      // A line per finished table; on a terminal also the percentage of the big one.
      const bool terminal = isatty(2);
      int last_percent = -1;
      options.progress = [&](const std::string& table, int64_t done, int64_t total) {
        if (done == total) {
          std::cerr << (terminal ? "\r" : "") << table << ": " << done << " rows" << std::endl;
          return;
        }
        int percent = total > 0 ? static_cast<int>(done * 100 / total) : 100;
        if (terminal && percent != last_percent) {
          std::cerr << "\r" << table << ": " << percent << "%" << std::flush;
          last_percent = percent;
        }
      };
      const auto start = std::chrono::steady_clock::now();
      auto summary = shears::GenerateStar(options);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::cout << "wrote " << star_out << " in " << std::fixed << std::setprecision(1) << seconds
                << " s: store_sales " << summary.sales_rows << " rows in "
                << summary.sales_partitions << " partitions, store_returns " << summary.returns_rows
                << " rows in " << summary.returns_partitions << " partitions, "
                << summary.bytes / 1024 << " KiB\n";
      return 0;
    }
    if (*tpcds) return RunGenerateTpcds(tpcds_scale, tpcds_out, tpcds_seed, tpcds_threads);
    if (distributed) {
      // Under mpirun only rank 0 gets standard input; every rank must run the same statements.
      if (sql.empty() && sql_file.empty())
        throw shears::InvalidInputError("--distributed needs the SQL as -c SQL or -f FILE");
#ifndef SHEARS_WITH_MPI
      throw shears::NotSupportedError(
          "--distributed: this shears was built without MPI (scripts/install_deps.sh installs "
          "Open MPI; then rebuild)");
#endif
    }
    const bool interactive = sql.empty() && sql_file.empty() && isatty(STDIN_FILENO);
    shears::ShellOptions options;
    options.timer = timer;
    options.mode = format_option->count() == 0 && interactive ? shears::OutputFormat::kBox
                                                              : shears::ParseOutputFormat(format);
    auto open_database = [&] {
      return dbdir.empty() ? std::make_unique<shears::Database>()
                           : std::make_unique<shears::Database>(dbdir);
    };
    std::unique_ptr<shears::Database> database;
#ifdef SHEARS_WITH_MPI
    if (distributed) {
      mpi = std::make_unique<shears::MpiRuntime>(&argc, &argv);
      quiet = mpi->rank() != 0;
      // Rank 0 creates a missing catalog.db before the others open it.
      mpi->RankZeroFirst([&] { database = open_database(); });
    }
#endif
    if (!database) database = open_database();
    shears::Connection connection(*database);
#ifdef SHEARS_WITH_MPI
    // One rank is a plain shears.
    if (mpi && mpi->size() > 1) connection.SetScaleOut(mpi.get());
#endif
    std::ostream discard(nullptr);
    shears::Shell shell(connection, quiet ? discard : std::cout, quiet ? discard : std::cerr,
                        options);
    if (!sql_file.empty()) {
      std::ifstream in(sql_file);
      if (!in) throw shears::IOError("cannot read SQL file '{}'", sql_file);
      std::stringstream text;
      text << in.rdbuf();
      shell.RunScript(text.str());
      return 0;
    }
    if (!sql.empty()) {
      shell.RunScript(sql);
      return 0;
    }
    return interactive ? shell.RunInteractive() : shell.RunPiped(std::cin);
  } catch (const shears::Error& e) {
    if (!quiet) std::cerr << shears::ErrorKindName(e.kind()) << ": " << e.what() << std::endl;
    return 1;
  } catch (const std::exception& e) {
    if (!quiet) std::cerr << "Internal Error: " << e.what() << std::endl;
    return 2;
  }
  return 0;
}
