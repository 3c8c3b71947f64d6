// A runtime filter's build state as bytes (RuntimeFilter::EncodeBuild / MergeEncoded), so the
// partial filters of one join built in several processes unite before Finish, as Merge unites
// partials built by threads. Layout, little-endian as in memory (every process runs the same
// binary): build rows, exact_possible, the key hashes, the integer set, the string set
// (lengths then bytes), then per key column its minimum and maximum when known, then for a key
// of several columns per column whether it lists its keys and, if so, its own build state. Also
// the union without the key hashes (runtime_filter.h): shares' bloom bits OR-ed instead.

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "dynfilter/runtime_filter.h"

namespace shears {

namespace {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  template <class T>
  void Put(const T& value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof(T));
  }
  void PutBytes(const void* data, size_t size) {
    Put<uint64_t>(size);
    out_.append(static_cast<const char*>(data), size);
  }

 private:
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <class T>
  T Get() {
    T value;
    std::memcpy(&value, Take(sizeof(T)).data(), sizeof(T));
    return value;
  }
  std::string_view GetBytes() { return Take(Get<uint64_t>()); }
  bool done() const { return at_ == in_.size(); }

 private:
  std::string_view Take(size_t size) {
    if (size > in_.size() - at_) throw InternalError("a partial runtime filter's bytes end early");
    std::string_view out = in_.substr(at_, size);
    at_ += size;
    return out;
  }
  std::string_view in_;
  size_t at_ = 0;
};

void PutValue(Writer& writer, const std::optional<Value>& value, const LogicalType& type) {
  writer.Put<uint8_t>(value ? 1 : 0);
  if (!value) return;
  Vector vector(type, 1);
  WriteValue(vector, 0, *value);
  if (type.physical() == PhysicalType::kString) {
    const std::string_view text = vector.data<StringRef>()[0].view();
    writer.PutBytes(text.data(), text.size());
  } else {
    writer.PutBytes(vector.raw_data(), type.value_size());
  }
}

std::optional<Value> GetValue(Reader& reader, const LogicalType& type) {
  if (reader.Get<uint8_t>() == 0) return std::nullopt;
  const std::string_view bytes = reader.GetBytes();
  Vector vector(type, 1);
  if (type.physical() == PhysicalType::kString) {
    vector.data<StringRef>()[0] = vector.AddString(bytes);
  } else {
    if (bytes.size() != type.value_size())
      throw InternalError("a partial runtime filter's value has {} bytes", bytes.size());
    std::memcpy(vector.raw_data(), bytes.data(), bytes.size());
  }
  return ReadValue(vector, 0);
}

}  // namespace

std::string RuntimeFilter::EncodeBuild() const {
  std::string out;
  Writer writer(out);
  writer.Put<uint64_t>(build_rows_);
  writer.Put<uint8_t>(exact_possible_ ? 1 : 0);
  writer.PutBytes(hashes_.data(), hashes_.size() * sizeof(uint64_t));
  const std::vector<int64_t> ints(int_set_.begin(), int_set_.end());
  writer.PutBytes(ints.data(), ints.size() * sizeof(int64_t));
  writer.Put<uint64_t>(string_set_.size());
  for (const auto& text : string_set_)
    writer.PutBytes(text.data(), text.size());
  for (size_t k = 0; k < key_types_.size(); k++) {
    PutValue(writer, mins_[k], key_types_[k]);
    PutValue(writer, maxs_[k], key_types_[k]);
  }
  for (const auto& column : column_filters_) {
    writer.Put<uint8_t>(column ? 1 : 0);
    if (!column) continue;
    const std::string bytes = column->EncodeBuild();
    writer.PutBytes(bytes.data(), bytes.size());
  }
  return out;
}

void RuntimeFilter::MergeEncoded(std::string_view bytes) {
  RuntimeFilter other(key_types_);
  Reader reader(bytes);
  other.build_rows_ = reader.Get<uint64_t>();
  other.exact_possible_ = reader.Get<uint8_t>() != 0;
  const std::string_view hashes = reader.GetBytes();
  other.hashes_.resize(hashes.size() / sizeof(uint64_t));
  // An empty vector's data() may be null, which memcpy must not get even for 0 bytes.
  if (!other.hashes_.empty())
    std::memcpy(other.hashes_.data(), hashes.data(), other.hashes_.size() * sizeof(uint64_t));
  const std::string_view ints = reader.GetBytes();
  for (size_t at = 0; at + sizeof(int64_t) <= ints.size(); at += sizeof(int64_t)) {
    int64_t value;
    std::memcpy(&value, ints.data() + at, sizeof(value));
    other.int_lo_ = std::min(other.int_lo_, value);
    other.int_hi_ = std::max(other.int_hi_, value);
    other.int_set_.insert(value);
  }
  const auto strings = reader.Get<uint64_t>();
  for (uint64_t i = 0; i < strings; i++)
    other.string_set_.emplace(reader.GetBytes());
  for (size_t k = 0; k < key_types_.size(); k++) {
    other.mins_[k] = GetValue(reader, key_types_[k]);
    other.maxs_[k] = GetValue(reader, key_types_[k]);
  }
  for (auto& column : other.column_filters_) {
    if (reader.Get<uint8_t>() == 0) {
      column.reset();  // not listed there (its type, or it stopped): listed by neither
      continue;
    }
    const std::string_view bytes = reader.GetBytes();
    if (column) column->MergeEncoded(bytes);
  }
  if (!reader.done()) throw InternalError("a partial runtime filter's bytes go on past its end");
  Merge(std::move(other));
}

std::optional<uint64_t> RuntimeFilter::exact_set_keys() const {
  if (!exact_possible_) return std::nullopt;
  return int_set_.size() + string_set_.size();
}

uint64_t RuntimeFilter::CountDistinctHashes() {
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  return hashes_.size();
}

std::string RuntimeFilter::BloomBits(uint64_t distinct_keys, double fpp) const {
  auto bloom = parquet::SplitBlockBloomFilter::ForNdv(distinct_keys, fpp);
  for (uint64_t h : hashes_)
    bloom.InsertHash(h);
  return bloom.bytes();
}

void RuntimeFilter::ReplaceHashes(std::string bloom_bits, bool keep_exact_set) {
  hashes_.clear();
  hashes_.shrink_to_fit();
  hashes_replaced_ = true;
  bloom_.reset();
  if (!bloom_bits.empty())
    bloom_ = parquet::SplitBlockBloomFilter::FromBytes(std::move(bloom_bits));
  if (!keep_exact_set) {
    exact_possible_ = false;
    int_set_.clear();
    string_set_.clear();
  }
}

}  // namespace shears
