// Catalog statements PostgreSQL's grammar does not have (Hive/Spark syntax), parsed from the
// scanner's tokens: CREATE EXTERNAL TABLE, SHOW TABLES, SHOW INDEXES, SHOW PARTITIONS, DESCRIBE,
// ALTER TABLE ... RECOVER PARTITIONS, MSCK REPAIR TABLE, ANALYZE, SHOW STATS, and CREATE TABLE
// (managed tables, with Spark's USING / PARTITIONED BY). (PostgreSQL's ANALYZE means something else
// and is not supported.) Parser::Parse hands these statements here and the rest of the text to
// libpg_query.

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <functional>
#include <set>

#include "common/error.h"
#include "common/string_util.h"
#include "parser/ast_visit.h"
#include "parser/parser.h"
#include "parser/transformer.h"
#include "parser/type_text.h"

namespace shears::parser_internal {

namespace {

bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

class CatalogParser {
 public:
  CatalogParser(const std::string& sql, const std::vector<SqlToken>& tokens, size_t first,
                size_t last)
      : sql_(sql), tokens_(tokens), pos_(first), last_(last) {}

  ast::StatementPtr Parse() {
    const int begin = tokens_[pos_].start;
    ast::StatementPtr result;
    if (AcceptWord("create")) {
      result = ParseCreate();
    } else if (AcceptWord("drop")) {
      result = ParseDrop();
    } else if (AcceptWord("show")) {
      if (AcceptWord("tables")) {
        result = std::make_unique<ast::ShowTablesStatement>();
      } else if (AcceptWord("databases")) {
        result = std::make_unique<ast::DatabaseStatement>(ast::StatementKind::kShowDatabases);
      } else if (AcceptWord("indexes")) {
        auto show = std::make_unique<ast::ShowIndexesStatement>();
        if (AcceptWord("from") || AcceptWord("on")) show->table = Name("a table name");
        result = std::move(show);
      } else if (AcceptWord("stats")) {
        auto command = TableCommand(ast::TableCommandStatement::Command::kShowStats);
        if (AcceptWord("partitions")) {
          command->stats_level = "partition";
        } else if (AcceptWord("files")) {
          command->stats_level = "file";
        }
        result = std::move(command);
      } else {
        ExpectWord("partitions");
        result = TableCommand(ast::TableCommandStatement::Command::kShowPartitions);
      }
    } else if (AcceptWord("describe") || AcceptWord("desc") || AtWord("summarize")) {
      const bool summarize = AcceptWord("summarize");
      const auto kind = summarize ? ast::TableCommandStatement::Command::kSummarize
                                  : ast::TableCommandStatement::Command::kDescribe;
      if (AtWord("select") || AtWord("with") || AtWord("from") || AtWord("values") ||
          AtWord("pivot") || AtWord("unpivot") || AtWord("pivot_wider") || AtWord("pivot_longer") ||
          (pos_ < last_ &&
           (tokens_[pos_].token == '(' || tokens_[pos_].token == PG_QUERY__TOKEN__SCONST))) {
        // A query, or a file as DuckDB's FROM 'path' shorthand: the rest of the statement.
        auto command = std::make_unique<ast::TableCommandStatement>();
        command->command = kind;
        command->query_location = Here();
        const int query_begin = tokens_[pos_].start, query_end = tokens_[last_ - 1].end;
        command->query_sql = tokens_[pos_].token == PG_QUERY__TOKEN__SCONST
                                 ? "FROM " + sql_.substr(query_begin, query_end - query_begin)
                                 : sql_.substr(query_begin, query_end - query_begin);
        pos_ = last_;
        result = std::move(command);
      } else {
        AcceptWord("table");
        result = TableCommand(kind);
      }
    } else if (AcceptWord("analyze") || AcceptWord("analyse")) {
      AcceptWord("table");
      result = TableCommand(ast::TableCommandStatement::Command::kAnalyze);
      // Spark's spelling: ANALYZE TABLE t COMPUTE STATISTICS.
      if (AcceptWord("compute")) ExpectWord("statistics");
    } else if (AcceptWord("alter")) {
      result = ParseAlter();
    } else if (AcceptWord("pragma")) {
      result = ParsePragma();
    } else if (AcceptWord("attach")) {
      result = ParseAttach();
    } else if (AcceptWord("detach")) {
      auto detach = std::make_unique<ast::DatabaseStatement>(ast::StatementKind::kDetach);
      AcceptWord("database");
      if (AcceptWord("if")) {
        ExpectWord("exists");
        detach->if_exists = true;
      }
      detach->name = Identifier("a database name");
      result = std::move(detach);
    } else if (AcceptWord("call")) {
      // CALL f(args): DuckDB's way to run a table function, the same as SELECT * FROM f(args).
      const int call_begin = Here();
      auto statements = Parser::Parse("SELECT * FROM " +
                                      sql_.substr(call_begin, tokens_[last_ - 1].end - call_begin));
      if (statements.size() != 1) Fail<ParseError>("CALL takes one table function call");
      pos_ = last_;
      result = std::move(statements[0]);
    } else if (AtWord("checkpoint") || AcceptWord("force")) {
      // DuckDB's CHECKPOINT [db] / FORCE CHECKPOINT [db] (PostgreSQL's grammar has neither
      // form with a name).
      ExpectWord("checkpoint");
      auto checkpoint = std::make_unique<ast::DatabaseStatement>(ast::StatementKind::kCheckpoint);
      if (pos_ < last_) checkpoint->name = Lower(Identifier("a database name"));
      result = std::move(checkpoint);
    } else if (AcceptWord("use")) {
      auto use = std::make_unique<ast::DatabaseStatement>(ast::StatementKind::kUse);
      use->name = Identifier("a database or schema name");
      if (Accept('.')) use->schema = Identifier("a schema name");
      result = std::move(use);
    } else {
      ExpectWord("msck");
      ExpectWord("repair");
      ExpectWord("table");
      result = TableCommand(ast::TableCommandStatement::Command::kRecoverPartitions);
    }
    if (pos_ < last_) Fail<ParseError>("unexpected text after the statement");
    result->location = begin;
    result->length = tokens_[last_ - 1].end - begin;
    return result;
  }

