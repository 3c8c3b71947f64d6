#!/usr/bin/env python3
"""The SQL logic tests (tests/sql, the sqllogictest format) under mpirun give what shears alone
gives (ctest: distributed_sqllogic).

    tests/distributed/sqllogic.py SHEARS [--np N] [FILE_OR_DIR...]

A file of queries only runs with all the others like it (every one under tests/sql) in one
script, both modes in turn; a file with statements (CREATE, INSERT, SET...) runs as one script
per mode, each with a fresh in-memory catalog and ${TEMP}: those under the FILE_OR_DIRs given
(relative to tests/sql), all without any. Each script runs alone and under `mpirun -np N`
(default 2), in two modes, dynamic filtering on and off; the rows of every
query and statement must be the same (sorted unless the query orders them; doubles within a
relative 1e-9, since sums of doubles depend on the order rows arrive in). The expected rows in
the files are checked against shears alone by the unit tests (sql_logic_test.cpp); here the
distributed answers are checked against those of shears alone. Not run under mpirun:
`statement error` records (a failure at run time ends an MPI job: docs/distributed.md), the
EXPLAIN checks (a distributed plan differs) and unseeded USING SAMPLE (refused under mpirun);
a `let` record runs as a query.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
MPI_ENV["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
MARKER = "query_marker"


def parse(path):
    """(line, kind, sql) of each record that runs under mpirun: ok, query, let."""
    records = []
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line or line.startswith("#"):
            continue
        words = line.split()
        kind = words[0] if words[0] != "statement" else "statement " + words[1]
        start = i
        sql = []
        while i < len(lines) and lines[i] and lines[i] != "----":
            sql.append(lines[i])
            i += 1
        if i < len(lines) and lines[i] == "----":  # expected rows, until a blank line
            while i < len(lines) and lines[i]:
                i += 1
        text = "\n".join(sql)
        # An unseeded USING SAMPLE draws its seed per process, so the ranks plan it
        # differently and refuse it (a known limit, docs/distributed.md).
        samples = len(re.findall(r"using\s+sample", text, re.I))
        seeds = len(re.findall(r"repeatable\s*\(|\(\s*(?:bernoulli|system|reservoir)\s*,\s*\d+\s*\)",
                               text, re.I))
        unseeded = seeds < samples
        if kind in ("statement ok", "query", "let") and not unseeded:
            records.append((start, kind, text))
    return records


def script(segments, variables):
    """The SQL of `segments` ((filtering, file, records) each) with a marker before each record,
    and (where, line, sql) of each record by its number."""
    out, described = [], []
    for filtering, name, records in segments:
        out.append(f"SET dynamic_filtering = {filtering};\n")
        for line, _, sql in records:
            for key, value in variables.items():
                sql = sql.replace("${" + key + "}", value)
            out.append(f"SELECT 'record {len(described)}' AS {MARKER};\n"
                       f"{sql.rstrip().rstrip(';')};\n")
            described.append((f"{name} (dynamic_filtering {filtering})", line, sql))
    return "".join(out), described


def split(output):
    """The output after each marker, by record number."""
    parts, current = {}, None
    lines = output.split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == MARKER and i + 1 < len(lines) and lines[i + 1].startswith("record "):
            current = int(lines[i + 1].split()[1])
            parts[current] = []
            i += 2
            continue
        if current is not None:
            parts[current].append(lines[i])
        i += 1
    return parts


def number(text):
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", text) is not None


def normalized(rows):
    """Rows without what differs between any two runs: the names of written files (a process
    id and a clock in them), how many a write wrote, an in-memory catalog's directory."""
    rows = [re.sub(r"data_\d+-\d+_", "data_*_", row) for row in rows]
    rows = [re.sub(r"shears-\w{6}", "shears-*", row) for row in rows]
    if rows[:1] == ["rows,files,partitions"]:  # a write's files: as many as threads wrote
        rows = rows[:1] + [re.sub(r",\d+,", ",*,", row) for row in rows[1:]]
    return rows


def same_rows(expected, got, ordered):
    expected, got = normalized(expected), normalized(got)
    if not ordered:
        expected, got = sorted(expected), sorted(got)
    if len(expected) != len(got):
        return False
    for a, b in zip(expected, got):
        if a == b:
            continue
        fa, fb = a.split(","), b.split(",")
        if len(fa) != len(fb):
            return False
        for x, y in zip(fa, fb):
            if x == y:
                continue
            if not (number(x) and number(y) and re.search("[.eE]", x)):
                return False
            if abs(float(x) - float(y)) > 1e-9 * max(1.0, abs(float(x))):
                return False
    return True


