#pragma once
// The error types shears throws. User errors (bad SQL, bad files, bad options, unsupported
// features) are separate from internal errors (a broken invariant), so callers and tests can
// tell "the input was wrong" from "shears is wrong". Messages name the file, column or
// position that was wrong.

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace shears {

enum class ErrorKind {
  kInvalidInput,  // a bad argument, option or value given by the user
  kIO,            // a file could not be opened or read
  kCorruptFile,   // a file's bytes contradict its format
  kNotSupported,  // valid input using a feature shears does not implement
  kParse,         // malformed SQL
  kBinder,        // SQL that names unknown things or mixes types wrongly
  kOutOfRange,    // a value does not fit (overflow, bad cast)
  kOutOfMemory,   // the memory limit was reached
  kCancelled,     // the query was cancelled
  kConstraint,    // a write would break a table's NOT NULL, UNIQUE or PRIMARY KEY
  kTransaction,   // BEGIN / COMMIT / ROLLBACK out of turn, or a statement a transaction forbids
  kInternal,      // a bug in shears
};

const char* ErrorKindName(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  bool IsUserError() const { return kind_ != ErrorKind::kInternal; }

 private:
  ErrorKind kind_;
};

#define SHEARS_DEFINE_ERROR(Name, Kind)                                    \
  class Name : public Error {                                              \
   public:                                                                 \
    explicit Name(const std::string& message) : Error(Kind, message) {}    \
    template <typename... Args>                                            \
    Name(fmt::format_string<Args...> format, Args&&... args)               \
        : Error(Kind, fmt::format(format, std::forward<Args>(args)...)) {} \
  };

SHEARS_DEFINE_ERROR(InvalidInputError, ErrorKind::kInvalidInput)
SHEARS_DEFINE_ERROR(IOError, ErrorKind::kIO)
SHEARS_DEFINE_ERROR(CorruptFileError, ErrorKind::kCorruptFile)
SHEARS_DEFINE_ERROR(NotSupportedError, ErrorKind::kNotSupported)
SHEARS_DEFINE_ERROR(ParseError, ErrorKind::kParse)
SHEARS_DEFINE_ERROR(BinderError, ErrorKind::kBinder)
SHEARS_DEFINE_ERROR(OutOfRangeError, ErrorKind::kOutOfRange)
SHEARS_DEFINE_ERROR(OutOfMemoryError, ErrorKind::kOutOfMemory)
SHEARS_DEFINE_ERROR(CancelledError, ErrorKind::kCancelled)
SHEARS_DEFINE_ERROR(ConstraintError, ErrorKind::kConstraint)
SHEARS_DEFINE_ERROR(TransactionError, ErrorKind::kTransaction)
SHEARS_DEFINE_ERROR(InternalError, ErrorKind::kInternal)

#undef SHEARS_DEFINE_ERROR

/// Throws the error class of `kind` with `message`: for adding context (a query position) to
/// an error caught as Error without losing its type.
[[noreturn]] void ThrowError(ErrorKind kind, const std::string& message);

}  // namespace shears

/// Checks an invariant of shears itself; a failure is a bug, reported as InternalError.
#define SHEARS_CHECK(cond)                                                                \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      throw ::shears::InternalError("internal check failed: {} ({}:{})", #cond, __FILE__, \
                                    __LINE__);                                            \
    }                                                                                     \
  } while (0)
