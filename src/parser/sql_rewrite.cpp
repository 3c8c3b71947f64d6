// Token-level rewrite of shears' grammar extensions into PostgreSQL syntax, with a map back to
// the user's offsets. Working on scanner tokens (not bytes) keeps strings, comments and
// dollar-quoted text out of the way.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/file_format.h"
#include "common/interval.h"
#include "common/string_util.h"
#include "parser/parser.h"
#include "parser/sql_rewrite_internal.h"
#include "parser/transformer.h"

namespace shears::parser_internal {

void SourceMap::AddEdit(int orig_begin, int orig_end, int new_begin, int new_end) {
  edits_.push_back({orig_begin, orig_end, new_begin, new_end});
}

int SourceMap::ToOriginal(int offset) const {
  if (offset < 0) return offset;
  // Last edit starting at or before the offset.
  auto it = std::upper_bound(edits_.begin(), edits_.end(), offset,
                             [](int value, const Edit& e) { return value < e.new_begin; });
  if (it == edits_.begin()) return offset;
  const Edit& e = *(it - 1);
  if (offset < e.new_end) {
    return e.orig_begin + std::min(offset - e.new_begin, e.orig_end - e.orig_begin);
  }
  return offset - e.new_end + e.orig_end;
}

int CharPositionToByteOffset(std::string_view text, int char_position) {
  // PostgreSQL counts characters by the length their lead byte announces (pg_utf_mblen).
  int chars = 1;
  size_t i = 0;
  while (i < text.size() && chars < char_position) {
    auto b = static_cast<unsigned char>(text[i]);
    size_t len = b < 0x80             ? 1
                 : (b & 0xE0) == 0xC0 ? 2
                 : (b & 0xF0) == 0xE0 ? 3
                 : (b & 0xF8) == 0xF0 ? 4
                                      : 1;
    i = std::min(text.size(), i + len);
    chars++;
  }
  return static_cast<int>(i);
}

int InsertOrAction(const std::string& sql, const std::vector<SqlToken>& tokens, size_t insert) {
  // SQLite's and MySQL's REPLACE INTO t ... is INSERT OR REPLACE INTO t ... .
  if (insert + 1 < tokens.size() && tokens[insert].token == PG_QUERY__TOKEN__REPLACE &&
      tokens[insert + 1].token == PG_QUERY__TOKEN__INTO) {
    return 'R';
  }
  if (insert + 2 >= tokens.size() || tokens[insert].token != PG_QUERY__TOKEN__INSERT ||
      tokens[insert + 1].token != PG_QUERY__TOKEN__OR) {
    return 0;
  }
  const SqlToken& word = tokens[insert + 2];
  if (word.token == PG_QUERY__TOKEN__REPLACE) return 'R';
  return EqualsAsciiLower(std::string_view(sql).substr(word.start, word.end - word.start), "ignore")
             ? 'I'
             : 0;
}

size_t InsertByToken(const std::vector<SqlToken>& tokens, size_t insert, bool* by_name) {
  // INSERT ..., or SQLite's REPLACE INTO (not the REPLACE of INSERT OR REPLACE INTO).
  if (insert + 1 >= tokens.size() ||
      (tokens[insert].token != PG_QUERY__TOKEN__INSERT &&
       (tokens[insert].token != PG_QUERY__TOKEN__REPLACE ||
        tokens[insert + 1].token != PG_QUERY__TOKEN__INTO ||
        (insert > 0 && tokens[insert - 1].token == PG_QUERY__TOKEN__OR)))) {
    return 0;
  }
  size_t i = insert + 1;
  while (i < tokens.size() && tokens[i].token != PG_QUERY__TOKEN__INTO && i < insert + 3)
    i++;
  if (i >= tokens.size() || tokens[i].token != PG_QUERY__TOKEN__INTO) return 0;
  // The table name (name[.name...]), then BY NAME / BY POSITION.
  i += 2;
  while (i + 1 < tokens.size() && tokens[i].token == '.')
    i += 2;
  if (i + 1 >= tokens.size() || tokens[i].token != PG_QUERY__TOKEN__BY) return 0;
  const int next = tokens[i + 1].token;
  if (next != PG_QUERY__TOKEN__NAME_P && next != PG_QUERY__TOKEN__POSITION) return 0;
  *by_name = next == PG_QUERY__TOKEN__NAME_P;
  return i;
}

namespace {

struct ScanDeleter {
  void operator()(PgQuery__ScanResult* r) const {
    pg_query__scan_result__free_unpacked(r, nullptr);
  }
};

std::vector<SqlToken> Scan(const std::string& sql) {
  std::vector<SqlToken> tokens;
  PgQueryScanResult result = pg_query_scan(sql.c_str());
  if (result.error == nullptr) {
    std::unique_ptr<PgQuery__ScanResult, ScanDeleter> scan(pg_query__scan_result__unpack(
        nullptr, result.pbuf.len, reinterpret_cast<const uint8_t*>(result.pbuf.data)));
    if (scan) {
      tokens.reserve(scan->n_tokens);
      for (size_t i = 0; i < scan->n_tokens; i++) {
        const PgQuery__ScanToken* t = scan->tokens[i];
        if (t->token == PG_QUERY__TOKEN__SQL_COMMENT || t->token == PG_QUERY__TOKEN__C_COMMENT) {
          continue;
        }
        tokens.push_back(
            {t->start, t->end, static_cast<int>(t->token), static_cast<int>(t->keyword_kind)});
      }
    }
  }
  // A scanner error (say an unterminated string) is reported by the parser with its position.
  pg_query_free_scan_result(result);
  return tokens;
}

}  // namespace

bool EndsFromClause(int token) {
  switch (token) {
    case PG_QUERY__TOKEN__WHERE:
    case PG_QUERY__TOKEN__GROUP_P:
    case PG_QUERY__TOKEN__HAVING:
    case PG_QUERY__TOKEN__ORDER:
    case PG_QUERY__TOKEN__LIMIT:
    case PG_QUERY__TOKEN__OFFSET:
    case PG_QUERY__TOKEN__FETCH:
    case PG_QUERY__TOKEN__UNION:
    case PG_QUERY__TOKEN__INTERSECT:
    case PG_QUERY__TOKEN__EXCEPT:
    case PG_QUERY__TOKEN__WINDOW:
    case PG_QUERY__TOKEN__FOR:
    case PG_QUERY__TOKEN__INTO:
    case PG_QUERY__TOKEN__RETURNING:
    case PG_QUERY__TOKEN__SELECT:
    case PG_QUERY__TOKEN__VALUES:
      return true;
    default:
      return false;
  }
}

bool IsIntervalUnitKeyword(int token) {
  switch (token) {
    case PG_QUERY__TOKEN__YEAR_P:
    case PG_QUERY__TOKEN__MONTH_P:
    case PG_QUERY__TOKEN__DAY_P:
    case PG_QUERY__TOKEN__HOUR_P:
    case PG_QUERY__TOKEN__MINUTE_P:
    case PG_QUERY__TOKEN__SECOND_P:
      return true;
    default:
      return false;
  }
}

// Whether a subquery without alias may end before this token (DuckDB accepts
// `FROM (SELECT ...)` without an alias; PostgreSQL before 16 does not). Only tokens that
// cannot be an alias, so `(SELECT ...) year` keeps its alias.
bool EndsUnaliasedSubquery(int token) {
  switch (token) {
    case 0:  // end of input
    case ';':
    case ')':
    case ',':
    case PG_QUERY__TOKEN__JOIN:
    case PG_QUERY__TOKEN__INNER_P:
    case PG_QUERY__TOKEN__LEFT:
    case PG_QUERY__TOKEN__RIGHT:
    case PG_QUERY__TOKEN__FULL:
    case PG_QUERY__TOKEN__CROSS:
    case PG_QUERY__TOKEN__NATURAL:
    case PG_QUERY__TOKEN__ON:
    case PG_QUERY__TOKEN__USING:
      return true;
    default:
      return EndsFromClause(token);
  }
}

namespace {

// Whether the FROM at tokens[i] starts a DuckDB FROM-first query: at the start of a statement
// or of a parenthesised query (`(FROM t SELECT a)`), but not PostgreSQL's TRIM(FROM s).
bool StartsFromFirstQuery(const std::vector<SqlToken>& tokens, size_t i) {
  // Also CREATE TABLE t AS FROM ... .
  if (i == 0 || tokens[i - 1].token == ';' || tokens[i - 1].token == PG_QUERY__TOKEN__AS)
    return true;
  return tokens[i - 1].token == '(' && !(i >= 2 && tokens[i - 2].token == PG_QUERY__TOKEN__TRIM);
}

// `(PIVOT t ON ...)` / `(UNPIVOT ...)`: a query in parentheses once FindPivots rewrote it.
bool StartsPivotStatement(const std::string& sql, const std::vector<SqlToken>& tokens, size_t i) {
  if (i >= tokens.size() || tokens[i].token != PG_QUERY__TOKEN__IDENT) return false;
  const std::string word = Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start));
  return word == "pivot" || word == "unpivot" || word == "pivot_wider" || word == "pivot_longer";
}

