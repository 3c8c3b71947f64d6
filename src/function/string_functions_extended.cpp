// String functions beyond string_functions.cpp, with DuckDB's names and answers: overlay,
// bar, format_bytes (and its aliases), and the path functions parse_path / parse_dirname /
// parse_dirpath / parse_filename.

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "common/list.h"
#include "common/utf8.h"
#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

using Args = std::vector<const Vector*>;

const LogicalType kVarchar = LogicalType::Varchar();
const LogicalType kBigint = LogicalType::Bigint();
const LogicalType kDouble = LogicalType::Double();
const LogicalType kBoolean = LogicalType::Boolean();

std::string_view TextAt(const Vector& v, idx_t row) {
  return v.data<StringRef>()[row].view();
}

/// Byte offset of code point `n` (0-based) of `s`, clamped to its end.
size_t CodePointByte(std::string_view s, int64_t n) {
  size_t pos = 0;
  while (n > 0 && pos < s.size()) {
    pos += Utf8SequenceLength(static_cast<unsigned char>(s[pos]));
    n--;
  }
  return std::min(pos, s.size());
}

// ---- overlay ----

/// overlay(s PLACING r FROM f [FOR n]): s's code points before f, then r, then those from f + n
/// on; n defaults to r's length, and so does a negative n (DuckDB). Positions before 1 keep
/// nothing before r.
std::string Overlay(std::string_view s, std::string_view r, int64_t from, int64_t length) {
  if (length < 0) length = Utf8Length(r);
  // In 128 bits: FROM and FOR are any BIGINTs.
  const int64_t n = Utf8Length(s);
  const auto head = static_cast<int64_t>(std::clamp<int128_t>(int128_t{from} - 1, 0, n));
  const auto tail_start =
      static_cast<int64_t>(std::clamp<int128_t>(int128_t{from} - 1 + length, 0, n));
  std::string out(s.substr(0, CodePointByte(s, head)));
  out.append(r);
  out.append(s.substr(CodePointByte(s, tail_start)));
  return out;
}

void OverlayKernel(const Args& in, idx_t count, Vector& result) {
  StringRef* out = result.data<StringRef>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    const int64_t from = in[2]->data<int64_t>()[row];
    const int64_t length = in.size() > 3 ? in[3]->data<int64_t>()[row] : -1;
    out[row] = result.AddString(Overlay(TextAt(*in[0], row), TextAt(*in[1], row), from, length));
  });
}

// ---- bar ----

/// bar(x, min, max [, width]): x's share of [min, max] as a bar of `width` (default 80)
/// characters, in eighths of a block (DuckDB's), padded with spaces to the whole width.
std::string Bar(double x, double min, double max, double max_width) {
  if (!std::isfinite(max_width)) {
    throw OutOfRangeError("bar: the width must not be NaN or infinity");
  }
  if (max_width < 1) throw OutOfRangeError("bar: the width must be >= 1, not {}", max_width);
  if (max_width > 1000) throw OutOfRangeError("bar: the width must be <= 1000, not {}", max_width);
  double width;
  if (std::isnan(x) || std::isnan(min) || std::isnan(max) || x <= min) {
    width = 0;
  } else if (x >= max) {
    width = max_width;
  } else {
    width = max_width * (x - min) / (max - min);
  }
  if (!std::isfinite(width)) {
    throw OutOfRangeError("bar: the width of the bar of {} in [{}, {}] is not a number", x, min,
                          max);
  }
  static const char* const kFull = "\u2588";
  static const char* const kPartial[8] = {" ",      "\u258F", "\u258E", "\u258D",
                                          "\u258C", "\u258B", "\u258A", "\u2589"};
  const auto eighths = static_cast<uint64_t>(width * 8);
  std::string out;
  uint64_t used = 0;
  for (uint64_t i = 0; i < eighths / 8; i++, used++)
    out += kFull;
  if (eighths % 8 != 0) {
    out += kPartial[eighths % 8];
    used++;
  }
  const auto whole = static_cast<uint64_t>(max_width);
  if (used < whole) out.append(whole - used, ' ');
  return out;
}

