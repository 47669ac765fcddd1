"""All-pass (распасы): trick price, progression, amnesty, zero-trick reward, exits (§9.2, §8.2, §11)."""

from __future__ import annotations

import pytest

from conftest import explain, one, scored
from scorepad.scoring.pulya.session import SessionInvalid


def rasp(*tricks: int) -> dict[str, object]:
    return {"type": "raspasy", "tricks": {str(i): t for i, t in enumerate(tricks)}}


def test_kodex_amnesty_4_3_3() -> None:
    w = one(rasp(4, 3, 3))
    assert w.gora == [1, 0, 0]  # «first player writes for 1 trick, others nothing»
    assert "Amnesty: 3 tricks off everyone's count." in explain(w)


def test_no_amnesty_when_off() -> None:
    assert one(rasp(4, 3, 3), overrides={"raspasy_amnesty": False}).gora == [4, 3, 3]


def test_zero_tricks_rewarded_with_one_trick_price_in_pool() -> None:
    w = one(rasp(0, 4, 6))
    assert w.pool == [1, 0, 0] and w.gora == [0, 4, 6]
    lw = one(rasp(0, 4, 6), convention="leningrad")
    assert lw.pool == [2, 0, 0] and lw.gora == [0, 8, 12]


def test_piter_zero_tricks_off_the_gora() -> None:
    w = one(rasp(0, 4, 6), convention="piter")
    assert w.pool == [0, 0, 0] and w.gora == [-2, 8, 12]


def test_progression_1_2_3_then_a_six_resets() -> None:
    deals = [
        rasp(1, 3, 6),
        rasp(1, 3, 6),
        rasp(1, 3, 6),
        rasp(1, 3, 6),
        {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]},
        rasp(1, 3, 6),
    ]
    s = scored(deals)
    assert [r.writing.gora for r in s.deals] == [
        [0, 2, 5],
        [0, 4, 10],
        [0, 6, 15],
        [0, 6, 15],
        [0, 0, 0],
        [0, 2, 5],
    ]


def test_leningrad_2_4_6() -> None:
    s = scored([rasp(1, 3, 6)] * 3, convention="leningrad")
    assert [r.writing.gora[2] for r in s.deals] == [10, 20, 30]


def test_hist_sequence_hard_exit_no_exit_by_failure() -> None:
    # raspasy ×1 → six down one → raspasy ×2 → misère failed (a seven was required) →
    # raspasy ×3 → eight made → the next raspasy ×1 (HIST, §9.2).
    overrides = {"raspasy_exit": [6, 7], "raspasy_exit_by_failure": False}
    deals = [
        rasp(1, 3, 6),
        {
            "type": "game",
            "declarer": 1,
            "contract": "6S",
            "calls": ["whist", "whist"],
            "tricks": {"0": 2, "1": 5, "2": 3},
        },
        rasp(1, 3, 6),
        {"type": "misere", "declarer": 0, "tricks": {"0": 2}},
        rasp(1, 3, 6),
        {"type": "game", "declarer": 2, "contract": "8S", "calls": ["pass", "pass"]},
        rasp(1, 3, 6),
    ]
    s = scored(deals, overrides=overrides)
    assert [r.writing.gora[2] for r in s.deals if r.index in (0, 2, 4, 6)] == [5, 10, 15, 5]


def test_exit_level_is_enforced() -> None:
    deals = [
        rasp(1, 3, 6),
        {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]},
    ]
    with pytest.raises(SessionInvalid) as exc:
        scored(deals, convention="piter")
    assert exc.value.render() == ["deal 2: contract: after 1 all-passes the lowest contract is 7"]


def test_piter_failed_contract_does_not_end_the_series() -> None:
    deals = [
        rasp(1, 3, 6),
        {
            "type": "game",
            "declarer": 1,
            "contract": "7S",
            "calls": ["whist", "whist"],
            "tricks": {"0": 2, "1": 6, "2": 2},
        },
        rasp(1, 3, 6),
    ]
    s = scored(deals, convention="piter")
    assert s.deals[2].writing.gora[2] == 20  # 2 × 2: the series went on
    assert s.raspasy_in_row == 2 and s.required_exit == 7


# --- Rostov: raspasy paid in whists (KOD §3.7.2.2; HIST) -------------------------------------


def test_rostov_kodex_6_2_2() -> None:
    w = one(rasp(6, 2, 2), convention="rostov")
    assert w.whists[1][0] == 15 and w.whists[2][0] == 15
    assert w.gora == [0, 0, 0]


def test_rostov_hist_2_3_5() -> None:
    w = one(rasp(2, 3, 5), convention="rostov")
    assert (w.whists[0][1], w.whists[0][2]) == (15, 25)


def test_rostov_hist_0_1_9() -> None:
    w = one(rasp(0, 1, 9), convention="rostov")
    assert (w.whists[0][1], w.whists[0][2], w.pool[0]) == (5, 45, 1)


def test_rostov_hist_2_2_6() -> None:
    w = one(rasp(2, 2, 6), convention="rostov")
    assert (w.whists[0][2], w.whists[1][2]) == (15, 15)


# --- four players: the dealer's talon tricks (§11) -------------------------------------------

FOUR = {"players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": 3}


def test_four_players_dealer_talon_tricks_and_amnesty() -> None:
    w = one(rasp(3, 3, 3, 1), **FOUR)
    assert w.gora == [2, 2, 2, 0]  # the dealer's 1 is the minimum
    w0 = one(rasp(3, 3, 4, 0), **FOUR)
    assert w0.gora == [3, 3, 4, 0] and w0.pool == [0, 0, 0, 1]  # dealer 0: no amnesty, his reward


def test_four_players_piter_dealer_zero_is_lost() -> None:
    w = one(rasp(3, 3, 4, 0), convention="piter", **FOUR)
    assert w.pool == [0, 0, 0, 0] and w.gora == [6, 6, 8, 0]


def test_four_players_rostov_dealer_writes_one_into_the_pool() -> None:
    w = one(rasp(6, 2, 2, 0), convention="rostov", **FOUR)
    assert w.pool == [0, 0, 0, 1]
    assert w.whists[1][0] == 15 and w.whists[2][0] == 15


def test_talon_tricks_bounded() -> None:
    with pytest.raises(SessionInvalid) as exc:
        scored([rasp(3, 2, 2, 3)], **FOUR)
    assert exc.value.render() == [
        "deal 1: tricks: the dealer's talon can win at most 2 tricks here, not 3"
    ]
    with pytest.raises(SessionInvalid):
        scored([rasp(4, 3, 2, 1)], convention="rostov", **FOUR)
