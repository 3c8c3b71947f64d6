// DuckDB's PIVOT and UNPIVOT (the statements `PIVOT t ON k USING sum(v) GROUP BY g`, `UNPIVOT t
// ON a, b INTO NAME k VALUE v`, and the SQL-standard forms in FROM, `t PIVOT (sum(v) FOR k IN
// (...))`, `t UNPIVOT (v FOR k IN (a, b))`). PostgreSQL's grammar has neither, and a PIVOT
// without IN needs the distinct values of its ON columns before it can be planned, so the
// rewrite only takes the clauses apart: the whole construct becomes the table function call
// "__shears_pivot__"('pivot' | 'unpivot', pieces as text...), which the binder
// (planner/bind_pivot.cpp) turns into an aggregate query (or a lateral VALUES) and binds.

#include <string>
#include <vector>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/parser.h"
#include "parser/sql_rewrite_internal.h"

namespace shears::parser_internal {

namespace {

class PivotScanner {
 public:
  PivotScanner(const std::string& sql, const std::vector<SqlToken>& tokens)
      : sql_(sql), tokens_(tokens) {}

  std::string Word(size_t i) const {
    if (i >= tokens_.size()) return "";
    return Lower(sql_.substr(tokens_[i].start, tokens_[i].end - tokens_[i].start));
  }
  int Token(size_t i) const { return i < tokens_.size() ? tokens_[i].token : 0; }
  /// The original text of tokens [from, to).
  std::string Text(size_t from, size_t to) const {
    if (from >= to) return "";
    return sql_.substr(tokens_[from].start, tokens_[to - 1].end - tokens_[from].start);
  }
  [[noreturn]] void Fail(size_t at, const std::string& what) const {
    const int offset = at < tokens_.size() ? tokens_[at].start : static_cast<int>(sql_.size());
    throw ParseError("{}\n{}", what, FormatErrorPosition(sql_, offset));
  }
  /// The index of the ')' closing the '(' at `open`.
  size_t Closing(size_t open) const {
    int depth = 0;
    for (size_t k = open; k < tokens_.size(); k++) {
      if (tokens_[k].token == '(') depth++;
      if (tokens_[k].token == ')' && --depth == 0) return k;
    }
    Fail(open, "unbalanced parentheses");
  }
  /// From `from`, the first token at parenthesis depth 0 for which `stop` holds, or where the
  /// enclosing parenthesis closes (or the end).
  template <typename Stop>
  size_t Until(size_t from, Stop stop) const {
    int depth = 0;
    size_t k = from;
    for (; k < tokens_.size(); k++) {
      const int t = tokens_[k].token;
      if (t == '(') depth++;
      if (t == ')') {
        if (depth == 0) break;
        depth--;
        continue;
      }
      if (depth == 0 && (t == ';' || stop(k))) break;
    }
    return k;
  }
  /// Splits [from, to) at the commas of depth 0.
  std::vector<std::pair<size_t, size_t>> Split(size_t from, size_t to) const {
    std::vector<std::pair<size_t, size_t>> parts;
    int depth = 0;
    size_t start = from;
    for (size_t k = from; k < to; k++) {
      if (tokens_[k].token == '(') depth++;
      if (tokens_[k].token == ')') depth--;
      if (depth == 0 && tokens_[k].token == ',') {
        parts.push_back({start, k});
        start = k + 1;
      }
    }
    if (start < to) parts.push_back({start, to});
    return parts;
  }
  /// [from, to) as (expression text, alias): `expr [AS] name`.
  std::pair<std::string, std::string> WithAlias(size_t from, size_t to) const {
    if (to >= from + 3 && Token(to - 2) == PG_QUERY__TOKEN__AS) {
      return {Text(from, to - 2), Name(to - 1)};
    }
    return {Text(from, to), ""};
  }
  /// An identifier's name: unquoted and lower-cased, or as quoted.
  std::string Name(size_t i) const {
    std::string text = sql_.substr(tokens_[i].start, tokens_[i].end - tokens_[i].start);
    if (text.size() >= 2 && text.front() == '"') {
      std::string name;
      for (size_t k = 1; k + 1 < text.size(); k++) {
        name += text[k];
        if (text[k] == '"' && text[k + 1] == '"') k++;
      }
      return name;
    }
    return Lower(text);
  }
  /// The column names written in [from, to): identifiers that are neither function names nor
  /// qualifiers (what the simplified PIVOT leaves out of its groups).
  std::vector<std::string> ColumnNames(size_t from, size_t to) const {
    std::vector<std::string> names;
    for (size_t k = from; k < to; k++) {
      if (!IsColumnNameToken(tokens_[k])) continue;
      // Not function names, qualifiers or the aliases of aggregates (sum(v) AS total).
      if (Token(k + 1) == '(' || Token(k + 1) == '.') continue;
      if (k > from && Token(k - 1) == PG_QUERY__TOKEN__AS) continue;
      const std::string name = Name(k);
      bool seen = false;
      for (const auto& n : names)
        seen = seen || n == name;
      if (!seen) names.push_back(name);
    }
    return names;
  }
  size_t size() const { return tokens_.size(); }
  const SqlToken& operator[](size_t i) const { return tokens_[i]; }

