#pragma once
// What one connection (a session) remembers between its statements for the functions that
// depend on it: the last value nextval gave for each sequence, which currval returns (per
// session, as in DuckDB and PostgreSQL: another connection's nextval does not change it).

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace shears {

class Value;

class SessionState {
 public:
  /// `sequence` is the lower-case name.
  void SetLastSequenceValue(const std::string& sequence, int64_t value);
  std::optional<int64_t> LastSequenceValue(const std::string& sequence) const;

  /// SET schema / search_path: where unqualified names are looked up first and created
  /// (lower-case; "main" by default).
  void SetCurrentSchema(const std::string& schema);
  std::string current_schema() const;
  /// USE db: the attached database unqualified names mean ("" for the database itself).
  void SetCurrentDatabase(const std::string& database);
  std::string current_database() const;

  /// The values of the statement a prepared EXECUTE runs ($1 is [0]), null otherwise: every
  /// binder of the statement takes them (writes bind their queries with binders of their own).
  /// Set and read by the connection's thread only.
  void SetParameters(const std::vector<Value>* values) { parameters_ = values; }
  const std::vector<Value>* parameters() const { return parameters_; }

  /// The session whose statement this thread binds (null outside one: tests binding alone).
  static std::shared_ptr<SessionState> Current();

  /// Makes `session` the current one of this thread for its lifetime.
  class Scope {
   public:
    explicit Scope(std::shared_ptr<SessionState> session);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::shared_ptr<SessionState> previous_;
  };

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int64_t> last_sequence_values_;
  std::string current_schema_ = "main";
  std::string current_database_;
  const std::vector<Value>* parameters_ = nullptr;
};

}  // namespace shears
