#include "common/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace shears {

namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // reflected Castagnoli

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; bit++)
      crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    table[i] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

uint32_t Crc32cTable(uint32_t crc, const uint8_t* data, size_t size) {
  for (size_t i = 0; i < size; i++)
    crc = (crc >> 8) ^ kTable[(crc ^ data[i]) & 0xFF];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t Crc32cHardware(uint32_t crc, const uint8_t* data,
                                                          size_t size) {
  uint64_t value = crc;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    value = _mm_crc32_u64(value, word);
  }
  auto crc32 = static_cast<uint32_t>(value);
  for (; i < size; i++)
    crc32 = _mm_crc32_u8(crc32, data[i]);
  return crc32;
}

// __builtin_cpu_init first: a static initializer may run before the runtime's own.
const bool kHasHardware = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2") != 0;
}();
#endif

}  // namespace

uint32_t Crc32c(uint32_t crc, const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  crc = ~crc;
#if defined(__x86_64__)
  crc = kHasHardware ? Crc32cHardware(crc, bytes, size) : Crc32cTable(crc, bytes, size);
#else
  crc = Crc32cTable(crc, bytes, size);
#endif
  return ~crc;
}

}  // namespace shears
