#include "common/session.h"

#include <utility>

namespace shears {

namespace {
thread_local std::shared_ptr<SessionState> current_session;
}  // namespace

void SessionState::SetLastSequenceValue(const std::string& sequence, int64_t value) {
  std::lock_guard<std::mutex> lock(mutex_);
  last_sequence_values_[sequence] = value;
}

std::optional<int64_t> SessionState::LastSequenceValue(const std::string& sequence) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = last_sequence_values_.find(sequence);
  if (it == last_sequence_values_.end()) return std::nullopt;
  return it->second;
}

void SessionState::SetCurrentSchema(const std::string& schema) {
  std::lock_guard<std::mutex> lock(mutex_);
  current_schema_ = schema;
}

std::string SessionState::current_schema() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_schema_;
}

void SessionState::SetCurrentDatabase(const std::string& database) {
  std::lock_guard<std::mutex> lock(mutex_);
  current_database_ = database;
}

std::string SessionState::current_database() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_database_;
}

std::shared_ptr<SessionState> SessionState::Current() {
  return current_session;
}

SessionState::Scope::Scope(std::shared_ptr<SessionState> session)
    : previous_(std::exchange(current_session, std::move(session))) {}

SessionState::Scope::~Scope() {
  current_session = std::move(previous_);
}

}  // namespace shears
