#pragma once
// `column OP constant` filters selected straight into a selection vector: no boolean vector, no
// vector of the constant filled per batch, and a conjunction of them narrows one selection
// without compacting the batch between its terms. The table scan's filters are mostly of this
// form (`ss_quantity BETWEEN 1 AND 20` is two of them).

#include <optional>

#include "common/vector.h"
#include "expression/expression.h"

namespace shears {

/// Whether `predicate` is `#i OP constant` or `constant OP #i` (OP one of = <> != < <= > >=)
/// with a non-NULL constant of the column's own type: what SelectConstantComparison handles.
bool IsConstantComparison(const BoundExpr& predicate);

/// Of the rows `rows[0..count)` of `input` (all rows 0..count when `rows` is null), writes those
/// where `predicate` (IsConstantComparison) is TRUE to `out`, in order, and returns how many.
/// `out` may be `rows` itself.
idx_t SelectConstantComparison(const BoundExpr& predicate, const Batch& input,
                               const uint32_t* rows, idx_t count, uint32_t* out);

}  // namespace shears
