// The clause-level pieces of RewriteSql (see sql_rewrite.cpp): DuckDB's QUALIFY and USING
// SAMPLE, LIMIT ... PERCENT, and IGNORE / RESPECT NULLS, each a token scan adding the
// replacements PostgreSQL's grammar needs.

#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/parser.h"
#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {

// DuckDB's QUALIFY clause (a filter on window function results, after WINDOW): PostgreSQL has
// none, so its condition travels as the only PARTITION BY expression of a window of a reserved
// name, which the transformer takes out again. `qualify` is a clause where an expression
// follows it (not an alias: `FROM t qualify WHERE`, `SELECT x qualify`); the condition ends at
// the next clause of its level.
void FindQualify(const std::string& sql, const std::vector<SqlToken>& tokens,
                 std::vector<Replacement>* out) {
  std::vector<bool> window_seen(1, false);  // per parenthesis level
  for (size_t i = 0; i < tokens.size(); i++) {
    const SqlToken& t = tokens[i];
    switch (t.token) {
      case '(':
        window_seen.push_back(false);
        continue;
      case ')':
        if (window_seen.size() > 1) window_seen.pop_back();
        continue;
      case ';':
        window_seen.assign(1, false);
        continue;
      case PG_QUERY__TOKEN__SELECT:
        window_seen.back() = false;
        continue;
      case PG_QUERY__TOKEN__WINDOW:
        window_seen.back() = true;
        continue;
      default:
        break;
    }
    if (t.token != PG_QUERY__TOKEN__IDENT || t.end - t.start != 7) continue;
    std::string word = Lower(sql.substr(t.start, 7));
    if (word != "qualify") continue;  // a quoted "qualify" starts with '"': not this
    const int prev = i > 0 ? tokens[i - 1].token : 0;
    const int next = i + 1 < tokens.size() ? tokens[i + 1].token : 0;
    if (prev == PG_QUERY__TOKEN__AS || prev == '.' || prev == ',' || prev == 0 ||
        prev == PG_QUERY__TOKEN__SELECT || next == '.' || next == PG_QUERY__TOKEN__AS ||
        next == PG_QUERY__TOKEN__FROM || EndsUnaliasedSubquery(next)) {
      continue;
    }
    // The condition: up to the next clause keyword (or ')' / ';') at this level.
    size_t end = i + 1;
    int depth = 0;
    for (; end < tokens.size(); end++) {
      const int token = tokens[end].token;
      if (token == '(') depth++;
      if (token == ')') {
        if (depth == 0) break;
        depth--;
      }
      if (depth > 0) continue;
      if (token == ';' || token == PG_QUERY__TOKEN__ORDER || token == PG_QUERY__TOKEN__LIMIT ||
          token == PG_QUERY__TOKEN__USING || token == PG_QUERY__TOKEN__OFFSET ||
          token == PG_QUERY__TOKEN__FETCH || token == PG_QUERY__TOKEN__UNION ||
          token == PG_QUERY__TOKEN__INTERSECT || token == PG_QUERY__TOKEN__EXCEPT ||
          token == PG_QUERY__TOKEN__FOR || token == PG_QUERY__TOKEN__WINDOW) {
        break;
      }
    }
    if (end == i + 1) continue;
    out->push_back({t.start, t.end,
                    std::string(window_seen.back() ? "," : "WINDOW") + " " + kQualifyWindowName +
                        " AS (PARTITION BY ("});
    out->push_back({tokens[end - 1].end, tokens[end - 1].end, "))"});
    // QUALIFY ... WINDOW w AS (...): the window clause goes on after the one we made.
    if (end < tokens.size() && tokens[end].token == PG_QUERY__TOKEN__WINDOW) {
      out->push_back({tokens[end].start, tokens[end].end, ","});
    }
    window_seen.back() = true;
    i = end - 1;
  }
}

