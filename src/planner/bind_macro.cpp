// Calls the catalog answers rather than the function registry: nextval / currval of a
// sequence, and scalar macros (CREATE MACRO), expanded where they are called.

#include <fmt/format.h>

#include <functional>

#include "common/error.h"
#include "common/session.h"
#include "common/string_util.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "planner/bind_context.h"
#include "planner/binder.h"

namespace shears {

namespace {

/// A macro's expression (body or default), parsed from its text.
ast::ExprPtr ParseMacroExpression(const MacroDefinition& macro, const std::string& text) {
  auto statements = Parser::Parse("SELECT " + text);
  auto& query = static_cast<ast::SelectStatement&>(*statements.at(0)).query;
  auto& select = static_cast<ast::SelectNode&>(*query);
  ast::ExprPtr expr = std::move(select.select_list.at(0).expr);
  // A subquery is bound again after the expansion (PlanCorrelatedAny), when the macro's
  // parameters no longer resolve.
  bool subquery = false;
  std::function<void(const ast::Expr&)> find = [&](const ast::Expr& e) {
    subquery = subquery || e.kind == ast::ExprKind::kSubquery;
    ast::ForEachChild(e, find);
  };
  find(*expr);
  if (subquery)
    throw NotSupportedError("macro '{}': subqueries in macros are not supported", macro.name);
  return expr;
}

/// The macro's signature, for errors: m(a, b := 2).
std::string Signature(const MacroDefinition& macro) {
  std::vector<std::string> parts = macro.parameters;
  for (const auto& [name, text] : macro.defaults)
    parts.push_back(name + " := " + text);
  return fmt::format("{}({})", macro.name, fmt::join(parts, ", "));
}

}  // namespace

BoundExprPtr Binder::BindSequenceCall(const std::string& name, std::vector<BoundExprPtr> args) {
  if (args.size() != 1) throw BinderError("{} takes one argument, the sequence's name", name);
  if (args[0]->kind != BoundExprKind::kConstant) {
    throw NotSupportedError("{}: the sequence's name must be a constant", name);
  }
  const Value& value = static_cast<const BoundConstant&>(*args[0]).value;
  if (value.is_null()) return std::make_unique<BoundConstant>(Value::Null(LogicalType::Bigint()));
  if (value.type().id() != TypeId::kVarchar) {
    throw BinderError("{} takes the sequence's name as VARCHAR, not {}", name,
                      value.type().ToString());
  }
  const std::string sequence = value.GetString();
  if (!catalog_.FindSequence(sequence)) throw BinderError("sequence '{}' does not exist", sequence);
  // The call reads the catalog when it runs, once per batch of rows: nextval advances the
  // sequence by the batch's rows in one catalog transaction and tells the session its last
  // value, which is what currval answers (per session, as DuckDB).
  const Catalog* catalog = &catalog_;
  const bool next = name == "nextval";
  std::shared_ptr<SessionState> session = SessionState::Current();
  const std::string key = AsciiLower(sequence);
  BoundScalarFunction function;
  function.name = name;
  function.arg_types = {LogicalType::Varchar()};
  function.return_type = LogicalType::Bigint();
  function.deterministic = false;
  function.kernel = [catalog, sequence, next, session, key](const std::vector<const Vector*>&,
                                                            idx_t count, Vector& result) {
    int64_t* out = result.data<int64_t>();
    if (next) {
      const std::vector<int64_t> values = catalog->NextSequenceValues(sequence, count);
      std::copy(values.begin(), values.end(), out);
      if (session && !values.empty()) session->SetLastSequenceValue(key, values.back());
      return;
    }
    if (!session) {
      std::fill_n(out, count, catalog->CurrentSequenceValue(sequence));
      return;
    }
    const std::optional<int64_t> last = session->LastSequenceValue(key);
    if (!last) {
      throw InvalidInputError(
          "currval: sequence '{}' has given no value in this session yet (call nextval first)",
          sequence);
    }
    std::fill_n(out, count, *last);
  };
  return std::make_unique<BoundFunction>(std::move(function), std::move(args));
}

namespace {

constexpr const char* kTableMacroPrefix = "TABLE ";

bool IsTableMacro(const MacroDefinition& macro) {
  return macro.body.compare(0, std::string_view(kTableMacroPrefix).size(), kTableMacroPrefix) == 0;
}

}  // namespace

Binder::MacroFrame Binder::MacroArguments(
    const MacroDefinition& macro, const std::vector<ast::ExprPtr>& args,
    const std::vector<std::pair<std::string, ast::ExprPtr>>& named_args) {
  // A macro calling itself would expand forever.
  if (macro_frames_.size() >= 64) {
    throw BinderError("macro {} expands more than 64 levels deep (does it call itself?)",
                      macro.name);
  }
  // Positional arguments fill the parameters, then those with defaults in order (DuckDB).
  const size_t most = macro.parameters.size() + macro.defaults.size();
  if (args.size() < macro.parameters.size() || args.size() > most) {
    throw BinderError("macro {} takes {} argument{}, not {}", Signature(macro),
                      macro.parameters.size() == most
                          ? std::to_string(most)
                          : fmt::format("{} to {}", macro.parameters.size(), most),
                      most == 1 ? "" : "s", args.size());
  }
  MacroFrame frame;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& parameter = i < macro.parameters.size()
                                       ? macro.parameters[i]
                                       : macro.defaults[i - macro.parameters.size()].first;
    frame.arguments[AsciiLower(parameter)] = args[i].get();
  }
  for (const auto& [name, value] : named_args) {
    bool known = false;
    for (const auto& d : macro.defaults)
      known = known || AsciiLower(d.first) == AsciiLower(name);
    if (!known) {
      throw BinderError("macro {} has no parameter {} to name (only those with a default)",
                        Signature(macro), name);
    }
    if (!frame.arguments.emplace(AsciiLower(name), value.get()).second)
      throw BinderError("macro {}: parameter {} is given twice", macro.name, name);
  }
  for (const auto& [name, text] : macro.defaults) {
    if (frame.arguments.count(AsciiLower(name))) continue;
    frame.owned.push_back(ParseMacroExpression(macro, text));
    frame.arguments[AsciiLower(name)] = frame.owned.back().get();
  }
  return frame;
}

