"""Every benchmark still runs: each one end to end in its smoke mode (`--smoke`), as CI runs it.

A benchmark is a script a person runs for figures (`benchmarks/`, see docs); one that is never
run rots (bench_table.py once stopped at its first all-pass when Write began to want the counts).
Here each runs in its own process, as a person runs it, on a few items: it must finish, say on
what machine, and print every goal beside a figure.  The figures themselves are not judged here
(speed is the benchmarks' to measure, not a timed test's).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"

# (script and its arguments, lines that must each appear with a figure beside a goal)
RUNS: dict[str, tuple[list[str], list[str]]] = {
    "scoring": (
        ["bench_scoring.py"],
        ["score + settle 200 deals", "validate 200 deals", "scorepad settle --json, 200 deals"],
    ),
    "store": (
        ["bench_store.py"],
        ["add a deal to a 50-deal session", "open a database of 20 sessions"],
    ),
    "limits": (["bench_limits.py"], ["import 300 played", "import 300 corrections"]),
    "players": (
        ["bench_players.py"],
        ["statistics and ratings over 12 sessions", "rating replay after an edit"],
    ),
    "rules": (
        ["bench_rules.py"],
        ["records a second", "median / worst", "trump: mean", "misère: mean", "mean"],
    ),
    "club": (["bench_club.py"], ["draw 40 players, 5 tours", "standings after a director's edit"]),
    "club-wire": (
        ["bench_club.py", "--wire"],
        ["a write on that table's other phones", "the director's view after a write"],
    ),
    "table": (["bench_table.py"], ["median_ms", "p95_ms"]),
    "table-wire": (
        ["bench_table.py", "--wire"],
        ["write_median_ms", "write_p95_ms", "write_cpu_ms"],
    ),
    "online": (
        ["bench_online.py"],
        ["median_ms", "p95_ms", "most_tables_within_300ms"],
    ),
    "phone-app": (
        ["bench_phone_app.py"],
        ["first start, cold", "start from the cache", "Write → shown written"],
    ),
    "app": (
        ["bench_app.py"],
        ["confirm a deal → updated sheet", "cold ", "second visit"],
    ),
}

# A figure and its goal on one line: "goal ≤ 300", "goal <= 300", "target ≤ 20 ms", "goal ≥ 3,000".
GOAL = re.compile(r"(goal|target)\b[^\n]*?(≤|<=|≥|>=)\s*[\d,.]+")


@pytest.mark.parametrize("name", list(RUNS))
def test_every_benchmark_runs_in_its_smoke_mode(name: str) -> None:
    script, wanted = RUNS[name]
    done = subprocess.run(
        [sys.executable, str(BENCH / script[0]), *script[1:], "--smoke"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "smoke mode" in out  # its figures are never mistaken for the goals' figures
    machine = re.search(r"machine: .*\d+ cores, load [\d.]+, Python 3\.\d+", out)
    assert machine, out
    for line in wanted:
        found = [row for row in out.splitlines() if line in row]
        assert found, f"{line!r} missing from:\n{out}"
        if name == "scoring":  # a table: the goal is a column ("goal ms") beside wall and CPU
            assert re.search(r"wall ms\s+CPU ms\s+goal ms", out)
            assert any(len(re.findall(r"\d+\.\d+|\d+", row.split(line)[1])) >= 4 for row in found)
        else:
            assert any(GOAL.search(row) for row in found), found