// DuckDB's sample clause, last in a SELECT (after WHERE ... QUALIFY): USING SAMPLE n [ROWS] |
// n% | n PERCENT, optionally with (method [, seed]) after it or as method(n ...), then
// REPEATABLE (seed). PostgreSQL has none (its TABLESAMPLE takes a table), so it travels as the
// PARTITION BY constants of a window of a reserved name, as QUALIFY does: the amount's text,
// whether it is a percentage, the seed's text or NULL.
void FindSample(const std::string& sql, const std::vector<SqlToken>& tokens,
                std::vector<Replacement>* out) {
  std::vector<bool> window_seen(1, false);  // per parenthesis level: a WINDOW clause is written
  auto word = [&](size_t i) {
    if (i >= tokens.size()) return std::string();
    return Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start));
  };
  for (size_t i = 0; i < tokens.size(); i++) {
    const SqlToken& t = tokens[i];
    if (t.token == '(') window_seen.push_back(false);
    if (t.token == ')' && window_seen.size() > 1) window_seen.pop_back();
    if (t.token == ';') window_seen.assign(1, false);
    if (t.token == PG_QUERY__TOKEN__SELECT) window_seen.back() = false;
    // A WINDOW clause, or QUALIFY's (FindQualify writes one).
    if (t.token == PG_QUERY__TOKEN__WINDOW || word(i) == "qualify") window_seen.back() = true;
    if (t.token != PG_QUERY__TOKEN__USING || word(i + 1) != "sample") continue;
    size_t pos = i + 2;
    // Not DELETE ... USING sample WHERE ...: a size or a method call follows.
    const bool sized = pos < tokens.size() && (tokens[pos].token == PG_QUERY__TOKEN__ICONST ||
                                               tokens[pos].token == PG_QUERY__TOKEN__FCONST);
    if (!sized && !(pos + 1 < tokens.size() && tokens[pos + 1].token == '(')) continue;
    auto fail = [&](const std::string& what) {
      const int at = pos < tokens.size() ? tokens[pos].start : static_cast<int>(sql.size());
      throw ParseError("USING SAMPLE: {}\n{}", what, FormatErrorPosition(sql, at));
    };
    auto number = [&](const char* what) {
      if (pos >= tokens.size() || (tokens[pos].token != PG_QUERY__TOKEN__ICONST &&
                                   tokens[pos].token != PG_QUERY__TOKEN__FCONST)) {
        fail(fmt::format("expected {}", what));
      }
      return sql.substr(tokens[pos].start, tokens[pos].end - tokens[pos].start);
    };
    auto expect = [&](int token, const char* what) {
      if (pos >= tokens.size() || tokens[pos].token != token)
        fail(fmt::format("expected {}", what));
      pos++;
    };
    std::string amount, seed = "NULL";
    bool percent = false;
    auto size = [&] {
      amount = number("the sample size");
      pos++;
      if (pos < tokens.size() && (tokens[pos].token == '%' || word(pos) == "percent")) {
        percent = true;
        pos++;
      } else if (pos < tokens.size() && tokens[pos].token == PG_QUERY__TOKEN__ROWS) {
        pos++;
      }
    };
    auto method = [&] {
      const std::string name = word(pos);
      if (name != "reservoir" && name != "bernoulli" && name != "system") {
        fail("expected a sampling method (reservoir, bernoulli or system)");
      }
      pos++;
    };
    if (pos + 1 < tokens.size() && tokens[pos + 1].token == '(' &&
        tokens[pos].token != PG_QUERY__TOKEN__ICONST &&
        tokens[pos].token != PG_QUERY__TOKEN__FCONST) {
      method();  // method(n ...)
      expect('(', "'('");
      size();
      expect(')', "')'");
    } else {
      size();
      if (pos < tokens.size() && tokens[pos].token == '(') {  // n ... (method [, seed])
        pos++;
        method();
        if (pos < tokens.size() && tokens[pos].token == ',') {
          pos++;
          seed = number("a seed");
          pos++;
        }
        expect(')', "')'");
      }
    }
    if (pos < tokens.size() && tokens[pos].token == PG_QUERY__TOKEN__REPEATABLE) {
      pos++;
      expect('(', "'(' after REPEATABLE");
      seed = number("a seed");
      pos++;
      expect(')', "')'");
    }
    // strtod: a huge amount is inf, not an exception.
    if (percent && !(std::strtod(amount.c_str(), nullptr) <= 100)) {
      fail("a sample percentage must be at most 100");
    }
    if (seed != "NULL") {
      int64_t seed_value = 0;
      const auto parsed = std::from_chars(seed.data(), seed.data() + seed.size(), seed_value);
      if (parsed.ec != std::errc() || parsed.ptr != seed.data() + seed.size()) {
        fail("the seed must be a whole number that fits a BIGINT");
      }
    }
    const std::string quoted_seed = seed == "NULL" ? seed : "'" + seed + "'";
    out->push_back(
        {t.start, tokens[pos - 1].end,
         fmt::format("{} {} AS (PARTITION BY '{}', {}, {})", window_seen.back() ? "," : "WINDOW",
                     kSampleWindowName, amount, percent ? "TRUE" : "FALSE", quoted_seed)});
    window_seen.back() = true;
    i = pos - 1;
  }
}

