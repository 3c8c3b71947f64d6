// String functions. VARCHAR values are valid UTF-8, and every position or length counts code
// points (PostgreSQL semantics); octet_length counts bytes. Results are copied into the result
// vector's string heap.

#include <algorithm>
#include <array>
#include <bitset>
#include <cctype>
#include <cstring>
#include <vector>

#include "function/function_internal.h"

namespace shears {
namespace function_internal {

// ---------------------------------------------------------------- case mapping

namespace {

// Case pairs within two-byte UTF-8 (U+0080..U+07FF), so mapping never changes byte lengths:
// Latin-1 Supplement, Latin Extended-A, Greek and basic Cyrillic. Other scripts pass through.
uint32_t LowerCodePoint(uint32_t cp) {
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 0x20;
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x130 || cp == 0x131 || cp == 0x138 || cp == 0x149 || cp == 0x17F) return cp;
    if (cp == 0x178) return 0xFF;
    const bool odd_upper = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    if (odd_upper) return (cp & 1) ? cp + 1 : cp;
    return (cp & 1) ? cp : cp + 1;
  }
  if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) return cp + 0x20;
  if (cp == 0x386) return 0x3AC;
  if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
  if (cp == 0x38C) return 0x3CC;
  if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
  return cp;
}

uint32_t UpperCodePoint(uint32_t cp) {
  if (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) return cp - 0x20;
  if (cp == 0xFF) return 0x178;
  if (cp >= 0x100 && cp <= 0x17F) {
    if (cp == 0x130 || cp == 0x131 || cp == 0x138 || cp == 0x149 || cp == 0x17F) return cp;
    if (cp == 0x178) return cp;
    const bool odd_upper = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E);
    if (odd_upper) return (cp & 1) ? cp : cp - 1;
    return (cp & 1) ? cp - 1 : cp;
  }
  if (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) return cp - 0x20;
  if (cp == 0x3C2) return 0x3A3;  // final sigma
  if (cp == 0x3AC) return 0x386;
  if (cp >= 0x3AD && cp <= 0x3AF) return cp - 0x25;
  if (cp == 0x3CC) return 0x38C;
  if (cp == 0x3CD || cp == 0x3CE) return cp - 0x3F;
  if (cp >= 0x430 && cp <= 0x44F) return cp - 0x20;
  if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
  return cp;
}

template <bool kUpper>
void MapCase(std::string_view in, std::string* out) {
  out->resize(in.size());
  char* dst = out->data();
  const auto* src = reinterpret_cast<const unsigned char*>(in.data());
  const size_t n = in.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = src[i];
    if (c < 0x80) {
      if (kUpper) {
        dst[i] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : static_cast<char>(c);
      } else {
        dst[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : static_cast<char>(c);
      }
      i++;
    } else if (c < 0xE0 && i + 1 < n) {
      uint32_t cp = ((c & 0x1Fu) << 6) | (src[i + 1] & 0x3Fu);
      cp = kUpper ? UpperCodePoint(cp) : LowerCodePoint(cp);
      dst[i] = static_cast<char>(0xC0 | (cp >> 6));
      dst[i + 1] = static_cast<char>(0x80 | (cp & 0x3F));
      i += 2;
    } else {
      // Longer sequences have no case pairs here: copy them whole.
      const size_t len = std::min<size_t>(Utf8SequenceLength(c), n - i);
      std::memcpy(dst + i, src + i, len);
      i += len;
    }
  }
}

}  // namespace

void Utf8Lower(std::string_view in, std::string* out) {
  MapCase<false>(in, out);
}
void Utf8Upper(std::string_view in, std::string* out) {
  MapCase<true>(in, out);
}