 private:
  std::string_view Text(size_t i) const {
    return std::string_view(sql_).substr(tokens_[i].start, tokens_[i].end - tokens_[i].start);
  }
  bool AtWord(std::string_view word) const {
    return pos_ < last_ && EqualsAsciiLower(Text(pos_), word);
  }
  bool AcceptWord(std::string_view word) {
    if (!AtWord(word)) return false;
    pos_++;
    return true;
  }
  bool Accept(char symbol) {
    if (pos_ < last_ && tokens_[pos_].token == symbol) {
      pos_++;
      return true;
    }
    return false;
  }
  int Here() const { return pos_ < last_ ? tokens_[pos_].start : tokens_[last_ - 1].end; }
  std::string Found() const {
    return pos_ < last_ ? fmt::format("'{}'", Text(pos_)) : std::string("the end of the statement");
  }
  template <typename E>
  [[noreturn]] void Fail(const std::string& message) const {
    throw E(message + "\n" + FormatErrorPosition(sql_, Here()));
  }
  void ExpectWord(std::string_view word) {
    if (!AcceptWord(word)) {
      std::string upper(word);
      for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      Fail<ParseError>(fmt::format("expected {} but found {}", upper, Found()));
    }
  }
  void Expect(char symbol) {
    if (!Accept(symbol))
      Fail<ParseError>(fmt::format("expected '{}' but found {}", symbol, Found()));
  }

  /// A quoted string ('...', '' a quote).
  std::string StringLiteral(const char* what) {
    std::string_view text = pos_ < last_ ? Text(pos_) : std::string_view();
    if (pos_ >= last_ || tokens_[pos_].token != PG_QUERY__TOKEN__SCONST || text.front() != '\'') {
      Fail<ParseError>(fmt::format("expected {} but found {}", what, Found()));
    }
    std::string value;
    for (size_t i = 1; i + 1 < text.size(); i++) {
      value += text[i];
      if (text[i] == '\'') i++;  // '' is one quote
    }
    pos_++;
    return value;
  }

  /// ATTACH [OR REPLACE] [DATABASE] [IF NOT EXISTS] 'path' [AS name] [(READ_ONLY [bool],
  /// READ_WRITE [bool], TYPE shears)].
  ast::StatementPtr ParseAttach() {
    auto attach = std::make_unique<ast::DatabaseStatement>(ast::StatementKind::kAttach);
    if (AcceptWord("or")) {
      ExpectWord("replace");
      attach->or_replace = true;
    }
    AcceptWord("database");
    if (AcceptWord("if")) {
      ExpectWord("not");
      ExpectWord("exists");
      attach->if_exists = true;
    }
    attach->path = StringLiteral("a quoted path");
    if (AcceptWord("as")) {
      attach->name = Identifier("a database name");
    } else {
      // DuckDB's default name: the file's name without its extension.
      std::string stem = std::filesystem::path(attach->path).stem().string();
      if (attach->path == ":memory:" || attach->path.empty() || stem.empty()) {
        Fail<ParseError>("ATTACH ':memory:' needs a name (AS name)");
      }
      attach->name = Lower(stem);
    }
    if (Accept('(')) {
      do {
        const std::string option = Lower(Identifier("an ATTACH option"));
        if (option == "read_only" || option == "readonly") {
          attach->read_only = true;
          if (AcceptWord("false")) {
            attach->read_only = false;
          } else {
            AcceptWord("true");
          }
        } else if (option == "read_write") {
          attach->read_only = AcceptWord("false");
          if (!attach->read_only) AcceptWord("true");
        } else if (option == "type") {
          const std::string type = Lower(Identifier("a database type"));
          if (type != "shears") {
            Fail<NotSupportedError>(fmt::format(
                "ATTACH (TYPE {}): shears attaches only its own databases (directories holding "
                "catalog.db)",
                type));
          }
        } else {
          Fail<NotSupportedError>(
              fmt::format("ATTACH option {} is not supported (READ_ONLY is)", option));
        }
      } while (Accept(','));
      Expect(')');
    }
    return attach;
  }

  /// A name, qualified or not: "t", or "s.t" for schema s (Catalog::Resolve takes it apart).
  std::string Name(const char* what) {
    std::string name = Identifier(what);
    while (pos_ < last_ && tokens_[pos_].token == '.') {
      pos_++;
      name += '.';
      name += Identifier(what);
    }
    return name;
  }