 private:
  const std::string& sql_;
  const std::vector<SqlToken>& tokens_;
};

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c;
    if (c == '\'') quoted += c;
  }
  return quoted + "'";
}

std::string QuoteName(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += c;
  }
  return quoted + "\"";
}

/// The marker call's arguments for one ON item `expr [IN (v [AS name], ...)]` in [from, to).
void AddOnItem(const PivotScanner& s, size_t from, size_t to, std::vector<std::string>& args) {
  const size_t in = s.Until(from, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__IN_P; });
  if (in >= to) {
    args.push_back(Quote(s.Text(from, to)));
    args.push_back("'-1'");  // the values are the column's distinct values
    return;
  }
  if (in == from) s.Fail(in, "PIVOT: expected an expression before IN");
  if (s.Token(in + 1) != '(') s.Fail(in + 1, "PIVOT: expected '(' after IN");
  const size_t close = s.Closing(in + 1);
  if (close + 1 != to) s.Fail(close + 1, "PIVOT: unexpected text after the IN list");
  args.push_back(Quote(s.Text(from, in)));
  const auto values = s.Split(in + 2, close);
  if (values.empty()) s.Fail(close, "PIVOT: the IN list is empty");
  args.push_back(Quote(std::to_string(values.size())));
  for (const auto& [b, e] : values) {
    const auto [value, alias] = s.WithAlias(b, e);
    args.push_back(Quote(value));
    args.push_back(Quote(alias));
  }
}

void AddAggregates(const PivotScanner& s, size_t from, size_t to, std::vector<std::string>& args) {
  const auto aggregates = s.Split(from, to);
  if (aggregates.empty()) {  // no USING: count(*) per value
    args.push_back("'1'");
    args.push_back("'count(*)'");
    args.push_back("''");
    return;
  }
  args.push_back(Quote(std::to_string(aggregates.size())));
  for (const auto& [b, e] : aggregates) {
    const auto [aggregate, alias] = s.WithAlias(b, e);
    args.push_back(Quote(aggregate));
    args.push_back(Quote(alias));
  }
}

std::string Marker(const std::vector<std::string>& args) {
  std::string call = "\"__shears_pivot__\"(";
  for (size_t i = 0; i < args.size(); i++)
    call += (i ? ", " : "") + args[i];
  return call + ")";
}

bool EndsPivotStatement(const PivotScanner& s, size_t k) {
  const int t = s.Token(k);
  return t == PG_QUERY__TOKEN__ORDER || t == PG_QUERY__TOKEN__LIMIT ||
         t == PG_QUERY__TOKEN__OFFSET || t == PG_QUERY__TOKEN__UNION ||
         t == PG_QUERY__TOKEN__INTERSECT || t == PG_QUERY__TOKEN__EXCEPT;
}

/// Whether tokens[at] follows a WITH clause (`WITH c AS (...) PIVOT c ...`): the ')' before it
/// closes a parenthesis opened after AS or MATERIALIZED.
bool AfterCte(const PivotScanner& s, size_t at) {
  if (at == 0 || s.Token(at - 1) != ')') return false;
  int depth = 0;
  for (size_t k = at; k-- > 0;) {
    if (s.Token(k) == ')') depth++;
    if (s.Token(k) == '(' && --depth == 0) {
      return k > 0 && (s.Token(k - 1) == PG_QUERY__TOKEN__AS ||
                       s.Token(k - 1) == PG_QUERY__TOKEN__MATERIALIZED);
    }
  }
  return false;
}

