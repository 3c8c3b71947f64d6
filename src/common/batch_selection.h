#pragma once
// Pending selections between operators (Batch::SetSelection): the buffers they live in and
// handing a batch's rows on by reference instead of copying its columns.

#include <memory>
#include <vector>

#include "common/vector.h"

namespace shears {

/// Hands out selection buffers, reusing one no batch shows any more (an operator's output is
/// reset before its next batch, so a few suffice).
class SelectionPool {
 public:
  /// A buffer of `size` entries that no one else holds.
  std::shared_ptr<std::vector<uint32_t>> Get(idx_t size);

 private:
  std::vector<std::shared_ptr<std::vector<uint32_t>>> buffers_;
};

/// Makes `output` show `input`'s columns (by reference, with their pending selections)
/// restricted to input rows `rows[0..count)`: each column's selection becomes those rows
/// through its own, no values are copied; columns that share a selection share the composed
/// one. `output` must be reset and have at least input's columns, of the same types.
void ReferenceSelected(const Batch& input, const uint32_t* rows, idx_t count, Batch& output,
                       SelectionPool& pool);

/// Flattens the columns in `columns` (those an operator's expressions read: the expression
/// executor reads a vector's rows in order), leaving the others' selections pending.
void FlattenColumns(Batch& batch, const std::vector<idx_t>& columns);

}  // namespace shears
