#include "storage/parquet/nested_reader.h"

#include <algorithm>

#include "common/error.h"
#include "common/list.h"

namespace shears::parquet {

namespace {

// A leaf chunk's bytes in the file: from its dictionary page, if any, to its end.
std::pair<uint64_t, uint64_t> LeafRange(const ParquetFile& file, int row_group, int leaf,
                                        const std::string& name) {
  const auto& meta = file.metadata()
                         .row_groups.at(static_cast<size_t>(row_group))
                         .columns.at(static_cast<size_t>(leaf))
                         .meta_data;
  int64_t start = meta.data_page_offset;
  // As ParquetReader: a dictionary offset is trusted only before the first data page.
  if (meta.__isset.dictionary_page_offset && meta.dictionary_page_offset > 0 &&
      meta.dictionary_page_offset < start) {
    start = meta.dictionary_page_offset;
  }
  const int64_t size = meta.total_compressed_size;
  const uint64_t file_size = file.file_size();
  if (start < 4 || size < 0 || static_cast<uint64_t>(start) > file_size ||
      static_cast<uint64_t>(size) > file_size - static_cast<uint64_t>(start)) {
    throw CorruptFileError(
        "'{}': column '{}' row group {}: column chunk [{}, +{}) lies outside the file ({} bytes)",
        file.path(), name, row_group, start, size, file_size);
  }
  return {static_cast<uint64_t>(start), static_cast<uint64_t>(start + size)};
}

}  // namespace

std::pair<uint64_t, uint64_t> NestedChunkSpan(const ParquetFile& file, int row_group,
                                              const ColumnDescriptor& descriptor) {
  std::pair<uint64_t, uint64_t> span{UINT64_MAX, 0};
  for (const auto& leaf : descriptor.nested->leaves) {
    const auto range = LeafRange(file, row_group, leaf.leaf_index, descriptor.name);
    span.first = std::min(span.first, range.first);
    span.second = std::max(span.second, range.second);
  }
  return span;
}

NestedColumnReader::NestedColumnReader(const ParquetFile& file, int row_group,
                                       const ColumnDescriptor& column, const ChunkBytes& bytes,
                                       ScanCounters* counters)
    : file_(file), name_(column.name), nested_(column.nested), row_group_(row_group) {
  const uint64_t span_start = NestedChunkSpan(file, row_group, column).first;
  for (const auto& leaf : nested_->leaves) {
    const auto range = LeafRange(file, row_group, leaf.leaf_index, name_);
    if (range.second - span_start > bytes.size) {
      throw InternalError("'{}': column '{}': a leaf's chunk lies outside the bytes read",
                          file.path(), name_);
    }
    ChunkBytes leaf_bytes{bytes.buffer, bytes.offset + (range.first - span_start),
                          range.second - range.first};
    leaves_.push_back(std::make_unique<ColumnChunkReader>(file, row_group, leaf,
                                                          std::move(leaf_bytes), counters));
    leaf_rows_.push_back(std::make_unique<Vector>(LogicalType::List(leaf.type), kBatchSize));
  }
  cursors_.reserve(leaves_.size());
  for (const auto& leaf : nested_->leaves)
    cursors_.push_back(Cursor{LeafEntries(leaf.type, leaf.max_definition_level, {})});
}

NestedColumnReader::~NestedColumnReader() = default;

void NestedColumnReader::Fail(const std::string& what) const {
  throw CorruptFileError("'{}': column '{}' row group {}: {}", file_.path(), name_, row_group_,
                         what);
}

size_t NestedColumnReader::held_bytes() const {
  size_t bytes = 0;
  for (const auto& leaf : leaves_)
    bytes += leaf->held_bytes();
  return bytes;
}

void NestedColumnReader::SkipTo(int64_t row) {
  for (auto& leaf : leaves_)
    leaf->SkipTo(row);
}

void NestedColumnReader::Advance(size_t leaf) {
  Cursor& cursor = cursors_[leaf];
  cursor.has = cursor.entries.Next();
  cursor.rep = cursor.entries.rep();
  cursor.def = cursor.entries.def();
  cursor.value = cursor.entries.value();
}

void NestedColumnReader::SkipAbsent(const NestedNode& node) {
  const Cursor& first = cursors_[static_cast<size_t>(node.first_leaf)];
  const uint8_t rep = first.rep, def = first.def;
  for (int i = 0; i < node.leaf_count; i++) {
    const auto leaf = static_cast<size_t>(node.first_leaf + i);
    // A NULL or empty node is one entry in each of its leaves, all with the same levels.
    if (!cursors_[leaf].has || cursors_[leaf].rep != rep || cursors_[leaf].def != def) {
      Fail(fmt::format("the levels of the leaves of '{}' disagree", node.name));
    }
    Advance(leaf);
  }
}

void NestedColumnReader::AppendElement(const NestedNode& node, std::string* out) {
  if (node.kind == NestedNode::Kind::kLeaf) {
    const auto leaf = static_cast<size_t>(node.first_leaf);
    const Cursor& cursor = cursors_[leaf];
    if (!cursor.has)
      Fail(fmt::format("leaf '{}' has fewer level entries than the schema needs",
                       nested_->leaves[leaf].name));
    if (cursor.def == nested_->leaves[leaf].max_definition_level) {
      out->append(cursor.value);
    } else if (cursor.def >= node.null_def) {
      Fail(fmt::format("leaf '{}' is required but has no value", nested_->leaves[leaf].name));
    } else {
      out->push_back(ListWriter::kNullTag);
    }
    Advance(leaf);
    return;
  }
  std::string bytes;
  if (Build(node, &bytes)) {
    AppendEscapedElement(out, bytes);
  } else {
    out->push_back(ListWriter::kNullTag);
  }
}

bool NestedColumnReader::Build(const NestedNode& node, std::string* bytes) {
  const auto first = static_cast<size_t>(node.first_leaf);
  if (!cursors_[first].has) {
    Fail(fmt::format("leaf '{}' has fewer level entries than the schema needs",
                     nested_->leaves[first].name));
  }
  const int def = cursors_[first].def;
  if (def < node.null_def) {
    SkipAbsent(node);
    return false;
  }
  if (node.kind == NestedNode::Kind::kStruct) {
    for (const auto& field : node.children)
      AppendElement(field, bytes);
    return true;
  }
  if (def < node.elem_def) {
    SkipAbsent(node);  // an empty list or map
    return true;
  }
  while (true) {
    if (node.kind == NestedNode::Kind::kMap) {
      std::string entry;
      AppendElement(node.children[0], &entry);
      if (entry[0] == ListWriter::kNullTag) Fail(fmt::format("MAP '{}' has a NULL key", node.name));
      AppendElement(node.children[1], &entry);
      AppendEscapedElement(bytes, entry);
    } else {
      AppendElement(node.children[0], bytes);
    }
    // Every leaf of the list is now at the next element's entry (repetition level `rep`) or
    // past the list (a lower level, or the row's end).
    bool more = false;
    for (int i = 0; i < node.leaf_count; i++) {
      const Cursor& cursor = cursors_[static_cast<size_t>(node.first_leaf + i)];
      const bool next = cursor.has && cursor.rep >= node.rep;
      if (cursor.has && cursor.rep > node.rep) {
        Fail(fmt::format("a repetition level {} inside '{}' starts no element", cursor.rep,
                         node.name));
      }
      if (i > 0 && next != more) {
        Fail(fmt::format("the repetition levels of the leaves of '{}' disagree", node.name));
      }
      more = next;
    }
    if (!more) return true;
  }
}

void NestedColumnReader::Read(idx_t count, Vector& out, idx_t out_offset) {
  while (count > 0) {
    const idx_t take = std::min<idx_t>(count, kBatchSize);
    for (size_t i = 0; i < leaves_.size(); i++) {
      leaf_rows_[i]->Reset();
      leaves_[i]->Read(take, *leaf_rows_[i], 0);
    }
    auto* values = out.data<StringRef>();
    for (idx_t r = 0; r < take; r++) {
      for (size_t i = 0; i < leaves_.size(); i++) {
        const auto& leaf = nested_->leaves[i];
        cursors_[i] = Cursor{LeafEntries(leaf.type, leaf.max_definition_level,
                                         leaf_rows_[i]->data<StringRef>()[r].view())};
        Advance(i);
      }
      row_bytes_.clear();
      const bool present = Build(nested_->root, &row_bytes_);
      for (const auto& cursor : cursors_) {
        if (cursor.has) Fail("a leaf has more level entries in a row than the schema needs");
      }
      if (present) {
        values[out_offset + r] = out.AddString(row_bytes_);
      } else {
        out.validity().SetNull(out_offset + r);
      }
    }
    out_offset += take;
    count -= take;
  }
}

}  // namespace shears::parquet
