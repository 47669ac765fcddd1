"""The worked deals D1-D17 of rules-research §5.2, and the in-text examples of §3-§4, §11.

Seats: the declarer is Anna (0) unless said; Boris (1) sits on her left and speaks first,
Vera (2) second.  ``whists[a][b]`` is what a wrote on b.
"""

from __future__ import annotations

from fractions import Fraction

from conftest import explain, one

DEC, B, V = 0, 1, 2


def game(
    contract: str,
    calls: list[str] | None,
    tricks: dict[int, int] | None,
    declarer: int = DEC,
    **extra: object,
) -> dict[str, object]:
    d: dict[str, object] = {"type": "game", "declarer": declarer, "contract": contract}
    if calls is not None:
        d["calls"] = calls
    if tricks is not None:
        d["tricks"] = {str(k): v for k, v in tricks.items()}
    d.update(extra)
    return d


def test_d1_sochi_six_both_whist_4_and_1() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 5, B: 4, V: 1}))
    assert w.whists[B][DEC] == 10  # 8 for tricks + 2 consolation
    assert w.whists[V][DEC] == 4  # 2 + 2
    assert w.gora == [2, 0, 0]
    assert w.pool == [0, 0, 0]


def test_d2_sochi_six_both_whist_3_and_2() -> None:
    w = one(game("6C", ["whist", "whist"], {DEC: 5, B: 3, V: 2}))
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (8, 6)


def test_d3_sochi_seven_whist_pass_greedy() -> None:
    w = one(game("7H", ["whist", "pass"], {DEC: 5, B: 5, V: 0}))
    assert w.whists[B][DEC] == 28  # 4 × 5 + 4 × 2
    assert w.whists[V][DEC] == 8  # consolation only
    assert w.gora[DEC] == 8


def test_d4_sochi_seven_half_whist_returned() -> None:
    w = one(game("7D", ["pass", "half", "whist"], {DEC: 6, B: 4, V: 0}))
    assert w.whists[B][DEC] == 24  # 16 + 4 + the half-whister's 4
    assert w.whists[V][DEC] == 0  # the half-whister writes nothing
    assert w.gora[DEC] == 4


def test_d5_sochi_checked_ten_down_one() -> None:
    w = one(game("10NT", None, {DEC: 9, B: 1, V: 0}))
    assert w.whists[B][DEC] == 20  # 10 for the trick + 10 consolation
    assert w.whists[V][DEC] == 10
    assert w.gora[DEC] == 10


def test_d6_leningrad_six_both_whist() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 5, B: 3, V: 2}), convention="leningrad")
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (16, 12)
    assert w.gora[DEC] == 4


def test_d7_leningrad_gentleman_split() -> None:
    w = one(game("6C", ["whist", "pass"], {DEC: 5, B: 5, V: 0}), convention="leningrad")
    assert w.gora[DEC] == 4
    assert w.whists[B][DEC] == 14 and w.whists[V][DEC] == 14  # 4 × (5 + 1 + 1) / 2


def test_d8_leningrad_if_greedy() -> None:
    w = one(
        game("6C", ["whist", "pass"], {DEC: 5, B: 5, V: 0}),
        convention="leningrad",
        overrides={"whist_style": "greedy"},
    )
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (24, 4)


def test_d9_rostov_six_both_whist() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 5, B: 3, V: 2}), convention="rostov")
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (16, 14)


def test_d10_rostov_gentleman() -> None:
    w = one(game("6C", ["pass", "whist"], {DEC: 5, B: 0, V: 5}), convention="rostov")
    assert w.gora[DEC] == 2
    assert (w.whists[V][DEC], w.whists[B][DEC]) == (15, 15)  # (5×2 + 10 + 10) / 2


def test_d11_rostov_if_greedy() -> None:
    w = one(
        game("6C", ["pass", "whist"], {DEC: 5, B: 0, V: 5}),
        convention="rostov",
        overrides={"whist_style": "greedy"},
    )
    assert (w.whists[V][DEC], w.whists[B][DEC]) == (20, 10)


def test_d12_kazakhstan_six_both_whist() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 5, B: 3, V: 2}), convention="kazakhstan")
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (32, 24)


# D13/D14: four players С (declarer), Ю, З, В (dealer), clockwise.
C, YU, Z, VD = 0, 1, 2, 3
FOUR = ["С", "Ю", "З", "В"]


def test_d13_kazakh_over_greedy_four_players() -> None:
    w = one(
        game("6C", ["whist", "whist"], {C: 5, YU: 0, Z: 5}, declarer=C),
        convention="kazakhstan",
        players=FOUR,
        first_dealer=VD,
    )
    assert w.gora == [8, 16, 0, 0]
    assert w.whists[VD][C] == 8  # the dealer's consolation
    assert w.whists[YU][C] == 8  # consolation; he is also short of his own two
    assert w.whists[Z][C] == 48  # 5 × 8 + 8


