#pragma once
// A thread-safe least-recently-used map from strings to shared immutable values, bounded by the
// sum of the costs its entries declare. The process's metadata caches (Parquet footers,
// directory listings) are instances; each checks an entry's freshness itself (file identity,
// directory mtimes) before trusting it.

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace shears {

template <typename V>
class LruCache {
 public:
  explicit LruCache(uint64_t capacity) : capacity_(capacity) {}

  /// The entry for `key`, or nullptr; a hit makes it the most recently used.
  std::shared_ptr<const V> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = map_.find(key);
    if (it == map_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->value;
  }

  /// Puts `value` under `key` (replacing what was there), then drops the least recently used
  /// entries until the costs fit. A value costlier than the whole cache is not kept.
  void Put(const std::string& key, std::shared_ptr<const V> value, uint64_t cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    EraseLocked(key);
    if (cost > capacity_) return;
    order_.push_front(Entry{key, std::move(value), cost});
    map_.emplace(key, order_.begin());
    used_ += cost;
    while (used_ > capacity_) {
      used_ -= order_.back().cost;
      map_.erase(order_.back().key);
      order_.pop_back();
    }
  }

  void Erase(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    EraseLocked(key);
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    map_.clear();
    order_.clear();
    used_ = 0;
  }

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const V> value;
    uint64_t cost = 0;
  };

  void EraseLocked(const std::string& key) {
    auto it = map_.find(key);
    if (it == map_.end()) return;
    used_ -= it->second->cost;
    order_.erase(it->second);
    map_.erase(it);
  }

  std::mutex mutex_;
  const uint64_t capacity_;
  uint64_t used_ = 0;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<std::string, typename std::list<Entry>::iterator> map_;
};

}  // namespace shears
