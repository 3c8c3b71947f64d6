// Small pieces of DuckDB's grammar that PostgreSQL's lacks, rewritten on tokens: trailing
// commas, `INTERVAL (expr) unit` and `FROM VALUES (...)`.

#include <optional>
#include <string_view>

#include "common/string_util.h"
#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {

namespace {

/// The index of the ')' closing the '(' at tokens[open], or tokens.size().
size_t MatchingParen(const std::vector<SqlToken>& tokens, size_t open) {
  int depth = 0;
  for (size_t k = open; k < tokens.size(); k++) {
    if (tokens[k].token == '(') depth++;
    if (tokens[k].token == ')' && --depth == 0) return k;
  }
  return tokens.size();
}

struct IntervalFunction {
  const char* function;
  const char* cast;  // the function's argument type; DuckDB truncates a fraction toward
                     // zero for the integer ones (INTERVAL (1.7) DAY is 1 day)
};

/// DuckDB's `INTERVAL (x) unit`: the to_<unit>s function of x cast to that function's type.
std::optional<IntervalFunction> IntervalFunctionOf(std::string_view unit) {
  static const std::pair<const char*, IntervalFunction> kUnits[] = {
      {"year", {"to_years", "INTEGER"}},
      {"month", {"to_months", "INTEGER"}},
      {"mon", {"to_months", "INTEGER"}},
      {"day", {"to_days", "INTEGER"}},
      {"week", {"to_weeks", "INTEGER"}},
      {"quarter", {"to_quarters", "INTEGER"}},
      {"decade", {"to_decades", "INTEGER"}},
      {"century", {"to_centuries", "INTEGER"}},
      {"centurie", {"to_centuries", "INTEGER"}},
      {"millennium", {"to_millennia", "INTEGER"}},
      {"millennia", {"to_millennia", "INTEGER"}},
      {"hour", {"to_hours", "BIGINT"}},
      {"minute", {"to_minutes", "BIGINT"}},
      {"second", {"to_seconds", "DOUBLE"}},
      {"millisecond", {"to_milliseconds", "DOUBLE"}},
      {"microsecond", {"to_microseconds", "BIGINT"}},
  };
  std::string word = AsciiLower(unit);
  if (word.size() > 1 && word.back() == 's') word.pop_back();
  for (const auto& [name, function] : kUnits) {
    if (word == name) return function;
  }
  return std::nullopt;
}

}  // namespace

void FindTrailingCommas(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out) {
  for (size_t i = 0; i < tokens.size(); i++) {
    if (tokens[i].token != ',') continue;
    const int next = i + 1 < tokens.size() ? tokens[i + 1].token : 0;
    // The end of the statement or the next clause of a select list.
    bool drop = next == 0 || next == ';' || next == PG_QUERY__TOKEN__FROM || EndsFromClause(next);
    if (next == ')') {
      // Only a parenthesised query's select list or VALUES rows: `(SELECT a, b,)`, never a
      // function's arguments.
      int depth = 0;
      size_t open = i;
      while (open > 0) {
        const int token = tokens[--open].token;
        if (token == ')') depth++;
        if (token == '(' && depth-- == 0) break;
      }
      drop = tokens[open].token == '(' && open + 1 < tokens.size() &&
             (tokens[open + 1].token == PG_QUERY__TOKEN__SELECT ||
              tokens[open + 1].token == PG_QUERY__TOKEN__VALUES);
    }
    if (drop) out->push_back({tokens[i].start, tokens[i].end, ""});
  }
}

void FindIntervalExpressions(const std::string& sql, const std::vector<SqlToken>& tokens,
                             std::vector<Replacement>* out) {
  for (size_t i = 0; i + 3 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__INTERVAL || tokens[i + 1].token != '(') continue;
    const size_t close = MatchingParen(tokens, i + 1);
    if (close + 1 >= tokens.size()) continue;
    const SqlToken& unit = tokens[close + 1];
    const auto function =
        IntervalFunctionOf(std::string_view(sql).substr(unit.start, unit.end - unit.start));
    if (!function) continue;
    const bool integral = std::string_view(function->cast) != "DOUBLE";
    out->push_back({tokens[i].start, tokens[i + 1].end,
                    std::string(function->function) + (integral ? "(CAST(trunc((" : "(CAST((")});
    out->push_back({tokens[close].start, unit.end,
                    std::string(integral ? ")) AS " : ") AS ") + function->cast + "))"});
  }
}

void FindFromValues(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__FROM ||
        tokens[i + 1].token != PG_QUERY__TOKEN__VALUES || tokens[i + 2].token != '(') {
      continue;
    }
    // The rows: parenthesised groups separated by commas.
    size_t last = i + 2;
    while (true) {
      last = MatchingParen(tokens, last);
      if (last + 2 >= tokens.size() || tokens[last + 1].token != ',' ||
          tokens[last + 2].token != '(')
        break;
      last += 2;
    }
    if (last >= tokens.size()) continue;
    out->push_back({tokens[i + 1].start, tokens[i + 1].start, "("});
    out->push_back({tokens[last].end, tokens[last].end, ")"});
  }
}

}  // namespace shears::parser_internal
