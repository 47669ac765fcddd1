"""A revoke at the table ends in what to write (issue #37, item 3): each rule of the ``revoke``
setting worked on one real deal, and the card check's verdict in words.

The deal (fixtures/deals/illegal/revoke-six-spades.json, Sochi prices: a six is worth 2 a trick): Tanya
plays 6♠, Olga and Petr whist.  Trick 3: Tanya leads Q♣, Olga plays 7♦ while holding A♣ and 10♣
(the revoke), Petr trumps with J♠.  Played on to the end, the cards give Tanya 6, Olga 2, Petr 2;
from trick 3 on Olga took 1 and Petr 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import one
from scorepad.app.dispute.form import DisputeForm
from scorepad.play.cards import Card
from scorepad.play.record import RecordInvalid, parse_record
from scorepad.play.revoke import audit_revoke, penalty_moves
from scorepad.scoring.pulya.convention import ConventionError, settings_for

DEALS = Path(__file__).parent / "fixtures" / "deals"
T, OL, P = 0, 1, 2
NAMES = ["Tanya", "Olga", "Petr"]


def record(rule: str | None = None, **change: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (DEALS / "illegal" / "revoke-six-spades.json").read_text("utf-8")
    )
    if rule is not None:
        data["overrides"] = {"revoke": rule}
    data.update(change)
    return data


def written(rule: str) -> dict[int, int]:
    v = audit_revoke(parse_record(record(rule)))
    return {int(s): n for s, n in v.entry["tricks"].items()}


def test_the_revoke_is_found_and_the_play_counted_as_played() -> None:
    v = audit_revoke(parse_record(record()))
    assert (v.revoke.trick, v.revoke.seat, str(v.revoke.card)) == (3, OL, "7♦")
    assert v.revoke.why.render() == "Olga played 7♦ while holding a club — revoke"
    assert v.played_out and v.taken == {T: 6, OL: 2, P: 2}


def test_kodex_one_trick_tanya_seven_and_the_sheet_had_five() -> None:
    # KOD §3.9.16.2: Olga gives Tanya one trick: 7-1-2.  6♠ made with an overtrick: Tanya 2 in
    # the pulya; Olga writes 1 × 2 = 2 whists, Petr 2 × 2 = 4; the defence (3 tricks of the 4
    # owed) is one short and Olga, with 1 of her 2, writes the 2 of gora.
    assert written("one_trick") == {T: 7, OL: 1, P: 2}
    assert settings_for("sochi").revoke == "one_trick"  # the default of every preset
    w = one(audit_revoke(parse_record(record())).entry, players=NAMES)
    assert (w.pool, w.gora) == ([2, 0, 0], [0, 2, 0])
    assert (w.whists[OL][T], w.whists[P][T]) == (2, 4)


def test_two_tricks_both_from_the_offender() -> None:
    # «без двух»: Olga gives both of hers: 8-0-2; she writes the defence's 2 missing tricks × 2.
    v = audit_revoke(parse_record(record("two_tricks")))
    assert v.moves == ((OL, T, 2),)
    w = one(v.entry, players=NAMES)
    assert written("two_tricks") == {T: 8, OL: 0, P: 2}
    assert (w.pool, w.gora, w.whists[P][T]) == ([2, 0, 0], [0, 4, 0], 4)


def test_rest_every_trick_from_the_revoke_on_goes_to_the_declarer() -> None:
    # From trick 3 on Olga took 1 and Petr 2: all three to Tanya: 9-1-0.  Petr, with none of
    # his 2, writes 2 × 2 = 4 of gora, Olga (1 of 2) 2.
    v = audit_revoke(parse_record(record("rest")))
    assert sorted(v.moves) == [(OL, T, 1), (P, T, 2)]
    assert written("rest") == {T: 9, OL: 1, P: 0}
    w = one(v.entry, players=NAMES)
    assert (w.pool, w.gora, w.whists[OL][T]) == ([2, 0, 0], [0, 2, 4], 2)


def test_an_unknown_rule_is_refused_by_name() -> None:
    with pytest.raises(ConventionError) as refused:
        settings_for("sochi", {"revoke": "three"})
    assert "revoke" in str(refused.value)


def test_stopped_at_the_revoke_the_count_is_asked_for() -> None:
    v = audit_revoke(parse_record(record(play=record()["play"][:3])))
    assert not v.played_out and v.entry == {} and v.revoke.trick == 3


def test_any_other_fault_is_still_refused() -> None:
    bad = record()
    bad["play"][3] = "A♥ 10♥ Q♣"  # Petr's Q♣ was Tanya's, played in trick 3
    with pytest.raises(RecordInvalid) as refused:
        audit_revoke(parse_record(bad))
    assert refused.value.render() == "trick 4: Q♣ was already played in trick 3"


@pytest.mark.parametrize(
    ("rule", "case", "moves"),
    [
        # A revoking declarer gives his tricks to the whisters, the declarer's left first.
        ("two_tricks", dict(offender=T, taken={T: 7, OL: 2, P: 1}), [(T, OL, 1), (T, P, 1)]),
        # A misère declarer who revokes takes tricks off the defender with more.
        ("one_trick", dict(offender=T, misere=True, taken={T: 0, OL: 6, P: 4}), [(OL, T, 1)]),
        # A defender's revoke on a misère takes a trick off the declarer, if he has one.
        ("two_tricks", dict(offender=OL, misere=True, taken={T: 1, OL: 5, P: 4}), [(T, OL, 1)]),
        # All-pass: the offender takes them from the one with the most (a tie: clockwise).
        (
            "two_tricks",
            dict(offender=P, declarer=None, taken={T: 4, OL: 4, P: 2}),
            [(T, P, 1), (OL, P, 1)],
        ),
    ],
)
def test_who_gives_and_who_takes(rule: str, case: dict[str, Any], moves: list[Any]) -> None:
    kw: dict[str, Any] = dict(
        declarer=T, misere=False, order=(T, OL, P), whisters=(OL, P), after={}
    )
    kw.update(case)
    assert penalty_moves(rule, **kw) == moves


def said(form: DisputeForm, lang: str = "en") -> list[str]:
    return [m.render(lang) for m in form.verdict()[1]]


def test_the_card_check_plays_on_after_the_revoke_and_gives_the_deal_to_write() -> None:
    """The check's form: the revoke entered as a disputed card, the table plays on, the verdict
    names the rule, the penalty, the tricks and the deal as written, and the sheet's counts."""
    full = parse_record(record())
    sheet = {"type": "game", "declarer": T, "contract": "6S", "calls": ["whist", "whist"],
             "tricks": {"0": 5, "1": 3, "2": 2}}  # fmt: skip
    form = DisputeForm.from_record(full)
    form.sheet = sheet
    cards = list(form.played)
    form.played, form.disputed, form.play_on = cards[:7], None, False  # up to Olga's turn
    assert Card.parse("7♦") in form.others()
    form.play(Card.parse("7♦").index)
    form.play(Card.parse("J♠").index)
    assert form.play_over() and form.can_play_on()
    assert said(form)[1:] == [
        "The revoke rule of this table: one trick to the other side (Kodex 3.9.16).",
        "Play the deal on to the end (or claim the rest) to count the tricks.",
    ]
    form.continue_play()
    assert not form.play_over() and form.can_claim()
    for card in cards[9:]:
        form.play(card)
    assert form.stage == "verdict"
    assert said(form) == [
        "Illegal: trick 3: Olga played 7♦ while holding a club — revoke",
        "The revoke rule of this table: one trick to the other side (Kodex 3.9.16).",
        "Tricks as played: Tanya 6, Olga 2, Petr 2.",
        "Penalty: Olga gives Tanya 1 trick.",
        "The tricks as they must be written: Tanya 7, Olga 1, Petr 2.",
        "The deal writes: Tanya: 6♠",
        "The sheet has it otherwise: Tanya: 6♠",
        "The sheet has Tanya 5 tricks, the cards give 7.",
        "The sheet has Olga 3 tricks, the cards give 1.",
    ]
    found = form.verdict()[0]
    assert found is not None and found.entry["tricks"] == {"0": 7, "1": 1, "2": 2}
    # The record keeps the whole play: reopened, the check stands where it stood.
    again = DisputeForm.from_record(form.record())
    again.sheet = sheet
    assert again.play_on and said(again) == said(form)
    assert said(again, "ru")[3] == "Штраф: Olga → Tanya, 1 взятка."
