// Runs the SQL logic tests under tests/sql (the sqllogictest format DuckDB and SQLite use).
//
//   statement ok                  the statement must succeed
//   statement error [text]        it must fail (with `text` in the message, when given)
//   query <types> [rowsort]       rows after `----` (values tab-separated, NULL as NULL,
//                                 the empty string as (empty)); rowsort sorts both sides
//   explain <regex>               EXPLAIN ANALYZE of the SQL must match the regex
//   explain-on <regex>            the same, checked only with dynamic filtering on (defaults)
//   explain-off <regex>           the same, checked only with dynamic filtering off
//   explain-always <regex>        the same, checked only in the runtime_filter = always run
//   let <name>                    the SQL's one value becomes ${name} in later SQL and regexes
//                                 (of the same mode), for checking plans against data
//
// ${DATA} in SQL is replaced by the tests/data directory, ${TEMP} by a fresh directory (one per
// mode, removed at the end), ${STAR} by a star schema generated at scale 0.002
// (tools/star_generator.h) for the process. Every query and statement runs
// three times: with dynamic filtering on (default settings), off, and on with
// runtime_filter = 'always' (so the small test tables get runtime filters too); every run
// must give the expected answer.

#include <gtest/gtest.h>
#include <unistd.h>

#include <pthread.h>
#include <algorithm>
#include <filesystem>
#include <map>

#include <regex>
#include <sstream>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"
#include "tools/star_generator.h"

