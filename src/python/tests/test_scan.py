"""pandas DataFrames, dicts of numpy arrays and numpy arrays queried by their variable name."""
import datetime

import numpy as np
import pandas as pd
import pytest

import shears

frame_at_module_level = pd.DataFrame({"k": [1, 2, 3]})


def test_query_a_local_data_frame():
    con = shears.connect()
    sales = pd.DataFrame({"item": [1, 2, 1, 3], "amount": [10.0, 20.0, 30.5, np.nan]})
    rows = con.sql("SELECT item, sum(amount) AS total, count(amount) AS n FROM sales "
                   "GROUP BY item ORDER BY item").fetchall()
    # NaN in a pandas float column is missing, as pandas means it.
    assert rows == [(1, 40.5, 2), (2, 20.0, 1), (3, None, 0)]


def test_module_level_and_case_insensitive_names():
    con = shears.connect()
    assert con.sql("SELECT sum(k) FROM frame_at_module_level").fetchall() == [(6,)]
    MixedCase = pd.DataFrame({"v": [5]})  # noqa: N806
    assert con.sql("SELECT v FROM MixedCase").fetchall() == [(5,)]
    assert shears.sql("SELECT v FROM mixedcase").fetchall() == [(5,)]


def test_column_types_of_a_data_frame():
    con = shears.connect()
    df = pd.DataFrame({
        "i8": np.array([1, -2], dtype=np.int8),
        "i16": np.array([300, -300], dtype=np.int16),
        "i32": np.array([1, 2], dtype=np.int32),
        "i64": np.array([1, 2 ** 40], dtype=np.int64),
        "u8": np.array([255, 0], dtype=np.uint8),
        "u32": np.array([4_000_000_000, 1], dtype=np.uint32),
        "f32": np.array([0.5, 1.5], dtype=np.float32),
        "f64": [0.25, 1e300],
        "b": [True, False],
        "ts": pd.to_datetime(["2020-01-01 00:00:01.000001", "1960-06-01"]),
        "s": ["x", None],
        "nullable": pd.array([7, None], dtype="Int64"),
        "nb": pd.array([None, True], dtype="boolean"),
        "cat": pd.Categorical(["a", "b"]),
    })
    rel = con.sql("SELECT * FROM df")
    assert rel.types == ["INTEGER", "INTEGER", "INTEGER", "BIGINT", "INTEGER", "BIGINT", "REAL",
                         "DOUBLE", "BOOLEAN", "TIMESTAMP", "VARCHAR", "BIGINT", "BOOLEAN",
                         "VARCHAR"]
    assert rel.fetchall() == [
        (1, 300, 1, 1, 255, 4_000_000_000, 0.5, 0.25, True,
         datetime.datetime(2020, 1, 1, 0, 0, 1, 1), "x", 7, None, "a"),
        (-2, -300, 2, 2 ** 40, 0, 1, 1.5, 1e300, False, datetime.datetime(1960, 6, 1), None,
         None, True, "b"),
    ]


def test_round_trip_of_a_result_frame():
    con = shears.connect()
    df = con.sql("SELECT id AS a, CASE WHEN id % 2 = 0 THEN id END AS b, "
                 "DATE '2021-03-04' + CAST(id AS INTEGER) AS d FROM range(1000)").df()
    back = con.sql("SELECT count(*), sum(a), count(b), sum(b), min(d), max(d) FROM df").fetchone()
    assert back == (1000, 499500, 500, 249500, datetime.datetime(2021, 3, 4),
                    datetime.datetime(2021, 3, 4) + datetime.timedelta(days=999))


def test_filters_joins_and_many_batches():
    con = shears.connect()
    n = 50_000
    facts = pd.DataFrame({"k": np.arange(n) % 100, "v": np.arange(n, dtype=np.float64)})
    dims = pd.DataFrame({"k": np.arange(100), "name": [f"n{i}" for i in range(100)]})
    rows = con.sql("SELECT d.name, count(*), sum(f.v) FROM facts f JOIN dims d ON f.k = d.k "
                   "WHERE d.k IN (3, 97) AND f.v >= 1000 GROUP BY d.name ORDER BY 1").fetchall()
    expected = []
    for k in (3, 97):
        vs = [v for v in range(1000, n) if v % 100 == k]
        expected.append((f"n{k}", len(vs), float(sum(vs))))
    assert rows == expected


