#pragma once
// What the shell does only on a terminal: the readline loop, Ctrl-C, the progress bar.

#include <functional>
#include <string>

namespace shears {

class Connection;

/// Runs `run` (which runs statements on `connection`) as the foreground query: Ctrl-C
/// interrupts the connection while it runs, and when standard error is a terminal a
/// progress bar appears there after 2 s, redrawn 10 times a second, and is cleared at the end.
void RunForegroundQuery(Connection& connection, const std::function<void()>& run);

/// One progress line, `width` columns at most (no newline): a bar with the percentage when
/// `fraction` is in [0, 1], else only the elapsed time; e.g. "[████░░░░] 50%  2.5 s".
std::string FormatProgressLine(double fraction, double seconds, size_t width);

}  // namespace shears