// Finds string literals in table position (they become read_parquet or read_csv calls) and
// subqueries in table position without an alias (they get one). Each parenthesis level tracks
// whether it is inside a FROM clause: FROM counts only after a SELECT of the same level (so
// EXTRACT(x FROM y), SUBSTRING(s FROM n), TRIM(FROM s) and IS DISTINCT FROM do not start one), and
// the clause runs, across JOIN ... ON/USING and commas, until a keyword that starts another clause.
void FindTableRewrites(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out) {
  struct Level {
    bool select_seen = false;
    bool in_from = false;
    bool subquery = false;     // a '(' in table position that holds a query
    bool table_paren = false;  // a '(' in table position
    bool nested = false;       // opened right after another table position '(' (`FROM ((`)
  };
  std::vector<Level> levels(1);
  int prev = 0;
  bool prev_opened_table_paren = false;  // prev is a '(' in table position
  int unnamed = 0;
  for (size_t i = 0; i < tokens.size(); i++) {
    const SqlToken& t = tokens[i];
    const int next = i + 1 < tokens.size() ? tokens[i + 1].token : 0;
    Level& level = levels.back();
    bool opened_table_paren = false;
    switch (t.token) {
      case '(': {
        // `FROM (a JOIN b ...)` continues the FROM clause one level down; `f(` and `IN (`
        // do not.
        bool table_position =
            level.in_from &&
            (prev == PG_QUERY__TOKEN__FROM || prev == PG_QUERY__TOKEN__JOIN || prev == ',' ||
             prev == PG_QUERY__TOKEN__LATERAL_P || prev_opened_table_paren);
        const bool query =
            table_position && (next == PG_QUERY__TOKEN__SELECT || next == PG_QUERY__TOKEN__WITH ||
                               next == PG_QUERY__TOKEN__VALUES || next == PG_QUERY__TOKEN__FROM ||
                               StartsPivotStatement(sql, tokens, i + 1));
        levels.push_back(Level{false, table_position, query, table_position,
                               table_position && prev_opened_table_paren});
        opened_table_paren = table_position;
        break;
      }
      case ')':
        if (levels.size() > 1) {
          const bool set_operand = next == PG_QUERY__TOKEN__UNION ||
                                   next == PG_QUERY__TOKEN__INTERSECT ||
                                   next == PG_QUERY__TOKEN__EXCEPT;
          // `FROM (SELECT ...) EXCEPT SELECT ...`: the table reference needs its alias; the
          // EXCEPT is the outer query's.
          if (levels.back().subquery && set_operand && levels.back().nested) {
            // `FROM ((SELECT ...) EXCEPT (SELECT ...)) t`: an operand of a set operation gets
            // no alias; the parenthesis around the set operation is the subquery.
            Level& parent = levels[levels.size() - 2];
            if (levels.size() > 2 && parent.table_paren) parent.subquery = true;
          } else if (levels.back().subquery && EndsUnaliasedSubquery(next)) {
            unnamed++;
            out->push_back({t.end, t.end,
                            " AS unnamed_subquery" + (unnamed > 1 ? std::to_string(unnamed) : "")});
          }
          levels.pop_back();
        }
        break;
      case ';':
        levels.assign(1, Level{});
        break;
      case PG_QUERY__TOKEN__SELECT:
        level.select_seen = true;
        level.in_from = false;
        break;
      case PG_QUERY__TOKEN__FROM:
        // A statement that starts with FROM is DuckDB's SELECT * FROM (FindFromFirst).
        if (StartsFromFirstQuery(tokens, i)) level.select_seen = true;
        if (level.select_seen && prev != PG_QUERY__TOKEN__DISTINCT) level.in_from = true;
        break;
      case PG_QUERY__TOKEN__SCONST:
        if (level.in_from && (prev == PG_QUERY__TOKEN__FROM || prev == PG_QUERY__TOKEN__JOIN ||
                              prev == ',' || prev_opened_table_paren)) {
          // By extension: 'x.csv', 'x.tsv', 'x.csv.gz', 'dir/*.csv' are CSV (read_csv).
          std::string_view text(sql.data() + t.start, t.end - t.start);
          if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
            text = text.substr(1, text.size() - 2);
          }
          out->push_back({t.start, t.start,
                          HasCsvExtension(text)  ? "read_csv("
                          : IsJsonFileName(text) ? "read_json("
                                                 : "read_parquet("});
          out->push_back({t.end, t.end, ")"});
        }
        break;
      default:
        if (EndsFromClause(t.token)) level.in_from = false;
        break;
    }
    prev = t.token;
    prev_opened_table_paren = opened_table_paren;
  }
}

