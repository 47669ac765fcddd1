"""Invariants over random valid sessions, every preset, 3 and 4 players (hypothesis)."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.report.pulya import settlement_of, to_json_text
from scorepad.scoring.pulya.convention import presets
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import SessionInvalid, dump_session, parse_session
from scorepad.testing.generate import random_session

T = TypeVar("T")
PRESETS = sorted(presets())


class Draw:
    """A generator chooser that draws from hypothesis, so failures shrink."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def integer(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))

    def choice(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(list(options)))


def draw_session(data: st.DataObject) -> dict[str, Any]:
    convention = data.draw(st.sampled_from(PRESETS), label="convention")
    players = data.draw(st.sampled_from([3, 4]), label="players")
    deals = data.draw(st.integers(0, 25), label="deals")
    overrides = data.draw(
        st.sampled_from(
            [
                {},
                {"settlement_rounding": "kodex"},
                {"gora_divisor": "others"},
                {"gora_divisor": "none"},
                {"concede": 3, "talon_bonus": True},
            ]
        )
    )
    return random_session(
        Draw(data),
        convention=convention,
        players=players,
        deals=deals,
        overrides=overrides,
        pool_target=data.draw(st.sampled_from([10, 20, 30])),
    )


PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(st.data())
def test_balances_and_money_sum_to_zero_and_payments_realise_money(data: st.DataObject) -> None:
    scored = replay(parse_session(draw_session(data)))
    st_ = settlement_of(scored)
    assert sum(st_.balance) == 0
    assert sum(st_.money) == 0
    net = [0] * scored.players
    for p in st_.payments:
        assert p.amount > 0 and p.payer != p.payee
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    assert net == list(st_.money)
    # Never more transfers than players who owe or are owed, less one.
    assert len(st_.payments) <= max(0, sum(1 for m in st_.money if m) - 1)


@PROPS
@given(st.data())
def test_sheet_is_the_sum_of_the_deals(data: st.DataObject) -> None:
    scored = replay(parse_session(draw_session(data)))
    n = scored.players
    for i in range(n):
        assert scored.sheet.pool[i] == sum(r.writing.pool[i] for r in scored.deals)
        assert scored.sheet.gora[i] == sum(r.writing.gora[i] for r in scored.deals)
        for j in range(n):
            assert scored.sheet.whists[i][j] == sum(r.writing.whists[i][j] for r in scored.deals)
        assert scored.sheet.whists[i][i] == 0


@PROPS
@given(st.data())
def test_same_deals_give_byte_identical_json(data: st.DataObject) -> None:
    raw = draw_session(data)
    first = to_json_text(replay(parse_session(json.dumps(raw))))
    again = to_json_text(replay(parse_session(copy.deepcopy(raw))))
    through_export = to_json_text(replay(parse_session(dump_session(parse_session(raw)))))
    assert first == again == through_export


@PROPS
@given(st.data())
def test_export_is_a_fixed_point(data: st.DataObject) -> None:
    once = dump_session(parse_session(draw_session(data)))
    assert dump_session(parse_session(once)) == once


def _corrupt(raw: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    bad = copy.deepcopy(raw)
    deals = [d for d in bad["deals"] if d["type"] in ("game", "raspasy") and "tricks" in d]
    kind = data.draw(
        st.sampled_from(
            ["tricks", "seat", "players", "override", "type"]
            if deals
            else ["seat", "players", "override", "type"]
        )
    )
    if kind == "tricks":
        d = data.draw(st.sampled_from(deals))
        key = data.draw(st.sampled_from(sorted(d["tricks"])))
        d["tricks"][key] += data.draw(st.sampled_from([1, -1])) if d["tricks"][key] else 1
    elif kind == "seat":
        bad["deals"].append({"type": "correction", "seat": len(bad["players"]), "note": "x"})
    elif kind == "players":
        bad["players"] = bad["players"][:2]
    elif kind == "override":
        bad["overrides"] = {"whist_stile": "greedy"}
    else:
        bad["deals"].append({"type": "rubber", "tricks": {}})
    return bad


@PROPS
@given(st.data())
def test_a_session_that_fails_validation_is_never_scored(data: st.DataObject) -> None:
    bad = _corrupt(draw_session(data), data)
    with pytest.raises(SessionInvalid) as exc:
        replay(parse_session(bad))
    assert exc.value.problems