def test_d14_same_deal_at_sochi_prices() -> None:
    w = one(
        game("6C", ["whist", "whist"], {C: 5, YU: 0, Z: 5}, declarer=C),
        convention="sochi",
        overrides={"whist_quota": "personal"},
        players=FOUR,
        first_dealer=VD,
    )
    assert w.gora == [2, 4, 0, 0]
    assert (w.whists[VD][C], w.whists[YU][C], w.whists[Z][C]) == (2, 2, 12)


FINKA = {"whist_style": "greedy", "passer_consolation": "whister"}


def test_d15_finka_six_down_one() -> None:
    # Four players: Anna declares, Boris whists, Vera passes, Gleb deals.
    w = one(
        game("6S", ["whist", "pass"], {0: 5, 1: 5, 2: 0}),
        convention="leningrad",
        overrides=FINKA,
        players=["Anna", "Boris", "Vera", "Gleb"],
        first_dealer=3,
    )
    assert (w.whists[1][0], w.whists[3][0], w.whists[2][0]) == (28, 4, 0)


def test_d16_finka_eight_down_two_and_seven_down_three() -> None:
    four = {"players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": 3}
    w8 = one(
        game("8S", ["whist", "pass"], {0: 6, 1: 4, 2: 0}),
        convention="leningrad",
        overrides=FINKA,
        **four,
    )
    w7 = one(
        game("7S", ["whist", "pass"], {0: 4, 1: 6, 2: 0}),
        convention="leningrad",
        overrides=FINKA,
        **four,
    )
    for w in (w8, w7):
        assert (w.whists[1][0], w.whists[3][0], w.whists[2][0]) == (96, 24, 0)


def test_d17_kodex_six_declarer_took_nine() -> None:
    w = one(game("6D", ["whist", "whist"], {DEC: 9, B: 1, V: 0}), convention="kodex")
    assert w.gora == [0, 2, 4]  # «без одной» and «без двух» at the price of a six
    assert w.pool[DEC] == 2
    assert w.whists[B][DEC] == 2


# --- §3.2-3.3: the whister's shortfall -------------------------------------------------------


def test_kodex_six_two_and_one_second_pays_one() -> None:
    w = one(game("6D", ["whist", "whist"], {DEC: 7, B: 2, V: 1}), convention="kodex")
    assert w.gora == [0, 0, 2]
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (4, 2)


def test_kodex_eight_both_whisted_declarer_took_ten_second_pays() -> None:
    w = one(game("8D", ["whist", "whist"], {DEC: 10, B: 0, V: 0}), convention="kodex")
    assert w.gora == [0, 0, 6]
    assert w.pool[DEC] == 6


def test_sochi_lone_whister_on_seven_took_one() -> None:
    w = one(game("7S", ["whist", "pass"], {DEC: 9, B: 1, V: 0}))
    assert w.gora[B] == 4 and w.whists[B][DEC] == 4  # «4 в гору и 4 виста»


def test_sochi_six_both_whist_three_and_zero() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 7, B: 3, V: 0}))
    assert w.gora == [0, 0, 2] and w.whists[B][DEC] == 6


def test_sochi_six_both_whist_one_and_zero() -> None:
    w = one(game("6S", ["whist", "whist"], {DEC: 9, B: 1, V: 0}))
    assert w.gora == [0, 2, 4] and w.whists[B][DEC] == 2


def test_sochi_eight_both_whist_no_trick_second_whister() -> None:
    w = one(game("8S", ["whist", "whist"], {DEC: 10, B: 0, V: 0}))
    assert w.gora == [0, 0, 6]


def test_responsible_whister_split_and_both() -> None:
    split = one(
        game("8S", ["whist", "whist"], {DEC: 10, B: 0, V: 0}),
        overrides={"responsible_whister": "split"},
    )
    both = one(
        game("8S", ["whist", "whist"], {DEC: 10, B: 0, V: 0}),
        overrides={"responsible_whister": "both"},
    )
    assert split.gora == [0, 3, 3]
    assert both.gora == [0, 6, 6]


