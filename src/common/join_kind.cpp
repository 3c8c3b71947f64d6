#include "common/join_kind.h"

namespace shears {

const char* JoinKindName(JoinKind kind) {
  switch (kind) {
    case JoinKind::kInner:
      return "INNER";
    case JoinKind::kLeft:
      return "LEFT";
    case JoinKind::kRight:
      return "RIGHT";
    case JoinKind::kFull:
      return "FULL";
    case JoinKind::kSemi:
      return "SEMI";
    case JoinKind::kAnti:
      return "ANTI";
    case JoinKind::kMark:
      return "MARK";
    case JoinKind::kCross:
      return "CROSS";
    case JoinKind::kRightSemi:
      return "RIGHT_SEMI";
    case JoinKind::kRightAnti:
      return "RIGHT_ANTI";
  }
  return "?";
}

}  // namespace shears
