"""Results as numpy arrays (fetchnumpy) and pandas DataFrames (df), built in C++."""
import numpy as np
import pandas as pd
import pytest

import shears

QUERY = """
SELECT id AS id,
       CAST(id AS INTEGER) AS i32,
       CASE WHEN id % 2 = 0 THEN id END AS maybe,
       id / 4.0 AS d,
       CAST(id AS REAL) AS r,
       CAST(id AS DECIMAL(10,2)) / 100 AS dec,
       id % 3 = 0 AS b,
       CASE WHEN id % 3 = 1 THEN NULL ELSE id % 3 = 0 END AS maybe_b,
       DATE '2020-01-01' + CAST(id AS INTEGER) AS day,
       CAST(DATE '2020-01-01' + CAST(id AS INTEGER) AS TIMESTAMP) AS ts,
       CASE WHEN id = 1 THEN NULL ELSE 's' || CAST(id AS VARCHAR) END AS s
FROM range(5) ORDER BY id
"""


def test_fetchnumpy_dtypes_and_masks():
    con = shears.connect()
    arrays = con.sql(QUERY).fetchnumpy()
    assert list(arrays) == ["id", "i32", "maybe", "d", "r", "dec", "b", "maybe_b", "day", "ts",
                            "s"]
    assert arrays["id"].dtype == np.int64 and not np.ma.isMaskedArray(arrays["id"])
    assert arrays["id"].tolist() == [0, 1, 2, 3, 4]
    assert arrays["i32"].dtype == np.int32
    maybe = arrays["maybe"]
    assert np.ma.isMaskedArray(maybe) and maybe.dtype == np.int64
    assert maybe.mask.tolist() == [False, True, False, True, False]
    assert maybe.compressed().tolist() == [0, 2, 4]
    assert arrays["d"].dtype == np.float64 and arrays["d"].tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert arrays["r"].dtype == np.float32
    assert arrays["dec"].dtype == np.float64 and arrays["dec"][3] == pytest.approx(0.03)
    assert arrays["b"].dtype == np.bool_ and arrays["b"].tolist() == [True, False, False, True,
                                                                      False]
    assert arrays["maybe_b"].mask.tolist() == [False, True, False, False, True]
    assert arrays["day"].dtype == np.dtype("datetime64[D]")
    assert arrays["day"][2] == np.datetime64("2020-01-03")
    assert arrays["ts"].dtype == np.dtype("datetime64[us]")
    assert arrays["ts"][4] == np.datetime64("2020-01-05T00:00:00")
    assert arrays["s"].dtype == object and arrays["s"].mask.tolist() == [False, True, False,
                                                                          False, False]
    assert arrays["s"][0] == "s0"


def test_df_dtypes():
    con = shears.connect()
    df = con.sql(QUERY).df()
    assert list(df.columns) == ["id", "i32", "maybe", "d", "r", "dec", "b", "maybe_b", "day",
                                "ts", "s"]
    assert df["id"].dtype == np.int64
    assert df["i32"].dtype == np.int32
    # Integers with NULLs: pandas' nullable integers.
    assert str(df["maybe"].dtype) == "Int64"
    assert df["maybe"].isna().tolist() == [False, True, False, True, False]
    assert df["maybe"][2] == 2
    assert df["d"].dtype == np.float64
    assert df["r"].dtype == np.float32
    assert df["dec"].dtype == np.float64
    assert df["b"].dtype == np.bool_
    assert str(df["maybe_b"].dtype) == "boolean"
    assert df["maybe_b"].isna().tolist() == [False, True, False, False, True]
    assert df["day"].dtype == np.dtype("datetime64[ns]")
    assert df["day"][1] == pd.Timestamp("2020-01-02")
    assert df["ts"].dtype == np.dtype("datetime64[ns]")
    assert df["ts"][3] == pd.Timestamp("2020-01-04")
    assert df["s"].dtype == object and df["s"][1] is None and df["s"][4] == "s4"


def test_df_nulls_in_floats_and_times():
    con = shears.connect()
    df = con.sql("SELECT CASE WHEN id = 0 THEN NULL ELSE id * 1.5::DOUBLE END AS f, "
                 "CASE WHEN id = 1 THEN NULL ELSE DATE '2000-01-01' END AS dt "
                 "FROM range(2) ORDER BY id").df()
    assert np.isnan(df["f"][0]) and df["f"][1] == 1.5
    assert df["dt"].isna().tolist() == [False, True]


def test_df_of_an_empty_result_and_duplicate_names():
    con = shears.connect()
    df = con.sql("SELECT id AS a FROM range(0)").df()
    assert list(df.columns) == ["a"] and len(df) == 0
    df = con.sql("SELECT 1 AS a, 2 AS a").df()
    assert list(df.columns) == ["a", "a"] and df.iloc[0].tolist() == [1, 2]


def test_timestamps_outside_pandas_range_are_a_clear_error():
    con = shears.connect()
    with pytest.raises(shears.OutOfRangeError, match="datetime64"):
        con.sql("SELECT TIMESTAMP '3000-01-01 00:00:00'").df()
    # numpy's microseconds hold it.
    arrays = con.sql("SELECT TIMESTAMP '3000-01-01 00:00:00' AS t").fetchnumpy()
    assert arrays["t"][0] == np.datetime64("3000-01-01T00:00:00")


def test_many_batches():
    con = shears.connect()
    n = 100_000
    arrays = con.sql(f"SELECT id AS x FROM range({n})").fetchnumpy()
    assert len(arrays["x"]) == n
    assert np.sort(arrays["x"]).tolist() == list(range(n))
    df = con.sql(f"SELECT id AS x, CASE WHEN id % 7 = 0 THEN NULL ELSE id END AS y "
                 f"FROM range({n})").df()
    assert len(df) == n and df["y"].isna().sum() == len(range(0, n, 7))
    assert int(df["y"].sum()) == sum(range(n)) - sum(range(0, n, 7))
