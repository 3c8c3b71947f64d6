#include "expression/lambda.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/list.h"
#include "expression/expression_executor.h"

namespace shears {

namespace {

/// The batch the body runs on: parameter columns, then the captured ones.
Batch MakeLambdaBatch(const LambdaBody& lambda, const std::vector<LogicalType>& param_types,
                      const std::vector<const Vector*>& args) {
  std::vector<LogicalType> types = param_types;
  for (size_t c = 0; c < lambda.captures; c++)
    types.push_back(args[lambda.first_capture + c]->type());
  return Batch(types);
}

/// Copies each captured column's value of row `rows[i]` to row i of the batch.
void GatherCaptures(const LambdaBody& lambda, const std::vector<const Vector*>& args,
                    const uint32_t* rows, idx_t n, Batch& batch) {
  for (size_t c = 0; c < lambda.captures; c++) {
    Vector& column = batch.column(lambda.params + c);
    column.Reset();
    column.CopyRows(*args[lambda.first_capture + c], rows, n);
  }
}

/// Calls `consume(result, n, rows, raw)` for the body's values over every element of every
/// non-NULL list of args[0], kBatchSize elements at a time, in row and element order: `rows`
/// gives each element's row, `raw` its bytes in the list.
template <typename Consume>
void ForEachElementBatch(const LambdaBody& lambda, const LogicalType& result_type,
                         const std::vector<const Vector*>& args, idx_t count, Consume consume) {
  std::vector<LogicalType> param_types = {lambda.element};
  if (lambda.params == 2) param_types.push_back(LogicalType::Bigint());
  Batch batch = MakeLambdaBatch(lambda, param_types, args);
  Vector result(result_type);
  std::vector<uint32_t> rows(kBatchSize);
  std::vector<std::string_view> raw(kBatchSize);
  const Vector& lists = *args[0];
  const auto* bytes = lists.data<StringRef>();
  idx_t n = 0;
  auto flush = [&] {
    if (n == 0) return;
    GatherCaptures(lambda, args, rows.data(), n, batch);
    batch.SetSize(n);
    ExpressionExecutor::Execute(*lambda.body, batch, result);
    consume(result, n, rows.data(), raw.data());
    n = 0;
    batch.column(0).Reset();
  };
  for (idx_t r = 0; r < count; r++) {
    if (lists.IsNull(r)) continue;
    ListReader reader(lambda.element, bytes[r].view());
    int64_t position = 0;
    while (reader.Next()) {
      reader.WriteTo(batch.column(0), n);
      if (lambda.params == 2) batch.column(1).data<int64_t>()[n] = ++position;
      rows[n] = static_cast<uint32_t>(r);
      raw[n] = reader.raw();
      if (++n == kBatchSize) flush();
    }
  }
  flush();
}

/// Writes each row's list (NULL where args[0] is NULL).
void WriteLists(const Vector& lists, const std::vector<ListWriter>& writers, idx_t count,
                Vector& result) {
  auto* out = result.data<StringRef>();
  for (idx_t r = 0; r < count; r++) {
    if (lists.IsNull(r)) {
      result.validity().SetNull(r);
    } else {
      out[r] = result.AddString(writers[r].bytes());
    }
  }
}

}  // namespace

ScalarKernel MakeListTransformKernel(LambdaBody lambda, LogicalType result_element) {
  return [lambda = std::move(lambda), result_element](const std::vector<const Vector*>& args,
                                                      idx_t count, Vector& result) {
    std::vector<ListWriter> writers(count, ListWriter(result_element));
    ForEachElementBatch(
        lambda, result_element, args, count,
        [&](const Vector& values, idx_t n, const uint32_t* rows, const std::string_view*) {
          for (idx_t i = 0; i < n; i++)
            writers[rows[i]].AppendFrom(values, i);
        });
    WriteLists(*args[0], writers, count, result);
  };
}

ScalarKernel MakeListFilterKernel(LambdaBody lambda) {
  return [lambda = std::move(lambda)](const std::vector<const Vector*>& args, idx_t count,
                                      Vector& result) {
    std::vector<ListWriter> writers(count, ListWriter(lambda.element));
    ForEachElementBatch(
        lambda, LogicalType::Boolean(), args, count,
        [&](const Vector& keep, idx_t n, const uint32_t* rows, const std::string_view* raw) {
          const auto* values = keep.data<uint8_t>();
          for (idx_t i = 0; i < n; i++) {
            if (!keep.IsNull(i) && values[i]) writers[rows[i]].AppendRaw(raw[i]);
          }
        });
    WriteLists(*args[0], writers, count, result);
  };
}

ScalarKernel MakeListReduceKernel(LambdaBody lambda, LogicalType accumulator, bool has_initial) {
  return [lambda = std::move(lambda), accumulator, has_initial](
             const std::vector<const Vector*>& args, idx_t count, Vector& result) {
    const Vector& lists = *args[0];
    const auto* bytes = lists.data<StringRef>();
    // Every element, decoded once, in a vector of the element type: row r's are at
    // [offset[r], offset[r] + length[r]).
    std::vector<idx_t> offset(count, 0);
    std::vector<idx_t> length(count, 0);
    idx_t total = 0;
    for (idx_t r = 0; r < count; r++) {
      if (lists.IsNull(r)) continue;
      ListReader reader(lambda.element, bytes[r].view());
      offset[r] = total;
      while (reader.Next())
        length[r]++;
      total += length[r];
      if (length[r] == 0 && !has_initial) {
        throw InvalidInputError(
            "list_reduce: cannot reduce an empty list without an initial value");
      }
    }
    Vector elements(lambda.element, std::max<idx_t>(total, 1));
    elements.validity().Resize(std::max<idx_t>(total, 1));
    for (idx_t r = 0; r < count; r++) {
      if (lists.IsNull(r) || length[r] == 0) continue;
      ListReader reader(lambda.element, bytes[r].view());
      for (idx_t pos = offset[r]; reader.Next(); pos++)
        reader.WriteTo(elements, pos);
    }

    std::vector<LogicalType> param_types = {accumulator, lambda.element};
    if (lambda.params == 3) param_types.push_back(LogicalType::Bigint());
    Batch batch = MakeLambdaBatch(lambda, param_types, args);
    Vector acc(accumulator);  // the accumulators of `active`, in that order
    Vector next(accumulator);
    std::vector<uint32_t> active;
    std::vector<uint32_t> sel;
    // Rows start from the initial value before element 1, or from element 1 before element 2.
    const idx_t first = has_initial ? 0 : 1;
    for (idx_t r = 0; r < count; r++) {
      if (lists.IsNull(r)) {
        result.validity().SetNull(r);
      } else if (length[r] == first) {
        WriteValue(result, r,
                   has_initial ? ReadValue(*args[1], r) : ReadValue(elements, offset[r]));
      } else {
        active.push_back(static_cast<uint32_t>(r));
      }
    }
    if (active.empty()) return;
    if (has_initial) {
      acc.CopyRows(*args[1], active.data(), active.size());
    } else {
      for (uint32_t r : active)
        sel.push_back(static_cast<uint32_t>(offset[r]));
      acc.CopyRows(elements, sel.data(), sel.size());
    }
    for (idx_t step = first; !active.empty(); step++) {
      const idx_t n = active.size();
      batch.column(0).Reset();
      batch.column(0).Reference(acc);
      sel.clear();
      for (uint32_t r : active)
        sel.push_back(static_cast<uint32_t>(offset[r] + step));
      batch.column(1).Reset();
      batch.column(1).CopyRows(elements, sel.data(), n);
      if (lambda.params == 3) {
        auto* index = batch.column(2).data<int64_t>();
        for (idx_t i = 0; i < n; i++)
          index[i] = static_cast<int64_t>(step + 1);
      }
      GatherCaptures(lambda, args, active.data(), n, batch);
      batch.SetSize(n);
      ExpressionExecutor::Execute(*lambda.body, batch, next);
      // Rows whose last element this was are done; the others carry on.
      std::vector<uint32_t> still;
      sel.clear();
      for (idx_t i = 0; i < n; i++) {
        const uint32_t r = active[i];
        if (length[r] == step + 1) {
          WriteValue(result, r, ReadValue(next, i));
        } else {
          still.push_back(r);
          sel.push_back(static_cast<uint32_t>(i));
        }
      }
      batch.column(0).Reset();
      acc.Reset();
      acc.CopyRows(next, sel.data(), sel.size());
      active = std::move(still);
    }
  };
}

}  // namespace shears
