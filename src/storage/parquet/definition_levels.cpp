#include "storage/parquet/definition_levels.h"

#include <algorithm>
#include <cstring>

namespace shears::parquet {

namespace {

// A word with at most this many NULL rows moves its runs of present rows between them, each in
// one go; one with more, row by row without a branch (runs too short to pay).
constexpr idx_t kFewNulls = 8;

// The mask of a word of `n` rows all present.
uint64_t AllRows(idx_t n) {
  return n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

// Back to front, so values move only up: a word's values come from slots at or below its rows.
template <typename T>
void SpreadTyped(uint8_t* base, const uint64_t* masks, idx_t rows, idx_t present) {
  idx_t src = present;  // values of the rows before the current word's end
  for (idx_t w = (rows + 63) / 64; w-- > 0;) {
    const idx_t first = w * 64;
    const idx_t n = std::min<idx_t>(64, rows - first);
    // Every row so far holds a value: the rest are already in place.
    if (src == first + n) return;
    const uint64_t mask = masks[w];
    const auto in_word = static_cast<idx_t>(PopCount64(mask));
    src -= in_word;
    uint8_t* out = base + first * sizeof(T);
    if (in_word == n) {
      std::memmove(out, base + src * sizeof(T), n * sizeof(T));
      continue;
    }
    if (in_word == 0) {
      std::memset(out, 0, n * sizeof(T));
      continue;
    }
    idx_t from = src + in_word;
    if (n - in_word <= kFewNulls) {
      // Runs of present rows between the NULLs, the highest first, each moved at once.
      idx_t end = n;
      for (uint64_t nulls = ~mask & AllRows(n); nulls != 0;) {
        const auto row = static_cast<idx_t>(63 - __builtin_clzll(nulls));
        from -= end - row - 1;
        std::memmove(out + (row + 1) * sizeof(T), base + from * sizeof(T),
                     (end - row - 1) * sizeof(T));
        std::memset(out + row * sizeof(T), 0, sizeof(T));
        end = row;
        nulls &= ~(uint64_t{1} << row);
      }
      std::memmove(out, base + (from - end) * sizeof(T), end * sizeof(T));
      continue;
    }
    // A NULL row reads some earlier slot (at or below its own) and stores zero instead.
    for (idx_t j = n; j-- > 0;) {
      const bool row_present = (mask >> j) & 1;
      from -= row_present;
      T value;
      std::memcpy(&value, base + from * sizeof(T), sizeof(T));
      value = row_present ? value : T{};
      std::memcpy(out + j * sizeof(T), &value, sizeof(T));
    }
  }
}

template <typename T>
void GatherTyped(uint8_t* dst, const uint8_t* dictionary, const uint32_t* indexes,
                 const uint64_t* masks, idx_t rows) {
  idx_t k = 0;  // the next present row's index
  for (idx_t first = 0, w = 0; first < rows; first += 64, w++) {
    const idx_t n = std::min<idx_t>(64, rows - first);
    const uint64_t mask = masks[w];
    uint8_t* out = dst + first * sizeof(T);
    if (mask == AllRows(n)) {
      for (idx_t j = 0; j < n; j++)
        std::memcpy(out + j * sizeof(T), dictionary + indexes[k + j] * sizeof(T), sizeof(T));
      k += n;
      continue;
    }
    if (mask == 0) {
      std::memset(out, 0, n * sizeof(T));
      continue;
    }
    const uint64_t nulls = ~mask & AllRows(n);
    if (static_cast<idx_t>(PopCount64(nulls)) <= kFewNulls) {
      // Runs of present rows between the NULLs: each a loop without a select or a carried
      // count.
      idx_t row = 0;
      for (uint64_t left = nulls; left != 0; left &= left - 1) {
        const auto null_row = static_cast<idx_t>(__builtin_ctzll(left));
        for (; row < null_row; row++, k++)
          std::memcpy(out + row * sizeof(T), dictionary + indexes[k] * sizeof(T), sizeof(T));
        std::memset(out + row * sizeof(T), 0, sizeof(T));
        row++;
      }
      for (; row < n; row++, k++)
        std::memcpy(out + row * sizeof(T), dictionary + indexes[k] * sizeof(T), sizeof(T));
      continue;
    }
    for (idx_t j = 0; j < n; j++) {
      const bool row_present = (mask >> j) & 1;
      T value;
      std::memcpy(&value, dictionary + indexes[k] * sizeof(T), sizeof(T));
      value = row_present ? value : T{};
      std::memcpy(out + j * sizeof(T), &value, sizeof(T));
      k += row_present;
    }
  }
}

}  // namespace

idx_t PresenceMasks(const uint8_t* levels, idx_t rows, uint8_t max_def, uint64_t* masks) {
  const uint64_t target = 0x0101010101010101ULL * max_def;
  idx_t present = 0;
  for (idx_t first = 0, w = 0; first < rows; first += 64, w++) {
    const idx_t n = std::min<idx_t>(64, rows - first);
    const uint8_t* at = levels + first;
    uint64_t mask = 0;
    idx_t j = 0;
    for (; j + 8 <= n; j += 8) {
      uint64_t word;
      std::memcpy(&word, at + j, 8);
      mask |= EqualBytesMask(word, target) << j;
    }
    for (; j < n; j++)
      mask |= uint64_t{at[j] == max_def} << j;
    masks[w] = mask;
    present += static_cast<idx_t>(PopCount64(mask));
  }
  return present;
}

idx_t NullRows(const uint64_t* masks, idx_t rows, idx_t offset, uint32_t* out) {
  idx_t count = 0;
  for (idx_t first = 0, w = 0; first < rows; first += 64, w++) {
    const idx_t n = std::min<idx_t>(64, rows - first);
    for (uint64_t nulls = ~masks[w] & AllRows(n); nulls != 0; nulls &= nulls - 1) {
      out[count++] =
          static_cast<uint32_t>(offset + first + static_cast<idx_t>(__builtin_ctzll(nulls)));
    }
  }
  return count;
}

void SpreadToRows(uint8_t* base, size_t width, const uint64_t* masks, idx_t rows, idx_t present) {
  switch (width) {
    case 1:
      return SpreadTyped<uint8_t>(base, masks, rows, present);
    case 2:
      return SpreadTyped<uint16_t>(base, masks, rows, present);
    case 4:
      return SpreadTyped<uint32_t>(base, masks, rows, present);
    case 8:
      return SpreadTyped<uint64_t>(base, masks, rows, present);
    case 16:
      return SpreadTyped<unsigned __int128>(base, masks, rows, present);
    default:
      break;
  }
  idx_t src = present;
  for (idx_t i = rows; i-- > 0 && src != i + 1;) {
    if ((masks[i / 64] >> (i % 64)) & 1) {
      --src;
      std::memmove(base + i * width, base + src * width, width);
    } else {
      std::memset(base + i * width, 0, width);
    }
  }
}

void GatherToRows(uint8_t* dst, size_t width, const uint8_t* dictionary, const uint32_t* indexes,
                  const uint64_t* masks, idx_t rows) {
  switch (width) {
    case 4:
      return GatherTyped<uint32_t>(dst, dictionary, indexes, masks, rows);
    case 8:
      return GatherTyped<uint64_t>(dst, dictionary, indexes, masks, rows);
    default:
      return GatherTyped<unsigned __int128>(dst, dictionary, indexes, masks, rows);
  }
}

void CodesToRows(uint32_t* dst, const uint32_t* indexes, const uint64_t* masks, idx_t rows,
                 uint32_t null_code) {
  idx_t k = 0;
  for (idx_t first = 0, w = 0; first < rows; first += 64, w++) {
    const idx_t n = std::min<idx_t>(64, rows - first);
    const uint64_t mask = masks[w];
    uint32_t* out = dst + first;
    if (mask == AllRows(n)) {
      std::memcpy(out, indexes + k, n * sizeof(uint32_t));
      k += n;
      continue;
    }
    if (mask == 0) {
      std::fill(out, out + n, null_code);
      continue;
    }
    for (idx_t j = 0; j < n; j++) {
      const bool row_present = (mask >> j) & 1;
      out[j] = row_present ? indexes[k] : null_code;
      k += row_present;
    }
  }
}

}  // namespace shears::parquet
