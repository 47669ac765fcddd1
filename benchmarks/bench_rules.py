"""Benchmark the rules engine, with the compiled and the pure-Python solver side by side.

    python benchmarks/bench_rules.py [--records 5000] [--deals 200] [--analyses 40]
                                     [--reference 20] [--cores compiled python]

Goals on the project's 2-core machines, judged on CPU time (the machines are shared: wall time
counts the time other processes held the cores; both are printed), in a warm process:

- audit ≥ 10,000 random full deal records a second in-process (parse + audit, every card
  checked), and parse hands grouped by suit (``♠AK ♥AKQ10``) as fast as card by card.
  The audit is timed with each core too (the compiled one reads the cards and the hands,
  plays the tricks and builds their accounts; see ``scorepad.play.play``), the rounds of the
  two interleaved.  Measured 2026-12-02 with the machine heavily loaded (load average 12-17
  on its 2 cores: the wall time is three to four times the CPU time), 5,000 records, nothing
  kept between rounds, two runs: compiled 11,000 and 10,100 a second CPU (3,400 and 2,800
  wall), Python 7,100 and 8,100: the goal is met, with little to spare under such a load.
  Before the C core (the trick play in Python): 6,700 CPU at a load of 3-7.  The code before
  and after, in separate processes one after the other (3,000 records, best of 5, load
  11-13): before 7,300-7,600, after 10,000-12,600 compiled and 7,500-8,600 in Python;
- verify a claim with 5 cards left in each hand in ≤ 50 ms (median; the worst is printed too);
- solve a full deal double dummy (10 cards each, the first hand leads, the declarer's tricks)
  on a fixed set of seeded deals: a mean of ≤ 5 ms for a trump game, ≤ 6 ms no trump, ≤ 12 ms
  a misère (within 2× of Slovesnov's C++ solver: 2.6 / 3.3 / 6.6 ms);
- the whole analysis of a deal (every contract's value, every card's before and after, as
  ``scorepad audit --analyse`` gives it) in a mean of ≤ 150 ms, on seeded random legal records
  (3 and 4 players; games, misères and all-passes);
- the pure-Python solver stays ≥ 10× faster than the previous one (kept as
  ``scorepad.play.solver``, the tests' reference), timed on the first ``--reference`` deals of
  each kind (it takes seconds a deal).

Every solver figure is measured with each core: ``compiled`` (``scorepad/play/_dds.c``, built by
``pip install -e .``) and ``python`` (``scorepad.play.dds.PythonSearch``, what runs without a C
compiler); the goals are for the compiled core, the one installed by default.  The audit's
records carry no claim, so the solver does not run there: its two columns are the C trick
play and the Python one.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import SMOKE_NOTE, add_smoke, machine  # noqa: E402  (benchmarks/machine.py)

from scorepad.play import dds  # noqa: E402
from scorepad.play.analysis import analyse  # noqa: E402
from scorepad.play.cards import ALL_CARDS, Hand  # noqa: E402
from scorepad.play.play import Play  # noqa: E402
from scorepad.play.record import Audit, audit, forget_kept, parse_record  # noqa: E402
from scorepad.play.solver import best_tricks  # noqa: E402
from scorepad.scoring.pulya.score import batch  # noqa: E402
from scorepad.testing.generate import RandomChooser, random_record  # noqa: E402

KINDS = (("trump", True, 5.0), ("no trump", True, 6.0), ("misère", False, 12.0))  # ms mean
ANALYSIS_GOAL = 150.0  # ms mean
RECORDS_GOAL = 10_000  # a second
CLAIM_GOAL = 50.0  # ms median


@dataclass(frozen=True, slots=True)
class Times:
    """CPU and wall milliseconds of each run."""

    cpu: list[float]
    wall: list[float]


def timed(runs: list[Callable[[], object]]) -> Times:
    cpu, wall = [], []
    for run in runs:
        w0, c0 = time.perf_counter(), time.process_time()
        run()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return Times(cpu, wall)


def full_deals(count: int, kind: str) -> list[Play]:
    """``count`` seeded full deals: 10 cards each, the talon aside, seat 0 declares."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[k * 10 : (k + 1) * 10]) for k in range(3)]
        trump = rng.choice([0, 1, 2, 3]) if kind == "trump" else None
        out.append(Play(hands, (0, 1, 2), trump=trump, first_hand=seed % 3))
    return out


def fresh(play: Play) -> Play:
    return Play(list(play.hands), play.order, trump=play.trump, first_hand=play.first_hand)


def claims(count: int) -> list[tuple[Play, bool]]:
    out = []
    for seed in range(count):
        rc = RandomChooser(seed)
        deck = list(range(32))
        for i in range(31, 0, -1):
            j = rc.integer(0, i)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [sum(1 << c for c in deck[k * 5 : (k + 1) * 5]) for k in range(3)]
        trump = rc.choice([None, 0, 1, 2, 3])
        p = Play(hands, (0, 1, 2), trump=trump, first_hand=rc.integer(0, 2))
        out.append((p, rc.choice([True, False])))
    return out