void BarKernel(const Args& in, idx_t count, Vector& result) {
  StringRef* out = result.data<StringRef>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    const double width = in.size() > 3 ? in[3]->data<double>()[row] : 80.0;
    out[row] = result.AddString(Bar(in[0]->data<double>()[row], in[1]->data<double>()[row],
                                    in[2]->data<double>()[row], width));
  });
}

// ---- format_bytes ----

/// A byte count in binary (KiB, 1024) or decimal (kB, 1000) units with one truncated decimal
/// (DuckDB's): "1 byte", "1023 bytes", "1.5 MiB", "-8192.0 PiB".
std::string FormatBytes(int64_t value, uint64_t multiplier) {
  static const char* const kUnits[2][6] = {{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"},
                                           {"bytes", "kB", "MB", "GB", "TB", "PB"}};
  const int decimal = multiplier == 1000 ? 1 : 0;
  // The magnitude of INT64_MIN fits only unsigned.
  const uint64_t bytes =
      value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const std::string sign = value < 0 ? "-" : "";
  uint64_t digits[6];
  digits[0] = bytes;
  for (int i = 1; i < 6; i++) {
    digits[i] = digits[i - 1] / multiplier;
    digits[i - 1] %= multiplier;
  }
  for (int i = 5; i >= 1; i--) {
    if (digits[i] != 0) {
      const uint64_t tenth = digits[i - 1] * 10 / multiplier;
      return sign + std::to_string(digits[i]) + "." + std::to_string(tenth) + " " +
             kUnits[decimal][i];
    }
  }
  return sign + std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

template <uint64_t kMultiplier>
void FormatBytesKernel(const Args& in, idx_t count, Vector& result) {
  StringRef* out = result.data<StringRef>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    out[row] = result.AddString(FormatBytes(in[0]->data<int64_t>()[row], kMultiplier));
  });
}

// ---- parse_path and its family ----

/// The separators a path function's option names: 'forward_slash' '/', 'backslash' '\',
/// 'system' this system's ('/'); anything else, and NULL, both (DuckDB's default).
std::string_view Separators(const Vector* option, idx_t row) {
  if (option == nullptr || option->IsNull(row)) return "/\\";
  const std::string_view text = TextAt(*option, row);
  if (text == "forward_slash" || text == "system") return "/";
  if (text == "backslash") return "\\";
  return "/\\";
}

/// parse_path: the path's parts between separators, empty ones dropped; a leading separator
/// is a part of its own ('/path' -> ['/', 'path']).
std::vector<std::string_view> SplitPath(std::string_view path, std::string_view separators) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start < path.size()) {
    const size_t at = path.find_first_of(separators, start);
    if (at == std::string_view::npos) break;
    if (at > start) {
      parts.push_back(path.substr(start, at - start));
    } else if (parts.empty()) {
      parts.push_back(path.substr(at, 1));
    }
    start = at + 1;
  }
  if (start < path.size()) parts.push_back(path.substr(start));
  return parts;
}

void ParsePathKernel(const Args& in, idx_t count, Vector& result) {
  ListWriter writer(kVarchar);
  for (idx_t row = 0; row < count; row++) {
    if (in[0]->IsNull(row)) {
      result.validity().SetNull(row);
      continue;
    }
    writer.Clear();
    const std::string_view separators = Separators(in.size() > 1 ? in[1] : nullptr, row);
    for (std::string_view part : SplitPath(TextAt(*in[0], row), separators))
      writer.AppendValue(Value::Varchar(std::string(part)));
    result.data<StringRef>()[row] = result.AddString(writer.bytes());
  }
}

/// parse_dirname: the path's first part (the separator itself for a path starting with one),
/// '' without a separator.
std::string_view Dirname(std::string_view path, std::string_view separators) {
  const size_t at = path.find_first_of(separators);
  if (at == std::string_view::npos) return {};
  return path.substr(0, at == 0 ? 1 : at);
}