def run(command, sql_path, env=None):
    done = subprocess.run(command + ["-f", sql_path, "--format", "csv"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                          timeout=600, text=True, errors="replace")
    return done.returncode, done.stdout


def main():
    args = sys.argv[1:]
    shears = os.path.abspath(args.pop(0))
    np = "2"
    if args[:1] == ["--np"]:
        np = args[1]
        args = args[2:]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "sql"))
    def test_files(target):
        target = target if os.path.isabs(target) else os.path.join(root, target)
        if not os.path.isdir(target):
            return [target]
        return [os.path.join(base, n) for base, _, names in os.walk(target) for n in names
                if n.endswith(".test")]

    chosen = set(f for target in args or [root] for f in test_files(target))
    files = sorted(set(test_files(root)) | chosen)
    work = tempfile.mkdtemp()
    failures = compared = not_compared = 0
    read_only, runs = [], []
    try:
        star = os.path.join(work, "star")
        variables = {"DATA": os.path.normpath(os.path.join(here, "..", "data")), "STAR": star,
                     "TEMP": os.path.join(work, "temp")}
        # A file of queries only changes nothing: all of them run in one script, both modes in
        # turn (mpirun starts in a second or so). A file with statements runs in a script of
        # its own per mode, each with a fresh catalog.
        for path in files:
            records = parse(path)
            name = os.path.relpath(path, root)
            text = "\n".join(sql for _, _, sql in records)
            unknown = set(re.findall(r"\$\{(\w+)\}", text)) - set(variables)
            if unknown:  # a let's value in SQL: not substituted here
                print(f"skipped {name}: its SQL uses {', '.join(sorted(unknown))}")
                continue
            if "${STAR}" in text and not os.path.isdir(star):
                subprocess.run([shears, "generate", "star", "--scale", "0.002", "--out", star],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if any(kind == "statement ok" for _, kind, _ in records):
                if path in chosen:
                    runs += [[(filtering, name, records)] for filtering in ("true", "false")]
            elif records:
                read_only += [(filtering, name, records) for filtering in ("true", "false")]
        if read_only:
            runs.append(sorted(read_only, key=lambda segment: segment[0], reverse=True))
        sql_path = os.path.join(work, "run.sql")
        for segments in runs:
            sql, described = script(segments, variables)
            with open(sql_path, "w") as f:
                f.write(sql)
            outputs = []
            for command, env in (([shears], None),
                                 (["mpirun", "--oversubscribe", "-np", np, shears,
                                   "--distributed"], MPI_ENV)):
                shutil.rmtree(variables["TEMP"], ignore_errors=True)
                os.makedirs(variables["TEMP"])
                outputs.append(run(command, sql_path, env))
            (code_alone, alone), (code_ranks, ranks) = outputs
            what = segments[0][1] if len(segments) == 1 else f"{len(segments) // 2} query files"
            if code_alone != 0:
                # Without its `statement error` records a file may fail alone (a name
                # counted across statements): nothing to compare.
                print(f"not compared: {what}: alone, without the records skipped here, it "
                      f"fails: {alone.strip().splitlines()[-1][:200]}")
                not_compared += 1
                continue
            if code_ranks != 0:
                # The rank's error; what rank 0 printed may be lost when mpirun ends the job.
                errors = [line for line in ranks.splitlines() if "Error" in line]
                print(f"FAIL: {what}: mpirun -np {np} exits with {code_ranks}: "
                      + " | ".join(errors[:3] or [ranks[-300:]]))
                failures += 1
            expected, got = split(alone), split(ranks)
            for n, (where, line, sql) in enumerate(described):
                ordered = re.search(r"order\s+by", sql, re.I) and not re.search(
                    r"over\s*\(", sql, re.I)
                compared += 1
                if not same_rows(expected.get(n, []), got.get(n, ["(no output)"]), ordered):
                    failures += 1
                    print(f"FAIL: {where}, -np {np}: line {line}: {sql[:200]}")
                    print("  alone: " + " | ".join(expected.get(n, [])[:6]))
                    print("  ranks: " + " | ".join(got.get(n, ["(no output)"])[:6]))
                    if code_ranks != 0:
                        break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{compared} records compared under mpirun -np {np} in {len(runs)} scripts, "
          f"{not_compared} scripts not compared")
    if failures:
        print(f"{failures} failures")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
