#pragma once
// A scan filter over dictionary-encoded columns, evaluated once per combination of their
// dictionaries' entries (and NULL) instead of once per row: rows are then kept by looking
// their codes up in the table of answers. `cd_marital_status = 'M' AND cd_education_status =
// 'College'` over two dictionaries of 5 and 7 entries is 48 evaluations per row group instead of
// two string comparisons per row.

#include <cstdint>
#include <memory>
#include <vector>

#include "common/vector.h"
#include "expression/expression.h"
#include "storage/parquet/column_reader.h"

namespace shears {

class DictionaryFilter {
 public:
  /// Combinations of entries evaluated at most (one batch).
  static constexpr idx_t kMaxCombinations = kBatchSize;

  /// `filter` reads columns of the scan's batches (BoundReference by position).
  explicit DictionaryFilter(const BoundExpr& filter);

  /// False when the filter cannot be evaluated on values no row holds (it could fail, e.g.
  /// a cast: see CannotFail) or reads no string column.
  bool usable() const { return usable_; }
  /// The batch columns the filter reads, in the order Select takes their codes.
  const std::vector<idx_t>& columns() const { return columns_; }

  /// Keeps the rows of in_sel[0..in_count) (rows of `batch` as read) where the filter is TRUE,
  /// writing them to out_sel (may be in_sel) and their number to *out_count. `codes[i]` are the
  /// codes of columns()[i]. Returns false, changing nothing, when there are too many
  /// combinations.
  bool Select(const Batch& batch, const std::vector<const parquet::DictionaryCodes*>& codes,
              const uint32_t* in_sel, idx_t in_count, uint32_t* out_sel, idx_t* out_count);

 private:
  /// Evaluates the filter over every combination of the dictionaries' entries into table_.
  void BuildTable(const Batch& batch, const std::vector<const parquet::DictionaryCodes*>& codes,
                  idx_t combinations);

  const BoundExpr& filter_;
  bool usable_ = false;
  std::vector<idx_t> columns_;
  // The dictionaries table_ was built for (kept alive so the identity cannot be reused) and the
  // stride of each column's code in a combination's index.
  std::vector<std::shared_ptr<const Vector>> dictionaries_;
  std::vector<uint32_t> strides_;
  std::vector<uint8_t> table_;   // by combination: 1 when the filter is TRUE
  std::vector<uint32_t> index_;  // Select's combination of each row
};

}  // namespace shears
