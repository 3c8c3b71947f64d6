#pragma once
// Reads one column chunk, page by page, into vectors: levels first, then values (dictionary
// indexes gathered from the already-converted dictionary, or decoded and converted).

#include <memory>
#include <optional>
#include <vector>

#include "common/list.h"
#include "common/vector.h"
#include "storage/parquet/encoding.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

struct ScanCounters {
  uint64_t bytes_read = 0;
  uint64_t row_groups_total = 0;
  uint64_t row_groups_read = 0;
  uint64_t row_groups_skipped = 0;
  uint64_t pages_read = 0;
  uint64_t pages_skipped = 0;
  uint64_t rows_read = 0;
  uint64_t dictionaries_reused = 0;  // dictionaries adopted from pruning checks, not decoded
  void Add(const ScanCounters& other);
};

/// The dictionary codes of the rows of one column in a batch, for filters evaluated once per
/// dictionary entry: row r holds entry codes[r] of `dictionary` (`size` entries), or is NULL
/// when codes[r] == size. Usable only when `dictionary` is set and `complete`: every row read
/// came from dictionary pages of that one dictionary (a chunk may fall back to plain pages).
struct DictionaryCodes {
  std::shared_ptr<const Vector> dictionary;
  idx_t size = 0;
  bool complete = false;
  std::vector<uint32_t> codes;
  /// Forgets the previous batch's codes before a batch of up to `rows` rows is read.
  void Start(idx_t rows) {
    dictionary.reset();
    size = 0;
    complete = true;
    if (codes.size() < rows) codes.resize(rows);
  }
  bool usable() const { return complete && dictionary != nullptr; }
};

/// Bytes of a column chunk already read from the file, shared by the chunks of a row group
/// whose ranges were coalesced into one read.
struct ChunkBytes {
  // Not zero-filled before the read fills it (ReadAt fills every byte or throws).
  std::shared_ptr<const uint8_t[]> buffer;
  size_t offset = 0;  // where the chunk starts in buffer
  size_t size = 0;
};

/// A chunk's dictionary as a pruning check read and converted it (ColumnChunkReader::
/// TakeDictionary), handed to the reader of the same chunk (AdoptDictionary) so the page is
/// read and decoded once per row group, not once by the check and again by the reader.
struct DecodedDictionary {
  int column = -1;  // the file column
  std::shared_ptr<Vector> values;
  std::shared_ptr<const void> owner;  // the bytes the string entries point into
  size_t size = 0;                    // entries
  size_t bytes = 0;                   // held besides the chunk (held_bytes)
};

/// A data page chosen from the offset index: the rows it holds.
struct PageSpan {
  int64_t first_row = 0;
  int64_t rows = 0;
};

class NestedColumnReader;

class ColumnChunkReader {
 public:
  /// `bytes` hold the whole chunk, or (`pages` not empty) its dictionary page, if any, followed
  /// by only the data pages `pages` describes, in order: rows outside them are never read.
  /// A nested column's `bytes` span the chunks of all its leaves (NestedChunkSpan).
  ColumnChunkReader(const ParquetFile& file, int row_group, int column, ChunkBytes bytes,
                    ScanCounters* counters, std::vector<PageSpan> pages = {});
  /// The reader of column `descriptor`, for the leaves of a nested column: each row read is
  /// the leaf's level entries of that row (nested_reader.h).
  ColumnChunkReader(const ParquetFile& file, int row_group, const ColumnDescriptor& descriptor,
                    ChunkBytes bytes, ScanCounters* counters, std::vector<PageSpan> pages = {});
  ~ColumnChunkReader();

  /// Reads `count` rows into out[out_offset, out_offset + count); with `codes`, also records
  /// their dictionary codes at codes->codes[out_offset, ...) (see DictionaryCodes).
  void Read(idx_t count, Vector& out, idx_t out_offset, DictionaryCodes* codes = nullptr);
  /// Skips `count` rows (decoding levels and values it must, to stay in step).
  void Skip(idx_t count);
  /// Moves to row `row` of the row group (not before the current row): whole pages in
  /// between are passed over without decoding, the rest is decoded and dropped.
  void SkipTo(int64_t row);
  /// The row group row the next Read starts at.
  int64_t row() const { return row_; }
  /// For `bytes` starting with a dictionary page: that dictionary, converted (nullptr when the
  /// chunk has none or some entry cannot be converted). Entries are rows 0..size.
  const Vector* ReadDictionary(size_t* size);
  /// After ReadDictionary returned a dictionary: it, to be adopted by the chunk's reader
  /// (null when the page's checksum does not match: the reader reads it again and reports it).
  /// The caller sets its `column`.
  std::shared_ptr<DecodedDictionary> TakeDictionary() const;
  /// For `bytes` starting at the chunk's first data page: the chunk's dictionary, as
  /// TakeDictionary gave it for this file, row group and column.
  void AdoptDictionary(const DecodedDictionary& dictionary);
  /// Bytes this reader holds besides the chunk's: the decoded dictionary, the current page's
  /// decompressed copy and levels (what a query's memory accounting counts for a scan).
  size_t held_bytes() const;

