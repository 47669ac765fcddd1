"""Issue 22's classes of bad input, generated: deep nesting, folders, bit flips, seat keys,
look-alike names, settings of the wrong type or size, escapes.  Each goes through the CLI's
``main`` (the same code as ``scorepad``, in this process so that hundreds of cases run): it is
refused with exit 2 and sentences, never an exception, or accepted when it is in fact valid."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.cli import main
from scorepad.scoring.ledger.bula import BulaAllPass
from scorepad.scoring.lookalike import _classes, skeleton
from scorepad.scoring.pulya.convention import SETTING_NAMES
from scorepad.scoring.pulya.session import Raspasy, look_alike
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_record

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
TMP = Path(tempfile.mkdtemp(prefix="scorepad-fuzz-"))


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--lang", "en", *args])
    return code, out.getvalue(), err.getvalue()


def settle(data: Any) -> tuple[int, str, str]:
    path = TMP / "in.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return cli("settle", str(path), "--no-explain")


def refused(result: tuple[int, str, str]) -> list[str]:
    code, out, err = result
    assert (code, out) == (2, ""), err
    assert err.strip(), "a refusal says why"
    return err.splitlines()


def bula(**kw: Any) -> dict[str, Any]:
    return {
        "format": "scorepad-session/1",
        "players": ["Anna", "Boris", "Vera"],
        "convention": "balkan",
        "deals": [],
    } | kw


@FUZZ
@given(depth=st.integers(200, 3000), where=st.sampled_from(["deals", "players", "overrides"]))
def test_deep_nesting_is_refused(depth: int, where: str) -> None:
    text = json.dumps(bula(**{where: "@"})).replace('"@"', "[" * depth + "]" * depth)
    assert refused(settle(text))
    record = '{"format": "scorepad-deal/1", "play": ' + "[" * depth + "]" * depth + "}"
    (TMP / "deal.json").write_text(record, encoding="utf-8")
    assert refused(cli("audit", str(TMP / "deal.json")))


@FUZZ
@given(
    name=st.text(st.characters(codec="utf-8", exclude_characters="/\0"), min_size=1, max_size=12)
)
def test_a_folder_is_refused_as_input(name: str) -> None:
    if name in (".", ".."):
        return
    folder = TMP / "folders" / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # a name the file system refuses
    for command in ("settle", "audit"):
        shown = str(folder) if str(folder).isprintable() else repr(str(folder))[1:-1]
        assert refused(cli(command, str(folder))) == [f"{shown} is a folder, not a file"]


def _good_db() -> Path:
    path = TMP / "good.db"
    if not path.exists():
        with Store(path) as s:
            sid = s.create_session(["Anna", "Boris", "Vera"])
            r = Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}})
            s.add_deal(sid, r, seen=0)
            b = s.create_session(["Anna", "Boris", "Vera"], convention="balkan")
            s.add_deal(b, BulaAllPass(type="allpass"), seen=0)
        con = sqlite3.connect(path)
        con.execute("PRAGMA journal_mode=DELETE")
        con.close()
    return path


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 7)), min_size=1, max_size=60))
def test_bit_flips_in_a_database_are_sentences(flips: list[tuple[int, int]]) -> None:
    data = bytearray(_good_db().read_bytes())
    for at, bit in flips:
        data[at % len(data)] ^= 1 << bit
    db = TMP / "flipped.db"
    for side in ("-wal", "-shm", "-journal"):
        Path(str(db) + side).unlink(missing_ok=True)
    db.write_bytes(bytes(data))
    for command in (["sessions"], ["settle", "1"], ["settle", "2"], ["history", "1"]):
        code, _, err = cli(*command, "--db", str(db))
        assert code in (0, 2)
        if code == 2:
            assert err.strip()
    assert db.read_bytes() == bytes(data)  # a read never writes


#: A well-formed game of each ledger family but for its defence.
GAMES: dict[str, dict[str, Any]] = {
    "balkan": {"type": "game", "declarer": 1, "bid": 2},
    "prefa": {"type": "game", "declarer": 1, "contract": "6S"},
    "austrian": {"type": "game", "declarer": 1, "suit": "C"},
    "swabian": {"type": "game", "declarer": 1, "suit": "C"},
}


@FUZZ
@given(
    key=st.text(max_size=4).filter(lambda k: k not in ("0", "1", "2")),
    convention=st.sampled_from(sorted(GAMES)),
)
def test_a_seat_key_other_than_0_1_2_is_refused(key: str, convention: str) -> None:
    role = "play" if convention in ("austrian", "swabian") else "pass"
    deal = GAMES[convention] | {"defence": {"0": role, key: role}}
    lines = refused(settle(bula(convention=convention, deals=[deal])))
    assert any(line.startswith("deal 1: defence: ") and "not a seat" in line for line in lines)
    assert all(line.isprintable() for line in lines), lines


def _confusable_pairs() -> list[tuple[str, str]]:
    groups: dict[str, list[str]] = {}
    for ch, root in _classes().items():
        groups.setdefault(root, []).append(ch)
    return [
        (a, b)
        for members in groups.values()
        for a in members
        for b in members
        if a != b and a.isalpha() and b.isalpha() and a.isascii() and skeleton(a) == skeleton(b)
    ]


PAIRS = _confusable_pairs()


@FUZZ
@given(
    base=st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=2, max_size=10),
    pair=st.sampled_from(PAIRS),
    at=st.integers(0, 9),
)
def test_a_look_alike_name_is_refused_in_a_family_file(
    base: str, pair: tuple[str, str], at: int
) -> None:
    at %= len(base) + 1
    name = base[:at] + pair[0] + base[at:]
    twin = base[:at] + pair[1] + base[at:]
    assert look_alike(name) == look_alike(twin)
    result = settle(bula(players=[name, twin, "Зоя"]))
    code, _, err = result
    assert code == 2 and "players" in err, (name, twin, err)


INVISIBLE = st.sampled_from(
    ["\u3164", "\u2800", "\u2062", "\u180e", "\u200b", "\u2060", "\ufeff", "\u034f", "\ufe0f"]
    + [chr(c) for c in range(0xE0020, 0xE0080, 7)]
)


@FUZZ
@given(
    name=st.text(st.sampled_from("AnaBors"), max_size=6),
    ch=INVISIBLE,
    convention=st.sampled_from(["balkan", "prefa", "austrian", "swabian", "sochi"]),
)
def test_an_invisible_character_in_a_name_or_note_is_refused(
    name: str, ch: str, convention: str
) -> None:
    data = bula(convention=convention, players=[name + ch, "Boris", "Vera"])
    if convention == "sochi":
        data["pool_target"] = 10
    (line,) = refused(settle(data))
    assert f"U+{ord(ch):04X}" in line


SETTING_VALUES = st.one_of(
    st.integers(-(10**7), 10**7),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
    st.lists(st.integers(), max_size=2),
)


@FUZZ
@given(name=st.sampled_from(["start_bula", "bula_weight", "ante", "kassa"]), value=SETTING_VALUES)
def test_a_family_setting_is_strict_and_bounded(name: str, value: Any) -> None:
    convention = {"ante": "austrian", "kassa": "prefa"}.get(name, "balkan")
    code, _, err = settle(bula(convention=convention, overrides={name: value}))
    valid_int = isinstance(value, int) and not isinstance(value, bool)
    if not valid_int or not 0 <= value <= 10_000:
        assert code == 2 and err.startswith("overrides"), (name, value, err)
        assert "Input should" not in err and "Extra inputs" not in err  # the catalogs' words
    else:
        assert code in (0, 2)  # in range: the setting's own bounds decide (said in words)
        assert "Input should" not in err


@FUZZ
@given(
    convention=st.sampled_from(["balkan", "prefa", "austrian", "swabian", "sochi", "leningrad"]),
    mask=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_an_escaped_convention_is_the_same_convention(convention: str, mask: list[bool]) -> None:
    data = bula(convention=convention)
    if convention in ("sochi", "leningrad"):
        data["pool_target"] = 10
    plain = json.dumps(data)
    escaped_name = "".join(
        f"\\u{ord(c):04x}" if m else c for c, m in zip(convention, mask, strict=False)
    )
    escaped_name += convention[len(mask) :]
    escaped = plain.replace(f'"{convention}"', f'"{escaped_name}"')
    assert settle(escaped) == settle(plain)


# --- item 5: a good database plus one hand-written statement ----------------------------------

#: Values a hand edit leaves in a column: garbage JSON, the wrong JSON type, odd numbers, NULL.
ODD = st.sampled_from(
    [
        *("NULL", "''", "'{x'", "'[]'", "'5'", "'{}'", "'bogus'", "'null'", "-1", "0", "99"),
        *("2e9", "'[\"A\"]'", '\'{"type": "game"}\'', "X'00ff'", "'\u202e'"),
        "9223372036854775807",
    ]
)
ACTION_COLUMNS = ["seq", "kind", "deal_id", "deal", "reason", "target", "at"]
SESSION_COLUMNS = ["players", "convention", "overrides", "settings", "pool_target"]
SESSION_COLUMNS += ["first_dealer", "whist_price", "currency", "revision", "deals", "family"]
KINDS = st.sampled_from(["add", "edit", "void", "restore", "undo", "redo", "frobnicate", ""])


def _statement() -> st.SearchStrategy[str]:
    update_action = st.builds(
        "UPDATE actions SET {} = {} WHERE session_id = 1 AND seq = {}".format,
        st.sampled_from(ACTION_COLUMNS),
        ODD,
        st.integers(1, 2),
    )
    update_session = st.builds(
        "UPDATE sessions SET {} = {} WHERE id = 1".format, st.sampled_from(SESSION_COLUMNS), ODD
    )
    insert_action = st.builds(
        "INSERT INTO actions(session_id, seq, kind, deal_id, deal, target, at) "
        "VALUES (1, {}, '{}', {}, {}, {}, '2026-01-01T00:00:00')".format,
        st.integers(3, 9),
        KINDS,
        ODD,
        ODD,
        ODD,
    )
    delete_action = st.builds(
        "DELETE FROM actions WHERE session_id = 1 AND seq = {}".format, st.integers(1, 2)
    )
    return st.one_of(update_action, update_session, insert_action, delete_action)


@FUZZ
@given(statements=st.lists(_statement(), min_size=1, max_size=3))
def test_a_hand_damaged_session_is_a_sentence_and_the_other_stays_readable(
    statements: list[str],
) -> None:
    good = _good_db()
    intact = cli("settle", "2", "--db", str(good), "--no-explain")
    db = TMP / "damaged.db"
    for side in ("-wal", "-shm", "-journal"):
        Path(str(db) + side).unlink(missing_ok=True)
    shutil.copy(good, db)
    con = sqlite3.connect(db)
    con.executescript("DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete;")
    for sql in statements:
        # A statement SQLite itself refuses (NOT NULL, a unique seq) changes nothing.
        with contextlib.suppress(sqlite3.Error):
            con.execute(sql)
    con.commit()
    con.close()
    data = db.read_bytes()
    for command in (["settle", "1"], ["history", "1"], ["export", "1", "-"], ["sessions"]):
        code, _, err = cli(*command, "--db", str(db))
        assert code in (0, 2), (statements, command, err)
        if code == 2:
            assert str(db) in err and "Traceback" not in err, (statements, err)
            assert all(line.isprintable() for line in err.splitlines()), err
    assert cli("settle", "2", "--db", str(db), "--no-explain") == intact, statements
    assert db.read_bytes() == data  # a read never writes


# --- item 7: a short file given as the database ----------------------------------------------


@FUZZ
@given(content=st.binary(min_size=1, max_size=99), header=st.booleans())
def test_a_short_file_is_never_taken_for_a_new_database(content: bytes, header: bool) -> None:
    if header:
        content = (b"SQLite format 3\0" + content)[:99]  # shorter than SQLite's 100-byte header
    db = TMP / "short.db"
    for side in ("-wal", "-shm", "-journal"):
        Path(str(db) + side).unlink(missing_ok=True)
    db.write_bytes(content)
    path = TMP / "pulya.json"
    path.write_text(json.dumps(bula(convention="sochi", pool_target=10)), encoding="utf-8")
    code, out, err = cli("import", str(path), "--db", str(db))
    assert (code, out) == (2, "") and str(db) in err
    assert db.read_bytes() == content
    assert cli("sessions", "--db", str(db))[0] == 2 and db.read_bytes() == content


# --- items 14, 15: what a refusal quotes is short, escaped, in the catalogs' words ------------

HOSTILE = st.lists(
    st.sampled_from(["\x1b", "\x07", "\u202e", "\u2066", "\n", "\r", "\x9b", "]0;", "X", "ж"]),
    min_size=1,
    max_size=60,
).map(lambda parts: "\x1b" + "".join(parts))  # an escape always: every place refuses it
#: Pydantic's own English, which never reaches a player.
PYDANTIC = ("Input should", "Value error", "should have", "Extra inputs", "valid integer")


@FUZZ
@given(
    hostile=HOSTILE,
    where=st.sampled_from(
        ["key", "deal key", "defence key", "setting", "type", "name", "currency"]
    ),
    convention=st.sampled_from(["balkan", "prefa", "austrian", "swabian", "sochi"]),
    lang=st.sampled_from(["en", "ru"]),
)
def test_refused_text_is_quoted_short_and_escaped(
    hostile: str, where: str, convention: str, lang: str
) -> None:
    data = bula(convention=convention)
    if convention == "sochi":
        data["pool_target"] = 10
    deal: dict[str, Any] = {"type": "game", "declarer": 0, "defence": {"1": "pass"}}
    if where == "key":
        data[hostile] = 1
    elif where == "deal key":
        data["deals"] = [deal | {hostile: 1}]
    elif where == "defence key":
        data["deals"] = [deal | {"defence": {"1": "pass", hostile: "pass"}}]
    elif where == "setting":
        data["overrides"] = {hostile: 1}
    elif where == "type":
        data["deals"] = [{"type": hostile}]
    elif where == "name":
        data["players"] = ["Anna", hostile, "Vera"]
    else:
        data["currency"] = hostile
    code, out, err = settle_in(data, lang)
    assert (code, out) == (2, "")
    for line in err.splitlines():
        assert line.isprintable(), line  # no ESC, BEL, CSI, line break or bidi override
        assert not any(words in line for words in PYDANTIC), line
        assert "X" * 25 not in line and "ж" * 25 not in line  # at most 24 quoted


def settle_in(data: Any, lang: str) -> tuple[int, str, str]:
    path = TMP / "in.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--lang", lang, "settle", str(path), "--no-explain"])
    return code, out.getvalue(), err.getvalue()


@FUZZ
@given(
    name=st.sampled_from(SETTING_NAMES), value=SETTING_VALUES, lang=st.sampled_from(["en", "ru"])
)
def test_a_pulya_setting_is_refused_in_the_catalogs_words(name: str, value: Any, lang: str) -> None:
    data = bula(convention="sochi", pool_target=10, overrides={name: value})
    code, _, err = settle_in(data, lang)
    assert code in (0, 2)
    assert not any(words in err for words in PYDANTIC), (name, value, err)
    if code == 2:
        assert err.startswith("overrides") and all(ln.isprintable() for ln in err.splitlines())


@FUZZ
@given(
    family=st.sampled_from(["balkan", "prefa", "austrian"]),
    kind=st.sampled_from(
        [
            *("game", "misere", "raspasy", "correction", "allpass", "pik_no_contra", "redeal"),
            *("nonsuit", "swabian", "concede", "bete"),
        ]
    ),
)
def test_a_deal_type_is_answered_with_the_family_s_own(family: str, kind: str) -> None:
    code, _, err = settle_in(bula(convention=family, deals=[{"type": kind}]), "ru")
    assert code in (0, 2)  # a Prefa redeal or a pot's all-pass has no other field
    if "неизвестный тип сдачи" in err:
        assert "misere, raspasy or correction" not in err and "в этой игре сдача — " in err
        own = [t.strip() for t in err.rpartition("—")[2].split(",")]
        assert kind not in own  # a type of another family, answered with this one's


# --- item 3: a talon grouped by suit ---------------------------------------------------------


def by_suit(cards: str) -> str:
    """``Q♣ K♣ 9♥`` as ``♣QK ♥9``: grouped by suit, in the order written (an all-pass's talon
    leads its tricks in that order)."""
    groups: list[str] = []
    for card in cards.split():
        suit, rank = card[-1], card[:-1]
        if groups and groups[-1][0] == suit:
            groups[-1] += rank
        else:
            groups.append(suit + rank)
    return " ".join(groups)


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_a_talon_grouped_by_suit_audits_as_written_card_by_card(seed: int, players: int) -> None:
    r = random_record(RandomChooser(seed), players=players)
    plain = TMP / "plain.json"
    plain.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
    r["talon"] = by_suit(r["talon"])  # the README's grouped form: ♣QK
    grouped = TMP / "grouped.json"
    grouped.write_text(json.dumps(r, ensure_ascii=False), encoding="utf-8")
    assert cli("audit", str(grouped)) == cli("audit", str(plain))


def teardown_module() -> None:
    shutil.rmtree(TMP, ignore_errors=True)