/// PIVOT source ON items [USING aggregates] [GROUP BY groups]: returns the token after it.
size_t RewritePivotStatement(const PivotScanner& s, size_t at, std::vector<Replacement>* out) {
  const size_t on = s.Until(at + 1, [&](size_t k) {
    return s.Token(k) == PG_QUERY__TOKEN__ON || EndsPivotStatement(s, k);
  });
  if (s.Token(on) != PG_QUERY__TOKEN__ON) s.Fail(on, "PIVOT: expected ON after the table");
  if (on == at + 1) s.Fail(on, "PIVOT: expected a table before ON");
  const size_t on_end = s.Until(on + 1, [&](size_t k) {
    return s.Token(k) == PG_QUERY__TOKEN__USING || s.Token(k) == PG_QUERY__TOKEN__GROUP_P ||
           EndsPivotStatement(s, k);
  });
  size_t using_end = on_end;
  size_t aggregates_from = on_end;
  if (s.Token(on_end) == PG_QUERY__TOKEN__USING) {
    aggregates_from = on_end + 1;
    using_end = s.Until(on_end + 1, [&](size_t k) {
      return s.Token(k) == PG_QUERY__TOKEN__GROUP_P || EndsPivotStatement(s, k);
    });
    if (using_end == aggregates_from) s.Fail(using_end, "PIVOT: expected aggregates after USING");
  }
  size_t end = using_end;
  std::string groups;
  if (s.Token(using_end) == PG_QUERY__TOKEN__GROUP_P) {
    if (s.Token(using_end + 1) != PG_QUERY__TOKEN__BY) s.Fail(using_end + 1, "expected BY");
    end = s.Until(using_end + 2, [&](size_t k) { return EndsPivotStatement(s, k); });
    groups = s.Text(using_end + 2, end);
    if (groups.empty()) s.Fail(end, "PIVOT: expected columns after GROUP BY");
  }
  const auto items = s.Split(on + 1, on_end);
  if (items.empty()) s.Fail(on_end, "PIVOT: expected a column after ON");
  // After WITH: the distinct values of the ON expressions are read with the CTEs in sight.
  std::string with;
  if (AfterCte(s, at)) {
    size_t start = at;
    while (start > 0 && s.Token(start - 1) != ';')
      start--;
    with = s.Text(start, at);
  }
  std::vector<std::string> args = {"'pivot'", Quote(with), Quote(s.Text(at + 1, on)),
                                   Quote(groups)};
  // Without GROUP BY the groups are the other columns: those the ON items and the aggregates
  // name are left out.
  std::string excluded;
  for (const auto& name : s.ColumnNames(on + 1, using_end))
    excluded += (excluded.empty() ? "" : ", ") + QuoteName(name);
  args.push_back(Quote(excluded));
  args.push_back(Quote(std::to_string(items.size())));
  for (const auto& [b, e] : items)
    AddOnItem(s, b, e, args);
  AddAggregates(s, aggregates_from, on_end == using_end ? on_end : using_end, args);
  out->push_back({s[at].start, s[end - 1].end, "SELECT * FROM " + Marker(args)});
  return end;
}

