"""con.execute(query, params): ? and $n parameters bound by the engine as typed constants."""
import datetime
import decimal

import pytest

import shears


def test_question_marks_and_numbered_parameters():
    con = shears.connect()
    assert con.execute("SELECT ? + ?, ?", [1, 2, "x"]).fetchall() == [(3, "x")]
    assert con.execute("SELECT $2 - $1, $1", [10, 15]).fetchall() == [(5, 10)]
    assert con.sql("SELECT count(*) FROM range(100) WHERE id < $1", [7]).fetchall() == [(7,)]


def test_parameter_types():
    con = shears.connect()
    params = [None, True, 3, 2**40, 1.25, "s", b"\x00\x01", datetime.date(2020, 5, 17),
              datetime.datetime(2020, 5, 17, 1, 2, 3, 4), decimal.Decimal("-12.345")]
    marks = ", ".join("?" for _ in params)
    row = con.execute(f"SELECT {marks}", params).fetchone()
    assert row == tuple(params)
    types = con.sql(f"SELECT {marks}", params).types
    assert types[1:] == ["BOOLEAN", "INTEGER", "BIGINT", "DOUBLE", "VARCHAR", "BLOB", "DATE",
                         "TIMESTAMP", "DECIMAL(5,3)"]


def test_aware_datetimes_are_converted_to_utc():
    con = shears.connect()
    tz = datetime.timezone(datetime.timedelta(hours=2))
    value = datetime.datetime(2020, 1, 1, 12, 0, tzinfo=tz)
    assert con.execute("SELECT ?", [value]).fetchone()[0] == datetime.datetime(2020, 1, 1, 10, 0)


def test_numpy_scalars_are_parameters():
    np = pytest.importorskip("numpy")
    con = shears.connect()
    assert con.execute("SELECT ? + 1, ?", [np.int64(41), np.float32(0.5)]).fetchone() == (42, 0.5)


def test_a_string_parameter_is_a_value_never_sql():
    con = shears.connect()
    evil = "x'; SELECT 1; --"
    assert con.execute("SELECT ?", [evil]).fetchall() == [(evil,)]
    assert con.execute("SELECT length(?)", ["'"]).fetchall() == [(1,)]


def test_parameters_compare_like_literals():
    con = shears.connect()
    rows = con.execute(
        "SELECT count(*) FROM range(10) WHERE CAST(id AS INTEGER) BETWEEN ? AND ?",
        [2, 4]).fetchall()
    assert rows == [(3,)]
    assert con.execute("SELECT DATE '2020-01-02' > ?", [datetime.date(2020, 1, 1)]).fetchall() \
        == [(True,)]
    # A string compares with a DATE as a literal would.
    assert con.execute("SELECT count(*) FROM range(3) "
                       "WHERE DATE '2020-01-01' + CAST(id AS INTEGER) > ?",
                       ["2020-01-01"]).fetchall() == [(2,)]


def test_wrong_numbers_of_values():
    con = shears.connect()
    with pytest.raises(shears.InvalidInputError, match="takes 2 parameter values, 1 given"):
        con.execute("SELECT ?, ?", [1])
    with pytest.raises(shears.InvalidInputError, match="takes 0 parameter values, 1 given"):
        con.execute("SELECT 1", [1])
    with pytest.raises(shears.BinderError, match="parameter \\$1 has no value"):
        con.sql("SELECT $1")
    with pytest.raises(shears.InvalidInputError, match="list or tuple"):
        con.execute("SELECT ?", "x")


def test_bad_parameter_styles_and_statements():
    con = shears.connect()
    with pytest.raises(shears.ParseError, match="both"):
        con.execute("SELECT ?, $1", [1])
    with pytest.raises(shears.ParseError, match="one statement"):
        con.execute("SELECT ?; SELECT ?", [1, 2])
    with pytest.raises(shears.InvalidInputError, match="cannot be a query parameter"):
        con.execute("SELECT ?", [object()])
    with pytest.raises(shears.OutOfRangeError):
        con.execute("SELECT ?", [2**70])


def test_question_marks_inside_strings_are_text():
    con = shears.connect()
    assert con.execute("SELECT '?', ?", [1]).fetchall() == [("?", 1)]


def test_explain_of_a_prepared_statement():
    con = shears.connect()
    rel = con.sql("SELECT count(*) FROM range(10) WHERE id > ?", [3])
    assert rel.fetchall() == [(6,)]
    assert "id > 3" in rel.explain()
