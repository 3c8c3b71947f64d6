#include "format/result_writer.h"

#include <algorithm>
#include <ostream>

#include "common/error.h"

namespace shears {

OutputFormat ParseOutputFormat(const std::string& name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "json") return OutputFormat::kJson;
  throw InvalidInputError("unknown output format '{}' (expected table, csv or json)", name);
}

std::string CsvEscape(const std::string& field) {
  bool quote = field.empty() || field.find_first_of(",\"\r\n") != std::string::npos ||
               field.front() == ' ' || field.front() == '\t' || field.back() == ' ' ||
               field.back() == '\t';
  if (!quote) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string JsonQuote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

namespace {

class CsvWriter : public ResultWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  void Begin(const std::vector<std::string>& names, const std::vector<LogicalType>&) override {
    for (size_t i = 0; i < names.size(); i++)
      out_ << (i ? "," : "") << CsvEscape(names[i]);
    out_ << '\n';
  }
  void Write(const Batch& batch) override {
    std::string line;
    for (idx_t row = 0; row < batch.size(); row++) {
      line.clear();
      for (idx_t c = 0; c < batch.column_count(); c++) {
        if (c) line += ',';
        const auto& column = batch.column(c);
        if (!column.IsNull(row)) line += CsvEscape(column.ValueToString(row));
      }
      line += '\n';
      out_ << line;
    }
  }
  void End() override { out_.flush(); }

 private:
  std::ostream& out_;
};

class JsonWriter : public ResultWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  void Begin(const std::vector<std::string>& names,
             const std::vector<LogicalType>& types) override {
    names_ = names;
    types_ = types;
  }
  void Write(const Batch& batch) override {
    for (idx_t row = 0; row < batch.size(); row++) {
      std::string line = "{";
      for (idx_t c = 0; c < batch.column_count(); c++) {
        if (c) line += ",";
        line += JsonQuote(names_[c]) + ":";
        const auto& column = batch.column(c);
        if (column.IsNull(row)) {
          line += "null";
          continue;
        }
        std::string text = column.ValueToString(row);
        const auto id = types_[c].id();
        bool bare = id == TypeId::kBoolean || id == TypeId::kInteger || id == TypeId::kBigint ||
                    id == TypeId::kDecimal ||
                    (id == TypeId::kDouble && text != "nan" && text != "inf" && text != "-inf");
        line += bare ? text : JsonQuote(text);
      }
      line += "}\n";
      out_ << line;
    }
  }
  void End() override { out_.flush(); }

 private:
  std::ostream& out_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
};

// Buffers rows to size the columns, then draws a box. Large results show the first and last
// rows, as interactive engines do, so a huge result never floods the terminal.
class TableWriter : public ResultWriter {
 public:
  static constexpr size_t kMaxRows = 40;
  static constexpr size_t kMaxWidth = 40;

  explicit TableWriter(std::ostream& out) : out_(out) {}
  void Begin(const std::vector<std::string>& names,
             const std::vector<LogicalType>& types) override {
    names_ = names;
    types_ = types;
  }
  void Write(const Batch& batch) override {
    for (idx_t row = 0; row < batch.size(); row++) {
      total_rows_++;
      std::vector<std::string> cells;
      for (idx_t c = 0; c < batch.column_count(); c++) {
        cells.push_back(batch.column(c).ValueToString(row));
      }
      if (head_.size() < kMaxRows / 2) {
        head_.push_back(std::move(cells));
      } else {
        tail_.push_back(std::move(cells));
        if (tail_.size() > kMaxRows / 2) tail_.erase(tail_.begin());
      }
    }
  }
  void End() override {
    const size_t n = names_.size();
    std::vector<size_t> widths(n);
    auto fit = [](const std::string& s) {
      return s.size() > kMaxWidth ? s.substr(0, kMaxWidth - 1) + "…" : s;
    };
    auto display_width = [](const std::string& s) {
      size_t w = 0;
      for (unsigned char c : s)
        w += (c & 0xC0) != 0x80;
      return w;
    };
    auto measure = [&](const std::vector<std::string>& row) {
      for (size_t c = 0; c < n; c++)
        widths[c] = std::max(widths[c], display_width(fit(row[c])));
    };
    std::vector<std::string> type_names;
    for (const auto& t : types_)
      type_names.push_back(t.ToString());
    measure(names_);
    measure(type_names);
    for (const auto& row : head_)
      measure(row);
    for (const auto& row : tail_)
      measure(row);
    auto rule = [&](const char* left, const char* mid, const char* right) {
      std::string line = left;
      for (size_t c = 0; c < n; c++) {
        for (size_t i = 0; i < widths[c] + 2; i++)
          line += "─";
        line += c + 1 < n ? mid : right;
      }
      out_ << line << '\n';
    };
    auto print = [&](const std::vector<std::string>& row) {
      std::string line = "│";
      for (size_t c = 0; c < n; c++) {
        std::string cell = fit(row[c]);
        bool right = types_[c].IsNumeric();
        size_t pad = widths[c] - display_width(cell);
        line += " ";
        if (right) line += std::string(pad, ' ');
        line += cell;
        if (!right) line += std::string(pad, ' ');
        line += " │";
      }
      out_ << line << '\n';
    };
    if (n == 0) {
      out_ << "(" << total_rows_ << " rows, no columns)\n";
      return;
    }
    rule("┌", "┬", "┐");
    print(names_);
    print(type_names);
    rule("├", "┼", "┤");
    for (const auto& row : head_)
      print(row);
    if (total_rows_ > head_.size() + tail_.size()) {
      std::vector<std::string> dots(n, "·");
      print(dots);
    }
    for (const auto& row : tail_)
      print(row);
    rule("└", "┴", "┘");
    out_ << total_rows_ << (total_rows_ == 1 ? " row" : " rows") << '\n';
    out_.flush();
  }

 private:
  std::ostream& out_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
  std::vector<std::vector<std::string>> head_, tail_;
  size_t total_rows_ = 0;
};

}  // namespace

std::unique_ptr<ResultWriter> ResultWriter::Make(OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kTable:
      return std::make_unique<TableWriter>(out);
    case OutputFormat::kCsv:
      return std::make_unique<CsvWriter>(out);
    case OutputFormat::kJson:
      return std::make_unique<JsonWriter>(out);
  }
  throw InternalError("unknown output format");
}

}  // namespace shears
