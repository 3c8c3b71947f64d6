#include "common/batch_selection.h"

#include <algorithm>

namespace shears {

std::shared_ptr<std::vector<uint32_t>> SelectionPool::Get(idx_t size) {
  for (auto& buffer : buffers_) {
    if (buffer.use_count() == 1) {
      buffer->resize(size);
      return buffer;
    }
  }
  // Every buffer is still shown downstream: a new one, kept for later batches (a handful at
  // most: each stage of a pipeline holds one batch).
  buffers_.push_back(std::make_shared<std::vector<uint32_t>>(size));
  return buffers_.back();
}

void ReferenceSelected(const Batch& input, const uint32_t* rows, idx_t count, Batch& output,
                       SelectionPool& pool) {
  const bool all = count == input.size();
  // Columns mostly share a selection (a join's probe side's, or none): each distinct one is
  // composed once. Few are distinct, so a list searched in order serves.
  std::vector<std::pair<const std::vector<uint32_t>*, Batch::Selection>> composed;
  for (idx_t c = 0; c < input.column_count(); c++) {
    output.column(c).Reference(input.column(c));
    const Batch::Selection& in = input.selection(c);
    if (all) {
      output.SetSelection(c, in);
      continue;
    }
    auto it = std::find_if(composed.begin(), composed.end(),
                           [&](const auto& entry) { return entry.first == in.get(); });
    if (it == composed.end()) {
      auto sel = pool.Get(count);
      if (in) {
        for (idx_t r = 0; r < count; r++)
          (*sel)[r] = (*in)[rows[r]];
      } else {
        std::copy(rows, rows + count, sel->begin());
      }
      composed.emplace_back(in.get(), std::move(sel));
      it = composed.end() - 1;
    }
    output.SetSelection(c, it->second);
  }
  output.SetSize(count);
}

void FlattenColumns(Batch& batch, const std::vector<idx_t>& columns) {
  if (!batch.HasSelection()) return;
  for (idx_t c : columns)
    batch.FlattenColumn(c);
}

}  // namespace shears
