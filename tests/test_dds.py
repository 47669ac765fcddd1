"""The fast double-dummy solver against an independent slow search, and against the reference.

The oracle below is plain minimax over every legal card, driven by the play engine's own
rules (:class:`Play`), remembering only positions it has already solved: no pruning, no
merged cards, no bounds, no ordering, no quick tricks.  Both cores of the fast solver (the
compiled search and the pure-Python one) are held to it, and the compiled one to the Python
one on whole deals, where minimax is too slow.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.play.cards import Hand
from scorepad.play.dds import Core, DoubleDummy, solve
from scorepad.play.play import Play
from scorepad.play.solver import best_tricks


def clone(p: Play) -> Play:
    q = Play.__new__(Play)
    for name in Play.__slots__:  # type: ignore[attr-defined]
        setattr(q, name, getattr(p, name))
    q.hands = list(p.hands)
    q.tricks = list(p.tricks)
    q.won = dict(p.won)
    q.current = list(p.current)
    q._seq = list(p._seq)
    return q


def minimax(p: Play, counted: int, more: bool, memo: dict[Any, int] | None = None) -> int:
    """The counted seat's tricks from the current trick on, by trying every legal card."""
    memo = {} if memo is None else memo
    if p.finished:
        return 0
    key = (tuple(p.hands), tuple(p.current), p.leader, p.trick_number)
    if key in memo:
        return memo[key]
    seat = p.to_play
    legal = p.legal(seat)
    values = []
    for card in range(32):
        if legal >> card & 1:
            values.append(after(p, card, counted, more, memo))
    best = max(values) if (seat == counted) == more else min(values)
    memo[key] = best
    return best


def after(p: Play, card: int, counted: int, more: bool, memo: dict[Any, int]) -> int:
    q = clone(p)
    before = q.won.get(counted, 0)
    q.play(card, q.to_play)
    return q.won.get(counted, 0) - before + minimax(q, counted, more, memo)


