#pragma once
// The catalog: views and external tables, each table with its partitions and their files, kept
// in SQLite: DBDIR/catalog.db for a database directory, an in-memory SQLite database otherwise.
// Every change is one transaction, so a crash leaves the catalog as before or after it.
//
// Names are case-insensitive (stored lower-case); tables and views share one namespace.
//
// Schemas: every object lives in a schema, `main` unless CREATE SCHEMA made another. An
// object of schema `main` is stored under its own name (so catalogs written before schemas
// open unchanged), one of schema `s` under "s.name". Every method taking a name accepts
// "name", "main.name" or "s.name" and resolves it (Resolve): an unqualified name means the
// session's current schema's object (SET schema) when it has one, else main's.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"

struct sqlite3;

namespace shears {

class Dataset;
struct FileStatistics;

struct ViewDefinition {
  std::string sql;  // the query text
  std::vector<std::string> column_aliases;
};

struct CatalogColumn {
  std::string name;
  LogicalType type;  // invalid when unreadable (see unsupported_reason)
  bool is_partition = false;
  std::string unsupported_reason;
  bool not_null = false;  // NOT NULL (or in the PRIMARY KEY) of a managed table
  /// DEFAULT of a managed table's column: the expression's text as written (evaluated per
  /// inserted row, so nextval() and random() give each row its own value).
  std::optional<std::string> default_sql;
};

/// A generated column of a managed table (DuckDB's `g AS (expr)`, VIRTUAL): not in the files;
/// queries compute it from the row's other columns (planner/generated_columns.h).
struct GeneratedColumn {
  std::string name;
  LogicalType type;
  std::string sql;      // the expression as written
  size_t position = 0;  // its place among all the table's columns (DESCRIBE's order)
};

/// A PRIMARY KEY or UNIQUE constraint of a managed table: no two rows have the same values in
/// `columns` (rows with a NULL in them excepted; PRIMARY KEY columns are NOT NULL).
struct TableKey {
  bool primary = false;
  std::vector<int> columns;  // indexes into TableDefinition::columns
};

/// FOREIGN KEY (columns) REFERENCES parent (parent_columns) of a managed table: every row with
/// no NULL in `columns` has a row of `parent` with the same values (checked on writes to
/// either table; no cascading actions, as DuckDB).
struct ForeignKey {
  std::vector<int> columns;                 // indexes into TableDefinition::columns
  std::string parent;                       // the referenced table's stored key ("t", "s.t")
  std::vector<std::string> parent_columns;  // a PRIMARY KEY or UNIQUE key of it
};

/// CREATE [UNIQUE] INDEX: a named catalog object on a table's columns. Nothing reads through
/// it yet; a UNIQUE index is enforced like a UNIQUE constraint (NULLs exempt).
struct IndexDefinition {
  std::string name;  // as written (names are case-insensitive)
  std::string table;
  bool unique = false;
  std::vector<int> columns;  // indexes into TableDefinition::columns
};

/// ANALYZE's statistics of one column at one level.
struct ColumnStatistics {
  std::string column;
  int64_t null_count = 0;
  int64_t distinct_count = -1;          // HyperLogLog estimate (exact for partition columns)
  std::optional<std::string> min, max;  // as text; nullopt when all values are NULL
};

/// ANALYZE's statistics of the whole table, one partition or one file.
struct StatisticsEntry {
  std::string level;  // "table", "partition" or "file"
  std::string path;   // partition directory or file path relative to the location; "" for table
  int64_t row_count = 0;
  int64_t bytes = 0;
  std::vector<ColumnStatistics> columns;
};

/// CREATE SEQUENCE: nextval hands out start, start + increment, ... within [min_value,
/// max_value]; past a bound it fails, or with `cycle` starts again from the other bound.
struct SequenceDefinition {
  std::string name;
  int64_t start = 1;
  int64_t increment = 1;
  int64_t min_value = 1;
  int64_t max_value = INT64_MAX;
  bool cycle = false;
};

/// CREATE MACRO m(a, b := 2) AS a + b: expressions as text, parsed where the macro is called.
struct MacroDefinition {
  std::string name;                     // as written (names are case-insensitive)
  std::vector<std::string> parameters;  // without defaults, in order
  std::vector<std::pair<std::string, std::string>> defaults;  // name, expression text
  std::string body;
  bool temporary = false;  // TEMP: this process's catalog only, never stored
};

struct CatalogFile {
  std::string path;  // relative to the table's location
  uint64_t size = 0;
  int64_t num_rows = -1;  // -1: not known
  /// For each file column of the table (in order): its column index in this file, or -1.
  std::vector<int> column_map;
  /// Statistics known when the file was written (managed tables) or read from its footer
  /// (external tables), stored at level "file"; not read back by FindTable (TableDataset's
  /// dataset reads them when a scan first tests a file's statistics).
  std::optional<StatisticsEntry> statistics;
};

struct CatalogPartition {
  /// The key=value directories relative to the location ("year=2024/month=7"); "" for the one
  /// partition of an unpartitioned table. Values are parsed from it with the column types.
  std::string path;
  std::vector<CatalogFile> files;
};

struct TableDefinition {
  std::string name;
  std::string location;  // absolute directory
  std::string format = "parquet";
  bool columns_declared = false;  // CREATE gave a column list (else: from the files)
  /// Managed by shears (CREATE TABLE, INSERT): its files live under the database directory
  /// and DROP TABLE deletes them.
  bool managed = false;
  /// File columns, then partition columns (directory order).
  std::vector<CatalogColumn> columns;
  /// Generated columns, by position; not in `columns` (writes never see them).
  std::vector<GeneratedColumn> generated;
  std::vector<TableKey> keys;
  std::vector<ForeignKey> foreign_keys;
  /// CHECK constraints of a managed table: expressions over its columns, as written.
  std::vector<std::string> checks;
  std::vector<IndexDefinition> indexes;      // sorted by name
  std::vector<CatalogPartition> partitions;  // sorted by path
  /// Table-level ANALYZE statistics, when the table was analyzed since its last change.
  std::optional<StatisticsEntry> statistics;

