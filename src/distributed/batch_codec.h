#pragma once
// Batches as bytes, for sending rows between processes (the gather of src/distributed):
// per batch its row count, then per column the validity bits when some row is NULL and the
// values (fixed-width ones as they lie in memory, strings as lengths then bytes).

#include <string>
#include <string_view>

#include "common/vector.h"
#include "execution/column_data.h"

namespace shears {

/// Appends `batch` to `out`.
void EncodeBatch(const Batch& batch, std::string& out);
/// Appends the batches EncodeBatch wrote into `data` to `rows` (whose types they must have);
/// InternalError when the bytes are not such batches.
void DecodeBatches(std::string_view data, ColumnDataCollection& rows);

}  // namespace shears
