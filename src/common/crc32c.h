#pragma once
// CRC-32C (Castagnoli), incremental: what spill files use to notice bytes that changed on
// disk. The SSE 4.2 instruction where the CPU has it, a table otherwise.

#include <cstddef>
#include <cstdint>

namespace shears {

/// The CRC-32C of `size` bytes at `data`, continuing `crc` (the CRC of the bytes before
/// them; 0 to start). Crc32c(Crc32c(0, a), b) == Crc32c(0, a ++ b).
uint32_t Crc32c(uint32_t crc, const void* data, size_t size);

}  // namespace shears
