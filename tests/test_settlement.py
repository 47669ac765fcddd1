"""Settlement examples E1-E8 of rules-research §10.3, through ``scorepad settle --json``.

Where a source rounds, both the exact value and the rounding option's value are asserted.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from conftest import session
from scorepad.scoring.pulya.settlement import _kodex_round, payments, to_money


def corr(
    seat: int, *, pool: int = 0, gora: int = 0, whists: dict[int, int] | None = None
) -> dict[str, object]:
    d: dict[str, object] = {"type": "correction", "seat": seat, "note": "paper sheet"}
    if pool:
        d["pool"] = pool
    if gora:
        d["gora"] = gora
    if whists:
        d["whists"] = {str(k): v for k, v in whists.items()}
    return d


# E1: З 0, Ю 1, В 2 (HIST «Пример расчёта»), pools equal at 20.
E1 = [
    corr(0, pool=20, gora=8, whists={1: 24, 2: 40}),
    corr(1, pool=20, gora=14, whists={0: 38, 2: 16}),
    corr(2, pool=20, gora=19, whists={0: 52, 1: 28}),
]
E1_PLAYERS = ["З", "Ю", "В"]


def test_spec_example_golden(cli_settle) -> None:  # type: ignore[no-untyped-def]
    data = session(
        [
            {
                "type": "game",
                "declarer": 1,
                "contract": "7S",
                "calls": ["whist", "pass"],
                "open": False,
                "tricks": {"1": 7, "2": 2, "0": 1},
            }
        ],
        whist_price="1.00",
        currency="RUB",
        first_dealer=0,
    )
    out = cli_settle(data)
    assert out == {
        "format": "scorepad-settlement/1",
        "players": ["Anna", "Boris", "Vera"],
        "convention": "sochi",
        "deals": [
            {
                "index": 0,
                "pool": [0, 4, 0],
                "gora": [0, 0, 0],
                "whists": [[0, 0, 0], [0, 0, 0], [0, 12, 0]],
                "explain": [
                    "Boris made 7♠: 4 into the pulya.",
                    "Vera whisted alone: 3 defence tricks × 4 = 12 whists on Boris.",
                ],
            }
        ],
        "sheet": {
            "pool": [0, 4, 0],
            "gora": [0, 0, 0],
            "whists": [[0, 0, 0], [0, 0, 0], [0, 12, 0]],
        },
        "finished": False,
        "balance": ["-40/3", "44/3", "-4/3"],
        "money": ["-13.33", "14.67", "-1.34"],
        "payments": [
            {"from": 0, "to": 1, "amount": "13.33"},
            {"from": 2, "to": 1, "amount": "1.34"},
        ],
    }


def test_e1_exact(cli_settle) -> None:  # type: ignore[no-untyped-def]
    out = cli_settle(session(E1, players=E1_PLAYERS, whist_price="100"))
    assert out["balance"] == ["92/3", "-4/3", "-88/3"]  # З +30⅔, Ю −1⅓, В −29⅓
    assert out["money"] == ["3066.67", "-133.33", "-2933.34"]
    assert out["finished"] is True


def test_e1_kodex_rounding_method_one(cli_settle) -> None:  # type: ignore[no-untyped-def]
    out = cli_settle(
        session(
            E1, players=E1_PLAYERS, whist_price="100", overrides={"settlement_rounding": "kodex"}
        )
    )
    assert out["balance"] == ["31", "-1", "-30"]  # «З +31, В −30, Ю −1»
    assert out["money"][0] == "3100.00"  # «по 100 рублей за вист – 3100 руб.»


def test_e2_leningrad_pools_unequal(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deals = [corr(0, pool=40, gora=100), corr(1, pool=60, gora=100), corr(2, pool=52, gora=100)]
    out = cli_settle(session(deals, convention="leningrad", pool_target=50))
    assert out["balance"] == ["-640/3", "560/3", "80/3"]  # A −213⅓, B +186⅔, C +26⅔
    assert out["finished"] is True


def test_e3_mail_sochi(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deals = [
        corr(0, gora=42, whists={1: 170, 2: 60}),
        corr(1, gora=96, whists={0: 64, 2: 178}),
        corr(2, gora=132, whists={0: 88, 1: 95}),
    ]
    out = cli_settle(session(deals, players=["А", "Б", "В"]))
    assert out["balance"] == ["558", "-83", "-475"]


# E4: the pairwise nets of the referat, rebuilt: С's gora is 1 after amnesty, so every net of С
# carries a half; the other pairs' whists are whole.
E4 = [
    corr(0, gora=3, whists={1: 17, 2: 30}),
    corr(1, gora=2, whists={}),
    corr(2, gora=2, whists={1: 25}),
    corr(3, gora=2, whists={1: 63, 2: 10, 0: 12}),
]
E4_PLAYERS = ["С", "З", "В", "Ю"]


def test_e4_four_players_exact_and_rounded_by_two(cli_settle) -> None:  # type: ignore[no-untyped-def]
    exact = cli_settle(session(E4, players=E4_PLAYERS))
    assert exact["balance"] == ["55/2", "-205/2", "-25/2", "175/2"]  # +27,5 −102,5 −12,5 +87,5
    rounded = cli_settle(
        session(
            E4, players=E4_PLAYERS, overrides={"settlement_rounding": "kodex", "rounding_whists": 2}
        )
    )
    assert rounded["balance"] == ["29", "-103", "-13", "87"]


def test_e5_whist_netting_only(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deals = [
        corr(0, whists={1: 70, 2: 100}),
        corr(1, whists={0: 114, 2: 96}),
        corr(2, whists={0: 140, 1: 180}),
    ]
    out = cli_settle(session(deals, players=["А", "В", "С"]))
    assert out["balance"] == ["-84", "-40", "124"]


def test_e6_leningrad_pool_adjustment_kodex_example(cli_settle) -> None:  # type: ignore[no-untyped-def]
    # 48/48/54 → the 54 «списывает с горы восемь очков, а двое … приписывают по четыре».
    out = cli_settle(
        session(
            [corr(0, pool=48), corr(1, pool=48), corr(2, pool=54)],
            convention="leningrad",
            pool_target=50,
        )
    )
    assert out["balance"] == ["-40", "-40", "80"]  # −4, −4, +8 gora points × 10
    # With 56: −12 off his gora, +4 on each other (derived); the same balance either way.
    out = cli_settle(
        session(
            [corr(0, pool=48), corr(1, pool=48), corr(2, pool=56)],
            convention="leningrad",
            pool_target=50,
        )
    )
    gora = [4, 4, -12]
    mean = Fraction(sum(gora), 3)
    assert out["balance"] == [str(10 * (mean - g)) for g in gora]


def test_e7_alik_single_deal_valuation(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deal = {
        "type": "game",
        "declarer": 0,
        "contract": "7S",
        "calls": ["whist", "pass"],
        "tricks": {"0": 5, "1": 5, "2": 0},
    }
    out = cli_settle(
        session(
            [deal],
            convention="rostov",
            overrides={"consolation": "trick"},
            players=["A", "Б", "В", "Г"],
            first_dealer=3,
        )
    )
    # 8 gora = 80 whists, 80 : 4 = 20 to each partner; plus the whists of the deal.
    assert out["balance"] == ["-104", "38", "38", "28"]


def test_e8_kodex_rounding_three_whists_each(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deals = [corr(0, gora=1)]
    assert cli_settle(session(deals))["balance"] == ["-20/3", "10/3", "10/3"]
    out = cli_settle(session(deals, overrides={"settlement_rounding": "kodex"}))
    assert out["balance"] == ["-6", "3", "3"]  # the others lose 1/3 each


def test_e8_six_excess_points_four_players_worth_fifteen(cli_settle) -> None:  # type: ignore[no-untyped-def]
    deals = [corr(s, pool=20) for s in range(4)]
    deals.append({"type": "game", "declarer": 1, "contract": "8S", "calls": []})
    out = cli_settle(session(deals, players=["A", "B", "C", "D"]))
    assert out["deals"][-1]["gora"] == [0, -6, 0, 0]
    assert out["balance"] == ["-15", "45", "-15", "-15"]


def test_kodex_round_nearest_ties_down() -> None:
    assert [_kodex_round(g, 10, 3) for g in range(7)] == [0, 0, 3, 3, 3, 6, 6]
    assert [_kodex_round(g, 10, 4) for g in range(5)] == [0, 0, 2, 2, 4]


def test_money_largest_remainder_ties_to_lower_seat() -> None:
    # exact cents 1/3, 1/3, -2/3: floors 0, 0, -1; the one unit left goes to the lower seat
    assert to_money([Fraction(1, 3), Fraction(1, 3), Fraction(-2, 3)], Decimal("0.01"), 2) == (
        1,
        0,
        -1,
    )
    assert to_money([Fraction(1, 2), Fraction(1, 2), Fraction(-1)], Decimal("1"), 0) == (1, 0, -1)
    assert to_money([Fraction(-1, 2), Fraction(-1, 2), Fraction(1)], Decimal("1"), 0) == (0, -1, 1)


def test_payments_fewest_transfers() -> None:
    # Two zero-sum pairs need two transfers, not three.
    assert [(p.payer, p.payee, p.amount) for p in payments([-5, 5, -7, 7])] == [
        (0, 1, 5),
        (2, 3, 7),
    ]
    assert len(payments([-10, 3, 3, 4])) == 3
    assert payments([0, 0, 0]) == ()