namespace {

// ---------------------------------------------------------------- helpers

using Args = std::vector<const Vector*>;

const LogicalType kVarchar = LogicalType::Varchar();
const LogicalType kBigint = LogicalType::Bigint();
const LogicalType kBoolean = LogicalType::Boolean();

inline StringRef StrAt(const Vector& v, idx_t row) {
  return v.data<StringRef>()[row];
}

/// Byte offset of code point `n` (0-based) in `s`, or s.size() past the end.
size_t CodePointOffset(std::string_view s, int64_t n) {
  size_t pos = 0;
  while (n > 0 && pos < s.size()) {
    pos += Utf8SequenceLength(static_cast<unsigned char>(s[pos]));
    n--;
  }
  return std::min(pos, s.size());
}

/// Code points [begin, end) (0-based, clamped) of `s`.
std::string_view CodePointRange(std::string_view s, int64_t begin, int64_t end) {
  if (end <= begin) return {};
  size_t b = CodePointOffset(s, begin);
  size_t e = b + CodePointOffset(s.substr(b), end - begin);
  return s.substr(b, e - b);
}

void CheckResultSize(uint64_t bytes) {
  constexpr uint64_t kMaxBytes = uint64_t{1} << 30;
  if (bytes > kMaxBytes) {
    throw OutOfRangeError("String result of {} bytes exceeds the limit of {} bytes", bytes,
                          kMaxBytes);
  }
}

/// A kernel writing one string per valid row: op(row, buffer) returns the result text (which
/// may point into the buffer or into an input).
template <typename Op>
ScalarKernel StringKernel(Op op) {
  return [op](const Args& args, idx_t count, Vector& result) {
    StringRef* out = result.data<StringRef>();
    std::string buffer;
    ForEachValidRow(args, count, result,
                    [&](idx_t row) { out[row] = result.AddString(op(args, row, buffer)); });
  };
}

/// A kernel writing one fixed-width value per valid row: op(row) returns it.
template <typename T, typename Op>
ScalarKernel ValueKernel(Op op) {
  return [op](const Args& args, idx_t count, Vector& result) {
    T* out = result.data<T>();
    ForEachValidRow(args, count, result, [&](idx_t row) { out[row] = op(args, row); });
  };
}

// ---------------------------------------------------------------- concatenation

/// a || b: VARCHAR when either side is VARCHAR (the other side is cast to text, as in
/// PostgreSQL), BLOB when both are BLOB.
std::optional<BoundScalarFunction> ResolveConcatOperator(const std::vector<LogicalType>& args) {
  if (args.size() != 2) return std::nullopt;
  auto is_blob = [](const LogicalType& t) { return t.id() == TypeId::kBlob; };
  LogicalType type;
  if (is_blob(args[0]) || is_blob(args[1])) {
    // BLOB || BLOB (a NULL literal counts as either).
    if (!(is_blob(args[0]) || !args[0].valid()) || !(is_blob(args[1]) || !args[1].valid())) {
      return std::nullopt;
    }
    type = LogicalType::Blob();
  } else if (args[0].id() == TypeId::kVarchar || args[1].id() == TypeId::kVarchar ||
             !args[0].valid() || !args[1].valid()) {
    type = kVarchar;
  } else {
    return std::nullopt;
  }
  return MakeBound({type, type}, type, StringKernel([](const Args& a, idx_t row, std::string& buf) {
                     std::string_view l = StrAt(*a[0], row).view(), r = StrAt(*a[1], row).view();
                     buf.assign(l);
                     buf.append(r);
                     return std::string_view(buf);
                   }));
}

/// concat(any, ...) skips NULLs; concat_ws(sep, any, ...) too, and puts sep between values.
FunctionRegistry::Resolver ConcatResolver(bool with_separator) {
  return
      [with_separator](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
        if (args.size() < (with_separator ? 2u : 1u)) return std::nullopt;
        std::vector<LogicalType> types(args.size(), kVarchar);
        ScalarKernel kernel = [with_separator](const Args& a, idx_t count, Vector& result) {
          StringRef* out = result.data<StringRef>();
          std::string buffer;
          const size_t first = with_separator ? 1 : 0;
          for (idx_t row = 0; row < count; row++) {
            if (with_separator && a[0]->IsNull(row)) {
              result.validity().SetNull(row);
              continue;
            }
            buffer.clear();
            bool any = false;
            for (size_t i = first; i < a.size(); i++) {
              if (a[i]->IsNull(row)) continue;
              if (with_separator && any) buffer.append(StrAt(*a[0], row).view());
              buffer.append(StrAt(*a[i], row).view());
              any = true;
            }
            out[row] = result.AddString(buffer);
          }
        };
        return MakeBound(std::move(types), kVarchar, std::move(kernel), /*null_propagating=*/false);
      };
}

// ---------------------------------------------------------------- trimming

/// Trims code points contained in `chars` from the chosen ends of `s`.
std::string_view TrimChars(std::string_view s, std::string_view chars, bool left, bool right) {
  size_t begin = 0, end = s.size();
  if (left) {
    while (begin < end) {
      size_t len = Utf8SequenceLength(static_cast<unsigned char>(s[begin]));
      // A whole sequence found in valid UTF-8 starts at a code point boundary there too.
      if (chars.find(s.substr(begin, len)) == std::string_view::npos) break;
      begin += len;
    }
  }
  if (right) {
    while (end > begin) {
      size_t start = end - 1;
      while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80)
        start--;
      if (chars.find(s.substr(start, end - start)) == std::string_view::npos) break;
      end = start;
    }
  }
  return s.substr(begin, end - begin);
}

