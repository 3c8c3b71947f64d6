// ColumnChunkReader's rows of repeated columns: a LIST column's rows assembled from their level
// entries, and a nested column's leaf's rows as their raw level entries (each entry its
// repetition and definition level bytes, then the value's list element bytes when present),
// which NestedColumnReader assembles into values.

#include <algorithm>

#include "common/error.h"
#include "storage/parquet/column_page_state.h"
#include "storage/parquet/column_reader.h"

namespace shears::parquet {

namespace {
constexpr size_t kMaxListBytes = size_t{1} << 30;
}  // namespace

void ColumnChunkReader::FinishListRow(Vector& out, idx_t at) {
  if (open_row_ == ListRowState::kNull) {
    out.validity().SetNull(at);
  } else {
    out.data<StringRef>()[at] = out.AddString(list_writer_->bytes());
  }
  list_writer_->Clear();
  open_row_ = ListRowState::kNone;
}

void ColumnChunkReader::ReadListRows(idx_t count, Vector& out, idx_t out_offset) {
  if (!element_values_) element_values_ = std::make_unique<Vector>(column_.type, kBatchSize);
  const auto max_def = static_cast<uint8_t>(column_.max_definition_level);
  const auto list_def = static_cast<uint8_t>(column_.list_defined_level);
  const auto element_def = static_cast<uint8_t>(column_.element_defined_level);
  idx_t done = 0;
  while (true) {
    if (!page_ || page_->level_pos == page_->num_values) {
      if (open_row_ != ListRowState::kNone && page_end_row_ >= 0) {
        FinishListRow(out, out_offset + done++);  // the page ends at a row boundary
      }
      if (done == count && open_row_ == ListRowState::kNone) return;
      const int64_t expected_row = row_;
      page_.reset();
      if (!LoadNextDataPage()) {
        if (open_row_ == ListRowState::kNone) {
          Fail("the column chunk holds fewer values than the row group's row count");
        }
        FinishListRow(out, out_offset + done++);  // the chunk's last row
        if (done == count) return;
        continue;  // fails above
      }
      if (row_ != expected_row) {
        throw InternalError("'{}': column '{}' row group {}: read past the chosen pages",
                            file_.path(), column_.name, row_group_);
      }
    }
    auto& page = *page_;
    // A leaf without repetition (a STRUCT's field) has no repetition levels: each entry a row.
    const uint8_t* reps = page.rep_levels.empty() ? nullptr : page.rep_levels.data();
    const uint8_t* defs = page.def_levels.empty() ? nullptr : page.def_levels.data();
    // The entries of this round: up to a batch of them (their values fit element_values_),
    // ending before the start of a row past the `count` asked for.
    const idx_t begin = page.level_pos;
    const idx_t limit = std::min<idx_t>(page.num_values, begin + kBatchSize);
    idx_t rows_left = count - done;
    bool open = open_row_ != ListRowState::kNone;
    idx_t end = begin;
    idx_t present = 0;
    for (; end < limit; end++) {
      if (reps == nullptr || reps[end] == 0) {
        if (open) rows_left--;
        if (rows_left == 0) break;
        open = true;
      } else if (!open) {
        Fail("a repetition level 1 starts a row");
      }
      present += defs == nullptr || defs[end] == max_def;
    }
    element_values_->Reset();
    if (present > 0) DecodeValues(present, *element_values_, 0);
    idx_t value = 0;
    for (idx_t i = begin; i < end; i++) {
      const uint8_t def = defs == nullptr ? max_def : defs[i];
      if (leaf_entries_) {
        // A nested column's leaf: the entry as it is, its levels checked by the assembly.
        if (reps == nullptr || reps[i] == 0) {
          if (open_row_ != ListRowState::kNone) FinishListRow(out, out_offset + done++);
          open_row_ = ListRowState::kValues;
          row_++;
        }
        const char levels[2] = {static_cast<char>(reps == nullptr ? 0 : reps[i]),
                                static_cast<char>(def)};
        list_writer_->AppendRaw(std::string_view(levels, 2));
        if (def == max_def) list_writer_->AppendFrom(*element_values_, value++);
        continue;
      }
      if (reps[i] == 0) {
        if (open_row_ != ListRowState::kNone) FinishListRow(out, out_offset + done++);
        open_row_ = def < list_def ? ListRowState::kNull : ListRowState::kValues;
        row_++;
        if (def < element_def) continue;  // a NULL or empty list: its only entry
      } else if (open_row_ != ListRowState::kValues || def < element_def) {
        Fail("a NULL or empty list with more than one level entry");
      }
      if (def == max_def) {
        list_writer_->AppendFrom(*element_values_, value++);
      } else {
        list_writer_->AppendNull();
      }
    }
    page.level_pos = end;
    // A row may go on over any number of pages v1: its bytes are bounded here, as a value's
    // length (StringRef) must be.
    if (list_writer_->bytes().size() > kMaxListBytes) {
      throw NotSupportedError("'{}': column '{}' row group {}: a list of more than {} bytes",
                              file_.path(), column_.name, row_group_, kMaxListBytes);
    }
    if (end < limit) {
      // Stopped at the start of a row not asked for: the row before it is whole.
      FinishListRow(out, out_offset + done++);
      return;
    }
  }
}

}  // namespace shears::parquet
