"""Issue 9: two wrong figures, and the house rules real tables play, each from its rule's text.

Seats as in test_worked_deals: the declarer is Anna (0), Boris (1) speaks first, Vera (2)
second; with four players Gleb (3) deals and sits out.  ``whists[a][b]`` is what a wrote on b.
Sochi prices unless said: a six is worth 2 a trick (whists, gora, consolation alike).
"""

from __future__ import annotations

from conftest import one

DEC, B, V, G = 0, 1, 2, 3
FOUR = {"players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": G}


def game(contract: str, calls: list[str] | None, tricks: dict[int, int] | None, **extra: object):
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
