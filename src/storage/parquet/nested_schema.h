#pragma once
// Nested Parquet columns (STRUCT, MAP, LIST of anything) and shears' nested types, both ways:
// the schema tree of a file's column as a tree of NestedNodes with the definition and
// repetition levels at which each node is present (Dremel's bookkeeping), and the tree and
// schema elements shears writes for a nested type. nested_reader.h assembles values from the
// leaves' levels by this tree; nested_writer.h shreds them into levels by it.

#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "storage/parquet/parquet_file.h"

namespace shears::parquet {

/// One node of a nested column. A leaf entry with definition level d says: every node on its
/// path whose `null_def` <= d is present (not NULL), and a LIST or MAP whose `elem_def` <= d
/// holds at least one element. An entry whose repetition level is a LIST's `rep` starts another
/// element of that list.
struct NestedNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  LogicalType type;
  std::string name;
  int null_def = 0;    // the value is NULL below it (a required node: its parent's level)
  int elem_def = 0;    // LIST, MAP: the list is empty below it
  int rep = 0;         // LIST, MAP: the repetition level of its repeated field
  int first_leaf = 0;  // the subtree's leaves: [first_leaf, first_leaf + leaf_count)
  int leaf_count = 0;
  /// A STRUCT's fields, a LIST's element, a MAP's key and value.
  std::vector<NestedNode> children;
};

/// A nested column: its tree and its leaves, in schema order (leaf i is the file's leaf
/// `leaves[i].leaf_index`; each has its type, levels and conversion).
struct NestedColumn {
  NestedNode root;
  std::vector<ColumnDescriptor> leaves;
  /// Writing: each leaf's path in the schema (`path_in_schema`).
  std::vector<std::vector<std::string>> leaf_paths;
};

/// A nested column's leaf's row as its readers and writers pass it: its level entries, each the
/// repetition and definition level bytes, then, when the definition level is the leaf's
/// maximum, the value as a list element of the leaf's type (tag and key, common/list.h).
class LeafEntries {
 public:
  LeafEntries(LogicalType type, int max_def, std::string_view bytes)
      : type_(type), max_def_(max_def), bytes_(bytes) {}
  /// Moves to the next entry; false past the last. InternalError on malformed bytes.
  bool Next();
  uint8_t rep() const { return rep_; }
  uint8_t def() const { return def_; }
  /// The value's element bytes; empty when the entry has none.
  std::string_view value() const { return value_; }
  /// Appends one entry to a row's bytes.
  static void Append(std::string* row, int rep, int def, std::string_view value = {}) {
    row->push_back(static_cast<char>(rep));
    row->push_back(static_cast<char>(def));
    row->append(value);
  }

 private:
  LogicalType type_;
  int max_def_;
  std::string_view bytes_;
  size_t pos_ = 0;
  uint8_t rep_ = 0, def_ = 0;
  std::string_view value_;
};

/// Reading: maps the schema subtree of top-level column `schema[at]` (a group or a repeated
/// field), whose first leaf is file leaf `first_leaf`, into `column`: its type, `nested`,
/// leaf_index and leaf_count. A shape shears cannot read (an empty group, a MAP without a
/// key and value, a leaf of a type not read) sets `column->unsupported_reason` instead.
void MapNestedColumn(const std::vector<format::SchemaElement>& schema, size_t at, int first_leaf,
                     ColumnDescriptor* column);

/// Writing: the tree of a column of nested `type` in the standard forms shears writes (every
/// node optional but a MAP's key), its leaves' types and levels. NotSupportedError naming
/// `name` for a leaf type that cannot be written (INTERVAL).
NestedColumn NestedColumnFor(const std::string& name, const LogicalType& type);

/// Writing: the schema elements of a column of nested `type`, in schema order:
/// `<optional> group s { fields }`, `<optional> group l (LIST) { repeated group list {
/// <optional> T element } }`, `<optional> group m (MAP) { repeated group key_value { required
/// K key; <optional> V value } }`.
std::vector<format::SchemaElement> NestedSchemaElements(const std::string& name,
                                                        const LogicalType& type);

}  // namespace shears::parquet