  /// An identifier (or a non-reserved keyword used as one); "quoted" keeps its case.
  std::string Identifier(const char* what) {
    if (pos_ >= last_) Fail<ParseError>(fmt::format("expected {} but found {}", what, Found()));
    std::string_view text = Text(pos_);
    std::string name;
    if (text.size() >= 2 && text.front() == '"') {
      for (size_t i = 1; i + 1 < text.size(); i++) {
        name += text[i];
        if (text[i] == '"') i++;  // "" is one quote
      }
    } else if (IsWordStart(text.front())) {
      name = Lower(std::string(text));
    } else {
      Fail<ParseError>(fmt::format("expected {} but found {}", what, Found()));
    }
    pos_++;
    return name;
  }

  std::unique_ptr<ast::TableCommandStatement> TableCommand(
      ast::TableCommandStatement::Command command) {
    auto statement = std::make_unique<ast::TableCommandStatement>();
    statement->command = command;
    statement->name_location = Here();
    statement->name = Name("a table name");
    return statement;
  }

  /// PRAGMA table_info('t') | table_info(t), PRAGMA version, PRAGMA show_tables (DuckDB's).
  ast::StatementPtr ParsePragma() {
    if (pos_ + 1 < last_ && tokens_[pos_ + 1].token == '=') {
      // PRAGMA name = value: DuckDB's spelling of SET for its settings.
      auto set = std::make_unique<ast::SetStatement>();
      set->name = Lower(Identifier("a setting name"));
      Expect('=');
      set->value = PragmaValue();
      return set;
    }
    if (AcceptWord("version")) {
      auto command = std::make_unique<ast::TableCommandStatement>();
      command->command = ast::TableCommandStatement::Command::kVersion;
      return command;
    }
    if (AcceptWord("show_tables")) return std::make_unique<ast::ShowTablesStatement>();
    if (!AcceptWord("table_info")) {
      Fail<NotSupportedError>(
          fmt::format("PRAGMA {} is not supported (shears has table_info, version and "
                      "show_tables)",
                      pos_ < last_ ? std::string(Text(pos_)) : std::string()));
    }
    Expect('(');
    auto command = std::make_unique<ast::TableCommandStatement>();
    command->command = ast::TableCommandStatement::Command::kTableInfo;
    command->name_location = Here();
    if (pos_ < last_ && tokens_[pos_].token == PG_QUERY__TOKEN__SCONST) {
      std::string_view text = Text(pos_);
      for (size_t i = 1; i + 1 < text.size(); i++) {
        command->name += text[i];
        if (text[i] == '\'') i++;  // '' is one quote
      }
      pos_++;
    } else {
      command->name = Name("a table name");
    }
    Expect(')');
    return command;
  }

  /// ALTER TABLE | VIEW after ALTER.
  ast::StatementPtr ParseAlter() {
    const bool view = AcceptWord("view");
    if (!view) ExpectWord("table");
    auto alter = std::make_unique<ast::AlterTableStatement>();
    alter->view = view;
    if (AcceptWord("if")) {
      ExpectWord("exists");
      alter->if_exists = true;
    }
    alter->name_location = Here();
    alter->name = Name(view ? "a view name" : "a table name");
    using Action = ast::AlterTableStatement::Action;
    if (view) {
      ExpectWord("rename");
      ExpectWord("to");
      alter->action = Action::kRenameTable;
      alter->new_name = Name("a view name");
      return alter;
    }
    if (AcceptWord("recover")) {
      ExpectWord("partitions");
      auto command = std::make_unique<ast::TableCommandStatement>();
      command->command = ast::TableCommandStatement::Command::kRecoverPartitions;
      command->name = alter->name;
      command->name_location = alter->name_location;
      return command;
    }
    auto column = [&](const char* what) {
      alter->column_location = Here();
      alter->column = Name(what);
    };
    if (AcceptWord("add")) {
      AcceptWord("column");
      if (AcceptWord("if")) {
        ExpectWord("not");
        ExpectWord("exists");
        alter->column_if = true;
      }
      alter->action = Action::kAddColumn;
      column("a column name");
      alter->type = Type();
      if (AcceptWord("default")) alter->expression_sql = DefaultExpression();
      if (AtWord("generated") || AtWord("as")) {
        Fail<NotSupportedError>(
            "Adding generated columns after table creation is not supported (give them in "
            "CREATE TABLE)");
      }
      if (pos_ < last_) {
        Fail<NotSupportedError>("ADD COLUMN takes a type and a DEFAULT only (no constraints)");
      }
    } else if (AcceptWord("drop")) {
      AcceptWord("column");
      if (AcceptWord("if")) {
        ExpectWord("exists");
        alter->column_if = true;
      }
      alter->action = Action::kDropColumn;
      column("a column name");
      if (AcceptWord("cascade"))
        Fail<NotSupportedError>("DROP COLUMN ... CASCADE is not supported");
      AcceptWord("restrict");
    } else if (AcceptWord("rename")) {
      if (AcceptWord("to")) {
        alter->action = Action::kRenameTable;
        alter->new_name = Name("a table name");
      } else {
        AcceptWord("column");
        alter->action = Action::kRenameColumn;
        column("a column name");
        ExpectWord("to");
        alter->new_name = Name("a column name");
      }
    } else if (AcceptWord("alter")) {
      AcceptWord("column");
      column("a column name");
      if (AcceptWord("set")) {
        if (AcceptWord("default")) {
          alter->action = Action::kSetDefault;
          alter->expression_sql = DefaultExpression();
        } else if (AcceptWord("not")) {
          ExpectWord("null");
          alter->action = Action::kSetNotNull;
        } else {
          ExpectWord("data");
          ExpectWord("type");
          alter->action = Action::kAlterType;
        }
      } else if (AcceptWord("drop")) {
        if (AcceptWord("not")) {
          ExpectWord("null");
          alter->action = Action::kDropNotNull;
        } else {
          ExpectWord("default");
          alter->action = Action::kDropDefault;
        }
      } else {
        ExpectWord("type");
        alter->action = Action::kAlterType;
      }
      if (alter->action == Action::kAlterType) {
        alter->type = Type();
        if (AcceptWord("using")) {
          if (pos_ >= last_) Fail<ParseError>("expected an expression after USING");
          alter->expression_sql =
              sql_.substr(tokens_[pos_].start, tokens_[last_ - 1].end - tokens_[pos_].start);
          pos_ = last_;
        }
      }
    } else {
      Fail<NotSupportedError>(fmt::format(
          "ALTER TABLE supports ADD, DROP, RENAME and ALTER [COLUMN], RENAME TO and RECOVER "
          "PARTITIONS, not {}",
          Found()));
    }
    return alter;
  }

