#include "execution/operator/join_output.h"

#include <cstring>

namespace shears {

void SetNullRows(Vector& v, idx_t count) {
  if (v.capacity() < count) v.Reserve(count);
  std::memset(v.raw_data(), 0, count * v.type().value_size());
  for (idx_t i = 0; i < count; i++)
    v.validity().SetNull(i);
}

void EmitRowsDecidedPerLeftRow(JoinKind kind, Batch& input, const uint8_t* found, uint32_t* sel,
                               Batch& output) {
  const idx_t n = input.size();
  const idx_t left_columns = input.column_count();
  uint8_t want;
  switch (kind) {
    case JoinKind::kLeft:
    case JoinKind::kFull:
    case JoinKind::kAnti:
      want = 0;
      break;
    case JoinKind::kSemi:
      want = 1;
      break;
    default:
      return;
  }
  idx_t count = 0;
  for (idx_t i = 0; i < n; i++) {
    if ((found[i] != 0) == (want != 0)) sel[count++] = static_cast<uint32_t>(i);
  }
  if (count == 0) return;
  for (idx_t c = 0; c < left_columns; c++) {
    if (count == n) {
      output.column(c).Reference(input.column(c));
    } else {
      output.column(c).CopyRows(input.column(c), sel, count);
    }
  }
  for (idx_t c = left_columns; c < output.column_count(); c++)
    SetNullRows(output.column(c), count);
  output.SetSize(count);
}

}  // namespace shears
