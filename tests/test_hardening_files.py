"""Issue 22, round two, for files: each item through the real CLI (its ``main``, in process), each with the
sentence a user reads.  Items 1-4 (tracebacks), 10-15 (the families as strict as the pulya, the
audit's quotes).  The databases' items are in ``test_hardening_db.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, run_cli
from scorepad.play.cards import Hand
from scorepad.scoring.peek import family_ids
from scorepad.testing.generate import RandomChooser, random_record

DEEP = 1000
#: One preset of each ledger family (bula, kassa, pot, direct).
PRESETS = {family: preset for preset, family in reversed(list(family_ids().items()))}
EIGHT = json.loads((ROOT / "tests" / "fixtures" / "deals" / "eight-spades.json").read_text())


def family_file(convention: str = "balkan", **kw: Any) -> dict[str, Any]:
    return {
        "format": "scorepad-session/1",
        "players": ["Anna", "Boris", "Vera"],
        "convention": convention,
        "deals": [],
    } | kw


def written(tmp_path: Path, data: Any, name: str = "in.json") -> Path:
    path = tmp_path / name
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path


def refused(*args: str) -> list[str]:
    """The lines of a refusal: exit 2, nothing on stdout, no traceback."""
    done = run_cli(*args)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr.splitlines()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- 1. a family file nested 1,000 deep --------------------------------------------------------


@pytest.mark.parametrize("command", ["settle", "import"])
def test_1_a_family_file_nested_deep_is_refused(command: str, tmp_path: Path) -> None:
    text = json.dumps(family_file()).replace('"deals": []', f'"deals": [{nested(DEEP)}]')
    path = written(tmp_path, text)
    db = tmp_path / "x.db"
    lines = refused("--lang", "en", command, str(path), "--db", str(db))
    assert lines == ["the file nests deeper than 201 levels (line 1, column 305)"]
    assert run_cli("sessions", "--db", str(db)).stdout == ""  # nothing was written
    (line,) = refused("--lang", "ru", command, str(path), "--db", str(db))
    assert line == "вложенность файла больше 201 (строка 1, столбец 305)"


def test_1_201_levels_are_read_and_202_refused(tmp_path: Path) -> None:
    """The limit the sentence names is the parser's own."""
    for depth in (201, 202):  # the file's object, then its deals: refused either way
        text = json.dumps(family_file()).replace('"deals": []', f'"deals": {nested(depth - 1)}')
        lines = refused("--lang", "en", "settle", str(written(tmp_path, text)))
        assert ("the file nests deeper than 201 levels (line 1, column 305)" in lines) == (
            depth == 202
        ), lines


# --- 2. audit of a record nested that deep; a batch gives every line its verdict ---------------


def test_2_audit_of_a_deep_record_and_a_batch_led_by_one(tmp_path: Path) -> None:
    deep = written(tmp_path, '{"format": "scorepad-deal/1", "hands": ' + nested(DEEP) + "}")
    lines = refused("--lang", "en", "audit", str(deep))
    assert lines == ["the file nests deeper than 201 levels (line 1, column 240)"]
    batch = written(
        tmp_path, nested(DEEP) + "\n" + json.dumps(EIGHT, ensure_ascii=False) + "\n", "night.jsonl"
    )
    done = run_cli("--lang", "en", "audit", str(batch))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith(f"{batch}:1: ") and first.endswith(
        ": the file nests deeper than 201 levels (line 1, column 202)"
    )
    assert second.startswith(f"{batch}:2: every step is legal; entry ")


# --- 3. an all-pass record whose talon is grouped by suit --------------------------------------


def test_3_a_talon_grouped_by_suit_is_audited(tmp_path: Path) -> None:
    r = random_record(RandomChooser(0), players=3)  # an all-pass; the talon 8♠ 9♥ leads
    assert r["auction"] == ["pass", "pass", "pass"] and r["talon"] == "8♠ 9♥"
    plain = run_cli("--lang", "en", "audit", str(written(tmp_path, r, "plain.json")))
    r["talon"] = str(Hand.parse(r["talon"]))
    assert r["talon"] == "♠8 ♥9"  # the README's grouped form
    grouped = run_cli("--lang", "en", "audit", str(written(tmp_path, r, "grouped.json")))
    assert (grouped.returncode, grouped.stderr) == (0, "")
    assert grouped.stdout == plain.stdout and "the talon's 8♠ leads" in grouped.stdout