void RegisterTrim(FunctionRegistry& registry, const std::string& name, bool left, bool right) {
  RegisterFixed(registry, name, {kVarchar}, kVarchar,
                StringKernel([left, right](const Args& a, idx_t row, std::string&) {
                  return TrimChars(StrAt(*a[0], row).view(), " ", left, right);
                }));
  RegisterFixed(registry, name, {kVarchar, kVarchar}, kVarchar,
                StringKernel([left, right](const Args& a, idx_t row, std::string&) {
                  return TrimChars(StrAt(*a[0], row).view(), StrAt(*a[1], row).view(), left, right);
                }));
}

// ---------------------------------------------------------------- substrings

/// PostgreSQL substring: the code points at 1-based positions [start, start + length), the
/// part before position 1 simply missing.
std::string_view Substring(std::string_view s, int64_t start, std::optional<int64_t> length) {
  if (length && *length < 0) {
    throw InvalidInputError("negative substring length not allowed");
  }
  const int64_t begin = std::max<int64_t>(start, 1) - 1;
  int64_t end = std::numeric_limits<int64_t>::max(), sum;
  if (length && !__builtin_add_overflow(start, *length, &sum)) end = sum - 1;
  return CodePointRange(s, begin, end);
}

std::string_view LeftChars(std::string_view s, int64_t n) {
  if (n >= 0) return CodePointRange(s, 0, n);
  const int64_t total = Utf8Length(s);
  return CodePointRange(s, 0, total + std::max<int64_t>(n, -total));
}

std::string_view RightChars(std::string_view s, int64_t n) {
  const int64_t total = Utf8Length(s);
  if (n >= 0) return CodePointRange(s, total - std::min(n, total), total);
  return CodePointRange(s, std::min<int64_t>(-(n + 1), total - 1) + 1, total);
}

std::string_view Pad(std::string_view s, int64_t length, std::string_view fill, bool left,
                     std::string& buffer) {
  if (length <= 0) return {};
  if (length > (int64_t{1} << 28)) {
    throw OutOfRangeError("Requested length {} is too large", length);
  }
  const int64_t have = Utf8Length(s);
  if (have >= length) return CodePointRange(s, 0, length);
  if (fill.empty()) return s;
  int64_t missing = length - have;
  buffer.clear();
  if (!left) buffer.append(s);
  size_t pos = 0;
  while (missing > 0) {
    size_t len = Utf8SequenceLength(static_cast<unsigned char>(fill[pos]));
    buffer.append(fill.substr(pos, len));
    pos += len;
    if (pos >= fill.size()) pos = 0;
    missing--;
  }
  if (left) buffer.append(s);
  return buffer;
}

std::string_view SplitPart(std::string_view s, std::string_view delimiter, int64_t index) {
  if (index == 0) throw InvalidInputError("field position must not be zero");
  if (delimiter.empty()) return (index == 1 || index == -1) ? s : std::string_view();
  if (index < 0) {
    int64_t fields = 1;
    for (size_t pos = s.find(delimiter); pos != std::string_view::npos;
         pos = s.find(delimiter, pos + delimiter.size())) {
      fields++;
    }
    index = fields + index + 1;
    if (index <= 0) return {};
  }
  size_t begin = 0;
  for (int64_t field = 1; field < index; field++) {
    size_t next = s.find(delimiter, begin);
    if (next == std::string_view::npos) return {};
    begin = next + delimiter.size();
  }
  size_t end = s.find(delimiter, begin);
  return s.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
}

std::string_view Replace(std::string_view s, std::string_view from, std::string_view to,
                         std::string& buffer) {
  if (from.empty()) return s;
  size_t pos = s.find(from);
  if (pos == std::string_view::npos) return s;
  buffer.clear();
  size_t begin = 0;
  while (pos != std::string_view::npos) {
    buffer.append(s.substr(begin, pos - begin));
    buffer.append(to);
    begin = pos + from.size();
    pos = s.find(from, begin);
  }
  buffer.append(s.substr(begin));
  return buffer;
}

