"""Issue 9: two wrong figures, and the house rules real tables play, each from its rule's text.

Seats as in test_worked_deals: the declarer is Anna (0), Boris (1) speaks first, Vera (2)
second; with four players Gleb (3) deals and sits out.  ``whists[a][b]`` is what a wrote on b.
Sochi prices unless said: a six is worth 2 a trick (whists, gora, consolation alike).
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import explain, one, run_cli, scored
from conftest import session as session_dict
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import SessionInvalid, parse_session

DEC, B, V, G = 0, 1, 2, 3
FOUR = {"players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": G}


def game(
    contract: str, calls: list[str] | None, tricks: dict[int, int] | None, **extra: object
) -> dict[str, Any]:
    d: dict[str, object] = {"type": "game", "declarer": DEC, "contract": contract}
    if calls is not None:
        d["calls"] = calls
    if tricks is not None:
        d["tricks"] = {str(k): v for k, v in tricks.items()}
    d.update(extra)
    return d


# --- 1. the sitting-out dealer's own consolation obeys consolation_to_dealer ------------------


def test_dealer_returns_whist_without_consolation_to_dealer_writes_20() -> None:
    # §11: 6♠, pass–half–pass–whist, declarer took 4 (down 2), the defence 6.
    # Tricks: 6 × 2 = 12; the two players' consolations 2 × (2 undertricks × 2) = 8;
    # the dealer's own consolation (2 × 2 = 4) only where consolation_to_dealer: here not.
    w = one(
        game("6S", ["pass", "half", "pass", "whist"], {0: 4, 1: 3, 2: 3}),
        overrides={"consolation_to_dealer": False},
        **FOUR,
    )
    assert w.whists[G][DEC] == 20  # 12 + 8
    assert w.whists[B][DEC] == 0 and w.whists[V][DEC] == 0
    assert w.gora == [4, 0, 0, 0]  # 2 undertricks × 2


def test_dealer_whists_eight_after_two_passes_without_consolation_to_dealer() -> None:
    # §11: 8♠, pass–pass–whist (the dealer whists for both), declarer took 7: down 1.
    # Tricks: 3 × 6 = 18; the two players' consolations 2 × (1 × 6) = 12; his own 6 not
    # written (consolation_to_dealer false): 30.  With the setting true: 36.
    deal = game("8S", ["pass", "pass", "whist"], {0: 7, 1: 2, 2: 1})
    off = one(deal, overrides={"consolation_to_dealer": False}, **FOUR)
    on = one(deal, **FOUR)
    assert off.whists[G][DEC] == 30
    assert on.whists[G][DEC] == 36


# --- 2. raspasy_amnesty with all-passes paid in whists (Kodex fn 46) -------------------------


def test_whist_raspasy_with_amnesty_takes_the_least_off_everyone() -> None:
    # §8.2: tricks A 2, B 3, C 5 at 5 a trick.  The amnesty takes the least (2) off every
    # count: 0, 1, 3.  A (the fewest) writes 1 × 5 = 5 on B and 3 × 5 = 15 on C.
    raspasy = {"type": "raspasy", "tricks": {"0": 2, "1": 3, "2": 5}}
    w = one(raspasy, convention="rostov", overrides={"raspasy_amnesty": True})
    assert (w.whists[0][1], w.whists[0][2]) == (5, 15)
    plain = one(raspasy, convention="rostov")
    assert (plain.whists[0][1], plain.whists[0][2]) == (15, 25)  # 3 × 5, 5 × 5 (§8.2)


# --- 3. a conceded game with a talon premium: the premium is written ---------------------------


def test_conceded_game_keeps_the_talon_premium() -> None:
    # §12 «без трёх»: a six given up costs 3 × 2 = 6 gora and no whists for tricks.  The talon
    # premium (§11) is for the talon, which the declarer took before giving up: an ace is one
    # trick at the six's per-trick price, 1 × 2 = 2 whists, written by the sitting-out dealer.
    deal = game("6S", None, None, conceded=3, talon_bonus=1)
    four = one(deal, overrides={"concede": 3, "talon_bonus": True}, **FOUR)
    assert four.gora == [6, 0, 0, 0]
    assert [four.whists[s][DEC] for s in (B, V, G)] == [0, 0, 2]
    # Three players (FSPR 6.4): each opponent writes half of the 2: 1 each.
    three = one(deal, overrides={"concede": 3, "talon_bonus_three": True})
    assert three.gora == [6, 0, 0]
    assert (three.whists[B][DEC], three.whists[V][DEC]) == (1, 1)


# --- 4. ten_checked_whists ---------------------------------------------------------------------


def test_checked_ten_writes_nothing_for_the_defence_when_off() -> None:
    # A checked ten down one (D5): the declarer writes 1 × 10 = 10 gora either way.  With the
    # defence writing (default) Boris 10 + 10 = 20, Vera 10 consolation; off: nothing at all.
    deal = game("10NT", None, {DEC: 9, B: 1, V: 0})
    on = one(deal)
    off = one(deal, overrides={"ten_checked_whists": False})
    assert (on.whists[B][DEC], on.whists[V][DEC]) == (20, 10)
    assert off.gora == [10, 0, 0] and not any(any(row) for row in off.whists)
    assert explain(off) == [
        "Anna failed 10NT, down 1: 10 into the gora.",
        "The ten was checked: the defenders write no whists.",
    ]
    assert explain(off, "ru") == [
        "Anna: без одной на 10БК, 10 в гору.",
        "Десятерная проверялась: защитники висты не пишут.",
    ]
    # Four players: the sitting-out dealer writes no consolation on it either.
    four = one(deal, overrides={"ten_checked_whists": False}, **FOUR)
    assert four.gora == [10, 0, 0, 0] and not any(any(row) for row in four.whists)


# --- 5. gentleman whist on a made contract (FSPR) ---------------------------------------------


def test_gentleman_split_on_a_made_contract() -> None:
    # Leningrad 6♣, Boris whists, Vera passes; the declarer makes 6, the defence took 4
    # (Boris 3, Vera 1).  Per trick 2 × 2 = 4 whists: 4 × 4 = 16, halved: 8 each.
    deal = game("6C", ["whist", "pass"], {DEC: 6, B: 3, V: 1})
    split = one(deal, convention="leningrad", overrides={"gentleman_on_made": True})
    assert (split.whists[B][DEC], split.whists[V][DEC]) == (8, 8)
    assert split.pool[DEC] == 2
    assert explain(split)[-1] == (
        "Gentleman whist on a made contract: Boris and Vera split 4 tricks × 4 = 16: "
        "8 whists each on Anna."
    )
    assert explain(split, "ru")[-1] == (
        "Джентльменский вист при сыгранной игре: 4 взятки × 4 = 16 пополам; "
        "Boris и Vera → Anna: по 8 вистов."
    )
    today = one(deal, convention="leningrad")  # the lone whister writes all 16 (§4.2)
    assert (today.whists[B][DEC], today.whists[V][DEC]) == (16, 0)
    # A failed contract is split as before (D7): 4 × (5 + 1 + 1) / 2 = 14 each.
    d7 = one(
        game("6C", ["whist", "pass"], {DEC: 5, B: 5, V: 0}),
        convention="leningrad",
        overrides={"gentleman_on_made": True},
    )
    assert (d7.whists[B][DEC], d7.whists[V][DEC]) == (14, 14)


# --- 6. the talon premium with 3 players (FSPR 6.4) ------------------------------------------


def test_talon_premium_with_three_players_is_halved_between_the_opponents() -> None:
    # A marriage in the talon on a nine: 1 trick × 8 = 8 (the §11 example); with 3 players each
    # opponent writes half, 4, on top of the trick whists: Boris whisted alone and the defence
    # took 1 trick, 1 × 8 = 8, so Boris 8 + 4 = 12, Vera (passed) 4.
    w = one(
        game("9S", ["whist", "pass"], {DEC: 9, B: 1, V: 0}, talon_bonus=1),
        overrides={"talon_bonus_three": True},
    )
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (12, 4)
    assert (
        explain(w)[0] == "Boris writes half the talon premium: 1 trick × 8 / 2 = 4 whists on Anna."
    )


def test_talon_premium_with_three_players_needs_the_setting() -> None:
    data = session_dict([game("9S", ["whist", "pass"], {DEC: 9, B: 1, V: 0}, talon_bonus=1)])
    with pytest.raises(SessionInvalid) as exc:
        replay(parse_session(data))
    assert [(p.deal, p.field, p.message.render()) for p in exc.value.problems] == [
        (
            0,
            "talon_bonus",
            "a talon premium needs a convention with talon_bonus (4 players) "
            "or talon_bonus_three (3 players)",
        )
    ]


# --- 7. a whisting dealer without liability ---------------------------------------------------


def test_whisting_dealer_not_liable_for_the_shortfall() -> None:
    # 8♠, pass–pass–whist: the dealer whists for both; the declarer takes all 10, the defence
    # none of its 1 obligatory trick.  Kodex (liable): 1 × 6 = 6 into the dealer's gora.
    # «за недобор взяток не отвечает»: nothing.  The declarer's 6 go into his pulya either way.
    deal = game("8S", ["pass", "pass", "whist"], {0: 10, 1: 0, 2: 0})
    liable = one(deal, **FOUR)
    free = one(deal, overrides={"dealer_whist_liable": False}, **FOUR)
    assert liable.gora == [0, 0, 0, 6]
    assert free.gora == [0, 0, 0, 0]
    assert liable.pool[DEC] == free.pool[DEC] == 6


# --- 8. a whisting dealer writes one consolation (FSPR) ---------------------------------------


def test_whisting_dealer_writes_one_consolation() -> None:
    # §11: 6♠ pass–half–pass–whist, declarer down 2.  All (today): 12 + 8 + 4 = 24.
    # One consolation: 6 × 2 = 12 for the tricks + 2 × 2 = 4 once = 16; the players nothing.
    deal = game("6S", ["pass", "half", "pass", "whist"], {0: 4, 1: 3, 2: 3})
    w = one(deal, overrides={"dealer_whist_consolation": "one"}, **FOUR)
    assert [w.whists[s][DEC] for s in (B, V, G)] == [0, 0, 16]
    assert one(deal, **FOUR).whists[G][DEC] == 24


# --- 9. the overruled half-whister's consolation lapses (FSPR) ---------------------------------


def test_returned_whist_half_whisters_consolation_lapses() -> None:
    # D4: 7♦ pass–half–whist, Boris returned and took 4, the declarer 6 (down 1), price 4.
    # Returner: 4 × 4 = 16 + his own 1 × 4 = 4; Vera's 4 lapses: 20 (today 24).
    w = one(
        game("7D", ["pass", "half", "whist"], {DEC: 6, B: 4, V: 0}),
        overrides={"returned_half_consolation": "lapses"},
    )
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (20, 0)
    assert "Vera went half-whist and was overruled: that consolation lapses." in explain(w)
    assert "Vera: полвиста, но вист возвращён — эта консоляция пропадает." in explain(w, "ru")
    # Four players, the dealer returns over Vera's half: 6 × 2 = 12 + Boris's consolation
    # 2 × 2 = 4 + his own 4 = 20; Vera's 4 lapses.
    four = one(
        game("6S", ["pass", "half", "pass", "whist"], {0: 4, 1: 3, 2: 3}),
        overrides={"returned_half_consolation": "lapses"},
        **FOUR,
    )
    assert four.whists[G][DEC] == 20


# --- 10. the no-trick reward: k × the current trick price, pool or gora ------------------------


def test_zero_trick_reward_k_times_the_current_price_off_the_gora() -> None:
    # Tricks Anna 0, Boris 4, Vera 6; amnesty by the least (0) changes nothing.  1st all-pass,
    # price 1: Boris 4, Vera 6 into the gora; Anna took none: 2 × 1 = 2 off her gora (-2).
    # 2nd in a row, price 1 × 2 = 2: Boris 8, Vera 12 more; Anna 2 × 2 = 4 off: -6 in all.
    deal = {"type": "raspasy", "tricks": {"0": 0, "1": 4, "2": 6}}
    s = scored(
        [deal, deal],
        overrides={"raspasy_zero_target": "gora", "raspasy_zero_tricks": 2},
    )
    assert [r.writing.gora for r in s.deals] == [[-2, 4, 6], [-4, 8, 12]]
    assert s.sheet.gora == [-6, 12, 18] and s.sheet.pool == [0, 0, 0]
    # The pool form: 2 × 1 = 2, then 2 × 2 = 4 into Anna's pulya.
    p = scored([deal, deal], overrides={"raspasy_zero_tricks": 2})
    assert [r.writing.pool[0] for r in p.deals] == [2, 4]


def test_zero_trick_reward_not_for_the_dealer_fspr() -> None:
    # Four players, the dealer's talon took none, nor did Anna: tricks 0/4/6/0.  FSPR 6.5:
    # not the dealer: only Anna gets the 1 × 1 = 1.  With the reward for the dealer: both.
    deal = {"type": "raspasy", "tricks": {"0": 0, "1": 4, "2": 6, "3": 0}}
    fspr = one(deal, overrides={"raspasy_dealer_zero": False}, **FOUR)
    assert fspr.pool == [1, 0, 0, 0]
    assert one(deal, **FOUR).pool == [1, 0, 0, 1]


# --- 11. overflow off the gora at the pool/gora ratio -----------------------------------------


def test_overflow_off_the_gora_at_the_pool_point_ratio() -> None:
    # Target 2: three sixes nobody whists close every pool (2 each).  Anna then makes a seven
    # nobody whists: 4 pool points nobody can take.  At 20 whists a pool point and 10 a gora
    # point: 4 × 20 / 10 = 8 off Anna's gora; point for point (Kodex §4.1.1): 4.
    deals = [
        {"type": "game", "declarer": seat, "contract": c, "calls": []}
        for seat, c in ((0, "6S"), (1, "6S"), (2, "6S"), (0, "7S"))
    ]
    ratio = {"help_overflow": "gora_ratio", "pool_point_whists": 20}
    w = scored(deals, pool_target=2, overrides=ratio)
    assert w.sheet.gora == [-8, 0, 0] and w.sheet.pool == [2, 2, 2]
    assert explain(w.deals[3].writing)[-1] == (
        "Every pulya is closed: Anna takes 4 × 20/10 = 8 off the gora."
    )
    assert scored(deals, pool_target=2, overrides={"pool_point_whists": 20}).sheet.gora == [
        -4,
        0,
        0,
    ]
    # 15 whists a pool point: 4 × 15 / 10 = 6.
    odd = scored(deals, pool_target=2, overrides={**ratio, "pool_point_whists": 15})
    assert odd.sheet.gora == [-6, 0, 0]


# --- the settings spec lists every new setting in both languages --------------------------------

NEW = {
    "ten_checked_whists": "True",
    "gentleman_on_made": "False",
    "talon_bonus_three": "False",
    "dealer_whist_liable": "True",
    "dealer_whist_consolation": "'all'",
    "returned_half_consolation": "'returner'",
    "raspasy_zero_tricks": "1",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_conventions_verbose_lists_the_new_settings(lang: str) -> None:
    from scorepad.core.i18n import catalog
    from scorepad.scoring.pulya.convention import Settings

    done = run_cli("conventions", "-v", "--lang", lang)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    sochi = lines[lines.index(next(x for x in lines if x.startswith("sochi "))) :]
    cat = catalog(lang)
    for name, value in NEW.items():
        text = cat.gettext(Settings.model_fields[name].description or "")
        assert f"    {name} = {value}  # {text}" in sochi, name
    assert (
        "fspr         ФСПР: Турнирные правила на основе Кодекса: джентльменский вист и при "
        "сыгранной игре, премия за прикуп втроём и вчетвером, вистующий сдающий пишет одну "
        "консоляцию." in lines
        if lang == "ru"
        else "piter-home   Piter (home rules): Piter with closed pools: help to the highest pool "
        "at 20 whists a point, points nobody can take come off the gora twice over." in lines
    )
