"""`scorepad settle` and `conventions -v` for the bula and kassa families, through the real CLI."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from scorepad.report.ledger import to_json_text
from scorepad.scoring.ledger.families import family_presets, settle_family
from scorepad.scoring.pulya.session import SessionInvalid

D_E1: dict[str, Any] = {
    "format": "scorepad-session/1",
    "players": ["A", "B", "C"],
    "convention": "balkan",
    "overrides": {"start_bula": 30},
    "whist_price": "0.10",
    "currency": "EUR",
    "deals": [
        {
            "type": "game",
            "declarer": 2,
            "bid": 3,
            "defence": {"0": "follow", "1": "follow"},
            "tricks": {"2": 6, "0": 2, "1": 2},
        },
        {
            "type": "game",
            "declarer": 1,
            "bid": 5,
            "defence": {"0": "pass", "2": "follow"},
            "tricks": {"1": 7, "2": 3},
        },
        {"type": "allpass"},
        {
            "type": "game",
            "declarer": 0,
            "bid": 5,
            "defence": {"1": "pass", "2": "follow"},
            "tricks": {"0": 7, "2": 3},
        },
    ],
}
G_E15: dict[str, Any] = {
    "format": "scorepad-session/1",
    "players": ["A", "C", "B"],
    "convention": "prefa",
    "whist_price": "1.00",
    "currency": "EUR",
    "deals": [
        {
            "type": "game",
            "declarer": 1,
            "contract": "6S",
            "defence": {"0": "whist", "2": "whist"},
            "tricks": {"1": 6, "0": 2, "2": 2},
        },
        {
            "type": "game",
            "declarer": 0,
            "contract": "7H",
            "defence": {"1": "whist", "2": "whist"},
            "tricks": {"0": 8, "1": 2, "2": 0},
        },
    ],
}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, stdin=stdin)


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_settle_json_of_pagats_sheet(tmp_path: Path) -> None:
    done = cli("settle", write(tmp_path, D_E1), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["family"] == "bula"
    assert out["sheet"]["bula"] == [10, 20, 24]
    assert out["sheet"]["supe"] == [[0, 0, 12], [0, 0, 12], [60, 30, 0]]
    assert out["balance"] == ["32", "-38", "6"]
    assert out["money"] == ["3.20", "-3.80", "0.60"]  # a supa at 0.10 EUR
    assert out["payments"] == [
        {"from": 1, "to": 0, "amount": "3.20"},
        {"from": 1, "to": 2, "amount": "0.60"},
    ]
    assert out["deals"][3]["explain"] == [
        "A plays on a refe: everything ×2",
        "A made tref: bula −20",
        "C writes 60 supe on A (3 × 20)",
    ]


def test_settle_text_in_russian(tmp_path: Path) -> None:
    done = cli("--lang", "ru", "settle", write(tmp_path, D_E1))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        "Сдача 1",
        "  C: каро сыгран, була −6",
        "  A → C: супе 12 (2 × 6)",
        "  B → C: супе 12 (2 × 6)",
    ]
    # Amounts as Russian writes them (issue 38 item 7: not "3.20 EUR", not "-38").
    assert "A: супе 32, 3,20\xa0€" in lines
    assert "B: супе −38, −3,80\xa0€" in lines


def test_settle_of_the_prefa_score_sheet(tmp_path: Path) -> None:
    done = cli("settle", write(tmp_path, G_E15), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["family"] == "kassa"
    assert out["sheet"]["kassa"] == [31, 29, 31]
    assert out["balance"] == ["60", "6", "-66"]  # A, C, B
    assert out["money"] == ["6.00", "0.60", "-6.60"]  # chips are tenths of a point


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            lambda d: d["deals"][0].update(tricks={"2": 6, "0": 2, "1": 1}),
            "deal 1: tricks: tricks sum to 9: play stops before 10 only when the defence has 5",
        ),
        (
            lambda d: d["deals"][1].update(bid=9),
            "deal 2: bid: at most 7",
        ),
        (
            lambda d: d["deals"][0].update(defence={"0": "follow", "2": "pass"}),
            "deal 1: defence: the defence names the two other players, each once: A, B",
        ),
        (
            lambda d: d["overrides"].update(start_bula=31),
            "overrides.start_bula: must be a multiple of 2",
        ),
        (
            lambda d: d["deals"].append(
                {
                    "type": "game",
                    "declarer": 0,
                    "bid": 2,
                    "defence": {"1": "follow", "2": "follow"},
                    "tricks": {"0": 6, "1": 2, "2": 2},
                }
            ),
            "deal 5: contra: pik with the talon is played only under contra: write it as pik without contra",
        ),
    ],
)
def test_a_bad_file_is_refused_with_one_line_naming_deal_and_field(
    tmp_path: Path, change: Any, line: str
) -> None:
    data = json.loads(json.dumps(D_E1))
    change(data)
    done = cli("settle", write(tmp_path, data))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [line]


def test_conventions_lists_every_family_preset_with_every_setting() -> None:
    en = cli("conventions", "-v").stdout
    ru = cli("--lang", "ru", "conventions", "-v").stdout
    assert "balkan       Balkan bula [bula]: " in en
    assert "balkan-pot   Balkan pot [bula]: " in en
    assert "prefa        Greek Prefa [kassa]: " in en
    assert (
        "    scoring = 'pot'  # How the game is kept: on the bula sheet, or with a pot the players"
        " pay into." in en
    )
    assert "    kassa = 31  # Касса каждого игрока в начале (31, 20, 10 …)." in ru


@st.composite
def session(draw: st.DrawFn) -> dict[str, Any]:
    deals: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 15))):
        d = draw(st.integers(0, 2))
        o1, o2 = [p for p in range(3) if p != d]
        if draw(st.booleans()):
            deals.append({"type": "allpass"})
            continue
        bid = draw(st.integers(3, 7))
        dt = draw(st.integers(0, 10))
        a = draw(st.integers(0, 10 - dt))
        defence = {str(o1): "follow", str(o2): "follow"}
        tricks = {str(d): dt, str(o1): a, str(o2): 10 - dt - a}
        if bid != 6 and 10 - dt > 5:
            continue
        deals.append(
            {"type": "game", "declarer": d, "bid": bid, "defence": defence, "tricks": tricks}
        )
    return {
        **D_E1,
        "convention": draw(st.sampled_from(["balkan", "balkan-pot"])),
        "whist_price": draw(st.sampled_from(["0.10", "0.07", "3"])),
        "deals": deals,
    }


@settings(max_examples=60, deadline=None)
@given(session())
def test_money_is_zero_sum_and_settle_is_byte_identical(data: dict[str, Any]) -> None:
    try:
        scored = settle_family(data)
    except SessionInvalid:
        return
    assert sum(scored.money_units()) == 0
    assert sum(scored.results()) == 0
    assert to_json_text(settle_family(data)) == to_json_text(scored)


A_E6: dict[str, Any] = {
    "format": "scorepad-session/1",
    "players": ["Anton", "Brigitte", "Charlotte"],
    "convention": "austrian-1829",
    "whist_price": "1",
    "currency": "JPY",
    "deals": [
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
        {"type": "bete", "dealer": 1},
        {
            "type": "game",
            "declarer": 2,
            "suit": "H",
            "defence": {"0": "play", "1": "play"},
            "tricks": {"2": 5, "0": 4, "1": 1},
        },
    ],
}


def test_settle_of_the_1829_session(tmp_path: Path) -> None:
    done = cli("settle", write(tmp_path, A_E6), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["family"] == "pot"
    assert out["sheet"] == {"pot": 780, "cash": [-206, -280, -294]}
    assert out["balance"] == ["54", "-20", "-34"]
    assert out["money"] == ["54", "-20", "-34"]
    assert out["deals"][0]["explain"] == [
        "Anton takes 30 from the pot",
        "Anton pays Brigitte 6 for tricks",
        "Anton pays Charlotte 6 for tricks",
    ]
    ru = cli("--lang", "ru", "settle", write(tmp_path, A_E6)).stdout.splitlines()
    assert ru[:4] == [
        "Сдача 1",
        "  Anton: из котла 30",
        "  Anton → Brigitte: 6 за взятки",
        "  Anton → Charlotte: 6 за взятки",
    ]


def test_settle_of_a_swabian_evening(tmp_path: Path) -> None:
    data = {
        "format": "scorepad-session/1",
        "players": ["X", "Y", "Z"],
        "convention": "swabian",
        "whist_price": "0.50",
        "currency": "EUR",
        "deals": [
            {"type": "swabian", "declarer": 0, "bid": 4, "tricks": 7},
            {
                "type": "swabian",
                "declarer": 1,
                "bid": 6,
                "tricks": 0,
                "contra": {"0": True},
                "recontra": True,
            },
        ],
    }
    out = json.loads(cli("settle", write(tmp_path, data), "--json").stdout)
    # E-E1: +10 / −5 / −5; E-E3: X pays 6 × 4, Z pays 6.
    assert out["sheet"]["cash"] == [10 - 24, -5 + 30, -5 - 6]
    assert out["money"] == ["-7.00", "12.50", "-5.50"]


def test_the_readme_lists_every_family_preset_with_its_family() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("| preset | family | what it is |", 1)[1].split("\n\n", 1)[0]
    listed = dict(re.findall(r"^\| `([\w-]+)` \| (\w+) \|", table, re.M))
    assert listed == {p.id: p.family for p in family_presets().values()}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("convention", ["balkan", "prefa"])
def test_the_text_sheets_columns_stay_apart_for_long_names(
    tmp_path: Path, lang: str, convention: str
) -> None:
    # Issue 23 item 7: "supe on Charlotte" once ran into the next column.
    data = json.loads(json.dumps(D_E1 if convention == "balkan" else G_E15))
    data["players"] = ["Anastasia", "Bartholomew", "Charlotte"]
    done = cli("--lang", lang, "settle", write(tmp_path, data))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith(("Player", "Игрок")))
    table = lines[top : top + 4]
    header = re.split(r"\s{2,}", table[0])
    assert len(header) == (6 if convention == "balkan" else 5)
    assert header[-1].endswith("Charlotte") and header[-2].endswith("Bartholomew")
    starts = [m.start() for m in re.finditer(r"(?:^|(?<=\s\s))\S", table[0])]
    for row in table[1:]:
        cells = re.split(r"\s{2,}", row)
        assert len(cells) == len(header), row
        # every figure starts where its column's header does
        assert [m.start() for m in re.finditer(r"(?:^|(?<=\s\s))\S", row)] == starts, row


def test_the_1829_session_paid_in_kreuzer_settles_in_gulden(tmp_path: Path) -> None:
    # A12, A-E6: standing +54, −20, −34 kr; a kreuzer is 1/60 of a gulden: +0.90, −1/3, −17/30,
    # rounded once (largest remainder, the sum stays 0).
    data = A_E6 | {"whist_price": "1/60", "currency": "EUR"}
    done = cli("settle", write(tmp_path, data), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["balance"] == ["54", "-20", "-34"]
    assert out["money"] == ["0.90", "-0.33", "-0.57"]
    assert out["payments"] == [
        {"from": 1, "to": 0, "amount": "0.33"},
        {"from": 2, "to": 0, "amount": "0.57"},
    ]


@pytest.mark.parametrize(
    ("price", "ok"),
    [
        ("1/60", True),
        ("2/3", True),
        ("0/5", False),
        ("1/0", False),
        ("1/", False),
        ("-1/60", False),
    ],
)
def test_a_price_is_a_decimal_or_an_exact_fraction(tmp_path: Path, price: str, ok: bool) -> None:
    done = cli("settle", write(tmp_path, A_E6 | {"whist_price": price}), "--json")
    assert (done.returncode == 0) is ok, done.stderr
    if not ok:
        assert done.returncode == 2 and "whist_price" in done.stderr and not done.stdout


@settings(max_examples=40, deadline=None)
@given(session(), st.integers(1, 10**6), st.integers(1, 10**6))
def test_money_at_a_fractional_price_is_zero_sum_and_rounded_once(
    data: dict[str, Any], p: int, q: int
) -> None:
    from fractions import Fraction

    try:
        scored = settle_family(data | {"whist_price": f"{p}/{q}"})
    except SessionInvalid:
        return
    units = scored.money_units()
    assert sum(units) == 0
    for result, unit in zip(scored.results(), units, strict=True):
        exact = Fraction(result) * Fraction(p, q) * 100  # EUR cents, unrounded
        assert abs(unit - exact) < 1  # rounded once: never a cent more than the exact figure


FOUR: dict[str, Any] = {
    "format": "scorepad-session/1",
    "players": ["A", "B", "C", "Dora"],
    "convention": "balkan",
    "overrides": {"start_bula": 30},
    "first_dealer": 3,
    "whist_price": "0.10",
    "currency": "EUR",
    "deals": [
        {
            "type": "game",
            "declarer": 2,
            "bid": 3,
            "defence": {"0": "follow", "1": "follow"},
            "tricks": {"2": 6, "0": 2, "1": 2},
        },
        {
            "type": "game",
            "declarer": 1,
            "bid": 5,
            "defence": {"2": "follow", "3": "pass"},
            "tricks": {"1": 7, "2": 3},
        },
        {"type": "allpass", "dealer": 1},
        {
            "type": "game",
            "declarer": 0,
            "bid": 5,
            "defence": {"1": "pass", "3": "follow"},
            "tricks": {"0": 7, "3": 3},
        },
    ],
}


def test_settle_of_a_four_player_bula_json_and_text(tmp_path: Path) -> None:
    # §4.1: the dealer sits out; D-E1's deals around Dora (see test_bula's four-player test).
    done = cli("settle", write(tmp_path, FOUR), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["players"] == ["A", "B", "C", "Dora"]
    assert out["sheet"]["bula"] == [10, 20, 24, 30] and out["sheet"]["left"] == 84
    assert out["sheet"]["refe"] == [0, 1, 1, 1]
    assert out["balance"] == ["62", "-8", "-24", "-30"]
    assert out["money"] == ["6.20", "-0.80", "-2.40", "-3.00"]
    assert sum(int(m.replace(".", "")) for m in out["money"]) == 0
    text = cli("settle", write(tmp_path, FOUR)).stdout.splitlines()
    assert "Dora: −30 supe, −€3.00" in text
    row = next(line for line in text if line.startswith("Dora "))
    assert re.split(r"\s{2,}", row) == ["Dora", "30", "1", "60", "0", "0", "—"]  # 60 on A


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            lambda d: d.update(convention="swabian", overrides={}, deals=[]),
            "players: this game is played by three players",
        ),
        (
            lambda d: d.update(players=["A", "B", "C"], deals=[]),
            "first_dealer: the first dealer is a seat of the session",
        ),
        (
            lambda d: d["deals"][0].update(declarer=3, defence={"0": "follow", "1": "follow"}),
            "deal 1: declarer: Dora deals and sits out this deal",
        ),
        (
            lambda d: d["deals"][2].update(dealer=3),
            "deal 3: dealer: the dealer of this deal is B, by the rotation",
        ),
    ],
)
def test_a_bad_four_player_file_is_refused_naming_the_field(
    tmp_path: Path, change: Any, line: str
) -> None:
    data = json.loads(json.dumps(FOUR))
    change(data)
    done = cli("settle", write(tmp_path, data))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == line


@pytest.mark.parametrize("convention", ["balkan", "prefa"])
def test_a_voided_deal_keeps_its_number_in_a_stored_family_session(
    tmp_path: Path, convention: str
) -> None:
    """Issue #21 item 11 for the ledger families: `scorepad settle ID` numbers the deals as the
    table said them, the deal after a voided one keeps its number (as the app and history do)."""
    from conftest import run_cli, typed
    from scorepad.store import Store

    deal: dict[str, Any] = (
        {
            "type": "game",
            "declarer": 0,
            "bid": 4,
            "hand": False,
            "defence": {"1": "follow", "2": "follow"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        }
        if convention == "balkan"
        else {
            "type": "game",
            "declarer": 0,
            "contract": "6S",
            "defence": {"1": "whist", "2": "whist"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        }
    )
    db = tmp_path / "s.db"
    with Store(db) as store:
        sid = store.create_session(["Ana", "Boris", "Vera"], convention=convention)
        for seen in range(3):
            store.add_deal(sid, typed(store, sid, deal), seen=seen)
        store.void_deal(sid, 2, reason="misdeal", seen=3)  # deal 2
    sheet = run_cli("--lang", "en", "--db", str(db), "settle", str(sid)).stdout.splitlines()
    assert [line for line in sheet if line.startswith("Deal ")] == ["Deal 1", "Deal 3"]
    history = run_cli("--lang", "en", "--db", str(db), "history", str(sid)).stdout
    assert "deal 3 was written" in history and "deal 2 was voided (misdeal)" in history


def test_settle_of_a_four_player_1829_session_at_one_sixtieth(tmp_path: Path) -> None:
    # §1.1 («with 4, the dealer ("King") sits out»), B11, A12: A-E1 with Dora dealing (Anton +30
    # −6 −6, Brigitte and Charlotte +6), then Anton deals and sits out: Brigitte ♠ 6-2-2 takes
    # 20 and pays Charlotte and Dora 2×2 each. Four antes of 240: the pot 960 − 30 − 20 = 910,
    # shared by four (A12): standing = cash + 910/4. A kreuzer is 1/60 (A-E6): rounded once.
    data = json.loads(json.dumps(A_E6)) | {
        "players": ["Anton", "Brigitte", "Charlotte", "Dora"],
        "first_dealer": 3,
        "whist_price": "1/60",
        "currency": "EUR",
    }
    data["deals"] = [
        data["deals"][0],
        {
            "type": "game",
            "declarer": 1,
            "suit": "S",
            "defence": {"2": "play", "3": "play"},
            "tricks": {"1": 6, "2": 2, "3": 2},
        },
    ]
    done = cli("settle", write(tmp_path, data), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["sheet"] == {"pot": 910, "cash": [-222, -222, -230, -236]}
    assert out["balance"] == ["11/2", "11/2", "-5/2", "-17/2"]  # cash + 227½
    assert out["money"] == ["0.09", "0.09", "-0.04", "-0.14"]  # ÷ 60, cents
    assert out["deals"][1]["explain"] == [
        "Brigitte takes 20 from the pot",
        "Brigitte pays Charlotte 4 for tricks",
        "Brigitte pays Dora 4 for tricks",
    ]
    paid = {(p["from"], p["to"]): p["amount"] for p in out["payments"]}
    assert paid == {(2, 1): "0.04", (3, 0): "0.09", (3, 1): "0.05"}
    text = cli("settle", write(tmp_path, data)).stdout.splitlines()
    assert re.split(r"\s{2,}", next(x for x in text if x.startswith("Dora "))) == ["Dora", "−236"]
    assert "Dora: −8½, −€0.14" in text


def test_settle_of_a_four_player_prefa_deal(tmp_path: Path) -> None:
    # §7.1, §7.4 («4 players: a failed declarer pays the sitting-out player 25 chips (down 1)»)
    # with PAG-GR example 3 (6♦, both whist, 5-3-2): D's kassa +4, D pays A 4×3, B 4×2, and
    # Dora, who deals and sits out, 25.
    data = {
        "format": "scorepad-session/1",
        "players": ["D", "A", "B", "Dora"],
        "convention": "prefa",
        "first_dealer": 3,
        "whist_price": "1.00",
        "currency": "EUR",
        "deals": [
            {
                "type": "game",
                "declarer": 0,
                "contract": "6D",
                "defence": {"1": "whist", "2": "whist"},
                "tricks": {"0": 5, "1": 3, "2": 2},
            }
        ],
    }
    done = cli("settle", write(tmp_path, data), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["sheet"]["kassa"] == [35, 31, 31, 31]
    assert out["balance"] == ["-45", "12", "8", "25"]
    assert out["money"] == ["-4.50", "1.20", "0.80", "2.50"]  # a chip is a tenth of a point
    assert out["deals"][0]["explain"][-1] == "D pays Dora 25 chips: the dealer sitting out"
    text = cli("settle", write(tmp_path, data)).stdout.splitlines()
    header = re.split(r"\s{2,}", next(x for x in text if x.startswith("Player")))
    assert header[-1] == "chips from Dora" and len(header) == 6
    assert re.split(r"\s{2,}", next(x for x in text if x.startswith("Dora "))) == [
        "Dora",
        "31",
        "25",
        "0",
        "0",
        "—",
    ]


def test_a_concession_with_both_defenders_out_is_refused_by_settle_and_import(
    tmp_path: Path,
) -> None:
    """Issue 38 item 5: the file that settled to nothing is refused by `settle` and `import`,
    naming the deal and the field (B5: both out is the declarer's win, not a concession)."""
    data = {
        "format": "scorepad-session/1",
        "players": ["Jürgen", "Resi", "Toni"],
        "convention": "austrian",
        "whist_price": "0.10",
        "currency": "EUR",
        "deals": [
            {"type": "allpass"},
            {"type": "concede", "declarer": 0, "defence": {"1": "drop", "2": "drop"}},
        ],
    }
    both_out = {"1": "drop", "2": "drop"}
    path = write(tmp_path, data)
    done = cli("settle", path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "deal 2: defence: both defenders dropped out, so Jürgen has won without play and takes "
        "his win from the pot: write it as a game in which both drop out, not as giving up"
    ]
    db = tmp_path / "s.db"
    done = cli("import", path, "--db", str(db))
    assert done.returncode == 2 and "deal 2: defence: both defenders dropped out" in done.stderr
    from scorepad.store import Store

    with Store(db) as store:
        assert store.sessions() == []  # nothing imported
    # As the rules say: both out, Jürgen takes 10 from the pot (B5).
    data["deals"][1] = {"type": "game", "declarer": 0, "suit": "C", "defence": both_out}
    done = cli("settle", write(tmp_path, data), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["deals"][1]["explain"] == ["Jürgen takes 10 from the pot"]


ROUNDED: dict[str, Any] = {
    "format": "scorepad-session/1",
    "players": ["Jürgen", "Resi", "Toni"],
    "convention": "austrian",
    "whist_price": "0.10",
    "currency": "EUR",
    "deals": [
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 5, "1": 3, "2": 2},
        }
    ],
}


