#include "storage/parquet/string_bounds.h"

#include <cstdint>

namespace shears::parquet {

namespace {

// Largest cut <= limit that does not split a UTF-8 character (any cut for binary).
size_t CutPoint(std::string_view s, size_t limit, bool utf8) {
  if (s.size() <= limit) return s.size();
  size_t cut = limit;
  if (utf8) {
    while (cut > 0 && (static_cast<uint8_t>(s[cut]) & 0xC0) == 0x80)
      cut--;
  }
  return cut;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Decodes one well-formed UTF-8 character (the writer validated the text).
uint32_t DecodeUtf8(const char* p, size_t n) {
  const auto b0 = static_cast<uint8_t>(p[0]);
  if (n == 1) return b0;
  uint32_t cp = b0 & (0x7F >> n);
  for (size_t i = 1; i < n; i++)
    cp = (cp << 6) | (static_cast<uint8_t>(p[i]) & 0x3F);
  return cp;
}

}  // namespace

// A lower bound of `s` of at most `limit` bytes: a prefix (valid UTF-8 when s is).
std::string TruncatedLowerBound(std::string_view s, size_t limit, bool utf8) {
  return std::string(s.substr(0, CutPoint(s, limit, utf8)));
}

// An upper bound of `s` of at most `limit` bytes: `s` itself when short enough, else a prefix
// whose last character (byte for binary) is incremented. UTF-8 orders like its code points,
// so incrementing a code point keeps the text valid and greater. nullopt when every
// character is already the largest (0xFF, U+10FFFF).
std::optional<std::string> TruncatedUpperBound(std::string_view s, size_t limit, bool utf8) {
  if (s.size() <= limit) return std::string(s);
  std::string p(s.substr(0, CutPoint(s, limit, utf8)));
  while (!p.empty()) {
    if (!utf8) {
      auto last = static_cast<uint8_t>(p.back());
      if (last != 0xFF) {
        p.back() = static_cast<char>(last + 1);
        return p;
      }
      p.pop_back();
      continue;
    }
    size_t start = p.size() - 1;
    while (start > 0 && (static_cast<uint8_t>(p[start]) & 0xC0) == 0x80)
      start--;
    uint32_t cp = DecodeUtf8(p.data() + start, p.size() - start);
    p.resize(start);
    if (cp < 0x10FFFF) {
      cp = cp + 1 == 0xD800 ? 0xE000 : cp + 1;  // surrogates are not characters
      AppendUtf8(cp, &p);
      return p;
    }
  }
  return std::nullopt;
}

}  // namespace shears::parquet
