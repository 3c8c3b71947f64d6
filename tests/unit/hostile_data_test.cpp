// Replays the inputs under tests/data/hostile that the fuzzers (fuzz/) once crashed on: SQL
// files run against the fuzz schema (tests/data/hostile/schema.sql), Parquet files are read
// whole. Each may fail with a user error, never with an internal error or a crash, and the
// connection must answer the next query.

#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "main/connection.h"
#include "test_util.h"

namespace shears {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir))
    files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void RunExpectingNoInternalError(Connection& con, const std::string& sql, const std::string& file) {
  try {
    con.Query(sql);
  } catch (const Error& error) {
    EXPECT_TRUE(error.IsUserError()) << file << ": " << error.what();
  }
  EXPECT_EQ(con.Query("SELECT 42").ToStrings(), (std::vector<std::vector<std::string>>{{"42"}}))
      << file;
}

TEST(HostileDataTest, SqlInputs) {
  const std::string dir = test::DataDir() + "/hostile";
  std::string schema = test::ReadFileToString(dir + "/schema.sql");
  for (size_t at; (at = schema.find("${DATA}")) != std::string::npos;) {
    schema.replace(at, 7, test::DataDir());
  }
  const auto files = FilesIn(dir + "/sql");
  EXPECT_FALSE(files.empty());
  for (const auto& file : files) {
    Database db;
    Connection con(db);
    con.Query(schema);
    con.Query(
        "SET memory_limit = '64MB'; SET statement_batch_limit = 2000; SET statement_timeout = "
        "'60s'");
    RunExpectingNoInternalError(con, test::ReadFileToString(file), file);
    // As fuzz_sql checks: the session stays usable whatever the input did.
    EXPECT_EQ(con.Query("SELECT 42").ToStrings(), (std::vector<std::vector<std::string>>{{"42"}}))
        << file;
  }
}

TEST(HostileDataTest, ParquetInputs) {
  Database db;
  Connection con(db);
  for (const auto& file : FilesIn(test::DataDir() + "/hostile/parquet")) {
    RunExpectingNoInternalError(con, "SELECT * FROM '" + file + "'", file);
  }
}

}  // namespace
}  // namespace shears
