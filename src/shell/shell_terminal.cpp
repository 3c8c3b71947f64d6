#include "shell/shell_terminal.h"

#include <fcntl.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "main/connection.h"
#include "output/box_renderer.h"
#include "shell/shell.h"

namespace shears {

namespace {

constexpr auto kProgressDelay = std::chrono::seconds(2);
constexpr auto kProgressRedraw = std::chrono::milliseconds(100);
constexpr const char* kPrompt = "shears> ";
constexpr const char* kContinuationPrompt = "   ...> ";
constexpr int kHistoryLines = 1000;

// Signal handler state. The handler only stores atomics and writes to a pipe, which is
// async-signal-safe; the shell's loop reads the pipe.
std::atomic<Connection*> g_foreground{nullptr};
int g_wake_pipe[2] = {-1, -1};
static_assert(std::atomic<Connection*>::is_always_lock_free);

void OnSignal(int signal) {
  const int saved_errno = errno;
  if (signal == SIGINT) {
    if (Connection* connection = g_foreground.load()) {
      connection->Interrupt();
      errno = saved_errno;
      return;
    }
  }
  const char byte = signal == SIGINT ? 'i' : 'w';
  if (g_wake_pipe[1] >= 0) [[maybe_unused]]
    auto written = write(g_wake_pipe[1], &byte, 1);
  errno = saved_errno;
}

size_t TerminalColumns(int fd) {
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

// Draws FormatProgressLine on standard error from its own thread until stopped.
class ProgressBar {
 public:
  explicit ProgressBar(const Connection& connection) : connection_(connection) {
    if (isatty(STDERR_FILENO)) thread_ = std::thread([this] { Loop(); });
  }
  ~ProgressBar() { Stop(); }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void Loop() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mutex_);
    if (wake_.wait_for(lock, kProgressDelay, [this] { return stop_; })) return;
    do {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::string line =
          FormatProgressLine(connection_.Progress(), seconds, TerminalColumns(STDERR_FILENO) - 1);
      std::fputs(("\r" + line + "\033[K").c_str(), stderr);
      std::fflush(stderr);
    } while (!wake_.wait_for(lock, kProgressRedraw, [this] { return stop_; }));
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }

  const Connection& connection_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

// The readline loop, with the alternate (callback) interface so that the shell waits on
// both the terminal and the signal pipe.
class Terminal {
 public:
  explicit Terminal(Shell& shell) : shell_(shell) {
    current_ = this;
    if (pipe(g_wake_pipe) == 0) {
      for (int fd : g_wake_pipe)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    struct sigaction action {};
    action.sa_handler = OnSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;  // the engine's file reads must not see EINTR
    sigaction(SIGINT, &action, &old_sigint_);
    sigaction(SIGWINCH, &action, &old_sigwinch_);
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_readline_name = "shears";
    rl_attempted_completion_function = Complete;
    rl_completer_quote_characters = "'\"";
    rl_basic_word_break_characters = const_cast<char*>(" \t\n\"'`@$><=;|&{(,)*+-/%");
    if (const char* home = std::getenv("HOME"))
      history_path_ = std::string(home) + "/.shears_history";
    using_history();
    if (!history_path_.empty()) read_history(history_path_.c_str());  // none yet is fine
  }
  ~Terminal() {
    // Failing to save history (read-only home) must not fail the shell.
    if (!history_path_.empty() && write_history(history_path_.c_str()) == 0) {
      history_truncate_file(history_path_.c_str(), kHistoryLines);
    }
    clear_history();
    sigaction(SIGINT, &old_sigint_, nullptr);
    sigaction(SIGWINCH, &old_sigwinch_, nullptr);
    for (int& fd : g_wake_pipe) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
    current_ = nullptr;
  }

  /// The next line, or nullopt at end of input (Ctrl-D).
  std::optional<std::string> ReadLine() {
    line_done_ = false;
    line_.reset();
    rl_callback_handler_install(Prompt(), OnLine);
    while (!line_done_) {
      fd_set fds;
      FD_ZERO(&fds);
      FD_SET(STDIN_FILENO, &fds);
      if (g_wake_pipe[0] >= 0) FD_SET(g_wake_pipe[0], &fds);
      const int ready =
          select(std::max(STDIN_FILENO, g_wake_pipe[0]) + 1, &fds, nullptr, nullptr, nullptr);
      if (ready < 0) {
        if (errno == EINTR) continue;
        rl_callback_handler_remove();
        return std::nullopt;
      }
      if (g_wake_pipe[0] >= 0 && FD_ISSET(g_wake_pipe[0], &fds)) {
        char bytes[64];
        ssize_t count;
        while ((count = read(g_wake_pipe[0], bytes, sizeof(bytes))) > 0) {
          for (ssize_t i = 0; i < count; i++) {
            if (bytes[i] == 'i') {
              InterruptAtPrompt();
            } else {
              rl_resize_terminal();
            }
          }
        }
      }
      if (!line_done_ && FD_ISSET(STDIN_FILENO, &fds)) rl_callback_read_char();
    }
    if (line_ && !line_->empty()) {
      const HIST_ENTRY* last =
          history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
      if (!last || line_->compare(last->line) != 0) add_history(line_->c_str());
    }
    return line_;
  }

 private:
  const char* Prompt() const { return shell_.InStatement() ? kContinuationPrompt : kPrompt; }

  // Ctrl-C at the prompt drops the line and any statement being typed; on an empty prompt
  // it says how to leave instead of leaving.
  void InterruptAtPrompt() {
    const bool had_text = rl_end > 0 || shell_.InStatement();
    rl_callback_sigcleanup();
    rl_replace_line("", 0);
    rl_point = 0;
    rl_callback_handler_remove();
    shell_.ClearStatement();
    std::fputs("^C\n", rl_outstream);
    if (!had_text) std::fputs("Use .quit or Ctrl-D to exit.\n", rl_outstream);
    std::fflush(rl_outstream);
    rl_callback_handler_install(Prompt(), OnLine);
  }

  static void OnLine(char* line) {
    current_->line_done_ = true;
    if (line) {
      current_->line_ = std::string(line);
      std::free(line);
    } else {
      std::fputs("\n", rl_outstream);
    }
    // Removing the handler keeps readline from drawing the next prompt before the statement
    // ran (and restores the terminal's normal mode for it).
    rl_callback_handler_remove();
  }

  static char* NextCandidate(const char*, int state) {
    static size_t next = 0;
    if (state == 0) next = 0;
    if (next >= current_->candidates_.size()) return nullptr;
    return strdup(current_->candidates_[next++].c_str());
  }

  static char** Complete(const char* text, int start, int) {
    // Inside a quoted string (FROM 'data/...'), readline's file name completion applies.
    if (rl_completion_quote_character == '\'') return nullptr;
    rl_attempted_completion_over = 1;
    // The statement's earlier lines count too ("FROM" at the end of the last one).
    const std::string& pending = current_->shell_.PendingText();
    const std::string before = pending + std::string(rl_line_buffer, static_cast<size_t>(start));
    current_->candidates_ = CompletionCandidates(before, text, current_->shell_.completion_names(),
                                                 pending + rl_line_buffer);
    return rl_completion_matches(text, NextCandidate);
  }

  static Terminal* current_;
  Shell& shell_;
  std::string history_path_;
  struct sigaction old_sigint_ {
  }, old_sigwinch_{};
  bool line_done_ = false;
  std::optional<std::string> line_;
  std::vector<std::string> candidates_;
};

Terminal* Terminal::current_ = nullptr;

}  // namespace

std::string FormatProgressLine(double fraction, double seconds, size_t width) {
  const std::string elapsed = fmt::format("{:.1f} s", seconds);
  if (fraction < 0) return TruncateToWidth("running… " + elapsed, width);
  const int percent = static_cast<int>(fraction * 100);
  const std::string tail = fmt::format("] {:3}%  {}", percent, elapsed);
  // "[" + bar + tail, the bar at most 50 wide.
  const size_t room = width > tail.size() + 1 ? width - tail.size() - 1 : 0;
  const size_t bar = std::min<size_t>(room, 50);
  if (bar < 5) return fmt::format("{}% {}", percent, elapsed);
  const size_t filled = static_cast<size_t>(fraction * static_cast<double>(bar));
  std::string line = "[";
  for (size_t i = 0; i < bar; i++)
    line += i < filled ? "█" : "░";
  return line + tail;
}

void RunForegroundQuery(Connection& connection, const std::function<void()>& run) {
  connection.ClearInterrupt();
  struct Foreground {
    explicit Foreground(Connection& connection) { g_foreground.store(&connection); }
    ~Foreground() { g_foreground.store(nullptr); }
  } foreground(connection);
  ProgressBar bar(connection);
  run();
}

int Shell::RunInteractive() {
  interactive_ = true;
  Terminal terminal(*this);
  std::cout << "shears: SQL over Parquet. Statements end with ';'. .help for help, Ctrl-D to exit."
            << std::endl;
  while (auto line = terminal.ReadLine()) {
    if (ProcessLine(*line) == LineStatus::kQuit) break;
  }
  interactive_ = false;
  return 0;
}

}  // namespace shears
