#include "storage/parquet/nested_schema.h"

#include "common/error.h"
#include "common/list.h"
#include "storage/parquet/schema_mapping.h"

namespace shears::parquet {

namespace {

using Rep = format::FieldRepetitionType;

bool IsRepetition(const format::SchemaElement& element, Rep::type type) {
  return element.__isset.repetition_type && element.repetition_type == type;
}

int ChildCount(const format::SchemaElement& element) {
  return element.__isset.num_children ? element.num_children : 0;
}

bool IsList(const format::SchemaElement& e) {
  return (e.__isset.logicalType && e.logicalType.__isset.LIST) ||
         (e.__isset.converted_type && e.converted_type == format::ConvertedType::LIST);
}

bool IsMap(const format::SchemaElement& e) {
  return (e.__isset.logicalType && e.logicalType.__isset.MAP) ||
         (e.__isset.converted_type && (e.converted_type == format::ConvertedType::MAP ||
                                       e.converted_type == format::ConvertedType::MAP_KEY_VALUE));
}

// A shape shears does not read: the column stays unreadable with this reason.
struct Unreadable {
  std::string reason;
};

// Walks one column's schema subtree into NestedNodes (the caller checked the subtree's bounds
// and depth when it counted its leaves).
class SchemaWalker {
 public:
  SchemaWalker(const std::vector<format::SchemaElement>& schema, int first_leaf,
               std::vector<ColumnDescriptor>* leaves)
      : schema_(schema), first_leaf_(first_leaf), leaves_(leaves) {}

  // The node of the field at `*pos` (advanced past its subtree). `as_required`: the field is
  // a repeated one taken as a list's (required) element. A repeated field met otherwise is a
  // required list of required elements (the backward-compatibility rules).
  NestedNode Field(size_t* pos, int def, int rep, bool as_required) {
    const auto& element = schema_.at(*pos);
    if (!as_required && IsRepetition(element, Rep::REPEATED)) {
      NestedNode list = Start(NestedNode::Kind::kList, element.name, def);
      list.elem_def = def + 1;
      list.rep = rep + 1;
      list.children.push_back(Field(pos, def + 1, rep + 1, true));
      return Finish(std::move(list));
    }
    const int own_def = def + (as_required || IsRepetition(element, Rep::REQUIRED) ? 0 : 1);
    const int children = ChildCount(element);
    if (children == 0) {
      if (!element.__isset.type) {
        throw Unreadable{fmt::format("field '{}' is an empty group", element.name)};
      }
      ++*pos;
      return Leaf(element, own_def, rep);
    }
    if (IsList(element)) return List(pos, own_def, rep);
    if (IsMap(element)) return Map(pos, own_def, rep);
    NestedNode node = Start(NestedNode::Kind::kStruct, element.name, own_def);
    ++*pos;
    for (int c = 0; c < children; c++)
      node.children.push_back(Field(pos, own_def, rep, false));
    return Finish(std::move(node));
  }

 private:
  NestedNode Start(NestedNode::Kind kind, const std::string& name, int null_def) const {
    NestedNode node;
    node.kind = kind;
    node.name = name;
    node.null_def = null_def;
    node.first_leaf = static_cast<int>(leaves_->size());
    return node;
  }

  NestedNode Finish(NestedNode node) const {
    node.leaf_count = static_cast<int>(leaves_->size()) - node.first_leaf;
    switch (node.kind) {
      case NestedNode::Kind::kList:
        node.type = LogicalType::List(node.children[0].type);
        break;
      case NestedNode::Kind::kMap:
        node.type = LogicalType::Map(node.children[0].type, node.children[1].type);
        break;
      case NestedNode::Kind::kStruct: {
        std::vector<std::pair<std::string, LogicalType>> fields;
        for (const auto& child : node.children)
          fields.emplace_back(child.name, child.type);
        try {
          node.type = LogicalType::Struct(fields);
        } catch (const Error& e) {
          throw Unreadable{fmt::format("group '{}': {}", node.name, e.what())};
        }
        break;
      }
      case NestedNode::Kind::kLeaf:
        break;
    }
    return node;
  }

  NestedNode Leaf(const format::SchemaElement& element, int def, int rep) {
    ColumnDescriptor leaf;
    leaf.name = element.name;
    MapPrimitive(element, &leaf);
    if (!leaf.type.valid()) throw Unreadable{leaf.unsupported_reason};
    leaf.leaf_index = first_leaf_ + static_cast<int>(leaves_->size());
    leaf.max_definition_level = def;
    leaf.max_repetition_level = rep;
    leaf.nested_leaf = true;
    NestedNode node = Start(NestedNode::Kind::kLeaf, element.name, def);
    node.type = leaf.type;
    leaves_->push_back(std::move(leaf));
    return Finish(std::move(node));
  }

