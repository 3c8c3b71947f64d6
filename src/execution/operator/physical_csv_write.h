#pragma once
// COPY ... TO 'x.csv' (FORMAT csv): the sink that writes the query's rows as CSV text (RFC
// 4180 quoting: a field is quoted when it holds the delimiter, the quote, a line break or
// blanks at its ends, or is an empty string; NULL is an empty unquoted field, or nullstr).
// Each thread formats its batches into a buffer of its own and appends it to the file under a
// lock, so rows from one thread (an ORDER BY's output) keep their order.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "execution/physical_operator.h"

namespace shears {

struct CsvWriteSpec {
  std::string path;  // the file written (the statement renames it into place)
  std::vector<std::string> names;
  char delimiter = ',';
  char quote = '"';
  char escape = '"';
  bool header = true;
  std::string null_string;
  bool gzip = false;
};

class PhysicalCsvWrite : public PhysicalOperator {
 public:
  PhysicalCsvWrite(std::vector<LogicalType> types, CsvWriteSpec spec);
  bool IsSink() const override { return true; }
  std::unique_ptr<GlobalSinkState> GetGlobalSinkState(ExecutionContext& context) const override;
  std::unique_ptr<LocalSinkState> GetLocalSinkState(ExecutionContext& context) const override;
  bool Sink(ExecutionContext& context, Batch& input, GlobalSinkState& global,
            LocalSinkState& local) const override;
  void Combine(ExecutionContext& context, GlobalSinkState& global,
               LocalSinkState& local) const override;
  void Finalize(ExecutionContext& context, GlobalSinkState& global) const override;
  std::string Describe() const override;
  /// Rows written, after execution.
  static int64_t RowsWritten(ExecutionContext& context, const PhysicalOperator& op);

 private:
  CsvWriteSpec spec_;
};

}  // namespace shears