def test_half_responsible_rostov_and_piter_split_is_fractional() -> None:
    rostov = one(game("7S", ["whist", "pass"], {DEC: 9, B: 1, V: 0}), convention="rostov")
    assert rostov.gora[B] == 2  # half of 4 (§8.1)
    piter = one(game("9S", ["whist", "whist"], {DEC: 10, B: 0, V: 0}), convention="piter")
    assert piter.gora == [0, 4, 4]  # half of 16, split between the two (§7.3)
    len_ = one(
        game("9H", ["whist", "whist"], {DEC: 10, B: 0, V: 0}),
        convention="leningrad",
        overrides={
            "responsible_whister": "split",
            "game_price": {"6": 2, "7": 4, "8": 6, "9": 7, "10": 10, "misere": 10},
        },
    )
    assert len_.gora == [0, Fraction(7, 2), Fraction(7, 2)]


def test_failed_whister_writes_no_tricks_variant() -> None:
    w = one(
        game("6S", ["whist", "whist"], {DEC: 9, B: 1, V: 0}),
        overrides={"failed_whister_writes_tricks": False},
    )
    assert w.whists[B][DEC] == 0 and w.gora == [0, 2, 4]


# --- §4.2-4.3: who writes what when the contract is made -------------------------------------


def test_lone_whister_writes_for_the_passers_tricks_too() -> None:
    w = one(game("6S", ["whist", "pass"], {DEC: 6, B: 2, V: 2}))
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (8, 0)


def test_two_whisters_seven_two_and_zero() -> None:
    w = one(game("7S", ["whist", "whist"], {DEC: 8, B: 2, V: 0}))
    assert (w.whists[B][DEC], w.whists[V][DEC]) == (8, 0)
    assert w.gora == [0, 0, 0]


def test_half_whist_on_six_and_seven_is_four_whists_in_sochi() -> None:
    six = one(game("6S", ["pass", "half"], None))
    seven = one(game("7S", ["pass", "half", "pass"], None))
    for w in (six, seven):
        assert w.whists[V][DEC] == 4 and w.pool[DEC] in (2, 4)
    assert (
        explain(six)[-1]
        == "Vera half-whisted, the deal was not played: 2 tricks × 2 = 4 whists on Anna."
    )


def test_both_passed_counts_made_and_writes_no_whists() -> None:
    w = one(game("8NT", ["pass", "pass"], None))
    assert w.pool[DEC] == 6 and not any(any(r) for r in w.whists)


def test_long_half_whist_leningrad() -> None:
    w = one(game("6S", ["whist", "pass", "half"], None), convention="leningrad")
    assert w.whists[B][DEC] == 8  # Boris went half: 2 tricks × 4


# --- §11: four players ------------------------------------------------------------------------

FOUR_P = {"players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": 3}


def test_dealer_returns_whist_on_six_down_two_writes_24() -> None:
    w = one(game("6S", ["pass", "half", "pass", "whist"], {0: 4, 1: 3, 2: 3}), **FOUR_P)
    assert w.whists[3][0] == 24  # 12 tricks + 8 the players' consolation + 4 his own
    assert w.whists[1][0] == 0 and w.whists[2][0] == 0
    assert w.gora[0] == 4


def test_dealer_whists_on_eight_after_two_passes() -> None:
    w = one(game("8S", ["pass", "pass", "whist"], {0: 8, 1: 1, 2: 1}), **FOUR_P)
    assert w.whists[3][0] == 12 and w.pool[0] == 6


def test_dealer_writes_consolation_when_he_sits_out() -> None:
    w = one(game("7S", ["whist", "whist"], {0: 6, 1: 2, 2: 2}), **FOUR_P)
    assert w.whists[3][0] == 4


def test_e7_four_player_deal_gentleman() -> None:
    # Alik: A (7♠) down 2; Б whisted, В passive, gentleman, Г dealer.
    w = one(
        game("7S", ["whist", "pass"], {0: 5, 1: 5, 2: 0}),
        convention="rostov",
        overrides={"consolation": "trick"},
        **FOUR_P,
    )
    assert w.gora[0] == 8
    assert (w.whists[1][0], w.whists[2][0], w.whists[3][0]) == (
        18,
        18,
        8,
    )  # 9 tricks × 4 / 2; dealer 2 × 4


def test_talon_bonus_marriage_on_a_nine() -> None:
    w = one(
        game("9S", ["whist", "pass"], {0: 9, 1: 1, 2: 0}, talon_bonus=1),
        overrides={"talon_bonus": True},
        **FOUR_P,
    )
    assert w.whists[3][0] == 8


def test_misere_shared_with_dealer_half() -> None:
    w = one(
        {"type": "misere", "declarer": 0, "tricks": {"0": 1}, "shared_with_dealer": True}, **FOUR_P
    )
    assert w.gora == [5, 0, 0, 5]


def test_concede_without_three() -> None:
    w = one(game("6S", None, None, conceded=3), overrides={"concede": 3})
    assert w.gora[DEC] == 6 and not any(any(r) for r in w.whists)
