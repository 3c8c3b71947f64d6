#include "output/result_writer.h"

#include <algorithm>
#include <ostream>

#include "common/error.h"
#include "common/list.h"
#include "output/box_renderer.h"

namespace shears {

OutputFormat ParseOutputFormat(const std::string& name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "csv") return OutputFormat::kCsv;
  if (name == "json") return OutputFormat::kJson;
  if (name == "box") return OutputFormat::kBox;
  throw InvalidInputError("unknown output format '{}' (expected box, table, csv or json)", name);
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
        const auto id = types_[c].id();
        if (types_[c].IsNested()) {
          line += JsonNested(types_[c], column.data<StringRef>()[row].view());
          continue;
        }
        std::string text = column.ValueToString(row);
        bool bare = id == TypeId::kBoolean || id == TypeId::kInteger || id == TypeId::kBigint ||
                    id == TypeId::kDecimal ||
                    ((id == TypeId::kDouble || id == TypeId::kFloat) && text != "nan" &&
                     text != "inf" && text != "-inf");
        line += bare ? text : JsonQuote(text);
      }
      line += "}\n";
      out_ << line;
    }
  }
  void End() override { out_.flush(); }

 private:
  // One element or field: numbers and booleans bare, NULL null, nested values as JSON of
  // their own, the rest as strings.
  static std::string JsonElement(const ListReader& reader, const LogicalType& type) {
    if (reader.IsNull()) return "null";
    if (type.IsNested()) return JsonNested(type, reader.GetValue().GetString());
    const auto id = type.id();
    const std::string text = reader.Text();
    const bool bare = id == TypeId::kBoolean || id == TypeId::kInteger || id == TypeId::kBigint ||
                      id == TypeId::kDecimal ||
                      ((id == TypeId::kDouble || id == TypeId::kFloat) && text != "nan" &&
                       text != "inf" && text != "-inf");
    return bare ? text : JsonQuote(text);
  }

  // A LIST as a JSON array, a STRUCT as an object, a MAP as an object of its keys' text.
  static std::string JsonNested(const LogicalType& type, std::string_view bytes) {
    if (type.IsStruct()) {
      std::string out = "{";
      ListReader reader(LogicalType{}, bytes);
      for (size_t i = 0; i < type.children().size(); i++) {
        reader.set_element(type.children()[i]);
        reader.Next();
        if (i > 0) out += ",";
        out += JsonQuote(type.field_names()[i]) + ":" + JsonElement(reader, type.children()[i]);
      }
      return out + "}";
    }
    if (type.IsMap()) {
      std::string out = "{";
      bool first = true;
      for (const Value& entry : DecodeList(type.element(), bytes)) {
        if (entry.is_null()) continue;
        const std::string pair = entry.GetString();
        ListReader reader(type.children()[0], pair);
        reader.Next();
        if (!first) out += ",";
        first = false;
        out += JsonQuote(reader.Text()) + ":";
        reader.set_element(type.children()[1]);
        reader.Next();
        out += JsonElement(reader, type.children()[1]);
      }
      return out + "}";
    }
    std::string out = "[";
    ListReader reader(type.element(), bytes);
    bool first = true;
    while (reader.Next()) {
      if (!first) out += ",";
      first = false;
      out += JsonElement(reader, type.element());
    }
    return out + "]";
  }

  std::ostream& out_;
  std::vector<std::string> names_;
  std::vector<LogicalType> types_;
};

// Buffers the first and last rows to size the columns, then draws a box (BoxRenderer).
class BoxWriter : public ResultWriter {
 public:
  BoxWriter(std::ostream& out, BoxStyle style) : out_(out), style_(std::move(style)) {}
  void Begin(const std::vector<std::string>& names,
             const std::vector<LogicalType>& types) override {
    std::vector<std::string> type_names;
    std::vector<bool> right_align;
    for (const auto& t : types) {
      type_names.push_back(t.ToString());
      right_align.push_back(t.IsNumeric());
    }
    box_ =
        std::make_unique<BoxRenderer>(style_, names, std::move(type_names), std::move(right_align));
  }
  void Write(const Batch& batch) override {
    for (idx_t row = 0; row < batch.size(); row++) {
      std::vector<std::string> cells;
      for (idx_t c = 0; c < batch.column_count(); c++)
        cells.push_back(batch.column(c).ValueToString(row));
      box_->AddRow(std::move(cells));
    }
  }
  void End() override { box_->Render(out_); }

 private:
  std::ostream& out_;
  BoxStyle style_;
  std::unique_ptr<BoxRenderer> box_;
};

// `--format table`: cells cut at 40 characters, no width limit, as before the box mode.
BoxStyle TableStyle() {
  BoxStyle style;
  style.max_cell_width = 40;
  style.elided_rows_mark = "·";
  style.footer_shows_count = false;
  style.escape_control = false;
  return style;
}

}  // namespace

std::unique_ptr<ResultWriter> ResultWriter::Make(OutputFormat format, std::ostream& out,
                                                 size_t box_width) {
  switch (format) {
    case OutputFormat::kTable:
      return std::make_unique<BoxWriter>(out, TableStyle());
    case OutputFormat::kBox: {
      BoxStyle style;
      style.max_width = box_width;
      return std::make_unique<BoxWriter>(out, style);
    }
    case OutputFormat::kCsv:
      return std::make_unique<CsvWriter>(out);
    case OutputFormat::kJson:
      return std::make_unique<JsonWriter>(out);
  }
  throw InternalError("unknown output format");
}

}  // namespace shears