// SQLite's x [NOT] GLOB p: the word becomes DuckDB's spelling, the operator ~~~ (!~~~), which
// the transformer turns into a match of glob_to_regex(p). GLOB counts as an operator only between
// an operand's end and an operand's start.
void FindGlob(const std::string& sql, const std::vector<SqlToken>& tokens,
              std::vector<Replacement>* out) {
  for (size_t i = 1; i + 1 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__IDENT || tokens[i].end - tokens[i].start != 4 ||
        Lower(sql.substr(tokens[i].start, 4)) != "glob") {
      continue;
    }
    const bool negated = tokens[i - 1].token == PG_QUERY__TOKEN__NOT;
    if (negated && i < 2) continue;  // `NOT glob ...` first: no operand before (read tokens[-1])
    const int before = tokens[i - (negated ? 2 : 1)].token;
    const int after = tokens[i + 1].token;
    const bool operand_end = before == PG_QUERY__TOKEN__IDENT ||
                             before == PG_QUERY__TOKEN__SCONST ||
                             before == PG_QUERY__TOKEN__ICONST || before == ')';
    const bool operand_start = after == PG_QUERY__TOKEN__IDENT ||
                               after == PG_QUERY__TOKEN__SCONST || after == '(' ||
                               after == PG_QUERY__TOKEN__PARAM;
    if (!operand_end || !operand_start) continue;
    if (negated) {
      out->push_back({tokens[i - 1].start, tokens[i].end, "!~~~"});
    } else {
      out->push_back({tokens[i].start, tokens[i].end, "~~~"});
    }
  }
}

