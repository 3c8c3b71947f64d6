#include "storage/parquet/nested_writer.h"

#include "common/error.h"
#include "common/list.h"

namespace shears::parquet {

namespace {

// Appends the entries of `node`'s value to the leaves' rows: `value` is a leaf's element bytes
// (tag and key) or a nested node's own bytes, absent when NULL. `rep` is the repetition level of
// the value's first entry in each leaf, `def` the definition level its ancestors reached.
void Shred(const NestedNode& node, bool present, std::string_view value, int rep, int def,
           std::vector<std::string>* rows) {
  auto absent = [&](int level) {
    for (int i = 0; i < node.leaf_count; i++)
      LeafEntries::Append(&(*rows)[static_cast<size_t>(node.first_leaf + i)], rep, level);
  };
  if (!present) return absent(def);
  switch (node.kind) {
    case NestedNode::Kind::kLeaf:
      LeafEntries::Append(&(*rows)[static_cast<size_t>(node.first_leaf)], rep, node.null_def,
                          value);
      return;
    case NestedNode::Kind::kStruct: {
      ListReader reader(node.children.empty() ? LogicalType() : node.children[0].type, value);
      for (const auto& field : node.children) {
        reader.set_element(field.type);
        if (!reader.Next()) throw InternalError("a STRUCT value with fewer fields than its type");
        const bool leaf = field.kind == NestedNode::Kind::kLeaf;
        const std::string bytes = reader.IsNull() || leaf ? std::string() : reader.Bytes();
        Shred(field, !reader.IsNull(), leaf ? reader.raw() : std::string_view(bytes), rep,
              node.null_def, rows);
      }
      return;
    }
    case NestedNode::Kind::kList:
    case NestedNode::Kind::kMap: {
      const bool map = node.kind == NestedNode::Kind::kMap;
      // A MAP's bytes are a LIST(STRUCT(key, value))'s.
      ListReader reader(map ? node.type.element() : node.children[0].type, value);
      int element_rep = rep;
      while (reader.Next()) {
        if (map) {
          if (reader.IsNull()) throw InternalError("a MAP value with a NULL entry");
          const std::string entry = reader.Bytes();
          ListReader fields(node.children[0].type, entry);
          for (const auto& field : node.children) {
            fields.set_element(field.type);
            if (!fields.Next()) throw InternalError("a MAP entry without its key and value");
            const bool leaf = field.kind == NestedNode::Kind::kLeaf;
            const std::string bytes = fields.IsNull() || leaf ? std::string() : fields.Bytes();
            Shred(field, !fields.IsNull(), leaf ? fields.raw() : std::string_view(bytes),
                  element_rep, node.elem_def, rows);
          }
        } else {
          const auto& element = node.children[0];
          const bool leaf = element.kind == NestedNode::Kind::kLeaf;
          const std::string bytes = reader.IsNull() || leaf ? std::string() : reader.Bytes();
          Shred(element, !reader.IsNull(), leaf ? reader.raw() : std::string_view(bytes),
                element_rep, node.elem_def, rows);
        }
        element_rep = node.rep;
      }
      if (element_rep == rep) absent(node.null_def);  // an empty list: one entry per leaf
      return;
    }
  }
}

}  // namespace

void ShredNestedValue(const NestedColumn& column, bool present, std::string_view bytes,
                      std::vector<std::string>* leaf_rows) {
  Shred(column.root, present, bytes, 0, 0, leaf_rows);
}

NestedColumnWriter::NestedColumnWriter(const std::string& name, const LogicalType& type,
                                       const WriterOptions& options)
    : ColumnChunkWriter(name, type, format::Type::INT32, options, false, false),
      column_(NestedColumnFor(name, type)) {
  for (size_t i = 0; i < column_.leaves.size(); i++) {
    const auto& leaf = column_.leaves[i];
    auto writer = MakeValueWriter(name, leaf.type, options, false, true);
    writer->SetLeaf(column_.leaf_paths[i], leaf.max_repetition_level, leaf.max_definition_level);
    leaves_.push_back(std::move(writer));
  }
}

std::vector<Vector> NestedColumnWriter::Shred(const Vector& vector, idx_t begin, idx_t end) const {
  std::vector<Vector> out;
  for (const auto& leaf : column_.leaves)
    out.emplace_back(LogicalType::List(leaf.type), std::max<idx_t>(end - begin, 1));
  std::vector<std::string> rows(column_.leaves.size());
  const auto* values = vector.data<StringRef>();
  for (idx_t row = begin; row < end; row++) {
    for (auto& bytes : rows)
      bytes.clear();
    const bool present = !vector.IsNull(row);
    ShredNestedValue(column_, present, present ? values[row].view() : std::string_view(), &rows);
    for (size_t i = 0; i < rows.size(); i++)
      out[i].data<StringRef>()[row - begin] = out[i].AddString(rows[i]);
  }
  return out;
}

void NestedColumnWriter::Validate(const Vector& vector, idx_t count) const {
  const auto rows = Shred(vector, 0, count);
  for (size_t i = 0; i < leaves_.size(); i++)
    leaves_[i]->Validate(rows[i], count);
}

void NestedColumnWriter::Write(const Vector& vector, idx_t begin, idx_t end) {
  const auto rows = Shred(vector, begin, end);
  for (size_t i = 0; i < leaves_.size(); i++)
    leaves_[i]->Write(rows[i], 0, end - begin);
  for (idx_t row = begin; row < end; row++)
    null_rows_ += vector.IsNull(row) ? 1 : 0;
}

ChunkOutput NestedColumnWriter::FinishChunk() {
  throw InternalError("column '{}' is nested: its chunks are its leaves'", name_);
}

std::vector<ChunkOutput> NestedColumnWriter::FinishChunks() {
  std::vector<ChunkOutput> chunks;
  for (auto& leaf : leaves_)
    chunks.push_back(leaf->FinishChunk());
  return chunks;
}

WrittenColumnStats NestedColumnWriter::FileStats() const {
  WrittenColumnStats stats;
  stats.null_count = null_rows_;  // the rows', as the catalog's statistics are
  return stats;
}

size_t NestedColumnWriter::buffered_bytes() const {
  return BufferedBytes(leaves_);
}

}  // namespace shears::parquet