  /// type words [ (n [, n]) ] [ [] ]: INT, DOUBLE PRECISION, DECIMAL(10,2), VARCHAR(20), INT[].
  ast::TypeName Type() {
    ast::TypeName type;
    type.location = Here();
    while (pos_ < last_ && IsWordStart(Text(pos_).front()) && !AtConstraintWord() &&
           !AtWord("using") && !AtWord("as")) {
      type.name += (type.name.empty() ? "" : " ") + Lower(std::string(Text(pos_)));
      pos_++;
    }
    if (type.name.empty()) Fail<ParseError>(fmt::format("expected a type but found {}", Found()));
    if ((type.name == "struct" || type.name == "row" || type.name == "map") && pos_ < last_ &&
        tokens_[pos_].token == '(') {
      // STRUCT(a INTEGER, ...) / ROW(...) / MAP(K, V): DuckDB's type text, read by
      // ParseTypeText.
      const size_t open = pos_;
      int depth = 0;
      for (; pos_ < last_; pos_++) {
        if (tokens_[pos_].token == '(') depth++;
        if (tokens_[pos_].token == ')' && --depth == 0) break;
      }
      if (pos_ >= last_) Fail<ParseError>("unbalanced parentheses in a STRUCT or MAP type");
      const size_t begin = tokens_[open - 1].start;
      pos_++;
      type = ParseTypeText(sql_.substr(begin, tokens_[pos_ - 1].end - begin));
    } else if (Accept('(')) {
      do {
        if (pos_ >= last_ || tokens_[pos_].token != PG_QUERY__TOKEN__ICONST) {
          Fail<ParseError>(fmt::format("expected a number but found {}", Found()));
        }
        type.modifiers.push_back(std::atoi(std::string(Text(pos_)).c_str()));
        pos_++;
      } while (Accept(','));
      Expect(')');
    }
    // DuckDB's and PostgreSQL's T[]: a LIST column (T[][] a LIST of LIST).
    while (Accept('[')) {
      Expect(']');
      type.array_depth++;
    }
    return type;
  }

  /// Words that end a column's type and start a constraint.
  bool AtConstraintWord() const {
    for (const char* word : {"primary", "unique", "not", "null", "constraint", "default", "check",
                             "references", "collate", "generated"}) {
      if (AtWord(word)) return true;
    }
    return false;
  }

  /// ( expr ) after CHECK (or a generated column's AS): the text between the parentheses (the
  /// binder reads it when the table is written to).
  std::string CheckExpression(const char* after = "CHECK") {
    if (pos_ >= last_ || tokens_[pos_].token != '(')
      Fail<ParseError>(fmt::format("expected ( after {} but found {}", after, Found()));
    const size_t open = pos_;
    int depth = 0;
    for (; pos_ < last_; pos_++) {
      if (tokens_[pos_].token == '(') depth++;
      if (tokens_[pos_].token == ')' && --depth == 0) break;
    }
    if (pos_ >= last_) Fail<ParseError>("CHECK ( has no closing )");
    const int begin = tokens_[open].end, end = tokens_[pos_].start;
    pos_++;
    if (end <= begin) Fail<ParseError>("CHECK () needs an expression");
    return sql_.substr(begin, end - begin);
  }

  /// The expression after DEFAULT (or a macro parameter's :=): its text up to ',' or ')'
  /// outside parentheses, or (`constraint_words`) the next constraint word; its first token
  /// always belongs to it (DEFAULT NULL).
  std::string DefaultExpression(bool constraint_words = true) {
    if (pos_ >= last_ || tokens_[pos_].token == ',' || tokens_[pos_].token == ')')
      Fail<ParseError>(fmt::format("expected an expression after DEFAULT but found {}", Found()));
    const size_t first = pos_;
    int depth = 0;
    for (; pos_ < last_; pos_++) {
      const int token = tokens_[pos_].token;
      if (depth == 0 && pos_ > first &&
          (token == ',' || token == ')' || (constraint_words && AtConstraintWord())))
        break;
      if (token == '(') depth++;
      if (token == ')') depth--;
      if (depth < 0) break;
    }
    if (depth > 0) Fail<ParseError>("DEFAULT ( has no closing )");
    return sql_.substr(tokens_[first].start, tokens_[pos_ - 1].end - tokens_[first].start);
  }