/// UNPIVOT [INCLUDE NULLS] source ON columns [INTO NAME n VALUE v].
size_t RewriteUnpivotStatement(const PivotScanner& s, size_t at, std::vector<Replacement>* out) {
  size_t pos = at + 1;
  bool include_nulls = false;
  if ((s.Word(pos) == "include" || s.Word(pos) == "exclude") && s.Word(pos + 1) == "nulls") {
    include_nulls = s.Word(pos) == "include";
    pos += 2;
  }
  const size_t on = s.Until(
      pos, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__ON || EndsPivotStatement(s, k); });
  if (s.Token(on) != PG_QUERY__TOKEN__ON) s.Fail(on, "UNPIVOT: expected ON after the table");
  if (on == pos) s.Fail(on, "UNPIVOT: expected a table before ON");
  const size_t on_end = s.Until(on + 1, [&](size_t k) {
    return s.Token(k) == PG_QUERY__TOKEN__INTO || EndsPivotStatement(s, k);
  });
  if (on_end == on + 1) s.Fail(on_end, "UNPIVOT: expected columns after ON");
  std::string name = "name", value = "value";
  size_t end = on_end;
  if (s.Token(on_end) == PG_QUERY__TOKEN__INTO) {
    if (s.Word(on_end + 1) != "name") s.Fail(on_end + 1, "UNPIVOT: expected NAME after INTO");
    if (s.Token(on_end + 2) != PG_QUERY__TOKEN__IDENT && s.Token(on_end + 2) == 0) {
      s.Fail(on_end + 2, "UNPIVOT: expected a column name after NAME");
    }
    name = s.Name(on_end + 2);
    if (s.Word(on_end + 3) != "value") s.Fail(on_end + 3, "UNPIVOT: expected VALUE after NAME");
    if (s.Token(on_end + 4) == 0) s.Fail(on_end + 4, "UNPIVOT: expected a column name");
    value = s.Name(on_end + 4);
    end = on_end + 5;
    if (s.Token(end) == ',') {
      s.Fail(end, "UNPIVOT into several value columns is not supported yet");
    }
  }
  const std::vector<std::string> args = {"'unpivot'",
                                         Quote(s.Text(pos, on)),
                                         include_nulls ? "'1'" : "'0'",
                                         Quote(s.Text(on + 1, on_end)),
                                         Quote(name),
                                         Quote(value)};
  out->push_back({s[at].start, s[end - 1].end, "SELECT * FROM " + Marker(args)});
  return end;
}

/// The first token of the table reference that ends just before `at` (after FROM, JOIN or a
/// comma of the same level).
size_t SourceStart(const PivotScanner& s, size_t at) {
  int depth = 0;
  size_t k = at;
  while (k > 0) {
    const int t = s.Token(k - 1);
    if (t == ')') depth++;
    if (t == '(') {
      if (depth == 0) break;
      depth--;
    }
    if (depth == 0 && (t == PG_QUERY__TOKEN__FROM || t == PG_QUERY__TOKEN__JOIN || t == ',')) {
      break;
    }
    k--;
  }
  if (k == at) s.Fail(at, "PIVOT / UNPIVOT needs a table before it");
  return k;
}

/// source PIVOT (aggregates FOR expr IN (...) [expr IN (...)] [GROUP BY groups]) and
/// source UNPIVOT [INCLUDE NULLS] (value FOR name IN (columns)).
void RewriteFromForm(const PivotScanner& s, size_t at, size_t open, bool pivot, bool include_nulls,
                     std::vector<Replacement>* out) {
  const size_t source = SourceStart(s, at);
  const size_t close = s.Closing(open);
  const size_t for_at =
      s.Until(open + 1, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__FOR; });
  const char* what = pivot ? "PIVOT" : "UNPIVOT";
  if (for_at >= close) s.Fail(close, fmt::format("{}: expected FOR", what));
  std::vector<std::string> args;
  if (pivot) {
    const size_t group =
        s.Until(for_at + 1, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__GROUP_P; });
    std::string groups;
    if (group < close) {
      if (s.Token(group + 1) != PG_QUERY__TOKEN__BY) s.Fail(group + 1, "expected BY");
      groups = s.Text(group + 2, close);
      if (groups.empty()) s.Fail(close, "PIVOT: expected columns after GROUP BY");
    }
    const size_t items_end = std::min(group, close);
    // FOR a IN (...) b IN (...): each item ends with its IN list.
    std::vector<std::pair<size_t, size_t>> items;
    size_t begin = for_at + 1;
    while (begin < items_end) {
      const size_t in =
          s.Until(begin, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__IN_P; });
      if (in >= items_end || s.Token(in + 1) != '(') {
        s.Fail(in, "PIVOT: expected IN (values) after the FOR expression");
      }
      const size_t end = s.Closing(in + 1) + 1;
      items.push_back({begin, end});
      begin = end;
    }
    if (items.empty()) s.Fail(items_end, "PIVOT: expected an expression after FOR");
    args = {"'pivot'", "''", Quote(s.Text(source, at)), Quote(groups)};
    std::string excluded;
    for (const auto& name : s.ColumnNames(open + 1, items_end))
      excluded += (excluded.empty() ? "" : ", ") + QuoteName(name);
    args.push_back(Quote(excluded));
    args.push_back(Quote(std::to_string(items.size())));
    for (const auto& [b, e] : items)
      AddOnItem(s, b, e, args);
    if (for_at == open + 1) s.Fail(for_at, "PIVOT: expected aggregates before FOR");
    AddAggregates(s, open + 1, for_at, args);
  } else {
    if (for_at != open + 2) s.Fail(open + 1, "UNPIVOT: expected (value FOR name IN (columns))");
    const size_t in = for_at + 2;
    if (s.Token(in) != PG_QUERY__TOKEN__IN_P || s.Token(in + 1) != '(') {
      s.Fail(in, "UNPIVOT: expected IN (columns) after the name column");
    }
    const size_t list_close = s.Closing(in + 1);
    if (list_close + 1 != close) s.Fail(list_close + 1, "UNPIVOT: expected ')'");
    args = {"'unpivot'",
            Quote(s.Text(source, at)),
            include_nulls ? "'1'" : "'0'",
            Quote(s.Text(in + 2, list_close)),
            Quote(s.Name(for_at + 1)),
            Quote(s.Name(open + 1))};
  }
  out->push_back({s[source].start, s[close].end, Marker(args)});
}

