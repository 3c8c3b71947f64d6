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
    case ErrorKind::kInternal:
      return "Internal Error";
  }
  return "Error";
}

}  // namespace shears