 private:
  struct PageState;
  void ReadInternal(idx_t count, Vector& out, idx_t out_offset, DictionaryCodes* codes);
  /// A LIST column's rows: each row the level entries from one repetition level 0 to the next,
  /// which may lie in the next page (data pages v1 may split a row). A nested column's leaf:
  /// each row its entries as they are (column_reader_rows.cpp).
  void ReadListRows(idx_t count, Vector& out, idx_t out_offset);
  /// Ends the row being assembled (open_row_) into out[at].
  void FinishListRow(Vector& out, idx_t at);
  /// After a page's `take` rows (`non_null` present, by the bits of `present`, null when all
  /// are: definition_levels.h) were decoded to out_offset: their codes, or marks `codes`
  /// incomplete.
  void RecordCodes(DictionaryCodes& codes, idx_t out_offset, idx_t take, idx_t non_null,
                   const uint64_t* present) const;
  /// Loads the next data page, passing over (without decoding) pages that end at or before
  /// row `skip_before`.
  bool LoadNextDataPage(int64_t skip_before = -1);
  void ReadDictionaryPage(const format::PageHeader& header, const uint8_t* body);
  void StartDataPage(const format::PageHeader& header, const uint8_t* body);
  std::shared_ptr<uint8_t[]> Decompress(const uint8_t* body, size_t compressed,
                                        size_t uncompressed);
  /// Passes over up to `count` rows of the current page without decoding their values, when
  /// its encoding allows (dictionary indexes, fixed-width PLAIN); false when it does not or no
  /// page is open.
  bool SkipInPage(idx_t count);
  /// Decodes `count` present values. Given which of the `rows` rows they belong to hold one
  /// (`present`, a bit each), it may put them straight at their rows (NULL rows zeroed) and
  /// return true; else they are dense.
  bool DecodeValues(idx_t count, Vector& out, idx_t out_offset, const uint64_t* present = nullptr,
                    idx_t rows = 0);
  [[noreturn]] void Fail(const std::string& what) const;

  const ParquetFile& file_;
  // The file's descriptor, for a LIST column with its element type: values decode and
  // convert as a flat column's would.
  ColumnDescriptor column_;
  LogicalType list_type_;  // the LIST column's type; invalid for flat columns
  int row_group_;
  format::CompressionCodec::type codec_;
  ChunkBytes bytes_;
  size_t position_ = 0;  // next page header, relative to the chunk start
  ScanCounters* counters_;

  std::shared_ptr<Vector> dictionary_;  // shared with DictionaryCodes
  std::shared_ptr<const void> dictionary_owner_;
  size_t dictionary_size_ = 0;
  size_t dictionary_bytes_ = 0;
  std::vector<std::pair<uint32_t, std::string>> bad_dictionary_entries_;
  bool dictionary_crc_ok_ = true;  // ReadDictionary: the page's checksum, if any, matched
  std::unique_ptr<PageState> page_;
  std::vector<uint8_t> scratch_;
  std::vector<uint64_t> present_masks_;  // a read's rows holding a value, a bit each
  std::vector<uint32_t> null_rows_;      // and those that do not
  std::unique_ptr<Vector> skip_sink_;    // Skip decodes into it
  std::vector<PageSpan> pages_;          // empty: the chunk is read page after page
  size_t next_page_ = 0;
  // Rows read, or for a LIST column rows started (a row is counted at its repetition level 0).
  int64_t row_ = 0;
  // A LIST column: the row being assembled, its elements decoded through element_values_.
  enum class ListRowState : uint8_t { kNone, kNull, kValues };
  ListRowState open_row_ = ListRowState::kNone;
  // The row the current page ends at when known (pages v2, pages the offset index chose:
  // both start at a row), else -1 and a row open at its end may go on in the next page.
  int64_t page_end_row_ = -1;
  std::optional<ListWriter> list_writer_;
  std::unique_ptr<Vector> element_values_;
  // A nested column's leaf: rows are raw level entries (see ReadListRows).
  bool leaf_entries_ = false;
  // A nested column: its leaves' readers and the assembly of their rows.
  std::unique_ptr<NestedColumnReader> nested_;
};

}  // namespace shears::parquet
