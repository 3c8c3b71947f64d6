#pragma once
// Output rows the join operators (HASH_JOIN, NESTED_LOOP_JOIN) build alike: NULL columns for
// the side without a match, and the rows decided per left row once all its matches are known.

#include <cstdint>

#include "common/vector.h"
#include "planner/logical_plan.h"

namespace shears {

/// Sets rows [0, count) of `v` to NULL (zeroed values, so nothing reads garbage).
void SetNullRows(Vector& v, idx_t count);

/// After every match of the rows of `input` is known (`found[i]` != 0: left row i matched):
/// LEFT and FULL joins emit the unmatched rows with NULL right columns, SEMI the matched rows,
/// ANTI the unmatched ones; other kinds emit nothing. `sel` is scratch space for
/// input.size() entries.
void EmitRowsDecidedPerLeftRow(JoinKind kind, Batch& input, const uint8_t* found, uint32_t* sel,
                               Batch& output);

}  // namespace shears
