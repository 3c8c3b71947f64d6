// SQL text -> shears AST: libpg_query parses (PostgreSQL 15's grammar) into protobuf-c structs,
// the Transformer turns them into AST nodes. This file holds the driver, error positions and
// the non-query statements; queries and expressions live in transform_*.cpp.

#include "parser/parser.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/string_util.h"
#include "common/utf8.h"
#include "parser/transformer.h"

namespace shears {

using parser_internal::RewrittenSql;
using parser_internal::SqlToken;
using parser_internal::Transformer;

namespace {

/// Deepest message nesting accepted in a parse tree. protobuf-c unpacks recursively (~0.7 KB
/// of stack per level) and so does everything after the parser; 3000 levels allow about 1000
/// nested expressions such as 1+(1+(1+...)).
constexpr size_t kMaxTreeDepth = 3000;
/// Limit of EstimateNestingDepth, checked before libpg_query builds the tree: its own
/// serialization recurses too (~0.2 KB of stack per level).
constexpr int kMaxEstimatedDepth = 6000;

constexpr const char* kTooDeep =
    "the query is nested too deeply (expressions or subqueries nested about 1000 levels or "
    "more)";

std::string WithPosition(const std::string& message, const std::string& sql, int offset) {
  if (offset < 0) return message;
  return message + "\n" + FormatErrorPosition(sql, offset);
}

bool ReadVarint(const uint8_t* data, size_t end, size_t* pos, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && *pos < end; shift += 7) {
    uint8_t b = data[(*pos)++];
    *value |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

/// Whether the serialized parse result nests messages at most `limit` deep, walked with an
/// explicit stack: unpacking a deeper tree would overflow the thread's stack. Malformed input
/// answers true and is left to the unpacker to reject.
bool TreeDepthWithin(const uint8_t* data, size_t size, size_t limit) {
  struct Frame {
    const ProtobufCMessageDescriptor* descriptor;
    size_t end;
  };
  std::vector<Frame> stack{{&pg_query__parse_result__descriptor, size}};
  size_t pos = 0;
  while (!stack.empty()) {
    const Frame& frame = stack.back();
    if (pos >= frame.end) {
      stack.pop_back();
      continue;
    }
    uint64_t key, value;
    if (!ReadVarint(data, frame.end, &pos, &key)) return true;
    switch (key & 7) {
      case 0:
        if (!ReadVarint(data, frame.end, &pos, &value)) return true;
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        if (!ReadVarint(data, frame.end, &pos, &value) || value > frame.end - pos) return true;
        size_t end = pos + value;
        const ProtobufCFieldDescriptor* field = protobuf_c_message_descriptor_get_field(
            frame.descriptor, static_cast<unsigned>(key >> 3));
        if (field != nullptr && field->type == PROTOBUF_C_TYPE_MESSAGE) {
          if (stack.size() >= limit) return false;
          stack.push_back({static_cast<const ProtobufCMessageDescriptor*>(field->descriptor), end});
        } else {
          pos = end;
        }
        break;
      }
      default:
        return true;
    }
  }
  return true;
}

void CheckInputBytes(const std::string& sql) {
  size_t nul = sql.find('\0');
  if (nul != std::string::npos) {
    throw ParseError(WithPosition("query text contains a NUL byte", sql, static_cast<int>(nul)));
  }
  if (IsValidUtf8(sql.data(), sql.size())) return;
  for (size_t i = 0; i < sql.size();) {
    auto b = static_cast<unsigned char>(sql[i]);
    size_t len = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : 4;
    len = std::min(len, sql.size() - i);
    if (!IsValidUtf8(sql.data() + i, len)) {
      throw ParseError(WithPosition("query text is not valid UTF-8", sql, static_cast<int>(i)));
    }
    i += len;
  }
}

struct ParseResultDeleter {
  void operator()(PgQuery__ParseResult* r) const {
    pg_query__parse_result__free_unpacked(r, nullptr);
  }
};

/// Index range [first, last) of the tokens inside the original byte range [begin, end).
std::pair<size_t, size_t> TokensIn(const std::vector<SqlToken>& tokens, int begin, int end) {
  auto first = std::lower_bound(tokens.begin(), tokens.end(), begin,
                                [](const SqlToken& t, int v) { return t.start < v; });
  auto last = first;
  while (last != tokens.end() && last->end <= end)
    ++last;
  return {static_cast<size_t>(first - tokens.begin()), static_cast<size_t>(last - tokens.begin())};
}

bool IsBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/// Narrows [begin, end) to the statement's first and last token (no blanks, comments or `;`).
void TrimStatementRange(const RewrittenSql& rewritten, const std::string& sql, int* begin,
                        int* end) {
  auto [first, last] = TokensIn(rewritten.tokens, *begin, *end);
  while (last > first && rewritten.tokens[last - 1].token == ';')
    last--;
  if (first < last) {
    *begin = rewritten.tokens[first].start;
    *end = rewritten.tokens[last - 1].end;
    return;
  }
  while (*begin < *end && IsBlank(sql[*begin]))
    ++*begin;
  while (*end > *begin && IsBlank(sql[*end - 1]))
    --*end;
}

}  // namespace

std::string FormatErrorPosition(const std::string& sql, int offset) {
  if (offset < 0) return "";
  size_t pos = std::min(static_cast<size_t>(offset), sql.size());
  // "at end of input" points past trailing blank lines; show the last text instead.
  if (pos == sql.size()) {
    while (pos > 0 && IsBlank(sql[pos - 1]))
      pos--;
  }
  size_t line_start = pos == 0 ? 0 : sql.rfind('\n', pos - 1);
  line_start = line_start == std::string::npos || pos == 0 ? 0 : line_start + 1;
  size_t line_end = sql.find('\n', pos);
  if (line_end == std::string::npos) line_end = sql.size();
  if (line_end > line_start && sql[line_end - 1] == '\r' && pos < line_end) line_end--;
  size_t line_no = 1 + std::count(sql.begin(), sql.begin() + line_start, '\n');

  // Long lines (generated queries) are cut to a window around the position.
  constexpr size_t kMaxShown = 120;
  auto is_continuation = [&](size_t i) {
    return i < sql.size() && (static_cast<unsigned char>(sql[i]) & 0xC0) == 0x80;
  };
  size_t shown_begin = line_start, shown_end = line_end;
  std::string prefix, suffix;
  if (line_end - line_start > kMaxShown) {
    if (pos > line_start + kMaxShown / 2) {
      shown_begin = pos - kMaxShown / 2;
      while (shown_begin < pos && is_continuation(shown_begin))
        shown_begin++;
      prefix = "...";
    }
    if (line_end > shown_begin + kMaxShown) {
      shown_end = std::max(shown_begin + kMaxShown, pos);
      while (shown_end > pos && is_continuation(shown_end))
        shown_end--;
      suffix = "...";
    }
  }

  std::string header = fmt::format("LINE {}: ", line_no);
  std::string result = header + prefix + sql.substr(shown_begin, shown_end - shown_begin) + suffix +
                       "\n" + std::string(header.size() + prefix.size(), ' ');
  // One blank per character (tabs kept so the caret lines up in a terminal).
  for (size_t i = shown_begin; i < pos; i++) {
    if (sql[i] == '\t') {
      result += '\t';
    } else if (!is_continuation(i)) {
      result += ' ';
    }
  }
  result += '^';
  return result;
}

std::vector<ast::StatementPtr> Parser::Parse(const std::string& sql) {
  CheckInputBytes(sql);
  RewrittenSql rewritten = parser_internal::RewriteSql(sql);
  // Catalog statements in Hive syntax are parsed here; libpg_query gets the text with them
  // blanked out (same length, so every offset stays the user's).
  std::vector<std::pair<int, ast::StatementPtr>> catalog_statements;
  {
    const auto& tokens = rewritten.tokens;
    std::string blanked;
    for (size_t first = 0; first < tokens.size();) {
      size_t last = first;
      while (last < tokens.size() && tokens[last].token != ';')
        last++;
      if (last > first && parser_internal::IsCatalogStatement(sql, tokens, first, last)) {
        auto statement = parser_internal::ParseCatalogStatement(sql, tokens, first, last);
        catalog_statements.emplace_back(statement->location, std::move(statement));
        if (blanked.empty()) blanked = sql;
        for (int i = tokens[first].start; i < tokens[last - 1].end; i++) {
          if (blanked[i] != '\n') blanked[i] = ' ';
        }
      }
      first = last + 1;
    }
    if (!catalog_statements.empty()) rewritten = parser_internal::RewriteSql(blanked);
  }
  if (parser_internal::EstimateNestingDepth(rewritten.tokens) > kMaxEstimatedDepth) {
    throw ParseError(kTooDeep);
  }

  PgQueryProtobufParseResult result = pg_query_parse_protobuf(rewritten.text.c_str());
  std::unique_ptr<PgQueryProtobufParseResult, void (*)(PgQueryProtobufParseResult*)> guard(
      &result, [](PgQueryProtobufParseResult* r) { pg_query_free_protobuf_parse_result(*r); });
  if (result.error != nullptr) {
    int offset = -1;
    if (result.error->cursorpos > 0) {
      offset = rewritten.map.ToOriginal(
          parser_internal::CharPositionToByteOffset(rewritten.text, result.error->cursorpos));
    }
    throw ParseError(WithPosition(result.error->message, sql, offset));
  }

  const auto* data = reinterpret_cast<const uint8_t*>(result.parse_tree.data);
  if (!TreeDepthWithin(data, result.parse_tree.len, kMaxTreeDepth)) {
    throw ParseError(kTooDeep);
  }
  std::unique_ptr<PgQuery__ParseResult, ParseResultDeleter> tree(
      pg_query__parse_result__unpack(nullptr, result.parse_tree.len, data));
  if (!tree) throw InternalError("could not unpack libpg_query's parse tree");

  Transformer transformer(sql, rewritten);
  std::vector<ast::StatementPtr> statements;
  for (size_t i = 0; i < tree->n_stmts; i++) {
    const PgQuery__RawStmt* raw = tree->stmts[i];
    if (raw == nullptr || Transformer::IsNull(raw->stmt)) continue;
    int rewritten_end = raw->stmt_len > 0 ? raw->stmt_location + raw->stmt_len
                                          : static_cast<int>(rewritten.text.size());
    int begin = rewritten.map.ToOriginal(raw->stmt_location);
    int end = rewritten.map.ToOriginal(rewritten_end);
    TrimStatementRange(rewritten, sql, &begin, &end);
    statements.push_back(transformer.TransformStatement(raw->stmt, begin, end));
    statements.back()->parameter_count = transformer.TakeParameterCount();
  }
  if (!catalog_statements.empty()) {
    for (auto& [location, statement] : catalog_statements)
      statements.push_back(std::move(statement));
    std::stable_sort(statements.begin(), statements.end(),
                     [](const ast::StatementPtr& a, const ast::StatementPtr& b) {
                       return a->location < b->location;
                     });
  }
  return statements;
}

namespace parser_internal {

void Transformer::ThrowNotSupported(const std::string& message, int rewritten_location) const {
  throw NotSupportedError(WithPosition(message, original_, Loc(rewritten_location)));
}

void Transformer::ThrowParseError(const std::string& message, int rewritten_location) const {
  throw ParseError(WithPosition(message, original_, Loc(rewritten_location)));
}

void Transformer::ThrowNotSupportedAt(const std::string& message, int original_offset) const {
  throw NotSupportedError(WithPosition(message, original_, original_offset));
}

namespace {
const ProtobufCMessage* NodeMessage(const PgQuery__Node* node) {
  if (Transformer::IsNull(node)) return nullptr;
  const ProtobufCFieldDescriptor* field =
      protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node->node_case);
  if (field == nullptr) return nullptr;
  return *reinterpret_cast<const ProtobufCMessage* const*>(reinterpret_cast<const char*>(node) +
                                                           field->offset);
}
}  // namespace

int Transformer::NodeLocation(const PgQuery__Node* node) {
  const ProtobufCMessage* message = NodeMessage(node);
  if (message == nullptr) return -1;
  const ProtobufCFieldDescriptor* field =
      protobuf_c_message_descriptor_get_field_by_name(message->descriptor, "location");
  if (field == nullptr || field->type != PROTOBUF_C_TYPE_INT32) return -1;
  return *reinterpret_cast<const int32_t*>(reinterpret_cast<const char*>(message) + field->offset);
}

std::string Transformer::NodeTypeName(const PgQuery__Node* node) {
  const ProtobufCMessage* message = NodeMessage(node);
  return message != nullptr ? message->descriptor->short_name : "empty node";
}

int Transformer::FindTokenBefore(int token, int original_offset) const {
  const auto& tokens = rewritten_.tokens;
  auto it = std::lower_bound(tokens.begin(), tokens.end(), original_offset,
                             [](const SqlToken& t, int v) { return t.start < v; });
  while (it != tokens.begin()) {
    --it;
    if (it->token == token) return it->start;
  }
  return -1;
}

bool Transformer::CallIgnoresNulls(int original_offset) const {
  const auto& tokens = rewritten_.tokens;
  auto it = std::lower_bound(tokens.begin(), tokens.end(), original_offset,
                             [](const SqlToken& t, int v) { return t.start < v; });
  // The call's opening parenthesis, then its matching close.
  while (it != tokens.end() && it->token != '(')
    ++it;
  int depth = 0;
  for (; it != tokens.end(); ++it) {
    if (it->token == '(') depth++;
    if (it->token == ')' && --depth == 0) break;
  }
  if (it == tokens.end() || it - tokens.begin() < 2) return false;
  const SqlToken& word = *(it - 2);
  if ((it - 1)->token != PG_QUERY__TOKEN__NULLS_P || word.token != PG_QUERY__TOKEN__IDENT) {
    return false;
  }
  return EqualsAsciiLower(std::string_view(original_).substr(word.start, word.end - word.start),
                          "ignore");
}

bool Transformer::WrappedNextTo(size_t op_token, bool after, int inner_op) const {
  const auto& tokens = rewritten_.tokens;
  if (after) {
    if (op_token + 1 >= tokens.size() || tokens[op_token + 1].token != '(') return false;
    int depth = 0;
    for (size_t i = op_token + 1; i < tokens.size(); i++) {
      if (tokens[i].token == '(') depth++;
      if (tokens[i].token == ')' && --depth == 0) return tokens[i].start > inner_op;
    }
    return false;
  }
  if (op_token == 0 || tokens[op_token - 1].token != ')') return false;
  int depth = 0;
  for (size_t i = op_token; i-- > 0;) {
    if (tokens[i].token == ')') depth++;
    if (tokens[i].token == '(' && --depth == 0) return tokens[i].start < inner_op;
  }
  return false;
}

namespace {

// DuckDB's binding strength of the arithmetic operators; 0: not one.
int ArithmeticPrecedence(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::kOperator) return 0;
  const auto& op = static_cast<const ast::OperatorExpr&>(e);
  if (op.children.size() != 2) return 0;
  if (op.op == "+" || op.op == "-") return 1;
  if (op.op == "*" || op.op == "/" || op.op == "%" || op.op == "//") return 2;
  return 0;
}

// Operands and operators of an arithmetic chain in text order: ops[i] stands between
// operands[i] and operands[i + 1] (the operator nodes have no children here).
struct ArithmeticChain {
  std::vector<ast::ExprPtr> operands;
  std::vector<std::unique_ptr<ast::OperatorExpr>> ops;
};

// Rebuilds `chain` from operand `next` on, binding operators of at least `min` (left first).
ast::ExprPtr Climb(ArithmeticChain& chain, size_t& next, int min) {
  ast::ExprPtr left = std::move(chain.operands[next]);
  while (next < chain.ops.size() && ArithmeticPrecedence(*chain.ops[next]) >= min) {
    std::unique_ptr<ast::OperatorExpr> op = std::move(chain.ops[next]);
    const int precedence = ArithmeticPrecedence(*op);
    next++;
    ast::ExprPtr right = Climb(chain, next, precedence + 1);
    op->children.clear();
    op->children.push_back(std::move(left));
    op->children.push_back(std::move(right));
    left = std::move(op);
  }
  return left;
}

}  // namespace

