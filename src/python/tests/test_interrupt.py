"""Ctrl-C (SIGINT) cancels a running query with KeyboardInterrupt."""
import os
import signal
import threading
import time

import pytest

import shears


def test_sigint_cancels_a_running_query():
    con = shears.connect()
    timer = threading.Timer(0.3, os.kill, args=(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            con.sql("SELECT count(*) FROM range(1000000000000) a WHERE a.id % 7 = 3")
    finally:
        timer.cancel()
    assert time.monotonic() - start < 30
    # Python's handler is back, and the connection runs the next query normally.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert con.sql("SELECT 1").fetchall() == [(1,)]


def test_sigint_between_queries_is_python_s():
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
    assert shears.connect().sql("SELECT 2").fetchall() == [(2,)]