def test_dict_of_arrays_and_plain_arrays():
    con = shears.connect()
    columns = {"a": np.array([1, 2, 3]), "b": np.array(["x", "y", "z"])}
    assert con.sql("SELECT b FROM columns WHERE a = 2").fetchall() == [("y",)]
    vector = np.array([1.5, 2.5])
    assert con.sql("SELECT sum(column0) FROM vector").fetchall() == [(4.0,)]
    matrix = np.arange(6, dtype=np.int32).reshape(3, 2)
    assert con.sql("SELECT sum(column0), sum(column1) FROM matrix").fetchall() == [(6, 9)]
    # In a numpy array NaN stays a number.
    nans = np.array([np.nan, 1.0])
    assert con.sql("SELECT count(column0) FROM nans").fetchall() == [(2,)]


def test_days_and_non_contiguous_arrays():
    con = shears.connect()
    days = {"d": np.array(["2020-01-01", "NaT"], dtype="datetime64[D]")}
    assert con.sql("SELECT d FROM days").fetchall() == [(datetime.date(2020, 1, 1),), (None,)]
    strided = {"x": np.arange(10)[::3]}
    assert con.sql("SELECT list FROM (SELECT sum(x) AS list FROM strided)").fetchall() == [(18,)]


def test_unreadable_objects_are_clear_errors():
    con = shears.connect()
    mixed = pd.DataFrame({"m": ["a", 1]})
    with pytest.raises(shears.InvalidInputError, match="column 'm' holds a int"):
        con.sql("SELECT * FROM mixed")
    complex_values = np.array([1j])
    with pytest.raises(shears.NotSupportedError, match="dtype complex128"):
        con.sql("SELECT * FROM complex_values")
    not_a_table = 42
    with pytest.raises(shears.BinderError, match="does not exist"):
        con.sql("SELECT * FROM not_a_table")
    uneven = {"a": np.arange(2), "b": np.arange(3)}
    with pytest.raises(shears.InvalidInputError, match="has 3 rows"):
        con.sql("SELECT * FROM uneven")


def test_tables_and_views_come_before_variables():
    con = shears.connect()
    con.sql("CREATE VIEW shadow AS SELECT 'view' AS source")
    shadow = pd.DataFrame({"source": ["frame"]})
    assert len(shadow) == 1
    assert con.sql("SELECT source FROM shadow").fetchall() == [("view",)]


def test_the_frame_outlives_nothing():
    # The result owns its rows: the frame may go away after the query.
    con = shears.connect()
    temp = pd.DataFrame({"s": ["abc", "de"]})
    rel = con.sql("SELECT s, length(s) AS n FROM temp ORDER BY n")
    del temp
    import gc
    gc.collect()
    assert rel.fetchall() == [("de", 2), ("abc", 3)]


def test_threads_read_their_own_variables():
    import threading
    shared = shears.connect()
    results = {}

    def work(k):
        own = shears.connect()
        local_frame = pd.DataFrame({"v": np.arange(20_000) * k})
        results[("own", k)] = own.sql("SELECT sum(v) FROM local_frame").fetchone()[0]
        # One connection used by several threads runs their statements one at a time.
        results[("shared", k)] = shared.sql("SELECT sum(v) FROM local_frame").fetchone()[0]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = sum(range(20_000))
    assert results == {(kind, k): k * expected for kind in ("own", "shared") for k in range(1, 5)}


def test_a_result_queried_by_its_name():
    con = shears.connect()
    first = con.sql("SELECT id AS k, CASE WHEN id % 2 = 0 THEN 'even' END AS parity, "
                    "CAST(id AS DECIMAL(30,2)) / 4 AS q FROM range(5000)")
    second = con.sql("SELECT parity, count(*), sum(k), max(q) FROM first GROUP BY parity "
                     "ORDER BY parity NULLS LAST")
    import decimal
    assert second.fetchall() == [
        ("even", 2500, sum(range(0, 5000, 2)), decimal.Decimal("1249.500000")),
        (None, 2500, sum(range(1, 5000, 2)), decimal.Decimal("1249.750000")),
    ]
