// BEGIN / COMMIT / ROLLBACK across the connections of one database (the SQL logic tests have
// one connection): one transaction at a time, other connections may only read meanwhile, and
// a connection that closes rolls its transaction back.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "main/connection.h"

namespace shears {
namespace {

using Rows = std::vector<std::vector<std::string>>;

TEST(TransactionTest, OtherConnectionsReadButDoNotWrite) {
  Database db;
  Connection owner(db);
  Connection other(db);
  owner.Query("CREATE TABLE t AS SELECT 1 AS a");
  owner.Query("BEGIN");
  owner.Query("INSERT INTO t VALUES (2)");
  // One SQLite connection holds the catalog: another connection reads the open transaction.
  EXPECT_EQ(other.Query("SELECT count(*) FROM t").ToStrings(), (Rows{{"2"}}));
  EXPECT_THROW(other.Query("INSERT INTO t VALUES (3)"), TransactionError);
  EXPECT_THROW(other.Query("BEGIN"), TransactionError);
  EXPECT_THROW(other.Query("COMMIT"), TransactionError);
  EXPECT_THROW(other.Query("ROLLBACK"), TransactionError);
  owner.Query("ROLLBACK");
  EXPECT_EQ(other.Query("SELECT count(*) FROM t").ToStrings(), (Rows{{"1"}}));
  other.Query("INSERT INTO t VALUES (3)");
  EXPECT_EQ(owner.Query("SELECT count(*) FROM t").ToStrings(), (Rows{{"2"}}));
}

TEST(TransactionTest, ClosingAConnectionRollsBack) {
  Database db;
  Connection con(db);
  con.Query("CREATE TABLE t AS SELECT 1 AS a");
  {
    Connection short_lived(db);
    short_lived.Query("BEGIN; INSERT INTO t VALUES (2); CREATE VIEW v AS SELECT 1");
  }
  EXPECT_EQ(con.Query("SELECT count(*) FROM t").ToStrings(), (Rows{{"1"}}));
  EXPECT_THROW(con.Query("SELECT * FROM v"), BinderError);
  con.Query("BEGIN");  // nothing left open
  con.Query("COMMIT");
}

TEST(TransactionTest, ADatabaseClosingFirstRollsBackAndFreesItsConnections) {
  auto db = std::make_unique<Database>();
  Connection con(*db);
  con.Query("BEGIN; CREATE TABLE t AS SELECT 1 AS a");
  db.reset();  // rolls back; the connection, destroyed later, must not reach the database
}

}  // namespace
}  // namespace shears