// DuckDB's LIMIT p% / LIMIT p PERCENT (a share of all the rows, which needs them counted
// first): a clear error rather than PostgreSQL's syntax error at the '%'.
void RejectLimitPercent(const std::string& sql, const std::vector<SqlToken>& tokens) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__LIMIT) continue;
    const int number = tokens[i + 1].token;
    if (number != PG_QUERY__TOKEN__ICONST && number != PG_QUERY__TOKEN__FCONST) continue;
    const SqlToken& unit = tokens[i + 2];
    if (unit.token == '%' || (unit.token == PG_QUERY__TOKEN__IDENT &&
                              Lower(sql.substr(unit.start, unit.end - unit.start)) == "percent")) {
      throw NotSupportedError(
          "LIMIT with a percentage is not supported yet; use USING SAMPLE p% for a sample, or "
          "a row_number() / count(*) OVER () filter\n{}",
          FormatErrorPosition(sql, unit.start));
    }
  }
}

// `IGNORE NULLS` / `RESPECT NULLS` before a call's closing parenthesis (DuckDB's
// first_value(x IGNORE NULLS)): PostgreSQL's grammar has no such clause, so it is cut out here
// and the transformer, seeing it in the original tokens, marks the call (IgnoreNullsBefore).
void FindNullTreatment(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__IDENT ||
        tokens[i + 1].token != PG_QUERY__TOKEN__NULLS_P || tokens[i + 2].token != ')') {
      continue;
    }
    const std::string word = Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start));
    if (word != "ignore" && word != "respect") continue;
    out->push_back({tokens[i].start, tokens[i + 1].end, ""});
  }
}
}  // namespace shears::parser_internal

namespace shears::parser_internal {

// DuckDB's `a POSITIONAL JOIN b`: PostgreSQL has no such join, so it becomes `a FULL JOIN b ON
// <marker column>` and the binder pairs the rows by position (bind_table_ref.cpp). The ON goes
// after the right table reference: before the next join, comma or clause of its level.
void FindPositionalJoin(const std::string& sql, const std::vector<SqlToken>& tokens,
                        std::vector<Replacement>* out) {
  for (size_t i = 0; i + 1 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__IDENT || tokens[i + 1].token != PG_QUERY__TOKEN__JOIN ||
        Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start)) != "positional") {
      continue;
    }
    const size_t end = TableRefEnd(sql, tokens, i + 2);
    if (end == i + 2) {
      throw ParseError("POSITIONAL JOIN needs a table after it\n{}",
                       FormatErrorPosition(sql, tokens[i + 1].start));
    }
    if (end < tokens.size() &&
        (tokens[end].token == PG_QUERY__TOKEN__ON || tokens[end].token == PG_QUERY__TOKEN__USING)) {
      throw ParseError("POSITIONAL JOIN takes no ON or USING condition\n{}",
                       FormatErrorPosition(sql, tokens[end].start));
    }
    out->push_back({tokens[i].start, tokens[i].end, "FULL"});
    out->push_back({tokens[end - 1].end, tokens[end - 1].end,
                    std::string(" ON \"") + kPositionalJoinMarker + "\""});
  }
}

}  // namespace shears::parser_internal