  /// ( name, ... ) of a table constraint.
  std::vector<std::string> NameList() {
    std::vector<std::string> names;
    Expect('(');
    do {
      names.push_back(Name("a column name"));
    } while (Accept(','));
    Expect(')');
    return names;
  }

  /// [NOT NULL | NULL | PRIMARY KEY | UNIQUE | CHECK (...) | DEFAULT expr]... after a column's
  /// type; PRIMARY KEY and UNIQUE
  /// go to `keys` (null when the list takes no constraints).
  void ColumnConstraints(ast::CreateExternalTableStatement::Column& column,
                         std::vector<ast::CreateTableStatement::Key>* keys) {
    while (keys && pos_ < last_ && (AtConstraintWord() || AtWord("as"))) {
      const int location = Here();
      if (AcceptWord("not")) {
        ExpectWord("null");
        column.not_null = true;
      } else if (AcceptWord("null")) {
        // The default: NULLs allowed.
      } else if (AcceptWord("primary")) {
        ExpectWord("key");
        column.not_null = true;
        keys->push_back({true, {column.name}, location});
      } else if (AcceptWord("unique")) {
        keys->push_back({false, {column.name}, location});
      } else if (AcceptWord("constraint")) {
        Name("a constraint name");  // names are not kept: errors quote the expression
      } else if (checks_ && AcceptWord("check")) {
        checks_->push_back(CheckExpression());
      } else if (AtWord("generated") || AtWord("as")) {
        GeneratedColumn(column);
      } else if (foreign_keys_ && AcceptWord("references")) {
        ast::CreateTableStatement::ForeignKey key;
        key.location = location;
        key.columns = {column.name};
        References(key);
        foreign_keys_->push_back(std::move(key));
      } else if (AcceptWord("default")) {
        if (column.default_sql) Fail<ParseError>("DEFAULT is given twice");
        column.default_location = Here();
        column.default_sql = DefaultExpression();
      } else {
        Fail<NotSupportedError>(fmt::format(
            "column constraint {} is not supported (only NOT NULL, UNIQUE, PRIMARY KEY, CHECK "
            "and DEFAULT)",
            Found()));
      }
    }
  }

  /// [GENERATED ALWAYS] AS (expr) [VIRTUAL | STORED]: DuckDB's generated column (VIRTUAL, its
  /// only kind: STORED is refused as DuckDB refuses it).
  void GeneratedColumn(ast::CreateExternalTableStatement::Column& column) {
    if (AcceptWord("generated")) {
      ExpectWord("always");
    }
    ExpectWord("as");
    if (column.generated_sql) Fail<ParseError>("a column is generated twice");
    column.generated_sql = CheckExpression("AS");
    if (AcceptWord("stored")) {
      Fail<InvalidInputError>(
          "Can not create a STORED generated column (only VIRTUAL ones, computed on read)");
    }
    AcceptWord("virtual");
  }

  /// t [(col, ...)] [ON DELETE / ON UPDATE NO ACTION | RESTRICT] after REFERENCES (DuckDB has
  /// no cascading actions, nor has shears).
  void References(ast::CreateTableStatement::ForeignKey& key) {
    key.table = Name("a table name");
    if (pos_ < last_ && tokens_[pos_].token == '(') key.referenced = NameList();
    while (AcceptWord("on")) {
      if (!AcceptWord("delete")) ExpectWord("update");
      if (AcceptWord("no")) {
        ExpectWord("action");
      } else if (!AcceptWord("restrict")) {
        Fail<NotSupportedError>(fmt::format(
            "foreign key action {} is not supported (only NO ACTION and RESTRICT, as DuckDB)",
            Found()));
      }
    }
  }

  /// ( name [type], ... ); the type is required when `need_type`. With `keys` (CREATE TABLE),
  /// columns take constraints and the list may hold PRIMARY KEY (...) and UNIQUE (...).
  std::vector<ast::CreateExternalTableStatement::Column> ColumnList(
      bool need_type, std::vector<ast::CreateTableStatement::Key>* keys = nullptr) {
    std::vector<ast::CreateExternalTableStatement::Column> columns;
    Expect('(');
    do {
      // DuckDB takes a trailing comma: CREATE TABLE t (a INTEGER, ).
      if (keys && !columns.empty() && tokens_[pos_ - 1].token == ',' && pos_ < last_ &&
          tokens_[pos_].token == ')')
        break;
      if (keys && (AtWord("primary") || AtWord("unique") || AtWord("constraint") ||
                   AtWord("check") || AtWord("foreign"))) {
        const int location = Here();
        if (AcceptWord("constraint")) Name("a constraint name");
        if (checks_ && AcceptWord("check")) {
          checks_->push_back(CheckExpression());
          continue;
        }
        if (foreign_keys_ && AcceptWord("foreign")) {
          ExpectWord("key");
          ast::CreateTableStatement::ForeignKey key;
          key.location = location;
          key.columns = NameList();
          ExpectWord("references");
          References(key);
          foreign_keys_->push_back(std::move(key));
          continue;
        }
        ast::CreateTableStatement::Key key;
        key.location = location;
        if (AcceptWord("primary")) {
          ExpectWord("key");
          key.primary = true;
        } else if (!AcceptWord("unique")) {
          Fail<NotSupportedError>(fmt::format(
              "table constraint {} is not supported (only UNIQUE, PRIMARY KEY and CHECK)",
              Found()));
        }
        key.columns = NameList();
        keys->push_back(std::move(key));
        continue;
      }
      ast::CreateExternalTableStatement::Column column;
      column.location = Here();
      column.name = Name("a column name");
      // `g AS (expr)` and `g GENERATED ALWAYS AS (expr)`: a generated column's type may be
      // left out (it is the expression's).
      const bool generated_untyped = keys && (AtWord("as") || AtWord("generated"));
      if (!generated_untyped && (need_type || (pos_ < last_ && tokens_[pos_].token != ',' &&
                                               tokens_[pos_].token != ')'))) {
        column.type = Type();
      }
      ColumnConstraints(column, keys);
      columns.push_back(std::move(column));
    } while (Accept(','));
    Expect(')');
    return columns;
  }

