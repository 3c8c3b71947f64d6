#include "common/list.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "common/error.h"
#include "common/interval.h"
#include "common/string_util.h"
#include "common/vector.h"

namespace shears {
namespace {

// Bytes of a fixed-width element's key (its value's width); 0 for the variable-width strings.
int FixedWidth(const LogicalType& element) {
  const PhysicalType physical = element.physical();
  if (physical == PhysicalType::kString || physical == PhysicalType::kInvalid) return 0;
  return static_cast<int>(element.value_size());
}

uint128_t SignedKey(int128_t value, int width) {
  // Flipping the sign bit makes two's complement order unsigned order.
  const uint128_t sign = uint128_t{1} << (width * 8 - 1);
  uint128_t bits = static_cast<uint128_t>(value);
  if (width < 16) bits &= (uint128_t{1} << (width * 8)) - 1;
  return bits ^ sign;
}

int128_t SignedFromKey(uint128_t key, int width) {
  const uint128_t sign = uint128_t{1} << (width * 8 - 1);
  key ^= sign;
  if (width < 16 && (key & sign)) key |= ~((uint128_t{1} << (width * 8)) - 1);  // sign-extend
  return static_cast<int128_t>(key);
}

uint64_t DoubleKey(double value) {
  if (value == 0) value = 0;  // -0 equals 0
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  // Negative numbers: all bits flipped (larger magnitude sorts first); others: the sign bit.
  return (bits >> 63) ? ~bits : bits ^ (uint64_t{1} << 63);
}

double DoubleFromKey(uint64_t key) {
  uint64_t bits = (key >> 63) ? key ^ (uint64_t{1} << 63) : ~key;
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

// DuckDB quotes an element string that would not read back as itself.
bool NeedsQuotes(std::string_view text) {
  if (text.empty()) return true;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  if (space(text.front()) || space(text.back())) return true;
  if (text.size() == 4 && EqualsAsciiLower(text, "null")) return true;
  for (char c : text) {
    switch (c) {
      case ',':
      case ':':
      case '{':
      case '}':
      case '(':
      case ')':
      case '[':
      case ']':
      case '\'':
      case '"':
      case '=':
        return true;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

void ListWriter::AppendFixed(uint128_t key, int width) {
  bytes_.push_back(kValueTag);
  for (int i = width - 1; i >= 0; i--)
    bytes_.push_back(static_cast<char>(static_cast<uint8_t>(key >> (i * 8))));
}

void AppendEscapedElement(std::string* out, std::string_view bytes) {
  out->push_back(ListWriter::kValueTag);
  for (char c : bytes) {
    out->push_back(c);
    if (c == 0) out->push_back(static_cast<char>(0xFF));
  }
  out->push_back(0);
  out->push_back(0);
}

void ListWriter::AppendString(std::string_view text) {
  AppendEscapedElement(&bytes_, text);
}

void ListWriter::AppendValue(const Value& value) {
  if (value.is_null()) return AppendNull();
  const int width = FixedWidth(element_);
  switch (element_.physical()) {
    case PhysicalType::kBool:
      return AppendFixed(value.GetBoolean() ? 1 : 0, 1);
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      return AppendFixed(SignedKey(value.GetInt64(), width), width);
    case PhysicalType::kInt128:
      return AppendFixed(SignedKey(value.GetInt128(), width), width);
    case PhysicalType::kDouble:
      return AppendFixed(DoubleKey(value.GetDouble()), 8);
    case PhysicalType::kString:
      return AppendString(value.GetString());
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("a list element of type {}", element_.ToString());
}

void ListWriter::AppendFrom(const Vector& vector, idx_t row) {
  if (vector.IsNull(row)) return AppendNull();
  switch (element_.physical()) {
    case PhysicalType::kBool:
      return AppendFixed(vector.data<uint8_t>()[row] ? 1 : 0, 1);
    case PhysicalType::kInt32:
      return AppendFixed(SignedKey(vector.data<int32_t>()[row], 4), 4);
    case PhysicalType::kInt64:
      return AppendFixed(SignedKey(vector.data<int64_t>()[row], 8), 8);
    case PhysicalType::kInt128:
      return AppendFixed(SignedKey(vector.data<int128_t>()[row], 16), 16);
    case PhysicalType::kDouble:
      return AppendFixed(DoubleKey(vector.data<double>()[row]), 8);
    case PhysicalType::kString:
      return AppendString(vector.data<StringRef>()[row].view());
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("a list element of type {}", element_.ToString());
}

bool ListReader::Next() {
  if (pos_ >= bytes_.size()) return false;
  start_ = pos_;
  const char tag = bytes_[pos_++];
  if (tag == ListWriter::kNullTag) {
    null_ = true;
    return true;
  }
  if (tag != ListWriter::kValueTag) throw InternalError("malformed list value");
  null_ = false;
  payload_ = pos_;
  const int width = FixedWidth(element_);
  if (width > 0) {
    if (pos_ + static_cast<size_t>(width) > bytes_.size()) {
      throw InternalError("malformed list value");
    }
    pos_ += static_cast<size_t>(width);
    return true;
  }
  // A string: up to the 0x00 0x00 end (0x00 0xFF is an escaped zero byte).
  while (true) {
    if (pos_ + 1 >= bytes_.size()) throw InternalError("malformed list value");
    if (bytes_[pos_] == 0) {
      if (bytes_[pos_ + 1] == 0) {
        pos_ += 2;
        return true;
      }
      pos_ += 2;
    } else {
      pos_++;
    }
  }
}

uint128_t ListReader::ReadFixed(size_t offset, int width) const {
  uint128_t key = 0;
  for (int i = 0; i < width; i++)
    key = (key << 8) | static_cast<uint8_t>(bytes_[offset + static_cast<size_t>(i)]);
  return key;
}

std::string ListReader::DecodeString() const {
  std::string out;
  out.reserve(pos_ - payload_ - 2);
  const size_t stop = pos_ - 2;  // before the 0x00 0x00 end
  for (size_t i = payload_; i < stop; i++) {
    out.push_back(bytes_[i]);
    if (bytes_[i] == 0) i++;  // the 0xFF after an escaped zero
  }
  return out;
}

Value ListReader::GetValue() const {
  if (null_) return Value::Null(element_);
  const int width = FixedWidth(element_);
  switch (element_.id()) {
    case TypeId::kBoolean:
      return Value::Boolean(ReadFixed(payload_, 1) != 0);
    case TypeId::kInteger:
      return Value::Integer(static_cast<int32_t>(SignedFromKey(ReadFixed(payload_, 4), 4)));
    case TypeId::kDate:
      return Value::Date(static_cast<int32_t>(SignedFromKey(ReadFixed(payload_, 4), 4)));
    case TypeId::kBigint:
      return Value::Bigint(static_cast<int64_t>(SignedFromKey(ReadFixed(payload_, 8), 8)));
    case TypeId::kTimestamp:
      return Value::Timestamp(static_cast<int64_t>(SignedFromKey(ReadFixed(payload_, 8), 8)));
    case TypeId::kTime:
      return Value::Time(static_cast<int64_t>(SignedFromKey(ReadFixed(payload_, 8), 8)));
    case TypeId::kDecimal:
      return Value::Decimal(SignedFromKey(ReadFixed(payload_, width), width), element_.precision(),
                            element_.scale());
    case TypeId::kInterval:
      return Value::Interval(UnpackInterval(SignedFromKey(ReadFixed(payload_, 16), 16)));
    case TypeId::kDouble:
      return Value::Double(DoubleFromKey(static_cast<uint64_t>(ReadFixed(payload_, 8))));
    case TypeId::kFloat:
      return Value::Float(
          static_cast<float>(DoubleFromKey(static_cast<uint64_t>(ReadFixed(payload_, 8)))));
    case TypeId::kVarchar:
      return Value::Varchar(DecodeString());
    case TypeId::kBlob:
      return Value::Blob(DecodeString());
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return Value::ListFromBytes(element_, DecodeString());
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("a list element of type {}", element_.ToString());
}

void ListReader::WriteTo(Vector& vector, idx_t row) const {
  if (null_) {
    vector.validity().SetNull(row);
    return;
  }
  vector.validity().SetValid(row);
  switch (element_.physical()) {
    case PhysicalType::kBool:
      vector.data<uint8_t>()[row] = ReadFixed(payload_, 1) != 0;
      return;
    case PhysicalType::kInt32:
      vector.data<int32_t>()[row] = static_cast<int32_t>(SignedFromKey(ReadFixed(payload_, 4), 4));
      return;
    case PhysicalType::kInt64:
      vector.data<int64_t>()[row] = static_cast<int64_t>(SignedFromKey(ReadFixed(payload_, 8), 8));
      return;
    case PhysicalType::kInt128:
      vector.data<int128_t>()[row] = SignedFromKey(ReadFixed(payload_, 16), 16);
      return;
    case PhysicalType::kDouble:
      vector.data<double>()[row] = DoubleFromKey(static_cast<uint64_t>(ReadFixed(payload_, 8)));
      return;
    case PhysicalType::kString:
      vector.data<StringRef>()[row] = vector.AddString(DecodeString());
      return;
    case PhysicalType::kInvalid:
      break;
  }
  throw InternalError("a list element of type {}", element_.ToString());
}

std::string ListReader::Text() const {
  return GetValue().ToString();
}

std::string EncodeList(const LogicalType& element, const std::vector<Value>& values) {
  ListWriter writer(element);
  for (const auto& value : values)
    writer.AppendValue(value);
  return writer.bytes();
}

std::vector<Value> DecodeList(const LogicalType& element, std::string_view bytes) {
  std::vector<Value> out;
  ListReader reader(element, bytes);
  while (reader.Next())
    out.push_back(reader.GetValue());
  return out;
}

idx_t ListLength(const LogicalType& element, std::string_view bytes) {
  idx_t count = 0;
  ListReader reader(element, bytes);
  while (reader.Next())
    count++;
  return count;
}

namespace {

// One element or field as DuckDB prints it inside a nested value: nested values as their own
// text, other values quoted when they would not read back as themselves.
void AppendElementText(const ListReader& reader, const LogicalType& type, std::string* out) {
  if (reader.IsNull()) {
    *out += "NULL";
    return;
  }
  std::string text = reader.Text();
  if (type.IsNested() || !NeedsQuotes(text)) {
    *out += text;
    return;
  }
  *out += '\'';
  for (char c : text) {
    if (c == '\'' || c == '\\') *out += '\\';
    *out += c;
  }
  *out += '\'';
}

void AppendQuotedName(const std::string& name, std::string* out) {
  *out += '\'';
  for (char c : name) {
    if (c == '\'' || c == '\\') *out += '\\';
    *out += c;
  }
  *out += '\'';
}

}  // namespace

std::string ListToString(const LogicalType& element, std::string_view bytes) {
  std::string out = "[";
  ListReader reader(element, bytes);
  bool first = true;
  while (reader.Next()) {
    if (!first) out += ", ";
    first = false;
    AppendElementText(reader, element, &out);
  }
  out += ']';
  return out;
}

std::string EncodeStruct(const LogicalType& struct_type, const std::vector<Value>& fields) {
  const auto& types = struct_type.children();
  if (fields.size() != types.size()) {
    throw InternalError("{} fields for {}", fields.size(), struct_type.ToString());
  }
  std::string bytes;
  for (size_t i = 0; i < fields.size(); i++) {
    ListWriter field(types[i]);
    field.AppendValue(fields[i]);
    bytes += field.bytes();
  }
  return bytes;
}

std::vector<Value> DecodeStruct(const LogicalType& struct_type, std::string_view bytes) {
  const auto& types = struct_type.children();
  std::vector<Value> out;
  ListReader reader(LogicalType{}, bytes);
  for (const auto& type : types) {
    reader.set_element(type);
    if (!reader.Next()) throw InternalError("malformed struct value");
    out.push_back(reader.GetValue());
  }
  return out;
}

std::string_view StructFieldRaw(const LogicalType& struct_type, std::string_view bytes,
                                size_t field) {
  const auto& types = struct_type.children();
  ListReader reader(LogicalType{}, bytes);
  for (size_t i = 0; i <= field; i++) {
    reader.set_element(types[i]);
    if (!reader.Next()) throw InternalError("malformed struct value");
  }
  return reader.raw();
}

std::string NestedToString(const LogicalType& type, std::string_view bytes) {
  if (type.IsList()) return ListToString(type.element(), bytes);
  std::string out;
  if (type.IsMap()) {
    // DuckDB's {key=value, ...}.
    const LogicalType entry = type.element();
    const LogicalType key = type.children()[0], value = type.children()[1];
    out += '{';
    ListReader entries(entry, bytes);
    bool first = true;
    while (entries.Next()) {
      if (!first) out += ", ";
      first = false;
      if (entries.IsNull()) {
        out += "NULL";
        continue;
      }
      const Value struct_value = entries.GetValue();
      ListReader fields(key, struct_value.GetString());
      fields.Next();
      AppendElementText(fields, key, &out);
      out += '=';
      fields.set_element(value);
      fields.Next();
      AppendElementText(fields, value, &out);
    }
    return out + "}";
  }
  if (!type.IsStruct()) throw InternalError("{} is not a nested type", type.ToString());
  const auto& types = type.children();
  const auto& names = type.field_names();
  // row()'s unnamed fields print as a tuple (DuckDB's).
  const bool unnamed = !names.empty() && names[0].empty();
  out += unnamed ? '(' : '{';
  ListReader reader(LogicalType{}, bytes);
  for (size_t i = 0; i < types.size(); i++) {
    reader.set_element(types[i]);
    if (!reader.Next()) throw InternalError("malformed struct value");
    if (i > 0) out += ", ";
    if (!unnamed) {
      AppendQuotedName(names[i], &out);
      out += ": ";
    }
    AppendElementText(reader, types[i], &out);
  }
  // A one-field tuple keeps a trailing comma, (1,), as newer DuckDB prints it (Python's
  // spelling, telling it apart from a parenthesized value).
  if (unnamed && types.size() == 1) out += ',';
  return out + (unnamed ? ")" : "}");
}

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Reads one element of a list's or struct's text at body[*pos]: a quoted string (its content,
// unescaped), or the text up to the next comma (or `stop`) outside brackets, braces and quotes
// (a nested value's text, kept as written). Leaves *pos at the comma, `stop` or the end.
bool ReadElementText(std::string_view body, size_t* pos, char stop, std::string* element,
                     bool* quoted) {
  size_t p = *pos;
  while (p < body.size() && IsSpace(body[p]))
    p++;
  element->clear();
  *quoted = false;
  if (p < body.size() && (body[p] == '\'' || body[p] == '"')) {
    const char quote = body[p++];
    *quoted = true;
    while (true) {
      if (p >= body.size()) return false;
      char c = body[p++];
      if (c == '\\' && p < body.size()) {
        *element += body[p++];
      } else if (c == quote) {
        break;
      } else {
        *element += c;
      }
    }
    while (p < body.size() && IsSpace(body[p]))
      p++;
    if (p < body.size() && body[p] != ',' && body[p] != stop) return false;
    *pos = p;
    return true;
  }
  const size_t start = p;
  int depth = 0;
  while (p < body.size()) {
    const char c = body[p];
    if (depth == 0 && (c == ',' || c == stop)) break;
    if (c == '[' || c == '{' || c == '(') {
      depth++;
    } else if (c == ']' || c == '}' || c == ')') {
      if (--depth < 0) return false;
    } else if (c == '\'' || c == '"') {
      if (depth == 0) return false;  // a quote inside an unquoted scalar
      const char quote = c;
      for (p++; p < body.size() && body[p] != quote; p++) {
        if (body[p] == '\\') p++;
      }
      if (p >= body.size()) return false;
    }
    p++;
  }
  if (depth != 0) return false;
  size_t end = p;
  while (end > start && IsSpace(body[end - 1]))
    end--;
  *element = std::string(body.substr(start, end - start));
  *pos = p;
  return true;
}

// The text between `open` and `close`, trimmed; false when it is not so enclosed.
bool Enclosed(std::string_view text, char open, char close, std::string_view* body) {
  size_t begin = 0, end = text.size();
  while (begin < end && IsSpace(text[begin]))
    begin++;
  while (end > begin && IsSpace(text[end - 1]))
    end--;
  if (end - begin < 2 || text[begin] != open || text[end - 1] != close) return false;
  *body = text.substr(begin + 1, end - begin - 2);
  return true;
}

bool IsNullText(const std::string& element, bool quoted) {
  return !quoted && element.size() == 4 && EqualsAsciiLower(element, "null");
}

}  // namespace

bool SplitListText(std::string_view text, std::vector<std::string>* elements,
                   std::vector<bool>* is_null) {
  std::string_view body;
  if (!Enclosed(text, '[', ']', &body)) return false;
  size_t pos = 0;
  while (pos < body.size() && IsSpace(body[pos]))
    pos++;
  if (pos == body.size()) return true;  // []
  while (true) {
    std::string element;
    bool quoted = false;
    if (!ReadElementText(body, &pos, ',', &element, &quoted)) return false;
    const bool null = IsNullText(element, quoted);
    elements->push_back(null ? std::string() : std::move(element));
    is_null->push_back(null);
    if (pos >= body.size()) return true;
    pos++;  // the comma
  }
}

bool SplitStructText(std::string_view text, std::vector<std::string>* names,
                     std::vector<std::string>* values, std::vector<bool>* is_null) {
  std::string_view body;
  if (!Enclosed(text, '{', '}', &body)) return false;
  size_t pos = 0;
  while (pos < body.size() && IsSpace(body[pos]))
    pos++;
  if (pos == body.size()) return true;  // {}
  while (true) {
    std::string name, value;
    bool quoted = false;
    if (!ReadElementText(body, &pos, ':', &name, &quoted)) return false;
    if (pos >= body.size() || body[pos] != ':' || name.empty()) return false;
    pos++;
    if (!ReadElementText(body, &pos, ',', &value, &quoted)) return false;
    const bool null = IsNullText(value, quoted);
    names->push_back(std::move(name));
    values->push_back(null ? std::string() : std::move(value));
    is_null->push_back(null);
    if (pos >= body.size()) return true;
    pos++;  // the comma
  }
}

}  // namespace shears
