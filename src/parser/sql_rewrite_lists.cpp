// DuckDB's list syntax, which PostgreSQL's grammar lacks, in PostgreSQL's terms: the list
// literal `[a, b]` as `(ARRAY[a, b])`, a subscript of a call, `f(x)[1]`, as `(f(x))[1]`, and
// the list comprehension `[x * 2 FOR x IN l IF x > 1]` as a call the transformer rewrites.

#include <string>

#include "common/error.h"
#include "parser/parser.h"
#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {
namespace {

// Whether an expression may start right after this token, so a `[` there opens a list literal;
// after any other token (an identifier, a constant, `)`, `]`, a type name such as INTEGER) a
// `[` is a subscript or an array type and stays.
bool StartsExpression(int token) {
  switch (token) {
    case '(':
    case ',':
    case '[':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '^':
    case '<':
    case '>':
    case '=':
    case PG_QUERY__TOKEN__Op:
    case PG_QUERY__TOKEN__LESS_EQUALS:
    case PG_QUERY__TOKEN__GREATER_EQUALS:
    case PG_QUERY__TOKEN__NOT_EQUALS:
    case PG_QUERY__TOKEN__SELECT:
    case PG_QUERY__TOKEN__WHERE:
    case PG_QUERY__TOKEN__AND:
    case PG_QUERY__TOKEN__OR:
    case PG_QUERY__TOKEN__NOT:
    case PG_QUERY__TOKEN__WHEN:
    case PG_QUERY__TOKEN__THEN:
    case PG_QUERY__TOKEN__ELSE:
    case PG_QUERY__TOKEN__IN_P:
    case PG_QUERY__TOKEN__ON:
    case PG_QUERY__TOKEN__HAVING:
    case PG_QUERY__TOKEN__BY:
    case PG_QUERY__TOKEN__RETURNING:
    case PG_QUERY__TOKEN__DEFAULT:
    case PG_QUERY__TOKEN__DISTINCT:
    case PG_QUERY__TOKEN__ALL:
    case PG_QUERY__TOKEN__ANY:
    case PG_QUERY__TOKEN__SOME:
    case PG_QUERY__TOKEN__CASE:
    case PG_QUERY__TOKEN__BETWEEN:
    case PG_QUERY__TOKEN__LIKE:
    case PG_QUERY__TOKEN__ILIKE:
    case PG_QUERY__TOKEN__IS:
    case PG_QUERY__TOKEN__FROM:  // IS DISTINCT FROM [1]
    case ':':                    // a struct's or map's value: {'a': [1]}, MAP {1: [2]}
    case '{':
    case PG_QUERY__TOKEN__COLON_EQUALS:  // struct_pack(a := [1])
      return true;
    default:
      return false;
  }
}

// Names a call `name(...)` may have whose result a subscript may follow.
bool IsCallName(int token) {
  switch (token) {
    case PG_QUERY__TOKEN__IDENT:
    case PG_QUERY__TOKEN__CAST:
    case PG_QUERY__TOKEN__COALESCE:
    case PG_QUERY__TOKEN__NULLIF:
    case PG_QUERY__TOKEN__GREATEST:
    case PG_QUERY__TOKEN__LEAST:
    case PG_QUERY__TOKEN__LEFT:
    case PG_QUERY__TOKEN__RIGHT:
    case PG_QUERY__TOKEN__SUBSTRING:
    case PG_QUERY__TOKEN__TRIM:
      return true;
    default:
      return false;
  }
}

/// `[e FOR x[, i] IN l [IF c]]` between tokens[open] and tokens[close]: the call
/// `__shears_list_comprehension(x -> e, l[, x -> c])` in place (no text moves, so the edits
/// inside e, l and c stay valid); false when the brackets hold no FOR of their own level.
bool RewriteComprehension(const std::string& sql, const std::vector<SqlToken>& tokens, size_t open,
                          size_t close, std::vector<Replacement>* out) {
  size_t for_at = 0, in_at = 0, if_at = 0;
  int depth = 0;
  for (size_t k = open + 1; k < close; k++) {
    const int t = tokens[k].token;
    if (t == '(' || t == '[') depth++;
    if (t == ')' || t == ']') depth--;
    if (depth != 0) continue;
    if (t == PG_QUERY__TOKEN__FOR && for_at == 0) for_at = k;
    if (t == PG_QUERY__TOKEN__IN_P && for_at != 0 && in_at == 0) in_at = k;
    if (t == PG_QUERY__TOKEN__IF_P && in_at != 0 && if_at == 0) if_at = k;
  }
  if (for_at == 0) return false;
  auto text = [&](size_t k) {
    return sql.substr(tokens[k].start, tokens[k].end - tokens[k].start);
  };
  // FOR x IN or FOR x, i IN (i: the element's position, from 1).
  std::vector<std::string> names;
  size_t name_at = for_at + 1;
  for (; name_at < in_at; name_at += 2) {
    if (tokens[name_at].token != PG_QUERY__TOKEN__IDENT ||
        (name_at + 1 < in_at && tokens[name_at + 1].token != ',')) {
      break;
    }
    names.push_back(text(name_at));
  }
  if (name_at != in_at + 1) names.clear();  // not name[, name] exactly
  if (in_at == 0 || names.empty() || names.size() > 2 || for_at == open + 1 ||
      in_at + 1 == (if_at ? if_at : close) || (if_at && if_at + 1 == close)) {
    throw ParseError("a list comprehension is [expr FOR x[, i] IN list [IF condition]]\n{}",
                     FormatErrorPosition(sql, tokens[for_at].start));
  }
  if (names.size() == 2 && if_at) {
    // The filter renumbers the elements: i would be a position in the filtered list.
    for (size_t k = open + 1; k < for_at; k++) {
      if (tokens[k].token == PG_QUERY__TOKEN__IDENT && Lower(text(k)) == Lower(names[1])) {
        throw NotSupportedError(
            "a list comprehension with IF whose expression uses the position {} is not "
            "supported\n{}",
            names[1], FormatErrorPosition(sql, tokens[k].start));
      }
    }
  }
  const std::string params = names.size() == 1 ? names[0] : "(" + names[0] + ", " + names[1] + ")";
  out->push_back({tokens[open].start, tokens[open].end,
                  std::string(kListComprehension) + "(" + params + " -> "});
  out->push_back({tokens[for_at].start, tokens[in_at].end, ","});
  if (if_at) out->push_back({tokens[if_at].start, tokens[if_at].end, ", " + params + " ->"});
  out->push_back({tokens[close].start, tokens[close].end, ")"});
  return true;
}

}  // namespace

