#include "common/error.h"

namespace shears {

const char* ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidInput:
      return "Invalid Input Error";
    case ErrorKind::kIO:
      return "IO Error";
    case ErrorKind::kCorruptFile:
      return "Corrupt File Error";
    case ErrorKind::kNotSupported:
      return "Not Supported Error";
    case ErrorKind::kParse:
      return "Parser Error";
    case ErrorKind::kBinder:
      return "Binder Error";
    case ErrorKind::kOutOfRange:
      return "Out of Range Error";
    case ErrorKind::kOutOfMemory:
      return "Out of Memory Error";
    case ErrorKind::kCancelled:
      return "Cancelled";
    case ErrorKind::kConstraint:
      return "Constraint Error";
    case ErrorKind::kTransaction:
      return "TransactionContext Error";
    case ErrorKind::kInternal:
      return "Internal Error";
  }
  return "Error";
}

void ThrowError(ErrorKind kind, const std::string& message) {
  switch (kind) {
    case ErrorKind::kInvalidInput:
      throw InvalidInputError(message);
    case ErrorKind::kIO:
      throw IOError(message);
    case ErrorKind::kCorruptFile:
      throw CorruptFileError(message);
    case ErrorKind::kNotSupported:
      throw NotSupportedError(message);
    case ErrorKind::kParse:
      throw ParseError(message);
    case ErrorKind::kBinder:
      throw BinderError(message);
    case ErrorKind::kOutOfRange:
      throw OutOfRangeError(message);
    case ErrorKind::kOutOfMemory:
      throw OutOfMemoryError(message);
    case ErrorKind::kCancelled:
      throw CancelledError(message);
    case ErrorKind::kConstraint:
      throw ConstraintError(message);
    case ErrorKind::kTransaction:
      throw TransactionError(message);
    case ErrorKind::kInternal:
      break;
  }
  throw InternalError(message);
}

}  // namespace shears
