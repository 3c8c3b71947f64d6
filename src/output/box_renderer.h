#pragma once
// Draws rows as a table with Unicode box-drawing lines: a header row of column names, a row of
// type names, then the rows. Long results keep their first and last rows; with a width limit
// (the terminal's) too-wide cells are cut with "…" and, when that is not enough, middle
// columns are left out.

#include <iosfwd>
#include <string>
#include <vector>

namespace shears {

struct BoxStyle {
  /// Width of a whole line in display columns (code points); 0: no limit.
  size_t max_width = 0;
  /// Widest cell before it is cut with "…"; 0: no limit (only max_width cuts).
  size_t max_cell_width = 0;
  /// Results with more rows show the first and last max_rows / 2.
  size_t max_rows = 40;
  /// The cell text of the row standing for left-out rows.
  std::string elided_rows_mark = "…";
  /// Footer "N rows (M shown)" when rows were left out (else "N rows").
  bool footer_shows_count = true;
  /// Control characters (newline, tab, ...) drawn as \n, \t, \xNN so rows stay one line.
  bool escape_control = true;
};

class BoxRenderer {
 public:
  /// `right_align[c]`: numbers are right-aligned.
  BoxRenderer(BoxStyle style, std::vector<std::string> names, std::vector<std::string> type_names,
              std::vector<bool> right_align);
  /// Rows in result order; only the first and last max_rows / 2 are kept.
  void AddRow(std::vector<std::string> cells);
  void Render(std::ostream& out) const;

 private:
  std::string Cell(const std::string& text) const;

  BoxStyle style_;
  std::vector<std::string> names_, type_names_;
  std::vector<bool> right_align_;
  std::vector<std::vector<std::string>> head_, tail_;
  size_t tail_start_ = 0;  // tail_ is a ring buffer once full; its oldest row is here
  size_t total_rows_ = 0;
};

/// Display width of UTF-8 text: one column per code point.
size_t DisplayWidth(const std::string& text);
/// `text` cut to at most `width` display columns, ending in "…" when it was cut.
std::string TruncateToWidth(const std::string& text, size_t width);

/// Which columns a box of `widths` (content widths) shows within `max_width`, and how wide:
/// columns are first narrowed (widest first, down to a few characters), then middle columns
/// are left out, replaced by one "…" column. Exposed for tests.
struct BoxLayout {
  std::vector<size_t> columns;     // shown columns, in order
  std::vector<size_t> widths;      // their content widths
  size_t elided_after = SIZE_MAX;  // the "…" column follows columns[elided_after]
};
BoxLayout FitColumns(const std::vector<size_t>& widths, size_t max_width);

}  // namespace shears