def misere_record(seed: int) -> dict[str, object]:
    """A misère played out by random legal cards: the first hand bids it, the others pass.

    Random auctions almost never reach a misère (none in 400), and its card-by-card analysis
    is the solver's hardest, so the benchmark deals a fifth of its records this way.
    """
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    names = ["Anna", "Boris", "Vera", "Gleb"][:players]
    dealer = rng.randrange(players)
    clockwise = [(dealer + k) % players for k in range(1, players + 1)]
    active = [s for s in clockwise if players == 3 or s != dealer]  # four: the dealer sits out
    deck = list(range(32))
    rng.shuffle(deck)
    hands = {seat: deck[k * 10 : (k + 1) * 10] for k, seat in enumerate(active)}
    talon = deck[30:]
    declarer = active[0]
    pool = hands[declarer] + talon
    discard = rng.sample(pool, 2)
    masks = [0] * players
    for seat, cards in hands.items():
        masks[seat] = sum(1 << c for c in cards)
    masks[declarer] = sum(1 << c for c in pool if c not in discard)
    p = Play(masks, tuple(active), trump=None, first_hand=declarer)
    tricks = []
    while not p.finished:
        trick = []
        for _ in active:
            card = rng.choice(list(Hand(p.legal(p.to_play))))
            trick.append(str(card))
            p.play(card.index)
        tricks.append(" ".join(trick))

    def text(cards: list[int]) -> str:
        return " ".join(str(ALL_CARDS[c]) for c in cards)

    return {
        "format": "scorepad-deal/1",
        "players": names,
        "dealer": dealer,
        "hands": {str(seat): text(cards) for seat, cards in hands.items()},
        "talon": text(talon),
        "auction": ["misere", "pass", "pass"],
        "discard": text(discard),
        "contract": "misere",
        "play": tricks,
    }


