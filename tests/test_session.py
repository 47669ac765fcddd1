"""The session file: shape, canonical export, dealer rotation, corrections."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import scored, session
from scorepad.scoring.pulya.session import SessionInvalid, dump_session, parse_session


def test_trailing_passes_are_dropped_and_export_is_shortest() -> None:
    data = session(
        [
            {"type": "game", "declarer": 0, "contract": "6S", "calls": ["pass", "half", "pass"]},
            {
                "type": "game",
                "declarer": 1,
                "contract": "7H",
                "calls": ["whist", "pass"],
                "tricks": {"1": 7, "2": 2, "0": 1},
            },
        ]
    )
    text = dump_session(parse_session(data))
    assert '"calls": [\n        "pass",\n        "half"\n      ]' in text
    assert '"calls": [\n        "whist"\n      ]' in text
    assert dump_session(parse_session(text)) == text


def test_defaults_are_left_out_of_the_export() -> None:
    text = dump_session(parse_session(session([])))
    assert '"overrides"' not in text and '"first_dealer"' not in text
    assert text.startswith('{\n  "format": "scorepad-session/1",\n  "players"')


def test_dealer_is_checked_against_the_rotation() -> None:
    deals = [
        {"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}},
        {"type": "raspasy", "dealer": 2, "tricks": {"0": 3, "1": 3, "2": 4}},
    ]
    with pytest.raises(SessionInvalid) as exc:
        scored(deals)
    assert exc.value.render() == [
        "deal 2: dealer: the dealer by rotation is Boris, not Vera "
        "(set dealer_override to change it)"
    ]
    deals[1]["dealer_override"] = True
    s = scored(deals)
    assert [r.dealer for r in s.deals] == [0, 2] and s.next_dealer == 0


def test_corrections_do_not_pass_the_deal() -> None:
    s = scored(
        [
            {"type": "correction", "seat": 1, "gora": "-1/3", "note": "x"},
            {"type": "raspasy", "dealer": 0, "tricks": {"0": 3, "1": 3, "2": 4}},
        ]
    )
    assert s.sheet.gora == [0, Fraction(-1, 3), 1]  # Vera took 4 on the raspasy Anna dealt


def test_four_players_dealer_sits_out_of_a_game() -> None:
    deal = {
        "type": "game",
        "declarer": 0,
        "contract": "6S",
        "calls": ["whist", "whist"],
        "tricks": {"0": 6, "1": 2, "3": 2},
    }
    with pytest.raises(SessionInvalid) as exc:
        scored([deal], players=["A", "B", "C", "D"], first_dealer=3)
    assert exc.value.render() == ["deal 1: tricks: seat 3 (D) did not play this deal"]
    assert scored([deal], players=["A", "B", "C", "D"], first_dealer=2).sheet.pool == [2, 0, 0, 0]


def test_name_rules() -> None:
    with pytest.raises(SessionInvalid) as exc:
        parse_session(session([], players=["Anna", " ", "x" * 500]))
    assert [p.render() for p in exc.value.problems] == [
        "players.1: a player name must not be empty",
        "players.2: a player name is at most 40 characters",
    ]


def test_currency_and_price() -> None:
    with pytest.raises(SessionInvalid) as exc:
        parse_session(session([], currency="XYZ", whist_price="1,5"))
    assert sorted(p.render() for p in exc.value.problems) == [
        "currency: 'XYZ' is not an ISO 4217 currency code",
        "whist_price: the whist price is a decimal string like '1.00' or a fraction like '1/60'",
    ]


def test_a_whist_price_may_be_an_exact_fraction() -> None:
    from scorepad.report.pulya import to_data

    # The format's own example (Boris 7♠ made, Vera whists alone for 3): balance −40/3, 44/3,
    # −4/3 whists; at 1/3 RUB a whist −40/9, 44/9, −4/9, rounded once: −4.44, 4.89, −0.45.
    deal = {
        "type": "game",
        "declarer": 1,
        "contract": "7S",
        "calls": ["whist", "pass"],
        "tricks": {"1": 7, "2": 3, "0": 0},
    }
    s = parse_session(session([deal], whist_price="1/3"))
    assert s.price == Fraction(1, 3)
    out = to_data(scored([deal], whist_price="1/3"))
    assert out["balance"] == ["-40/3", "44/3", "-4/3"]
    assert out["money"] == ["-4.44", "4.89", "-0.45"]
    assert dump_session(s).count('"whist_price": "1/3"') == 1


def test_running_entries_as_on_paper() -> None:
    from scorepad.scoring.pulya.sheet import running_entries

    s = scored(
        [
            {"type": "game", "declarer": 0, "contract": "7S", "calls": []},
            {"type": "game", "declarer": 0, "contract": "6S", "calls": []},
            {
                "type": "game",
                "declarer": 1,
                "contract": "6S",
                "calls": ["whist"],
                "tricks": {"1": 5, "2": 4, "0": 1},
            },
            {"type": "game", "declarer": 0, "contract": "7H", "calls": []},
        ]
    )
    run = running_entries([d.writing for d in s.deals], 3)
    assert run.pool[0] == [4, 6, 10]  # «4, 6, 10» (HIST): each total after the last
    assert (
        run.gora[1] == [2] and run.whists[2][1] == [12] and run.whists[0][1] == [2]
    )  # one entry a deal
