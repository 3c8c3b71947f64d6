// The interactive shell on a pseudo-terminal: the `shears` executable runs a long query, gets
// Ctrl-C, reports the query cancelled and answers the next one; continuation prompts, tab
// completion, Ctrl-C at the prompt, Ctrl-D and the history file.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "test_util.h"

namespace shears {
namespace {

// A child process on the other side of a pseudo-terminal.
class PtyProcess {
 public:
  PtyProcess(const std::string& program, const std::string& home) {
    master_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) return;
    const std::string slave_name = ptsname(master_);
    pid_ = fork();
    if (pid_ == 0) {
      setsid();
      const int slave = open(slave_name.c_str(), O_RDWR);
      if (slave < 0) _exit(126);
      ioctl(slave, TIOCSCTTY, 0);
      winsize size{};
      size.ws_row = 40;
      size.ws_col = 100;
      ioctl(slave, TIOCSWINSZ, &size);
      dup2(slave, 0);
      dup2(slave, 1);
      dup2(slave, 2);
      if (slave > 2) close(slave);
      close(master_);
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "xterm", 1);
      unsetenv("INPUTRC");
      execl(program.c_str(), "shears", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~PtyProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }
  bool started() const { return master_ >= 0 && pid_ > 0; }

  void Send(const std::string& text) {
    ASSERT_EQ(write(master_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  /// Reads until `needle` appears in the output after what earlier waits consumed; false
  /// when the child closed the terminal or a generous deadline (against hanging) passed.
  bool WaitFor(const std::string& needle) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (true) {
      const size_t found = output_.find(needle, consumed_);
      if (found != std::string::npos) {
        consumed_ = found + needle.size();
        return true;
      }
      if (std::chrono::steady_clock::now() > deadline) return false;
      pollfd pfd{master_, POLLIN, 0};
      if (poll(&pfd, 1, 100) <= 0) continue;
      char buffer[4096];
      const ssize_t n = read(master_, buffer, sizeof(buffer));
      if (n <= 0) return false;  // EIO: the child exited
      output_.append(buffer, static_cast<size_t>(n));
    }
  }
  /// Waits for the child's exit; its exit status, or -1.
  int Wait() {
    int status = 0;
    // Drain the terminal so the child never blocks writing to it.
    char buffer[4096];
    while (read(master_, buffer, sizeof(buffer)) > 0) {
    }
    if (waitpid(pid_, &status, 0) != pid_) return -1;
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  const std::string& output() const { return output_; }

 private:
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string output_;
  size_t consumed_ = 0;
};

// A cross join of 1,000^4 rows: runs far longer than the test waits on any machine (10^9 rows
// could end within the 2 s the progress bar waits for on a fast one).
std::string LongQuery() {
  std::string values;
  for (int i = 0; i < 1000; i++)
    values += (i ? ",(" : "(") + std::to_string(i) + ")";
  return "WITH t(x) AS (VALUES " + values + ") SELECT count(*) FROM t a, t b, t c, t d;";
}

TEST(ShellPtyTest, CtrlCCancelsTheRunningQueryAndTheShellGoesOn) {
  test::TempDir home;
  PtyProcess shell(test::CliPath(), home.path());
  ASSERT_TRUE(shell.started());
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();

  shell.Send(LongQuery() + "\r");
  // The progress bar shows once the query has run for 2 s (no scan: elapsed time only).
  ASSERT_TRUE(shell.WaitFor("running…")) << shell.output();
  shell.Send("\x03");
  ASSERT_TRUE(shell.WaitFor("Cancelled: the query was cancelled")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();

  // A statement over two lines, with the continuation prompt.
  shell.Send("SELECT 6 * 7\r");
  ASSERT_TRUE(shell.WaitFor("...> ")) << shell.output();
  shell.Send("AS answer;\r");
  ASSERT_TRUE(shell.WaitFor("│      42 │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("1 row")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();

  // Tab completes a keyword; Ctrl-C drops the line, a second one on the empty prompt hints.
  shell.Send("sele\t");
  ASSERT_TRUE(shell.WaitFor("select ")) << shell.output();
  shell.Send("\x03");
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();
  shell.Send("\x03");
  ASSERT_TRUE(shell.WaitFor("Use .quit or Ctrl-D to exit.")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();

  // Dot commands, then Ctrl-D leaves with status 0 and the history is saved.
  shell.Send(".mode csv\rSELECT 'after' AS word;\r");
  ASSERT_TRUE(shell.WaitFor("word\r\nafter")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("shears> ")) << shell.output();
  shell.Send("\x04");
  EXPECT_EQ(shell.Wait(), 0) << shell.output();
  const std::string history = test::ReadFileToString(home.path() + "/.shears_history");
  EXPECT_NE(history.find("SELECT 'after' AS word;"), std::string::npos) << history;
  EXPECT_NE(history.find("SELECT 6 * 7"), std::string::npos) << history;
}

TEST(ShellPtyTest, TheExecutableReadsPipedInputWithoutPrompts) {
  test::TempDir dir;
  dir.AddText("script.sql",
              ".mode csv\n"
              "SELECT 1 AS a; SELECT 'x;y'\n"
              "  AS b;\n"
              ".tables\n"
              "SELECT 3 AS c\n");
  const std::string command = test::CliPath() + " < " + dir.path() + "/script.sql 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    output.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  EXPECT_EQ(output, "a\n1\nb\nx;y\nc\n3\n");
}

}  // namespace
}  // namespace shears
