#include "test_util.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace shears::test {

std::string SourceDir() {
  if (const char* env = std::getenv("SHEARS_SOURCE_DIR")) return env;
  return SHEARS_SOURCE_DIR;
}

std::string CliPath() {
  return SHEARS_CLI_PATH;
}

std::string DataDir() {
  return SourceDir() + "/tests/data";
}

std::string SharedFixturesDir() {
  std::string dir = SourceDir() + "/../shared/fixtures/parquet";
  if (std::filesystem::exists(dir + "/manifest.json")) return dir;
  return "";
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "shears_test_XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Add(const std::string& relative, const std::string& source) const {
  std::filesystem::path target = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(target.parent_path());
  std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  return target.string();
}

void TempDir::AddText(const std::string& relative, const std::string& text) const {
  std::filesystem::path target = std::filesystem::path(path_) / relative;
  std::filesystem::create_directories(target.parent_path());
  std::ofstream(target) << text;
}

std::string ReadFileToString(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<CsvRow> ParseCsv(const std::string& text) {
  std::vector<CsvRow> rows;
  CsvRow row;
  size_t i = 0;
  const size_t n = text.size();
  bool row_started = false;
  while (i < n) {
    row_started = true;
    std::optional<std::string> field;
    if (text[i] == '"') {
      std::string value;
      i++;
      while (i < n) {
        if (text[i] == '"') {
          if (i + 1 < n && text[i + 1] == '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      field = value;
    } else {
      size_t start = i;
      while (i < n && text[i] != ',' && text[i] != '\n')
        i++;
      std::string value = text.substr(start, i - start);
      if (!value.empty() && value.back() == '\r') value.pop_back();
      if (value != "\\N") field = value;
    }
    row.push_back(field);
    if (i < n && text[i] == ',') {
      i++;
      continue;
    }
    if (i < n && text[i] == '\n') i++;
    rows.push_back(std::move(row));
    row.clear();
    row_started = false;
  }
  if (row_started && !row.empty()) rows.push_back(std::move(row));
  return rows;
}

}  // namespace shears::test
