"""The Balkan bula family: every worked example of central-european §4.6, and its invariants."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.i18n import msg
from scorepad.scoring.ledger.bula import (
    BulaAllPass,
    BulaError,
    BulaGame,
    BulaSettings,
    BulaTable,
    PikNoContra,
    results,
)
from scorepad.scoring.ledger.ledger import Account, Posting

A, B, C = 0, 1, 2


def game(
    declarer: int,
    bid: int,
    defence: dict[int, str],
    tricks: dict[int, int] | None = None,
    **extra: Any,
) -> BulaGame:
    return BulaGame.model_validate(
        {
            "type": "game",
            "declarer": declarer,
            "bid": bid,
            "defence": defence,
            "tricks": tricks,
            **extra,
        }
    )


def supe(t: BulaTable, writer: int, on: int) -> Any:
    return t.ledger.get("supe", writer, on)


def test_d_e1_pagats_own_sheet_and_settling_now() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    # Row 2: C plays karo (3 → v 6) and makes it; A and B follow with 2 tricks each.
    t.play(game(C, 3, {A: "follow", B: "follow"}, {C: 6, A: 2, B: 2}))
    assert t.bulas == [30, 30, 24]
    assert (supe(t, A, C), supe(t, B, C)) == (12, 12)
    # Row 3: B plays tref (10); C follows alone and takes 3.
    t.play(game(B, 5, {A: "pass", C: "follow"}, {B: 7, C: 3}))
    assert t.bulas == [30, 20, 24]
    assert supe(t, C, B) == 30
    # Row 4: all pass: every player gets a refe.
    t.play(BulaAllPass(type="allpass"))
    assert t.refe == [1, 1, 1]
    # Row 5: A plays tref on his refe (×2 = 20), takes 7; B passes; C takes 3.
    t.play(game(A, 5, {B: "pass", C: "follow"}, {A: 7, C: 3}))
    assert t.bulas == [10, 20, 24]
    assert supe(t, C, A) == 60
    assert t.refe == [0, 1, 1]
    # «Settling now»: 54/3 = 18 each → ×10 → +80, −20, −60; with the supe: +32, −38, +6.
    assert results(t) == (32, -38, 6)
    assert not t.finished


def test_d_e2_a_finished_serbian_sheet() -> None:
    # Pedja 320 / −20 / 160, Marko 120 / 4 / 60, Johnny 20 / 16 / 60 (left / bula / right);
    # Pedja's left on Johnny, right on Marko; Marko's left on Pedja, right on Johnny;
    # Johnny's left on Marko, right on Pedja.
    P, M, J = 0, 1, 2
    t = BulaTable.start(BulaSettings(start_bula=30), ["Pedja", "Marko", "Johnny"])
    why = msg("test")
    t.ledger.post(
        [
            Posting(Account("bula", P), -50, why),
            Posting(Account("bula", M), -26, why),
            Posting(Account("bula", J), -14, why),
            Posting(Account("supe", P, J), 320, why),
            Posting(Account("supe", P, M), 160, why),
            Posting(Account("supe", M, P), 120, why),
            Posting(Account("supe", M, J), 60, why),
            Posting(Account("supe", J, M), 20, why),
            Posting(Account("supe", J, P), 60, why),
        ]
    )
    assert t.bulas == [-20, 4, 16] and t.finished
    # D11: Pedja 200 + 480 − 180 = +500; Marko −40 + 180 − 180 = −40; Johnny −160 + 80 − 380 = −460.
    assert results(t) == (500, -40, -460)


def test_d_e3_herc_beaten_against_an_inviter() -> None:
    marko, nada, ognjen = 0, 1, 2
    t = BulaTable.start(BulaSettings(start_bula=50), ["Marko", "Nada", "Ognjen"])
    t.play(game(marko, 4, {nada: "invite", ognjen: "invited"}, {marko: 5, nada: 3, ognjen: 2}))
    # Defence 5, play stops: Marko 50 → 58; Nada writes 5 × 8 = 40; Ognjen nothing.
    assert t.bulas == [58, 50, 50]
    assert supe(t, nada, marko) == 40
    assert supe(t, ognjen, marko) == 0


def test_d_e4_subkontra() -> None:
    marko, nada, ognjen = 0, 1, 2
    t = BulaTable.start(BulaSettings(start_bula=50), ["Marko", "Nada", "Ognjen"])
    # Herc; kontra, rekontra, subkontra: level 3, ×8 → unit 64; Ognjen is treated as invited.
    t.play(
        game(
            marko,
            4,
            {nada: "follow", ognjen: "pass"},
            {marko: 5, nada: 4, ognjen: 1},
            contra={"by": nada, "level": 3},
        )
    )
    assert t.bulas == [50 + 64, 50, 50]
    assert supe(t, nada, marko) == 5 * 64 == 320
    assert supe(t, ognjen, marko) == 0


@pytest.mark.parametrize(("hand", "penalty", "each"), [(False, 12, 60), (True, 14, 70)])
def test_d_e5_betl_fails(hand: bool, penalty: int, each: int) -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    t.play(game(A, 6, {B: "follow", C: "follow"}, {A: 1, B: 2, C: 1}, hand=hand))
    assert t.bulas == [30 + penalty, 30, 30]
    assert (supe(t, B, A), supe(t, C, A)) == (each, each)


def _bulas(t: BulaTable, target: list[int]) -> None:
    """Bring the bulas to ``target`` (a position to start a worked example from)."""
    why = msg("test")
    t.ledger.post(
        Posting(Account("bula", p), v - b, why)
        for p, (v, b) in enumerate(zip(target, t.bulas, strict=False))
    )


def test_d_e6_the_last_game_is_truncated() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    _bulas(t, [0, 4, 0])
    # C plays tref (10), makes 6; A 3, B 1: 10 > 4 → C writes −4, supe scaled 4/10.
    t.play(game(C, 5, {A: "follow", B: "follow"}, {C: 6, A: 3, B: 1}))
    assert t.bulas == [0, 4, -4]
    assert (supe(t, A, C), supe(t, B, C)) == (12, 4)
    assert t.finished
    assert results(t) == (12, -36, 24)
    with pytest.raises(BulaError, match="the game is over"):
        t.play(BulaAllPass(type="allpass"))


def test_d10_the_last_games_supe_sentence_states_the_scale() -> None:
    from scorepad.core.i18n import catalog
    from scorepad.scoring.ledger.ledger import explanations

    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    _bulas(t, [0, 4, 0])
    # D-E6: 4 left of tref's 10; A's 3 tricks write 3 × 10 × 4/10 = 12, B's 1 × 10 × 4/10 = 4.
    said = [
        catalog("en").render(m)
        for m in explanations(t.play(game(C, 5, {A: "follow", B: "follow"}, {C: 6, A: 3, B: 1})))
    ]
    assert said == [
        "C made tref, the last game: bula −4, what was left",
        "A writes 12 supe on C (3 × 10 × 4/10, the last game)",
        "B writes 4 supe on C (1 × 10 × 4/10, the last game)",
    ]


def test_d10_a_herc_with_six_left_writes_two_tricks_at_six_eighths() -> None:
    from scorepad.core.i18n import catalog
    from scorepad.scoring.ledger.ledger import explanations

    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    _bulas(t, [0, 6, 0])
    out = t.play(game(A, 4, {B: "follow", C: "pass"}, {A: 8, B: 2}))
    assert t.bulas == [-6, 6, 0] and supe(t, B, A) == 12  # 2 × 8 × 6/8
    said = [catalog("en").render(m) for m in explanations(out)]
    assert said[1] == "B writes 12 supe on A (2 × 8 × 6/8, the last game)"


@pytest.mark.parametrize(
    "settings",
    [
        {},
        {"pik_without_contra": "made"},
        {"pik_without_contra": "slovenia"},
        {"pik_on_refe_played": True},
    ],
)
def test_d9_a_pik_with_the_talon_nobody_follows_is_not_a_game(settings: dict[str, Any]) -> None:
    # §9.3, D9: pik with the talon and no contra is pik_no_contra; both passing is that event.
    t = BulaTable.start(BulaSettings(start_bula=30, **settings), ["A", "B", "C"])
    with pytest.raises(BulaError, match="write it as pik without contra") as err:
        t.play(game(A, 2, {B: "pass", C: "pass"}))
    assert err.value.field == "defence"
    assert t.bulas == [30, 30, 30] and t.refe == [0, 0, 0]
    # By hand («igra») it is a game like any other: deemed made, −6 (D5).
    t.play(game(A, 2, {B: "pass", C: "pass"}, hand=True))
    assert t.bulas == [24, 30, 30]


@pytest.mark.parametrize(
    "settings",
    [{"pik_without_contra": "play"}, {"pik_on_refe_played": True}, {"pik_without_contra": "made"}],
)
def test_d9_where_the_setting_plays_such_a_pik_the_game_form_is_written(
    settings: dict[str, Any],
) -> None:
    t = BulaTable.start(BulaSettings(start_bula=30, **settings), ["A", "B", "C"])
    if settings != {"pik_without_contra": "play"}:
        t.play(BulaAllPass(type="allpass"))  # these two play it only on a refe
    t.play(game(A, 2, {B: "pass", C: "pass"}))
    # D5: deemed made; on a refe (D8) −4 × 2.
    assert t.bulas[A] == (26 if settings == {"pik_without_contra": "play"} else 22)


def test_d_e7_double_fall() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30, last_game="double_fall"), ["A", "B", "C"])
    _bulas(t, [0, 6, 0])
    # 6 left; A plays herc (8) and fails, B took 5: falls 2 × 8 = 16; B writes 5 × 8 = 40.
    t.play(game(A, 4, {B: "follow", C: "pass"}, {A: 3, B: 5}))
    assert t.bulas == [16, 6, 0]
    assert supe(t, B, A) == 40


def test_d_e8_the_seed_pot_form() -> None:
    marko, nada, ognjen = 0, 1, 2
    t = BulaTable.start(BulaSettings(scoring="pot", ante=100), ["Marko", "Nada", "Ognjen"])
    # Marko tref (b = 5), both follow, 6-2-2: +100 from the pot, 2 × 5 per trick to each.
    t.play(game(marko, 5, {nada: "follow", ognjen: "follow"}, {marko: 6, nada: 2, ognjen: 2}))
    assert [t.ledger.get("cash", p) for p in range(3)] == [-40, -80, -80]
    assert t.ledger.get("pot") == 200
    # Nada betl (b = 6) takes a trick: pays 120 into the pot.
    t.play(game(nada, 6, {marko: "follow", ognjen: "follow"}, {nada: 1, marko: 5, ognjen: 4}))
    assert t.ledger.get("pot") == 320
    assert results(t) == (Fraction(200, 3), Fraction(-280, 3), Fraction(80, 3))


def test_a_lone_follower_short_of_two_fails_and_still_writes_his_supe() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    t.play(game(A, 3, {B: "follow", C: "pass"}, {A: 9, B: 1}))
    # D2 −6; D4: B < 2 → +6; B still writes 1 × 6.
    assert t.bulas == [24, 36, 30]
    assert supe(t, B, A) == 6


def test_two_followers_with_four_together_never_fail_however_split() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    t.play(game(A, 4, {B: "follow", C: "follow"}, {A: 6, B: 4, C: 0}))
    assert t.bulas == [22, 30, 30]
    t.play(game(A, 4, {B: "follow", C: "follow"}, {A: 7, B: 3, C: 0}))
    # < 4 together: C with 0 (< 2) fails, B with 3 does not.
    assert t.bulas == [14, 30, 38]


def test_both_pass_counts_as_made_and_uses_a_refe() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    t.play(BulaAllPass(type="allpass"))
    t.play(game(A, 5, {B: "pass", C: "pass"}))
    assert t.bulas == [10, 30, 30]  # D5 and D8: 10 × 2
    assert t.refe == [0, 1, 1]


def test_no_refe_while_a_bula_is_under_the_hat_or_past_the_limit() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30, refe_limit=1), ["A", "B", "C"])
    t.play(BulaAllPass(type="allpass"))
    t.play(BulaAllPass(type="allpass"))
    assert t.refe == [1, 1, 1] and t.refe_rounds == 1
    t2 = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    _bulas(t2, [-2, 40, 30])
    t2.play(BulaAllPass(type="allpass"))
    assert t2.refe == [0, 0, 0]


def test_pik_without_contra_refe_then_counted_made() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30, refe_limit=1), ["A", "B", "C"])
    t.play(PikNoContra(type="pik_no_contra", declarer=A))
    assert t.refe == [1, 1, 1]
    # The limit is reached: A is counted as having made pik, on his refe: −4 × 2.
    t.play(PikNoContra(type="pik_no_contra", declarer=A))
    assert t.bulas == [22, 30, 30] and t.refe == [0, 1, 1]


def test_pik_with_the_talon_needs_a_contra() -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    with pytest.raises(BulaError, match="only under contra") as err:
        t.play(game(A, 2, {B: "follow", C: "follow"}, {A: 6, B: 2, C: 2}))
    assert err.value.field == "contra"
    assert t.bulas == [30, 30, 30]
    t.play(game(A, 2, {B: "follow", C: "follow"}, {A: 6, B: 2, C: 2}, contra={"by": B, "level": 1}))
    # 4 × 2 for A; B's contra needed 5 tricks with C (invited): 4 → B fails, +8 (D4).
    assert t.bulas == [22, 38, 30]


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        (
            dict(bid=6, defence={B: "follow", C: "pass"}, tricks={A: 0, B: 10}),
            "defence",
            "betl is followed by both",
        ),
        (
            dict(bid=4, defence={B: "follow", C: "follow"}, tricks={A: 6, B: 2, C: 1}),
            "tricks",
            "play stops before 10",
        ),
        (
            dict(bid=4, defence={B: "follow", C: "follow"}, tricks={A: 3, B: 4, C: 3}),
            "tricks",
            "cannot have 7",
        ),
        (
            dict(bid=4, defence={B: "pass", C: "follow"}, tricks={A: 6, B: 1, C: 3}),
            "tricks.1",
            "does not play",
        ),
        (
            dict(bid=4, defence={B: "invite", C: "follow"}, tricks={A: 6, B: 2, C: 2}),
            "defence",
            "invitation",
        ),
        (dict(bid=4, defence={B: "pass", C: "pass"}, tricks={A: 10}), "tricks", "write no tricks"),
    ],
)
def test_illegal_deals_are_refused_and_change_nothing(
    deal: dict[str, Any], field: str, words: str
) -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C"])
    with pytest.raises(BulaError, match=words) as err:
        t.play(game(A, **deal))
    assert err.value.field == field
    assert t.bulas == [30, 30, 30] and t.ledger.square("supe", 3) == [[0] * 3] * 3


@st.composite
def bula_deal(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["game", "game", "game", "allpass", "pik"]))
    d = draw(st.integers(0, 2))
    if kind == "allpass":
        return {"type": "allpass"}
    if kind == "pik":
        return {"type": "pik_no_contra", "declarer": d}
    o1, o2 = [p for p in range(3) if p != d]
    bid = draw(st.integers(3, 7))
    roles = draw(
        st.sampled_from(
            [
                ("follow", "follow"),
                ("follow", "pass"),
                ("pass", "follow"),
                ("invite", "invited"),
                ("pass", "pass"),
            ]
        )
    )
    if bid == 6:
        roles = ("follow", "follow")
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": d,
        "bid": bid,
        "hand": draw(st.booleans()),
        "defence": {o1: roles[0], o2: roles[1]},
    }
    if roles == ("pass", "pass"):
        return deal
    if bid != 6 and roles[0] == "follow" and draw(st.booleans()):
        deal["contra"] = {"by": o1, "level": draw(st.integers(1, 4))}
    playing = [d] + [
        p for p, r in ((o1, roles[0]), (o2, roles[1])) if r != "pass" or "contra" in deal
    ]
    defence = draw(st.integers(0, 5))
    dt = 10 - defence if defence < 5 else draw(st.integers(0, 5))
    if bid == 6:
        dt = draw(st.integers(0, 3))
        defence = 10 - dt if dt == 0 else draw(st.integers(0, 10 - dt))
    split = draw(st.integers(0, defence))
    defs = playing[1:]
    tricks = {d: dt}
    if len(defs) == 1:
        tricks[defs[0]] = defence
    else:
        tricks[defs[0]], tricks[defs[1]] = split, defence - split
    deal["tricks"] = tricks
    return deal


@settings(max_examples=150, deadline=None)
@given(
    st.lists(bula_deal(), max_size=25),
    st.sampled_from(["bula", "pot"]),
    st.sampled_from(["truncate", "full", "double_fall"]),
    st.sampled_from([3, 4]),
)
def test_results_are_zero_sum_and_a_replay_is_identical(
    deals: list[dict[str, Any]], scoring: str, last: str, n: int
) -> None:
    from pydantic import TypeAdapter
    from support.four import seated

    from scorepad.scoring.ledger.bula import BulaDeal

    s = BulaSettings(start_bula=40, scoring=scoring, last_game=last)  # type: ignore[arg-type]

    def run() -> tuple[Any, ...]:
        t = BulaTable.start(s, ["A", "B", "C", "D"][:n], first_dealer=n - 1)
        for d in deals:
            dealer = t.dealer

            def his(dealer: int = dealer) -> tuple[Any, ...]:
                sq = t.ledger.square("supe", n)
                on = [row[dealer] for row in sq]
                return t.ledger.get("bula", dealer), t.ledger.get("cash", dealer), sq[dealer], on

            before = his()
            with contextlib.suppress(BulaError):
                t.play(TypeAdapter(BulaDeal).validate_python(seated(d, n, t.dealer)))
                if n == 4:  # the dealer sat out: his bula, cash and supe did not move
                    assert his() == before and t.dealer == (dealer + 1) % 4
        return results(t), tuple(sorted(t.ledger.totals.items()))

    first = run()
    assert sum(first[0]) == 0
    assert run() == first


def test_a_hat_when_a_bula_reaches_zero_and_a_crossed_hat_when_it_comes_back() -> None:
    t = BulaTable.start(BulaSettings(start_bula=10), ["A", "B", "C"])
    t.play(game(A, 5, {B: "follow", C: "follow"}, {A: 6, B: 2, C: 2}))  # 10 − 10 = 0
    assert t.bulas[A] == 0 and t.hats[A] == ["hat"]
    t.play(game(A, 3, {B: "follow", C: "follow"}, {A: 6, B: 2, C: 2}))  # 0 − 6 = −6
    assert t.hats[A] == ["hat"]
    t.play(game(A, 4, {B: "follow", C: "follow"}, {A: 5, B: 3, C: 2}))  # −6 + 8 = 2
    assert t.bulas[A] == 2 and t.hats[A] == ["hat", "crossed"]


def test_four_players_the_dealer_sits_out_d_e1_around_a_fourth() -> None:
    # §4.1: with four the dealer «suši se».  D-E1's deals with Dora at the table; the dealer
    # rotates from Dora (seat 3) and sits out each deal.
    A4, B4, C4, D4 = 0, 1, 2, 3
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C", "Dora"], first_dealer=D4)
    t.play(game(C4, 3, {A4: "follow", B4: "follow"}, {C4: 6, A4: 2, B4: 2}))  # Dora deals
    t.play(game(B4, 5, {C4: "follow", D4: "pass"}, {B4: 7, C4: 3}))  # A deals
    t.play(BulaAllPass(type="allpass", dealer=B4))  # a refe for every player of the sheet
    assert t.refe == [1, 1, 1, 1]
    t.play(game(A4, 5, {B4: "pass", D4: "follow"}, {A4: 7, D4: 3}, dealer=C4))
    assert t.bulas == [10, 20, 24, 30] and t.left == 84
    assert (supe(t, A4, C4), supe(t, B4, C4), supe(t, C4, B4), supe(t, D4, A4)) == (12, 12, 30, 60)
    # D11 over four: avg 21; A 110 + 12 − 60, B 10 + 12 − 30, C −30 + 30 − 24, Dora −90 + 60.
    assert results(t) == (62, -8, -24, -30)
    assert t.dealer == D4


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        (dict(declarer=3, bid=4, defence={0: "follow", 1: "follow"}), "declarer", "sits out"),
        (
            dict(declarer=0, bid=4, defence={1: "follow", 3: "follow"}, tricks={0: 6, 1: 2, 3: 2}),
            "defence",
            "two other players",
        ),
        (
            dict(declarer=0, bid=4, defence={1: "follow", 2: "pass"}, tricks={0: 6, 1: 2, 3: 2}),
            "tricks.3",
            "does not play",
        ),
        (dict(declarer=0, bid=4, defence={1: "pass", 2: "pass"}, dealer=1), "dealer", "rotation"),
    ],
)
def test_four_players_the_sitting_out_dealer_plays_no_part(
    deal: dict[str, Any], field: str, words: str
) -> None:
    t = BulaTable.start(BulaSettings(start_bula=30), ["A", "B", "C", "D"], first_dealer=3)
    with pytest.raises(BulaError, match=words) as err:
        t.play(game(**deal))
    assert err.value.field == field
    assert t.bulas == [30] * 4 and t.dealer == 3
