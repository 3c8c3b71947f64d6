#pragma once
// Shared helpers for tests: where test data lives, and a reader for the fixture CSV format.

#include <optional>
#include <string>
#include <vector>

namespace shears::test {

/// The repository root (tests run from anywhere).
std::string SourceDir();
/// tests/data inside the repository.
std::string DataDir();
/// ../shared/fixtures/parquet next to the repository, or "" when it is absent.
std::string SharedFixturesDir();
std::string ReadFileToString(const std::string& path);

/// A CSV record; nullopt fields are NULL (an unquoted \N).
using CsvRow = std::vector<std::optional<std::string>>;
/// Parses RFC 4180 CSV where an unquoted \N is NULL and quoted fields may span lines.
std::vector<CsvRow> ParseCsv(const std::string& text);

}  // namespace shears::test