# --- 4. a folder as the input file ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["settle", "import", "audit"])
def test_4_a_folder_as_the_input_is_refused(command: str, tmp_path: Path) -> None:
    folder = tmp_path / "evening"
    folder.mkdir()
    assert refused("--lang", "en", command, str(folder), "--db", str(tmp_path / "x.db")) == [
        f"{folder} is a folder, not a file"
    ]


# --- 10. duplicate, look-alike and invisible names in every family ------------------------------

TWINS = [
    (["Anna", "Anna", "Vera"], "players: the name 'Anna' is used twice"),
    (["Anna", "ANNA", "Vera"], "players: the name 'ANNA' is used twice"),
    (["Anna", "Ａnna", "Vera"], "players: the name 'Ａnna' looks like 'Anna': use one spelling"),
    (["Anna", "Аnna", "Vera"], "players: the name 'Аnna' looks like 'Anna': use one spelling"),
    (["Boris", "Bοris", "Vera"], "players: the name 'Bοris' looks like 'Boris': use one spelling"),
]
INVISIBLE = ["\u3164", "\u2800", "\U000e0041", "\u2062", "\u180e"]


@pytest.mark.parametrize("family", sorted(PRESETS))
def test_10_look_alike_and_invisible_names_in_every_family(family: str, tmp_path: Path) -> None:
    for k, (players, line) in enumerate(TWINS):
        path = written(tmp_path, family_file(PRESETS[family], players=players), f"t{k}.json")
        assert refused("--lang", "en", "settle", str(path)) == [line], players
    for k, ch in enumerate(INVISIBLE):
        code = f"U+{ord(ch):04X}"
        for name in (ch, "Anna" + ch):
            path = written(tmp_path, family_file(PRESETS[family], players=[name, "B", "V"]))
            assert refused("--lang", "en", "settle", str(path)) == [
                f"players.0: a player name must not contain the character {code}"
            ], (k, name)


