#pragma once

#include <cstddef>

namespace shears {

/// True when [data, data+size) is well-formed UTF-8 (no overlongs, no surrogates, <= U+10FFFF).
bool IsValidUtf8(const char* data, size_t size);

}  // namespace shears
