#pragma once
// Helpers shared by the fuzz targets: an in-memory file the Parquet code can open by path, and
// the rule every target enforces (shears::Error is an answer, anything else is a bug).

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/error.h"

namespace shears::fuzz {

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
