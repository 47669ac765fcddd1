"""The `gusarik` preset: four players, the dealer sits out (central-european §8, H-E1 to H-E4)."""

from __future__ import annotations

import json
from typing import Any

from scorepad.report.pulya import to_data
from scorepad.scoring.pulya.score import replay
from scorepad.session import parse_session

A, B, C, D = 0, 1, 2, 3


def scored(deals: list[dict[str, Any]]) -> dict[str, Any]:
    session = {
        "format": "scorepad-session/1",
        "players": ["A", "B", "C", "D"],
        "convention": "gusarik",
        "pool_target": 20,
        "first_dealer": D,
        "deals": [
            {**d, "dealer": D, "dealer_override": True} if d["type"] != "correction" else d
            for d in deals
        ],
    }
    return to_data(replay(parse_session(json.dumps(session))))


def test_h_e1_a_lone_whister() -> None:
    # B 7♥ makes 7; A whists alone (C passes), defence 3 tricks: B pool +4; A writes 3 × 4 = 12.
    out = scored(
        [
            {
                "type": "game",
                "declarer": B,
                "contract": "7H",
                "calls": ["pass", "whist"],
                "tricks": {"1": 7, "0": 3, "2": 0},
            }
        ]
    )
    deal = out["deals"][0]
    assert deal["pool"] == [0, 4, 0, 0]
    assert deal["whists"][A] == [0, 12, 0, 0]
    assert deal["whists"][C] == deal["whists"][D] == [0, 0, 0, 0]


def test_h_e2_the_dealer_writes_consolation() -> None:
    # C 6♦ takes 5; A and B whist with 3 and 2: C gora +2; A 3×2 + 2 = 8; B 2×2 + 2 = 6; D 2.
    out = scored(
        [
            {
                "type": "game",
                "declarer": C,
                "contract": "6D",
                "calls": ["whist", "whist"],
                "tricks": {"2": 5, "0": 3, "1": 2},
            }
        ]
    )
    deal = out["deals"][0]
    assert deal["gora"] == [0, 0, 2, 0]
    assert [deal["whists"][p][C] for p in (A, B, D)] == [8, 6, 2]


def test_h_e3_the_dealer_returns_the_whist() -> None:
    # A 6♠ down two; B half, D returns the whist: D writes 12 + 8 + 4 = 24; A 4 gora.
    out = scored(
        [
            {
                "type": "game",
                "declarer": A,
                "contract": "6S",
                "calls": ["pass", "half", "pass", "whist"],
                "tricks": {"0": 4, "1": 3, "2": 3},
            }
        ]
    )
    deal = out["deals"][0]
    assert deal["gora"] == [4, 0, 0, 0]
    assert deal["whists"][D][A] == 24
    assert deal["whists"][B][A] == deal["whists"][C][A] == 0


def test_h_e4_the_cash_out_of_a_finished_sheet() -> None:
    # Pools closed; goras A 4, B 10, C 2, D 8; whists A→B 12, A→C 8, B→C 6, D→C 2.
    # Mean gora 6: 10 × (6 − gora) = +20, −40, +40, −20; whist nets +20, −6, −16, +2.
    def fix(seat: int, gora: int, whists: dict[str, int]) -> dict[str, Any]:
        return {
            "type": "correction",
            "seat": seat,
            "pool": 20,
            "gora": gora,
            "whists": whists,
            "note": "H-E4",
        }

    out = scored(
        [fix(A, 4, {"1": 12, "2": 8}), fix(B, 10, {"2": 6}), fix(C, 2, {}), fix(D, 8, {"2": 2})]
    )
    assert out["finished"] is True
    assert out["balance"] == ["40", "-46", "24", "-18"]
