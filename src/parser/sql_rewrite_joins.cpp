// DuckDB's join kinds PostgreSQL's grammar lacks: `SEMI JOIN`, `ANTI JOIN` and `ASOF [LEFT |
// RIGHT] JOIN`. Each becomes the join PostgreSQL parses (`JOIN`, or ASOF's own LEFT / RIGHT)
// with a marker the transformer takes out again (TakeJoinMarker in transform_query.cpp):
//
//   a SEMI JOIN b ON cond        ->  a JOIN b ON "__shears_join_semi__" AND (cond)
//   a SEMI JOIN b USING (k)      ->  a JOIN b USING (k, "__shears_join_semi__")
//   a NATURAL SEMI JOIN b        ->  a JOIN b ON "__shears_join_semi_natural__"

#include <string>
#include <vector>

#include "common/error.h"
#include "parser/parser.h"
#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {

namespace {

std::string Word(const std::string& sql, const SqlToken& token) {
  return Lower(sql.substr(token.start, token.end - token.start));
}

/// Whether tokens[i] is one of the words that may start a join before its JOIN keyword.
bool StartsJoin(const std::string& sql, const std::vector<SqlToken>& tokens, size_t i) {
  switch (tokens[i].token) {
    case PG_QUERY__TOKEN__JOIN:
    case PG_QUERY__TOKEN__INNER_P:
    case PG_QUERY__TOKEN__LEFT:
    case PG_QUERY__TOKEN__RIGHT:
    case PG_QUERY__TOKEN__FULL:
    case PG_QUERY__TOKEN__CROSS:
    case PG_QUERY__TOKEN__NATURAL:
      // LEFT / RIGHT are also functions: left(s, 2).
      return i + 1 >= tokens.size() || tokens[i + 1].token != '(';
    case PG_QUERY__TOKEN__IDENT: {
      if (i + 1 >= tokens.size()) return false;
      const std::string word = Word(sql, tokens[i]);
      const int next = tokens[i + 1].token;
      return (word == "positional" || word == "semi" || word == "anti" || word == "asof") &&
             (next == PG_QUERY__TOKEN__JOIN || next == PG_QUERY__TOKEN__LEFT ||
              next == PG_QUERY__TOKEN__RIGHT || next == PG_QUERY__TOKEN__FULL ||
              next == PG_QUERY__TOKEN__INNER_P);
    }
    default:
      return false;
  }
}

/// The index after the last token of the expression starting at `begin` (an ON condition):
/// the next join, comma, clause or closing parenthesis of its level.
size_t ConditionEnd(const std::string& sql, const std::vector<SqlToken>& tokens, size_t begin) {
  int depth = 0;
  size_t i = begin;
  for (; i < tokens.size(); i++) {
    const int t = tokens[i].token;
    if (t == '(') {
      depth++;
      continue;
    }
    if (t == ')') {
      if (depth == 0) break;
      depth--;
      continue;
    }
    if (depth > 0) continue;
    if (t == ',' || t == ';' || EndsFromClause(t) || StartsJoin(sql, tokens, i)) break;
  }
  return i;
}

}  // namespace

size_t TableRefEnd(const std::string& sql, const std::vector<SqlToken>& tokens, size_t begin) {
  int depth = 0;
  size_t end = begin;
  for (; end < tokens.size(); end++) {
    const int t = tokens[end].token;
    if (t == '(') depth++;
    if (t == ')') {
      if (depth == 0) break;
      depth--;
      continue;
    }
    if (depth > 0) continue;
    if (end > begin && (EndsUnaliasedSubquery(t) || StartsJoin(sql, tokens, end))) break;
  }
  return end;
}

void FindDuckDbJoins(const std::string& sql, const std::vector<SqlToken>& tokens,
                     std::vector<Replacement>* out) {
  for (size_t i = 0; i + 1 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__IDENT) continue;
    const std::string word = Word(sql, tokens[i]);
    if (word != "semi" && word != "anti" && word != "asof") continue;
    // `t AS semi JOIN ...` is an alias (DuckDB reads `t semi JOIN` as a semi join too).
    if (i > 0 && tokens[i - 1].token == PG_QUERY__TOKEN__AS) continue;
    size_t join = i + 1;
    if (word == "asof") {
      // ASOF [LEFT | RIGHT | FULL | INNER] [OUTER] JOIN.
      while (join < tokens.size() && (tokens[join].token == PG_QUERY__TOKEN__LEFT ||
                                      tokens[join].token == PG_QUERY__TOKEN__RIGHT ||
                                      tokens[join].token == PG_QUERY__TOKEN__FULL ||
                                      tokens[join].token == PG_QUERY__TOKEN__INNER_P ||
                                      tokens[join].token == PG_QUERY__TOKEN__OUTER_P)) {
        join++;
      }
    }
    if (join >= tokens.size() || tokens[join].token != PG_QUERY__TOKEN__JOIN) continue;
    const std::string upper = word == "semi" ? "SEMI" : word == "anti" ? "ANTI" : "ASOF";
    const std::string marker = std::string(kJoinMarkerPrefix) + word;
    const bool natural = i > 0 && tokens[i - 1].token == PG_QUERY__TOKEN__NATURAL;
    const size_t end = TableRefEnd(sql, tokens, join + 1);
    if (end == join + 1) {
      throw ParseError("{} JOIN needs a table after it\n{}", upper,
                       FormatErrorPosition(sql, tokens[join].start));
    }
    out->push_back({tokens[i].start, tokens[i].end, ""});
    if (natural) {
      if (end < tokens.size() && (tokens[end].token == PG_QUERY__TOKEN__ON ||
                                  tokens[end].token == PG_QUERY__TOKEN__USING)) {
        throw ParseError("NATURAL {} JOIN takes no ON or USING condition\n{}", upper,
                         FormatErrorPosition(sql, tokens[end].start));
      }
      out->push_back({tokens[i - 1].start, tokens[i - 1].end, ""});
      out->push_back({tokens[end - 1].end, tokens[end - 1].end,
                      " ON \"" + marker + "_natural" + kJoinMarkerSuffix + "\""});
      continue;
    }
    if (end < tokens.size() && tokens[end].token == PG_QUERY__TOKEN__ON) {
      const size_t condition_end = ConditionEnd(sql, tokens, end + 1);
      if (condition_end == end + 1) {
        throw ParseError("{} JOIN needs a condition after ON\n{}", upper,
                         FormatErrorPosition(sql, tokens[end].start));
      }
      out->push_back(
          {tokens[end].end, tokens[end].end, " \"" + marker + kJoinMarkerSuffix + "\" AND ("});
      out->push_back({tokens[condition_end - 1].end, tokens[condition_end - 1].end, ")"});
      continue;
    }
    if (end + 1 < tokens.size() && tokens[end].token == PG_QUERY__TOKEN__USING &&
        tokens[end + 1].token == '(') {
      size_t close = end + 2;
      int depth = 0;
      for (; close < tokens.size(); close++) {
        if (tokens[close].token == '(') depth++;
        if (tokens[close].token == ')' && depth-- == 0) break;
      }
      if (close < tokens.size()) {
        out->push_back(
            {tokens[close].start, tokens[close].start, ", \"" + marker + kJoinMarkerSuffix + "\""});
        continue;
      }
    }
    throw ParseError("{} JOIN needs an ON or USING condition\n{}", upper,
                     FormatErrorPosition(sql, tokens[join].start));
  }
}

}  // namespace shears::parser_internal
