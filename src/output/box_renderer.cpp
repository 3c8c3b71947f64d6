#include "output/box_renderer.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <ostream>

namespace shears {

namespace {

// A narrowed column keeps at least this many columns: 4 characters and "…".
constexpr size_t kMinColumnWidth = 5;
// Drawing around content: "│" once, then " content │" per column.
constexpr size_t kColumnFrame = 3;
constexpr size_t kElidedColumnWidth = 1 + kColumnFrame;  // " … │"

bool IsContinuationByte(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

// Content widths of `columns` narrowed to fit `budget`: the widest are cut first, to a common
// cap; empty when even the narrowest widths do not fit.
std::vector<size_t> Narrow(const std::vector<size_t>& widths, const std::vector<size_t>& columns,
                           size_t budget) {
  auto width_at = [&](size_t column, size_t cap) {
    return std::max(std::min(widths[column], cap), std::min(widths[column], kMinColumnWidth));
  };
  auto total_at = [&](size_t cap) {
    size_t total = 0;
    for (size_t column : columns)
      total += width_at(column, cap);
    return total;
  };
  if (total_at(0) > budget) return {};
  // The largest cap that fits: total_at grows with the cap.
  size_t low = 0, high = 0;
  for (size_t column : columns)
    high = std::max(high, widths[column]);
  while (low < high) {
    const size_t mid = low + (high - low + 1) / 2;
    if (total_at(mid) <= budget) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  std::vector<size_t> out;
  for (size_t column : columns)
    out.push_back(width_at(column, low));
  return out;
}

size_t ContentBudget(size_t max_width, size_t columns, bool elided) {
  const size_t frame = 1 + columns * kColumnFrame + (elided ? kElidedColumnWidth : 0);
  return max_width > frame ? max_width - frame : 0;
}

}  // namespace

size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text)
    width += !IsContinuationByte(c);
  return width;
}

std::string TruncateToWidth(const std::string& text, size_t width) {
  if (DisplayWidth(text) <= width) return text;
  if (width == 0) return "";
  // Keep width - 1 code points, then the ellipsis.
  size_t kept = 0, end = 0;
  while (end < text.size()) {
    if (!IsContinuationByte(static_cast<unsigned char>(text[end]))) {
      if (kept == width - 1) break;
      kept++;
    }
    end++;
  }
  return text.substr(0, end) + "…";
}

BoxLayout FitColumns(const std::vector<size_t>& widths, size_t max_width) {
  BoxLayout layout;
  std::vector<size_t> all(widths.size());
  std::iota(all.begin(), all.end(), 0);
  if (max_width == 0) {
    layout.columns = all;
    layout.widths = widths;
    return layout;
  }
  layout.widths = Narrow(widths, all, ContentBudget(max_width, all.size(), false));
  if (!layout.widths.empty() || widths.empty()) {
    layout.columns = all;
    return layout;
  }
  // Even narrowed the columns do not fit: keep columns from both ends, alternating, while
  // they fit at their narrowest beside a "…" column.
  std::vector<size_t> left, right;
  size_t used = 0;
  for (size_t taken = 0; taken < widths.size(); taken++) {
    const size_t column = taken % 2 == 0 ? taken / 2 : widths.size() - 1 - taken / 2;
    const size_t need = std::min(widths[column], kMinColumnWidth);
    if (taken > 0 && used + need > ContentBudget(max_width, taken + 1, true)) break;
    used += need;
    (taken % 2 == 0 ? left : right).push_back(column);
  }
  layout.columns = left;
  layout.columns.insert(layout.columns.end(), right.rbegin(), right.rend());
  layout.elided_after = left.size() - 1;
  layout.widths =
      Narrow(widths, layout.columns, ContentBudget(max_width, layout.columns.size(), true));
  if (layout.widths.empty()) {
    // One column that does not fit even at its narrowest: give it what is left.
    layout.widths = {std::max<size_t>(1, ContentBudget(max_width, 1, true))};
  }
  return layout;
}

BoxRenderer::BoxRenderer(BoxStyle style, std::vector<std::string> names,
                         std::vector<std::string> type_names, std::vector<bool> right_align)
    : style_(std::move(style)),
      names_(std::move(names)),
      type_names_(std::move(type_names)),
      right_align_(std::move(right_align)) {}

std::string BoxRenderer::Cell(const std::string& text) const {
  std::string cell;
  if (style_.escape_control) {
    for (unsigned char c : text) {
      if (c == '\n') {
        cell += "\\n";
      } else if (c == '\t') {
        cell += "\\t";
      } else if (c == '\r') {
        cell += "\\r";
      } else if (c < 0x20 || c == 0x7f) {
        cell += fmt::format("\\x{:02x}", c);
      } else {
        cell += static_cast<char>(c);
      }
    }
  } else {
    cell = text;
  }
  return style_.max_cell_width ? TruncateToWidth(cell, style_.max_cell_width) : cell;
}

void BoxRenderer::AddRow(std::vector<std::string> cells) {
  total_rows_++;
  for (auto& cell : cells)
    cell = Cell(cell);
  if (head_.size() < style_.max_rows / 2) {
    head_.push_back(std::move(cells));
    return;
  }
  const size_t tail_size = style_.max_rows - style_.max_rows / 2;
  if (tail_.size() < tail_size) {
    tail_.push_back(std::move(cells));
  } else if (tail_size > 0) {
    tail_[tail_start_] = std::move(cells);
    tail_start_ = (tail_start_ + 1) % tail_size;
  }
}

void BoxRenderer::Render(std::ostream& out) const {
  const size_t n = names_.size();
  if (n == 0) {
    out << "(" << total_rows_ << " rows, no columns)\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> names, type_names;
  for (size_t c = 0; c < n; c++) {
    names.push_back(Cell(names_[c]));
    type_names.push_back(Cell(type_names_[c]));
  }
  rows.insert(rows.end(), head_.begin(), head_.end());
  for (size_t i = 0; i < tail_.size(); i++)
    rows.push_back(tail_[(tail_start_ + i) % tail_.size()]);
  const bool rows_elided = total_rows_ > rows.size();

  std::vector<size_t> natural(n, 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < n; c++)
      natural[c] = std::max(natural[c], DisplayWidth(row[c]));
  };
  measure(names);
  measure(type_names);
  for (const auto& row : rows)
    measure(row);
  const BoxLayout layout = FitColumns(natural, style_.max_width);

  auto rule = [&](const char* left, const char* mid, const char* right) {
    std::string line = left;
    for (size_t i = 0; i < layout.columns.size(); i++) {
      for (size_t k = 0; k < layout.widths[i] + 2; k++)
        line += "─";
      if (i == layout.elided_after) line += std::string(mid) + "───";
      line += i + 1 < layout.columns.size() ? mid : right;
    }
    out << line << '\n';
  };
  // Headers align like their column's values.
  auto print = [&](const std::vector<std::string>& row, const char* elided_cell) {
    std::string line = "│";
    for (size_t i = 0; i < layout.columns.size(); i++) {
      const size_t c = layout.columns[i];
      const std::string cell = TruncateToWidth(row[c], layout.widths[i]);
      const size_t pad = layout.widths[i] - DisplayWidth(cell);
      const bool right = right_align_[c];
      line += " ";
      if (right) line += std::string(pad, ' ');
      line += cell;
      if (!right) line += std::string(pad, ' ');
      line += " │";
      if (i == layout.elided_after) line += std::string(" ") + elided_cell + " │";
    }
    out << line << '\n';
  };
  rule("┌", "┬", "┐");
  print(names, "…");
  print(type_names, " ");
  rule("├", "┼", "┤");
  for (size_t r = 0; r < head_.size(); r++)
    print(rows[r], "…");
  if (rows_elided) print(std::vector<std::string>(n, style_.elided_rows_mark), "…");
  for (size_t r = head_.size(); r < rows.size(); r++)
    print(rows[r], "…");
  rule("└", "┴", "┘");
  out << total_rows_ << (total_rows_ == 1 ? " row" : " rows");
  if (rows_elided && style_.footer_shows_count) out << " (" << rows.size() << " shown)";
  if (layout.columns.size() < n) {
    out << "  " << n << " columns (" << layout.columns.size() << " shown)";
  }
  out << '\n';
  out.flush();
}

}  // namespace shears