namespace shears {
namespace {

// std::regex matches by recursion, a frame per character for `[\s\S]*`: a long EXPLAIN
// ANALYZE text overflows the stack under ASan's larger frames. The match runs on a thread
// with a stack of its own, big enough for any plan a test prints.
bool RegexSearchOnBigStack(const std::string& text, const std::string& pattern) {
  struct Job {
    const std::string* text;
    const std::string* pattern;
    bool found = false;
    std::string error;
  } job{&text, &pattern};
  auto run = [](void* arg) -> void* {
    auto* j = static_cast<Job*>(arg);
    try {
      j->found = std::regex_search(*j->text, std::regex(*j->pattern));
    } catch (const std::exception& e) {
      j->error = e.what();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t{1} << 30);  // reserved, touched only as deep as used
  pthread_t thread;
  const int rc = pthread_create(&thread, &attr, run, &job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    run(&job);
  } else {
    pthread_join(thread, nullptr);
  }
  if (!job.error.empty()) ADD_FAILURE() << "bad regex /" << pattern << "/: " << job.error;
  return job.found;
}

enum Mode { kOff = 0, kOn = 1, kAlways = 2 };

struct Record {
  enum Kind { kStatementOk, kStatementError, kQuery, kExplain, kLet } kind;
  std::string variable;  // let
  std::string sql;
  std::string expected_error;
  bool rowsort = false;
  std::vector<std::string> expected;
  std::string regex;
  int only_mode = -1;  // explain-on: kOn, explain-off: kOff, explain-always: kAlways, all: -1
  int line = 0;
};

std::vector<Record> ParseTestFile(const std::string& text) {
  std::vector<Record> records;
  std::istringstream in(text);
  std::string line;
  int line_number = 0;
  auto next = [&](std::string& out) {
    if (!std::getline(in, out)) return false;
    line_number++;
    return true;
  };
  while (next(line)) {
    if (line.empty() || line[0] == '#') continue;
    Record record;
    record.line = line_number;
    std::istringstream header(line);
    std::string word;
    header >> word;
    if (word == "statement") {
      std::string what;
      header >> what;
      record.kind = what == "ok" ? Record::kStatementOk : Record::kStatementError;
      std::getline(header, record.expected_error);
      record.expected_error.erase(0, record.expected_error.find_first_not_of(' '));
    } else if (word == "query") {
      record.kind = Record::kQuery;
      std::string types, mode;
      header >> types >> mode;
      record.rowsort = mode == "rowsort";
    } else if (word == "explain" || word == "explain-on" || word == "explain-off" ||
               word == "explain-always") {
      record.kind = Record::kExplain;
      record.only_mode = word == "explain-on"       ? kOn
                         : word == "explain-off"    ? kOff
                         : word == "explain-always" ? kAlways
                                                    : -1;
      std::getline(header, record.regex);
      record.regex.erase(0, record.regex.find_first_not_of(' '));
    } else if (word == "let") {
      record.kind = Record::kLet;
      header >> record.variable;
    } else {
      ADD_FAILURE() << "line " << line_number << ": unknown record '" << line << "'";
      continue;
    }
    // SQL until a blank line or ----.
    bool has_results = false;
    while (next(line)) {
      if (line.empty()) break;
      if (line == "----") {
        has_results = true;
        break;
      }
      record.sql += (record.sql.empty() ? "" : "\n") + line;
    }
    if (has_results) {
      while (next(line) && !line.empty())
        record.expected.push_back(line);
    }
    records.push_back(std::move(record));
  }
  return records;
}

/// ${STAR}: a small star schema (`shears generate star`), generated once per process by the first
/// file that uses it and removed at exit.
class StarData {
 public:
  ~StarData() {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  const std::string& Dir() {
    if (dir_.empty()) {
      const auto path =
          std::filesystem::temp_directory_path() / ("shears_sql_star_" + std::to_string(getpid()));
      std::filesystem::remove_all(path);
      StarOptions options;
      options.scale = 0.002;
      options.out_dir = path.string();
      GenerateStar(options);
      dir_ = path.string();
    }
    return dir_;
  }

 private:
  std::string dir_;
};
StarData star_data;

std::string Render(const QueryResult& result, std::vector<std::string>* rows) {
  for (const auto& row : result.ToStrings()) {
    std::string line;
    for (size_t i = 0; i < row.size(); i++) {
      line += (i ? "\t" : "") + (row[i].empty() ? std::string("(empty)") : row[i]);
    }
    rows->push_back(line);
  }
  return "";
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines)
    out += l + "\n";
  return out;
}

/// Replaces every ${name} of `variables` in `text`.
std::string Substitute(std::string text, const std::map<std::string, std::string>& variables) {
  for (const auto& [name, value] : variables) {
    const std::string key = "${" + name + "}";
    for (size_t pos; (pos = text.find(key)) != std::string::npos;)
      text.replace(pos, key.size(), value);
  }
  return text;
}

void RunRecord(Connection& connection, const Record& record, const std::string& file, Mode mode,
               std::map<std::string, std::string>& variables) {
  const bool dynamic_filtering = mode != kOff;
  const std::string where = file + ":" + std::to_string(record.line) +
                            (mode == kOn    ? " (dynamic filtering on)"
                             : mode == kOff ? " (dynamic filtering off)"
                                            : " (runtime_filter always)");
  std::string sql = Substitute(record.sql, variables);
  for (size_t pos; (pos = sql.find("${STAR}")) != std::string::npos;)
    sql.replace(pos, 7, star_data.Dir());
  connection.settings().Set("dynamic_filtering", Value::Boolean(dynamic_filtering));
  switch (record.kind) {
    case Record::kStatementOk:
      try {
        connection.Query(sql);
      } catch (const std::exception& e) {
        ADD_FAILURE() << where << ": statement failed: " << e.what() << "\n" << sql;
      }
      return;
    case Record::kStatementError:
      try {
        connection.Query(sql);
        ADD_FAILURE() << where << ": statement should have failed\n" << sql;
      } catch (const Error& e) {
        EXPECT_TRUE(e.IsUserError()) << where << ": internal error: " << e.what();
        if (!record.expected_error.empty()) {
          EXPECT_NE(std::string(e.what()).find(record.expected_error), std::string::npos)
              << where << ": error '" << e.what() << "' lacks '" << record.expected_error << "'";
        }
      }
      return;
    case Record::kQuery: {
      std::vector<std::string> actual;
      try {
        Render(connection.Query(sql), &actual);
      } catch (const std::exception& e) {
        ADD_FAILURE() << where << ": query failed: " << e.what() << "\n" << sql;
        return;
      }
      std::vector<std::string> expected = record.expected;
      if (record.rowsort) {
        std::sort(actual.begin(), actual.end());
        std::sort(expected.begin(), expected.end());
      }
      EXPECT_EQ(Join(actual), Join(expected)) << where << "\n" << sql;
      return;
    }
    case Record::kLet: {
      try {
        auto rows = connection.Query(sql).ToStrings();
        if (rows.size() != 1 || rows[0].size() != 1) {
          ADD_FAILURE() << where << ": let needs one value, the query gave " << rows.size()
                        << " rows";
          return;
        }
        variables[record.variable] = rows[0][0];
      } catch (const std::exception& e) {
        ADD_FAILURE() << where << ": let query failed: " << e.what() << "\n" << sql;
      }
      return;
    }
    case Record::kExplain: {
      if (record.only_mode >= 0 && record.only_mode != mode) return;
      std::vector<std::string> lines;
      try {
        Render(connection.Query("EXPLAIN ANALYZE " + sql), &lines);
      } catch (const std::exception& e) {
        ADD_FAILURE() << where << ": EXPLAIN ANALYZE failed: " << e.what() << "\n" << sql;
        return;
      }
      const std::string text = Join(lines);
      const std::string regex = Substitute(record.regex, variables);
      EXPECT_TRUE(RegexSearchOnBigStack(text, regex))
          << where << ": EXPLAIN ANALYZE output does not match /" << regex << "/:\n"
          << text;
      return;
    }
  }
}

std::vector<std::string> FindTestFiles() {
  std::vector<std::string> files;
  const std::string root = test::SourceDir() + "/tests/sql";
  if (!std::filesystem::exists(root)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class SqlLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqlLogicTest, Run) {
  const std::string file = GetParam();
  auto records = ParseTestFile(test::ReadFileToString(file));
  ASSERT_FALSE(records.empty()) << file << " has no records";
  // Each mode gets its own database, so every run sees the same state.
  for (Mode mode : {kOn, kOff, kAlways}) {
    test::TempDir temp;
    std::map<std::string, std::string> variables = {{"DATA", test::DataDir()},
                                                    {"TEMP", temp.path()}};
    Database database;
    Connection connection(database);
    if (mode == kAlways) connection.settings().Set("runtime_filter", Value::Varchar("always"));
    for (const auto& record : records)
      RunRecord(connection, record, file, mode, variables);
  }
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(info.param.find("tests/sql/") + 10);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Sql, SqlLogicTest, ::testing::ValuesIn(FindTestFiles()), TestName);

}  // namespace
}  // namespace shears
