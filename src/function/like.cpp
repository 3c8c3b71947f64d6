// LIKE / NOT LIKE / ILIKE / NOT ILIKE with an optional ESCAPE.
//
// `%` matches any run of code points and `_` exactly one. Without an ESCAPE clause the escape
// character is a backslash, as in PostgreSQL; ESCAPE '' disables escaping. A pattern is
// compiled once and reused while the following rows carry the same pattern (the usual
// constant pattern compiles once per query, through a cache in the kernel's closure).
// Compiled patterns take fast paths for exact, prefix, suffix, prefix+suffix and contains
// shapes; the general matcher places the `%`-separated segments greedily leftmost, which is
// exact for LIKE because every segment has a fixed length in code points.
//
// ILIKE lower-cases pattern and input with Utf8Lower (ASCII, Latin-1, Latin Extended-A, Greek,
// Cyrillic), which keeps byte lengths.

#include <cstring>
#include <memory>
#include <mutex>

#include "function/function_internal.h"

namespace shears {
namespace function_internal {
namespace {

/// A run of the pattern between two `%`: literal bytes and `_` placeholders.
struct Segment {
  std::string bytes;          // literal bytes; a placeholder byte where `_` stood
  std::vector<uint8_t> wild;  // per byte: 1 when that byte is a `_` placeholder
  bool has_wildcard = false;
  int64_t code_points = 0;  // length in code points, fixed for any match
};

class LikeMatcher {
 public:
  LikeMatcher(std::string_view pattern, std::string_view escape) { Compile(pattern, escape); }

  bool Match(std::string_view s) const {
    switch (shape_) {
      case Shape::kExact:
        return s == segments_[0].bytes;
      case Shape::kPrefixSuffix: {
        const std::string& prefix = segments_[0].bytes;
        const std::string& suffix = segments_[1].bytes;
        return s.size() >= prefix.size() + suffix.size() && s.starts_with(prefix) &&
               s.ends_with(suffix);
      }
      case Shape::kContains: {
        const std::string& needle = segments_[1].bytes;
        return memmem(s.data(), s.size(), needle.data(), needle.size()) != nullptr;
      }
      case Shape::kGeneral:
        break;
    }
    return MatchGeneral(s);
  }

 private:
  enum class Shape { kExact, kPrefixSuffix, kContains, kGeneral };

  void Compile(std::string_view pattern, std::string_view escape) {
    if (Utf8Length(escape) > 1) {
      throw InvalidInputError("invalid escape string '{}': it must be empty or one character",
                              escape);
    }
    segments_.emplace_back();
    size_t pos = 0;
    while (pos < pattern.size()) {
      const size_t len = Utf8SequenceLength(static_cast<unsigned char>(pattern[pos]));
      std::string_view ch = pattern.substr(pos, len);
      pos += len;
      Segment& segment = segments_.back();
      if (!escape.empty() && ch == escape) {
        if (pos >= pattern.size()) {
          throw InvalidInputError("LIKE pattern '{}' must not end with the escape character",
                                  pattern);
        }
        const size_t next_len = Utf8SequenceLength(static_cast<unsigned char>(pattern[pos]));
        AppendLiteral(segment, pattern.substr(pos, next_len));
        pos += next_len;
      } else if (ch == "%") {
        segments_.emplace_back();
      } else if (ch == "_") {
        segment.bytes.push_back('_');
        segment.wild.push_back(1);
        segment.has_wildcard = true;
        segment.code_points++;
      } else {
        AppendLiteral(segment, ch);
      }
    }
    bool any_wildcard = false;
    for (const Segment& segment : segments_)
      any_wildcard |= segment.has_wildcard;
    if (any_wildcard) {
      shape_ = Shape::kGeneral;
    } else if (segments_.size() == 1) {
      shape_ = Shape::kExact;
    } else if (segments_.size() == 2) {
      shape_ = Shape::kPrefixSuffix;
    } else if (segments_.size() == 3 && segments_[0].bytes.empty() && segments_[2].bytes.empty()) {
      shape_ = Shape::kContains;
    } else {
      shape_ = Shape::kGeneral;
    }
  }

  static void AppendLiteral(Segment& segment, std::string_view ch) {
    segment.bytes.append(ch);
    segment.wild.insert(segment.wild.end(), ch.size(), 0);
    segment.code_points++;
  }

  /// Matches `segment` at byte `pos` of `s` without passing `limit`; returns the end, or npos.
  static size_t MatchAt(const Segment& segment, std::string_view s, size_t pos, size_t limit) {
    const std::string& bytes = segment.bytes;
    for (size_t i = 0; i < bytes.size(); i++) {
      if (pos >= limit) return std::string_view::npos;
      if (segment.wild[i]) {
        pos += Utf8SequenceLength(static_cast<unsigned char>(s[pos]));
        if (pos > limit) return std::string_view::npos;
      } else {
        if (s[pos] != bytes[i]) return std::string_view::npos;
        pos++;
      }
    }
    return pos;
  }

