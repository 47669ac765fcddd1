"""Benchmark: the scoring core in-process, and the ``scorepad`` command end to end.

    python benchmarks/bench_scoring.py [--deals 10000] [--repeat 7] [--only NAME ...]

One line per goal of the README (goals on the project's 2-core machines):

- score + settle 10,000 deals in-process                     ≤ 100 ms
- validate 10,000 deals (parse + rules)                      ≤ 200 ms
- ``scorepad settle --json`` of a 10,000-deal file, end to end ≤ 0.8 s
- ``scorepad --version``, ``scorepad --help``                ≤ 0.25 s
- ``scorepad settle`` of a 10-deal file                      ≤ 0.3 s

Each line shows the median wall time and the median CPU time of the repeats, and the CPU
median divided by the goal (≤ 1.00 meets it).  The goal is judged on CPU time because the
machine is shared: wall time counts the time other processes held the cores, CPU time only
ours (``time.process_time`` in-process; the child's user + system time from ``getrusage``
for a command).  Without load the two agree.  The commands run this checkout's code, with its
byte code cached as an installed copy has it (one untimed run first).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import SMOKE_NOTE, add_smoke, machine  # noqa: E402  (benchmarks/machine.py)

from scorepad.report.pulya import settlement_of  # noqa: E402
from scorepad.scoring.pulya.score import Checked, validate, write  # noqa: E402
from scorepad.scoring.pulya.session import parse_session  # noqa: E402
from scorepad.testing.generate import RandomChooser, random_session  # noqa: E402

# What the installed ``scorepad`` script runs.
ENTRY = "import sys; from scorepad.cli import main; sys.exit(main())"


@dataclass(frozen=True)
class Row:
    name: str
    wall_ms: float  # median
    cpu_ms: float  # median
    goal_ms: float | None


def in_process(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn``."""
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - w0)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def command(args: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``scorepad ARGS`` in a fresh interpreter."""
    return child([sys.executable, "-c", ENTRY, *args], repeat)


def child(argv: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU (user + system) milliseconds of a child process."""
    # As an installed copy runs: byte code cached (a first, untimed run writes it).
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
        walls.append(time.perf_counter() - w0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--convention", default="sochi")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="run only the lines whose name contains a word")
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.deals, args.repeat = 200, 1

    data = random_session(
        RandomChooser(2026), convention=args.convention, players=args.players, deals=args.deals
    )
    text = json.dumps(data).encode()
    checked = validate(parse_session(text))
    small = json.dumps(
        random_session(
            RandomChooser(2026), convention=args.convention, players=args.players, deals=10
        )
    )
    rows: list[Row] = []

    def wanted(name: str) -> bool:
        return not args.only or any(word in name for word in args.only)

    def add(name: str, goal: float | None, run: Callable[[], tuple[float, float]]) -> None:
        if wanted(name):
            rows.append(Row(name, *run(), goal))

    k = f"{args.deals:,}"
    r = args.repeat
    add(f"score + settle {k} deals", 100, lambda: in_process(lambda: _settle(checked), r))
    add(
        f"score + settle {k} deals, with sentences",
        None,
        lambda: in_process(lambda: _settle(checked, explain=True), r),
    )
    add(
        f"validate {k} deals (parse + rules)",
        200,
        lambda: in_process(lambda: validate(parse_session(text)), r),
    )
    with tempfile.TemporaryDirectory() as tmp:
        big, little = Path(tmp) / "big.json", Path(tmp) / "small.json"
        big.write_bytes(text)
        little.write_text(small, encoding="utf-8")
        add(
            f"scorepad settle --json, {k} deals",
            800,
            lambda: command(["settle", str(big), "--json"], max(3, r // 2)),
        )
        add("scorepad --version", 250, lambda: command(["--version"], r))
        add("scorepad --help", 250, lambda: command(["--help"], r))
        add("scorepad settle, 10 deals", 300, lambda: command(["settle", str(little)], r))
        add(
            "python -c pass (for reference)", None, lambda: child([sys.executable, "-c", "pass"], r)
        )

    print(f"machine: {machine()}")
    if args.smoke:
        print(SMOKE_NOTE)
    print(f"{args.convention}, {args.players} players; medians of {r} runs (commands: ≥ 3)")
    print(f"{'':42} {'wall ms':>9} {'CPU ms':>9} {'goal ms':>9} {'CPU/goal':>9}")
    for row in rows:
        goal = f"{row.goal_ms:9.0f}" if row.goal_ms else " " * 9
        ratio = f"{row.cpu_ms / row.goal_ms:9.2f}" if row.goal_ms else ""
        print(f"{row.name:42} {row.wall_ms:9.1f} {row.cpu_ms:9.1f} {goal} {ratio}")
    return 0


def _settle(checked: Checked, *, explain: bool = False) -> None:
    settlement_of(write(checked, explain=explain))


if __name__ == "__main__":
    sys.exit(main())
