"""Fuzzing the CLI with mutated files: exit 0 or 2 only, never a traceback.

A refusal prints nothing on stdout and one non-empty line per problem on stderr, and a refused
import leaves the database as it was.  The bulk runs ``scorepad.cli.main`` in this process
(stdout and stderr captured); a handful run the real CLI.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_families_cli import D_E1, G_E15

from conftest import run_cli
from scorepad.cli import main
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEMO = Path(__file__).resolve().parent.parent / "scorepad" / "data" / "demo-session.json"

# Small seeds, so that a few edits often land on a number, a seat key or a name.
EVERY_KIND = {
    "format": "scorepad-session/1",
    "players": ["Anna", "Boris", "Vera"],
    "convention": "sochi",
    "overrides": {"pool_point_whists": 10},
    "pool_target": 20,
    "whist_price": "1.00",
    "currency": "RUB",
    "deals": [
        {
            "type": "game",
            "declarer": 1,
            "contract": "7S",
            "calls": ["whist", "pass"],
            "tricks": {"1": 7, "2": 2, "0": 1},
        },
        {"type": "misere", "declarer": 2, "tricks": {"2": 0}},
        {"type": "raspasy", "tricks": {"0": 2, "1": 5, "2": 3}},
        {
            "type": "correction",
            "seat": 1,
            "pool": 2,
            "gora": "-7/2",
            "whists": {"0": 10, "2": "10/3"},
            "note": "agreed at the table",
        },
    ],
}
SESSIONS: list[Any] = [
    EVERY_KIND,
    random_session(RandomChooser(11), deals=6),
    random_session(RandomChooser(12), convention="leningrad", players=4, deals=6),
    json.loads(DEMO.read_text(encoding="utf-8")),
    D_E1,  # the bula and kassa families: their own deals, the same file
    G_E15,
]
RECORDS: list[Any] = [json.loads((FIXTURES / "deals" / "eight-spades.json").read_text("utf-8"))]

# Values a hostile or careless hand writes: wrong types, out of range, huge, control characters.
HOSTILE_VALUES = [
    10**400,
    -(10**300),
    "1/0",
    "-3/0",
    "7/13",
    "-1",
    "-4",
    "01",
    "9" * 5000,
    "x" * 20_000,
    "\u202eevil",
    "\x1b[2J",
    "a\nb",
    "\ud800",
    "Ａnna",
    "Anna",
    "7S",
    "10NT",
    "11S",
    "whist",
    "half",
    "pass",
    "correction",
    "game",
    "raspasy",
    "misere",
    "sochi",
    "RUB",
    "",
    "♠AK ♥A",
    "A♠ K♠",
    1.5,
    float("inf"),
    [],
    {},
]
HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.sampled_from(HOSTILE_VALUES),
    st.sampled_from(HOSTILE_VALUES),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.integers(min_value=-4, max_value=12),
    st.text(max_size=12),
    st.none(),
    st.booleans(),
    st.lists(st.integers(min_value=-3, max_value=12), max_size=4),
    st.dictionaries(
        st.sampled_from(["0", "1", "2", "3", "-1", "4", "x", "00"]),
        st.integers(min_value=-3, max_value=12) | st.sampled_from(["1/0", "5/2", "9" * 30]),
        max_size=4,
    ),
).map(copy.deepcopy)  # a drawn list or table is the file's own, never a shared one


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*here, i))
    return found


def _mutate(data: st.DataObject, tree: Any) -> Any:
    """One to three edits: replace, delete, rename a key, or add an element."""
    tree = copy.deepcopy(tree)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        path = data.draw(st.sampled_from(_paths(tree)[1:]))
        parent = tree
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        op = data.draw(st.sampled_from(["replace", "replace", "delete", "rename", "add"]))
        if op == "replace":
            parent[last] = data.draw(HOSTILE)
        elif op == "delete":
            del parent[last]
        elif op == "rename" and isinstance(parent, dict):
            key = data.draw(st.sampled_from(["-1", "4", "type", "seat", "tricks", "x" * 300]))
            parent[key] = parent.pop(last)
        elif isinstance(parent[last], list):
            parent[last].append(data.draw(HOSTILE))
        elif isinstance(parent[last], dict):
            parent[last][data.draw(st.sampled_from(["0", "-1", "note", "pool"]))] = data.draw(
                HOSTILE
            )
    return tree


def _text(data: st.DataObject, tree: Any) -> bytes:
    """The file: the mutated tree as JSON, sometimes cut short or with a byte changed."""
    text = json.dumps(_mutate(data, tree), ensure_ascii=data.draw(st.booleans()))
    raw = text.encode("utf-8", "surrogatepass")
    cut = data.draw(st.sampled_from(["whole", "whole", "whole", "truncate", "byte"]))
    if cut == "truncate":
        raw = raw[: data.draw(st.integers(min_value=0, max_value=len(raw)))]
    elif cut == "byte" and raw:
        at = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
        raw = raw[:at] + bytes([data.draw(st.integers(0, 255))]) + raw[at + 1 :]
    return raw


def cli(*args: str) -> tuple[int, str, str]:
    """``scorepad.cli.main`` in this process, its stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def check_outcome(code: int, out: str, err: str, *, verdict: bool = False) -> None:
    """Exit 0 or 2; a refusal says one line per problem on stderr and nothing on stdout, except
    `audit --json` (``verdict``), which always prints its verdict document as well."""
    assert code in (0, 2), err
    if code == 0:
        assert err == ""
        assert out
    else:
        if verdict:
            assert json.loads(out)["verdict"] == "illegal"
        else:
            assert out == ""
        lines = err.split("\n")
        assert lines[-1] == "" and len(lines) >= 2  # each line ends with a newline
        assert all(line.strip() for line in lines[:-1])  # one problem, one line, none empty
        assert "Traceback" not in err
        assert len(err) < 2000 * len(lines)  # a huge value is never echoed whole


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FUZZ
@given(st.data())
def test_settle_mutated_sessions(tmp_path: Path, data: st.DataObject) -> None:
    path = tmp_path / "session.json"
    path.write_bytes(_text(data, data.draw(st.sampled_from(SESSIONS))))
    check_outcome(*cli("--lang", data.draw(st.sampled_from(["en", "ru"])), "settle", str(path)))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("fuzz") / "pristine.db"
    with Store(db) as s:
        s.import_session(json.dumps(SESSIONS[0]))
    return db


