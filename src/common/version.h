#pragma once
// shears' version: what version() and PRAGMA version report.

namespace shears {

inline constexpr const char* kShearsVersion = "0.1.0";

}  // namespace shears