// DuckDB's FROM-first queries, as statements and in parentheses (subqueries, CTEs): `FROM t
// [WHERE ...]` is SELECT * FROM t ...; `FROM t SELECT a, b [WHERE ...]` moves the select list
// (up to the clause after it) in front of FROM, so positions in the list map to the FROM keyword.
void FindFromFirst(const std::string& sql, const std::vector<SqlToken>& tokens,
                   std::vector<Replacement>* out) {
  size_t before = out->size();  // the other rewrites' edits (those moved are taken out)
  for (size_t i = 0; i < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__FROM || !StartsFromFirstQuery(tokens, i)) continue;
    size_t select = 0, list_end = 0;
    bool set_operation = false;
    int depth = 0;
    size_t k = i + 1;
    for (; k < tokens.size() && tokens[k].token != ';' && depth >= 0; k++) {
      const int token = tokens[k].token;
      if (token == '(') depth++;
      if (token == ')') depth--;
      if (depth != 0) continue;
      if (select == 0 && (token == PG_QUERY__TOKEN__UNION || token == PG_QUERY__TOKEN__INTERSECT ||
                          token == PG_QUERY__TOKEN__EXCEPT))
        set_operation = true;
      if (token == PG_QUERY__TOKEN__SELECT && select == 0) {
        select = k;
      } else if (select != 0 && list_end == 0 &&
                 (EndsFromClause(token) ||
                  (token == PG_QUERY__TOKEN__IDENT && tokens[k].end - tokens[k].start == 7 &&
                   Lower(sql.substr(tokens[k].start, 7)) == "qualify"))) {
        list_end = k;
      }
    }
    if (select == 0) {
      out->push_back({tokens[i].start, tokens[i].start, "SELECT * "});
      continue;
    }
    if (set_operation) continue;  // FROM a UNION SELECT ...: left to the grammar
    // In parentheses the scan stopped past the closing one.
    if (list_end == 0) list_end = depth < 0 ? k - 1 : k;
    if (list_end <= select + 1) continue;  // FROM t SELECT: nothing to move
    const int list_begin = tokens[select].start, list_stop = tokens[list_end - 1].end;
    // Other rewrites inside the list (* EXCLUDE, ?, list literals) travel with it: the moved
    // text has them applied. One that straddles the list's edge leaves the query as it is.
    bool straddles = false;
    std::vector<size_t> inside;
    for (size_t r = 0; r < before; r++) {
      const Replacement& edit = (*out)[r];
      if (edit.begin >= list_begin && edit.end <= list_stop) {
        inside.push_back(r);
      } else if (edit.begin < list_stop && edit.end > list_begin) {
        straddles = true;
      }
    }
    if (straddles) continue;
    std::stable_sort(inside.begin(), inside.end(),
                     [&](size_t a, size_t b) { return (*out)[a].begin < (*out)[b].begin; });
    std::string moved;
    int copied = list_begin;
    for (size_t r : inside) {
      moved.append(sql, copied, (*out)[r].begin - copied);
      moved += (*out)[r].text;
      copied = (*out)[r].end;
    }
    moved.append(sql, copied, list_stop - copied);
    std::sort(inside.begin(), inside.end());
    for (auto r = inside.rbegin(); r != inside.rend(); ++r)
      out->erase(out->begin() + static_cast<std::ptrdiff_t>(*r));
    before -= inside.size();
    out->push_back({tokens[i].start, tokens[i].start, moved + " "});
    out->push_back({list_begin, list_stop, ""});
  }
}

// `3 days` as the quoted text PostgreSQL's INTERVAL takes ('3 days'), or nullopt when the
// second token names no interval unit.
std::optional<std::string> QuotedQuantity(const std::string& sql, const SqlToken& number,
                                          const SqlToken& unit) {
  std::string_view unit_text(sql.data() + unit.start, unit.end - unit.start);
  if (!IsIntervalUnitKeyword(unit.token) &&
      !(unit.token == PG_QUERY__TOKEN__IDENT && IsIntervalUnit(unit_text))) {
    return std::nullopt;
  }
  return "'" + sql.substr(number.start, number.end - number.start) + " " + std::string(unit_text) +
         "'";
}

// DuckDB's INTERVAL 3 DAY / INTERVAL 3 days: PostgreSQL only accepts a quoted quantity.
void FindUnquotedIntervals(const std::string& sql, const std::vector<SqlToken>& tokens,
                           std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__INTERVAL) continue;
    const SqlToken& number = tokens[i + 1];
    if (number.token != PG_QUERY__TOKEN__ICONST && number.token != PG_QUERY__TOKEN__FCONST) {
      continue;
    }
    if (auto text = QuotedQuantity(sql, number, tokens[i + 2])) {
      out->push_back({number.start, tokens[i + 2].end, std::move(*text)});
      i += 2;
    }
  }
}

// The TPC-DS templates' `(cast('2000-02-28' as date) + 30 days)`: a quantity and a unit after
// `+` or `-`, closed by a parenthesis, is an interval (PostgreSQL and DuckDB reject it). The
// parenthesis keeps `SELECT x + 30 days FROM t`, where `days` is an alias, as it is.
void FindBareIntervalSums(const std::string& sql, const std::vector<SqlToken>& tokens,
                          std::vector<Replacement>* out) {
  for (size_t i = 0; i + 3 < tokens.size(); i++) {
    if (tokens[i].token != '+' && tokens[i].token != '-') continue;
    const SqlToken& number = tokens[i + 1];
    if (number.token != PG_QUERY__TOKEN__ICONST || tokens[i + 3].token != ')') continue;
    if (auto text = QuotedQuantity(sql, number, tokens[i + 2])) {
      out->push_back({number.start, tokens[i + 2].end, "INTERVAL " + *text});
      i += 3;
    }
  }
}

// DuckDB's TRY_CAST(x AS t), which PostgreSQL's grammar lacks: CAST(marker(x) AS t), a cast
// the transformer turns back into one that gives NULL where x does not convert.
void FindTryCasts(const std::string& sql, const std::vector<SqlToken>& tokens,
                  std::vector<Replacement>* out) {
  for (size_t i = 0; i + 1 < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__IDENT || tokens[i + 1].token != '(' ||
        Lower(sql.substr(tokens[i].start, tokens[i].end - tokens[i].start)) != "try_cast") {
      continue;
    }
    int depth = 0;
    size_t as = 0;
    for (size_t k = i + 1; k < tokens.size(); k++) {
      if (tokens[k].token == '(') {
        depth++;
      } else if (tokens[k].token == ')') {
        if (--depth == 0) break;
      } else if (depth == 1 && as == 0 && tokens[k].token == PG_QUERY__TOKEN__AS) {
        as = k;
      }
    }
    if (as == 0) continue;  // not a cast: left to the grammar's error
    out->push_back(
        {tokens[i].start, tokens[i + 1].end, std::string("CAST(") + kTryCastMarker + "("});
    out->push_back({tokens[as].start, tokens[as].start, ") "});
  }
}

bool IsNameText(const std::string& sql, const SqlToken& token) {
  if (token.end <= token.start) return false;
  for (int i = token.start; i < token.end; i++) {
    const unsigned char c = sql[i];
    if (!(std::isalpha(c) || c == '_' || (i > token.start && std::isdigit(c)))) return false;
  }
  return true;
}

