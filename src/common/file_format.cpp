#include "common/file_format.h"

#include <string>

#include "common/string_util.h"

namespace shears {

namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

bool IsCsvFileName(std::string_view name) {
  std::string lower = AsciiLower(std::string(name));
  if (EndsWith(lower, ".gz")) lower.resize(lower.size() - 3);
  return EndsWith(lower, ".csv") || EndsWith(lower, ".tsv") || EndsWith(lower, ".txt");
}

bool HasCsvExtension(std::string_view path) {
  std::string lower = AsciiLower(std::string(path));
  if (EndsWith(lower, ".gz")) lower.resize(lower.size() - 3);
  return EndsWith(lower, ".csv") || EndsWith(lower, ".tsv");
}

bool IsJsonFileName(std::string_view name) {
  const std::string lower = AsciiLower(std::string(name));
  return EndsWith(lower, ".json") || EndsWith(lower, ".jsonl") || EndsWith(lower, ".ndjson");
}

}  // namespace shears
