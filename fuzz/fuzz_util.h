#pragma once
// Helpers shared by the fuzz targets: an in-memory file the Parquet code can open by path, and
// the rule every target enforces (shears::Error is an answer, anything else is a bug).

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/clock.h"
#include "common/error.h"

namespace shears::fuzz {

/// Every target runs on the engine's deterministic clock: real time would reach libFuzzer
/// through compared values (deadlines, file ages) and timings printed by EXPLAIN ANALYZE, and
/// two gate runs of one commit would then mutate differently. It starts at 2100-01-01, after
/// any checkout's file times, so the repository's files are never "just modified".
inline const bool kDeterministicClock = [] {
  clock::UseDeterministicClock(int64_t{4102444800} * 1000000000);
  return true;
}();

/// A memfd holding the fuzz input, reachable as /proc/self/fd/N: no disk writes per run and
/// nothing left behind when a run crashes.
class MemoryFile {
 public:
  MemoryFile() : fd_(memfd_create("shears_fuzz", 0)) {
    if (fd_ < 0) std::abort();
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { close(fd_); }
  const std::string& Write(const uint8_t* data, size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    // Stamped by the deterministic clock, not the kernel's: the file is always "just modified"
    // (so the footer cache never trusts it) and no real time is ever compared.
    const int64_t now = clock::WallNanos();
    const struct timespec stamp {
      static_cast<time_t>(now / 1000000000), static_cast<long>(now % 1000000000)
    };
    const struct timespec times[2] = {stamp, stamp};
    if (futimens(fd_, times) != 0) std::abort();
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

/// Runs `body`; a shears::Error is the expected outcome of bad input, except InternalError
/// (a broken invariant) which, like any other exception, aborts so libFuzzer records it.
template <typename F>
void ExpectOnlyUserErrors(F&& body) {
  try {
    body();
  } catch (const Error& error) {
    if (!error.IsUserError()) {
      std::fprintf(stderr, "internal error: %s\n", error.what());
      std::abort();
    }
  }
}

}  // namespace shears::fuzz