  /// PARQUET, the one table format (after STORED AS or USING), given once.
  void ExpectParquet(bool* given, const char* unsupported) {
    if (*given) Fail<ParseError>("the table format is given twice");
    if (!AtWord("parquet"))
      Fail<NotSupportedError>(fmt::format("{}, not {}", unsupported, Found()));
    pos_++;
    *given = true;
  }

  /// BY (col [type], ...) after PARTITIONED, given once.
  std::vector<ast::CreateExternalTableStatement::Column> PartitionedBy(bool* given) {
    if (*given) Fail<ParseError>("PARTITIONED BY is given twice");
    ExpectWord("by");
    *given = true;
    return ColumnList(false);
  }

  /// CREATE TABLE [IF NOT EXISTS] t [(col type, ...)] {USING parquet | STORED AS PARQUET |
  /// PARTITIONED BY (col [type], ...)} [AS query]. The query is handed to Parser::Parse with
  /// everything else blanked, so its offsets stay the user's.
  ast::StatementPtr ParseCreateTable(bool temporary) {
    auto create = std::make_unique<ast::CreateTableStatement>();
    create->temporary = temporary;
    if (AcceptWord("if")) {
      ExpectWord("not");
      ExpectWord("exists");
      create->if_not_exists = true;
    }
    create->name_location = Here();
    create->name = Name("a table name");
    checks_ = &create->checks;
    foreign_keys_ = &create->foreign_keys;
    if (pos_ < last_ && tokens_[pos_].token == '(')
      create->columns = ColumnList(true, &create->keys);
    checks_ = nullptr;
    foreign_keys_ = nullptr;
    bool format = false, partitioned = false;
    while (pos_ < last_ && !AtWord("as")) {
      const bool stored = AcceptWord("stored");
      if (stored) ExpectWord("as");
      if (stored || AcceptWord("using")) {
        ExpectParquet(&format, "only parquet tables are supported");
      } else if (AcceptWord("partitioned")) {
        create->partition_columns = PartitionedBy(&partitioned);
      } else {
        Fail<ParseError>(fmt::format(
            "expected USING parquet, PARTITIONED BY (...) or AS query but found {}", Found()));
      }
    }
    if (AcceptWord("as")) {
      if (!create->columns.empty() || !create->keys.empty() || !create->checks.empty() ||
          !create->foreign_keys.empty()) {
        Fail<NotSupportedError>("CREATE TABLE ... AS takes its columns from the query, not a list");
      }
      if (pos_ >= last_) Fail<ParseError>("expected a query after AS");
      std::string blanked(sql_.size(), ' ');
      for (size_t i = 0; i < sql_.size(); i++) {
        if (sql_[i] == '\n') blanked[i] = '\n';
      }
      const int query_begin = tokens_[pos_].start, query_end = tokens_[last_ - 1].end;
      blanked.replace(query_begin, query_end - query_begin,
                      sql_.substr(query_begin, query_end - query_begin));
      auto statements = Parser::Parse(blanked);
      if (statements.size() != 1 || statements[0]->kind != ast::StatementKind::kSelect) {
        Fail<ParseError>("expected one query after AS");
      }
      create->query = std::move(static_cast<ast::SelectStatement&>(*statements[0]).query);
      pos_ = last_;
    } else if (create->columns.empty()) {
      Fail<ParseError>("CREATE TABLE needs a column list or AS query");
    }
    return create;
  }

  /// The value of PRAGMA name = value: a string, a number, or a word (as text, which SET
  /// converts to the setting's type: true, off, ...).
  Value PragmaValue() {
    if (pos_ < last_ && tokens_[pos_].token == PG_QUERY__TOKEN__SCONST) {
      return Value::Varchar(StringLiteral("a value"));
    }
    const bool negative = Accept('-');
    if (pos_ < last_ && (tokens_[pos_].token == PG_QUERY__TOKEN__ICONST ||
                         tokens_[pos_].token == PG_QUERY__TOKEN__FCONST)) {
      const std::string text = (negative ? "-" : "") + std::string(Text(pos_));
      int64_t value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      pos_++;
      if (error == std::errc() && end == text.data() + text.size()) return Value::Bigint(value);
      return Value::Varchar(text);
    }
    if (negative) Fail<ParseError>(fmt::format("expected a number but found {}", Found()));
    return Value::Varchar(Identifier("a value"));
  }

  /// A signed integer (a sequence option's value).
  int64_t Integer(const char* what) {
    const bool negative = Accept('-');
    if (!negative) Accept('+');
    if (pos_ >= last_ || (tokens_[pos_].token != PG_QUERY__TOKEN__ICONST &&
                          tokens_[pos_].token != PG_QUERY__TOKEN__FCONST)) {
      Fail<ParseError>(fmt::format("expected a number after {} but found {}", what, Found()));
    }
    const std::string text = (negative ? "-" : "") + std::string(Text(pos_));
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) {
      Fail<ParseError>(fmt::format("{} {} is not a BIGINT", what, text));
    }
    pos_++;
    return value;
  }

