#pragma once
// Small string helpers shared across the engine.

#include <string>
#include <string_view>

namespace shears {

/// ASCII lower case: SQL identifiers, keywords and option names compare case-insensitively.
std::string AsciiLower(std::string_view s);
/// Whether AsciiLower(s) == lower, without building it.
bool EqualsAsciiLower(std::string_view s, std::string_view lower);
/// Whether `a` and `b` are equal ignoring ASCII case.
bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b);
/// `text` without the C locale's white space (space, \t, \n, \r, \v, \f) at either end, as
/// casts from text trim it.
std::string_view TrimWhitespace(std::string_view text);

}  // namespace shears
