#pragma once
// Bounds of long strings for statistics and page indexes: min and max values are truncated so
// footers stay small, and must still bound every value they describe.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace shears::parquet {

/// A lower bound of `s` of at most `limit` bytes: a prefix (valid UTF-8 when `s` is and `utf8`).
std::string TruncatedLowerBound(std::string_view s, size_t limit, bool utf8);
/// An upper bound of `s` of at most `limit` bytes: `s` itself when short enough, else a prefix
/// whose last character (byte for binary) is incremented; nullopt when none exists.
std::optional<std::string> TruncatedUpperBound(std::string_view s, size_t limit, bool utf8);

}  // namespace shears::parquet