// DuckDB's Python-style lambda, `lambda x: body` / `lambda acc, x: body`, as the arrow form
// the transformer reads (`x -> body`, `(acc, x) -> body`; MakeLambda moves the arrow above
// the operators PostgreSQL binds looser). Only `lambda`, names and a lone `:` qualify, so a
// column named lambda and slices l[a:b] are left alone.
void FindLambdaKeyword(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].end - tokens[i].start != 6 || Lower(sql.substr(tokens[i].start, 6)) != "lambda" ||
        !IsNameText(sql, tokens[i + 1])) {
      continue;
    }
    std::vector<std::string> params;
    size_t j = i + 1;
    while (j < tokens.size() && IsNameText(sql, tokens[j])) {
      params.push_back(sql.substr(tokens[j].start, tokens[j].end - tokens[j].start));
      if (j + 1 < tokens.size() && tokens[j + 1].token == ',') {
        j += 2;
      } else {
        j++;
        break;
      }
    }
    if (j >= tokens.size() || tokens[j].token != ':' || params.empty()) continue;
    std::string text = params[0];
    for (size_t k = 1; k < params.size(); k++)
      text += ", " + params[k];
    if (params.size() > 1) text = "(" + text + ")";
    out->push_back({tokens[i].start, tokens[j].end, text + " ->"});
    i = j;
  }
}

// DuckDB's `count(*) FILTER (x > 1)`: the WHERE PostgreSQL requires is optional there.
void FindFiltersWithoutWhere(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out) {
  for (size_t i = 1; i + 2 < tokens.size(); i++) {
    if (tokens[i].token == PG_QUERY__TOKEN__FILTER && tokens[i - 1].token == ')' &&
        tokens[i + 1].token == '(' && tokens[i + 2].token != PG_QUERY__TOKEN__WHERE) {
      out->push_back({tokens[i + 2].start, tokens[i + 2].start, "WHERE "});
    }
  }
}

// SQLite's empty list, `x IN ()`: PostgreSQL's grammar (and DuckDB's) rejects it. It becomes
// a list of one marker name, which the transformer turns back into an empty list.
void FindEmptyInLists(const std::vector<SqlToken>& tokens, std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    if (tokens[i].token == PG_QUERY__TOKEN__IN_P && tokens[i + 1].token == '(' &&
        tokens[i + 2].token == ')') {
      out->push_back({tokens[i + 1].start, tokens[i + 2].end,
                      std::string("(\"") + kEmptyInListMarker + "\")"});
      i += 2;
    }
  }
}

// DuckDB's GROUP BY ALL (every select item without an aggregate) and ORDER BY ALL (every
// select column): ALL alone, where the clause ends, becomes a marker column the binder expands.
// (PostgreSQL's GROUP BY ALL a, b, where ALL is a set quantifier, is left alone.)
void FindByAll(const std::string& sql, const std::vector<SqlToken>& tokens,
               std::vector<Replacement>* out) {
  for (size_t i = 2; i < tokens.size(); i++) {
    if (tokens[i].token != PG_QUERY__TOKEN__ALL || tokens[i - 1].token != PG_QUERY__TOKEN__BY)
      continue;
    const int clause = tokens[i - 2].token;
    if (clause != PG_QUERY__TOKEN__GROUP_P && clause != PG_QUERY__TOKEN__ORDER) continue;
    const int next = i + 1 < tokens.size() ? tokens[i + 1].token : 0;
    bool ends = next == 0 || next == ';' || next == ')' || next == PG_QUERY__TOKEN__LIMIT ||
                next == PG_QUERY__TOKEN__OFFSET || next == PG_QUERY__TOKEN__FETCH ||
                next == PG_QUERY__TOKEN__UNION || next == PG_QUERY__TOKEN__INTERSECT ||
                next == PG_QUERY__TOKEN__EXCEPT;
    if (clause == PG_QUERY__TOKEN__GROUP_P) {
      ends = ends || next == PG_QUERY__TOKEN__HAVING || next == PG_QUERY__TOKEN__ORDER ||
             next == PG_QUERY__TOKEN__WINDOW ||
             (next == PG_QUERY__TOKEN__IDENT &&
              Lower(sql.substr(tokens[i + 1].start, tokens[i + 1].end - tokens[i + 1].start)) ==
                  "qualify");
    } else {
      ends = ends || next == PG_QUERY__TOKEN__ASC || next == PG_QUERY__TOKEN__DESC ||
             next == PG_QUERY__TOKEN__NULLS_P;
    }
    if (ends) {
      out->push_back(
          {tokens[i].start, tokens[i].end, std::string("\"") + kAllColumnsMarker + "\""});
    }
  }
}