@settings(FUZZ, max_examples=60)
@given(st.data())
def test_import_mutated_sessions(tmp_path: Path, pristine: Path, data: st.DataObject) -> None:
    db = tmp_path / "work.db"
    for leftover in tmp_path.glob("work.db*"):
        leftover.unlink()
    shutil.copy(pristine, db)
    path = tmp_path / "session.json"
    path.write_bytes(_text(data, data.draw(st.sampled_from(SESSIONS))))
    code, out, err = cli("--lang", "en", "import", str(path), "--db", str(db))
    check_outcome(code, out, err)
    if code == 2:
        assert db.read_bytes() == pristine.read_bytes()
        with Store(db) as s:
            assert [r.id for r in s.sessions()] == [1]
    else:
        assert out == "2\n"


@settings(FUZZ, max_examples=120)
@given(st.data())
def test_audit_mutated_records(tmp_path: Path, data: st.DataObject) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(_text(data, data.draw(st.sampled_from(RECORDS))))
    args = ["--lang", data.draw(st.sampled_from(["en", "ru"])), "audit", str(path)]
    as_json = data.draw(st.booleans())
    if as_json:
        args.append("--json")
    from scorepad.cli import _records

    if len(_records([str(path)])) > 1:
        # The mutation made JSON lines (a newline inside): a batch, each line's verdict a line
        # of the report on stdout, naming the line; nothing on stderr; 2 if any is refused.
        code, out, err = cli(*args)
        assert code in (0, 2) and err == "", err
        report = out.splitlines()
        assert report and "Traceback" not in out
        if as_json:
            assert all(json.loads(line)["source"].startswith(f"{path}:") for line in report)
        else:
            assert all(line.startswith(f"{path}:") for line in report if line[:1] != " ")
        return
    check_outcome(*cli(*args), verdict=as_json)


@settings(FUZZ, max_examples=4)
@given(st.data())
def test_the_real_cli_on_mutated_files(tmp_path: Path, data: st.DataObject) -> None:
    session = tmp_path / "session.json"
    session.write_bytes(_text(data, data.draw(st.sampled_from(SESSIONS))))
    done = run_cli("--lang", "en", "settle", str(session))
    check_outcome(done.returncode, done.stdout, done.stderr)
    record = tmp_path / "deal.json"
    record.write_bytes(_text(data, RECORDS[0]))
    done = run_cli("--lang", "ru", "audit", str(record))
    check_outcome(done.returncode, done.stdout, done.stderr)