std::string_view Reverse(std::string_view s, std::string& buffer) {
  buffer.resize(s.size());
  size_t pos = 0;
  while (pos < s.size()) {
    size_t len =
        std::min<size_t>(Utf8SequenceLength(static_cast<unsigned char>(s[pos])), s.size() - pos);
    std::memcpy(buffer.data() + s.size() - pos - len, s.data() + pos, len);
    pos += len;
  }
  return buffer;
}

std::string_view Repeat(std::string_view s, int64_t times, std::string& buffer) {
  if (times <= 0 || s.empty()) return {};
  CheckResultSize(static_cast<uint64_t>(s.size()) * static_cast<uint64_t>(times));
  buffer.clear();
  buffer.reserve(s.size() * times);
  for (int64_t i = 0; i < times; i++)
    buffer.append(s);
  return buffer;
}

/// 1-based code point position of `needle` in `s`, 0 when absent.
int64_t Position(std::string_view s, std::string_view needle) {
  size_t pos = s.find(needle);
  if (pos == std::string_view::npos) return 0;
  return Utf8Length(s.substr(0, pos)) + 1;
}

int32_t Ascii(std::string_view s) {
  if (s.empty()) return 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  int len = std::min<int>(Utf8SequenceLength(p[0]), static_cast<int>(s.size()));
  if (len == 1) return p[0];
  uint32_t cp = p[0] & (0xFF >> (len + 1));
  for (int i = 1; i < len; i++)
    cp = (cp << 6) | (p[i] & 0x3F);
  return static_cast<int32_t>(cp);
}

std::string_view Chr(int32_t cp, std::string& buffer) {
  // chr(0) is the NUL character, as in DuckDB (a VARCHAR may hold one).
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw OutOfRangeError("chr({}): not a valid Unicode code point", cp);
  }
  buffer.clear();
  if (cp < 0x80) {
    buffer.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    buffer.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    buffer.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    buffer.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    buffer.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    buffer.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    buffer.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    buffer.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    buffer.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    buffer.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return buffer;
}

/// The code points of `s`, each as its UTF-8 bytes.
std::vector<std::string_view> CodePoints(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t pos = 0; pos < s.size();) {
    const size_t len =
        std::min<size_t>(Utf8SequenceLength(static_cast<unsigned char>(s[pos])), s.size() - pos);
    out.push_back(s.substr(pos, len));
    pos += len;
  }
  return out;
}

/// translate(s, from, to): each code point of s found in `from` becomes the one at the same
/// place in `to`, or is dropped when `to` is shorter (PostgreSQL, DuckDB).
std::string_view Translate(std::string_view s, std::string_view from, std::string_view to,
                           std::string& buffer) {
  const std::vector<std::string_view> from_chars = CodePoints(from), to_chars = CodePoints(to);
  buffer.clear();
  for (std::string_view c : CodePoints(s)) {
    auto at = std::find(from_chars.begin(), from_chars.end(), c);
    if (at == from_chars.end()) {
      buffer.append(c);
    } else if (static_cast<size_t>(at - from_chars.begin()) < to_chars.size()) {
      buffer.append(to_chars[at - from_chars.begin()]);
    }
  }
  return buffer;
}

/// initcap: the first letter of each word upper case, the others lower case; words are runs
/// of letters and digits (PostgreSQL).
std::string_view Initcap(std::string_view s, std::string& buffer) {
  buffer.clear();
  bool in_word = false;
  std::string mapped;
  for (std::string_view c : CodePoints(s)) {
    const unsigned char b = static_cast<unsigned char>(c[0]);
    const bool word_char = c.size() > 1 || std::isalnum(b);
    mapped.clear();
    if (in_word) {
      Utf8Lower(c, &mapped);
    } else {
      Utf8Upper(c, &mapped);
    }
    buffer.append(mapped);
    in_word = word_char;
  }
  return buffer;
}

