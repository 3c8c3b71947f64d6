#pragma once

// How the process's allocator keeps and returns memory (docs/settings.md,
// `allocator_retain_limit` and `allocator_release_delay`).
//
// glibc's defaults suit small programs: blocks from 128 KiB up (a threshold that grows only to
// the largest block freed) are mmap'd and unmapped on free, a free heap top past 128 KiB goes
// back to the kernel, and a thread's arena unmaps each 64 MiB heap of its own once it is all
// free. A query's hash tables and row blocks are exactly such memory, freed and allocated again
// within the query and by the next one, so each reuse faulted its pages in afresh (about a third
// of TPC-DS q78's cycles at scale 5). So malloc keeps what is freed while statements run; when
// the last running statement ends, the free memory goes back to the kernel at once if it is more
// than a limit, else after a delay without statements (as jemalloc's decay does): a process
// that ran one big query does not keep its peak.

#include <cstddef>
#include <cstdint>

namespace shears::memory_policy {

/// Once per process (later calls do nothing): blocks up to 32 MiB come from malloc's arenas
/// and are reused, and no arena gives memory back by itself. Called by every `Database`, so
/// the shell, the query server, the Python module and distributed ranks all get it. Does
/// nothing where malloc is not glibc's or under a sanitizer's allocator.
void Apply();

/// Whether this build tunes the allocator (glibc's malloc, no sanitizer); elsewhere the
/// functions below do nothing.
bool Tunes();

/// Free memory the allocator holds resident: the process's resident bytes less the bytes
/// malloc has handed out (so it also counts code and stacks, some tens of MiB). 0 where it
/// cannot tell.
size_t RetainedBytes();

/// Returns every free page the allocator holds to the kernel (malloc_trim).
void Release();

/// Default of `allocator_retain_limit`: an eighth of the machine's memory.
int64_t DefaultRetainLimit();

/// Brackets one statement. When the last statement running in the process ends, the
/// allocator's free memory (`RetainedBytes`) is returned to the kernel (`Release`) at once if
/// it exceeds `retain_limit` bytes or `release_delay_ms` is 0, else once `release_delay_ms`
/// pass without a statement starting (by one background thread, started on first need).
class StatementScope {
 public:
  StatementScope(int64_t retain_limit, int64_t release_delay_ms);
  ~StatementScope();
  StatementScope(const StatementScope&) = delete;
  StatementScope& operator=(const StatementScope&) = delete;

 private:
  [[maybe_unused]] int64_t retain_limit_;
  [[maybe_unused]] int64_t release_delay_ms_;
};

}  // namespace shears::memory_policy
