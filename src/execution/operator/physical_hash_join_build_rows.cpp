// HASH_JOIN: the joins whose output includes build rows decided after the whole probe side
// ran: the unmatched build rows of RIGHT, FULL and RIGHT_ANTI joins, the matched ones of
// RIGHT_SEMI joins, and the probe that marks the build rows of RIGHT_SEMI/RIGHT_ANTI joins.

#include <atomic>

#include "execution/operator/join_output.h"
#include "execution/operator/physical_hash_join.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

// Marks a build row matched; several probe threads may mark the same row.
void Mark(uint8_t* flag) {
  std::atomic_ref<uint8_t> ref(*flag);
  if (ref.load(std::memory_order_relaxed) == 0) ref.store(1, std::memory_order_relaxed);
}

bool Marked(const uint8_t* flag) {
  return std::atomic_ref<uint8_t>(*const_cast<uint8_t*>(flag)).load(std::memory_order_relaxed);
}

}  // namespace

void PhysicalHashJoin::MarkBuildMatches(const JoinHashTable& table, Batch& input,
                                        const uint32_t* rows, idx_t count, uint8_t* const* heads,
                                        std::vector<uint32_t>& pair_probe,
                                        std::vector<uint8_t*>& pair_build, Batch& pairs,
                                        SelectionVector& sel) const {
  const uint32_t matched_offset = table.matched_offset();
  if (!residual_) {
    // Every row of a chain has the probe row's keys: all match. A chain is marked whole, so a
    // marked head means the chain is done (the common case once a key was seen).
    for (idx_t k = 0; k < count; k++) {
      for (uint8_t* row = heads[rows[k]]; row && !Marked(row + matched_offset);
           row = JoinHashTable::Next(row)) {
        Mark(row + matched_offset);
      }
    }
    return;
  }
  // With a residual: the pairs of the probe rows and the build rows not yet marked (a marked
  // row needs no other partner), checked a batch of pairs at a time.
  const RowLayout& layout = table.layout();
  const idx_t left_columns = input.column_count();
  const idx_t key_count = right_keys_.size();
  idx_t k = 0;
  uint8_t* resume = nullptr;
  while (k < count) {
    idx_t n = 0;
    while (k < count && n < kBatchSize) {
      uint8_t* row = resume ? resume : heads[rows[k]];
      for (; row && n < kBatchSize; row = JoinHashTable::Next(row)) {
        if (Marked(row + matched_offset)) continue;
        pair_probe[n] = rows[k];
        pair_build[n] = row;
        n++;
      }
      resume = row;  // non-null: the batch is full in the middle of this chain
      if (!row) k++;
    }
    if (n == 0) continue;
    pairs.Reset();
    for (idx_t c = 0; c < left_columns; c++)
      pairs.column(c).CopyRows(input.column(c), pair_probe.data(), n);
    for (idx_t c = key_count; c < layout.types.size(); c++) {
      Vector& out = pairs.column(left_columns + c - key_count);
      GatherColumn(layout, c, pair_build.data(), n, out);
      if (out.type().IsString()) table.rows().KeepArenasAlive(out);
    }
    pairs.SetSize(n);
    const idx_t passed = ExpressionExecutor::Select(*residual_, pairs, sel);
    for (idx_t p = 0; p < passed; p++)
      Mark(pair_build[sel[p]] + matched_offset);
  }
}

bool PhysicalHashJoin::EmitBuildRows(const JoinHashTable& table, size_t blocks,
                                     std::atomic<size_t>* shared_next, size_t* own_next,
                                     std::vector<uint8_t*>& rows, Batch& out) const {
  const RowLayout& layout = table.layout();
  const uint32_t matched_offset = table.matched_offset();
  const idx_t key_count = right_keys_.size();
  const idx_t right_columns = layout.types.size() - key_count;
  const idx_t left_columns = out.column_count() - right_columns;  // 0 for RIGHT_SEMI/ANTI
  const bool want_matched = join_kind_ == JoinKind::kRightSemi;
  while (true) {
    const size_t b = shared_next ? shared_next->fetch_add(1) : (*own_next)++;
    if (b >= blocks) return false;
    const auto& block = table.rows().blocks()[b];
    idx_t count = 0;
    for (uint32_t i = 0; i < block.count; i++) {
      uint8_t* row = block.data + static_cast<size_t>(i) * layout.row_width;
      if (Marked(row + matched_offset) == want_matched) rows[count++] = row;
    }
    if (count == 0) continue;
    for (idx_t c = 0; c < left_columns; c++)
      SetNullRows(out.column(c), count);
    for (idx_t c = 0; c < right_columns; c++) {
      Vector& column = out.column(left_columns + c);
      GatherColumn(layout, key_count + c, rows.data(), count, column);
      if (column.type().IsString()) table.rows().KeepArenasAlive(column);
    }
    out.SetSize(count);
    return true;
  }
}

}  // namespace shears
