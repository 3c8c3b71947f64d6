#pragma once
// Runs a loop's iterations on a few threads: for work done before a query's pipelines run
// (decoding footers, listing partition directories), where no worker pool exists yet.

#include <cstddef>
#include <functional>

namespace shears {

/// Runs `fn(i)` for i in [0, count) on the calling thread and up to `max_threads` - 1 more,
/// each claiming the next index: at most one thread per `min_items_per_thread` items (below
/// that a thread costs more than it saves). A failure is rethrown for the first failing index,
/// as a serial loop would; the others stop early.
void ParallelFor(size_t count, size_t max_threads, size_t min_items_per_thread,
                 const std::function<void(size_t)>& fn);

}  // namespace shears
