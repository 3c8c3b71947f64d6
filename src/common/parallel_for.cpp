#include "common/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace shears {

void ParallelFor(size_t count, size_t max_threads, size_t min_items_per_thread,
                 const std::function<void(size_t)>& fn) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      try {
        fn(i);
      } catch (...) {
        errors[i] = std::current_exception();
        next.store(count, std::memory_order_relaxed);  // stop the others early
      }
    }
  };
  const size_t threads =
      std::min(std::max<size_t>(max_threads, 1), count / std::max<size_t>(min_items_per_thread, 1));
  std::vector<std::thread> workers;
  for (size_t t = 1; t < threads; t++) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no thread to spare: the ones started (and this one) do the rest
    }
  }
  work();
  for (auto& worker : workers)
    worker.join();
  for (size_t i = 0; i < count; i++) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
}

}  // namespace shears
