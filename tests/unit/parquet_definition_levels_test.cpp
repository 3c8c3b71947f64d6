// The definition-level bits the reader works with (definition_levels.h), against a row-by-row
// reference: byte comparison eight at a time for every pattern of eight, the bit count, and
// the moves of values to their rows for every count of rows around the 64-row words.

#include "storage/parquet/definition_levels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace shears::parquet {
namespace {

TEST(DefinitionLevelsTest, EqualBytesMaskEveryPattern) {
  for (int target : {0, 1, 2, 3, 255}) {
    const uint64_t repeated = 0x0101010101010101ULL * static_cast<uint64_t>(target);
    for (int pattern = 0; pattern < 256; pattern++) {
      // Bytes equal to the target where the pattern's bit is set, others differing in one
      // high or low bit (the carries of the trick).
      uint8_t bytes[8];
      for (int i = 0; i < 8; i++) {
        const int other = (i % 2 == 0) ? (target ^ 0x80) : (target ^ 0x01);
        bytes[i] = static_cast<uint8_t>((pattern >> i) & 1 ? target : other);
      }
      uint64_t word;
      std::memcpy(&word, bytes, 8);
      EXPECT_EQ(EqualBytesMask(word, repeated), static_cast<uint64_t>(pattern))
          << "target " << target << " pattern " << pattern;
    }
  }
}

TEST(DefinitionLevelsTest, PopCount) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 1000; i++) {
    const uint64_t word = random() & random();
    int expected = 0;
    for (int b = 0; b < 64; b++)
      expected += static_cast<int>((word >> b) & 1);
    EXPECT_EQ(PopCount64(word), expected);
  }
  EXPECT_EQ(PopCount64(~uint64_t{0}), 64);
  EXPECT_EQ(PopCount64(0), 0);
}

// Levels 0..2 (max 2) in runs and at random, for every row count to 200 and some offsets.
TEST(DefinitionLevelsTest, MovesMatchRowByRow) {
  std::mt19937 random(11);
  for (idx_t rows = 0; rows <= 200; rows++) {
    for (int shape = 0; shape < 4; shape++) {
      std::vector<uint8_t> levels(rows);
      for (idx_t i = 0; i < rows; i++) {
        switch (shape) {
          case 0:  // all present but one in 13
            levels[i] = i % 13 == 5 ? 1 : 2;
            break;
          case 1:  // runs of 64 present and NULL, shifted
            levels[i] = (i + 17) / 64 % 2 == 0 ? 2 : 0;
            break;
          case 2:
            levels[i] = static_cast<uint8_t>(random() % 3);
            break;
          default:  // all NULL but the last
            levels[i] = i + 1 == rows ? 2 : 0;
            break;
        }
      }
      std::vector<uint64_t> masks((rows + 63) / 64 + 1, 0xdeadbeef);
      const idx_t present = PresenceMasks(levels.data(), rows, 2, masks.data());
      idx_t expected_present = 0;
      for (idx_t i = 0; i < rows; i++) {
        const bool bit = (masks[i / 64] >> (i % 64)) & 1;
        ASSERT_EQ(bit, levels[i] == 2) << rows << " rows, row " << i;
        expected_present += levels[i] == 2;
      }
      if (rows % 64 != 0) {
        EXPECT_EQ(masks[rows / 64] >> (rows % 64), 0u) << "bits past the last row";
      }
      ASSERT_EQ(present, expected_present);

      // NullRows, from an offset.
      std::vector<uint32_t> nulls(rows);
      const idx_t null_count = NullRows(masks.data(), rows, 100, nulls.data());
      std::vector<uint32_t> expected_nulls;
      for (idx_t i = 0; i < rows; i++) {
        if (levels[i] != 2) expected_nulls.push_back(static_cast<uint32_t>(100 + i));
      }
      nulls.resize(null_count);
      EXPECT_EQ(nulls, expected_nulls);

      // Spread (8-byte, 16-byte and an odd width), gather and codes against row by row.
      for (size_t width : {size_t{1}, size_t{8}, size_t{16}, size_t{3}}) {
        std::vector<uint8_t> base(rows * width + 1, 0xee);
        for (idx_t k = 0; k < present * width; k++)
          base[k] = static_cast<uint8_t>(k % 251 + 1);
        std::vector<uint8_t> expected(rows * width, 0);
        idx_t k = 0;
        for (idx_t i = 0; i < rows; i++) {
          if (levels[i] != 2) continue;
          for (size_t b = 0; b < width; b++)
            expected[i * width + b] = static_cast<uint8_t>((k * width + b) % 251 + 1);
          k++;
        }
        SpreadToRows(base.data(), width, masks.data(), rows, present);
        base.resize(rows * width);
        ASSERT_EQ(base, expected) << rows << " rows, width " << width << ", shape " << shape;
      }
      std::vector<uint32_t> indexes(present + 1);
      for (idx_t k = 0; k <= present; k++)
        indexes[k] = static_cast<uint32_t>(k % 5);
      std::vector<uint64_t> dictionary = {11, 22, 33, 44, 55};
      std::vector<uint64_t> gathered(rows, 99);
      GatherToRows(reinterpret_cast<uint8_t*>(gathered.data()), 8,
                   reinterpret_cast<const uint8_t*>(dictionary.data()), indexes.data(),
                   masks.data(), rows);
      std::vector<uint32_t> codes(rows, 99);
      CodesToRows(codes.data(), indexes.data(), masks.data(), rows, 5);
      idx_t next = 0;
      for (idx_t i = 0; i < rows; i++) {
        const bool row_present = levels[i] == 2;
        ASSERT_EQ(gathered[i], row_present ? dictionary[indexes[next]] : 0) << i;
        ASSERT_EQ(codes[i], row_present ? indexes[next] : 5u) << i;
        next += row_present;
      }
    }
  }
}

}  // namespace
}  // namespace shears::parquet
