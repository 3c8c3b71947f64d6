#pragma once
// The `shears` shell: runs SQL statements and dot commands (.help, .tables, .schema, .timer,
// .mode, .quit) read from a terminal (with GNU readline: editing, history, completion,
// a progress bar and Ctrl-C cancelling the running query), from piped input, or from -c / -f.

#include <iosfwd>
#include <string>

#include "output/result_writer.h"
#include "shell/completion.h"
#include "shell/statement_splitter.h"

namespace shears {

class Connection;
struct QueryResult;

struct ShellOptions {
  OutputFormat mode = OutputFormat::kTable;
  /// Print each statement's run time ("Run Time: N ms") to the error stream.
  bool timer = false;
};

class Shell {
 public:
  Shell(Connection& connection, std::ostream& out, std::ostream& err, ShellOptions options);

  /// Runs `sql` (-c, -f): every statement, then every result; throws on the first error.
  void RunScript(const std::string& sql);
  /// Reads statements and dot commands from `in` until its end or .quit, without prompts.
  /// Stops at the first error, printed to the error stream. Returns the exit code: 0, 1 after a
  /// user error, 2 after an internal one.
  int RunPiped(std::istream& in);
  /// The interactive loop on the terminal (shell_terminal.cpp); returns the exit code.
  int RunInteractive();

  enum class LineStatus { kOk, kError, kQuit };
  /// Feeds one input line: a dot command when no statement is pending, else SQL; runs every
  /// statement it completes. Errors are printed to the error stream.
  LineStatus ProcessLine(const std::string& line);
  /// Runs what is buffered without a final `;` (at end of input).
  LineStatus Finish();
  /// True while a statement is only partly typed (the prompt shows continuation).
  bool InStatement() const { return !splitter_.Empty(); }
  /// The lines of the partly typed statement (for completion's context).
  const std::string& PendingText() const { return splitter_.text(); }
  /// Drops a partly typed statement (Ctrl-C at the prompt).
  void ClearStatement() { splitter_.Clear(); }

  const ShellOptions& options() const { return options_; }
  /// Names for tab completion, reloaded after statements ran (they may change the catalog).
  const CompletionNames& completion_names();

 private:
  LineStatus RunDotCommand(const std::string& line);
  LineStatus RunStatement(const std::string& sql);
  LineStatus ReportError();  // of the exception being handled
  void PrintResult(const QueryResult& result);
  void PrintTables();
  void PrintSchema(const std::string& name);

  Connection& connection_;
  std::ostream& out_;
  std::ostream& err_;
  ShellOptions options_;
  StatementSplitter splitter_;
  CompletionNames completion_names_;
  bool completion_names_stale_ = true;
  bool interactive_ = false;  // statements run as foreground queries (Ctrl-C, progress bar)
  int last_exit_code_ = 0;    // of the last error: 1 user error, 2 internal
};

/// The width results should fit: the terminal's columns when standard output is one, else 0
/// (no limit).
size_t OutputWidth();

}  // namespace shears