/// Levenshtein distance over code points: insertions, deletions and substitutions.
int64_t Levenshtein(std::string_view a, std::string_view b) {
  const std::vector<std::string_view> x = CodePoints(a), y = CodePoints(b);
  std::vector<int64_t> row(y.size() + 1);
  for (size_t j = 0; j <= y.size(); j++)
    row[j] = static_cast<int64_t>(j);
  for (size_t i = 1; i <= x.size(); i++) {
    int64_t diagonal = row[0];
    row[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= y.size(); j++) {
      const int64_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] == y[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[y.size()];
}

int64_t Hamming(std::string_view a, std::string_view b) {
  const std::vector<std::string_view> x = CodePoints(a), y = CodePoints(b);
  if (x.size() != y.size()) {
    throw InvalidInputError("hamming: the strings must have the same length ({} and {})", x.size(),
                            y.size());
  }
  int64_t distance = 0;
  for (size_t i = 0; i < x.size(); i++)
    distance += x[i] != y[i];
  return distance;
}

/// Damerau-Levenshtein distance over bytes, as DuckDB: insertions, deletions, substitutions and
/// transpositions of adjacent characters, a substring edited more than once (unrestricted, by
/// Lowrance and Wagner's algorithm: "ca" to "abc" is 2).
int64_t DamerauLevenshtein(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  const int64_t infinity = static_cast<int64_t>(n + m);
  // d is (n + 2) x (m + 2): row and column 0 hold infinity, the rest the usual table shifted.
  std::vector<int64_t> d((n + 2) * (m + 2));
  auto at = [&](size_t i, size_t j) -> int64_t& { return d[i * (m + 2) + j]; };
  at(0, 0) = infinity;
  for (size_t i = 0; i <= n; i++) {
    at(i + 1, 0) = infinity;
    at(i + 1, 1) = static_cast<int64_t>(i);
  }
  for (size_t j = 0; j <= m; j++) {
    at(0, j + 1) = infinity;
    at(1, j + 1) = static_cast<int64_t>(j);
  }
  std::array<size_t, 256> last_row{};  // the last row of a where each byte was seen
  for (size_t i = 1; i <= n; i++) {
    size_t last_match_column = 0;
    for (size_t j = 1; j <= m; j++) {
      const size_t k = last_row[static_cast<unsigned char>(b[j - 1])];
      const size_t l = last_match_column;
      int64_t cost = 1;
      if (a[i - 1] == b[j - 1]) {
        cost = 0;
        last_match_column = j;
      }
      at(i + 1, j + 1) = std::min({at(i, j) + cost, at(i + 1, j) + 1, at(i, j + 1) + 1,
                                   at(k, l) + static_cast<int64_t>((i - k - 1) + 1 + (j - l - 1))});
    }
    last_row[static_cast<unsigned char>(a[i - 1])] = i;
  }
  return at(n + 1, m + 1);
}

/// Jaro similarity over bytes, as DuckDB: 0 when either string is empty.
double JaroSimilarity(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return 0;
  const size_t window = std::max(a.size(), b.size()) / 2;
  const size_t reach = window > 0 ? window - 1 : 0;
  std::vector<bool> a_matched(a.size()), b_matched(b.size());
  size_t matches = 0;
  for (size_t i = 0; i < a.size(); i++) {
    const size_t from = i > reach ? i - reach : 0;
    const size_t to = std::min(b.size(), i + reach + 1);
    for (size_t j = from; j < to; j++) {
      if (!b_matched[j] && a[i] == b[j]) {
        a_matched[i] = b_matched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches == 0) return 0;
  size_t transposed = 0;
  for (size_t i = 0, j = 0; i < a.size(); i++) {
    if (!a_matched[i]) continue;
    while (!b_matched[j])
      j++;
    transposed += a[i] != b[j];
    j++;
  }
  const double m = static_cast<double>(matches);
  const size_t half_transposed = transposed / 2;  // whole transpositions, as DuckDB counts them
  return (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) +
          (m - static_cast<double>(half_transposed)) / m) /
         3;
}

/// Jaro-Winkler: a Jaro similarity above 0.7 raised by the common prefix (up to 4 bytes).
double JaroWinklerSimilarity(std::string_view a, std::string_view b) {
  const double jaro = JaroSimilarity(a, b);
  if (jaro <= 0.7) return jaro;
  size_t prefix = 0;
  while (prefix < 4 && prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    prefix++;
  return jaro + static_cast<double>(prefix) * 0.1 * (1 - jaro);
}

/// Jaccard similarity of the sets of bytes of two strings, as DuckDB (an empty string is an
/// error there too).
double Jaccard(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) {
    throw InvalidInputError("jaccard: an argument is empty (the similarity of no characters)");
  }
  std::bitset<256> x, y;
  for (unsigned char c : a)
    x.set(c);
  for (unsigned char c : b)
    y.set(c);
  return static_cast<double>((x & y).count()) / static_cast<double>((x | y).count());
}

constexpr char kBase64Chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string_view ToBase64(std::string_view in, std::string& buffer) {
  buffer.clear();
  for (size_t i = 0; i < in.size(); i += 3) {
    uint32_t n = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
    buffer.push_back(kBase64Chars[(n >> 18) & 63]);
    buffer.push_back(kBase64Chars[(n >> 12) & 63]);
    buffer.push_back(i + 1 < in.size() ? kBase64Chars[(n >> 6) & 63] : '=');
    buffer.push_back(i + 2 < in.size() ? kBase64Chars[n & 63] : '=');
  }
  return buffer;
}

std::string_view FromBase64(std::string_view in, std::string& buffer) {
  auto value = [&](char c) -> int {
    const char* at = std::strchr(kBase64Chars, c);
    if (c == '\0' || at == nullptr) {
      throw InvalidInputError("Could not decode string '{}' as base64", in);
    }
    return static_cast<int>(at - kBase64Chars);
  };
  if (in.size() % 4 != 0) throw InvalidInputError("Could not decode string '{}' as base64", in);
  buffer.clear();
  for (size_t i = 0; i < in.size(); i += 4) {
    const int pad = (in[i + 3] == '=') + (in[i + 2] == '=' && in[i + 3] == '=');
    if (pad > 0 && i + 4 != in.size()) {
      throw InvalidInputError("Could not decode string '{}' as base64", in);
    }
    uint32_t n = (value(in[i]) << 18) | (value(in[i + 1]) << 12);
    if (pad < 2) n |= value(in[i + 2]) << 6;
    if (pad < 1) n |= value(in[i + 3]);
    buffer.push_back(static_cast<char>(n >> 16));
    if (pad < 2) buffer.push_back(static_cast<char>((n >> 8) & 255));
    if (pad < 1) buffer.push_back(static_cast<char>(n & 255));
  }
  return buffer;
}

/// Upper-case hex of bytes (DuckDB's hex / to_hex).
std::string_view HexOfBytes(std::string_view in, std::string& buffer) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  buffer.clear();
  for (char c : in) {
    buffer.push_back(kHex[static_cast<unsigned char>(c) >> 4]);
    buffer.push_back(kHex[static_cast<unsigned char>(c) & 15]);
  }
  return buffer;
}

std::string_view Unhex(std::string_view in, std::string& buffer) {
  auto digit = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw InvalidInputError("Could not decode string '{}' as hexadecimal", in);
  };
  buffer.clear();
  size_t i = 0;
  if (in.size() % 2 != 0) buffer.push_back(static_cast<char>(digit(in[i++])));
  for (; i < in.size(); i += 2)
    buffer.push_back(static_cast<char>(digit(in[i]) * 16 + digit(in[i + 1])));
  return buffer;
}

ScalarKernel ByteLengthKernel() {
  return ValueKernel<int64_t>(
      [](const Args& a, idx_t row) { return static_cast<int64_t>(StrAt(*a[0], row).len); });
}

}  // namespace

