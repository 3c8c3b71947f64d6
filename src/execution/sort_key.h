#pragma once
// ORDER BY keys as byte strings whose memcmp order is the ORDER BY order ("normalized keys"),
// so sorting is a radix sort over bytes instead of a comparator calling into typed code.
//
// A sort record is   [key bytes][sequence: 4 bytes big-endian][row pointer: 8 bytes].
// Per key column the key bytes are a NULL byte (placing NULLs first or last) and the value:
// integers big-endian with the sign bit flipped, doubles by their bits made orderable (-0.0 as
// 0.0, NaN last), strings as a 12-byte prefix; DESC inverts the value bytes. The sequence
// number makes equal keys keep their input order (stable). A string longer than the prefix
// (or with a zero byte in it) sets a flag bit in the pointer's top 16 bits; records tied on
// such a prefix are then ordered by the full strings, read from the row the record points to.

#include <vector>

#include "common/vector.h"
#include "execution/row_layout.h"
#include "planner/logical_plan.h"

namespace shears {

class SortKeyLayout {
 public:
  static constexpr uint32_t kStringPrefix = 12;
  static constexpr uint32_t kSequenceBytes = 4;

  /// `orders` over the input; `string_columns[i]`: for each order key of string type, the
  /// column of `payload` (the rows records point to) holding its full value.
  SortKeyLayout(const std::vector<BoundOrderBy>& orders, const RowLayout* payload,
                std::vector<idx_t> string_columns);

  uint32_t key_width() const { return key_width_; }
  /// Bytes memcmp compares: key and sequence.
  uint32_t compare_width() const { return key_width_ + kSequenceBytes; }
  uint32_t record_width() const { return key_width_ + kSequenceBytes + 8; }

  /// Writes records[i] for i < count: keys from key_values (one vector per order key), the
  /// sequence seq + i and the pointer rows[i] (rows may be null: pointers set later).
  void Encode(const std::vector<const Vector*>& key_values, idx_t count, uint32_t seq,
              uint8_t* const* rows, uint8_t* records) const;

  static uint8_t* RowOf(const uint8_t* record, uint32_t key_width) {
    return EntryRow(LoadRow<uint64_t>(record + key_width + kSequenceBytes));
  }
  uint8_t* RowOf(const uint8_t* record) const { return RowOf(record, key_width_); }
  uint16_t Flags(const uint8_t* record) const {
    return static_cast<uint16_t>(LoadRow<uint64_t>(record + key_width_ + kSequenceBytes) >> 48);
  }
  void SetRow(uint8_t* record, const uint8_t* row) const;

  /// Total order of two records (keys with full strings where needed, then sequence).
  int Compare(const uint8_t* a, const uint8_t* b) const;
  /// The order of two records' keys (not the sequence) as far as the key bytes tell: -1, 0 or
  /// 1, or kUndecided when it takes full strings (prefixes equal where one of them is longer).
  /// Needs no row pointers.
  static constexpr int kUndecided = 2;
  int CompareKeyBytes(const uint8_t* a, const uint8_t* b) const;
  /// Whether two records are equal on their first `key_count` keys (NULLs equal NULLs): rows
  /// of one window partition, or peers.
  bool KeysEqual(const uint8_t* a, const uint8_t* b, idx_t key_count) const;
  /// Sorts `count` records in place (`count * record_width` bytes).
  void Sort(uint8_t* records, idx_t count) const;

 private:
  struct Column {
    LogicalType type;
    bool descending;
    bool nulls_first;
    uint32_t offset;        // of the NULL byte within the key
    uint32_t width;         // NULL byte + value bytes
    int string_index = -1;  // flag bit / index into string_columns_
  };
  int CompareStrings(const uint8_t* a, const uint8_t* b, const Column& column) const;
  void ResolveTies(uint8_t* records, idx_t count, size_t string_key) const;
  void SortRun(uint8_t* records, idx_t count) const;

  std::vector<Column> columns_;
  std::vector<idx_t> string_keys_;  // indexes into columns_ of string keys, in order
  const RowLayout* payload_;
  std::vector<idx_t> string_columns_;
  uint32_t key_width_ = 0;
};

/// Merges sorted record runs into the row order: out gets the row pointers of records
/// [skip, skip + limit) of the merged sequence (limit < 0: all).
void MergeSortedRuns(const SortKeyLayout& keys, const std::vector<const uint8_t*>& runs,
                     const std::vector<idx_t>& counts, idx_t skip, int64_t limit,
                     std::vector<uint8_t*>& out);

}  // namespace shears
