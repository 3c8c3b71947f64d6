#pragma once
// Tab completion for the shell: SQL keywords, table and view names, column names of tables,
// dot commands and their arguments.

#include <map>
#include <string>
#include <vector>

namespace shears {

class Catalog;

/// The names completion offers besides keywords, read from the catalog.
struct CompletionNames {
  std::vector<std::string> tables;                          // tables and views
  std::map<std::string, std::vector<std::string>> columns;  // by table name
};

CompletionNames LoadCompletionNames(const Catalog& catalog);

/// The words that complete `word`, the word being typed, with `before` the statement's text
/// before it: after FROM, JOIN, TABLE, DESCRIBE... table names; with "t." columns of table t,
/// where t may be an alias given in `statement` (the whole statement typed so far, also after
/// the cursor: "FROM store_sales ss" or "store_sales AS ss"); otherwise keywords, tables and
/// columns. Matching ignores case; keywords come out in the case of `word` (lower when it is
/// all lower-case). Sorted, no duplicates.
std::vector<std::string> CompletionCandidates(const std::string& before, const std::string& word,
                                              const CompletionNames& names,
                                              const std::string& statement = "");

}  // namespace shears
