// The catalog's table columns (as stored), indexes, sequences and macros (catalog.cpp holds
// views, tables, files and statistics; catalog_schemas.cpp names, schemas and attached
// databases).

#include "catalog/catalog.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "catalog/catalog_internal.h"
#include "catalog/sqlite_util.h"
#include "common/error.h"
#include "common/string_util.h"

namespace shears {

using catalog_internal::DecodeColumnMap;
using catalog_internal::EncodeColumnMap;
using sqlite::DeleteNamed;
using sqlite::Statement;
using sqlite::Transaction;

namespace {
// Between the referenced column names of a stored foreign key (no identifier holds it).
constexpr const char* kNameSeparator = "\x1f";
}  // namespace

std::vector<std::pair<bool, size_t>> TableDefinition::VisibleColumns() const {
  std::vector<std::pair<bool, size_t>> order;
  size_t stored = 0, generated_index = 0;
  while (stored < columns.size() || generated_index < generated.size()) {
    // A generated column takes its position; stored columns fill the others, in order.
    if (generated_index < generated.size() &&
        (generated[generated_index].position <= order.size() || stored == columns.size())) {
      order.emplace_back(true, generated_index++);
    } else {
      order.emplace_back(false, stored++);
    }
  }
  return order;
}

// ---------------------------------------------------------------- a table's columns

void Catalog::InsertColumns(int64_t table_id, const TableDefinition& table) {
  Statement column(db_,
                   "INSERT INTO columns (table_id, ordinal, name, type, is_partition, "
                   "unsupported_reason, not_null, default_sql, generated_sql) VALUES (?, ?, ?, "
                   "?, ?, ?, ?, ?, ?)");
  int64_t ordinal = 0;
  for (const auto& [generated, i] : table.VisibleColumns()) {
    column.Bind(1, table_id).Bind(2, ordinal++);
    if (generated) {
      const auto& g = table.generated[i];
      column.Bind(3, g.name).Bind(4, g.type.ToString()).Bind(5, int64_t{0}).Bind(6, std::string());
      column.Bind(7, int64_t{0}).Bind(8, std::optional<std::string>()).Bind(9, g.sql).Run();
      continue;
    }
    const auto& c = table.columns[i];
    column.Bind(3, c.name)
        .Bind(4, c.type.ToString())
        .Bind(5, int64_t{c.is_partition})
        .Bind(6, c.unsupported_reason)
        .Bind(7, int64_t{c.not_null})
        .Bind(8, c.default_sql)
        .Bind(9, std::optional<std::string>())
        .Run();
  }
  Statement insert_key(db_,
                       "INSERT INTO table_keys (table_id, ordinal, is_primary, columns) VALUES "
                       "(?, ?, ?, ?)");
  for (size_t i = 0; i < table.keys.size(); i++) {
    insert_key.Bind(1, table_id)
        .Bind(2, static_cast<int64_t>(i))
        .Bind(3, int64_t{table.keys[i].primary})
        .Bind(4, EncodeColumnMap(table.keys[i].columns))
        .Run();
  }
  Statement insert_foreign_key(
      db_,
      "INSERT INTO table_foreign_keys (table_id, ordinal, columns, parent, "
      "parent_columns) VALUES (?, ?, ?, ?, ?)");
  for (size_t i = 0; i < table.foreign_keys.size(); i++) {
    const auto& fk = table.foreign_keys[i];
    insert_foreign_key.Bind(1, table_id)
        .Bind(2, static_cast<int64_t>(i))
        .Bind(3, EncodeColumnMap(fk.columns))
        .Bind(4, fk.parent)
        .Bind(5, fmt::format("{}", fmt::join(fk.parent_columns, kNameSeparator)))
        .Run();
  }
  Statement insert_check(db_, "INSERT INTO table_checks (table_id, ordinal, sql) VALUES (?, ?, ?)");
  for (size_t i = 0; i < table.checks.size(); i++)
    insert_check.Bind(1, table_id).Bind(2, static_cast<int64_t>(i)).Bind(3, table.checks[i]).Run();
}

void Catalog::ReplaceColumns(int64_t table_id, const TableDefinition& table) {
  for (const char* sql :
       {"DELETE FROM columns WHERE table_id = ?", "DELETE FROM table_keys WHERE table_id = ?",
        "DELETE FROM table_checks WHERE table_id = ?",
        "DELETE FROM table_foreign_keys WHERE table_id = ?"}) {
    Statement remove(db_, sql);
    remove.Bind(1, table_id).Run();
  }
  InsertColumns(table_id, table);
  // Index names are as ReadIndexes gave them (display names, unique within a table).
  Statement index(db_, "UPDATE indexes SET columns = ? WHERE display_name = ? AND table_id = ?");
  for (const auto& i : table.indexes)
    index.Bind(1, EncodeColumnMap(i.columns)).Bind(2, i.name).Bind(3, table_id).Run();
}

std::vector<GeneratedColumn> Catalog::GeneratedColumns(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->GeneratedColumns(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Statement read(db_,
                 "SELECT c.name, c.type, c.generated_sql, c.ordinal FROM columns c JOIN tables t "
                 "ON c.table_id = t.table_id WHERE t.name = ? AND c.generated_sql IS NOT NULL "
                 "ORDER BY c.ordinal");
  read.Bind(1, Resolve(name, CatalogNamespace::kRelation));
  std::vector<GeneratedColumn> generated;
  while (read.Step()) {
    generated.push_back({read.Text(0), ParseTypeString(read.Text(1)), read.Text(2),
                         static_cast<size_t>(read.Int(3))});
  }
  return generated;
}

std::vector<ForeignKey> Catalog::ReadForeignKeys(int64_t table_id) const {
  Statement read(
      db_,
      "SELECT columns, parent, parent_columns FROM table_foreign_keys WHERE table_id = ? "
      "ORDER BY ordinal");
  read.Bind(1, table_id);
  std::vector<ForeignKey> keys;
  while (read.Step()) {
    ForeignKey key{DecodeColumnMap(read.Text(0)), read.Text(1), {}};
    const std::string names = read.Text(2);
    for (size_t begin = 0; begin <= names.size();) {
      const size_t end = std::min(names.find(kNameSeparator, begin), names.size());
      key.parent_columns.push_back(names.substr(begin, end - begin));
      begin = end + 1;
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

std::vector<std::string> Catalog::ReferencingTables(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->ReferencingTables(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kRelation);
  Statement read(db_,
                 "SELECT DISTINCT t.name FROM table_foreign_keys f JOIN tables t ON f.table_id = "
                 "t.table_id WHERE f.parent = ? AND t.name <> ? ORDER BY t.name");
  read.Bind(1, key).Bind(2, key);
  std::vector<std::string> names;
  while (read.Step())
    names.push_back(read.Text(0));
  return names;
}

// ---------------------------------------------------------------- indexes

std::vector<IndexDefinition> Catalog::ReadIndexes(int64_t table_id, const std::string& table,
                                                  size_t num_columns) const {
  std::vector<IndexDefinition> indexes;
  Statement read(db_,
                 "SELECT display_name, is_unique, columns FROM indexes WHERE table_id = ? "
                 "ORDER BY name");
  read.Bind(1, table_id);
  while (read.Step()) {
    IndexDefinition index{read.Text(0), table, read.Int(1) != 0, DecodeColumnMap(read.Text(2))};
    for (int c : index.columns) {
      if (c < 0 || static_cast<size_t>(c) >= num_columns) {
        throw CorruptFileError("the catalog '{}' has an index of table {} on a column it lacks",
                               path_, table);
      }
    }
    indexes.push_back(std::move(index));
  }
  return indexes;
}

bool Catalog::CreateIndex(const IndexDefinition& index, bool if_not_exists) {
  if (auto routed = Route(index.table, true)) {
    IndexDefinition moved = index;
    moved.table = routed->rest;
    return routed->catalog->CreateIndex(moved, if_not_exists);
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Transaction transaction(db_);
  const int64_t table_id = RequireTableId(index.table);
  // An index lives in its table's schema (as DuckDB's).
  const std::string table_schema =
      SplitKey(Resolve(index.table, CatalogNamespace::kRelation)).first;
  const std::string key = index.name.find('.') != std::string::npos || table_schema == "main"
                              ? Resolve(index.name, CatalogNamespace::kIndex, /*create=*/true)
                              : table_schema + "." + AsciiLower(index.name);
  Statement exists(db_, "SELECT 1 FROM indexes WHERE name = ?");
  if (exists.Bind(1, key).Step()) {
    if (if_not_exists) return false;
    throw BinderError("index '{}' already exists", index.name);
  }
  Statement insert(db_,
                   "INSERT INTO indexes (name, display_name, table_id, is_unique, columns) VALUES "
                   "(?, ?, ?, ?, ?)");
  insert.Bind(1, key)
      .Bind(2, index.name)
      .Bind(3, table_id)
      .Bind(4, int64_t{index.unique})
      .Bind(5, EncodeColumnMap(index.columns))
      .Run();
  transaction.Commit();
  change_count_++;
  return true;
}

void Catalog::DropIndex(const std::string& name, bool if_exists) {
  if (auto routed = Route(name, true)) return routed->catalog->DropIndex(routed->rest, if_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  DeleteNamed(db_, "indexes", Resolve(name, CatalogNamespace::kIndex), if_exists, "index");
  change_count_++;
}

std::vector<IndexDefinition> Catalog::ListIndexes(const std::string& table) const {
  if (auto routed = table.empty() ? std::nullopt : Route(table, false)) {
    auto indexes = routed->catalog->ListIndexes(routed->rest);
    for (auto& index : indexes)
      index.table = routed->catalog->attached_as_ + "." + index.table;
    return indexes;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<IndexDefinition> out;
  Statement read(db_, "SELECT table_id, name FROM tables WHERE ? = '' OR name = ? ORDER BY name");
  const std::string key = table.empty() ? "" : Resolve(table, CatalogNamespace::kRelation);
  read.Bind(1, key).Bind(2, key);
  while (read.Step()) {
    // ReadIndexes checks the column numbers against the table's columns.
    Statement count(db_,
                    "SELECT count(*) FROM columns WHERE table_id = ? AND generated_sql IS NULL");
    count.Bind(1, read.Int(0)).Step();
    for (auto& index : ReadIndexes(read.Int(0), read.Text(1), static_cast<size_t>(count.Int(0))))
      out.push_back(std::move(index));
  }
  if (!table.empty() && !TableId(table)) throw BinderError("table '{}' does not exist", table);
  std::sort(out.begin(), out.end(), [](const IndexDefinition& a, const IndexDefinition& b) {
    return AsciiLower(a.name) < AsciiLower(b.name);
  });
  return out;
}

// ---------------------------------------------------------------- sequences

bool Catalog::CreateSequence(const SequenceDefinition& sequence, bool or_replace,
                             bool if_not_exists) {
  if (auto routed = Route(sequence.name, true)) {
    SequenceDefinition moved = sequence;
    moved.name = routed->rest;
    return routed->catalog->CreateSequence(moved, or_replace, if_not_exists);
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(sequence.name, CatalogNamespace::kSequence, /*create=*/true);
  Transaction transaction(db_);
  Statement exists(db_, "SELECT 1 FROM sequences WHERE name = ?");
  if (exists.Bind(1, key).Step()) {
    if (if_not_exists) return false;
    if (!or_replace) throw BinderError("sequence '{}' already exists", sequence.name);
  }
  Statement write(db_,
                  "INSERT OR REPLACE INTO sequences (name, start_value, increment, min_value, "
                  "max_value, cycle, next_value, last_value) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)");
  write.Bind(1, key)
      .Bind(2, sequence.start)
      .Bind(3, sequence.increment)
      .Bind(4, sequence.min_value)
      .Bind(5, sequence.max_value)
      .Bind(6, int64_t{sequence.cycle})
      .Bind(7, sequence.start)
      .Run();
  transaction.Commit();
  return true;
}

void Catalog::DropSequence(const std::string& name, bool if_exists) {
  if (auto routed = Route(name, true))
    return routed->catalog->DropSequence(routed->rest, if_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  DeleteNamed(db_, "sequences", Resolve(name, CatalogNamespace::kSequence), if_exists, "sequence");
}

std::optional<SequenceDefinition> Catalog::FindSequence(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->FindSequence(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Statement read(db_,
                 "SELECT name, start_value, increment, min_value, max_value, cycle FROM sequences "
                 "WHERE name = ?");
  if (!read.Bind(1, Resolve(name, CatalogNamespace::kSequence)).Step()) return std::nullopt;
  return SequenceDefinition{read.Text(0), read.Int(1), read.Int(2),
                            read.Int(3),  read.Int(4), read.Int(5) != 0};
}

std::vector<SequenceDefinition> Catalog::ListSequences() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Statement read(db_,
                 "SELECT name, start_value, increment, min_value, max_value, cycle FROM sequences "
                 "ORDER BY name");
  std::vector<SequenceDefinition> sequences;
  while (read.Step()) {
    sequences.push_back(SequenceDefinition{read.Text(0), read.Int(1), read.Int(2), read.Int(3),
                                           read.Int(4), read.Int(5) != 0});
  }
  return sequences;
}

std::vector<int64_t> Catalog::NextSequenceValues(const std::string& name, size_t count) const {
  if (auto routed = Route(name, false))
    return routed->catalog->NextSequenceValues(routed->rest, count);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kSequence);
  if (count == 0) return {};
  Transaction transaction(db_);
  Statement read(db_,
                 "SELECT increment, min_value, max_value, cycle, next_value FROM sequences "
                 "WHERE name = ?");
  if (!read.Bind(1, key).Step()) throw BinderError("sequence '{}' does not exist", name);
  const int64_t increment = read.Int(0), min_value = read.Int(1), max_value = read.Int(2);
  const bool cycle = read.Int(3) != 0;
  std::optional<int64_t> next;
  if (read.OptionalText(4)) next = read.Int(4);
  std::vector<int64_t> values;
  values.reserve(count);
  for (size_t i = 0; i < count; i++) {
    if (!next) {
      if (!cycle) {
        throw OutOfRangeError("nextval: reached {} value of sequence '{}' ({})",
                              increment > 0 ? "maximum" : "minimum", name,
                              increment > 0 ? max_value : min_value);
      }
      next = increment > 0 ? min_value : max_value;
    }
    values.push_back(*next);
    // In 128 bits: the step past INT64_MAX is past max_value too.
    const __int128 after = static_cast<__int128>(*next) + increment;
    if (after > max_value || after < min_value) {
      next.reset();
    } else {
      next = static_cast<int64_t>(after);
    }
  }
  Statement write(db_, "UPDATE sequences SET next_value = ?, last_value = ? WHERE name = ?");
  if (next) {
    write.Bind(1, *next);
  } else {
    write.Bind(1, std::optional<std::string>());
  }
  write.Bind(2, values.back()).Bind(3, key).Run();
  transaction.Commit();
  return values;
}

int64_t Catalog::CurrentSequenceValue(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->CurrentSequenceValue(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Statement read(db_, "SELECT last_value FROM sequences WHERE name = ?");
  if (!read.Bind(1, Resolve(name, CatalogNamespace::kSequence)).Step())
    throw BinderError("sequence '{}' does not exist", name);
  if (!read.OptionalText(0)) {
    throw InvalidInputError("currval: sequence '{}' has given no value yet (call nextval first)",
                            name);
  }
  return read.Int(0);
}

// ---------------------------------------------------------------- macros

void Catalog::CreateMacro(const MacroDefinition& macro, bool or_replace) {
  if (auto routed = Route(macro.name, true)) {
    MacroDefinition moved = macro;
    moved.name = routed->rest;
    return routed->catalog->CreateMacro(moved, or_replace);
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(macro.name, CatalogNamespace::kMacro, /*create=*/true);
  Statement exists(db_, "SELECT 1 FROM macros WHERE name = ?");
  const bool taken = temp_macros_.count(key) > 0 || exists.Bind(1, key).Step();
  exists.Run();
  if (taken && !or_replace) {
    throw BinderError("macro '{}' already exists (use CREATE OR REPLACE MACRO)", macro.name);
  }
  Transaction transaction(db_);
  Statement remove(db_, "DELETE FROM macros WHERE name = ?");
  remove.Bind(1, key).Run();
  temp_macros_.erase(key);
  if (macro.temporary) {
    temp_macros_[key] = macro;
  } else {
    Statement insert(db_, "INSERT INTO macros (name, display_name, body) VALUES (?, ?, ?)");
    insert.Bind(1, key).Bind(2, macro.name).Bind(3, macro.body).Run();
    Statement parameter(db_,
                        "INSERT INTO macro_parameters (macro, ordinal, name, default_sql) VALUES "
                        "(?, ?, ?, ?)");
    int64_t ordinal = 0;
    for (const auto& name : macro.parameters)
      parameter.Bind(1, key)
          .Bind(2, ordinal++)
          .Bind(3, name)
          .Bind(4, std::optional<std::string>())
          .Run();
    for (const auto& [name, text] : macro.defaults)
      parameter.Bind(1, key).Bind(2, ordinal++).Bind(3, name).Bind(4, text).Run();
  }
  transaction.Commit();
}

void Catalog::DropMacro(const std::string& name, bool if_exists) {
  if (auto routed = Route(name, true)) return routed->catalog->DropMacro(routed->rest, if_exists);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kMacro);
  if (temp_macros_.erase(key) > 0) return;
  DeleteNamed(db_, "macros", key, if_exists, "macro");
}

std::optional<MacroDefinition> Catalog::FindMacro(const std::string& name) const {
  if (auto routed = Route(name, false)) return routed->catalog->FindMacro(routed->rest);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const std::string key = Resolve(name, CatalogNamespace::kMacro);
  if (auto temp = temp_macros_.find(key); temp != temp_macros_.end()) return temp->second;
  Statement read(db_, "SELECT display_name, body FROM macros WHERE name = ?");
  if (!read.Bind(1, key).Step()) return std::nullopt;
  MacroDefinition macro;
  macro.name = read.Text(0);
  macro.body = read.Text(1);
  Statement parameters(db_,
                       "SELECT name, default_sql FROM macro_parameters WHERE macro = ? ORDER BY "
                       "ordinal");
  parameters.Bind(1, key);
  while (parameters.Step()) {
    if (auto text = parameters.OptionalText(1)) {
      macro.defaults.emplace_back(parameters.Text(0), *text);
    } else {
      macro.parameters.push_back(parameters.Text(0));
    }
  }
  return macro;
}
}  // namespace shears