  size_t num_partition_columns() const;
  /// The columns as queries see them: a stored column is {false, index into `columns`}, a
  /// generated one {true, index into `generated`}.
  std::vector<std::pair<bool, size_t>> VisibleColumns() const;
};

/// Which namespace a name is resolved in (an unqualified name finds the current schema's
/// object only when that namespace has it).
enum class CatalogNamespace { kRelation, kIndex, kSequence, kMacro };

class Catalog {
 public:
  /// Opens or creates DIRECTORY/catalog.db (the directory is created when missing); an empty
  /// directory name gives an in-memory catalog. Throws IOError when the directory cannot be
  /// used, CorruptFileError when catalog.db is not a shears catalog, NotSupportedError when it
  /// was written by a newer shears (schema version).
  static std::unique_ptr<Catalog> Open(const std::string& directory);
  ~Catalog();
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  /// Where catalog.db lives; "" in memory.
  const std::string& path() const { return path_; }

  // ---- schemas (`main` always exists and cannot be dropped)
  /// BinderError when it exists (unless if_not_exists: then false).
  bool CreateSchema(const std::string& name, bool if_not_exists);
  /// Without `cascade`, BinderError when the schema holds objects (naming one). With it,
  /// its tables, views, sequences and macros go too; returns the locations of its managed
  /// tables (whose files the caller deletes).
  std::vector<std::string> DropSchema(const std::string& name, bool if_exists, bool cascade);
  bool SchemaExists(const std::string& name) const;
  /// Every schema, `main` first, then by name.
  std::vector<std::string> ListSchemas() const;
  /// The stored key of `name` (see the top of this file): "t" or "s.t", lower-case. With
  /// `create`, for a new object: the schema must exist (BinderError naming it).
  std::string Resolve(const std::string& name, CatalogNamespace ns, bool create = false) const;
  /// The schema and the name within it of a stored key.
  static std::pair<std::string, std::string> SplitKey(const std::string& key);