def test_10_an_invisible_tag_never_reaches_the_roster(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    note = family_file("balkan", deals=[{"type": "allpass", "note": "ok\U000e0041"}])
    assert refused("--lang", "en", "import", str(written(tmp_path, note)), "--db", str(db)) == [
        "deal 1: note: a note must not contain the character U+E0041"
    ]
    pulya = {
        "format": "scorepad-session/1",
        "players": ["Anna\U000e0041", "Boris", "Vera"],
        "convention": "sochi",
        "pool_target": 10,
    }
    assert refused("--lang", "en", "import", str(written(tmp_path, pulya)), "--db", str(db)) == [
        "players.0: a player name must not contain the character U+E0041"
    ]
    assert run_cli("sessions", "--db", str(db)).stdout == ""  # nothing was written


# --- 11. family seat keys ------------------------------------------------------------------------


@pytest.mark.parametrize("key", [" 2", "+2", "2.0", "01"])
def test_11_a_family_seat_key_is_0_to_3_written_plainly(key: str, tmp_path: Path) -> None:
    deal = {"type": "game", "declarer": 1, "bid": 2, "defence": {"0": "pass", key: "pass"}}
    path = written(tmp_path, family_file(deals=[deal]))
    assert refused("--lang", "en", "settle", str(path)) == [
        f"deal 1: defence: {key!r} is not a seat: seats are 0 to 3"
    ]


# --- 12. family settings: strict types, the documented bounds ----------------------------------

SETTINGS = [
    (
        "balkan",
        {"start_bula": 100_000},
        "overrides: start_bula: a setting's numbers are at most 10000",
    ),
    ("austrian", {"ante": 1_000_000}, "overrides: ante: a setting's numbers are at most 10000"),
    ("balkan", {"start_bula": "60"}, "overrides.start_bula: must be a whole number"),
    ("balkan", {"start_bula": 60.0}, "overrides.start_bula: must be a whole number"),
    ("balkan", {"start_bula": True}, "overrides.start_bula: must be a whole number"),
    ("prefa", {"kassa": "31"}, "overrides.kassa: must be a whole number"),
]


@pytest.mark.parametrize(("convention", "overrides", "line"), SETTINGS)
def test_12_family_settings_are_strict_and_bounded(
    convention: str, overrides: dict[str, Any], line: str, tmp_path: Path
) -> None:
    path = written(tmp_path, family_file(convention, overrides=overrides))
    assert refused("--lang", "en", "settle", str(path)) == [line]


# --- 13. a convention written with a \u escape ----------------------------------------------------


def test_13_the_family_is_told_from_the_parsed_convention(tmp_path: Path) -> None:
    deals = [{"type": "allpass"}]
    plain = json.dumps(family_file(deals=deals))
    escaped = plain.replace('"balkan"', '"\\u0062alkan"')
    assert escaped != plain
    a = run_cli("--lang", "en", "settle", str(written(tmp_path, plain, "a.json")), "--json")
    b = run_cli("--lang", "en", "settle", str(written(tmp_path, escaped, "b.json")), "--json")
    assert (b.returncode, b.stderr) == (0, "")
    assert b.stdout == a.stdout and json.loads(b.stdout)["family"] == "bula"


# --- 14. messages name the family's own choices, in the user's language ------------------------


# Prefa's settings, in the model's order: what a misspelt one is answered with.
PREFA_SETTINGS = "kassa, chips_per_point, ten_nt, ten_as_nine, four_aces, four_aces_value, counter_invitation, sitting_out_chips, end"


def test_14_the_family_names_its_own_choices_in_both_languages(tmp_path: Path) -> None:
    misere = written(tmp_path, family_file(deals=[{"type": "misere", "declarer": 1}]), "m.json")
    assert refused("--lang", "en", "settle", str(misere)) == [
        "deal 1: unknown deal type 'misere': a deal of this game is game, allpass, pik_no_contra"
    ]
    assert refused("--lang", "ru", "settle", str(misere)) == [
        "сдача 1: неизвестный тип сдачи 'misere': в этой игре сдача — game, allpass, pik_no_contra"
    ]
    typo = written(tmp_path, family_file("balkann"), "c.json")
    (line,) = refused("--lang", "en", "settle", str(typo))
    assert (
        line.startswith("convention: unknown convention 'balkann' (known: ") and "balkan," in line
    )
    (line,) = refused("--lang", "ru", "settle", str(typo))
    assert line.startswith("convention: неизвестная конвенция 'balkann' (известны: ")
    setting = written(tmp_path, family_file("prefa", overrides={"kasa": 31}), "s.json")
    assert refused("--lang", "en", "settle", str(setting)) == [
        f"overrides: unknown setting 'kasa'; the settings of this game are {PREFA_SETTINGS}"
    ]
    assert refused("--lang", "ru", "settle", str(setting)) == [
        f"overrides: неизвестная настройка 'kasa'; настройки этой игры: {PREFA_SETTINGS}"
    ]
    bound = written(tmp_path, family_file(overrides={"start_bula": 3}), "b.json")
    assert refused("--lang", "en", "settle", str(bound)) == [
        "overrides.start_bula: must be a multiple of 2"
    ]
    assert refused("--lang", "ru", "settle", str(bound)) == [
        "overrides.start_bula: должно быть кратно 2"
    ]
    bid = {"type": "game", "declarer": 1, "bid": 9, "defence": {"0": "pass", "2": "pass"}}
    high = written(tmp_path, family_file(deals=[bid]), "h.json")
    assert refused("--lang", "ru", "settle", str(high)) == ["сдача 1: bid: не больше 7"]


def test_14_no_pydantic_english_reaches_the_player(tmp_path: Path) -> None:
    """Bounds, list lengths, choices, a contract and a pulya file's overrides: the catalogs'
    words in the player's language (pydantic's own sentences are English only)."""
    game = {"type": "game", "declarer": 5, "contract": "6Q", "calls": ["whist", "pass"]}
    pulya = family_file("sochi", pool_target=100_000, players=["A", "B"], deals=[game])
    assert refused("--lang", "ru", "settle", str(written(tmp_path, pulya, "p.json"))) == [
        "players: за столом 3 или 4 игрока, не 2",
        "pool_target: не больше 10000",
        "сдача 1: declarer: не больше 3",
        "сдача 1: contract: '6Q' — не контракт: уровень 6-10 и S, C, D, H или NT, например '7S'",
    ]
    overrides = {"whist_style": "x", "whist_styel": "greedy", "game_price": {"6": 2}}
    path = written(tmp_path, family_file("sochi", pool_target=10, overrides=overrides), "o.json")
    assert refused("--lang", "ru", "settle", str(path)) == [
        "overrides: game_price: нужны ровно ключи 6, 7, 8, 9, 10, misere; не хватает 7, 8, 9, 10, misere",
        "overrides: whist_style: должно быть одним из: 'greedy', 'gentleman'",
        "overrides: неизвестная настройка 'whist_styel' (может быть, 'whist_style'?)",
    ]
    kassa = {"type": "game", "declarer": 1, "contract": "6Q", "defence": {"0": "pass"}}
    path = written(tmp_path, family_file("prefa", deals=[kassa]), "k.json")
    assert refused("--lang", "ru", "settle", str(path)) == [
        "сдача 1: contract: '6Q' — не контракт: уровень 6-10 и S, C, D, H или NT, например '7S'"
    ]


# --- 15. audit quotes refused text short and escaped ------------------------------------------


def test_15_audit_quotes_24_escaped_characters(tmp_path: Path) -> None:
    r = json.loads(json.dumps(EIGHT))
    hostile = "\x1b[2J\x07\u202e" + "X" * 60
    r["play"][0] = f"A♠ 8♠ {hostile}"
    (line,) = refused("--lang", "en", "audit", str(written(tmp_path, r)))
    assert not any(ch in line for ch in "\x1b\x07\u202e")
    shown = "\\x1b[2J\\x07\\u202e" + "X" * 18 + "…"  # 24 characters, then the ellipsis
    assert line == f"trick 1: '{shown}' is not a card: write A♠, 10♥, AS, TH or Т♠"
    r["play"][0] = "A♠ 8♠ 7♠"
    r["auction"][0] = "\x1b]0;owned\x07"
    (line,) = refused("--lang", "en", "audit", str(written(tmp_path, r)))
    assert line == (
        "auction, bid 1: '\\x1b]0;owned\\x07' is not a bid: pass, misere, or a contract like 7S"
    )


def test_15_a_key_the_file_chose_is_quoted_escaped_in_every_family(tmp_path: Path) -> None:
    """An unknown field's name is text of the file too: quoted short and escaped, never raw
    (a key of ESC ] 0 ; … BEL would retitle the terminal)."""
    hostile = "\x1b]0;owned\x07\u202e" + "Y" * 40
    shown = "'\\x1b]0;owned\\x07\\u202e" + "Y" * 13 + "…'"  # 24 characters, escaped
    for convention in ("austrian", "sochi"):
        deal = {"type": "game", "declarer": 0, "suit": "C", "defence": {"1": "play"}, hostile: 2}
        if convention == "sochi":
            deal = {"type": "game", "declarer": 0, "contract": "6S", hostile: 2}
        data = family_file(convention, deals=[deal], pool_target=10) | {hostile: 1}
        if convention != "sochi":
            del data["pool_target"]
        lines = refused("--lang", "en", "settle", str(written(tmp_path, data)))
        assert f"deal 1: {shown}: unknown field" in lines and f"{shown}: unknown field" in lines
        assert not any(ch in line for line in lines for ch in "\x1b\x07\u202e"), lines