// DuckDB's UNION [ALL] BY NAME: PostgreSQL's set operations carry no such flag, so BY NAME is
// blanked out and the right operand's select list starts with a marker column, which the
// transformer takes out again and turns into the flag of the set operation whose right input
// begins with it. The right operand must be a SELECT (possibly parenthesised).
void FindUnionByName(const std::string& sql, const std::vector<SqlToken>& tokens,
                     std::vector<Replacement>* out) {
  auto word = [&](size_t i, std::string_view lower) {
    return i < tokens.size() &&
           EqualsAsciiLower(
               std::string_view(sql).substr(tokens[i].start, tokens[i].end - tokens[i].start),
               lower);
  };
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    const int op = tokens[i].token;
    if (op != PG_QUERY__TOKEN__UNION && op != PG_QUERY__TOKEN__INTERSECT &&
        op != PG_QUERY__TOKEN__EXCEPT) {
      continue;
    }
    size_t by = i + 1;
    if (tokens[by].token == PG_QUERY__TOKEN__ALL || tokens[by].token == PG_QUERY__TOKEN__DISTINCT) {
      by++;
    }
    if (by + 1 >= tokens.size() || tokens[by].token != PG_QUERY__TOKEN__BY ||
        !word(by + 1, "name")) {
      continue;
    }
    if (op != PG_QUERY__TOKEN__UNION) {
      throw ParseError("BY NAME is only supported with UNION [ALL]\n{}",
                       FormatErrorPosition(sql, tokens[by].start));
    }
    size_t pos = by + 2;
    while (pos < tokens.size() && tokens[pos].token == '(')
      pos++;
    if (pos >= tokens.size() || tokens[pos].token != PG_QUERY__TOKEN__SELECT) {
      throw NotSupportedError(
          "UNION BY NAME needs a SELECT on its right (VALUES, FROM-first queries and WITH are not "
          "supported there)\n{}",
          FormatErrorPosition(sql, pos < tokens.size() ? tokens[pos].start : tokens[by].start));
    }
    // The marker follows SELECT [ALL | DISTINCT [ON (...)]].
    size_t last = pos;
    if (pos + 1 < tokens.size() && tokens[pos + 1].token == PG_QUERY__TOKEN__ALL) {
      last = pos + 1;
    } else if (pos + 1 < tokens.size() && tokens[pos + 1].token == PG_QUERY__TOKEN__DISTINCT) {
      last = pos + 1;
      if (last + 2 < tokens.size() && tokens[last + 1].token == PG_QUERY__TOKEN__ON &&
          tokens[last + 2].token == '(') {
        int depth = 0;
        for (size_t k = last + 2; k < tokens.size(); k++) {
          if (tokens[k].token == '(') depth++;
          if (tokens[k].token == ')' && --depth == 0) {
            last = k;
            break;
          }
        }
      }
    }
    out->push_back({tokens[by].start, tokens[by + 1].end, ""});
    out->push_back({tokens[last].start, tokens[last].end,
                    sql.substr(tokens[last].start, tokens[last].end - tokens[last].start) + " \"" +
                        kUnionByNameMarker + "\","});
    i = by + 1;
  }
}

// DuckDB's SELECT * EXCLUDE (a, b) and * REPLACE (expr AS a, ...), also after t.*: the clause
// becomes a marker call after the star, `*, "__shears_star_exclude__"(a, b)` and
// `*, "__shears_star_replace__"(expr, 'a', ...)`, which the transformer folds into the star.
void FindStarModifiers(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out) {
  for (size_t i = 1; i + 2 < tokens.size(); i++) {
    if (tokens[i].token != '*') continue;
    const int before = tokens[i - 1].token;
    if (before != PG_QUERY__TOKEN__SELECT && before != ',' && before != '.' &&
        before != PG_QUERY__TOKEN__DISTINCT && before != PG_QUERY__TOKEN__ALL) {
      continue;
    }
    size_t at = i + 1;
    // DuckDB's `* EXCEPT (...)` is its `* EXCLUDE (...)` (right after a star the set operation
    // cannot be meant: a FROM would come first).
    auto excludes = [&](size_t k) {
      return tokens[k].token == PG_QUERY__TOKEN__EXCLUDE ||
             tokens[k].token == PG_QUERY__TOKEN__EXCEPT;
    };
    // `* EXCLUDE name` / `* EXCLUDE t.name` without parentheses: as `* EXCLUDE (name)`.
    if (at + 1 < tokens.size() && excludes(at) && tokens[at + 1].token == PG_QUERY__TOKEN__IDENT) {
      size_t last = at + 1;
      while (last + 2 < tokens.size() && tokens[last + 1].token == '.' &&
             tokens[last + 2].token == PG_QUERY__TOKEN__IDENT) {
        last += 2;
      }
      out->push_back(
          {tokens[at].start, tokens[at].end, std::string(", \"") + kStarExcludeMarker + "\"("});
      out->push_back({tokens[last].end, tokens[last].end, ")"});
      at = last + 1;  // a REPLACE (...) may follow
    }
    while (at + 1 < tokens.size() &&
           (excludes(at) || tokens[at].token == PG_QUERY__TOKEN__REPLACE) &&
           tokens[at + 1].token == '(') {
      const bool replace = tokens[at].token == PG_QUERY__TOKEN__REPLACE;
      out->push_back(
          {tokens[at].start, tokens[at].end,
           std::string(", \"") + (replace ? kStarReplaceMarker : kStarExcludeMarker) + "\""});
      // To the closing parenthesis; in REPLACE, `AS name` at the top level becomes `, 'name'`.
      int depth = 0;
      size_t k = at + 1;
      for (; k < tokens.size(); k++) {
        if (tokens[k].token == '(') depth++;
        if (tokens[k].token == ')' && --depth == 0) break;
        if (replace && depth == 1 && tokens[k].token == PG_QUERY__TOKEN__AS &&
            k + 1 < tokens.size()) {
          const SqlToken& name = tokens[k + 1];
          std::string text = sql.substr(name.start, name.end - name.start);
          if (text.size() >= 2 && text.front() == '"') {
            text = text.substr(1, text.size() - 2);  // a quoted name keeps its case
          } else {
            text = Lower(text);
          }
          std::string quoted = "'";
          for (char c : text)
            quoted += c == '\'' ? std::string("''") : std::string(1, c);
          out->push_back({tokens[k].start, tokens[k].end, ","});
          out->push_back({name.start, name.end, quoted + "'"});
          k++;
        }
      }
      at = k + 1;
    }
  }
}

