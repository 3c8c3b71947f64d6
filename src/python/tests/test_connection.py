"""connect, sql, fetchone/fetchall, show, explain, errors as classes, the default connection."""
import datetime
import decimal

import pytest

import shears


def test_sql_fetchall_and_fetchone():
    con = shears.connect()
    rel = con.sql("SELECT id AS x, id * 2 AS y FROM range(3) ORDER BY x")
    assert rel.columns == ["x", "y"]
    assert rel.types == ["BIGINT", "BIGINT"]
    assert len(rel) == 3
    assert rel.fetchone() == (0, 0)
    # fetchall returns what fetchone has not.
    assert rel.fetchall() == [(1, 2), (2, 4)]
    assert rel.fetchone() is None
    assert rel.fetchall() == []


def test_python_values_of_every_type():
    con = shears.connect()
    row = con.sql(
        "SELECT true, 7, 10000000000, 1.5::DOUBLE, 2.5::REAL, 12.34::DECIMAL(10,2), "
        "DATE '2024-02-29', TIMESTAMP '2024-02-29 13:14:15.000016', 'héllo', "
        "'\\x41'::BLOB, NULL::INTEGER").fetchone()
    assert row == (True, 7, 10000000000, 1.5, 2.5, decimal.Decimal("12.34"),
                   datetime.date(2024, 2, 29),
                   datetime.datetime(2024, 2, 29, 13, 14, 15, 16), "héllo", row[9], None)
    assert isinstance(row[9], bytes)
    assert isinstance(row[5], decimal.Decimal)


def test_lists_are_python_lists():
    con = shears.connect()
    row = con.sql("SELECT [1, NULL, 3], ['a', ''], [1.5::DOUBLE], NULL::INTEGER[], "
                  "[DATE '2024-02-29'], []").fetchone()
    assert row == ([1, None, 3], ["a", ""], [1.5], None, [datetime.date(2024, 2, 29)], [])
    assert con.sql("SELECT [1, 2] AS l").types == ["INTEGER[]"]


def test_timestamps_before_1970():
    con = shears.connect()
    ts = con.sql("SELECT TIMESTAMP '1969-12-31 23:59:59.5'").fetchone()[0]
    assert ts == datetime.datetime(1969, 12, 31, 23, 59, 59, 500000)


def test_dates_outside_python_range_are_a_clear_error():
    con = shears.connect()
    with pytest.raises(shears.OutOfRangeError, match="datetime.datetime range"):
        con.sql("SELECT DATE '1970-01-01' + INTERVAL 4000000 DAY").fetchall()


def test_show_and_repr_draw_a_box(capsys):
    con = shears.connect()
    rel = con.sql("SELECT 42 AS answer, 'x' AS s")
    rel.show()
    out = capsys.readouterr().out
    assert "answer" in out and "42" in out and "─" in out
    assert "answer" in repr(rel)


def test_explain_gives_the_plan_without_running_it_again():
    con = shears.connect()
    plan = con.sql("SELECT count(*) FROM range(10) WHERE id > 3").explain()
    assert "Physical plan" in plan
    assert "RANGE" in plan


@pytest.mark.parametrize("sql, cls", [
    ("SELEC 1", shears.ParseError),
    ("SELECT * FROM no_such_table", shears.BinderError),
    ("SELECT nope FROM range(1)", shears.BinderError),
    ("SELECT 2147483647::INTEGER + 1", shears.OutOfRangeError),
    ("SELECT * FROM '/no/such/dir'", shears.IOError),
    ("SET threads = 'many'", shears.InvalidInputError),
    ("PREPARE p (INTEGER) AS SELECT 1", shears.NotSupportedError),
])
def test_errors_are_classes_per_kind(sql, cls):
    con = shears.connect()
    with pytest.raises(cls) as info:
        con.sql(sql)
    assert isinstance(info.value, shears.Error)
    assert str(info.value)


def test_error_classes():
    for name in ["InvalidInputError", "IOError", "CorruptFileError", "NotSupportedError",
                 "ParseError", "BinderError", "OutOfRangeError", "OutOfMemoryError",
                 "CancelledError", "ConstraintError", "TransactionError", "InternalError"]:
        cls = getattr(shears, name)
        assert issubclass(cls, shears.Error) and issubclass(cls, Exception)


def test_statement_timeout_is_a_cancelled_error():
    con = shears.connect(config={"statement_timeout": "50ms"})
    with pytest.raises(shears.CancelledError):
        con.sql("SELECT count(*) FROM range(100000000000) a")
    # The connection stays usable.
    assert con.sql("SELECT 1").fetchall() == [(1,)]


def test_connection_stays_usable_after_an_error():
    con = shears.connect()
    with pytest.raises(shears.BinderError):
        con.sql("SELECT x FROM range(1)")
    assert con.sql("SELECT 1").fetchall() == [(1,)]


def test_config_and_settings():
    con = shears.connect(config={"threads": 1})
    assert con.sql("SHOW threads").fetchall() == [("1",)]
    with pytest.raises(shears.InvalidInputError, match="unknown setting"):
        shears.connect(config={"no_such_setting": 1})


def test_execute_returns_the_connection():
    con = shears.connect()
    assert con.execute("SELECT 1 AS a").fetchall() == [(1,)]
    con.execute("SELECT 2")
    assert con.fetchone() == (2,)


def test_default_connection():
    assert shears.sql("SELECT 41 + 1").fetchall() == [(42,)]
    shears.sql("SET threads = 1")
    # The same connection each time: the setting stays.
    assert shears.sql("SHOW threads").fetchall() == [("1",)]
    shears.sql("RESET threads")
    assert shears.execute("SELECT ?", [5]).fetchall() == [(5,)]


def test_persistent_database(tmp_path):
    con = shears.connect(str(tmp_path / "db"))
    con.sql("CREATE TABLE t AS SELECT id AS id FROM range(5)")
    con.close()
    with shears.connect(str(tmp_path / "db")) as con2:
        assert con2.sql("SELECT sum(id) FROM t").fetchall() == [(10,)]
    with pytest.raises(shears.InvalidInputError, match="closed"):
        con2.sql("SELECT 1")


def test_several_statements_give_the_last_result():
    con = shears.connect()
    assert con.sql("SET threads = 1; SELECT 3").fetchall() == [(3,)]
