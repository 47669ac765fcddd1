"""The pot sheet's figures: the ante before play, each deal's changes and running totals (a
re-ante shown where it happened), the standing; generated sessions of every preset add up and
every deal edits back to the same postings."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_families_cli import A_E6
from test_pot_form import DEALS, en, session

from scorepad.app.pot.figures import pot_sheet
from scorepad.app.pot.form import edit_form
from scorepad.scoring.ledger.families import PotSession, replay_family

# --- the sheet's figures ---------------------------------------------------------------------


def test_the_sheet_runs_the_cash_and_the_pot_from_the_ante() -> None:
    s = pot_sheet(replay_family(session("austrian-1829", A_E6["deals"])))  # A-E6
    assert (s.ante, s.start_pot, s.start_cash) == (240, 720, (-240, -240, -240))
    assert [r.cash_change for r in s.rows] == [(18, 6, 6), (0, -10, 0), (16, -36, -60)]
    assert [r.pot for r in s.rows] == [690, 700, 780]
    assert s.cash == (-206, -280, -294)
    assert s.standing == (54, -20, -34)
    assert [en(r.title) for r in s.rows] == [
        "Anton: diamonds, 6 tricks",
        "Brigitte: Bete",
        "Charlotte: hearts, 5 tricks",
    ]


def test_a_carried_pot_leaves_the_standing_the_cash_alone() -> None:
    s = pot_sheet(replay_family(session("austrian", [DEALS[0]], pot_remainder="carry")))
    assert s.carry and s.standing == s.cash == (-50 + 10 - 3, -50 + 3, -50)


def test_the_direct_family_has_no_pot() -> None:
    s = pot_sheet(
        replay_family(
            session("swabian", [{"type": "swabian", "declarer": 0, "bid": 5, "tricks": 4}])
        )
    )
    assert not s.has_pot and s.start_pot == 0 and s.ante == 0
    assert s.rows[0].cash == (-14, 7, 7) and s.standing == (-14, 7, 7)


def test_an_exact_share_of_the_pot() -> None:
    s = pot_sheet(replay_family(session("austrian", [DEALS[0]], ante=10)))
    assert s.pot == 20 and s.standing[2] == Fraction(-10) + Fraction(20, 3)


def test_an_all_pass_redeal_is_a_row_with_the_dealers_stake_and_the_next_dealer() -> None:
    # B10 (pagat, unlimited pot: «every dealer adds 10 before dealing»), B-Q7 (all pass: redeal
    # by the next dealer), §9.3/§9.5 `allpass`: two redeals, then a deal; the pot grows by each
    # dealer's 10 and the rotation goes on (Anton, Brigitte, then Charlotte deals).
    deals = [
        {"type": "allpass", "dealer": 0},
        {"type": "allpass"},
        # B7: Anton gives up; Brigitte stayed alone (Charlotte, the dealer, dropped): 5 to her
        {"type": "concede", "declarer": 0, "defence": {"1": "play", "2": "drop"}, "dealer": 2},
    ]
    s = pot_sheet(replay_family(session("austrian", deals, pot_mode="unlimited")))
    assert (s.start_pot, s.start_cash) == (0, (0, 0, 0))
    assert [r.cash_change for r in s.rows] == [(-10, 0, 0), (0, -10, 0), (-5, 5, -10)]
    assert [r.pot for r in s.rows] == [10, 20, 30]
    assert [en(r.title) for r in s.rows][:2] == ["All pass: the cards are redealt"] * 2
    assert [[en(m) for m in r.explain] for r in s.rows[:2]] == [
        [
            "Anton deals and adds 10 to the pot",
            "all passed: the cards are redealt, Brigitte deals next",
        ],
        [
            "Brigitte deals and adds 10 to the pot",
            "all passed: the cards are redealt, Charlotte deals next",
        ],
    ]
    assert en(s.rows[2].explain[0]) == "Charlotte deals and adds 10 to the pot"


# --- generated sessions of every preset: the sheet adds up, every deal edits back the same -----


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    convention=st.sampled_from(["austrian-1829", "austrian", "illustrated", "american", "swabian"]),
)
def test_generated_sessions_sheet_and_edit_forms(seed: int, convention: str) -> None:
    from scorepad.testing.generate import RandomChooser, random_family_session

    data = random_family_session(RandomChooser(seed), convention=convention, deals=12)
    s = PotSession.model_validate(data)
    scored = replay_family(s)
    sheet = pot_sheet(scored)
    cash, pot = list(sheet.start_cash), sheet.start_pot
    for row in sheet.rows:
        assert sum(row.cash_change) + row.pot_change == 0
        cash = [c + x for c, x in zip(cash, row.cash_change, strict=True)]
        pot += row.pot_change
        assert (tuple(cash), pot) == (row.cash, row.pot)
    assert (sheet.cash, sheet.pot) == (tuple(cash), pot)
    assert sum(sheet.standing) == 0
    kept = SimpleNamespace(
        session=s, journal=SimpleNamespace(live=[SimpleNamespace(deal=d) for d in s.deals])
    )
    for index, deal in enumerate(s.deals):
        f = edit_form(kept, index)  # type: ignore[arg-type]
        assert f.preview()[1] is None
        again = replay_family(s.model_copy(update={"deals": [*s.deals[:index], f.deal()]}))
        assert again.deals[-1].postings == scored.deals[index].postings, deal


def test_four_players_the_sheet_and_the_cash_out_of_a_1829_evening_at_one_sixtieth() -> None:
    # §1.1 («with 4, the dealer ("King") sits out»), B11, A12: A-E1 with Dora dealing, then
    # Brigitte ♠ 6-2-2 while Anton deals and sits out; four antes of 240; a kreuzer 1/60 gulden.
    from scorepad.report.ledger import family_cash_out

    deals = [
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
        {
            "type": "game",
            "declarer": 1,
            "suit": "S",
            "defence": {"2": "play", "3": "play"},
            "tricks": {"1": 6, "2": 2, "3": 2},
        },
    ]
    s = PotSession.model_validate(
        {
            "format": "scorepad-session/1",
            "players": ["Anton", "Brigitte", "Charlotte", "Dora"],
            "convention": "austrian-1829",
            "first_dealer": 3,
            "whist_price": "1/60",
            "currency": "EUR",
            "deals": deals,
        }
    )
    scored = replay_family(s)
    sheet = pot_sheet(scored)
    assert (sheet.start_pot, sheet.start_cash) == (960, (-240,) * 4)
    assert [r.cash_change for r in sheet.rows] == [(18, 6, 6, 0), (0, 12, 4, 4)]
    assert [r.pot for r in sheet.rows] == [930, 910]
    assert sheet.standing == (Fraction(11, 2), Fraction(11, 2), Fraction(-5, 2), Fraction(-17, 2))
    cash = family_cash_out(scored, "en")
    assert [name for name, _ in cash.rows] == ["Anton", "Brigitte", "Charlotte", "Dora"]
    assert [figures for _, figures in cash.rows][3] == ("−236", "−8½", "−€0.14")
    assert cash.payments == (
        "Charlotte → Brigitte: €0.04",
        "Dora → Anton: €0.09",
        "Dora → Brigitte: €0.05",
    )
