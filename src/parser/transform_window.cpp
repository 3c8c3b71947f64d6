// Window specifications: OVER (...) and WINDOW w AS (...), with their frame clauses.

#include <fmt/format.h>

#include "common/error.h"
#include "parser/transformer.h"

namespace shears::parser_internal {

namespace {

// PostgreSQL's FRAMEOPTION_* bits (nodes/parsenodes.h), as libpg_query passes them.
constexpr int kFrameNonDefault = 0x00001;
constexpr int kFrameRange = 0x00002;
constexpr int kFrameRows = 0x00004;
constexpr int kFrameGroups = 0x00008;
constexpr int kFrameStartUnboundedPreceding = 0x00020;
constexpr int kFrameEndUnboundedPreceding = 0x00040;
constexpr int kFrameStartUnboundedFollowing = 0x00080;
constexpr int kFrameEndUnboundedFollowing = 0x00100;
constexpr int kFrameStartCurrentRow = 0x00200;
constexpr int kFrameEndCurrentRow = 0x00400;
constexpr int kFrameStartOffsetPreceding = 0x00800;
constexpr int kFrameEndOffsetPreceding = 0x01000;
constexpr int kFrameStartOffsetFollowing = 0x02000;
constexpr int kFrameEndOffsetFollowing = 0x04000;
constexpr int kFrameExcludeCurrentRow = 0x08000;
constexpr int kFrameExcludeGroup = 0x10000;
constexpr int kFrameExcludeTies = 0x20000;

ast::FrameBoundKind BoundKind(int options, bool start) {
  if (options & (start ? kFrameStartUnboundedPreceding : kFrameEndUnboundedPreceding)) {
    return ast::FrameBoundKind::kUnboundedPreceding;
  }
  if (options & (start ? kFrameStartUnboundedFollowing : kFrameEndUnboundedFollowing)) {
    return ast::FrameBoundKind::kUnboundedFollowing;
  }
  if (options & (start ? kFrameStartOffsetPreceding : kFrameEndOffsetPreceding)) {
    return ast::FrameBoundKind::kOffsetPreceding;
  }
  if (options & (start ? kFrameStartOffsetFollowing : kFrameEndOffsetFollowing)) {
    return ast::FrameBoundKind::kOffsetFollowing;
  }
  (void)kFrameStartCurrentRow;
  (void)kFrameEndCurrentRow;
  return ast::FrameBoundKind::kCurrentRow;
}

}  // namespace

ast::WindowSpec Transformer::TransformWindowDef(const PgQuery__WindowDef* def) {
  ast::WindowSpec spec;
  spec.location = Loc(def->location);
  if (def->name != nullptr) spec.name = def->name;
  if (def->refname != nullptr) spec.refname = def->refname;
  for (size_t i = 0; i < def->n_partition_clause; i++)
    spec.partition_by.push_back(TransformExpr(def->partition_clause[i]));
  for (size_t i = 0; i < def->n_order_clause; i++)
    spec.order_by.push_back(TransformSortBy(def->order_clause[i]));
  const int options = def->frame_options;
  spec.has_frame = (options & kFrameNonDefault) != 0;
  if (!spec.has_frame) return spec;
  spec.unit = (options & kFrameRows)     ? ast::FrameUnit::kRows
              : (options & kFrameGroups) ? ast::FrameUnit::kGroups
                                         : ast::FrameUnit::kRange;
  (void)kFrameRange;
  spec.start = BoundKind(options, true);
  spec.end = BoundKind(options, false);
  if (!IsNull(def->start_offset)) spec.start_offset = TransformExpr(def->start_offset);
  if (!IsNull(def->end_offset)) spec.end_offset = TransformExpr(def->end_offset);
  spec.exclude = (options & kFrameExcludeCurrentRow) ? ast::FrameExclude::kCurrentRow
                 : (options & kFrameExcludeGroup)    ? ast::FrameExclude::kGroup
                 : (options & kFrameExcludeTies)     ? ast::FrameExclude::kTies
                                                     : ast::FrameExclude::kNoOthers;
  return spec;
}

}  // namespace shears::parser_internal
