#include "shell/completion.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "catalog/catalog.h"
#include "common/string_util.h"

namespace shears {

namespace {

constexpr const char* kKeywords[] = {
    "ALL",       "ALTER",       "ANALYZE",    "AND",       "AS",        "ASC",      "AVG",
    "BETWEEN",   "BIGINT",      "BOOLEAN",    "BY",        "CASE",      "CAST",     "COUNT",
    "CREATE",    "CROSS",       "DATE",       "DECIMAL",   "DESC",      "DESCRIBE", "DISTINCT",
    "DOUBLE",    "DROP",        "ELSE",       "END",       "EXCEPT",    "EXISTS",   "EXPLAIN",
    "EXTERNAL",  "FALSE",       "FROM",       "FULL",      "GROUP",     "HAVING",   "IF",
    "IN",        "INNER",       "INTEGER",    "INTERSECT", "INTERVAL",  "IS",       "JOIN",
    "LEFT",      "LIKE",        "LIMIT",      "LOCATION",  "MAX",       "MIN",      "MSCK",
    "NOT",       "NULL",        "OFFSET",     "ON",        "OR",        "ORDER",    "OUTER",
    "PARQUET",   "PARTITIONED", "PARTITIONS", "RECOVER",   "REPAIR",    "REPLACE",  "RESET",
    "RIGHT",     "SELECT",      "SEMI",       "SET",       "SHOW",      "STORED",   "SUM",
    "SUMMARIZE", "TABLE",       "TABLES",     "THEN",      "TIMESTAMP", "TRUE",     "UNION",
    "USING",     "VALUES",      "VARCHAR",    "VIEW",      "WHEN",      "WHERE",    "WITH",
};

constexpr const char* kDotCommands[] = {".exit",   ".help",   ".mode", ".quit",
                                        ".schema", ".tables", ".timer"};

bool StartsWithIgnoringCase(const std::string& text, const std::string& prefix) {
  return text.size() >= prefix.size() &&
         EqualsIgnoringAsciiCase(std::string_view(text).substr(0, prefix.size()), prefix);
}

// The words of `text` split at blanks and punctuation, lower-cased.
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') {
      current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!current.empty()) {
      words.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) words.push_back(std::move(current));
  return words;
}

bool IsKeyword(const std::string& lower_word) {
  for (const char* keyword : kKeywords) {
    if (EqualsAsciiLower(keyword, lower_word)) return true;
  }
  return false;
}

// The table an alias (or a table name) in `statement` stands for; "" when unknown.
std::string ResolveTable(const std::string& name, const std::string& statement,
                         const CompletionNames& names) {
  if (names.columns.count(name)) return name;
  const auto words = Words(statement);
  for (size_t i = 0; i + 1 < words.size(); i++) {
    if (!names.columns.count(words[i])) continue;
    size_t alias = i + 1;
    if (words[alias] == "as" && alias + 1 < words.size()) alias++;
    if (words[alias] == name && !IsKeyword(name)) return words[i];
  }
  return "";
}

}  // namespace

CompletionNames LoadCompletionNames(const Catalog& catalog) {
  CompletionNames names;
  for (const auto& entry : catalog.List()) {
    names.tables.push_back(entry.name);
    if (entry.kind != "table") continue;
    if (auto table = catalog.FindTable(entry.name)) {
      auto& columns = names.columns[entry.name];
      for (const auto& column : table->columns)
        columns.push_back(column.name);
    }
  }
  return names;
}

std::vector<std::string> CompletionCandidates(const std::string& before, const std::string& word,
                                              const CompletionNames& names,
                                              const std::string& statement) {
  std::set<std::string> out;
  auto offer = [&](const std::string& candidate) {
    if (StartsWithIgnoringCase(candidate, word)) out.insert(candidate);
  };
  auto offer_tables = [&] {
    for (const auto& table : names.tables)
      offer(table);
  };
  const auto words = Words(before);
  const size_t first = before.find_first_not_of(" \t");
  const bool dot_command =
      first != std::string::npos ? before[first] == '.' : !word.empty() && word[0] == '.';
  if (dot_command) {
    if (words.empty() && first == std::string::npos) {
      for (const char* command : kDotCommands)
        offer(command);
    } else if (words.size() == 1 && words[0] == ".mode") {
      for (const char* mode : {"box", "csv", "json", "table"})
        offer(mode);
    } else if (words.size() == 1 && words[0] == ".timer") {
      offer("off");
      offer("on");
    } else if (words.size() == 1 && words[0] == ".schema") {
      offer_tables();
    }
    return {out.begin(), out.end()};
  }
  if (const size_t dot = word.find('.'); dot != std::string::npos) {
    // table.column or alias.column
    const std::string table = ResolveTable(AsciiLower(word.substr(0, dot)), statement, names);
    if (!table.empty()) {
      for (const auto& column : names.columns.at(table))
        offer(word.substr(0, dot + 1) + column);
    }
    return {out.begin(), out.end()};
  }
  static const std::set<std::string> kBeforeTable = {"from", "join",    "table",    "describe",
                                                     "into", "analyze", "summarize"};
  if (!words.empty() && kBeforeTable.count(words.back())) {
    offer_tables();
    return {out.begin(), out.end()};
  }
  const bool lower = !word.empty() && std::none_of(word.begin(), word.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c));
  });
  for (const char* keyword : kKeywords)
    offer(lower ? AsciiLower(keyword) : std::string(keyword));
  offer_tables();
  for (const auto& [table, columns] : names.columns) {
    for (const auto& column : columns)
      offer(column);
  }
  return {out.begin(), out.end()};
}

}  // namespace shears
