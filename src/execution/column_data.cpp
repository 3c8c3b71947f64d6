#include "execution/column_data.h"

#include <cstring>

#include "execution/query_context.h"

namespace shears {

ColumnDataCollection::ColumnDataCollection(std::vector<LogicalType> types, MemoryTracker* memory)
    : types_(std::move(types)), memory_(memory) {}

ColumnDataCollection::~ColumnDataCollection() {
  if (memory_ && bytes_ > 0) memory_->Release(bytes_);
}

void DeepCopyBatch(const Batch& source, Batch& target) {
  const idx_t count = source.size();
  for (idx_t c = 0; c < source.column_count(); c++) {
    const Vector& in = source.column(c);
    Vector& out = target.column(c);
    out.Reset();
    if (out.capacity() < count) out.Reserve(count);
    const size_t width = in.type().value_size();
    if (in.type().IsString()) {
      const StringRef* src = in.data<StringRef>();
      StringRef* dst = out.data<StringRef>();
      // One allocation for the batch's bytes instead of a chain of doubling chunks.
      size_t bytes = 0;
      for (idx_t i = 0; i < count; i++)
        bytes += in.IsNull(i) ? 0 : src[i].len;
      out.ReserveStrings(bytes);
      for (idx_t i = 0; i < count; i++) {
        dst[i] = in.IsNull(i) ? StringRef() : out.AddString(src[i].view());
      }
    } else {
      std::memcpy(out.raw_data(), const_cast<Vector&>(in).raw_data(), count * width);
    }
    if (!in.validity().AllValid()) {
      for (idx_t i = 0; i < count; i++) {
        if (in.IsNull(i)) out.validity().SetNull(i);
      }
    }
  }
  target.SetSize(count);
}

void ColumnDataCollection::Append(const Batch& batch) {
  if (batch.size() == 0) return;
  auto copy = std::make_unique<Batch>(types_, batch.size());
  DeepCopyBatch(batch, *copy);
  int64_t bytes = 0;
  for (idx_t c = 0; c < types_.size(); c++) {
    bytes += static_cast<int64_t>(batch.size() * types_[c].value_size());
    if (types_[c].IsString()) {
      const StringRef* refs = copy->column(c).data<StringRef>();
      for (idx_t i = 0; i < batch.size(); i++)
        bytes += refs[i].len;
    }
  }
  if (memory_) memory_->Reserve(bytes);
  bytes_ += bytes;
  rows_ += batch.size();
  batches_.push_back(std::move(copy));
}

void ColumnDataCollection::Combine(ColumnDataCollection& other) {
  for (auto& b : other.batches_)
    batches_.push_back(std::move(b));
  rows_ += other.rows_;
  // The memory moves with the batches: `other` no longer releases it.
  if (memory_ == other.memory_) {
    bytes_ += other.bytes_;
  } else {
    if (memory_) memory_->Reserve(other.bytes_);
    if (other.memory_) other.memory_->Release(other.bytes_);
    bytes_ += other.bytes_;
  }
  other.batches_.clear();
  other.rows_ = 0;
  other.bytes_ = 0;
}

}  // namespace shears