  // ---- attached databases (ATTACH): other catalogs, which names reach as db.t or db.s.t
  // (DuckDB's rule: a two-part name is schema.t when the schema exists here, else db.t).
  /// ATTACH 'path' AS name: ':memory:' (or '') a new in-memory catalog, else a shears database
  /// directory (created when missing). InvalidInputError for a DuckDB or SQLite file,
  /// BinderError when the name is taken (unless if_not_exists: then false).
  bool Attach(const std::string& name, const std::string& path, bool read_only, bool if_not_exists);
  void Detach(const std::string& name, bool if_exists);
  struct DatabaseEntry {
    std::string name;
    std::string path;  // "" in memory
    bool read_only = false;
  };
  /// This database first, then the attached ones by name.
  std::vector<DatabaseEntry> ListDatabases() const;
  /// The catalog of database `name`: this one (its own name) or an attached one; null for
  /// none. Its List* methods list that database's objects.
  const Catalog* DatabaseCatalog(const std::string& name) const;
  /// Whether `name` is this database's name or an attached one's.
  bool DatabaseExists(const std::string& name) const;
  /// This database's name: "memory" in memory, else its directory's name.
  std::string database_name() const;
  /// The catalog a (qualified) object name lives in: this one or an attached one; managed
  /// tables live in its DataDirectory().
  Catalog& CatalogOf(const std::string& name);

  // ---- views
  /// BinderError when the name is taken (by a view without or_replace, or by a table).
  void CreateView(const std::string& name, const ViewDefinition& view, bool or_replace);
  void DropView(const std::string& name, bool if_exists);
  std::optional<ViewDefinition> FindView(const std::string& name) const;

  // ---- tables
  /// BinderError when the name is taken.
  void CreateTable(const TableDefinition& table);
  /// Returns the location of a managed table (whose files the caller then deletes).
  std::optional<std::string> DropTable(const std::string& name, bool if_exists);
  /// Adds files to an existing table in one transaction: partitions are created when new, each
  /// file's statistics are stored at level "file"; table and partition statistics (ANALYZE's)
  /// are dropped as they no longer describe the table.
  void AppendFiles(const std::string& name, const std::vector<CatalogPartition>& partitions);
  /// Where managed tables and staged writes live: the database directory, or for an in-memory
  /// catalog a temporary directory (created on first use, removed with the catalog).
  std::string DataDirectory();
  /// Locations of every managed table.
  std::vector<std::string> ManagedLocations() const;
  /// The table with its partitions and files; nullopt when there is none.
  std::optional<TableDefinition> FindTable(const std::string& name) const;
  /// The dataset a query on the table scans (null when there is no such table). Built from the
  /// stored lists once and shared until the catalog changes, here or in another process.
  std::shared_ptr<const Dataset> TableDataset(const std::string& name) const;
  /// The table's generated columns (none when there is no such table), without reading its
  /// file lists.
  std::vector<GeneratedColumn> GeneratedColumns(const std::string& name) const;
  /// The tables other than `name` whose FOREIGN KEYs reference it, by stored key.
  std::vector<std::string> ReferencingTables(const std::string& name) const;
  /// Replaces the table's files, which must be exactly `removed` (paths relative to the
  /// location, as FindTable gave them), by `added` in one transaction (UPDATE, DELETE).
  /// IOError when the table has other files now (another write committed since the statement
  /// read them): nothing changes. Statistics are dropped but for the new files'.
  /// With `definition` (ALTER TABLE's column changes), the table's columns, keys, CHECKs and
  /// index columns become its in the same transaction.
  void SwapFiles(const std::string& name, const std::vector<std::string>& removed,
                 const std::vector<CatalogPartition>& added,
                 const TableDefinition* definition = nullptr);
  /// Replaces the table's columns, keys, CHECKs and index columns (ALTER TABLE's DEFAULT and
  /// DROP NOT NULL, which leave the files as they are).
  void ReplaceDefinition(const std::string& name, const TableDefinition& definition);
  /// ALTER TABLE t RENAME TO u: the name only (a managed table keeps its directory).
  /// BinderError when `name` is missing or `new_name` is taken.
  void RenameTable(const std::string& name, const std::string& new_name);
  /// ALTER VIEW v RENAME TO w; BinderError as RenameTable.
  void RenameView(const std::string& name, const std::string& new_name);
  /// Replaces the partition and file lists of an existing table (RECOVER PARTITIONS); its
  /// statistics are dropped, as they describe the old files.
  void ReplacePartitions(const std::string& name, const std::vector<CatalogPartition>& partitions);
  /// Replaces the table's ANALYZE statistics (all levels).
  void ReplaceStatistics(const std::string& name, const std::vector<StatisticsEntry>& entries);
  /// Statistics of one level ("table", "partition", "file"), ordered by path.
  std::vector<StatisticsEntry> GetStatistics(const std::string& name,
                                             const std::string& level) const;