// SQLite's and DuckDB's INSERT OR REPLACE / INSERT OR IGNORE: "OR ..." is blanked out; the
// transformer reads it from the original tokens after INSERT. SQLite's REPLACE INTO at the start
// of a statement becomes INSERT INTO, read back as INSERT OR REPLACE the same way. DuckDB's BY
// NAME / BY POSITION after the table's name is blanked too and read back by the transformer.
void FindInsertOr(const std::string& sql, const std::vector<SqlToken>& tokens,
                  std::vector<Replacement>* out) {
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    bool by_name = false;
    if (const size_t by = InsertByToken(tokens, i, &by_name)) {
      out->push_back({tokens[by].start, tokens[by + 1].end, ""});  // BY NAME / BY POSITION
    }
    if ((i == 0 || tokens[i - 1].token == ';') && InsertOrAction(sql, tokens, i) == 'R' &&
        tokens[i].token == PG_QUERY__TOKEN__REPLACE) {
      out->push_back({tokens[i].start, tokens[i].end, "INSERT"});  // REPLACE INTO
      continue;
    }
    if (tokens[i].token != PG_QUERY__TOKEN__INSERT || tokens[i + 1].token != PG_QUERY__TOKEN__OR)
      continue;
    if (InsertOrAction(sql, tokens, i) != 0)
      out->push_back({tokens[i + 1].start, tokens[i + 2].end, ""});
  }
}

bool IsOperandToken(int token) {
  switch (token) {
    case PG_QUERY__TOKEN__IDENT:
    case PG_QUERY__TOKEN__UIDENT:
    case PG_QUERY__TOKEN__FCONST:
    case PG_QUERY__TOKEN__SCONST:
    case PG_QUERY__TOKEN__USCONST:
    case PG_QUERY__TOKEN__BCONST:
    case PG_QUERY__TOKEN__XCONST:
    case PG_QUERY__TOKEN__ICONST:
    case PG_QUERY__TOKEN__PARAM:
    case '.':
      return true;
    default:
      return false;
  }
}

// Tokens after which an expression starts afresh as a sibling, not a child, of what came before.
bool IsExpressionSeparator(int token) {
  switch (token) {
    case ',':
    case PG_QUERY__TOKEN__AND:
    case PG_QUERY__TOKEN__OR:
    case PG_QUERY__TOKEN__SELECT:
    case PG_QUERY__TOKEN__FROM:
    case PG_QUERY__TOKEN__WHERE:
    case PG_QUERY__TOKEN__GROUP_P:
    case PG_QUERY__TOKEN__HAVING:
    case PG_QUERY__TOKEN__ORDER:
    case PG_QUERY__TOKEN__LIMIT:
    case PG_QUERY__TOKEN__OFFSET:
    case PG_QUERY__TOKEN__WHEN:
    case PG_QUERY__TOKEN__THEN:
    case PG_QUERY__TOKEN__ELSE:
    case PG_QUERY__TOKEN__ON:
    case PG_QUERY__TOKEN__USING:
    case PG_QUERY__TOKEN__VALUES:
      return true;
    default:
      return false;
  }
}

// DuckDB's struct form of read_csv's column options, `columns = {'a': 'INTEGER', 'b':
// 'VARCHAR'}` (also types / column_types / dtypes), becomes the text form `columns = 'a INTEGER,
// b VARCHAR'`: PostgreSQL's grammar has no struct literals. Only after one of those option
// names, so no other `{` changes meaning; a name holding a blank or a comma stays as written
// (the text form could not say it).
void FindStructColumnOptions(const std::string& sql, const std::vector<SqlToken>& tokens,
                             std::vector<Replacement>* out) {
  auto text_of = [&](const SqlToken& t) { return sql.substr(t.start, t.end - t.start); };
  // The value of a string constant token ('it''s' -> it's); nullopt for E'' and the like.
  auto string_value = [&](const SqlToken& t) -> std::optional<std::string> {
    const std::string raw = text_of(t);
    if (t.token != PG_QUERY__TOKEN__SCONST || raw.size() < 2 || raw.front() != '\'') {
      return std::nullopt;
    }
    std::string value;
    for (size_t i = 1; i + 1 < raw.size(); i++) {
      value += raw[i];
      if (raw[i] == '\'' && raw[i + 1] == '\'') i++;
    }
    return value;
  };
  for (size_t i = 0; i + 2 < tokens.size(); i++) {
    // COLUMNS and TYPES are keywords to the scanner: compare the text.
    const std::string option = Lower(text_of(tokens[i]));
    if (option != "columns" && option != "types" && option != "column_types" &&
        option != "dtypes") {
      continue;
    }
    const int assign = tokens[i + 1].token;
    if ((assign != '=' && assign != PG_QUERY__TOKEN__COLON_EQUALS) || tokens[i + 2].token != '{') {
      continue;
    }
    std::string list;
    size_t pos = i + 3;
    bool ok = true;
    while (ok && pos + 2 < tokens.size()) {
      const auto name = string_value(tokens[pos]);
      const auto type = string_value(tokens[pos + 2]);
      ok = name && type && tokens[pos + 1].token == ':' && !name->empty() &&
           name->find_first_of(" ,") == std::string::npos;
      if (!ok) break;
      if (!list.empty()) list += ", ";
      list += *name + " " + *type;
      pos += 3;
      if (pos < tokens.size() && tokens[pos].token == ',') {
        pos++;
      } else {
        break;
      }
    }
    if (!ok || pos >= tokens.size() || tokens[pos].token != '}') continue;
    std::string quoted = "'";
    for (char c : list) {
      quoted += c;
      if (c == '\'') quoted += c;
    }
    quoted += '\'';
    out->push_back({tokens[i + 2].start, tokens[pos].end, quoted});
    i = pos;
  }
}