/// parse_dirpath: everything before the last separator ('/' alone stays '/'), '' without one.
std::string_view Dirpath(std::string_view path, std::string_view separators) {
  const size_t at = path.find_last_of(separators);
  if (at == std::string_view::npos) return {};
  if (at == 0 && path.size() == 1) return path;
  return path.substr(0, at);
}

/// parse_filename: everything after the last separator, without the extension (from the last
/// '.' on) when `trim_extension`.
std::string_view Filename(std::string_view path, std::string_view separators, bool trim_extension) {
  const size_t at = path.find_last_of(separators);
  const size_t begin = at == std::string_view::npos ? 0 : at + 1;
  size_t end = path.size();
  if (trim_extension) {
    const size_t dot = path.rfind('.');
    if (dot != std::string_view::npos && dot >= begin) end = dot;
  }
  return path.substr(begin, end - begin);
}

/// The kernel of parse_dirname / parse_dirpath / parse_filename: a NULL path is NULL, a NULL
/// option its default. `trim_at` / `separator_at`: the argument holding each (0: none).
template <typename Fn>
ScalarKernel PathKernel(size_t trim_at, size_t separator_at, Fn fn) {
  return [=](const Args& in, idx_t count, Vector& result) {
    StringRef* out = result.data<StringRef>();
    for (idx_t row = 0; row < count; row++) {
      if (in[0]->IsNull(row)) {
        result.validity().SetNull(row);
        continue;
      }
      const bool trim =
          trim_at != 0 && !in[trim_at]->IsNull(row) && in[trim_at]->data<uint8_t>()[row] != 0;
      const std::string_view separators =
          Separators(separator_at != 0 ? in[separator_at] : nullptr, row);
      out[row] = result.AddString(fn(TextAt(*in[0], row), separators, trim));
    }
  };
}

// ---- parse_formatted_bytes, encode, decode ----

/// DuckDB's parser of memory sizes: a number ('1.5', '1e3'), a unit (B / byte(s), KB ... TB
/// for 1000s, KiB ... TiB for 1024s, any case, spaces around), the bytes rounded down.
int64_t ParseFormattedBytes(std::string_view text) {
  size_t pos = 0;
  auto is_space = [&](size_t i) {
    return i < text.size() && std::isspace(static_cast<unsigned char>(text[i]));
  };
  while (is_space(pos))
    pos++;
  const size_t number_start = pos;
  while (pos < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.' ||
          text[pos] == 'e' || text[pos] == 'E' || text[pos] == '-')) {
    pos++;
  }
  if (pos == number_start) throw InvalidInputError("Memory must have a number (e.g. 1GB)");
  const std::string number(text.substr(number_start, pos - number_start));
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(value)) {
    throw InvalidInputError("Invalid memory limit: '{}'", number);
  }
  while (is_space(pos))
    pos++;
  const size_t unit_start = pos;
  while (pos < text.size() && !is_space(pos))
    pos++;
  if (value < 0) throw InvalidInputError("Memory cannot be negative");
  std::string unit(text.substr(unit_start, pos - unit_start));
  for (char& c : unit)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, double> kUnits[] = {
      {"b", 1},     {"byte", 1},     {"bytes", 1},    {"kb", 1e3},     {"mb", 1e6},    {"gb", 1e9},
      {"tb", 1e12}, {"kib", 1024.0}, {"mib", 0x1p20}, {"gib", 0x1p30}, {"tib", 0x1p40}};
  for (const auto& [name, factor] : kUnits) {
    if (unit != name) continue;
    const double bytes = value * factor;
    if (!(bytes < 0x1p63)) {
      throw InvalidInputError("Memory value out of range: value is too large");
    }
    return static_cast<int64_t>(bytes);
  }
  throw InvalidInputError(
      "Unknown unit for memory: '{}' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, "
      "GiB, TiB for 1024^i units)",
      unit);
}

void ParseFormattedBytesKernel(const Args& in, idx_t count, Vector& result) {
  int64_t* out = result.data<int64_t>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    out[row] = ParseFormattedBytes(in[0]->data<StringRef>()[row].view());
  });
}