  // ---- indexes (their own namespace, as DuckDB's)
  /// BinderError when the name is taken (unless if_not_exists: then false) or the table is
  /// missing.
  bool CreateIndex(const IndexDefinition& index, bool if_not_exists);
  void DropIndex(const std::string& name, bool if_exists);
  /// Every index (of one table when `table` is not empty), by name.
  std::vector<IndexDefinition> ListIndexes(const std::string& table) const;

  // ---- sequences (their own namespace, as DuckDB's)
  /// BinderError when the name is taken (unless or_replace, or if_not_exists: then false).
  bool CreateSequence(const SequenceDefinition& sequence, bool or_replace, bool if_not_exists);
  void DropSequence(const std::string& name, bool if_exists);
  std::optional<SequenceDefinition> FindSequence(const std::string& name) const;
  /// Every sequence of this catalog (names are stored keys: "q" or "s.q"), by key.
  std::vector<SequenceDefinition> ListSequences() const;
  /// nextval for `count` rows: the values in order, the sequence advanced past them in one
  /// transaction (so two processes never get the same value). OutOfRangeError past a bound
  /// without CYCLE. Const as a query advances sequences while it reads the catalog.
  std::vector<int64_t> NextSequenceValues(const std::string& name, size_t count) const;
  /// currval: the last value nextval gave; InvalidInputError before any.
  int64_t CurrentSequenceValue(const std::string& name) const;

  // ---- scalar macros (their own namespace; TEMP ones live in this object only)
  /// BinderError when the name is taken and not or_replace.
  void CreateMacro(const MacroDefinition& macro, bool or_replace);
  void DropMacro(const std::string& name, bool if_exists);
  /// A TEMP macro of the name first, else the stored one.
  std::optional<MacroDefinition> FindMacro(const std::string& name) const;

  // ---- SQL transactions (BEGIN ... COMMIT | ROLLBACK), one at a time per catalog
  /// Opens an SQLite transaction (holding catalog.db's write lock) that every later change
  /// joins, each as a savepoint. TransactionError when one is open.
  void BeginTransaction();
  /// Commits it; then the files replaced or dropped inside it go as they would have outside.
  void CommitTransaction();
  /// Undoes every catalog change since BeginTransaction (TEMP macros too) and deletes the files
  /// written since; sequences keep the values they handed out (as DuckDB's and PostgreSQL's).
  void RollbackTransaction();
  bool in_transaction() const;
  /// Inside a transaction: `published` (written by it, deleted by ROLLBACK) and `replaced`
  /// (retired by COMMIT, kept by ROLLBACK), paths relative to `root`, the table's location.
  void RecordTransactionWrite(const std::string& table, const std::string& root,
                              const std::vector<std::string>& published,
                              const std::vector<std::string>& replaced);
  /// Inside a transaction: a dropped managed table's directory, deleted by COMMIT.
  void DeferRemoval(const std::string& location);
  /// Directories DeferRemoval holds (a new table must not take one).
  std::vector<std::string> PendingRemovals() const;

  struct Entry {
    std::string name;  // the stored key ("t" or "s.t"): what Find* take
    std::string kind;  // "table" or "view"
    std::string schema;
    std::string table_name;  // the name within the schema
  };
  /// Tables and views of every schema, sorted by key.
  std::vector<Entry> List() const;

