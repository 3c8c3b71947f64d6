#pragma once
// Shared helpers for tests: where test data lives, and a reader for the fixture CSV format.

#include <optional>
#include <string>
#include <vector>

namespace shears::test {

/// The repository root (tests run from anywhere).
std::string SourceDir();
/// The shears executable of this build (the shell tests run it).
std::string CliPath();
/// tests/data inside the repository.
std::string DataDir();
/// ../shared/fixtures/parquet next to the repository, or "" when it is absent.
std::string SharedFixturesDir();
std::string ReadFileToString(const std::string& path);

/// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Copies `source` to `relative` below the directory, creating parent directories.
  std::string Add(const std::string& relative, const std::string& source) const;
  void AddText(const std::string& relative, const std::string& text) const;

 private:
  std::string path_;
};

/// A CSV record; nullopt fields are NULL (an unquoted \N).
using CsvRow = std::vector<std::optional<std::string>>;
/// Parses RFC 4180 CSV where an unquoted \N is NULL and quoted fields may span lines.
std::vector<CsvRow> ParseCsv(const std::string& text);

}  // namespace shears::test
