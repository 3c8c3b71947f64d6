// The box drawing of results (`.mode box`, `--format table`): fitting a width by cutting cells
// and leaving out middle columns, first and last rows of long results, alignment, NULL.

#include "output/box_renderer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "main/connection.h"
#include "output/result_writer.h"

namespace shears {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

// A box of `rows` rows of columns id (numeric), name, and ten wide text columns c0..c9.
std::string RenderWide(size_t width, size_t rows) {
  std::vector<std::string> names = {"id", "name"}, types = {"INTEGER", "VARCHAR"};
  std::vector<bool> right = {true, false};
  for (int c = 0; c < 10; c++) {
    names.push_back("c" + std::to_string(c));
    types.push_back("VARCHAR");
    right.push_back(false);
  }
  BoxStyle style;
  style.max_width = width;
  BoxRenderer box(style, names, types, right);
  for (size_t r = 0; r < rows; r++) {
    std::vector<std::string> cells = {std::to_string(r), "name number " + std::to_string(r)};
    for (int c = 0; c < 10; c++)
      cells.push_back(std::string(30, static_cast<char>('a' + c)));
    box.AddRow(std::move(cells));
  }
  std::ostringstream out;
  box.Render(out);
  return out.str();
}

TEST(BoxRendererTest, FitsEveryWidthByCuttingCellsThenLeavingOutMiddleColumns) {
  for (size_t width : {40, 60, 80, 120, 200, 400}) {
    SCOPED_TRACE(width);
    const auto lines = Lines(RenderWide(width, 3));
    ASSERT_GE(lines.size(), 8u);
    for (size_t i = 0; i + 1 < lines.size(); i++) {
      EXPECT_LE(DisplayWidth(lines[i]), width) << lines[i];
      // Every line of the box has the same width.
      EXPECT_EQ(DisplayWidth(lines[i]), DisplayWidth(lines[0])) << lines[i];
    }
  }
  // Wide enough for everything: nothing cut, no column left out.
  const std::string full = RenderWide(500, 3);
  EXPECT_NE(full.find(std::string(30, 'e')), std::string::npos);
  EXPECT_EQ(full.find("…"), std::string::npos);
  EXPECT_EQ(Lines(full).back(), "3 rows");
  // Narrow: the first and last columns stay, the middle ones are left out and counted.
  const std::string narrow = RenderWide(60, 3);
  const auto narrow_lines = Lines(narrow);
  EXPECT_NE(narrow_lines[1].find("id"), std::string::npos);
  EXPECT_NE(narrow_lines[1].find("c9"), std::string::npos);
  EXPECT_EQ(narrow_lines[1].find("c4"), std::string::npos);
  EXPECT_NE(narrow_lines[1].find("│ … │"), std::string::npos) << narrow_lines[1];
  EXPECT_NE(narrow_lines.back().find("3 rows  12 columns ("), std::string::npos)
      << narrow_lines.back();
  // In between: all twelve columns, the long ones cut with "…".
  const std::string cut = RenderWide(160, 3);
  EXPECT_NE(Lines(cut)[1].find("c5"), std::string::npos);
  EXPECT_NE(cut.find("aaa…"), std::string::npos);
  EXPECT_EQ(Lines(cut).back(), "3 rows");
}

TEST(BoxRendererTest, LongResultsShowFirstAndLastRowsWithACount) {
  BoxStyle style;
  style.max_rows = 6;
  BoxRenderer box(style, {"n"}, {"BIGINT"}, {true});
  for (int i = 1; i <= 100; i++)
    box.AddRow({std::to_string(i)});
  std::ostringstream out;
  box.Render(out);
  const auto lines = Lines(out.str());
  // top rule, name, type, rule, 3 rows, "…", 3 rows, bottom rule, footer
  ASSERT_EQ(lines.size(), 13u) << out.str();
  EXPECT_EQ(lines[4], "│      1 │");  // numbers right-aligned
  EXPECT_EQ(lines[6], "│      3 │");
  EXPECT_EQ(lines[7], "│      … │");
  EXPECT_EQ(lines[8], "│     98 │");
  EXPECT_EQ(lines[10], "│    100 │");
  EXPECT_EQ(lines[12], "100 rows (6 shown)");
}

TEST(BoxRendererTest, CutsByCodePointsAndEscapesControlCharacters) {
  EXPECT_EQ(TruncateToWidth("ååååå", 3), "åå…");
  EXPECT_EQ(TruncateToWidth("abc", 3), "abc");
  EXPECT_EQ(DisplayWidth("å…x"), 3u);
  BoxRenderer box(BoxStyle{}, {"s"}, {"VARCHAR"}, {false});
  box.AddRow({"two\nlines\tand tab"});
  std::ostringstream out;
  box.Render(out);
  EXPECT_NE(out.str().find("│ two\\nlines\\tand tab │"), std::string::npos) << out.str();
  EXPECT_EQ(Lines(out.str()).back(), "1 row");
}

TEST(BoxRendererTest, FitColumnsNarrowsTheWidestFirst) {
  // 1 + (10+3) + (50+3) = 67 wide; at 40 only the wide column shrinks.
  auto layout = FitColumns({10, 50}, 40);
  ASSERT_EQ(layout.columns, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(layout.widths, (std::vector<size_t>{10, 23}));
  EXPECT_EQ(layout.elided_after, SIZE_MAX);
  // Too narrow even for five-character columns: middle columns go.
  layout = FitColumns(std::vector<size_t>(20, 8), 40);
  EXPECT_LT(layout.columns.size(), 20u);
  EXPECT_EQ(layout.columns.front(), 0u);
  EXPECT_EQ(layout.columns.back(), 19u);
  EXPECT_NE(layout.elided_after, SIZE_MAX);
}

TEST(BoxRendererTest, BoxModeOfQueryResultsShowsNullAndTypes) {
  Database db;
  Connection con(db);
  auto result = con.Query("SELECT 1 AS a, NULL AS b, 'text' AS c");
  std::ostringstream out;
  auto writer = ResultWriter::Make(OutputFormat::kBox, out, 80);
  writer->Begin(result.names, result.types);
  writer->Write(result.rows->batch(0));
  writer->End();
  EXPECT_EQ(out.str(),
            "┌─────────┬─────────┬─────────┐\n"
            "│       a │       b │ c       │\n"
            "│ INTEGER │ INTEGER │ VARCHAR │\n"
            "├─────────┼─────────┼─────────┤\n"
            "│       1 │    NULL │ text    │\n"
            "└─────────┴─────────┴─────────┘\n"
            "1 row\n");
}

}  // namespace
}  // namespace shears