def test_settle_text_says_amounts_as_the_language_does_and_where_rounding_moved_one(
    tmp_path: Path,
) -> None:
    """Issue 38 item 7: `Jürgen: -323/3, -10.76 EUR` printed a raw fraction, a decimal point and
    the currency code; the German sheet says −18⅓ and −1,83 €, and, as the pulya's does, that
    the rounding to the cent moved Toni's amount (0,87 € plainly rounded) so the total is zero.
    The JSON keeps its exact forms."""
    path = write(tmp_path, ROUNDED)
    lines = cli("--lang", "de", "settle", path).stdout.splitlines()
    assert "Jürgen: −18⅓, −1,83\xa0€" in lines
    assert "Toni: 8⅔, 0,86\xa0€" in lines
    assert "  Jürgen → Resi: 0,97\xa0€" in lines
    assert lines[-1] == "So gerundet, dass die Summe null ist: Toni 0,86\xa0€, nicht 0,87\xa0€."
    assert not any("EUR" in line or "/3" in line for line in lines)
    out = json.loads(cli("settle", path, "--json").stdout)
    assert out["balance"] == ["-55/3", "29/3", "26/3"]
    assert out["money"] == ["-1.83", "0.97", "0.86"]


@pytest.mark.parametrize(
    ("lang", "first", "words"),
    [
        ("sr", "Deljenje 1", ["bula", "supe", "RSD"]),  # the README's first choice: Latin
        ("sr-Cyrl", "Дељење 1", ["була", "супе"]),
        ("de", "Runde 1", ["Kassa", "€"]),
        ("el", "Μοιρασιά 1", ["κάσα", "μάρκες"]),
        ("ru", "Сдача 1", ["пулю"]),
    ],
)
def test_the_demo_shows_each_language_a_game_its_players_play(
    lang: str, first: str, words: list[str]
) -> None:
    """Issue 38 item 13: `scorepad --lang sr` was refused and the demo was the Russian pulya in
    every language; now a bula in Serbian, a pot game in German, Prefa in Greek."""
    done = cli("--lang", lang, "demo")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == first
    for word in words:
        assert word in done.stdout