ast::ExprPtr Transformer::BindIntegerDivisionLikeDuckDB(
    std::unique_ptr<ast::OperatorExpr> div) const {
  const auto& tokens = rewritten_.tokens;
  auto token_of = [&](int offset) -> std::optional<size_t> {
    auto it = std::lower_bound(tokens.begin(), tokens.end(), offset,
                               [](const SqlToken& t, int v) { return t.start < v; });
    if (it == tokens.end() || it->start != offset) return std::nullopt;
    return static_cast<size_t>(it - tokens.begin());
  };
  // The chain below `//` in text order: operands are whatever is not a bare arithmetic
  // operation (parenthesized ones stay whole). Every rebuild keeps the text order, so an inner
  // `//` already rebuilt is flattened again alike.
  ArithmeticChain chain;
  std::function<void(ast::ExprPtr)> flatten = [&](ast::ExprPtr expr) {
    const auto token = token_of(expr->location);
    if (!token) {
      chain.operands.push_back(std::move(expr));
      return;
    }
    std::unique_ptr<ast::OperatorExpr> op(static_cast<ast::OperatorExpr*>(expr.release()));
    ast::ExprPtr left = std::move(op->children[0]);
    ast::ExprPtr right = std::move(op->children[1]);
    if (ArithmeticPrecedence(*left) && !WrappedNextTo(*token, false, left->location)) {
      flatten(std::move(left));
    } else {
      chain.operands.push_back(std::move(left));
    }
    chain.ops.push_back(std::move(op));
    if (ArithmeticPrecedence(*right) && !WrappedNextTo(*token, true, right->location)) {
      flatten(std::move(right));
    } else {
      chain.operands.push_back(std::move(right));
    }
  };
  if (!ArithmeticPrecedence(*div) || !token_of(div->location)) return div;
  flatten(std::move(div));
  size_t next = 0;
  return Climb(chain, next, 1);
}