void FindListLiterals(const std::string& sql, const std::vector<SqlToken>& tokens,
                      std::vector<Replacement>* out) {
  for (size_t i = 0; i < tokens.size(); i++) {
    if (tokens[i].token != '[') continue;
    const int previous = i == 0 ? ';' : tokens[i - 1].token;
    if (i == 0 || previous == ';' || StartsExpression(previous)) {
      // The matching `]` closes the parentheses.
      int depth = 0;
      size_t close = i;
      for (; close < tokens.size(); close++) {
        if (tokens[close].token == '[') depth++;
        if (tokens[close].token == ']' && --depth == 0) break;
      }
      if (close == tokens.size()) continue;  // unbalanced: the grammar reports it
      if (RewriteComprehension(sql, tokens, i, close, out)) continue;
      out->push_back({tokens[i].start, tokens[i].start, "(ARRAY"});
      out->push_back({tokens[close].end, tokens[close].end, ")"});
    } else if (previous == PG_QUERY__TOKEN__SCONST) {
      // 'abc'[2]: the grammar subscripts no constant.
      out->push_back({tokens[i - 1].start, tokens[i - 1].start, "("});
      out->push_back({tokens[i - 1].end, tokens[i - 1].end, ")"});
    } else if (previous == ')') {
      // f(x)[1]: find the call's `(` and its name.
      int depth = 0;
      size_t open = i - 1;
      for (;; open--) {
        if (tokens[open].token == ')') depth++;
        if (tokens[open].token == '(' && --depth == 0) break;
        if (open == 0) break;
      }
      if (depth != 0 || open == 0 || !IsCallName(tokens[open - 1].token)) continue;
      // x::STRUCT(a INT)[] / AS MAP(K, V)[]: a type's [], not a subscript.
      if (open >= 2 && (tokens[open - 2].token == PG_QUERY__TOKEN__TYPECAST ||
                        tokens[open - 2].token == PG_QUERY__TOKEN__AS)) {
        continue;
      }
      out->push_back({tokens[open - 1].start, tokens[open - 1].start, "("});
      out->push_back({tokens[i - 1].end, tokens[i - 1].end, ")"});
    }
  }
}

}  // namespace shears::parser_internal
