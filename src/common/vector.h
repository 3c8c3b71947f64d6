#pragma once
// Columnar batches: a Vector holds up to `capacity` values of one type plus a validity mask;
// a Batch holds one Vector per column and the number of rows in use. String values are
// StringRefs into buffers the vector keeps alive (decoded pages or its own string heap),
// so no value needs its own heap allocation.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/types.h"

namespace shears {

/// Rows per batch everywhere in the engine.
constexpr idx_t kBatchSize = 2048;

/// One bit per row; an empty mask means "all valid", the common case, at no cost.
class ValidityMask {
 public:
  bool AllValid() const { return bits_.empty(); }
  bool IsValid(idx_t row) const { return bits_.empty() || (bits_[row >> 6] >> (row & 63)) & 1; }
  void SetNull(idx_t row) {
    EnsureWritable();
    bits_[row >> 6] &= ~(uint64_t{1} << (row & 63));
  }
  /// Marks rows[0..count) NULL: one check for storage, then a bit cleared per row.
  void SetNull(const uint32_t* rows, idx_t count) {
    if (count == 0) return;
    EnsureWritable();
    uint64_t* bits = bits_.data();
    for (idx_t i = 0; i < count; i++)
      bits[rows[i] >> 6] &= ~(uint64_t{1} << (rows[i] & 63));
  }
  void SetValid(idx_t row) {
    if (bits_.empty()) return;
    bits_[row >> 6] |= uint64_t{1} << (row & 63);
  }
  void Set(idx_t row, bool valid) { valid ? SetValid(row) : SetNull(row); }
  /// Marks every row valid again (keeps no storage).
  void Reset() { bits_.clear(); }
  /// Sets the number of rows the mask covers; must be called before SetNull.
  void Resize(idx_t capacity) {
    capacity_ = capacity;
    if (!bits_.empty()) bits_.resize((capacity + 63) / 64, ~uint64_t{0});
  }
  idx_t CountNulls(idx_t count) const;
  const uint64_t* data() const { return bits_.data(); }

 private:
  void EnsureWritable() {
    if (bits_.empty()) bits_.assign((capacity_ + 63) / 64, ~uint64_t{0});
  }
  std::vector<uint64_t> bits_;
  idx_t capacity_ = kBatchSize;
};

/// Append-only arena for string bytes owned by a vector.
class StringHeap {
 public:
  char* Allocate(size_t size);
  /// Makes the next `size` bytes of allocations come from one chunk (of that size when the
  /// current one is short): a caller that knows its total allocates once.
  void Reserve(size_t size);
  StringRef Add(std::string_view value);
  size_t allocated_bytes() const { return allocated_; }

 private:
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t chunk_used_ = 0;
  size_t chunk_size_ = 0;
  size_t allocated_ = 0;
};

class Vector {
 public:
  Vector() = default;
  explicit Vector(LogicalType type, idx_t capacity = kBatchSize);
  // Copies would silently share the value buffer; use Reference or CopyRows to say which.
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;
  Vector(Vector&&) = default;
  Vector& operator=(Vector&&) = default;