std::vector<std::string> Transformer::StringList(PgQuery__Node** items, size_t n,
                                                 int location) const {
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; i++) {
    if (IsNull(items[i]) || items[i]->node_case != PG_QUERY__NODE__NODE_STRING) {
      ThrowNotSupported(fmt::format("{} in a name list is not supported", NodeTypeName(items[i])),
                        location);
    }
    out.emplace_back(items[i]->string->sval);
  }
  return out;
}

namespace {

/// "InsertStmt" -> "INSERT statements", "CreateTableAsStmt" -> "CreateTableAs statements".
std::string StatementKindName(const PgQuery__Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return "DELETE";
    case PG_QUERY__NODE__NODE_MERGE_STMT:
      return "MERGE";
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return "COPY";
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
      return "transaction control (BEGIN/COMMIT/ROLLBACK)";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return "ALTER TABLE";
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return "PREPARE";
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return "EXECUTE";
    default: {
      std::string name = Transformer::NodeTypeName(node);
      if (name.size() > 4 && name.compare(name.size() - 4, 4, "Stmt") == 0) {
        name.resize(name.size() - 4);
      }
      return name;
    }
  }
}

bool StringOptionIsTrue(const PgQuery__Node* arg, bool* value) {
  if (Transformer::IsNull(arg)) {
    *value = true;
    return true;
  }
  if (arg->node_case == PG_QUERY__NODE__NODE_INTEGER) {
    *value = arg->integer->ival != 0;
    return true;
  }
  if (arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN) {
    *value = arg->boolean->boolval;
    return true;
  }
  if (arg->node_case != PG_QUERY__NODE__NODE_STRING) return false;
  std::string s = Lower(arg->string->sval);
  if (s == "true" || s == "on" || s == "1" || s == "yes") {
    *value = true;
    return true;
  }
  if (s == "false" || s == "off" || s == "0" || s == "no") {
    *value = false;
    return true;
  }
  return false;
}

}  // namespace

