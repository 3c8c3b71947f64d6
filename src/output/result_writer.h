#pragma once
// Writes result rows for people and tools: boxed tables, CSV (RFC 4180) and JSON lines.
// The same writers serve `shears cat` and query results.

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "common/vector.h"

namespace shears {

/// kTable: a box with cells cut at 40 characters; kBox: a box fitted to a width (the shell's,
/// see BoxStyle); kCsv: RFC 4180; kJson: one object per line.
enum class OutputFormat { kTable, kCsv, kJson, kBox };

/// Parses "box", "table", "csv" or "json"; throws InvalidInputError naming the bad value.
OutputFormat ParseOutputFormat(const std::string& name);

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  virtual void Begin(const std::vector<std::string>& names,
                     const std::vector<LogicalType>& types) = 0;
  virtual void Write(const Batch& batch) = 0;
  virtual void End() = 0;

  /// `box_width`: the line width kBox fits (0: no limit).
  static std::unique_ptr<ResultWriter> Make(OutputFormat format, std::ostream& out,
                                            size_t box_width = 0);
};

/// CSV field quoting per RFC 4180: quoted when empty, or holding , " CR LF, or leading/trailing
/// blanks. NULL is written as an empty unquoted field.
std::string CsvEscape(const std::string& field);
/// JSON string literal with escapes.
std::string JsonQuote(const std::string& text);

}  // namespace shears