  const LogicalType& type() const { return type_; }
  idx_t capacity() const { return capacity_; }
  /// Grows the value storage (keeps existing values).
  void Reserve(idx_t capacity);

  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(data_.get());
  }
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(data_.get());
  }
  uint8_t* raw_data() { return data_.get(); }

  ValidityMask& validity() { return validity_; }
  const ValidityMask& validity() const { return validity_; }
  bool IsNull(idx_t row) const { return !validity_.IsValid(row); }

  /// Copies `value` into this vector's string heap and returns a reference to the copy.
  StringRef AddString(std::string_view value);
  /// Makes the next `bytes` of AddString one allocation.
  void ReserveStrings(size_t bytes);
  /// Keeps `owner` alive as long as this vector, for StringRefs that point into it.
  void KeepAlive(std::shared_ptr<const void> owner);
  /// Drops values, nulls and string buffers; keeps type and capacity. A vector that shared
  /// its values with another (Reference) gets a buffer of its own again.
  void Reset();
  /// Makes this vector show the same values as `other` without copying them (the buffers are
  /// shared; neither vector may be written until Reset).
  void Reference(const Vector& other);
  /// Makes this vector show `count` values at `data` (laid out as its type's values) without
  /// copying them; `owner` keeps them alive as long as any vector shows them. All rows valid;
  /// not to be written until Reset (which gives it a buffer of its own again).
  void ReferenceExternal(const void* data, idx_t count, const std::shared_ptr<const void>& owner);
  /// Copies rows `sel[0..count)` of `source` to rows [0, count) of this vector (strings keep
  /// pointing into source's buffers, which this vector then keeps alive).
  void CopyRows(const Vector& source, const uint32_t* sel, idx_t count);
  /// Keeps rows `sel[0..count)` as rows [0, count) in this vector's own buffer when it owns it
  /// alone; returns false, changing nothing, otherwise. Requires sel[i] >= i for every i.
  bool CompactInPlace(const uint32_t* sel, idx_t count);
  /// Keeps the buffers `source`'s strings point into alive as long as this vector.
  void ShareStringBuffers(const Vector& source);
  /// Copies `count` rows of `source` starting at row 0 to this vector starting at `offset`.
  void Append(const Vector& source, idx_t count, idx_t offset);

  /// The value at `row` as text, as the CLI shows it (NULL for nulls).
  std::string ValueToString(idx_t row) const;

 private:
  LogicalType type_;
  idx_t capacity_ = 0;
  std::shared_ptr<uint8_t[]> data_;
  // The buffer this vector owned before a Reference, given back by Reset: an operator output
  // that references its input batch after batch allocates no buffer per batch.
  std::shared_ptr<uint8_t[]> spare_;
  idx_t spare_capacity_ = 0;
  ValidityMask validity_;
  std::shared_ptr<StringHeap> heap_;
  std::vector<std::shared_ptr<const void>> owners_;
};

/// Row indexes selected from a batch, in increasing order.
class SelectionVector {
 public:
  SelectionVector() = default;
  explicit SelectionVector(idx_t capacity) : indexes_(capacity) {}
  uint32_t operator[](idx_t i) const { return indexes_[i]; }
  void Set(idx_t i, uint32_t row) { indexes_[i] = row; }
  uint32_t* data() { return indexes_.data(); }
  idx_t capacity() const { return indexes_.size(); }

 private:
  std::vector<uint32_t> indexes_;
};

class Batch {
 public:
  Batch() = default;
  explicit Batch(const std::vector<LogicalType>& types, idx_t capacity = kBatchSize);

  idx_t size() const { return size_; }
  void SetSize(idx_t size) { size_ = size; }
  idx_t column_count() const { return columns_.size(); }
  Vector& column(idx_t i) { return columns_[i]; }
  /// Keeps only rows sel[0..count) (in that order).
  void Select(const uint32_t* sel, idx_t count);
  std::vector<LogicalType> types() const;
  const Vector& column(idx_t i) const { return columns_[i]; }
  std::vector<Vector>& columns() { return columns_; }
  void Reset();

  // A pending selection: column i's row r is row (*sel)[r] of its vector, not yet copied.
  // An operator that drops rows (a join probe) leaves the survivors' columns so, and only an
  // operator that says it reads selections (PhysicalOperator::AcceptsSelection) ever sees
  // such a batch: the pipeline flattens it for any other. A chain of joins then copies each
  // column once, where the next operator needs it, instead of at every join.
  using Selection = std::shared_ptr<const std::vector<uint32_t>>;
  void SetSelection(idx_t i, Selection sel);
  /// Column i's pending selection, or null when its vector holds its rows in order.
  const Selection& selection(idx_t i) const;
  bool HasSelection() const { return !selections_.empty(); }
  /// Copies the selected rows of every column with a pending selection into a vector of its own.
  void Flatten();
  /// Flattens only column i.
  void FlattenColumn(idx_t i);

 private:
  std::vector<Vector> columns_;
  idx_t size_ = 0;
  std::vector<Selection> selections_;  // empty, or one (possibly null) per column
};

}  // namespace shears
