#pragma once
// `column OP constant` filters selected straight into a selection vector: no boolean vector, no
// vector of the constant filled per batch, and a conjunction of them narrows one selection
// without compacting the batch between its terms. The table scan's filters are mostly of this
// form (`ss_quantity BETWEEN 1 AND 20` is two of them).

#include <memory>
#include <optional>
#include <vector>

#include "common/vector.h"
#include "expression/expression.h"

namespace shears {

/// Whether `predicate` is `#i OP constant` or `constant OP #i` (OP one of = <> != < <= > >=)
/// with a non-NULL constant of the column's own type: what SelectConstantComparison handles.
bool IsConstantComparison(const BoundExpr& predicate);

/// For a `predicate` IsConstantComparison accepts: splits the rows rows[0..count) of `input`
/// (rows null: 0..count) into those where it is TRUE, written to `out`, and the others (FALSE
/// or NULL), written to `rest`, both in order; returns how many went to `out`. One typed
/// pass, no boolean vector and no vector of the constant: a CASE's WHEN.
idx_t SplitConstantComparison(const BoundExpr& predicate, const Batch& input, const uint32_t* rows,
                              idx_t count, uint32_t* out, uint32_t* rest);

/// For a `predicate` IsConstantComparison accepts: writes the rows 0..count of `input` where it
/// is TRUE to `out`, in order, and returns how many (a filter above a join or aggregate).
idx_t SelectConstantComparison(const BoundExpr& predicate, const Batch& input, idx_t count,
                               uint32_t* out);

/// For a `predicate` IsConstantComparison accepts: its value on the rows 0..count of `input`
/// into the BOOLEAN `result`, NULL where the column is (a comparison in a select list, or under
/// OR / NOT): one typed pass instead of a vector of the constant and the generic kernel.
void EvaluateConstantComparison(const BoundExpr& predicate, const Batch& input, idx_t count,
                                Vector& result);

/// The `column OP constant` conjuncts among a scan's filters, prepared once per scan: each
/// term's operator, column and constant in the column's physical type, so a batch costs one
/// selection loop per term and nothing else. Two terms bounding one column from below
/// (`>`, `>=`) and above (`<`, `<=`), as a BETWEEN is bound, are fused into one range term
/// selected in one pass over the rows.
class ConstantComparisons {
 public:
  ConstantComparisons() = default;
  /// Takes the filters that IsConstantComparison (the others are the caller's to evaluate).
  explicit ConstantComparisons(const std::vector<const BoundExpr*>& filters);
  ConstantComparisons(ConstantComparisons&&) = default;
  ConstantComparisons& operator=(ConstantComparisons&&) = default;

  /// Whether filter `f` is one of the prepared terms.
  bool Covers(size_t f) const { return f < covers_.size() && covers_[f]; }
  /// Of the rows 0..count of `input`, writes those passing every prepared filter f (but those
  /// with skip[f], when `skip` is given: already applied by the caller) to `out`, in order,
  /// and returns how many; `*selected` says whether any term ran (else `out` is untouched and
  /// count is returned).
  idx_t Select(const Batch& input, const std::vector<bool>* skip, idx_t count, uint32_t* out,
               bool* selected) const;

  // Public for the implementation's helpers.
  enum class Op { kEq, kNe, kLt, kLe, kGt, kGe };
  struct Term {
    idx_t column = 0;
    size_t filter = 0;        // the filter of the first bound (the lower one of a range)
    size_t upper_filter = 0;  // a range's upper bound's filter
    bool range = false;
    Op op = Op::kEq;                    // a range: the lower bound's (kGt or kGe)
    Op upper_op = Op::kLt;              // a range: the upper bound's (kLt or kLe)
    std::shared_ptr<Vector> constants;  // row 0: the constant (a range's lower), row 1: upper
  };

 private:
  std::vector<Term> terms_;
  std::vector<bool> covers_;
};

}  // namespace shears
