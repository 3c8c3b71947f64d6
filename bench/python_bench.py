#!/usr/bin/env python3
"""Times .fetchnumpy() and .df() of a 10M-row x 4-column result against the physical limit:
copying the same bytes into numpy arrays (np.copy of arrays already in memory). Run with
PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py [rows]."""
import sys
import time

import numpy as np

import shears

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
QUERY = (f"SELECT id AS a, id * 2 AS b, CAST(id AS DOUBLE) AS c, id % 7 AS d "
         f"FROM range({ROWS})")


def best(fn, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


con = shears.connect()
rel = con.sql(QUERY)  # runs the query once; the fetches below only convert
arrays = rel.fetchnumpy()
sources = list(arrays.values())
mb = sum(a.nbytes for a in sources) / 1e6
copy = best(lambda: [np.copy(a) for a in sources])
numpy_time = best(rel.fetchnumpy)
df_time = best(rel.df)
query_time = best(lambda: con.sql(QUERY))
print(f"{ROWS} rows x 4 columns ({mb:.0f} MB)")
print(f"  numpy copy of the same bytes: {copy * 1000:7.1f} ms ({mb / 1000 / copy:.1f} GB/s)")
print(f"  .fetchnumpy():                {numpy_time * 1000:7.1f} ms ({numpy_time / copy:.2f}x)")
print(f"  .df():                        {df_time * 1000:7.1f} ms ({df_time / copy:.2f}x)")
print(f"  the query itself (con.sql):   {query_time * 1000:7.1f} ms")