ast::StatementPtr Transformer::TransformStatement(const PgQuery__Node* node, int begin, int end) {
  ast::StatementPtr result;
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT: {
      auto select = std::make_unique<ast::SelectStatement>();
      select->query = TransformSelect(node->select_stmt);
      result = std::move(select);
      break;
    }
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      result = TransformExplain(node->explain_stmt, begin, end);
      break;
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
      result = TransformVariableSet(node->variable_set_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT: {
      auto show = std::make_unique<ast::ShowStatement>();
      show->name = Lower(node->variable_show_stmt->name);
      result = std::move(show);
      break;
    }
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      result = TransformView(node->view_stmt, begin, end);
      break;
    case PG_QUERY__NODE__NODE_DROP_STMT:
      result = TransformDrop(node->drop_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_COPY_STMT:
      result = TransformCopy(node->copy_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      result = TransformInsert(node->insert_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      result = TransformCreateIndex(node->index_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      result = TransformUpdate(node->update_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      result = TransformDelete(node->delete_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      result = TransformTruncate(node->truncate_stmt, begin);
      break;
    case PG_QUERY__NODE__NODE_PREPARE_STMT: {
      const PgQuery__PrepareStmt* stmt = node->prepare_stmt;
      if (stmt->n_argtypes > 0) {
        ThrowNotSupportedAt(
            "PREPARE with parameter types is not supported (the values EXECUTE gives set them)",
            begin);
      }
      if (IsNull(stmt->query)) throw ParseError("PREPARE needs a statement after AS");
      auto prepare = std::make_unique<ast::PrepareStatement>();
      prepare->name = Lower(stmt->name);
      // The inner statement's own text (after AS): UPDATE and DELETE parse it again.
      int inner_begin = begin;
      const auto& tokens = rewritten_.tokens;
      for (size_t t = 0; t + 1 < tokens.size(); t++) {
        if (tokens[t].start >= begin && tokens[t].token == PG_QUERY__TOKEN__AS) {
          inner_begin = tokens[t + 1].start;
          break;
        }
      }
      ast::StatementPtr inner = TransformStatement(stmt->query, inner_begin, end);
      inner->parameter_count = TakeParameterCount();
      prepare->statement = std::move(inner);
      result = std::move(prepare);
      break;
    }
    case PG_QUERY__NODE__NODE_EXECUTE_STMT: {
      const PgQuery__ExecuteStmt* stmt = node->execute_stmt;
      auto execute = std::make_unique<ast::ExecuteStatement>();
      execute->name = Lower(stmt->name);
      if (stmt->n_params > 0) {
        execute->values = std::make_unique<ast::SelectNode>();
        for (size_t i = 0; i < stmt->n_params; i++)
          execute->values->select_list.push_back({TransformExpr(stmt->params[i]), ""});
      }
      result = std::move(execute);
      break;
    }
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT: {
      auto deallocate = std::make_unique<ast::DeallocateStatement>();
      const char* name = node->deallocate_stmt->name;
      deallocate->name = name != nullptr ? Lower(name) : "";
      result = std::move(deallocate);
      break;
    }
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT: {
      const PgQuery__TransactionStmt* stmt = node->transaction_stmt;
      auto transaction = std::make_unique<ast::TransactionStatement>();
      switch (stmt->kind) {
        case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
        case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START:
          transaction->action = ast::TransactionStatement::Action::kBegin;
          break;
        case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
          transaction->action = ast::TransactionStatement::Action::kCommit;
          break;
        case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
          transaction->action = ast::TransactionStatement::Action::kRollback;
          break;
        default:
          ThrowNotSupportedAt(
              "SAVEPOINT, RELEASE, ROLLBACK TO and prepared transactions are not "
              "supported",
              begin);
      }
      // Isolation levels and READ ONLY / READ WRITE: one session, nothing to choose.
      if (stmt->n_options > 0 || stmt->chain) {
        ThrowNotSupportedAt(
            "transaction options (isolation level, READ ONLY, AND CHAIN) are not "
            "supported",
            begin);
      }
      result = std::move(transaction);
      break;
    }
    default:
      ThrowNotSupportedAt(
          fmt::format("{} statements are not supported yet", StatementKindName(node)), begin);
  }
  result->location = begin;
  result->length = end - begin;
  return result;
}

ast::StatementPtr Transformer::TransformExplain(const PgQuery__ExplainStmt* stmt, int begin,
                                                int end) {
  auto explain = std::make_unique<ast::ExplainStatement>();
  for (size_t i = 0; i < stmt->n_options; i++) {
    const PgQuery__Node* option = stmt->options[i];
    if (IsNull(option) || option->node_case != PG_QUERY__NODE__NODE_DEF_ELEM) continue;
    const PgQuery__DefElem* def = option->def_elem;
    std::string name = Lower(def->defname);
    if (name == "analyze" || name == "logical") {
      bool value;
      if (!StringOptionIsTrue(def->arg, &value)) {
        ThrowParseError(fmt::format("EXPLAIN option {} takes a boolean value", name),
                        def->location);
      }
      (name == "analyze" ? explain->analyze : explain->logical_only) = value;
    } else if (name == "format") {
      std::string format = !IsNull(def->arg) && def->arg->node_case == PG_QUERY__NODE__NODE_STRING
                               ? Lower(def->arg->string->sval)
                               : "";
      if (format == "json") {
        explain->json = true;
      } else if (format == "text") {
        explain->json = false;
      } else {
        ThrowNotSupported(
            fmt::format("EXPLAIN format '{}' is not supported (use TEXT or JSON)", format),
            def->location);
      }
    } else {
      std::string upper = name;
      for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      ThrowNotSupported(fmt::format("EXPLAIN option {} is not supported", upper), def->location);
    }
  }

  // The explained statement's text: after EXPLAIN, its (options) and ANALYZE/VERBOSE.
  int inner_begin = begin;
  const auto& tokens = rewritten_.tokens;
  auto [first, last] = TokensIn(tokens, begin, end);
  size_t i = first;
  if (i < last && tokens[i].token == PG_QUERY__TOKEN__EXPLAIN) {
    i++;
    if (i < last && tokens[i].token == '(') {
      for (int depth = 0; i < last; i++) {
        if (tokens[i].token == '(') depth++;
        if (tokens[i].token == ')' && --depth == 0) {
          i++;
          break;
        }
      }
    }
    while (i < last && (tokens[i].token == PG_QUERY__TOKEN__ANALYZE ||
                        tokens[i].token == PG_QUERY__TOKEN__ANALYSE ||
                        tokens[i].token == PG_QUERY__TOKEN__VERBOSE)) {
      i++;
    }
    if (i < last) inner_begin = tokens[i].start;
  }
  explain->statement = TransformStatement(stmt->query, inner_begin, end);
  return explain;
}

ast::StatementPtr Transformer::TransformVariableSet(const PgQuery__VariableSetStmt* stmt,
                                                    int begin) {
  switch (stmt->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE:
      break;
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT:
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET: {
      auto reset = std::make_unique<ast::ResetStatement>();
      reset->name = Lower(stmt->name);
      return reset;
    }
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL: {
      auto reset = std::make_unique<ast::ResetStatement>();
      reset->name = "all";
      return reset;
    }
    default:
      ThrowNotSupportedAt("this form of SET is not supported", begin);
  }
  auto set = std::make_unique<ast::SetStatement>();
  set->name = Lower(stmt->name);
  if (stmt->n_args != 1) {
    ThrowNotSupportedAt(fmt::format("SET {} with a list of values is not supported", set->name),
                        stmt->n_args > 1 ? Loc(NodeLocation(stmt->args[1])) : begin);
  }
  const PgQuery__Node* arg = stmt->args[0];
  if (IsNull(arg) || arg->node_case != PG_QUERY__NODE__NODE_A_CONST) {
    ThrowNotSupported(fmt::format("SET {} accepts only a constant value", set->name),
                      NodeLocation(arg));
  }
  const PgQuery__AConst* constant = arg->a_const;
  if (constant->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
    // The grammar turns both `SET x = true` and `SET x = 'true'` into a string; only the
    // unquoted words true/false are booleans.
    int at = Loc(constant->location);
    char first = at >= 0 && at < static_cast<int>(original_.size()) ? original_[at] : '\'';
    std::string text = constant->sval->sval;
    bool quoted = first == '\'' || first == '$' || first == 'e' || first == 'E' || first == 'u' ||
                  first == 'U';
    std::string lowered = Lower(text);
    if (!quoted && (lowered == "true" || lowered == "false")) {
      set->value = Value::Boolean(lowered == "true");
    } else {
      set->value = Value::Varchar(std::move(text));
    }
  } else {
    auto value = TransformConstant(constant);
    set->value = static_cast<ast::ConstantExpr&>(*value).value;
  }
  return set;
}

ast::StatementPtr Transformer::TransformView(const PgQuery__ViewStmt* stmt, int begin, int end) {
  auto view = std::make_unique<ast::CreateViewStatement>();
  const PgQuery__RangeVar* name = stmt->view;
  if (stmt->n_options > 0) ThrowNotSupportedAt("view options (WITH ...) are not supported", begin);
  if (stmt->with_check_option != PG_QUERY__VIEW_CHECK_OPTION__NO_CHECK_OPTION &&
      stmt->with_check_option != PG_QUERY__VIEW_CHECK_OPTION__VIEW_CHECK_OPTION_UNDEFINED) {
    ThrowNotSupportedAt("WITH CHECK OPTION is not supported", begin);
  }
  view->name = QualifiedName(name);
  view->or_replace = stmt->replace;
  view->column_aliases = StringList(stmt->aliases, stmt->n_aliases, name->location);
  view->query = TransformQuery(stmt->query);

  // The query's text starts after the first AS outside parentheses (the column list).
  const auto& tokens = rewritten_.tokens;
  auto [first, last] = TokensIn(tokens, begin, end);
  int depth = 0;
  for (size_t i = first; i + 1 < last; i++) {
    if (tokens[i].token == '(') depth++;
    if (tokens[i].token == ')') depth--;
    // CREATE RECURSIVE VIEW is a WITH RECURSIVE the view's text does not hold.
    if (depth == 0 && tokens[i].token == PG_QUERY__TOKEN__RECURSIVE) {
      ThrowNotSupportedAt(
          "recursive views (CREATE RECURSIVE VIEW) are not supported; a view may use WITH "
          "RECURSIVE",
          begin);
    }
    if (depth == 0 && tokens[i].token == PG_QUERY__TOKEN__AS) {
      view->sql = original_.substr(tokens[i + 1].start, end - tokens[i + 1].start);
      break;
    }
  }
  return view;
}

ast::StatementPtr Transformer::TransformDrop(const PgQuery__DropStmt* stmt, int begin) {
  const bool table = stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE;
  const bool index = stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX;
  if (stmt->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_VIEW && !table && !index) {
    const ProtobufCEnumValue* kind =
        protobuf_c_enum_descriptor_get_value(&pg_query__object_type__descriptor, stmt->remove_type);
    std::string what = kind != nullptr ? kind->name : "object";
    if (what.rfind("OBJECT_", 0) == 0) what = what.substr(7);
    ThrowNotSupportedAt(fmt::format("DROP {} is not supported", what), begin);
  }
  const char* what = table ? "TABLE" : index ? "INDEX" : "VIEW";
  if (stmt->n_objects != 1) {
    ThrowNotSupportedAt(fmt::format("DROP {} supports one name at a time", what), begin);
  }
  if (stmt->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) {
    ThrowNotSupportedAt(fmt::format("DROP {} ... CASCADE is not supported", what), begin);
  }
  const PgQuery__Node* object = stmt->objects[0];
  std::vector<std::string> names;
  if (!IsNull(object) && object->node_case == PG_QUERY__NODE__NODE_LIST) {
    names = StringList(object->list->items, object->list->n_items, -1);
  }
  if (names.empty()) ThrowNotSupportedAt(fmt::format("DROP {} needs a name", what), begin);
  // "s.t" (or "db.s.t"): the catalog resolves the schema.
  names[0] = fmt::format("{}", fmt::join(names, "."));
  if (index) {
    auto drop = std::make_unique<ast::DropIndexStatement>();
    drop->name = names[0];
    drop->if_exists = stmt->missing_ok;
    return drop;
  }
  if (table) {
    auto drop = std::make_unique<ast::DropTableStatement>();
    drop->name = names[0];
    drop->if_exists = stmt->missing_ok;
    return drop;
  }
  auto drop = std::make_unique<ast::DropViewStatement>();
  drop->name = names[0];
  drop->if_exists = stmt->missing_ok;
  return drop;
}

}  // namespace parser_internal

}  // namespace shears
