#pragma once
// Parquet files built byte by byte for tests of the shapes and faults writers do not produce:
// one row group of INT32 leaves, uncompressed data pages v1, PLAIN values, levels as RLE runs
// of one.

#include <string>
#include <vector>

#include <fstream>

#include "storage/parquet/column_writer.h"
#include "storage/parquet/parquet_reader.h"
#include "test_util.h"

namespace shears::test {

using Rep = format::FieldRepetitionType;

inline format::SchemaElement Group(const std::string& name, Rep::type repetition, int children,
                                   bool list_annotation) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_repetition_type(repetition);
  element.__set_num_children(children);
  if (list_annotation) element.__set_converted_type(format::ConvertedType::LIST);
  return element;
}

inline format::SchemaElement Int32Leaf(const std::string& name, Rep::type repetition) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_repetition_type(repetition);
  element.__set_type(format::Type::INT32);
  return element;
}

/// One level entry: its repetition and definition level, and its value when defined fully.
struct Entry {
  int rep;
  int def;
  int32_t value = 0;
};

/// Levels as RLE runs of one value each, with the four-byte length prefix of pages v1.
inline std::string Levels(const std::vector<Entry>& entries, bool repetition) {
  std::string runs;
  for (const Entry& e : entries) {
    runs.push_back(2);  // a run of one: (1 << 1)
    runs.push_back(static_cast<char>(repetition ? e.rep : e.def));
  }
  const auto size = static_cast<uint32_t>(runs.size());
  return std::string(reinterpret_cast<const char*>(&size), 4) + runs;
}

/// One leaf's chunk: its maximum levels and its data pages' entries. `cut` bytes are taken
/// off the end of the last page (its header still says the full size).
struct LeafPages {
  int max_rep;
  int max_def;
  std::vector<std::vector<Entry>> pages;
  size_t cut = 0;
};

/// A file of one top-level column (`column_schema`, its subtree in schema order) whose leaves
/// are `leaves`, in order.
inline std::string BuildFile(const std::vector<format::SchemaElement>& column_schema,
                             const std::vector<LeafPages>& leaves, int64_t num_rows) {
  parquet::ThriftSerializer thrift;
  std::string file = "PAR1";
  std::vector<format::ColumnChunk> chunks;
  for (const LeafPages& leaf : leaves) {
    const int64_t chunk_start = static_cast<int64_t>(file.size());
    int64_t entries = 0;
    for (const auto& page : leaf.pages) {
      std::string body;
      if (leaf.max_rep > 0) body += Levels(page, true);
      if (leaf.max_def > 0) body += Levels(page, false);
      for (const Entry& e : page) {
        if (e.def == leaf.max_def) body.append(reinterpret_cast<const char*>(&e.value), 4);
      }
      format::PageHeader header;
      header.__set_type(format::PageType::DATA_PAGE);
      header.__set_uncompressed_page_size(static_cast<int32_t>(body.size()));
      header.__set_compressed_page_size(static_cast<int32_t>(body.size()));
      format::DataPageHeader data;
      data.__set_num_values(static_cast<int32_t>(page.size()));
      data.__set_encoding(format::Encoding::PLAIN);
      data.__set_definition_level_encoding(format::Encoding::RLE);
      data.__set_repetition_level_encoding(format::Encoding::RLE);
      header.__set_data_page_header(data);
      thrift.Append(header, &file);
      file += body;
      entries += static_cast<int64_t>(page.size());
    }
    file.resize(file.size() - leaf.cut);
    const int64_t chunk_size = static_cast<int64_t>(file.size()) - chunk_start;
    format::ColumnMetaData meta;
    meta.__set_type(format::Type::INT32);
    meta.__set_encodings({format::Encoding::PLAIN, format::Encoding::RLE});
    meta.__set_path_in_schema({column_schema[0].name});
    meta.__set_codec(format::CompressionCodec::UNCOMPRESSED);
    meta.__set_num_values(entries);
    meta.__set_total_uncompressed_size(chunk_size);
    meta.__set_total_compressed_size(chunk_size);
    meta.__set_data_page_offset(chunk_start);
    format::ColumnChunk chunk;
    chunk.__set_file_offset(chunk_start);
    chunk.__set_meta_data(meta);
    chunks.push_back(chunk);
  }
  format::RowGroup row_group;
  row_group.__set_columns(chunks);
  row_group.__set_total_byte_size(static_cast<int64_t>(file.size()));
  row_group.__set_num_rows(num_rows);
  format::FileMetaData metadata;
  metadata.__set_version(1);
  std::vector<format::SchemaElement> schema = {Group("schema", Rep::REQUIRED, 1, false)};
  schema.insert(schema.end(), column_schema.begin(), column_schema.end());
  schema[0].__isset.repetition_type = false;
  metadata.__set_schema(schema);
  metadata.__set_num_rows(num_rows);
  metadata.__set_row_groups({row_group});
  const std::string footer = thrift.ToString(metadata);
  const auto footer_size = static_cast<uint32_t>(footer.size());
  file += footer + std::string(reinterpret_cast<const char*>(&footer_size), 4) + "PAR1";
  return file;
}

/// A file of one LIST column of INT32 elements whose leaf has `max_def` (repetition level 1);
/// each inner vector of `pages` is one data page v1.
inline std::string BuildFile(const std::vector<format::SchemaElement>& column_schema, int max_def,
                             const std::vector<std::vector<Entry>>& pages, int64_t num_rows) {
  return BuildFile(column_schema, {LeafPages{1, max_def, pages}}, num_rows);
}

/// Every row of column 0 as text.
inline std::vector<std::string> ReadAll(const std::string& path) {
  auto file = parquet::ParquetFile::Open(path);
  parquet::ParquetReader reader(file, {0});
  Batch batch(reader.output_types());
  std::vector<std::string> rows;
  while (reader.Next(batch)) {
    for (idx_t r = 0; r < batch.size(); r++)
      rows.push_back(batch.column(0).ValueToString(r));
  }
  return rows;
}

inline std::string Write(const test::TempDir& dir, const std::string& name,
                         const std::string& bytes) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace shears::test