  /// Leftmost match of `segment` within [pos, limit); returns its end, or npos.
  static size_t FindFrom(const Segment& segment, std::string_view s, size_t pos, size_t limit) {
    if (!segment.has_wildcard) {
      const std::string& needle = segment.bytes;
      if (limit - pos < needle.size()) return std::string_view::npos;
      const void* found = memmem(s.data() + pos, limit - pos, needle.data(), needle.size());
      if (!found) return std::string_view::npos;
      return static_cast<size_t>(static_cast<const char*>(found) - s.data()) + needle.size();
    }
    while (pos < limit) {
      size_t end = MatchAt(segment, s, pos, limit);
      if (end != std::string_view::npos) return end;
      pos += Utf8SequenceLength(static_cast<unsigned char>(s[pos]));
    }
    return std::string_view::npos;
  }

  bool MatchGeneral(std::string_view s) const {
    const size_t npos = std::string_view::npos;
    if (segments_.size() == 1) return MatchAt(segments_[0], s, 0, s.size()) == s.size();
    size_t pos = MatchAt(segments_[0], s, 0, s.size());
    if (pos == npos) return false;
    // The last segment ends at the end of the string: walk back its length in code points.
    const Segment& last = segments_.back();
    size_t start = s.size();
    for (int64_t n = 0; n < last.code_points; n++) {
      if (start <= pos) return false;
      start--;
      while (start > pos && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80)
        start--;
    }
    if (MatchAt(last, s, start, s.size()) != s.size()) return false;
    for (size_t i = 1; i + 1 < segments_.size(); i++) {
      if (segments_[i].bytes.empty()) continue;
      pos = FindFrom(segments_[i], s, pos, start);
      if (pos == npos) return false;
    }
    return true;
  }

  std::vector<Segment> segments_;
  Shape shape_ = Shape::kGeneral;
};

/// The last compiled pattern, shared by the copies of one bound function (threads may run
/// it concurrently, hence the lock, taken once per batch).
struct LikeCache {
  std::mutex mutex;
  std::string pattern, escape;
  std::shared_ptr<const LikeMatcher> matcher;
};

ScalarKernel LikeKernel(bool negate, bool case_insensitive, bool has_escape) {
  auto cache = std::make_shared<LikeCache>();
  return [=](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
    std::shared_ptr<const LikeMatcher> matcher;
    std::string pattern, escape;
    {
      std::lock_guard<std::mutex> lock(cache->mutex);
      matcher = cache->matcher;
      pattern = cache->pattern;
      escape = cache->escape;
    }
    bool changed = false;
    std::string lowered, lowered_pattern, lowered_escape;
    const StringRef* values = args[0]->data<StringRef>();
    const StringRef* patterns = args[1]->data<StringRef>();
    uint8_t* out = result.data<uint8_t>();
    ForEachValidRow(args, count, result, [&](idx_t row) {
      std::string_view p = patterns[row].view();
      std::string_view e = has_escape ? args[2]->data<StringRef>()[row].view() : "\\";
      if (!matcher || p != pattern || e != escape) {
        pattern.assign(p);
        escape.assign(e);
        if (case_insensitive) {
          Utf8Lower(p, &lowered_pattern);
          Utf8Lower(e, &lowered_escape);
          matcher = std::make_shared<LikeMatcher>(lowered_pattern, lowered_escape);
        } else {
          matcher = std::make_shared<LikeMatcher>(p, e);
        }
        changed = true;
      }
      std::string_view value = values[row].view();
      if (case_insensitive) {
        Utf8Lower(value, &lowered);
        value = lowered;
      }
      out[row] = matcher->Match(value) != negate;
    });
    if (changed) {
      std::lock_guard<std::mutex> lock(cache->mutex);
      cache->matcher = std::move(matcher);
      cache->pattern = std::move(pattern);
      cache->escape = std::move(escape);
    }
  };
}

void RegisterLike(FunctionRegistry& registry, const std::string& name, bool negate,
                  bool case_insensitive) {
  const LogicalType varchar = LogicalType::Varchar();
  for (bool has_escape : {false, true}) {
    std::vector<LogicalType> params = {varchar, varchar};
    if (has_escape) params.push_back(varchar);
    // A resolver, not a fixed kernel, so each bound call gets its own pattern cache.
    registry.Register(
        name,
        [=](const std::vector<LogicalType>& args) -> std::optional<BoundScalarFunction> {
          if (args.size() != params.size()) return std::nullopt;
          for (size_t i = 0; i < args.size(); i++) {
            if (!CanImplicitCast(args[i], params[i])) return std::nullopt;
          }
          return MakeBound(params, LogicalType::Boolean(),
                           LikeKernel(negate, case_insensitive, has_escape));
        },
        SignatureText(name, params));
  }
}

}  // namespace

void RegisterLikeFunctions(FunctionRegistry& registry) {
  RegisterLike(registry, "like", false, false);
  RegisterLike(registry, "not_like", true, false);
  RegisterLike(registry, "ilike", false, true);
  RegisterLike(registry, "not_ilike", true, true);
}

}  // namespace function_internal
}  // namespace shears
