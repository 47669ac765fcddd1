"""The audit's trick play compiled (``_dds.c``) and in Python: the same verdict, always.

The C core reads the tricks' cards and the hands, plays the tricks (follow suit, trump, the
all-pass talon leads, ``must_overtake``, who wins each trick) and builds the trick accounts;
the Python code is its fallback and its reference.  Here both audit the same records, legal
and made illegal in every way a hand can write one (a card of another player, a card played
twice, a revoke, a trick too short or too long, a word that is not a card, a card written in
another spelling), and must give exactly the same verdict: the same accounts and entry for a
legal record; for an illegal one the same first illegal step, trick, card and sentence.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import Draw

from scorepad.play import dds
from scorepad.play import play as play_module
from scorepad.play.cards import ALL_CARDS, SPELLINGS, CardError, Hand
from scorepad.play.record import (
    _ENTRY,
    RecordInvalid,
    _typed,
    audit,
    audit_json,
    invalid_json,
    parse_record,
)
from scorepad.scoring.pulya.convention import presets
from scorepad.testing.generate import random_record

pytestmark = pytest.mark.skipif(play_module._compiled is None, reason="the C core is not built")

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"
PRESETS = sorted(presets())
# Every spelling of each card (A♠, AS, Т♠, ТП, ...), and a few that are no card at all.
SPELLINGS_OF: dict[int, list[str]] = {}
for _token, _card in SPELLINGS.items():
    SPELLINGS_OF.setdefault(_card.index, []).append(_token)
NOT_CARDS = ["X♠", "11♥", "A", "♠", "10", "a♠x", "-", "♠AK", "A♠♠", "Т", "\u200b"]
SPACES = [" ", "  ", ", ", ",", "\t", "\u00a0", "\u2003", " , "]


@contextmanager
def core(name: dds.Core) -> Iterator[None]:
    saved = dds.CORE
    dds.CORE = name
    try:
        yield
    finally:
        dds.CORE = saved


def verdict(record: dict[str, Any], name: dds.Core) -> tuple[Any, ...]:
    """Everything the audit says of a record: the accounts, the entry, or the fault in words."""
    with core(name):
        try:
            a = audit(parse_record(json.dumps(record, ensure_ascii=False)))
        except RecordInvalid as exc:
            return ("illegal", invalid_json(exc, "en"), invalid_json(exc, "ru"))
    return ("legal", audit_json(a), a.tricks, a.taken, a.entry, a.start)


def same_verdict(record: dict[str, Any]) -> tuple[Any, ...]:
    compiled = verdict(record, "compiled")
    python = verdict(record, "python")
    assert compiled == python
    return compiled


def respell(data: st.DataObject, card: int) -> str:
    token = data.draw(st.sampled_from(SPELLINGS_OF[card]))
    return token.lower() if data.draw(st.booleans()) else token  # "as": read the long way


def mutate(data: st.DataObject, record: dict[str, Any]) -> dict[str, Any]:
    """The record with one thing changed, as a hand writes it wrong (or right, differently)."""
    bad = copy.deepcopy(record)
    tricks: list[list[str]] = [t.split() for t in bad.get("play", [])]
    kind = data.draw(
        st.sampled_from(
            [
                "none", "card", "swap", "swap-tricks", "drop-card", "extra-card", "drop-trick",
                "repeat-trick", "not-a-card", "spacing", "respell", "grouped-hand", "hand-card",
                "own-card", "own-card", "own-card", "own-card",
            ]
        )
    )  # fmt: skip
    if kind in ("grouped-hand", "hand-card"):
        seat = data.draw(st.sampled_from(sorted(bad["hands"])))
        try:
            hand = Hand.parse(bad["hands"][seat])
        except CardError:
            return bad  # a hand already written wrong
        if kind == "grouped-hand":  # ♠AK ♥AKQ10: read by suit groups
            bad["hands"][seat] = str(hand)
        else:  # one card of the hand written as another (a card twice, or a card missing)
            cards = hand.cards_text().split()
            cards[data.draw(st.integers(0, len(cards) - 1))] = str(
                ALL_CARDS[data.draw(st.integers(0, 31))]
            )
            bad["hands"][seat] = " ".join(cards)
        return bad
    if not tricks or kind == "none":
        return bad
    k = data.draw(st.integers(0, len(tricks) - 1))
    trick = tricks[k]
    i = data.draw(st.integers(0, len(trick) - 1))
    if kind == "own-card":  # the player's own card of another trick: the faults only rules see
        seat_of = seats_of_cards(record)
        if seat_of is not None and trick[i] in seat_of:
            mine = [
                (m, j)
                for m, t in enumerate(tricks)
                for j, c in enumerate(t)
                if seat_of.get(c) == seat_of[trick[i]]
            ]
            m, j = data.draw(st.sampled_from(mine))
            trick[i], tricks[m][j] = tricks[m][j], trick[i]
    elif kind == "card":  # any card in its place: another's, one played, a revoke, the talon's
        trick[i] = str(ALL_CARDS[data.draw(st.integers(0, 31))])
    elif kind == "swap":  # who played what: the wrong player, a revoke
        j = data.draw(st.integers(0, len(trick) - 1))
        trick[i], trick[j] = trick[j], trick[i]
    elif kind == "swap-tricks":
        m = data.draw(st.integers(0, len(tricks) - 1))
        j = data.draw(st.integers(0, len(tricks[m]) - 1))
        trick[i], tricks[m][j] = tricks[m][j], trick[i]
    elif kind == "drop-card":
        del trick[i]
    elif kind == "extra-card":
        trick.insert(i, str(ALL_CARDS[data.draw(st.integers(0, 31))]))
    elif kind == "drop-trick":
        del tricks[k]
    elif kind == "repeat-trick":
        tricks.insert(k, list(trick))
    elif kind == "not-a-card":
        trick[i] = data.draw(st.sampled_from(NOT_CARDS))
    elif kind == "respell":
        for t in tricks[k:]:
            for x, token in enumerate(t):
                known = SPELLINGS.get(token)
                if known is not None:
                    t[x] = respell(data, known.index)
    if kind == "spacing":
        bad["play"] = [data.draw(st.sampled_from(SPACES)).join(t) for t in tricks]
    else:
        bad["play"] = [" ".join(t) for t in tricks]
    return bad


def seats_of_cards(record: dict[str, Any]) -> dict[str, int] | None:
    """Who played each card of a legal record (None for an illegal one)."""
    try:
        a = audit(parse_record(json.dumps(record, ensure_ascii=False)))
    except RecordInvalid:
        return None
    return {str(card): seat for tr in a.tricks for seat, card in tr.cards}


def draw_record(data: st.DataObject) -> dict[str, Any]:
    overtake = data.draw(st.booleans())
    return random_record(
        Draw(data),
        convention=data.draw(st.sampled_from(PRESETS)),
        players=data.draw(st.sampled_from([3, 4])),
        overrides={"must_overtake": True} if overtake else None,
        raspasy_in_row=data.draw(st.integers(0, 2)),
        claim=data.draw(st.integers(0, 9)) == 0,  # the claim's search: one in ten
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_compiled_and_python_give_the_same_verdict(data: st.DataObject) -> None:
    record = draw_record(data)
    found = same_verdict(record)
    assert found[0] == "legal"  # random legal play: legal with both
    # The entry's model, kept but its tricks (not validated again), is the one validated.
    entry = found[4]
    for _ in range(2):  # made, then taken from what is kept
        deal = _typed(entry)
        assert deal == _ENTRY.validate_python(entry)
        assert deal.model_fields_set == _ENTRY.validate_python(entry).model_fields_set
    for _ in range(data.draw(st.integers(1, 2))):  # one change, or two
        record = mutate(data, record)
    same_verdict(record)


@pytest.mark.parametrize("path", sorted(DEALS.glob("*.json")), ids=lambda p: p.stem)
def test_every_card_of_the_fixtures_replaced_gives_the_same_verdict(path: Path) -> None:
    """Each fixture, then each of its played cards replaced by each card of the pack."""
    record = json.loads(path.read_text())
    assert same_verdict(record)[0] == "legal"
    illegal = 0
    for k, text in enumerate(record.get("play", [])):
        cards = text.split()
        for i in range(len(cards)):
            for card in ALL_CARDS:
                bad = copy.deepcopy(record)
                bad["play"][k] = " ".join([*cards[:i], str(card), *cards[i + 1 :]])
                illegal += same_verdict(bad)[0] == "illegal"
    assert illegal > 0


def test_the_faults_the_rules_name_are_the_same_words() -> None:
    """A few faults by name, compiled and in Python (their sentences are in test_record)."""
    record = json.loads((DEALS / "eight-spades.json").read_text())
    revoke = copy.deepcopy(record)
    revoke["play"][0] = "A♠ Q♣ 7♠"
    revoke["play"][8] = "Q♠ 8♠ 9♦"
    found = same_verdict(revoke)
    assert found[1]["message"] == "trick 1: Boris played Q♣ while holding a spade — revoke"
    twice = copy.deepcopy(record)
    twice["play"][1] = twice["play"][1].rsplit(" ", 1)[0] + " " + record["play"][0].split()[0]
    assert "was already played in trick 1" in same_verdict(twice)[1]["message"]