  /// SEQUENCE [IF NOT EXISTS] name [options] after CREATE [OR REPLACE].
  ast::StatementPtr ParseCreateSequence(bool or_replace) {
    auto create = std::make_unique<ast::CreateSequenceStatement>();
    create->or_replace = or_replace;
    if (AcceptWord("if")) {
      ExpectWord("not");
      ExpectWord("exists");
      create->if_not_exists = true;
    }
    if (or_replace && create->if_not_exists)
      Fail<ParseError>("CREATE OR REPLACE SEQUENCE cannot have IF NOT EXISTS");
    create->name = Name("a sequence name");
    std::set<std::string> given;
    while (pos_ < last_) {
      const std::string option = Lower(std::string(Text(pos_)));
      if (!given
               .insert(option == "no" && pos_ + 1 < last_ ? Lower(std::string(Text(pos_ + 1)))
                                                          : option)
               .second) {
        Fail<ParseError>(fmt::format("{} is given twice", Found()));
      }
      if (AcceptWord("start")) {
        AcceptWord("with");
        create->start = Integer("START");
      } else if (AcceptWord("increment")) {
        AcceptWord("by");
        create->increment = Integer("INCREMENT");
      } else if (AcceptWord("minvalue")) {
        create->min_value = Integer("MINVALUE");
      } else if (AcceptWord("maxvalue")) {
        create->max_value = Integer("MAXVALUE");
      } else if (AcceptWord("cycle")) {
        create->cycle = true;
      } else if (AcceptWord("no")) {
        if (!AcceptWord("minvalue") && !AcceptWord("maxvalue") && !AcceptWord("cycle"))
          Fail<ParseError>(
              fmt::format("expected MINVALUE, MAXVALUE or CYCLE after NO but found {}", Found()));
      } else {
        Fail<ParseError>(fmt::format(
            "expected START, INCREMENT, MINVALUE, MAXVALUE, CYCLE or NO but found {}", Found()));
      }
    }
    return create;
  }

  /// MACRO | FUNCTION name(a, b := expr, ...) AS expr after CREATE [OR REPLACE] [TEMP].
  ast::StatementPtr ParseCreateMacro(bool or_replace, bool temporary) {
    auto create = std::make_unique<ast::CreateMacroStatement>();
    create->or_replace = or_replace;
    create->temporary = temporary;
    create->name = Name("a macro name");
    Expect('(');
    std::set<std::string> names;
    if (!Accept(')')) {
      do {
        const std::string name = Name("a parameter name");
        if (!names.insert(name).second)
          Fail<BinderError>(fmt::format("parameter '{}' is given twice", name));
        if (pos_ < last_ && (Text(pos_) == ":=" || Text(pos_) == "=>")) {
          pos_++;
          create->defaults.emplace_back(name, DefaultExpression(false));
        } else if (!create->defaults.empty()) {
          Fail<BinderError>(
              fmt::format("parameter '{}' without a default follows one with a default", name));
        } else {
          create->parameters.push_back(name);
        }
      } while (Accept(','));
      Expect(')');
    }
    ExpectWord("as");
    if (AcceptWord("table")) {
      // A table macro: one query, used in FROM (bind_macro.cpp). Its body is stored as
      // "TABLE <query>"; names in it may be columns as well as parameters.
      if (pos_ >= last_) Fail<ParseError>("expected the macro's query after AS TABLE");
      const std::string query =
          sql_.substr(tokens_[pos_].start, tokens_[last_ - 1].end - tokens_[pos_].start);
      auto parsed = Parser::Parse(query);
      if (parsed.size() != 1 || parsed[0]->kind != ast::StatementKind::kSelect) {
        Fail<ParseError>("the body of a table macro must be one query");
      }
      create->body = "TABLE " + query;
      pos_ = last_;
      return create;
    }
    if (pos_ >= last_) Fail<ParseError>("expected the macro's expression after AS");
    create->body = sql_.substr(tokens_[pos_].start, tokens_[last_ - 1].end - tokens_[pos_].start);
    // One expression, checked now; it is bound where the macro is called.
    auto parsed = Parser::Parse("SELECT " + create->body);
    if (parsed.size() != 1 || parsed[0]->kind != ast::StatementKind::kSelect) {
      Fail<ParseError>("the body of a macro must be one expression");
    }
    const auto& query = *static_cast<ast::SelectStatement&>(*parsed[0]).query;
    if (query.kind != ast::QueryNodeKind::kSelect ||
        static_cast<const ast::SelectNode&>(query).select_list.size() != 1 ||
        static_cast<const ast::SelectNode&>(query).from) {
      Fail<ParseError>("the body of a macro must be one expression");
    }
    // Names in the body are its parameters (DuckDB binds the body when it is created).
    std::function<void(const ast::Expr&)> check = [&](const ast::Expr& e) {
      if (e.kind == ast::ExprKind::kSubquery)
        Fail<NotSupportedError>("subqueries in macros are not supported");
      if (e.kind == ast::ExprKind::kColumnRef) {
        const auto& ref = static_cast<const ast::ColumnRefExpr&>(e);
        if (ref.names.size() != 1 || !names.count(ref.names[0])) {
          Fail<BinderError>(
              fmt::format("the body of macro {} names '{}', which is none of its "
                          "parameters",
                          create->name, ref.ToString()));
        }
      }
      ast::ForEachChild(e, check);
    };
    check(*static_cast<const ast::SelectNode&>(query).select_list[0].expr);
    pos_ = last_;
    return create;
  }

