#include "shell/shell.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>

#include "catalog/catalog.h"
#include "common/error.h"
#include "main/connection.h"
#include "shell/shell_terminal.h"

namespace shears {

namespace {

constexpr const char* kHelp =
    ".help                    this text\n"
    ".tables                  list tables and views\n"
    ".schema [NAME]           the CREATE statements of a table (and its indexes) or view\n"
    "                         (all without NAME)\n"
    ".timer on|off            print each statement's run time\n"
    ".mode box|table|csv|json how results are printed (box fits the terminal)\n"
    ".quit, .exit             leave the shell (so does Ctrl-D)\n"
    "SQL statements end with ';' and may span lines. Ctrl-C cancels a running query.\n";

std::vector<std::string> SplitBlanks(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string word;
  while (in >> word)
    words.push_back(word);
  return words;
}

std::string QuoteLiteral(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string ModeName(OutputFormat mode) {
  switch (mode) {
    case OutputFormat::kBox:
      return "box";
    case OutputFormat::kTable:
      return "table";
    case OutputFormat::kCsv:
      return "csv";
    case OutputFormat::kJson:
      return "json";
  }
  return "?";
}

}  // namespace

size_t OutputWidth() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 0;
}

Shell::Shell(Connection& connection, std::ostream& out, std::ostream& err, ShellOptions options)
    : connection_(connection), out_(out), err_(err), options_(options) {}

void Shell::RunScript(const std::string& sql) {
  for (const auto& result : connection_.QueryAll(sql)) {
    if (options_.timer) err_ << "Run Time: " << result.elapsed_ms << " ms" << std::endl;
    PrintResult(result);
  }
}

int Shell::RunPiped(std::istream& in) {
  std::string line;
  while (std::getline(in, line)) {
    const LineStatus status = ProcessLine(line);
    if (status == LineStatus::kQuit) return 0;
    if (status == LineStatus::kError) return last_exit_code_;
  }
  return Finish() == LineStatus::kError ? last_exit_code_ : 0;
}

Shell::LineStatus Shell::ProcessLine(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t");
  if (splitter_.Empty() && first != std::string::npos && line[first] == '.') {
    splitter_.Clear();
    return RunDotCommand(line.substr(first));
  }
  splitter_.AddLine(line);
  while (auto statement = splitter_.Next()) {
    const LineStatus status = RunStatement(*statement);
    if (status != LineStatus::kOk) {
      splitter_.Clear();  // the rest of a line after a failed statement is not run
      return status;
    }
  }
  return LineStatus::kOk;
}

Shell::LineStatus Shell::Finish() {
  if (auto rest = splitter_.TakeRest()) return RunStatement(*rest);
  return LineStatus::kOk;
}

Shell::LineStatus Shell::ReportError() {
  try {
    throw;
  } catch (const Error& e) {
    err_ << ErrorKindName(e.kind()) << ": " << e.what() << std::endl;
    last_exit_code_ = e.kind() == ErrorKind::kInternal ? 2 : 1;
  } catch (const std::exception& e) {
    err_ << "Internal Error: " << e.what() << std::endl;
    last_exit_code_ = 2;
  }
  return LineStatus::kError;
}

Shell::LineStatus Shell::RunStatement(const std::string& sql) {
  completion_names_stale_ = true;
  try {
    std::vector<QueryResult> results;
    auto run = [&] { results = connection_.QueryAll(sql); };
    if (interactive_) {
      RunForegroundQuery(connection_, run);
    } else {
      run();
    }
    for (const auto& result : results) {
      if (options_.timer) err_ << "Run Time: " << result.elapsed_ms << " ms" << std::endl;
      PrintResult(result);
    }
  } catch (...) {
    return ReportError();
  }
  return LineStatus::kOk;
}

void Shell::PrintResult(const QueryResult& result) {
  if (!result.rows) return;
  const bool boxed = options_.mode == OutputFormat::kTable || options_.mode == OutputFormat::kBox;
  // Plans read best as plain lines, not squeezed into a table cell.
  if (boxed && result.names.size() == 1 && result.names[0].rfind("explain", 0) == 0) {
    for (const auto& row : result.ToStrings())
      out_ << row[0] << '\n';
    out_.flush();
    return;
  }
  auto writer = ResultWriter::Make(options_.mode, out_, OutputWidth());
  writer->Begin(result.names, result.types);
  for (size_t b = 0; b < result.rows->batch_count(); b++)
    writer->Write(result.rows->batch(b));
  writer->End();
}

Shell::LineStatus Shell::RunDotCommand(const std::string& line) {
  const auto words = SplitBlanks(line);
  const std::string& command = words[0];
  auto expect_arguments = [&](size_t low, size_t high, const char* usage) {
    if (words.size() - 1 < low || words.size() - 1 > high) {
      throw InvalidInputError("usage: {}", usage);
    }
  };
  try {
    if (command == ".quit" || command == ".exit") return LineStatus::kQuit;
    if (command == ".help") {
      out_ << kHelp << std::flush;
    } else if (command == ".tables") {
      expect_arguments(0, 0, ".tables");
      PrintTables();
    } else if (command == ".schema") {
      expect_arguments(0, 1, ".schema [NAME]");
      PrintSchema(words.size() > 1 ? words[1] : "");
    } else if (command == ".timer") {
      expect_arguments(1, 1, ".timer on|off");
      if (words[1] != "on" && words[1] != "off") throw InvalidInputError("usage: .timer on|off");
      options_.timer = words[1] == "on";
    } else if (command == ".mode") {
      expect_arguments(0, 1, ".mode box|table|csv|json");
      if (words.size() == 1) {
        out_ << ModeName(options_.mode) << std::endl;
      } else {
        options_.mode = ParseOutputFormat(words[1]);
      }
    } else {
      throw InvalidInputError("unknown command '{}' (.help lists the commands)", command);
    }
  } catch (...) {
    return ReportError();
  }
  return LineStatus::kOk;
}

void Shell::PrintTables() {
  // Names in columns, as wide as the terminal allows (80 when it is not one).
  const auto entries = connection_.database().catalog().List();
  size_t longest = 0;
  for (const auto& entry : entries)
    longest = std::max(longest, entry.name.size());
  const size_t width = OutputWidth() ? OutputWidth() : 80;
  const size_t per_line = std::max<size_t>(1, (width + 2) / (longest + 2));
  for (size_t i = 0; i < entries.size(); i++) {
    const bool last_on_line = (i + 1) % per_line == 0 || i + 1 == entries.size();
    out_ << entries[i].name;
    if (last_on_line) {
      out_ << '\n';
    } else {
      out_ << std::string(longest + 2 - entries[i].name.size(), ' ');
    }
  }
  out_.flush();
}

void Shell::PrintSchema(const std::string& name) {
  const Catalog& catalog = connection_.database().catalog();
  std::vector<std::string> names;
  if (name.empty()) {
    for (const auto& entry : catalog.List())
      names.push_back(entry.name);
  } else {
    names.push_back(name);
  }
  for (const auto& current : names) {
    if (auto view = catalog.FindView(current)) {
      std::string aliases;
      for (const auto& alias : view->column_aliases)
        aliases += (aliases.empty() ? "(" : ", ") + alias;
      if (!aliases.empty()) aliases += ")";
      std::string sql = view->sql;
      while (!sql.empty() &&
             (sql.back() == ';' || std::isspace(static_cast<unsigned char>(sql.back()))))
        sql.pop_back();
      out_ << "CREATE VIEW " << current << aliases << " AS " << sql << ";\n";
      continue;
    }
    auto table = catalog.FindTable(current);
    if (!table) throw BinderError("no table or view named '{}' (.tables lists them)", current);
    std::string columns, partition_columns;
    for (const auto& column : table->columns) {
      std::string& list = column.is_partition ? partition_columns : columns;
      list += list.empty() ? "" : ", ";
      list += column.name + " " + (column.type.valid() ? column.type.ToString() : "UNSUPPORTED");
    }
    if (table->managed) {
      // What makes the table again: constraints, then its indexes.
      std::string definition;
      for (const auto& column : table->columns) {
        if (column.is_partition) continue;
        definition += definition.empty() ? "" : ", ";
        definition +=
            column.name + " " + column.type.ToString() + (column.not_null ? " NOT NULL" : "");
      }
      auto key_list = [&](const std::vector<int>& key) {
        std::string list;
        for (int c : key)
          list += (list.empty() ? "" : ", ") + table->columns[static_cast<size_t>(c)].name;
        return list;
      };
      for (const auto& key : table->keys)
        definition += std::string(key.primary ? ", PRIMARY KEY (" : ", UNIQUE (") +
                      key_list(key.columns) + ")";
      for (const auto& check : table->checks)
        definition += ", CHECK (" + check + ")";
      out_ << "CREATE TABLE " << table->name << " (" << definition << ")";
      if (!partition_columns.empty()) out_ << " PARTITIONED BY (" << partition_columns << ")";
      out_ << ";\n";
    } else {
      out_ << "CREATE EXTERNAL TABLE " << table->name << " (" << columns << ") STORED AS PARQUET";
      if (!partition_columns.empty()) out_ << " PARTITIONED BY (" << partition_columns << ")";
      out_ << " LOCATION " << QuoteLiteral(table->location) << ";\n";
    }
    for (const auto& index : table->indexes) {
      std::string list;
      for (int c : index.columns)
        list += (list.empty() ? "" : ", ") + table->columns[static_cast<size_t>(c)].name;
      out_ << (index.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") << index.name << " ON "
           << table->name << " (" << list << ");\n";
    }
  }
  out_.flush();
}

const CompletionNames& Shell::completion_names() {
  if (completion_names_stale_) {
    try {
      completion_names_ = LoadCompletionNames(connection_.database().catalog());
    } catch (const std::exception&) {
      // A catalog that cannot be read completes keywords only; the next statement says why.
      completion_names_ = {};
    }
    completion_names_stale_ = false;
  }
  return completion_names_;
}

}  // namespace shears
