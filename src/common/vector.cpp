#include "common/vector.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "common/error.h"
#include "common/interval.h"
#include "common/list.h"

namespace shears {

idx_t ValidityMask::CountNulls(idx_t count) const {
  if (bits_.empty()) return 0;
  idx_t valid = 0;
  idx_t full_words = count / 64;
  for (idx_t w = 0; w < full_words; w++)
    valid += std::popcount(bits_[w]);
  for (idx_t row = full_words * 64; row < count; row++)
    valid += IsValid(row);
  return count - valid;
}

char* StringHeap::Allocate(size_t size) {
  if (chunk_used_ + size > chunk_size_) {
    size_t new_size = std::max<size_t>(size, std::max<size_t>(chunk_size_ * 2, 4096));
    new_size = std::min<size_t>(new_size, std::max<size_t>(size, 1 << 20));
    // Not zero-filled: every byte handed out is written by the caller.
    chunks_.push_back(std::unique_ptr<char[]>(new char[new_size]));
    chunk_size_ = new_size;
    chunk_used_ = 0;
  }
  char* out = chunks_.back().get() + chunk_used_;
  chunk_used_ += size;
  allocated_ += size;
  return out;
}

void StringHeap::Reserve(size_t size) {
  if (chunk_used_ + size <= chunk_size_) return;
  chunks_.push_back(std::unique_ptr<char[]>(new char[size]));
  chunk_size_ = size;
  chunk_used_ = 0;
}

StringRef StringHeap::Add(std::string_view value) {
  if (value.empty()) return StringRef("", 0);
  char* out = Allocate(value.size());
  std::memcpy(out, value.data(), value.size());
  return StringRef(out, static_cast<uint32_t>(value.size()));
}

Vector::Vector(LogicalType type, idx_t capacity) : type_(type) {
  Reserve(capacity);
}

void Vector::Reserve(idx_t capacity) {
  if (capacity <= capacity_ && data_) return;
  size_t width = type_.value_size();
  SHEARS_CHECK(width > 0);
  std::shared_ptr<uint8_t[]> grown(new uint8_t[capacity * width]);
  if (data_) std::memcpy(grown.get(), data_.get(), capacity_ * width);
  data_ = std::move(grown);
  capacity_ = capacity;
  validity_.Resize(capacity);
}

StringRef Vector::AddString(std::string_view value) {
  if (!heap_) heap_ = std::make_shared<StringHeap>();
  return heap_->Add(value);
}

void Vector::ReserveStrings(size_t bytes) {
  if (bytes == 0) return;
  if (!heap_) heap_ = std::make_shared<StringHeap>();
  heap_->Reserve(bytes);
}

void Vector::KeepAlive(std::shared_ptr<const void> owner) {
  owners_.push_back(std::move(owner));
}

void Vector::Reset() {
  if (data_ && data_.use_count() > 1) {
    if (spare_ && spare_capacity_ >= capacity_) {
      data_ = std::move(spare_);
      capacity_ = spare_capacity_;
    } else {
      data_.reset(new uint8_t[capacity_ * type_.value_size()]);
    }
    spare_.reset();
  }
  validity_.Reset();
  validity_.Resize(capacity_);
  heap_.reset();
  owners_.clear();
}

void Vector::Reference(const Vector& other) {
  if (type_.physical() != other.type_.physical()) {
    spare_.reset();
  } else if (data_ && data_.use_count() == 1) {
    spare_ = std::move(data_);
    spare_capacity_ = capacity_;
  }
  type_ = other.type_;
  capacity_ = other.capacity_;
  data_ = other.data_;
  validity_ = other.validity_;
  heap_ = other.heap_;
  owners_ = other.owners_;
}

void Vector::ReferenceExternal(const void* data, idx_t count,
                               const std::shared_ptr<const void>& owner) {
  SHEARS_CHECK(owner != nullptr);
  // Aliasing: the pointer is `data`, the reference count the owner's, so the use count is
  // above one and Reset never writes into the external values.
  data_ = std::shared_ptr<uint8_t[]>(owner, static_cast<uint8_t*>(const_cast<void*>(data)));
  capacity_ = count;
  validity_.Reset();
  validity_.Resize(count);
  heap_.reset();
  owners_.clear();
}

void Vector::CopyRows(const Vector& source, const uint32_t* sel, idx_t count) {
  SHEARS_CHECK(source.type_.physical() == type_.physical());
  if (count > capacity_) Reserve(count);
  const size_t width = type_.value_size();
  const uint8_t* src = source.data_.get();
  uint8_t* dst = data_.get();
  switch (width) {
    case 1:
      for (idx_t i = 0; i < count; i++)
        dst[i] = src[sel[i]];
      break;
    case 4:
      for (idx_t i = 0; i < count; i++)
        std::memcpy(dst + i * 4, src + sel[i] * 4, 4);
      break;
    case 8:
      for (idx_t i = 0; i < count; i++)
        std::memcpy(dst + i * 8, src + sel[i] * 8, 8);
      break;
    case 16:  // strings and HUGEINT / wide DECIMAL
      for (idx_t i = 0; i < count; i++)
        std::memcpy(dst + i * 16, src + sel[i] * 16, 16);
      break;
    default:
      for (idx_t i = 0; i < count; i++)
        std::memcpy(dst + i * width, src + sel[i] * width, width);
  }
  validity_.Reset();
  validity_.Resize(capacity_);
  if (!source.validity_.AllValid()) {
    for (idx_t i = 0; i < count; i++) {
      if (!source.validity_.IsValid(sel[i])) validity_.SetNull(i);
    }
  }
  if (type_.IsString()) ShareStringBuffers(source);
}

void Vector::Append(const Vector& source, idx_t count, idx_t offset) {
  SHEARS_CHECK(source.type_.physical() == type_.physical());
  if (offset + count > capacity_) Reserve(std::max(offset + count, capacity_ * 2));
  const size_t width = type_.value_size();
  std::memcpy(data_.get() + offset * width, source.data_.get(), count * width);
  if (!source.validity_.AllValid()) {
    for (idx_t i = 0; i < count; i++) {
      if (!source.validity_.IsValid(i)) validity_.SetNull(offset + i);
    }
  }
  if (type_.IsString()) ShareStringBuffers(source);
}

void Vector::ShareStringBuffers(const Vector& source) {
  if (source.heap_ && source.heap_ != heap_) owners_.push_back(source.heap_);
  for (const auto& owner : source.owners_)
    owners_.push_back(owner);
}

std::string Vector::ValueToString(idx_t row) const {
  if (IsNull(row)) return "NULL";
  switch (type_.id()) {
    case TypeId::kBoolean:
      return data<uint8_t>()[row] ? "true" : "false";
    case TypeId::kInteger:
      return std::to_string(data<int32_t>()[row]);
    case TypeId::kBigint:
      return std::to_string(data<int64_t>()[row]);
    case TypeId::kDouble:
      return FormatDouble(data<double>()[row]);
    case TypeId::kFloat:
      return FormatFloat(static_cast<float>(data<double>()[row]));
    case TypeId::kDecimal:
      if (type_.physical() == PhysicalType::kInt64) {
        return FormatDecimal(data<int64_t>()[row], type_.scale());
      }
      return FormatDecimal(data<int128_t>()[row], type_.scale());
    case TypeId::kDate:
      return FormatDate(data<int32_t>()[row]);
    case TypeId::kTimestamp:
      return FormatTimestamp(data<int64_t>()[row]);
    case TypeId::kTime:
      return FormatTimeOfDay(data<int64_t>()[row]);
    case TypeId::kVarchar:
      return std::string(data<StringRef>()[row].view());
    case TypeId::kBlob:
      return FormatBlob(data<StringRef>()[row].view());
    case TypeId::kInterval:
      return FormatInterval(UnpackInterval(data<int128_t>()[row]));
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
      return NestedToString(type_, data<StringRef>()[row].view());
    case TypeId::kInvalid:
      break;
  }
  throw InternalError("ValueToString on a vector of invalid type");
}

Batch::Batch(const std::vector<LogicalType>& types, idx_t capacity) {
  columns_.reserve(types.size());
  for (const auto& type : types)
    columns_.emplace_back(type, capacity);
}

namespace {
// Through a local value, so a row that stays (sel[i] == i) is no overlapping memcpy.
template <typename T>
void CompactRows(uint8_t* data, const uint32_t* sel, idx_t count) {
  for (idx_t i = 0; i < count; i++) {
    T value;
    std::memcpy(&value, data + sel[i] * sizeof(T), sizeof(T));
    std::memcpy(data + i * sizeof(T), &value, sizeof(T));
  }
}
}  // namespace

bool Vector::CompactInPlace(const uint32_t* sel, idx_t count) {
  // Only a buffer of its own (a referenced one belongs to another vector too). The caller
  // guarantees every row moves down or stays (sel[i] >= i): row sel[i] is then read before
  // anything overwrites it.
  if (!data_ || data_.use_count() != 1 || count > capacity_) return false;
  const size_t width = type_.value_size();
  uint8_t* data = data_.get();
  switch (width) {
    case 1:
      CompactRows<uint8_t>(data, sel, count);
      break;
    case 2:
      CompactRows<uint16_t>(data, sel, count);
      break;
    case 4:
      CompactRows<uint32_t>(data, sel, count);
      break;
    case 8:
      CompactRows<uint64_t>(data, sel, count);
      break;
    case 16:
      CompactRows<unsigned __int128>(data, sel, count);
      break;
    default:
      for (idx_t i = 0; i < count; i++)
        std::memmove(data + i * width, data + sel[i] * width, width);
  }
  if (!validity_.AllValid()) {
    ValidityMask selected;
    selected.Resize(capacity_);
    for (idx_t i = 0; i < count; i++) {
      if (!validity_.IsValid(sel[i])) selected.SetNull(i);
    }
    validity_ = std::move(selected);
  }
  return true;
}

void Batch::SetSelection(idx_t i, Selection sel) {
  if (selections_.empty()) {
    if (!sel) return;
    selections_.resize(columns_.size());
  }
  selections_[i] = std::move(sel);
}

const Batch::Selection& Batch::selection(idx_t i) const {
  static const Selection kNone;
  return selections_.empty() ? kNone : selections_[i];
}

void Batch::FlattenColumn(idx_t i) {
  if (selections_.empty() || !selections_[i]) return;
  Vector& column = columns_[i];
  // The column shows another vector's values: Reset gives it its own buffer back (kept by
  // Reference) to copy the selected rows into, with no allocation.
  Vector source;
  source.Reference(column);
  column.Reset();
  column.CopyRows(source, selections_[i]->data(), size_);
  selections_[i].reset();
}

void Batch::Flatten() {
  for (idx_t i = 0; i < selections_.size(); i++)
    FlattenColumn(i);
  selections_.clear();
}

void Batch::Select(const uint32_t* sel, idx_t count) {
  Flatten();
  // Filters keep rows in order, so rows only move down: then each column that owns its buffer
  // compacts in place, with no allocation or second buffer.
  bool moves_down = true;
  for (idx_t i = 0; i < count; i++)
    moves_down &= sel[i] >= i;
  for (auto& column : columns_) {
    if (moves_down && column.CompactInPlace(sel, count)) continue;
    // Keep the capacity: the batch is refilled to full size after this.
    Vector selected(column.type(), std::max<idx_t>(column.capacity(), std::max<idx_t>(count, 1)));
    selected.CopyRows(column, sel, count);
    column = std::move(selected);
  }
  size_ = count;
}

std::vector<LogicalType> Batch::types() const {
  std::vector<LogicalType> out;
  for (const auto& column : columns_)
    out.push_back(column.type());
  return out;
}

void Batch::Reset() {
  for (auto& column : columns_)
    column.Reset();
  size_ = 0;
  selections_.clear();
}

}  // namespace shears
