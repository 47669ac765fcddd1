"""The claim search against a plain minimax oracle, and Kovalevskaya's misère."""

from __future__ import annotations

import random

import pytest

from scorepad.play.cards import SUIT_MASK, Hand
from scorepad.play.play import Play
from scorepad.play.solver import best_tricks


def oracle(
    hands: list[int],
    order: tuple[int, ...],
    trump: int | None,
    leader: int,
    counted: int,
    more: bool,
) -> int:
    """Every legal line of play, no pruning, no table: the slow truth."""

    def legal(hand: int, played: list[int]) -> list[int]:
        if played:
            led = played[0] >> 3
            follow = hand & SUIT_MASK[led]
            if follow:
                hand = follow
            elif trump is not None and hand & SUIT_MASK[trump]:
                hand = hand & SUIT_MASK[trump]
        return [c for c in range(32) if hand >> c & 1]

    def winner(played: list[int]) -> int:
        suit = played[0] >> 3
        if trump is not None and any(c >> 3 == trump for c in played):
            suit = trump
        return max(range(len(played)), key=lambda i: played[i] if played[i] >> 3 == suit else -1)

    def go(hands: list[int], lead: int, played: list[int]) -> int:
        n = len(order)
        if len(played) == n:
            w = order[(order.index(lead) + winner(played)) % n]
            rest = go(hands, w, []) if hands[order[0]] else 0
            return rest + (w == counted)
        seat = order[(order.index(lead) + len(played)) % n]
        values = []
        for c in legal(hands[seat], played):
            hands[seat] &= ~(1 << c)
            values.append(go(hands, lead, [*played, c]))
            hands[seat] |= 1 << c
        wants_more = (seat == counted) == more
        return max(values) if wants_more else min(values)

    return go(list(hands), leader, [])


@pytest.mark.parametrize("seed", range(40))
def test_the_search_agrees_with_plain_minimax_on_small_endings(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    size = rng.choice([2, 3, 4])
    hands = [sum(1 << c for c in deck[k * size : (k + 1) * size]) for k in range(3)]
    trump = rng.choice([None, 0, 1, 2, 3])
    leader = rng.choice([0, 1, 2])
    more = rng.random() < 0.5
    p = Play(list(hands), (0, 1, 2), trump=trump, first_hand=leader)
    assert best_tricks(p, 0, more=more) == oracle(hands, (0, 1, 2), trump, leader, 0, more)


# Kovalevskaya's misère (issue 3): declarer ♠10987 ♥98 ♦987 ♣8, discard ♣AK.
DECLARER = Hand.parse("♠10987 ♥98 ♦987 ♣8").mask
X = Hand.parse("♠AK ♥AKQ10 ♦A ♣QJ10").mask
Y = Hand.parse("♠QJ ♥J7 ♦KQJ10 ♣97").mask


@pytest.mark.parametrize(
    ("left", "right", "leader", "caught"),
    [(X, Y, 2, 1), (X, Y, 1, 1), (X, Y, 0, 0), (Y, X, 2, 0), (Y, X, 1, 0), (Y, X, 0, 0)],
    ids=[
        "X-left-Y-leads",
        "X-left-X-leads",
        "X-left-declarer-leads",
        "Y-left-X-leads",
        "Y-left-Y-leads",
        "Y-left-declarer-leads",
    ],
)
def test_kovalevskaya_misere(left: int, right: int, leader: int, caught: int) -> None:
    p = Play([DECLARER, left, right], (0, 1, 2), trump=None, first_hand=leader)
    assert best_tricks(p, 0, more=False) == caught
