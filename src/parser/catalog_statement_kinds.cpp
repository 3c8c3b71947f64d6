// Which statements Parser::Parse hands to the catalog parser (parse_catalog.cpp) instead of
// libpg_query: those PostgreSQL's grammar lacks (Hive / Spark / DuckDB catalog statements), told
// apart by their first words.

#include <string>
#include <vector>

#include "parser/transformer.h"

namespace shears::parser_internal {

bool IsCatalogStatement(const std::string& sql, const std::vector<SqlToken>& tokens, size_t first,
                        size_t last) {
  auto word = [&](size_t i) {
    if (i >= last) return std::string();
    return Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start));
  };
  const std::string head = word(first);
  const std::string second = word(first + 1);
  // CREATE [OR REPLACE] [TEMP | TEMPORARY] {SEQUENCE | MACRO | FUNCTION}: PostgreSQL's
  // grammar has neither OR REPLACE for sequences nor DuckDB's macros.
  size_t object = first + 1;
  if (word(object) == "or" && word(object + 1) == "replace") object += 2;
  const bool temporary = word(object) == "temp" || word(object) == "temporary";
  if (temporary) object++;
  const std::string created = head == "create" ? word(object) : "";
  if (created == "sequence" || created == "macro" || created == "function" || created == "schema")
    return true;
  // CREATE TEMP TABLE, CREATE OR REPLACE [TEMP] TABLE (the latter to say it is not supported).
  if (created == "table" && object > first + 1) return true;
  if (head == "drop" &&
      (second == "sequence" || second == "macro" || second == "function" || second == "schema"))
    return true;
  if (head == "create" && second == "schema") return true;
  if (head == "attach" || head == "detach" || head == "use" || head == "checkpoint" ||
      head == "call" || (head == "force" && second == "checkpoint") ||
      (head == "show" && second == "databases"))
    return true;
  return (head == "create" && (second == "external" || second == "table")) ||
         (head == "show" && (second == "tables" || second == "partitions" || second == "stats" ||
                             second == "indexes")) ||
         head == "analyze" || head == "analyse" || head == "describe" || head == "summarize" ||
         (head == "desc" && first + 1 < last) ||
         (head == "alter" && (second == "table" || second == "view")) || head == "msck" ||
         head == "pragma";
}

}  // namespace shears::parser_internal
