"""Benchmark the rules engine.

    python benchmarks/bench_rules.py [--records 5000]

Targets on the project's 2-core machines: validate ≥ 5,000 random full deal records per second
in-process (parse + audit, every card checked); verify a claim with 5 cards left in each hand in
≤ 50 ms (median over many positions; the worst is printed too).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from scorepad.generate import RandomChooser, random_record
from scorepad.play.play import Play
from scorepad.play.record import audit, parse_record
from scorepad.play.solver import best_tricks
from scorepad.scoring.score import batch


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--claims", type=int, default=60)
    args = ap.parse_args()

    rng = RandomChooser(2026)
    texts = []
    while len(texts) < args.records:
        r = random_record(rng, players=rng.choice([3, 4]))
        if r.get("play"):
            texts.append(json.dumps(r, ensure_ascii=False))
    rounds = []
    for _ in range(7):
        start = time.perf_counter()
        with batch():
            for text in texts:
                audit(parse_record(text))
        rounds.append(time.perf_counter() - start)
    per_second = len(texts) / statistics.median(rounds)

    times = []
    for seed in range(args.claims):
        rc = RandomChooser(seed)
        deck = list(range(32))
        for i in range(31, 0, -1):
            j = rc.integer(0, i)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [sum(1 << c for c in deck[k * 5 : (k + 1) * 5]) for k in range(3)]
        trump = rc.choice([None, 0, 1, 2, 3])
        p = Play(hands, (0, 1, 2), trump=trump, first_hand=rc.integer(0, 2))
        start = time.perf_counter()
        best_tricks(p, 0, more=rc.choice([True, False]))
        times.append(time.perf_counter() - start)
    print(f"audit full deal records: {per_second:8.0f} per second   target ≥ 5,000")
    print(
        f"claim, 5 cards each:    median {statistics.median(times) * 1000:6.1f} ms, worst {max(times) * 1000:6.1f} ms"
        "   target ≤ 50 ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