BoundExprPtr Binder::BindMacroCall(const ast::FunctionExpr& call, const MacroDefinition& macro,
                                   ExprContext& ctx) {
  if (IsTableMacro(macro)) {
    throw BinderError("macro {} is a table macro: call it in FROM (SELECT * FROM {}(...))",
                      macro.name, macro.name);
  }
  if (call.distinct || call.star || call.filter || !call.order_by.empty()) {
    throw BinderError("macro {} is called like an aggregate; it takes plain arguments", macro.name);
  }
  MacroFrame frame = MacroArguments(macro, call.args, call.named_args);
  frame.owned.push_back(ParseMacroExpression(macro, macro.body));
  const ast::Expr& body = *frame.owned.back();
  macro_frames_.push_back(std::move(frame));
  try {
    BoundExprPtr bound = BindExpr(body, ctx);
    macro_frames_.pop_back();
    return bound;
  } catch (...) {
    macro_frames_.pop_back();
    throw;
  }
}

LogicalOperatorPtr Binder::BindTableMacro(const ast::TableFunctionRef& call,
                                          const MacroDefinition& macro, Scope& scope) {
  if (!IsTableMacro(macro)) {
    throw BinderError("macro {} is a scalar macro, not a table: call it in an expression",
                      macro.name);
  }
  MacroFrame frame = MacroArguments(macro, call.args, call.named_args);
  table_macro_queries_.push_back(
      Parser::Parse(macro.body.substr(std::string_view(kTableMacroPrefix).size())));
  const auto& statement =
      static_cast<const ast::SelectStatement&>(*table_macro_queries_.back().at(0));
  macro_frames_.push_back(std::move(frame));
  BoundQuery query;
  try {
    // Like a subquery in FROM: it sees the enclosing queries, not the FROM items beside it.
    query = BindQueryNode(*statement.query, scope.outer);
  } catch (...) {
    macro_frames_.pop_back();
    throw;
  }
  macro_frames_.pop_back();
  ScopeEntry entry =
      EntryFor(call.alias.empty() ? macro.name : call.alias, *query.plan, query.names);
  ApplyColumnAliases(entry, call.column_aliases);
  scope.entries.push_back(std::move(entry));
  return std::move(query.plan);
}

BoundExprPtr Binder::BindMacroParameter(const std::string& name, ExprContext& ctx) {
  if (macro_frames_.empty()) return nullptr;
  auto found = macro_frames_.back().arguments.find(AsciiLower(name));
  if (found == macro_frames_.back().arguments.end()) return nullptr;
  // The argument belongs to the caller: bound without this macro's parameters in sight.
  MacroFrame frame = std::move(macro_frames_.back());
  macro_frames_.pop_back();
  const ast::Expr* argument = frame.arguments.at(AsciiLower(name));
  try {
    BoundExprPtr bound = BindExpr(*argument, ctx);
    macro_frames_.push_back(std::move(frame));
    return bound;
  } catch (...) {
    macro_frames_.push_back(std::move(frame));
    throw;
  }
}

}  // namespace shears
