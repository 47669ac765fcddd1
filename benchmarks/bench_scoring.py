"""Benchmark: a 10,000-deal session validated, scored and settled; and the CLI end to end.

    python benchmarks/bench_scoring.py [--deals 10000] [--repeat 7]

Targets on the project's 2-core machines: scoring + settling 10,000 deals ≤ 100 ms in-process;
validating them ≤ 200 ms.  Prints the median and the best of the repeats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from scorepad.generate import RandomChooser, random_session
from scorepad.report import settlement_of
from scorepad.scoring.score import validate, write
from scorepad.scoring.session import parse_session


def measure(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, min(times) * 1000


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--convention", default="sochi")
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args()

    data = random_session(
        RandomChooser(2026), convention=args.convention, players=args.players, deals=args.deals
    )
    text = json.dumps(data).encode()
    checked = validate(parse_session(text))

    def validation() -> None:
        validate(parse_session(text))

    def score_and_settle() -> None:
        settlement_of(write(checked, explain=False))

    def score_explain_and_settle() -> None:
        settlement_of(write(checked))

    rows = [
        ("validate (parse + rules)", *measure(validation, args.repeat), 200.0),
        ("score + settle", *measure(score_and_settle, args.repeat), 100.0),
        ("score with sentences + settle", *measure(score_explain_and_settle, args.repeat), None),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.json"
        path.write_bytes(text)

        def cli() -> None:
            subprocess.run(
                [sys.executable, "-m", "scorepad.cli", "settle", str(path), "--json"],
                check=True,
                stdout=subprocess.DEVNULL,
            )

        rows.append(
            ("CLI settle --json, end to end", *measure(cli, max(3, args.repeat // 2)), None)
        )
    print(f"{args.deals} deals, {args.convention}, {args.players} players")
    for name, median, best, target in rows:
        goal = f"target ≤ {target:.0f} ms" if target else ""
        print(f"{name:32} median {median:8.1f} ms   best {best:8.1f} ms   {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
