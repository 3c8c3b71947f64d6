#include "storage/dictionary_filter.h"

#include <algorithm>

#include "expression/expression_executor.h"

namespace shears {

DictionaryFilter::DictionaryFilter(const BoundExpr& filter) : filter_(filter) {
  if (!CannotFail(filter)) return;  // evaluated on entries no row may hold
  bool reads_string = false;
  VisitExpression(const_cast<BoundExpr&>(filter), [&](BoundExpr& e) {
    if (e.kind != BoundExprKind::kReference) return;
    reads_string = reads_string || e.type.IsString();
    const idx_t index = static_cast<const BoundReference&>(e).index;
    if (std::find(columns_.begin(), columns_.end(), index) == columns_.end()) {
      columns_.push_back(index);
    }
  });
  // Comparing integers row by row costs about what recording their codes does: only filters
  // reading a string pay for it.
  usable_ = reads_string;
}

bool DictionaryFilter::Select(const Batch& batch,
                              const std::vector<const parquet::DictionaryCodes*>& codes,
                              const uint32_t* in_sel, idx_t in_count, uint32_t* out_sel,
                              idx_t* out_count) {
  // Each column's entries and NULL.
  idx_t combinations = 1;
  for (const auto* c : codes) {
    combinations *= c->size + 1;
    if (combinations > kMaxCombinations) return false;
  }
  bool same = dictionaries_.size() == codes.size();
  for (size_t i = 0; same && i < codes.size(); i++)
    same = dictionaries_[i] == codes[i]->dictionary;
  if (!same) BuildTable(batch, codes, combinations);

  const uint8_t* table = table_.data();
  idx_t kept = 0;
  if (codes.size() == 1) {
    const uint32_t* c = codes[0]->codes.data();
    for (idx_t k = 0; k < in_count; k++) {
      const uint32_t row = in_sel[k];
      out_sel[kept] = row;
      kept += table[c[row]];
    }
  } else {
    // Column by column: each pass is a plain loop over one code array.
    index_.resize(in_count);
    uint32_t* index = index_.data();
    const uint32_t* c0 = codes[0]->codes.data();
    for (idx_t k = 0; k < in_count; k++)
      index[k] = c0[in_sel[k]];
    for (size_t i = 1; i < codes.size(); i++) {
      const uint32_t* c = codes[i]->codes.data();
      const uint32_t stride = strides_[i];
      for (idx_t k = 0; k < in_count; k++)
        index[k] += c[in_sel[k]] * stride;
    }
    for (idx_t k = 0; k < in_count; k++) {
      out_sel[kept] = in_sel[k];
      kept += table[index[k]];
    }
  }
  *out_count = kept;
  return true;
}

void DictionaryFilter::BuildTable(const Batch& batch,
                                  const std::vector<const parquet::DictionaryCodes*>& codes,
                                  idx_t combinations) {
  dictionaries_.clear();
  strides_.clear();
  uint32_t stride = 1;
  for (const auto* c : codes) {
    dictionaries_.push_back(c->dictionary);
    strides_.push_back(stride);
    stride *= static_cast<uint32_t>(c->size + 1);
  }
  // Combination r takes entry (r / stride) % (size + 1) of each column, the last being NULL.
  Batch values(batch.types(), kBatchSize);
  std::vector<uint32_t> entries(combinations);
  for (size_t i = 0; i < codes.size(); i++) {
    const idx_t size = codes[i]->size;
    for (idx_t r = 0; r < combinations; r++) {
      const idx_t entry = (r / strides_[i]) % (size + 1);
      entries[r] = entry == size ? 0 : static_cast<uint32_t>(entry);  // row 0 always exists
    }
    Vector& column = values.column(columns_[i]);
    column.CopyRows(*codes[i]->dictionary, entries.data(), combinations);
    for (idx_t r = 0; r < combinations; r++) {
      if ((r / strides_[i]) % (size + 1) == size) column.validity().SetNull(r);
    }
  }
  values.SetSize(combinations);
  SelectionVector sel(kBatchSize);
  const idx_t selected = ExpressionExecutor::Select(filter_, values, sel);
  table_.assign(combinations, 0);
  for (idx_t k = 0; k < selected; k++)
    table_[sel[k]] = 1;
}

}  // namespace shears
