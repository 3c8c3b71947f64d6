#include "distributed/batch_codec.h"

#include <cstring>

#include "common/error.h"

namespace shears {

namespace {

template <typename T>
void Put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool done() const { return pos_ == data_.size(); }
  const char* Take(size_t bytes) {
    if (bytes > data_.size() - pos_) throw InternalError("gathered rows are truncated");
    const char* at = data_.data() + pos_;
    pos_ += bytes;
    return at;
  }
  template <typename T>
  T Get() {
    T value;
    std::memcpy(&value, Take(sizeof(T)), sizeof(T));
    return value;
  }

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace

void EncodeBatch(const Batch& batch, std::string& out) {
  const idx_t rows = batch.size();
  Put<uint32_t>(out, static_cast<uint32_t>(rows));
  for (idx_t c = 0; c < batch.column_count(); c++) {
    const Vector& column = batch.column(c);
    const bool has_nulls = !column.validity().AllValid() && column.validity().CountNulls(rows) > 0;
    Put<uint8_t>(out, has_nulls ? 1 : 0);
    if (has_nulls) {
      for (idx_t r = 0; r < rows; r++)
        Put<uint8_t>(out, column.IsNull(r) ? 0 : 1);
    }
    if (column.type().physical() == PhysicalType::kString) {
      const StringRef* values = column.data<StringRef>();
      for (idx_t r = 0; r < rows; r++)
        Put<uint32_t>(out, column.IsNull(r) ? 0 : values[r].len);
      for (idx_t r = 0; r < rows; r++) {
        if (!column.IsNull(r)) out.append(values[r].ptr, values[r].len);
      }
    } else {
      // NULL rows' values are copied too (their bytes mean nothing): one copy per column.
      out.append(reinterpret_cast<const char*>(column.data<uint8_t>()),
                 rows * column.type().value_size());
    }
  }
}

void DecodeBatches(std::string_view data, ColumnDataCollection& rows) {
  Reader in(data);
  const auto& types = rows.types();
  while (!in.done()) {
    const idx_t count = in.Get<uint32_t>();
    if (count > kBatchSize) throw InternalError("gathered batch of {} rows", count);
    Batch batch(types, std::max<idx_t>(count, 1));
    for (idx_t c = 0; c < types.size(); c++) {
      Vector& column = batch.column(c);
      const bool has_nulls = in.Get<uint8_t>() != 0;
      if (has_nulls) {
        const char* valid = in.Take(count);
        for (idx_t r = 0; r < count; r++) {
          if (!valid[r]) column.validity().SetNull(r);
        }
      }
      if (types[c].physical() == PhysicalType::kString) {
        const char* lengths = in.Take(count * sizeof(uint32_t));
        StringRef* values = column.data<StringRef>();
        for (idx_t r = 0; r < count; r++) {
          uint32_t len;
          std::memcpy(&len, lengths + r * sizeof(uint32_t), sizeof(len));
          values[r] = column.AddString(std::string_view(in.Take(len), len));
        }
      } else {
        const size_t bytes = count * types[c].value_size();
        if (bytes > 0) std::memcpy(column.raw_data(), in.Take(bytes), bytes);
      }
    }
    batch.SetSize(count);
    rows.Append(batch);
  }
}

}  // namespace shears
