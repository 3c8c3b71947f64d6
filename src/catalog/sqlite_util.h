#pragma once
// SQLite as the catalog uses it: prepared statements and transactions whose errors are the
// engine's typed errors. For src/catalog/ only.

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/error.h"
#include "common/string_util.h"

namespace shears::sqlite {

/// A prepared statement, finalized on scope exit; errors carry SQLite's message.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) Fail();
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(int index, const std::string& text) {
    Check(sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                            SQLITE_TRANSIENT));
    return *this;
  }
  Statement& Bind(int index, const std::optional<std::string>& text) {
    if (text) return Bind(index, *text);
    Check(sqlite3_bind_null(stmt_, index));
    return *this;
  }
  Statement& Bind(int index, int64_t value) {
    Check(sqlite3_bind_int64(stmt_, index, value));
    return *this;
  }
  Statement& Bind(int index, const std::optional<int64_t>& value) {
    if (value) return Bind(index, *value);
    Check(sqlite3_bind_null(stmt_, index));
    return *this;
  }
  bool IsNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
  /// True while there is a row.
  bool Step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) Fail();
    return false;
  }
  void Run() {
    while (Step()) {
    }
    sqlite3_reset(stmt_);
  }
  std::string Text(int column) const {
    const auto* text = sqlite3_column_text(stmt_, column);
    return text ? std::string(reinterpret_cast<const char*>(text),
                              static_cast<size_t>(sqlite3_column_bytes(stmt_, column)))
                : std::string();
  }
  int64_t Int(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::optional<std::string> OptionalText(int column) const {
    if (sqlite3_column_type(stmt_, column) == SQLITE_NULL) return std::nullopt;
    return Text(column);
  }

 private:
  void Check(int rc) {
    if (rc != SQLITE_OK) Fail();
  }
  [[noreturn]] void Fail() {
    int code = sqlite3_errcode(db_);
    std::string message = sqlite3_errmsg(db_);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) {
      throw CorruptFileError("the catalog (catalog.db) is damaged: {}", message);
    }
    throw IOError("catalog: {}", message);
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// BEGIN IMMEDIATE ... COMMIT, rolled back when an exception leaves the scope. Inside a
/// transaction the SQL BEGIN opened (Catalog::BeginTransaction) it is a savepoint instead, so
/// a failed statement is undone alone (the connection then refuses all but ROLLBACK / COMMIT
/// when the error aborts the transaction: Connection::RunStatement).
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db), nested_(sqlite3_get_autocommit(db) == 0) {
    Exec(nested_ ? "SAVEPOINT shears_statement" : "BEGIN IMMEDIATE");
  }
  ~Transaction() {
    if (committed_) return;
    sqlite3_exec(db_,
                 nested_ ? "ROLLBACK TO shears_statement; RELEASE shears_statement" : "ROLLBACK",
                 nullptr, nullptr, nullptr);
  }
  void Commit() {
    Exec(nested_ ? "RELEASE shears_statement" : "COMMIT");
    committed_ = true;
  }

 private:
  void Exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
      std::string message = error ? error : "unknown error";
      sqlite3_free(error);
      throw IOError("catalog: {} failed: {}", sql, message);
    }
  }
  sqlite3* db_;
  bool nested_;
  bool committed_ = false;
};

/// DELETE FROM `table` WHERE name = lower(name): BinderError "<what> 'name' does not exist"
/// when there is none and not `if_exists`.
inline void DeleteNamed(sqlite3* db, const char* table, const std::string& name, bool if_exists,
                        const char* what) {
  Statement remove(db, fmt::format("DELETE FROM {} WHERE name = ?", table).c_str());
  remove.Bind(1, AsciiLower(name)).Run();
  if (sqlite3_changes(db) == 0 && !if_exists)
    throw BinderError("{} '{}' does not exist", what, name);
}
}  // namespace shears::sqlite