 private:
  Catalog() = default;
  void Execute(const std::string& sql) const;
  void InitializeSchema();
  std::optional<int64_t> TableId(const std::string& name) const;
  int64_t RequireTableId(const std::string& name) const;  // BinderError when absent
  std::optional<std::string> KindOf(const std::string& lower_name) const;
  /// Whether an object of the key exists in the namespace.
  bool Exists(const std::string& key, CatalogNamespace ns) const;
  /// The attached catalog `name` reaches and the name there ("db.t" -> db's "t"), when it
  /// names one (see Attach); `write`: for a change (read-only databases and transactions
  /// refuse). Null outside a routed call's own catalog.
  struct Routed {
    Catalog* catalog = nullptr;
    std::string rest;
  };
  std::optional<Routed> Route(const std::string& name, bool write) const;
  /// The current schema for names of this catalog (main unless the session's current
  /// database is this one).
  std::string CurrentSchema() const;
  void InsertPartitions(int64_t table_id, const std::vector<CatalogPartition>& partitions);
  /// The columns, keys and CHECKs of `table` as table `table_id`'s (rows not there yet).
  void InsertColumns(int64_t table_id, const TableDefinition& table);
  /// Replaces them, and the columns of the table's indexes.
  void ReplaceColumns(int64_t table_id, const TableDefinition& table);
  std::vector<ForeignKey> ReadForeignKeys(int64_t table_id) const;
  /// Ordered by path (else in the order they were stored).
  std::vector<StatisticsEntry> ReadStatistics(int64_t table_id, const std::string& level,
                                              bool by_path = true) const;
  std::vector<IndexDefinition> ReadIndexes(int64_t table_id, const std::string& table,
                                           size_t num_columns) const;
  void InsertStatistics(int64_t table_id, const std::vector<StatisticsEntry>& entries);
  void ChangeFiles(const std::string& name, const std::vector<CatalogPartition>& partitions,
                   bool replace);

  /// Drops cached datasets when catalog.db changed since they were built.
  void ValidateCache() const;
  /// The file-level statistics of table `table_id` for the files of `dataset` (its order): a
  /// file gets the entry recorded for its path and size, else none. TableDataset's loader.
  std::vector<std::shared_ptr<const FileStatistics>> LoadFileStatistics(
      int64_t table_id, const std::string& location, const Dataset& dataset) const;

  std::string path_;
  std::string attached_as_;  // the name ATTACH gave it; "" for a database's own catalog
  bool read_only_ = false;
  std::map<std::string, std::shared_ptr<Catalog>> attached_;  // by name
  std::string temp_directory_;                                // in-memory catalogs' DataDirectory
  std::map<std::string, MacroDefinition> temp_macros_;        // TEMP macros, by lower-case name
  // The open SQL transaction: TEMP macros at BEGIN, files written and replaced (table, root,
  // relative paths), managed directories dropped.
  struct OpenTransaction {
    std::map<std::string, MacroDefinition> temp_macros;
    struct Write {
      std::string table, root;
      std::vector<std::string> published, replaced;
    };
    std::vector<Write> writes;
    std::vector<std::string> removals;
  };
  std::optional<OpenTransaction> transaction_;
  sqlite3* db_ = nullptr;
  // TableDataset's cache, valid while neither this catalog (change_count_) nor another
  // connection to catalog.db (SQLite's data_version) changed anything.
  mutable std::map<std::string, std::shared_ptr<const Dataset>> datasets_;
  mutable int64_t cached_data_version_ = -1;
  mutable int64_t cached_change_count_ = -1;
  int64_t change_count_ = 0;
  // One SQLite connection shared by the database's sessions; statements of one change run in
  // one transaction, so changes are serialized here.
  mutable std::recursive_mutex mutex_;
  // The datasets' statistics loaders reach the catalog through this; the destructor detaches
  // it (waiting for a load running), so a dataset outliving the catalog loads none.
  struct LoaderLink {
    std::mutex mutex;
    const Catalog* catalog = nullptr;
  };
  std::shared_ptr<LoaderLink> loader_link_ = std::make_shared<LoaderLink>();
};

/// Parses what LogicalType::ToString wrote ("DECIMAL(18,4)"); invalid for anything else.
LogicalType ParseTypeString(const std::string& text);

}  // namespace shears