void RegisterStringFunctions(FunctionRegistry& registry) {
  registry.Register("||", ResolveConcatOperator, "||(VARCHAR, ANY), ||(BLOB, BLOB)");
  registry.Register("concat", ConcatResolver(false), "concat(ANY, ...)");
  registry.Register("concat_ws", ConcatResolver(true), "concat_ws(VARCHAR, ANY, ...)");

  for (const char* name : {"length", "char_length", "character_length", "len"}) {
    RegisterFixed(registry, name, {kVarchar}, kBigint,
                  ValueKernel<int64_t>([](const Args& a, idx_t row) {
                    return Utf8Length(StrAt(*a[0], row).view());
                  }));
  }
  RegisterFixed(registry, "length", {LogicalType::Blob()}, kBigint, ByteLengthKernel());
  RegisterFixed(registry, "octet_length", {kVarchar}, kBigint, ByteLengthKernel());
  RegisterFixed(registry, "octet_length", {LogicalType::Blob()}, kBigint, ByteLengthKernel());

  for (const char* name : {"upper", "ucase"}) {
    RegisterFixed(registry, name, {kVarchar}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string& buf) {
                    Utf8Upper(StrAt(*a[0], row).view(), &buf);
                    return std::string_view(buf);
                  }));
  }
  for (const char* name : {"lower", "lcase"}) {
    RegisterFixed(registry, name, {kVarchar}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string& buf) {
                    Utf8Lower(StrAt(*a[0], row).view(), &buf);
                    return std::string_view(buf);
                  }));
  }

  for (const char* name : {"substring", "substr"}) {
    RegisterFixed(registry, name, {kVarchar, kBigint}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string&) {
                    return Substring(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row],
                                     std::nullopt);
                  }));
    RegisterFixed(registry, name, {kVarchar, kBigint, kBigint}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string&) {
                    return Substring(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row],
                                     a[2]->data<int64_t>()[row]);
                  }));
  }
  RegisterFixed(registry, "left", {kVarchar, kBigint}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string&) {
                  return LeftChars(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row]);
                }));
  RegisterFixed(registry, "right", {kVarchar, kBigint}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string&) {
                  return RightChars(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row]);
                }));

  RegisterTrim(registry, "trim", true, true);
  RegisterTrim(registry, "btrim", true, true);
  RegisterTrim(registry, "ltrim", true, false);
  RegisterTrim(registry, "rtrim", false, true);

  for (bool left : {true, false}) {
    const char* name = left ? "lpad" : "rpad";
    RegisterFixed(registry, name, {kVarchar, kBigint}, kVarchar,
                  StringKernel([left](const Args& a, idx_t row, std::string& buf) {
                    return Pad(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row], " ", left,
                               buf);
                  }));
    RegisterFixed(registry, name, {kVarchar, kBigint, kVarchar}, kVarchar,
                  StringKernel([left](const Args& a, idx_t row, std::string& buf) {
                    return Pad(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row],
                               StrAt(*a[2], row).view(), left, buf);
                  }));
  }

  RegisterFixed(registry, "replace", {kVarchar, kVarchar, kVarchar}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Replace(StrAt(*a[0], row).view(), StrAt(*a[1], row).view(),
                                 StrAt(*a[2], row).view(), buf);
                }));
  RegisterFixed(registry, "reverse", {kVarchar}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Reverse(StrAt(*a[0], row).view(), buf);
                }));
  RegisterFixed(registry, "repeat", {kVarchar, kBigint}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Repeat(StrAt(*a[0], row).view(), a[1]->data<int64_t>()[row], buf);
                }));
  RegisterFixed(registry, "split_part", {kVarchar, kVarchar, kBigint}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string&) {
                  return SplitPart(StrAt(*a[0], row).view(), StrAt(*a[1], row).view(),
                                   a[2]->data<int64_t>()[row]);
                }));

  // position(string, substring): the parser turns POSITION(sub IN s) into position(s, sub),
  // the argument order of PostgreSQL's function form (and of strpos / instr).
  for (const char* name : {"position", "strpos", "instr"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, kBigint,
                  ValueKernel<int64_t>([](const Args& a, idx_t row) {
                    return Position(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                  }));
  }
  // ^@ is the operator form (PostgreSQL's and DuckDB's).
  for (const char* name : {"starts_with", "prefix", "^@"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, kBoolean,
                  ValueKernel<uint8_t>([](const Args& a, idx_t row) -> uint8_t {
                    return StrAt(*a[0], row).view().starts_with(StrAt(*a[1], row).view());
                  }));
  }
  for (const char* name : {"ends_with", "suffix"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, kBoolean,
                  ValueKernel<uint8_t>([](const Args& a, idx_t row) -> uint8_t {
                    return StrAt(*a[0], row).view().ends_with(StrAt(*a[1], row).view());
                  }));
  }
  RegisterFixed(registry, "contains", {kVarchar, kVarchar}, kBoolean,
                ValueKernel<uint8_t>([](const Args& a, idx_t row) -> uint8_t {
                  return StrAt(*a[0], row).view().find(StrAt(*a[1], row).view()) !=
                         std::string_view::npos;
                }));
  RegisterFixed(registry, "ascii", {kVarchar}, LogicalType::Integer(),
                ValueKernel<int32_t>(
                    [](const Args& a, idx_t row) { return Ascii(StrAt(*a[0], row).view()); }));
  RegisterFixed(registry, "strlen", {kVarchar}, kBigint, ByteLengthKernel());
  RegisterFixed(registry, "bit_length", {kVarchar}, kBigint,
                ValueKernel<int64_t>([](const Args& a, idx_t row) {
                  return static_cast<int64_t>(StrAt(*a[0], row).len) * 8;
                }));
  // unicode / ord: the first code point, -1 for the empty string (DuckDB).
  for (const char* name : {"unicode", "ord"}) {
    RegisterFixed(registry, name, {kVarchar}, LogicalType::Integer(),
                  ValueKernel<int32_t>([](const Args& a, idx_t row) {
                    std::string_view s = StrAt(*a[0], row).view();
                    return s.empty() ? -1 : Ascii(s);
                  }));
  }
  RegisterFixed(registry, "translate", {kVarchar, kVarchar, kVarchar}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Translate(StrAt(*a[0], row).view(), StrAt(*a[1], row).view(),
                                   StrAt(*a[2], row).view(), buf);
                }));
  RegisterFixed(registry, "initcap", {kVarchar}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Initcap(StrAt(*a[0], row).view(), buf);
                }));
  for (const char* name : {"levenshtein", "editdist3"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, kBigint,
                  ValueKernel<int64_t>([](const Args& a, idx_t row) {
                    return Levenshtein(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                  }));
  }
  RegisterFixed(registry, "damerau_levenshtein", {kVarchar, kVarchar}, kBigint,
                ValueKernel<int64_t>([](const Args& a, idx_t row) {
                  return DamerauLevenshtein(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                }));
  const LogicalType dbl = LogicalType::Double();
  using Similarity = double (*)(std::string_view, std::string_view);
  for (const auto& entry : {std::pair<const char*, Similarity>{"jaro_similarity", JaroSimilarity},
                            {"jaro_winkler_similarity", JaroWinklerSimilarity}}) {
    // Named copies: clang 14 cannot capture structured bindings.
    const char* name = entry.first;
    const Similarity similarity = entry.second;
    RegisterFixed(registry, name, {kVarchar, kVarchar}, dbl,
                  ValueKernel<double>([similarity](const Args& a, idx_t row) {
                    return similarity(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                  }));
    // The third argument, a score cutoff: a similarity below it is 0.
    RegisterFixed(registry, name, {kVarchar, kVarchar, dbl}, dbl,
                  ValueKernel<double>([similarity](const Args& a, idx_t row) {
                    const double score =
                        similarity(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                    return score < a[2]->data<double>()[row] ? 0.0 : score;
                  }));
  }
  RegisterFixed(registry, "jaccard", {kVarchar, kVarchar}, dbl,
                ValueKernel<double>([](const Args& a, idx_t row) {
                  return Jaccard(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                }));
  for (const char* name : {"hamming", "mismatches"}) {
    RegisterFixed(registry, name, {kVarchar, kVarchar}, kBigint,
                  ValueKernel<int64_t>([](const Args& a, idx_t row) {
                    return Hamming(StrAt(*a[0], row).view(), StrAt(*a[1], row).view());
                  }));
  }
  const LogicalType blob = LogicalType::Blob();
  for (const char* name : {"to_base64", "base64"}) {
    RegisterFixed(registry, name, {blob}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string& buf) {
                    return ToBase64(StrAt(*a[0], row).view(), buf);
                  }));
  }
  RegisterFixed(registry, "from_base64", {kVarchar}, blob,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return FromBase64(StrAt(*a[0], row).view(), buf);
                }));
  for (const char* name : {"hex", "to_hex"}) {
    for (const LogicalType& type : {kVarchar, blob}) {
      RegisterFixed(registry, name, {type}, kVarchar,
                    StringKernel([](const Args& a, idx_t row, std::string& buf) {
                      return HexOfBytes(StrAt(*a[0], row).view(), buf);
                    }));
    }
    RegisterFixed(registry, name, {kBigint}, kVarchar,
                  StringKernel([](const Args& a, idx_t row, std::string& buf) {
                    buf = fmt::format("{:X}", static_cast<uint64_t>(a[0]->data<int64_t>()[row]));
                    return std::string_view(buf);
                  }));
  }
  for (const char* name : {"unhex", "from_hex"}) {
    RegisterFixed(registry, name, {kVarchar}, blob,
                  StringKernel([](const Args& a, idx_t row, std::string& buf) {
                    return Unhex(StrAt(*a[0], row).view(), buf);
                  }));
  }
  RegisterFixed(registry, "chr", {LogicalType::Integer()}, kVarchar,
                StringKernel([](const Args& a, idx_t row, std::string& buf) {
                  return Chr(a[0]->data<int32_t>()[row], buf);
                }));
}

}  // namespace function_internal
}  // namespace shears
