#pragma once
// The kinds of join, below every layer that reasons about them: the plans (planner/), and which
// side of which join a dynamic filter may prune (dynfilter/join_legality.h).

namespace shears {

// kRightSemi/kRightAnti are SEMI/ANTI with the sides swapped (build_side makes them): the
// output is the right child's rows that some left row matches (or none does).
enum class JoinKind {
  kInner,
  kLeft,
  kRight,
  kFull,
  kSemi,
  kAnti,
  kMark,
  kCross,
  kRightSemi,
  kRightAnti
};
const char* JoinKindName(JoinKind kind);

}  // namespace shears
