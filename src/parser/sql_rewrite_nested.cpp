// DuckDB's nested-type syntax, which PostgreSQL's grammar lacks, in PostgreSQL's terms: the
// struct literal {'a': x, b: y} as __shears_struct_literal('a', x, 'b', y), the map literal
// MAP {k: v} as __shears_map_literal(k, v), and the type names STRUCT(a INTEGER, ...) (or ROW(...))
// and MAP(K, V) as __shears_type('their text') (read back by parser/type_text.cpp).

#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {
namespace {

std::string TokenText(const std::string& sql, const SqlToken& t) {
  return sql.substr(t.start, t.end - t.start);
}

// The matching closer of tokens[open] (one of ( [ {), or tokens.size() when unbalanced.
size_t MatchingClose(const std::vector<SqlToken>& tokens, size_t open) {
  int depth = 0;
  for (size_t i = open; i < tokens.size(); i++) {
    const int t = tokens[i].token;
    if (t == '(' || t == '[' || t == '{') depth++;
    if ((t == ')' || t == ']' || t == '}') && --depth == 0) return i;
  }
  return tokens.size();
}

// SQL's single-quoted text of `value`.
std::string Quoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// A struct key as written: 'a' (a string constant's value), "a" or a (an identifier's).
std::string KeyName(const std::string& sql, const SqlToken& t) {
  std::string raw = TokenText(sql, t);
  if (raw.size() >= 2 && (raw.front() == '\'' || raw.front() == '"') && raw.back() == raw.front()) {
    const char quote = raw.front();
    std::string value;
    for (size_t i = 1; i + 1 < raw.size(); i++) {
      value += raw[i];
      if (raw[i] == quote && raw[i + 1] == quote) i++;
    }
    return value;
  }
  return raw;
}

bool IsOptionBrace(const std::string& sql, const std::vector<SqlToken>& tokens, size_t brace) {
  // read_csv's columns = {'a': 'INTEGER'} is FindStructColumnOptions'.
  if (brace < 2) return false;
  const int assign = tokens[brace - 1].token;
  if (assign != '=' && assign != PG_QUERY__TOKEN__COLON_EQUALS) return false;
  const std::string option = Lower(TokenText(sql, tokens[brace - 2]));
  return option == "columns" || option == "types" || option == "column_types" || option == "dtypes";
}

}  // namespace

void FindNestedLiterals(const std::string& sql, const std::vector<SqlToken>& tokens,
                        std::vector<Replacement>* out) {
  for (size_t i = 0; i < tokens.size(); i++) {
    if (tokens[i].token != '{' || IsOptionBrace(sql, tokens, i)) continue;
    const size_t close = MatchingClose(tokens, i);
    if (close == tokens.size()) continue;  // unbalanced: the grammar reports it
    const bool map = i > 0 && tokens[i - 1].token == PG_QUERY__TOKEN__IDENT &&
                     Lower(TokenText(sql, tokens[i - 1])) == "map";
    // {...}[k]: the grammar subscripts no call, so the literal goes in parentheses.
    const bool subscripted = close + 1 < tokens.size() && tokens[close + 1].token == '[';
    const std::string open_paren = subscripted ? "(" : "";
    std::vector<Replacement> edits;
    if (map) {
      edits.push_back({tokens[i - 1].start, tokens[i].end, open_paren + kMapLiteralMarker + "("});
    } else {
      edits.push_back({tokens[i].start, tokens[i].end, open_paren + kStructLiteralMarker + "("});
    }
    // Each entry: key `:` value, at the brace's own depth.
    bool ok = true;
    bool expect_key = true;
    int depth = 0;
    for (size_t k = i + 1; k < close && ok; k++) {
      const int t = tokens[k].token;
      if (depth == 0 && expect_key && !map) {
        // A struct key is one token (a string, an identifier or a keyword), then `:`.
        ok = k + 1 < close && tokens[k + 1].token == ':';
        if (!ok) break;
        edits.push_back(
            {tokens[k].start, tokens[k + 1].end, Quoted(KeyName(sql, tokens[k])) + ","});
        expect_key = false;
        k++;
        continue;
      }
      if (t == '(' || t == '[' || t == '{') depth++;
      if (t == ')' || t == ']' || t == '}') depth--;
      if (depth != 0) continue;
      if (t == ':' && map) {
        if (!expect_key) ok = false;
        edits.push_back({tokens[k].start, tokens[k].end, ","});
        expect_key = false;
      } else if (t == ',') {
        if (expect_key) ok = false;
        expect_key = true;
      }
    }
    if (!ok) continue;  // not a literal of this shape: the grammar reports the braces
    edits.push_back({tokens[close].start, tokens[close].end, subscripted ? "))" : ")"});
    out->insert(out->end(), edits.begin(), edits.end());
  }
}

void FindNestedTypeNames(const std::string& sql, const std::vector<SqlToken>& tokens,
                         std::vector<Replacement>* out) {
  for (size_t i = 0; i + 1 < tokens.size(); i++) {
    const bool row = tokens[i].token == PG_QUERY__TOKEN__ROW;
    if ((tokens[i].token != PG_QUERY__TOKEN__IDENT && !row) || tokens[i + 1].token != '(') {
      continue;
    }
    const std::string name = Lower(TokenText(sql, tokens[i]));
    if (name != "struct" && name != "map" && !row) continue;
    // map(keys, values) is a function and ROW(a, b) a row value; MAP(K, V) and DuckDB's
    // ROW(a INTEGER, ...) (a STRUCT) are types after :: or AS (CAST), or after a column's name
    // (CREATE TABLE).
    if (name == "map" || row) {
      const int previous = i == 0 ? 0 : tokens[i - 1].token;
      if (previous != PG_QUERY__TOKEN__TYPECAST && previous != PG_QUERY__TOKEN__AS &&
          previous != PG_QUERY__TOKEN__IDENT) {
        continue;
      }
    }
    const size_t close = MatchingClose(tokens, i + 1);
    if (close == tokens.size()) continue;
    const std::string text = sql.substr(tokens[i].start, tokens[close].end - tokens[i].start);
    out->push_back({tokens[i].start, tokens[close].end,
                    std::string(kNestedTypeMarker) + "(" + Quoted(text) + ")"});
    i = close;  // the inner STRUCT(...)s are part of this text
  }
}

}  // namespace shears::parser_internal
