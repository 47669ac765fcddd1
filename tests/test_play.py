"""Trick play: follow suit, trump, no trump on misère and raspasy, talon leads, must_overtake."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.play import play as play_module
from scorepad.play.cards import Card, Hand
from scorepad.play.play import Play

# The trick play's two cores: the Python one, and the compiled one where the install built it.
CORES = [
    False,
    pytest.param(
        True,
        marks=pytest.mark.skipif(play_module._compiled is None, reason="not compiled"),
        id="compiled",
    ),
]


def mask(text: str) -> int:
    return Hand.parse(text).mask


def card(text: str) -> int:
    return Card.parse(text).index


def cards(m: int) -> str:
    return Hand(m).cards_text()


def test_follow_suit_else_trump_else_anything() -> None:
    p = Play([mask("♠A ♥7"), mask("♠K ♣7"), mask("♦7 ♣8")], (0, 1, 2), trump=1, first_hand=0)
    p.play(card("A♠"))
    assert cards(p.legal(1)) == "K♠"
    p.play(card("K♠"))
    assert cards(p.legal(2)) == "8♣"  # no spade: must trump (clubs)
    assert (
        p.why_illegal(2, card("7♦")).render()
        == "played 7♦ with no spade but holding a trump — must trump"
    )
    assert p.play(card("8♣")) == (2, 1)  # the trump wins


def test_no_trump_on_misere_and_raspasy() -> None:
    p = Play([mask("♠A ♥7"), mask("♦K ♣7"), mask("♦7 ♣8")], (0, 1, 2), trump=None, first_hand=0)
    p.play(card("A♠"))
    assert cards(p.legal(1)) == "7♣ K♦"
    p.play(card("7♣"))
    assert p.play(card("8♣")) == (0, 1)  # off-suit cards never win


def test_revoke_is_named() -> None:
    p = Play([mask("♠A ♥7"), mask("♠K ♥8"), mask("♦7 ♣8")], (0, 1, 2), trump=None, first_hand=0)
    p.play(card("A♠"))
    assert p.why_illegal(1, card("8♥")).render() == "played 8♥ while holding a spade — revoke"
    assert p.why_illegal(1, card("Q♠")).render() == "does not hold Q♠"


def test_three_player_raspasy_talon_names_the_first_two_suits() -> None:
    # Talon 9♦ then 7♣; the first hand (seat 1) plays first to each and leads the third trick.
    p = Play(
        [mask("♦A ♠7"), mask("♦8 ♣A"), mask("♦K ♣K")],
        (1, 2, 0),
        trump=None,
        first_hand=1,
        talon_leads=(card("9♦"), card("7♣")),
    )
    assert cards(p.legal(1)) == "8♦"  # must follow the talon's suit
    p.play(card("8♦"))
    p.play(card("K♦"))
    assert p.play(card("A♦")) == (0, 1)  # the talon's rank does not count: A♦ wins
    assert p.to_play == 1  # the first hand again, not the winner
    p.play(card("A♣"))
    p.play(card("K♣"))
    assert p.play(card("7♠")) == (1, 2)
    assert p.to_play == 1 and p.leader == 1  # the third lead is the first hand's


def test_three_player_raspasy_nobody_has_the_talon_suit() -> None:
    p = Play(
        [mask("♠A"), mask("♠8"), mask("♣K")],
        (1, 2, 0),
        trump=None,
        first_hand=1,
        talon_leads=(card("9♦"),),
    )
    p.play(card("8♠"))
    p.play(card("K♣"))
    assert p.play(card("A♠")) == (0, 1)  # the first hand's suit leads


def test_four_player_raspasy_dealer_plays_the_talon() -> None:
    hands = [mask("♦7 ♠A"), mask("♦8 ♠K"), mask("♣7 ♠Q"), mask("♦A ♥7")]  # seat 3 deals
    p = Play(
        hands,
        (0, 1, 2),
        trump=None,
        first_hand=0,
        talon_leads=(card("A♦"), card("7♥")),
        talon_owner=3,
    )
    assert p.current == [(3, card("A♦"))]
    p.play(card("7♦"))
    p.play(card("8♦"))
    assert p.play(card("7♣")) == (3, 1)  # the talon's ace wins: the dealer's trick
    p.play(card("A♠"))
    p.play(card("K♠"))
    assert p.play(card("Q♠")) == (3, 2)  # nobody follows 7♥: it wins for the dealer
    assert p.won == {0: 0, 1: 0, 2: 0, 3: 2}


def test_must_overtake() -> None:
    p = Play(
        [mask("♠10 ♠7"), mask("♠A ♠8"), mask("♣7")],
        (0, 1, 2),
        trump=None,
        first_hand=0,
        must_overtake=True,
    )
    p.play(card("10♠"))
    assert cards(p.legal(1)) == "A♠"
    assert p.why_illegal(1, card("8♠")).render() == "played 8♠ but had to beat the trick"


def _state(p: Play) -> tuple[object, ...]:
    return (p.hands, p.tricks, p.won, p.current, p.leader, p.last_winner, p._seq, p._size)


@pytest.mark.parametrize("compiled", CORES)
@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    kind=st.sampled_from(["trump", "notrump", "raspasy3", "raspasy4"]),
    overtake=st.booleans(),
    wrong=st.integers(-1, 60),
)
def test_whole_tricks_at_once_as_trick_by_trick(
    compiled: bool, seed: int, kind: str, overtake: bool, wrong: int
) -> None:
    """``play_tricks`` (the audit's fast path, compiled or not) plays what ``play_trick``
    plays, trick by trick, and on a card that is not legal (``wrong``: the card replaced by a
    random one) plays nothing at all."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * 10 : (k + 1) * 10]) for k in range(3)]
    talon = tuple(deck[30:])
    extra: dict[str, Any] = {"trump": rng.choice([0, 1, 2, 3]) if kind == "trump" else None}
    if kind == "raspasy3":
        extra["talon_leads"] = talon
    if kind == "raspasy4":
        hands.append(sum(1 << c for c in talon))
        extra |= {"talon_leads": talon, "talon_owner": 3}

    def fresh() -> Play:
        return Play(list(hands), (0, 1, 2), first_hand=seed % 3, must_overtake=overtake, **extra)

    line = fresh()
    tricks: list[list[int]] = []
    while not line.finished:  # a random legal play, written down trick by trick
        start = len(line.tricks)
        trick = []
        while len(line.tricks) == start:
            c = rng.choice([c for c in range(32) if line.legal(line.to_play) >> c & 1])
            trick.append(c)
            line.play(c)
        tricks.append(trick)
    if 0 <= wrong < 30:
        tricks[wrong // 3][wrong % 3] = rng.randrange(32)
    elif 30 <= wrong < 40:
        del tricks[wrong % 10][-1]  # a trick a card short
    elif wrong >= 40:
        # A player's own card played in another trick (a revoke, a card that had to beat or
        # trump, or another legal play): the faults only the rules see.
        seats = [[s for s, _ in t if s in line.order] for t in line.tricks]
        a, b = rng.randrange(10), rng.randrange(10)
        i = rng.randrange(3)
        j = seats[b].index(seats[a][i])
        tricks[a][i], tricks[b][j] = tricks[b][j], tricks[a][i]
    stop = rng.randrange(len(tricks) + 1)
    by_trick = fresh()
    legal = True
    expected = []
    for trick in tricks[:stop]:
        if len(trick) != 3 or by_trick.play_trick(trick) >= 0:
            legal = False
            break
        expected.append(by_trick.last_winner)
    at_once = fresh()
    before = _state(fresh())
    winners = at_once.play_tricks(tricks[:stop], compiled=compiled)
    if legal:
        assert winners == expected
        assert _state(at_once) == _state(by_trick)
    else:
        assert winners is None
        assert _state(at_once) == before
