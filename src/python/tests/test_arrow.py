"""__arrow_c_stream__, read back by a consumer written from the specification."""
import datetime
import decimal
import os
import sys

import shears

sys.path.insert(0, os.path.dirname(__file__))
from arrow_consumer import read_stream  # noqa: E402


def test_stream_of_every_type():
    con = shears.connect()
    rel = con.sql(
        "SELECT id AS id, CAST(id AS INTEGER) AS i, id * 0.5::DOUBLE AS d, "
        "CAST(id AS REAL) AS r, CAST(id AS DECIMAL(10,2)) AS small_dec, "
        "CAST(id AS DECIMAL(30,3)) AS big_dec, id % 2 = 0 AS b, "
        "DATE '2020-01-01' + CAST(id AS INTEGER) AS day, "
        "CAST(DATE '2020-01-01' + CAST(id AS INTEGER) AS TIMESTAMP) AS ts, "
        "CASE WHEN id = 1 THEN NULL ELSE 'v' || CAST(id AS VARCHAR) END AS s, "
        "CAST('ab' AS BLOB) AS bl FROM range(3) ORDER BY id")
    names, formats, rows, _ = read_stream(rel.__arrow_c_stream__())
    assert names == ["id", "i", "d", "r", "small_dec", "big_dec", "b", "day", "ts", "s", "bl"]
    assert formats == ["l", "i", "g", "f", "d:10,2", "d:30,3", "b", "tdD", "tsu:", "u", "z"]
    assert rows == rel.fetchall()
    assert rows[1][9] is None
    assert rows[2][4] == decimal.Decimal("2.00")
    assert rows[2][8] == datetime.datetime(2020, 1, 3)


def test_list_columns_are_not_supported_yet():
    con = shears.connect()
    rel = con.sql("SELECT [1, 2] AS l")
    try:
        rel.__arrow_c_stream__()
    except shears.NotSupportedError as e:
        assert "INTEGER[] columns cannot be exported to Arrow" in str(e)
    else:
        raise AssertionError("a LIST column was exported to Arrow")


def test_nulls_in_every_column_and_many_arrays():
    con = shears.connect()
    n = 10_000
    rel = con.sql(f"SELECT CASE WHEN id % 3 = 0 THEN NULL ELSE id END AS x, "
                  f"CASE WHEN id % 5 = 0 THEN NULL ELSE id % 2 = 0 END AS y "
                  f"FROM range({n})")
    names, _, rows, arrays = read_stream(rel.__arrow_c_stream__())
    assert arrays > 1
    assert sorted(rows, key=lambda r: (r[0] is None, r[0] or 0)) == \
        sorted(rel.fetchall(), key=lambda r: (r[0] is None, r[0] or 0))
    assert sum(1 for r in rows if r[0] is None) == len(range(0, n, 3))


def test_empty_result_and_released_capsule():
    con = shears.connect()
    rel = con.sql("SELECT id AS x FROM range(0)")
    names, formats, rows, arrays = read_stream(rel.__arrow_c_stream__())
    assert names == ["x"] and rows == [] and arrays == 0
    # A capsule never consumed is released by its destructor.
    capsule = rel.__arrow_c_stream__()
    del capsule
    # The stream keeps the result alive by itself.
    capsule = con.sql("SELECT 'kept' AS k").__arrow_c_stream__()
    assert read_stream(capsule)[2] == [("kept",)]