  // A LIST-annotated group at *pos: `<opt> group l (LIST) { repeated ... }`, the element
  // chosen by LogicalTypes.md's backward-compatibility rules.
  NestedNode List(size_t* pos, int def, int rep) {
    const auto& outer = schema_[*pos];
    if (ChildCount(outer) != 1) {
      throw Unreadable{
          fmt::format("LIST group '{}' has {} fields, not one", outer.name, ChildCount(outer))};
    }
    ++*pos;
    const auto& repeated = schema_.at(*pos);
    if (!IsRepetition(repeated, Rep::REPEATED)) {
      throw Unreadable{fmt::format("the field of LIST group '{}' is not repeated", outer.name)};
    }
    NestedNode list = Start(NestedNode::Kind::kList, outer.name, def);
    list.elem_def = def + 1;
    list.rep = rep + 1;
    const int children = ChildCount(repeated);
    if (children == 0 || children > 1 || repeated.name == "array" ||
        repeated.name == outer.name + "_tuple") {
      // Rules 1 to 3: the repeated field is the element (a primitive or a struct).
      list.children.push_back(Field(pos, def + 1, rep + 1, true));
    } else {
      ++*pos;  // rule 4: the repeated group's one field is the element
      list.children.push_back(Field(pos, def + 1, rep + 1, false));
    }
    return Finish(std::move(list));
  }

  // A MAP (or MAP_KEY_VALUE) group at *pos: `<opt> group m (MAP) { repeated group key_value {
  // required K key; <opt> V value } }`.
  NestedNode Map(size_t* pos, int def, int rep) {
    const auto& outer = schema_[*pos];
    const auto& repeated = schema_.at(*pos + 1);
    if (ChildCount(outer) != 1 || !IsRepetition(repeated, Rep::REPEATED) ||
        ChildCount(repeated) != 2) {
      throw Unreadable{
          fmt::format("MAP group '{}' is not a repeated group of a key and a value", outer.name)};
    }
    *pos += 2;
    NestedNode map = Start(NestedNode::Kind::kMap, outer.name, def);
    map.elem_def = def + 1;
    map.rep = rep + 1;
    map.children.push_back(Field(pos, def + 1, rep + 1, false));
    map.children.push_back(Field(pos, def + 1, rep + 1, false));
    if (map.children[0].kind == NestedNode::Kind::kList ||
        map.children[0].kind == NestedNode::Kind::kMap) {
      // Keys compare and hash as wholes here too, but neither DuckDB nor Spark writes these.
      throw Unreadable{fmt::format("MAP '{}' has keys of a nested type", outer.name)};
    }
    return Finish(std::move(map));
  }