def test_the_greek_pulya_sheet_keeps_its_column_headers_apart(tmp_path: Path) -> None:
    """Issue 38 item 13: "στον παίκτη Annaστον παίκτη Boris" ran together."""
    from scorepad.cli import DEMO

    lines = cli("--lang", "el", "settle", str(DEMO)).stdout.splitlines()
    header = next(line for line in lines if line.startswith("Παίκτης"))
    assert re.split(r"\s{2,}", header)[-3:] == [
        "στον παίκτη Anna",
        "στον παίκτη Boris",
        "στον παίκτη Vera",
    ]


def test_debts_count_only_finished_games_and_say_which(tmp_path: Path) -> None:
    """Issue 38 item 14: `debts` counted a pulka in play ("Anna owes Vera RUB 6.66" after three
    deals of an unfinished pulka).  Only finished games are debts; the text says which games it
    counted and which are in play."""
    from conftest import typed
    from scorepad.store import Store

    closed = {  # D10: the bulas sum to zero after deal 2 (4 + 4 + 4 − 6 − 6)
        "format": "scorepad-session/1",
        "players": ["Ana", "Boris", "Vesna"],
        "convention": "balkan",
        "overrides": {"start_bula": 4},
        "whist_price": "1.00",
        "currency": "RSD",
        "deals": [
            {"type": "game", "declarer": 0, "bid": 3, "defence": {"1": "pass", "2": "pass"}},
            {"type": "game", "declarer": 1, "bid": 3, "defence": {"0": "pass", "2": "pass"}},
        ],
    }
    db = tmp_path / "d.db"
    done = cli("import", write(tmp_path, closed), "--db", str(db))
    assert done.returncode == 0, done.stderr
    with Store(db) as store:
        sid = store.create_session(["Ana", "Boris", "Vesna"], convention="balkan")
        store.add_deal(
            sid, typed(store, sid, closed["deals"][0]), seen=0
        )  # Ana −6: she would be paid if we stopped now
        assert store.load(sid).scored.payments()
    text = cli("debts", "--db", str(db), "--lang", "en").stdout.splitlines()
    assert [line for line in text if "owes" in line] == [
        "Vesna owes Ana RSD\xa020.00 over 1 evening",
        "Vesna owes Boris RSD\xa020.00 over 1 evening",
    ]
    assert text[-2].startswith("Counted: the finished games #1 (")
    assert text[-1].startswith(f"In play, not counted: #{sid} (")
    rows = cli("debts", "--db", str(db), "--csv").stdout.splitlines()
    assert len(rows) == 3 and all(r.endswith(",1") for r in rows[1:])
