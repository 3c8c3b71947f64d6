#pragma once
// Small string helpers shared across the engine.

#include <string>
#include <string_view>

namespace shears {

/// ASCII lower case: SQL identifiers, keywords and option names compare case-insensitively.
std::string AsciiLower(std::string_view s);
/// Whether AsciiLower(s) == lower, without building it.
bool EqualsAsciiLower(std::string_view s, std::string_view lower);

}  // namespace shears
