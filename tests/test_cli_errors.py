"""Bad input through the real CLI: exit 2, one clear line per problem on stderr, nothing on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from conftest import ROOT, run_cli, session

GOOD_GAME = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "pass"],
    "tricks": {"1": 7, "2": 2, "0": 1},
}


def settle(data: Any) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    done = run_cli("settle", "-", "--json", stdin=text)
    return done.returncode, done.stdout, done.stderr


def game(**kw: Any) -> dict[str, Any]:
    return {**GOOD_GAME, **kw}


CASES = [
    (
        "tricks sum to 11",
        session([game(tricks={"1": 7, "2": 3, "0": 1})]),
        ["deal 1: tricks: tricks sum to 11, must be 10"],
    ),
    (
        "dealer declares",
        session(
            [game(declarer=3, calls=["whist", "pass"], tricks={"3": 7, "1": 2, "2": 1})],
            players=["A", "B", "C", "D"],
            first_dealer=3,
        ),
        ["deal 1: declarer: D deals this deal and sits it out: the dealer cannot declare"],
    ),
    (
        "half on an 8",
        session([game(contract="8S", calls=["pass", "half"], tricks=None)]),
        ["deal 1: calls: 'half' is not allowed on a 8-game"],
    ),
    (
        "half said first",
        session([game(calls=["half"], tricks=None)]),
        ["deal 1: calls: 'half' is said by the second defender, after a pass, never first"],
    ),
    (
        "misère with calls",
        session([{"type": "misere", "declarer": 0, "tricks": {"0": 0}, "calls": ["whist"]}]),
        ["deal 1: calls: a misère is not whisted: it has no calls"],
    ),
    (
        "mistyped setting",
        session([], overrides={"whist_styel": "greedy"}),
        ["overrides: unknown setting 'whist_styel' (did you mean 'whist_style'?)"],
    ),
    (
        "wrong type of setting",
        session([], overrides={"half_whist": 6}),
        ["overrides: half_whist: must be a list"],
    ),
    (
        "seat out of range",
        session([game(declarer=5)]),
        ["deal 1: declarer: at most 3"],
    ),
    (
        "seat 3 of three players",
        session([game(declarer=3, tricks={"3": 7, "0": 2, "2": 1})]),
        ["deal 1: declarer: seat 3 is out of range: the seats are 0 to 2"],
    ),
    (
        "two players",
        session([], players=["A", "B"]),
        ["players: a table has 3 or 4 players, not 2"],
    ),
    (
        "five players",
        session([], players=["A", "B", "C", "D", "E"]),
        ["players: a table has 3 or 4 players, not 5"],
    ),
    (
        "duplicate name",
        session([], players=["Anna", "Boris", "anna"]),
        ["players: the name 'anna' is used twice"],
    ),
    (
        "malformed JSON",
        '{"format": "scorepad-session/1", "players": [',
        ["the file is not valid JSON (EOF while parsing a list at line 1 column 45)"],
    ),
    (
        "not a session",
        {"name": "shopping list", "items": ["milk"]},
        ["format: this is not a Scorepad session (format must be 'scorepad-session/1')"],
    ),
    ("unknown deal field", session([game(trick={"1": 7})]), ["deal 1: trick: unknown field"]),
    (
        "unknown convention",
        session([], convention="vladivostok"),
        [
            "convention: unknown convention 'vladivostok' (known: fspr, gusarik, kazakhstan, kodex, leningrad, piter-home, piter, rostov, sochi, "
            "balkan-pot, balkan, prefa, american, austrian-1829, austrian, illustrated, swabian)"
        ],
    ),
]


@pytest.mark.parametrize(("name", "data", "lines"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_refused_with_its_reason(name: str, data: Any, lines: list[str]) -> None:
    code, out, err = settle(data)
    assert code == 2
    assert out == ""
    assert err.splitlines() == lines


def test_every_problem_is_listed_one_per_line() -> None:
    data = session(
        [
            game(tricks={"1": 7, "2": 3, "0": 1}),
            game(),
            game(contract="8S", calls=["pass", "half"], tricks=None),
        ]
    )
    code, out, err = settle(data)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "deal 1: tricks: tricks sum to 11, must be 10",
        "deal 3: calls: 'half' is not allowed on a 8-game",
    ]


def test_errors_in_russian() -> None:
    data = json.dumps(session([game(tricks={"1": 7, "2": 3, "0": 1})]))
    done = run_cli("--lang", "ru", "settle", "-", stdin=data)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["сдача 1: tricks: сумма взяток 11, а должна быть 10"]


def test_missing_file() -> None:
    done = run_cli("--lang", "en", "settle", "/nonexistent/session.json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("cannot read /nonexistent/session.json: ")


def test_text_sheet_is_readable() -> None:
    done = run_cli("--lang", "en", "settle", "-", stdin=json.dumps(session([GOOD_GAME])))
    assert done.returncode == 0, done.stderr
    assert "Boris made 7♠: 4 into the pulya." in done.stdout
    assert "  Anna → Boris: RUB\u00a013.33" in done.stdout.splitlines()
    assert "Boris: 14⅔ whists, RUB\u00a014.67" in done.stdout.splitlines()


def test_a_reader_that_left_the_pipe_gets_no_traceback() -> None:
    """`scorepad demo | head -1`: the pipe's reader is gone before the first flush."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader left: every write to the pipe fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "scorepad.cli", "--lang", "en", "demo"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 1