def deal(rng: random.Random, size: int, kind: str) -> Play:
    """A random ending of ``size`` cards a hand: a game, a 3-player or a 4-player all-pass."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * size : (k + 1) * size]) for k in range(3)]
    overtake = rng.random() < 0.2
    talon = tuple(deck[30:32])
    if kind == "game":
        trump = rng.choice([None, 0, 1, 2, 3])
        return Play(
            hands, (0, 1, 2), trump=trump, first_hand=rng.choice([0, 1, 2]), must_overtake=overtake
        )
    if kind == "raspasy3":
        return Play(
            hands,
            (0, 1, 2),
            trump=None,
            first_hand=rng.choice([0, 1, 2]),
            must_overtake=overtake,
            talon_leads=talon,
        )
    # Four players: seat 3 deals, sits out, and turns the talon.
    return Play(
        [*hands, sum(1 << c for c in talon)],
        (0, 1, 2),
        trump=None,
        first_hand=0,
        must_overtake=overtake,
        talon_leads=talon,
        talon_owner=3,
    )


CORES: tuple[Core, ...] = ("compiled", "python")


def check(p: Play, counted: int, more: bool) -> None:
    memo: dict[Any, int] = {}
    value = minimax(p, counted, more, memo)
    legal = p.legal(p.to_play)
    expected = {c: after(p, c, counted, more, memo) for c in range(32) if legal >> c & 1}
    for core in CORES:
        dd = DoubleDummy(p, counted, more=more, core=core)
        assert (core, dd.value(p)) == (core, value)
        assert (core, dd.card_values(p)) == (core, expected)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.integers(1, 5),
    kind=st.sampled_from(["game", "raspasy3", "raspasy4"]),
    counted=st.integers(0, 2),
    more=st.booleans(),
    moves=st.integers(0, 4),
)
def test_fast_solver_equals_plain_minimax_on_random_endings(
    seed: int, size: int, kind: str, counted: int, more: bool, moves: int
) -> None:
    rng = random.Random(seed)
    if kind != "game":
        size = max(size, 3)  # the talon leads the first two tricks
        more = False  # on an all-pass everyone takes as few as he can
    p = deal(rng, size, kind)
    for _ in range(moves):  # start inside a trick too
        seat = p.to_play
        legal = [c for c in range(32) if p.legal(seat) >> c & 1]
        p.play(rng.choice(legal), seat)
        if p.finished:
            return
    check(p, counted, more)


# Golden deals: 24 six-card endings (8 games in a trump, 8 in no trump, 8 all-passes with the
# talon leading), their values found by the plain minimax above.
GOLDEN = [(seed, kind) for seed in range(8) for kind in ("trump", "notrump", "raspasy")]


@pytest.mark.parametrize(("seed", "kind"), GOLDEN)
def test_golden_six_card_deals(seed: int, kind: str) -> None:
    rng = random.Random(1000 + seed)
    if kind == "raspasy":
        p = deal(rng, 6, rng.choice(["raspasy3", "raspasy4"]))
        for seat in p.order:
            check(p, seat, False)
        return
    p = deal(rng, 6, "game")
    p.trump = rng.choice([0, 1, 2, 3]) if kind == "trump" else None
    check(p, 0, True)  # a game
    check(p, 0, False)  # the same cards as a misère


@pytest.mark.parametrize("seed", range(4))
def test_fast_solver_equals_the_reference_on_full_deals(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * 10 : (k + 1) * 10]) for k in range(3)]
    trump = rng.choice([0, 1, 2, 3, None])
    p = Play(list(hands), (0, 1, 2), trump=trump, first_hand=seed % 3)
    assert solve(p, 0, more=True) == best_tricks(
        Play(list(hands), (0, 1, 2), trump=trump, first_hand=seed % 3), 0, more=True
    )


# Kovalevskaya's misère: declarer ♠10987 ♥98 ♦987 ♣8 (discard ♣AK); who leads decides it.
DECLARER = Hand.parse("♠10987 ♥98 ♦987 ♣8").mask
X = Hand.parse("♠AK ♥AKQ10 ♦A ♣QJ10").mask
Y = Hand.parse("♠QJ ♥J7 ♦KQJ10 ♣97").mask


@pytest.mark.parametrize(
    ("left", "right", "leader", "caught"),
    [(X, Y, 2, 1), (X, Y, 1, 1), (X, Y, 0, 0), (Y, X, 2, 0), (Y, X, 1, 0), (Y, X, 0, 0)],
)
def test_kovalevskaya_misere(left: int, right: int, leader: int, caught: int) -> None:
    p = Play([DECLARER, left, right], (0, 1, 2), trump=None, first_hand=leader)
    dd = DoubleDummy(p, 0, more=False)
    assert dd.value(p) == caught
    # Every first card: the best of them is the value, and only the defence's choice matters.
    values = dd.card_values(p)
    assert (max(values.values()) if leader else min(values.values())) == caught


# --- the compiled core against the Python one ---------------------------------------------


def same_answers(p: Play, counted: int, more: bool, rng: random.Random) -> None:
    """Both cores, card by card through a random line of play to the end: the same values.

    One search of each core is kept for the whole deal, as the analysis keeps it, so what a
    search left in its table is tested too.
    """
    compiled = DoubleDummy(p, counted, more=more, core="compiled")
    python = DoubleDummy(p, counted, more=more, core="python")
    step = 0
    while not p.finished:
        here = (step, p.trick_number, list(p.current))
        assert (here, compiled.value(p)) == (here, python.value(p))
        values = compiled.card_values(p)
        assert (here, values) == (here, python.card_values(p))
        seat = p.to_play
        p.play(rng.choice(sorted(values)), seat)
        step += 1


KINDS = ["trump", "notrump", "misere", "raspasy3", "raspasy4"]


def table(rng: random.Random, size: int, kind: str) -> tuple[Play, list[tuple[int, bool]]]:
    """A deal of ``kind`` and the questions asked of it: (counted seat, wants more)."""
    if kind.startswith("raspasy"):
        p = deal(rng, max(size, 3), kind)
        return p, [(seat, False) for seat in p.order]
    p = deal(rng, size, "game")
    p.trump = rng.choice([0, 1, 2, 3]) if kind == "trump" else None
    return p, [(rng.choice([0, 1, 2]), kind != "misere")]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_the_cores_agree_on_whole_deals(seed: int, kind: str) -> None:
    rng = random.Random(5000 + seed)
    p, questions = table(rng, 10, kind)
    for counted, more in questions:
        same_answers(clone(p), counted, more, rng)


@pytest.mark.parametrize(("seed", "kind"), GOLDEN)
def test_the_cores_agree_on_the_golden_deals(seed: int, kind: str) -> None:
    rng = random.Random(1000 + seed)
    if kind == "raspasy":
        p = deal(rng, 6, rng.choice(["raspasy3", "raspasy4"]))
        for seat in p.order:
            same_answers(clone(p), seat, False, random.Random(seed))
        return
    p = deal(rng, 6, "game")
    p.trump = rng.choice([0, 1, 2, 3]) if kind == "trump" else None
    same_answers(clone(p), 0, True, random.Random(seed))
    same_answers(clone(p), 0, False, random.Random(seed))


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    size=st.integers(1, 10),
    kind=st.sampled_from(KINDS),
)
def test_the_cores_agree_on_random_deals(seed: int, size: int, kind: str) -> None:
    rng = random.Random(seed)
    p, questions = table(rng, size, kind)
    counted, more = rng.choice(questions)
    same_answers(p, counted, more, rng)


@pytest.mark.parametrize(
    ("left", "right", "leader", "caught"),
    [(X, Y, 2, 1), (X, Y, 1, 1), (X, Y, 0, 0), (Y, X, 2, 0), (Y, X, 1, 0), (Y, X, 0, 0)],
)
def test_the_cores_agree_on_kovalevskaya_misere(
    left: int, right: int, leader: int, caught: int
) -> None:
    for core in CORES:
        p = Play([DECLARER, left, right], (0, 1, 2), trump=None, first_hand=leader)
        assert (core, DoubleDummy(p, 0, more=False, core=core).value(p)) == (core, caught)
    p = Play([DECLARER, left, right], (0, 1, 2), trump=None, first_hand=leader)
    same_answers(p, 0, False, random.Random(leader))


def test_an_unknown_core_is_refused() -> None:
    p = Play([DECLARER, X, Y], (0, 1, 2), trump=None, first_hand=0)
    with pytest.raises(ValueError, match="'compiled' or 'python'"):
        DoubleDummy(p, 0, more=False, core="fortran")  # type: ignore[arg-type]