// Positional parameters `?` (DB-API's qmark style, as DuckDB and SQLite take them) become $1,
// $2, ... in each statement. A statement may use `?` or `$n`, not both: the numbering of one
// would not say which value the other means.
void FindQuestionMarks(const std::string& sql, const std::vector<SqlToken>& tokens,
                       std::vector<Replacement>* out) {
  int marks = 0;
  bool numbered = false;
  for (const SqlToken& t : tokens) {
    if (t.token == ';') {
      marks = 0;
      numbered = false;
      continue;
    }
    if (t.token == PG_QUERY__TOKEN__PARAM) numbered = true;
    if (t.token == PG_QUERY__TOKEN__Op && t.end - t.start == 1 && sql[t.start] == '?') {
      out->push_back({t.start, t.end, "$" + std::to_string(++marks)});
    }
    if (numbered && marks > 0) {
      throw ParseError("a statement uses both ? and $n parameters; use one style\n{}",
                       FormatErrorPosition(sql, t.start));
    }
  }
}

}  // namespace

int EstimateNestingDepth(const std::vector<SqlToken>& tokens) {
  // Per bracket level: depth where it starts, the run of operators since the last separator
  // (a + b + c nests left-deep), and the JOINs / set operations (they nest across
  // separators).
  struct Level {
    int base = 0;
    int chain = 0;
    int structure = 0;
  };
  constexpr int kBracketWeight = 3;  // a subquery costs several tree levels
  std::vector<Level> levels(1);
  int deepest = 0;
  for (const SqlToken& t : tokens) {
    Level& level = levels.back();
    switch (t.token) {
      case '(':
      case '[':
      case PG_QUERY__TOKEN__CASE:
        levels.push_back({level.base + level.chain + level.structure + kBracketWeight, 0, 0});
        break;
      case ')':
      case ']':
      case PG_QUERY__TOKEN__END_P:
        if (levels.size() > 1) levels.pop_back();
        break;
      case ';':
        levels.assign(1, Level{});
        break;
      case PG_QUERY__TOKEN__JOIN:
      case PG_QUERY__TOKEN__UNION:
      case PG_QUERY__TOKEN__INTERSECT:
      case PG_QUERY__TOKEN__EXCEPT:
        level.structure++;
        level.chain = 0;
        break;
      default:
        if (IsExpressionSeparator(t.token)) {
          level.chain = 0;
        } else if (!IsOperandToken(t.token)) {
          level.chain++;
        }
        break;
    }
    const Level& now = levels.back();
    deepest = std::max(deepest, now.base + now.chain + now.structure);
  }
  return deepest;
}

RewrittenSql RewriteSql(const std::string& sql) {
  RewrittenSql result;
  result.tokens = Scan(sql);
  std::vector<Replacement> replacements;
  FindTableRewrites(sql, result.tokens, &replacements);
  FindUnquotedIntervals(sql, result.tokens, &replacements);
  FindIntervalExpressions(sql, result.tokens, &replacements);
  FindTrailingCommas(result.tokens, &replacements);
  FindFromValues(result.tokens, &replacements);
  FindBareIntervalSums(sql, result.tokens, &replacements);
  FindTryCasts(sql, result.tokens, &replacements);
  FindFiltersWithoutWhere(result.tokens, &replacements);
  FindLambdaKeyword(sql, result.tokens, &replacements);
  FindQualify(sql, result.tokens, &replacements);
  FindSample(sql, result.tokens, &replacements);
  RejectLimitPercent(sql, result.tokens);
  FindQuestionMarks(sql, result.tokens, &replacements);
  FindEmptyInLists(result.tokens, &replacements);
  FindInsertOr(sql, result.tokens, &replacements);
  FindNullTreatment(sql, result.tokens, &replacements);
  FindStructColumnOptions(sql, result.tokens, &replacements);
  FindByAll(sql, result.tokens, &replacements);
  FindUnionByName(sql, result.tokens, &replacements);
  FindStarModifiers(sql, result.tokens, &replacements);
  FindNestedTypeNames(sql, result.tokens, &replacements);
  FindNestedLiterals(sql, result.tokens, &replacements);
  FindListLiterals(sql, result.tokens, &replacements);  // before FindFromFirst, which moves them
  FindFromFirst(sql, result.tokens, &replacements);
  FindGlob(sql, result.tokens, &replacements);
  FindPositionalJoin(sql, result.tokens, &replacements);
  FindDuckDbJoins(sql, result.tokens, &replacements);
  FindPivots(sql, result.tokens, &replacements);  // last: it drops edits inside its text
  if (replacements.empty()) {
    result.text = sql;
    return result;
  }
  // At one offset an insertion goes before a replacement of the text there (`]]` closing a
  // list literal inside a list comprehension: `)` is inserted, then `]` replaced; `[1]}`: the
  // list's `)` before the struct literal's `}` becomes `)`).
  std::stable_sort(
      replacements.begin(), replacements.end(), [](const Replacement& a, const Replacement& b) {
        return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin) > (b.end == b.begin);
      });
  int copied = 0;  // original bytes already copied
  for (const Replacement& r : replacements) {
    result.text.append(sql, copied, r.begin - copied);
    int new_begin = static_cast<int>(result.text.size());
    result.text += r.text;
    result.map.AddEdit(r.begin, r.end, new_begin, static_cast<int>(result.text.size()));
    copied = r.end;
  }
  result.text.append(sql, copied, std::string::npos);
  return result;
}

}  // namespace shears::parser_internal