  /// DROP SEQUENCE | MACRO | FUNCTION [IF EXISTS] name.
  ast::StatementPtr ParseDrop() {
    if (AcceptWord("schema")) {
      auto drop = std::make_unique<ast::SchemaStatement>(ast::StatementKind::kDropSchema);
      if (AcceptWord("if")) {
        ExpectWord("exists");
        drop->if_exists = true;
      }
      drop->name = Name("a schema name");
      if (AcceptWord("cascade")) {
        drop->cascade = true;
      } else {
        AcceptWord("restrict");
      }
      return drop;
    }
    ast::StatementKind kind = ast::StatementKind::kDropSequence;
    if (!AcceptWord("sequence")) {
      if (!AcceptWord("macro")) ExpectWord("function");
      kind = ast::StatementKind::kDropMacro;
    }
    auto drop = std::make_unique<ast::DropObjectStatement>(kind);
    if (AcceptWord("if")) {
      ExpectWord("exists");
      drop->if_exists = true;
    }
    drop->name =
        Name(kind == ast::StatementKind::kDropSequence ? "a sequence name" : "a macro name");
    return drop;
  }

  ast::StatementPtr ParseCreate() {
    if (AcceptWord("table")) return ParseCreateTable(false);
    if (AcceptWord("schema")) {
      auto create = std::make_unique<ast::SchemaStatement>(ast::StatementKind::kCreateSchema);
      if (AcceptWord("if")) {
        ExpectWord("not");
        ExpectWord("exists");
        create->if_exists = true;
      }
      create->name = Name("a schema name");
      return create;
    }
    bool or_replace = false;
    if (AcceptWord("or")) {
      ExpectWord("replace");
      or_replace = true;
    }
    const bool temporary = AcceptWord("temp") || AcceptWord("temporary");
    if (!temporary && AtWord("schema")) {
      auto create = ParseCreate();
      static_cast<ast::SchemaStatement&>(*create).or_replace = or_replace;
      return create;
    }
    if (AcceptWord("table")) {
      if (!temporary && !or_replace) Fail<ParseError>("expected TABLE after CREATE");
      auto create = ParseCreateTable(temporary);
      static_cast<ast::CreateTableStatement&>(*create).or_replace = or_replace;
      return create;
    }
    if (AcceptWord("macro") || AcceptWord("function"))
      return ParseCreateMacro(or_replace, temporary);
    if (!temporary && AcceptWord("sequence")) return ParseCreateSequence(or_replace);
    if (temporary) Fail<NotSupportedError>("only macros may be TEMP");
    ExpectWord("external");
    ExpectWord("table");
    auto create = std::make_unique<ast::CreateExternalTableStatement>();
    if (AcceptWord("if")) {
      ExpectWord("not");
      ExpectWord("exists");
      create->if_not_exists = true;
    }
    create->name_location = Here();
    create->name = Name("a table name");
    if (pos_ < last_ && tokens_[pos_].token == '(') {
      create->columns = ColumnList(true);
      create->columns_declared = true;
    }
    bool stored = false, partitioned = false;
    while (pos_ < last_) {
      if (AcceptWord("stored")) {
        ExpectWord("as");
        ExpectParquet(&stored, "only STORED AS PARQUET is supported");
      } else if (AcceptWord("partitioned")) {
        create->partition_columns = PartitionedBy(&partitioned);
      } else if (AcceptWord("location")) {
        if (create->location_offset >= 0) Fail<ParseError>("LOCATION is given twice");
        std::string_view text = pos_ < last_ ? Text(pos_) : std::string_view();
        if (pos_ >= last_ || tokens_[pos_].token != PG_QUERY__TOKEN__SCONST ||
            text.front() != '\'') {
          Fail<ParseError>(
              fmt::format("expected a quoted directory after LOCATION but found {}", Found()));
        }
        create->location_offset = tokens_[pos_].start;
        for (size_t i = 1; i + 1 < text.size(); i++) {
          create->location += text[i];
          if (text[i] == '\'') i++;  // '' is one quote
        }
        pos_++;
      } else {
        Fail<ParseError>(fmt::format(
            "expected STORED AS PARQUET, PARTITIONED BY (...) or LOCATION 'dir' but found {}",
            Found()));
      }
    }
    if (create->location_offset < 0) {
      Fail<ParseError>("CREATE EXTERNAL TABLE needs LOCATION 'directory'");
    }
    return create;
  }

  const std::string& sql_;
  const std::vector<SqlToken>& tokens_;
  size_t pos_;
  size_t last_;
  std::vector<std::string>* checks_ = nullptr;  // CREATE TABLE's, while its columns are parsed
  std::vector<ast::CreateTableStatement::ForeignKey>* foreign_keys_ = nullptr;  // likewise
};

}  // namespace

ast::StatementPtr ParseCatalogStatement(const std::string& sql, const std::vector<SqlToken>& tokens,
                                        size_t first, size_t last) {
  return CatalogParser(sql, tokens, first, last).Parse();
}

}  // namespace shears::parser_internal