  const std::vector<format::SchemaElement>& schema_;
  int first_leaf_;
  std::vector<ColumnDescriptor>* leaves_;
};

const char* KindName(const format::SchemaElement& element) {
  if (IsRepetition(element, Rep::REPEATED) || IsList(element)) return "LIST";
  if (IsMap(element)) return "MAP";
  return "STRUCT";
}

// row()'s unnamed fields get DuckDB's names for them.
std::string FieldName(const std::string& name, size_t index) {
  return name.empty() ? fmt::format("v{}", index + 1) : name;
}

// The tree of `type` in the forms NestedSchemaElements writes, leaves appended to `leaves`.
NestedNode NodeForType(const std::string& name, const LogicalType& type, int def, int rep,
                       bool required, std::vector<std::string>* path, NestedColumn* column) {
  auto* leaves = &column->leaves;
  path->push_back(name);
  NestedNode node;
  node.name = name;
  node.type = type;
  node.null_def = required ? def : def + 1;
  node.first_leaf = static_cast<int>(leaves->size());
  const int own = node.null_def;
  if (type.IsStruct()) {
    node.kind = NestedNode::Kind::kStruct;
    const auto& names = type.field_names();
    const auto& children = type.children();
    for (size_t i = 0; i < children.size(); i++) {
      node.children.push_back(
          NodeForType(FieldName(names[i], i), children[i], own, rep, false, path, column));
    }
  } else if (type.IsList() || type.IsMap()) {
    node.kind = type.IsList() ? NestedNode::Kind::kList : NestedNode::Kind::kMap;
    node.elem_def = own + 1;
    node.rep = rep + 1;
    path->push_back(type.IsList() ? "list" : "key_value");
    if (type.IsList()) {
      node.children.push_back(
          NodeForType("element", type.element(), own + 1, rep + 1, false, path, column));
    } else {
      node.children.push_back(
          NodeForType("key", type.children()[0], own + 1, rep + 1, true, path, column));
      node.children.push_back(
          NodeForType("value", type.children()[1], own + 1, rep + 1, false, path, column));
    }
    path->pop_back();
  } else {
    node.kind = NestedNode::Kind::kLeaf;
    ColumnDescriptor leaf;
    leaf.name = name;
    leaf.type = type;
    leaf.max_definition_level = node.null_def;
    leaf.max_repetition_level = rep;
    leaf.nested_leaf = true;
    leaves->push_back(std::move(leaf));
    column->leaf_paths.push_back(*path);
  }
  path->pop_back();
  node.leaf_count = static_cast<int>(leaves->size()) - node.first_leaf;
  return node;
}

void AppendElements(const std::string& name, const LogicalType& type, bool required,
                    std::vector<format::SchemaElement>* out) {
  if (!type.IsNested()) {
    auto element = SchemaFor(name, type);
    if (required) element.__set_repetition_type(Rep::REQUIRED);
    out->push_back(std::move(element));
    return;
  }
  format::SchemaElement group;
  group.name = name;
  group.__set_repetition_type(required ? Rep::REQUIRED : Rep::OPTIONAL);
  format::LogicalType logical;
  if (type.IsStruct()) {
    const auto& names = type.field_names();
    const auto& children = type.children();
    if (children.empty()) {
      throw NotSupportedError("column '{}': a STRUCT without fields cannot be written to Parquet",
                              name);
    }
    group.__set_num_children(static_cast<int32_t>(children.size()));
    out->push_back(group);
    for (size_t i = 0; i < children.size(); i++) {
      AppendElements(FieldName(names[i], i), children[i], false, out);
    }
    return;
  }
  group.__set_num_children(1);
  format::SchemaElement repeated;
  repeated.__set_repetition_type(Rep::REPEATED);
  if (type.IsList()) {
    group.__set_converted_type(format::ConvertedType::LIST);
    logical.__set_LIST(format::ListType());
    repeated.name = "list";
    repeated.__set_num_children(1);
  } else {
    group.__set_converted_type(format::ConvertedType::MAP);
    logical.__set_MAP(format::MapType());
    repeated.name = "key_value";
    repeated.__set_num_children(2);
  }
  group.__set_logicalType(logical);
  out->push_back(group);
  out->push_back(repeated);
  if (type.IsList()) {
    AppendElements("element", type.element(), false, out);
  } else {
    AppendElements("key", type.children()[0], true, out);
    AppendElements("value", type.children()[1], false, out);
  }
}

}  // namespace

void MapNestedColumn(const std::vector<format::SchemaElement>& schema, size_t at, int first_leaf,
                     ColumnDescriptor* column) {
  auto nested = std::make_shared<NestedColumn>();
  size_t pos = at;
  column->parquet_type_name = KindName(schema[at]);
  try {
    SchemaWalker walker(schema, first_leaf, &nested->leaves);
    nested->root = walker.Field(&pos, 0, 0, false);
  } catch (const Unreadable& unreadable) {
    column->type = LogicalType();
    column->unsupported_reason =
        fmt::format("column '{}' is a nested {} column shears cannot read: {}", column->name,
                    column->parquet_type_name, unreadable.reason);
    return;
  }
  if (nested->leaves.empty()) {
    column->unsupported_reason =
        fmt::format("column '{}' is a nested column without leaves", column->name);
    return;
  }
  column->type = nested->root.type;
  column->leaf_index = first_leaf;
  column->leaf_count = static_cast<int>(nested->leaves.size());
  column->max_repetition_level = 1;  // no leaf statistic describes its rows
  column->max_definition_level = nested->root.null_def;
  column->parquet_type_name = column->type.ToString();
  for (auto& leaf : nested->leaves)
    leaf.name = column->name + "." + leaf.name;
  column->nested = std::move(nested);
}

bool LeafEntries::Next() {
  if (pos_ >= bytes_.size()) return false;
  if (pos_ + 2 > bytes_.size()) throw InternalError("a truncated level entry");
  rep_ = static_cast<uint8_t>(bytes_[pos_]);
  def_ = static_cast<uint8_t>(bytes_[pos_ + 1]);
  pos_ += 2;
  value_ = {};
  if (def_ == max_def_) {
    ListReader reader(type_, bytes_.substr(pos_));
    if (!reader.Next()) throw InternalError("a level entry without its value");
    value_ = reader.raw();
    pos_ += value_.size();
  }
  return true;
}

NestedColumn NestedColumnFor(const std::string& name, const LogicalType& type) {
  NestedColumn column;
  std::vector<std::string> path;
  column.root = NodeForType(name, type, 0, 0, false, &path, &column);
  for (auto& leaf : column.leaves) {
    if (leaf.type.id() == TypeId::kInterval) ThrowIntervalNotWritable(name);
    leaf.name = name;
  }
  return column;
}

std::vector<format::SchemaElement> NestedSchemaElements(const std::string& name,
                                                        const LogicalType& type) {
  std::vector<format::SchemaElement> out;
  AppendElements(name, type, false, &out);
  return out;
}

}  // namespace shears::parquet
