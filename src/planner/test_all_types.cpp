// test_all_types(): DuckDB's table function of three rows, each type's smallest value, its
// largest and NULL (the values of DuckDB's test_all_types.cpp), for the types shears has.
// DuckDB's columns of types shears lacks (TINYINT, SMALLINT, HUGEINT and the unsigned ones,
// BIGNUM, TIMESTAMP_S / _MS / _NS, TIME WITH TIME ZONE, TIMESTAMP WITH TIME ZONE, UUID, BIT, the
// ENUMs, UNION, fixed-size arrays, TIME_NS, GEOMETRY) are left out; docs/catalog.md lists them.

#include <fmt/format.h>

#include <string>
#include <vector>

#include "planner/metadata_query.h"

namespace shears {

namespace {

struct TypeColumn {
  const char* name;
  const char* type;
  const char* min;  // SQL expressions, cast to `type`
  const char* max;
};

// In DuckDB's order, with DuckDB's values (its strings hold a duck emoji and a NUL).
const std::vector<TypeColumn> kColumns = {
    {"bool", "BOOLEAN", "false", "true"},
    {"int", "INTEGER", "-2147483648", "2147483647"},
    {"bigint", "BIGINT", "-9223372036854775808", "9223372036854775807"},
    {"date", "DATE", "'5877642-06-25 (BC)'", "'5881580-07-10'"},
    {"time", "TIME", "'00:00:00'", "'24:00:00'"},
    {"timestamp", "TIMESTAMP", "'290309-12-22 (BC) 00:00:00'", "'294247-01-10 04:00:54.775806'"},
    {"float", "FLOAT", "'-3.4028234663852886e+38'", "'3.4028234663852886e+38'"},
    {"double", "DOUBLE", "'-1.7976931348623157e+308'", "'1.7976931348623157e+308'"},
    {"dec_4_1", "DECIMAL(4,1)", "'-999.9'", "'999.9'"},
    {"dec_9_4", "DECIMAL(9,4)", "'-99999.9999'", "'99999.9999'"},
    {"dec_18_6", "DECIMAL(18,6)", "'-999999999999.999999'", "'999999999999.999999'"},
    {"dec38_10", "DECIMAL(38,10)", "'-9999999999999999999999999999.9999999999'",
     "'9999999999999999999999999999.9999999999'"},
    {"interval", "INTERVAL", "'00:00:00'", "'83 years 3 months 999 days 00:16:39.999999'"},
    {"varchar", "VARCHAR", "'🦆🦆🦆🦆🦆🦆'", "'goo' || chr(0) || 'se'"},
    {"blob", "BLOB", "'thisisalongblob\\x00withnullbytes'", "'\\x00\\x00\\x00a'"},
    {"int_array", "INTEGER[]", "[]", "[42, 999, NULL, NULL, -42]"},
    {"double_array", "DOUBLE[]", "[]",
     "[42.0, 'nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, NULL, -42.0]"},
    {"date_array", "DATE[]", "[]",
     "['1970-01-01'::DATE, 'infinity'::DATE, '-infinity'::DATE, NULL, '2022-05-12'::DATE]"},
    {"timestamp_array", "TIMESTAMP[]", "[]",
     "['1970-01-01'::TIMESTAMP, 'infinity'::TIMESTAMP, '-infinity'::TIMESTAMP, NULL, '2022-05-12 "
     "16:23:45'::TIMESTAMP]"},
    {"varchar_array", "VARCHAR[]", "[]", "['🦆🦆🦆🦆🦆🦆', 'goose', NULL, '']"},
    {"nested_int_array", "INTEGER[][]", "[]",
     "[[], [42, 999, NULL, NULL, -42], NULL, [], [42, 999, NULL, NULL, -42]]"},
    {"struct", "STRUCT(a INTEGER, b VARCHAR)", "{'a': NULL, 'b': NULL}",
     "{'a': 42, 'b': '🦆🦆🦆🦆🦆🦆'}"},
    {"struct_of_arrays", "STRUCT(a INTEGER[], b VARCHAR[])", "{'a': NULL, 'b': NULL}",
     "{'a': [42, 999, NULL, NULL, -42], 'b': ['🦆🦆🦆🦆🦆🦆', 'goose', NULL, '']}"},
    {"array_of_structs", "STRUCT(a INTEGER, b VARCHAR)[]", "[]",
     "[{'a': NULL, 'b': NULL}, {'a': 42, 'b': '🦆🦆🦆🦆🦆🦆'}, NULL]"},
    {"map", "MAP(VARCHAR, VARCHAR)", "MAP {}",
     "MAP {'key1': '🦆🦆🦆🦆🦆🦆', 'key2': 'goose'}"},
};

}  // namespace

std::string TestAllTypesQuery() {
  std::string rows[3];
  for (const auto& column : kColumns) {
    const std::string separator = rows[0].empty() ? "" : ", ";
    rows[0] +=
        fmt::format("{}CAST({} AS {}) AS {}", separator, column.min, column.type, column.name);
    rows[1] += fmt::format("{}CAST({} AS {})", separator, column.max, column.type);
    rows[2] += fmt::format("{}CAST(NULL AS {})", separator, column.type);
  }
  return fmt::format("SELECT {} UNION ALL SELECT {} UNION ALL SELECT {}", rows[0], rows[1],
                     rows[2]);
}

}  // namespace shears