def records(count: int) -> list[Audit]:
    """Seeded random legal records with a play to analyse (3 and 4 players, every kind: a fifth
    misères, the rest as random auctions end, games and all-passes)."""
    rng = RandomChooser(24)
    out: list[Audit] = [audit(parse_record(misere_record(k))) for k in range(count // 5)]
    while len(out) < count:
        a = audit(parse_record(random_record(rng, players=rng.choice([3, 4]))))
        if a.tricks:
            out.append(a)
    return out


def line(name: str, cells: dict[str, str], goal: str) -> None:
    print(f"  {name:34}" + "".join(f"{cells.get(c, '-'):>26}" for c in CORES) + f"   {goal}")


def verdict(figure: float, goal: float, *, at_most: bool = True) -> str:
    met = figure <= goal if at_most else figure >= goal
    return "met" if met else "NOT met"


CORES: list[dds.Core] = []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=5000)
    ap.add_argument("--claims", type=int, default=60)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--analyses", type=int, default=40)
    ap.add_argument("--reference", type=int, default=20)
    ap.add_argument("--cores", nargs="+", choices=["compiled", "python"])
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.records, args.claims, args.deals, args.analyses, args.reference = 50, 2, 2, 2, 1
    default = ["compiled", "python"] if dds._compiled is not None else ["python"]
    CORES.extend(args.cores or default)

    print(f"machine: {machine()}")
    if args.smoke:
        print(SMOKE_NOTE)
    print(f"default core: {dds.CORE}; cores measured: {', '.join(CORES)}")
    print("CPU ms (wall ms) unless said; the goals are for the compiled core\n")

    rng = RandomChooser(2026)
    texts = []
    while len(texts) < args.records:
        r = random_record(rng, players=rng.choice([3, 4]))
        if r.get("play"):
            texts.append(json.dumps(r, ensure_ascii=False))

    # Best of seven rounds, the cores interleaved: a busy neighbour's load is not the engine's
    # speed.  Each core reads the cards, plays the tricks and builds their accounts (dds.CORE).
    def whole() -> None:
        forget_kept()  # each round starts with nothing kept: the figure of one fresh batch
        with batch():
            for text in texts:
                audit(parse_record(text))

    rounds: dict[str, Times] = {core: Times([], []) for core in CORES}
    for _ in range(1 if args.smoke else 7):
        for core in CORES:
            dds.CORE = core
            t = timed([whole])
            rounds[core].cpu.extend(t.cpu)
            rounds[core].wall.extend(t.wall)
    dds.CORE = "compiled" if "compiled" in CORES else "python"
    print(
        f"audit {len(texts):,} full deal records (parse + audit; no claims: the solver does not "
        "run), best of 7"
    )
    print(f"  {'':34}" + "".join(f"{c:>26}" for c in CORES))
    rates = {
        core: (len(texts) / min(t.cpu) * 1000, len(texts) / min(t.wall) * 1000)
        for core, t in rounds.items()
    }
    cpu_rate = rates[CORES[0]][0]
    line(
        "records a second, CPU (wall)",
        {core: f"{cpu:,.0f} ({wall:,.0f})" for core, (cpu, wall) in rates.items()},
        f"goal ≥ {RECORDS_GOAL:,}: {verdict(cpu_rate, RECORDS_GOAL, at_most=False)}",
    )
    line(
        "a record's µs, CPU (wall)",
        {
            core: f"{min(t.cpu) * 1000 / len(texts):.1f} ({min(t.wall) * 1000 / len(texts):.1f})"
            for core, t in rounds.items()
        },
        "",
    )

    hands_rng = random.Random(7)
    grouped, single = [], []
    for _ in range(2000):
        deck = hands_rng.sample(range(32), 10)
        hand = Hand(sum(1 << c for c in deck))
        grouped.append(str(hand))
        single.append(hand.cards_text())
    best = {"grouped by suit": 1e9, "card by card": 1e9}
    for _ in range(5):  # interleaved, best of five
        for name, texts_ in (("grouped by suit", grouped), ("card by card", single)):
            start = time.process_time()
            for t in texts_:
                Hand.parse(t)
            best[name] = min(best[name], (time.process_time() - start) / len(texts_) * 1e6)
    for name, per in best.items():
        print(f"  {'parse a hand ' + name + ', µs':34}{per:26.1f}   goal: grouped as fast")

    print()
    print(f"  {'':34}" + "".join(f"{c:>26}" for c in CORES))
    solver_runs(args)
    return 0


def solver_runs(args: argparse.Namespace) -> None:
    figures: dict[str, dict[str, Times]] = {}

    def each_core(name: str, runs: list[Callable[[], object]]) -> None:
        figures[name] = {}
        for core in CORES:  # the solver reads dds.CORE at each search
            dds.CORE = core
            figures[name][core] = timed(runs)
        dds.CORE = "compiled" if "compiled" in CORES else "python"

    cases = claims(args.claims)
    each_core("claim", [lambda p=p, m=m: dds.solve(fresh(p), 0, more=m) for p, m in cases])
    print(f"claim, 5 cards each ({len(cases)} positions)")
    cells = {}
    for core, t in figures["claim"].items():
        cells[core] = (
            f"{statistics.median(t.cpu):.2f} / {max(t.cpu):.1f} ({statistics.median(t.wall):.2f})"
        )
    med = statistics.median(figures["claim"][CORES[0]].cpu)
    line("median / worst", cells, f"goal ≤ {CLAIM_GOAL:.0f} ms median: {verdict(med, CLAIM_GOAL)}")

    print(f"double dummy, full deals, {args.deals} fixed deals a kind, a deal's ms")
    for kind, more, goal in KINDS:
        deals = full_deals(args.deals, "trump" if kind == "trump" else "other")
        each_core(kind, [lambda p=p, m=more: dds.solve(fresh(p), 0, more=m) for p in deals])
        mean_cells, spread_cells = {}, {}
        for core, t in figures[kind].items():
            mean_cells[core] = f"{statistics.mean(t.cpu):.2f} ({statistics.mean(t.wall):.2f})"
            spread_cells[core] = f"{statistics.median(t.cpu):.2f} / {max(t.cpu):.1f}"
        mean = statistics.mean(figures[kind][CORES[0]].cpu)
        line(f"{kind}: mean", mean_cells, f"goal ≤ {goal:.0f} ms mean: {verdict(mean, goal)}")
        line(f"{kind}: median / max", spread_cells, "")
        if args.reference and "python" in CORES:
            subset = deals[: args.reference]
            old = timed([lambda p=p, m=more: best_tricks(fresh(p), 0, more=m) for p in subset])
            ratio = {
                core: statistics.mean(old.cpu) / statistics.mean(t.cpu[: len(subset)])
                for core, t in figures[kind].items()
            }
            line(
                f"{kind}: × the previous solver",
                {core: f"{r:.1f}×" for core, r in ratio.items()},
                f"(it: {statistics.mean(old.cpu):.0f} ms mean on the first {len(subset)}) "
                f"python goal ≥ 10×: {verdict(ratio['python'], 10, at_most=False)}",
            )

    audits = records(args.analyses)
    kinds = {"game": 0, "misere": 0, "raspasy": 0}
    for a in audits:
        kinds[
            "raspasy" if a.declarer is None else "misere" if a.contract == "misere" else "game"
        ] += 1
    each_core("analysis", [lambda a=a: analyse(a) for a in audits])
    print(
        f"the whole analysis of a deal ({len(audits)} records: {kinds['game']} games, "
        f"{kinds['misere']} misères, {kinds['raspasy']} all-passes), a deal's ms"
    )
    cells, spread = {}, {}
    for core, t in figures["analysis"].items():
        cells[core] = f"{statistics.mean(t.cpu):.1f} ({statistics.mean(t.wall):.1f})"
        spread[core] = f"{statistics.median(t.cpu):.1f} / {max(t.cpu):.0f}"
    mean = statistics.mean(figures["analysis"][CORES[0]].cpu)
    line("mean", cells, f"goal ≤ {ANALYSIS_GOAL:.0f} ms mean: {verdict(mean, ANALYSIS_GOAL)}")
    line("median / max", spread, "")


if __name__ == "__main__":
    sys.exit(main())
