#pragma once
// Writes result rows for people and tools: boxed tables, CSV (RFC 4180) and JSON lines.
// The same writers serve `shears cat` and query results.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "common/vector.h"

namespace shears {

enum class OutputFormat { kTable, kCsv, kJson };

/// Parses "table", "csv" or "json"; throws InvalidInputError naming the bad value.
OutputFormat ParseOutputFormat(const std::string& name);

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  virtual void Begin(const std::vector<std::string>& names,
                     const std::vector<LogicalType>& types) = 0;
  virtual void Write(const Batch& batch) = 0;
  virtual void End() = 0;

  static std::unique_ptr<ResultWriter> Make(OutputFormat format, std::ostream& out);
};

/// CSV field quoting per RFC 4180: quoted when empty, or holding , " CR LF, or leading/trailing
/// blanks. NULL is written as an empty unquoted field.
std::string CsvEscape(const std::string& field);
/// JSON string literal with escapes.
std::string JsonQuote(const std::string& text);

}  // namespace shears