/// encode(VARCHAR) -> BLOB: the same bytes.
void EncodeKernel(const Args& in, idx_t count, Vector& result) {
  StringRef* out = result.data<StringRef>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    out[row] = result.AddString(in[0]->data<StringRef>()[row].view());
  });
}

/// decode(BLOB) -> VARCHAR: the same bytes, which must be UTF-8.
void DecodeKernel(const Args& in, idx_t count, Vector& result) {
  StringRef* out = result.data<StringRef>();
  ForEachValidRow(in, count, result, [&](idx_t row) {
    const std::string_view bytes = in[0]->data<StringRef>()[row].view();
    if (!IsValidUtf8(bytes.data(), bytes.size())) {
      throw InvalidInputError(
          "Failure in decode: could not convert blob to UTF8 string, the blob contained invalid "
          "UTF8 characters");
    }
    out[row] = result.AddString(bytes);
  });
}

}  // namespace

void RegisterStringFunctionsExtended(FunctionRegistry& registry) {
  RegisterFixed(registry, "overlay", {kVarchar, kVarchar, kBigint}, kVarchar, OverlayKernel);
  RegisterFixed(registry, "overlay", {kVarchar, kVarchar, kBigint, kBigint}, kVarchar,
                OverlayKernel);
  RegisterFixed(registry, "bar", {kDouble, kDouble, kDouble}, kVarchar, BarKernel);
  RegisterFixed(registry, "bar", {kDouble, kDouble, kDouble, kDouble}, kVarchar, BarKernel);
  for (const char* name : {"format_bytes", "pg_size_pretty", "formatreadablesize"}) {
    RegisterFixed(registry, name, {kBigint}, kVarchar, FormatBytesKernel<1024>);
  }
  RegisterFixed(registry, "formatreadabledecimalsize", {kBigint}, kVarchar,
                FormatBytesKernel<1000>);
  RegisterFixed(registry, "parse_formatted_bytes", {kVarchar}, kBigint, ParseFormattedBytesKernel);
  RegisterFixed(registry, "encode", {kVarchar}, LogicalType::Blob(), EncodeKernel);
  RegisterFixed(registry, "decode", {LogicalType::Blob()}, kVarchar, DecodeKernel);

  const LogicalType list = LogicalType::List(kVarchar);
  RegisterFixed(registry, "parse_path", {kVarchar}, list, ParsePathKernel, false);
  RegisterFixed(registry, "parse_path", {kVarchar, kVarchar}, list, ParsePathKernel, false);
  auto dirname = [](std::string_view p, std::string_view s, bool) { return Dirname(p, s); };
  auto dirpath = [](std::string_view p, std::string_view s, bool) { return Dirpath(p, s); };
  RegisterFixed(registry, "parse_dirname", {kVarchar}, kVarchar, PathKernel(0, 0, dirname), false);
  RegisterFixed(registry, "parse_dirname", {kVarchar, kVarchar}, kVarchar,
                PathKernel(0, 1, dirname), false);
  RegisterFixed(registry, "parse_dirpath", {kVarchar}, kVarchar, PathKernel(0, 0, dirpath), false);
  RegisterFixed(registry, "parse_dirpath", {kVarchar, kVarchar}, kVarchar,
                PathKernel(0, 1, dirpath), false);
  RegisterFixed(registry, "parse_filename", {kVarchar}, kVarchar, PathKernel(0, 0, Filename),
                false);
  RegisterFixed(registry, "parse_filename", {kVarchar, kVarchar}, kVarchar,
                PathKernel(0, 1, Filename), false);
  RegisterFixed(registry, "parse_filename", {kVarchar, kBoolean}, kVarchar,
                PathKernel(1, 0, Filename), false);
  RegisterFixed(registry, "parse_filename", {kVarchar, kBoolean, kVarchar}, kVarchar,
                PathKernel(1, 2, Filename), false);
}

}  // namespace function_internal
}  // namespace shears