/// Whether the statement holding tokens[at] starts with CREATE (CREATE VIEW v AS PIVOT ...).
bool InCreate(const PivotScanner& s, size_t at) {
  size_t start = at;
  while (start > 0 && s.Token(start - 1) != ';')
    start--;
  return s.Token(start) == PG_QUERY__TOKEN__CREATE;
}

}  // namespace

void FindPivots(const std::string& sql, const std::vector<SqlToken>& tokens,
                std::vector<Replacement>* out) {
  PivotScanner s(sql, tokens);
  std::vector<Replacement> pivots;
  for (size_t i = 0; i < s.size(); i++) {
    if (s.Token(i) != PG_QUERY__TOKEN__IDENT) continue;
    const std::string word = s.Word(i);
    const bool pivot = word == "pivot" || word == "pivot_wider";
    const bool unpivot = word == "unpivot" || word == "pivot_longer";
    if (!pivot && !unpivot) continue;
    const int prev = i > 0 ? s.Token(i - 1) : 0;
    // A statement (PIVOT is no statement of PostgreSQL's), after WITH, after CREATE ... AS, or
    // a parenthesised query: in the last two only with an ON (`SELECT a AS pivot`, `(pivot)`).
    const bool statement = prev == 0 || prev == ';' || AfterCte(s, i);
    if (statement || prev == '(' || (prev == PG_QUERY__TOKEN__AS && InCreate(s, i))) {
      if (s.Token(i + 1) == 0) continue;
      const size_t on = s.Until(i + 1, [&](size_t k) { return s.Token(k) == PG_QUERY__TOKEN__ON; });
      if (!statement && s.Token(on) != PG_QUERY__TOKEN__ON) continue;
      i = pivot ? RewritePivotStatement(s, i, &pivots) : RewriteUnpivotStatement(s, i, &pivots);
      i--;
    } else if (prev == PG_QUERY__TOKEN__IDENT || prev == ')' || prev == PG_QUERY__TOKEN__SCONST) {
      size_t open = i + 1;
      bool include_nulls = false;
      if (unpivot && (s.Word(open) == "include" || s.Word(open) == "exclude") &&
          s.Word(open + 1) == "nulls") {
        include_nulls = s.Word(open) == "include";
        open += 2;
      }
      if (s.Token(open) != '(') continue;
      RewriteFromForm(s, i, open, pivot, include_nulls, &pivots);
      i = s.Closing(open);
    }
  }
  if (pivots.empty()) return;
  // Edits of other rewrites inside a pivot's text are dropped: the binder parses the pieces
  // again, and those rewrites apply then.
  std::vector<Replacement> kept;
  for (auto& r : *out) {
    bool inside = false;
    for (const auto& p : pivots)
      inside = inside || (r.begin >= p.begin && r.end <= p.end && !(r.begin == p.end));
    if (!inside) kept.push_back(std::move(r));
  }
  for (auto& p : pivots)
    kept.push_back(std::move(p));
  *out = std::move(kept);
}

}  // namespace shears::parser_internal
