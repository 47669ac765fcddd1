"""What the next deal may be: every option legal.py offers is accepted by the scorer, and nothing
else is.

The table states come from random generated sessions replayed to a random point.  The verdicts
come from the scorer (:func:`~scorepad.scoring.pulya.score.preview`, what the store and the app use),
and the candidates it judges are enumerated here by brute force (every seat, every contract,
every call sequence up to five calls, a trick over each cap), not drawn from legal.py: so the
offers and the verdicts are compared, not the offers with themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from test_properties import PRESETS, Draw

from conftest import scored
from scorepad.scoring.contract import Contract, Trump
from scorepad.scoring.pulya import legal
from scorepad.scoring.pulya.legal import DealError
from scorepad.scoring.pulya.score import Scored, preview, replay
from scorepad.scoring.pulya.session import Deal, parse_session
from scorepad.scoring.pulya.table import Table
from scorepad.scoring.pulya.whist import Call
from scorepad.testing.generate import random_session

_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)
CALLS = ("whist", "pass", "half")
OVERRIDES = [
    {},
    {"stalingrad": True},
    {"long_half_whist": True, "half_whist": [6, 7, 8]},
    {"pass_pass_whist": True},
    {"dealer_whist": False},
    {"ten": "checked"},
    {"ten": "whisted"},
    {"raspasy_exit": [6, 7, 9]},
    {"raspasy_talon": "closed"},
    {"raspasy_talon": "open"},
]


def accepts(s: Scored, deal: dict[str, Any]) -> bool:
    try:
        preview(s, _DEAL.validate_python(deal))
    except DealError:
        return False
    return True


def draw_table(data: st.DataObject) -> Scored:
    raw = random_session(
        Draw(data),
        convention=data.draw(st.sampled_from(PRESETS), label="convention"),
        players=data.draw(st.sampled_from([3, 4]), label="players"),
        deals=data.draw(st.integers(0, 30), label="deals"),
        overrides=data.draw(st.sampled_from(OVERRIDES), label="overrides"),
        corrections=False,
    )
    raw["deals"] = raw["deals"][: data.draw(st.integers(0, len(raw["deals"])), label="cut")]
    return replay(parse_session(raw))


def spoken(t: Table, declarer: int, contract: Contract, said: list[Call]) -> Iterator[list[Call]]:
    """Every call sequence the offers lead to, speaker by speaker."""
    who, options = legal.call_options(t, declarer=declarer, contract=contract, said=said)
    if who is None:
        yield said
        return
    assert who in (*t.defenders(declarer), t.sits_out)  # only a defender or the dealer speaks
    assert options, "someone is to speak but may say nothing"
    for call in options:
        yield from spoken(t, declarer, contract, [*said, call])


def game(
    declarer: int, contract: Contract, t: Table, calls: list[str] | None, **kw: Any
) -> dict[str, Any]:
    d: dict[str, Any] = {"type": "game", "declarer": declarer, "contract": contract.code, **kw}
    if calls is not None:
        d["calls"] = calls
    return d


def tricks_of(t: Table, declarer: int, level: int) -> dict[str, int]:
    d1, d2 = t.defenders(declarer)
    return {str(declarer): level, str(d1): 10 - level, str(d2): 0}


PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(st.data())
def test_offered_contracts_and_calls_are_accepted_and_no_other_is(data: st.DataObject) -> None:
    s = draw_table(data)
    t = s.table()
    offered_levels = legal.levels(t)
    offered_declarers = legal.declarers(t)
    all_sequences = {legal.shortest(seq) for n in range(6) for seq in product(CALLS, repeat=n)}
    for declarer in range(t.players):
        for level in (6, 7, 8, 9, 10):
            trump = data.draw(st.sampled_from(list(Trump)), label="trump")
            contract = Contract(level, trump)
            if declarer not in offered_declarers or level not in offered_levels:
                tricks = {str(x): 10 if i == 0 else 0 for i, x in enumerate(t.active)}
                for calls in (["whist", "whist"], None):
                    deal = game(declarer, contract, t, calls, tricks=tricks)
                    assert not accepts(s, deal), deal
                continue
            paths = list(spoken(t, declarer, contract, []))
            if paths == [[]] and legal.is_checked_ten(t.settings, contract):
                deal = game(declarer, contract, t, None, tricks=tricks_of(t, declarer, level))
                assert accepts(s, deal), deal
                assert not accepts(s, {**deal, "calls": []}), deal
                continue
            offered = {legal.shortest(p) for p in paths}
            assert len(offered) == len(paths), "two spoken paths write the same sequence"
            for calls in all_sequences:
                deal = game(declarer, contract, t, [str(c) for c in calls])
                if calls in offered:
                    outcome = legal.verify_calls(
                        t, declarer=declarer, contract=contract, calls=calls
                    )
                    if outcome.played:
                        deal["tricks"] = tricks_of(t, declarer, level)
                    assert accepts(s, deal), deal
                    lone = {**deal, "open": True}
                    assert accepts(s, lone) == outcome.lone_whister, lone
                else:
                    assert not accepts(s, deal), deal
                    assert not accepts(s, {**deal, "tricks": tricks_of(t, declarer, level)}), deal


@PROPS
@given(st.data())
def test_offered_misere_and_raspasy_tricks_are_accepted_and_over_a_cap_refused(
    data: st.DataObject,
) -> None:
    s = draw_table(data)
    t = s.table()
    misere = "misere" in legal.kinds(t)
    for declarer in range(t.players):
        deal = {"type": "misere", "declarer": declarer, "tricks": {str(declarer): 0}}
        assert accepts(s, deal) == (misere and declarer in legal.declarers(t)), deal
    assert "game" in legal.kinds(t) and "raspasy" in legal.kinds(t)
    seats = legal.trick_seats(t, "raspasy")
    assert seats == tuple(range(t.players))
    caps = {seat: legal.trick_cap(t, "raspasy", seat) for seat in seats}
    # Every seat at its cap where it can be, the rest on the last seat dealt in.
    for seat in seats:
        tricks = {str(x): 0 for x in seats}
        tricks[str(seat)] = caps[seat]
        last = t.active[-1] if seat != t.active[-1] else t.active[0]
        tricks[str(last)] += 10 - caps[seat]
        assert accepts(s, {"type": "raspasy", "tricks": tricks}), tricks
        if caps[seat] < 10:
            tricks[str(seat)] += 1
            tricks[str(last)] -= 1
            assert not accepts(s, {"type": "raspasy", "tricks": tricks}), tricks


def test_misere_too_low_after_an_exit_of_nine() -> None:
    s = scored(
        [{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}] * 3,
        overrides={"raspasy_exit": [6, 7, 9]},
    )
    t = s.table()
    assert legal.kinds(t) == ("game", "raspasy") and legal.levels(t) == (9, 10)
    with pytest.raises(legal.MisereTooLow) as exc:
        legal.verify_kind(t, "misere")
    assert exc.value.field == "type"
    assert str(exc.value) == "after 3 all-passes the lowest contract is 9: a misère is too low"
    assert exc.value.message.render("ru") == (
        "после распасов (3 подряд) наименьшая игра — 9: мизер ниже"
    )


def test_stalingrad_offers_only_whist_whist() -> None:
    s = scored([], overrides={"stalingrad": True})
    t = s.table()
    six_spades = Contract(6, Trump.SPADES)
    assert list(spoken(t, 1, six_spades, [])) == [[Call.WHIST, Call.WHIST]]
    with pytest.raises(legal.StalingradError) as exc:
        legal.verify_calls(t, declarer=1, contract=six_spades, calls=[Call.WHIST])
    assert str(exc.value) == "Stalingrad: a 6♠ must be whisted by both defenders"


def test_the_four_player_dealer_talon_is_capped_and_a_closed_talon_takes_nothing() -> None:
    four = ["A", "B", "C", "D"]
    t = scored([], players=four, first_dealer=3).table()
    assert (
        legal.talon_cap(t),
        legal.trick_cap(t, "raspasy", 3),
        legal.trick_cap(t, "game", 3),
    ) == (
        2,
        2,
        10,
    )
    closed = scored([], players=four, first_dealer=3, convention="rostov").table()
    assert legal.talon_cap(closed) == 0
    with pytest.raises(legal.TalonCapError) as exc:
        legal.verify_tricks(closed, kind="raspasy", declarer=None, tricks={0: 3, 1: 3, 2: 3, 3: 1})
    assert str(exc.value) == "the dealer's talon can win at most 0 tricks here, not 1"


def test_the_shortest_form_is_one_helper() -> None:
    assert legal.shortest(["whist", "pass", "pass"]) == (Call.WHIST,)
    assert legal.shortest(["pass", "pass"]) == ()
    assert [Call(c).value for c in CALLS] == ["whist", "pass", "half"]


def test_every_refusal_is_one_base_carrying_the_message() -> None:
    from scorepad.core.i18n import ScorepadError
    from scorepad.play.auction import AuctionError
    from scorepad.play.cards import CardError
    from scorepad.play.record import RecordInvalid
    from scorepad.scoring.pulya.convention import ConventionError
    from scorepad.scoring.pulya.session import SessionInvalid
    from scorepad.store import StoreError
    from scorepad.store.journal import JournalError

    for cls in (
        DealError,
        legal.WhistError,
        SessionInvalid,
        RecordInvalid,
        ConventionError,
        CardError,
        AuctionError,
        StoreError,
        JournalError,
    ):
        assert issubclass(cls, ScorepadError) and issubclass(cls, ValueError), cls


@PROPS
@given(st.data())
def test_whatever_the_form_offers_the_scorer_accepts(data: st.DataObject) -> None:
    from scorepad.app.pulya.form import DealForm

    s = draw_table(data)
    f = DealForm(s)
    f.choose_kind(data.draw(st.sampled_from(f.kinds()), label="kind"))
    if f.kind != "raspasy":
        f.choose_declarer(data.draw(st.sampled_from(f.declarers()), label="declarer"))
    if f.kind == "game":
        level = data.draw(st.sampled_from(f.levels()), label="level")
        f.choose_contract(level, data.draw(st.sampled_from(list(Trump)), label="trump"))
        while True:
            who, options = f.call_options()
            if who is None:
                break
            f.say(data.draw(st.sampled_from(options), label="call"))
        f.set_open(data.draw(st.booleans(), label="open"))
    seats = f.trick_seats()
    for seat in seats[:-1] if f.kind != "misere" else seats:
        f.step(seat, data.draw(st.integers(-10, 10), label="step"))
    assert f.missing() is None
    sentences, problem = f.preview()
    assert problem is None and sentences, f.to_deal()
    assert accepts(s, f.to_deal())
