"""Stable ids and idempotent moves between stores (issue #36, "Moving a table or a club between
stores"; issue #35 item 4; issue #39: publishing the same thing twice must change nothing).

Real SQLite files and the real CLI (``main(argv)`` in process; one subprocess for the exit
code)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import Draw

from conftest import run_cli, session
from scorepad.cli import main
from scorepad.store import Store
from scorepad.store.schema import schema_version
from scorepad.testing.generate import random_family_session, random_session

FIXTURES = Path(__file__).parent / "fixtures"
UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
LOST = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "whist"],
    "tricks": {"1": 6, "0": 3, "2": 1},
}
GAME = {
    "type": "game",
    "declarer": 0,
    "contract": "6S",
    "calls": ["whist", "pass"],
    "tricks": {"0": 6, "1": 3, "2": 1},
}


def rasp(a: int, b: int, c: int) -> dict[str, Any]:
    return {"type": "raspasy", "tricks": {"0": a, "1": b, "2": c}}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The real CLI in this process: its exit code, what it printed and what it said."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def export(db: Path, sid: int) -> str:
    with Store(db) as store:
        return store.export_session(sid)


def settled(db: Path, sid: int, capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = cli(capsys, "settle", str(sid), "--db", str(db), "--json")
    assert (code, err) == (0, "")
    return json.loads(out)


# --- a file imported twice ---------------------------------------------------------------------


def test_the_same_file_imported_twice_is_one_session_and_its_money_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A finished pulya: the debts count it (the 6.66 that became 13.32).
    deals = [GAME, LOST, GAME, LOST, GAME, GAME]
    src = write(tmp_path / "s.json", session(deals, pool_target=2, whist_price="0.37"))
    db = tmp_path / "a.db"
    assert cli(capsys, "import", str(src), "--db", str(db))[:2] == (0, "1\n")
    _, debts, _ = cli(capsys, "debts", "--db", str(db), "--lang", "en")
    assert debts.splitlines()[:2] == [
        "Boris owes Anna RUB\xa029.60 over 1 evening",
        "Boris owes Vera RUB\xa05.92 over 1 evening",
    ]
    first = settled(db, 1, capsys)
    code, out, err = cli(capsys, "import", str(src), "--db", str(db), "--lang", "en")
    assert (code, out) == (0, "1\n")
    assert err == "session 1 was in this database already: nothing new\n"
    assert cli(capsys, "debts", "--db", str(db), "--lang", "en")[1] == debts  # not doubled
    with Store(db) as store:
        assert [s.id for s in store.sessions()] == [1]
        assert len(store.history(1)) == 6
    assert settled(db, 1, capsys) == first
    # The export of a session now carries its ids; importing that export is the same session.
    exported = write(tmp_path / "e.json", export(db, 1))
    assert cli(capsys, "import", str(exported), "--db", str(db))[1] == "1\n"
    with Store(db) as store:
        assert len(store.sessions()) == 1


def test_an_export_carries_the_ids_of_the_session_its_players_and_its_deals(
    tmp_path: Path,
) -> None:
    db = tmp_path / "a.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        from conftest import typed

        rev = store.add_deal(sid, typed(store, sid, GAME), seen=0).revision
        store.add_deal(sid, typed(store, sid, rasp(2, 5, 3)), seen=rev)
        data = json.loads(store.export_session(sid))
        again = json.loads(store.export_session(sid))
    assert UID.fullmatch(data["uid"])
    assert len(data["player_uids"]) == 3 and all(UID.fullmatch(u) for u in data["player_uids"])
    assert [UID.fullmatch(d["uid"]) is not None for d in data["deals"]] == [True, True]
    assert len({data["uid"], *data["player_uids"], *(d["uid"] for d in data["deals"])}) == 6
    assert again == data  # stable: the same ids every time


def test_a_file_played_on_elsewhere_brings_its_new_deals_and_keeps_the_old(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laptop, phone = tmp_path / "laptop.db", tmp_path / "phone.db"
    src = write(tmp_path / "s.json", session([GAME, rasp(2, 5, 3)]))
    assert cli(capsys, "import", str(src), "--db", str(laptop))[0] == 0
    write(tmp_path / "out.json", export(laptop, 1))
    # The phone plays on: two more deals, the first of them voided.
    assert cli(capsys, "import", str(tmp_path / "out.json"), "--db", str(phone))[0] == 0
    with Store(phone) as store:
        from conftest import typed

        s = store.load(1)
        s = store.add_deal(1, typed(store, 1, rasp(4, 3, 3)), seen=s.revision)
        s = store.void_deal(1, s.journal.live[-1].deal_id, reason="misdeal", seen=s.revision)
        store.add_deal(1, typed(store, 1, rasp(3, 3, 4)), seen=s.revision)
    played_on = write(tmp_path / "phone.json", export(phone, 1))
    code, out, err = cli(capsys, "import", str(played_on), "--db", str(laptop), "--lang", "en")
    assert (code, out) == (0, "1\n")
    assert err == "session 1 was in this database already: 2 new deals added\n"
    assert export(laptop, 1) == export(phone, 1)
    assert settled(laptop, 1, capsys) == settled(phone, 1, capsys)
    # And once more: nothing new.
    code, out, err = cli(capsys, "import", str(played_on), "--db", str(laptop), "--lang", "en")
    assert err == "session 1 was in this database already: nothing new\n"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "the session of Anna, Boris, Vera is in this database already, with another deal 2: "
            "nothing was written",
        ),
        (
            "ru",
            "пулька игроков Anna, Boris, Vera уже есть в этой базе, но сдача 2 в ней другая: "
            "ничего не записано",
        ),
    ],
)
def test_a_file_with_another_deal_at_the_same_number_is_refused_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, said: str
) -> None:
    db = tmp_path / "a.db"
    src = write(tmp_path / "s.json", session([GAME, rasp(2, 5, 3)]))
    cli(capsys, "import", str(src), "--db", str(db))
    data = json.loads(export(db, 1))
    data["deals"][1]["tricks"] = {"0": 3, "1": 4, "2": 3}
    data["deals"].append({**rasp(1, 1, 8)})
    before = export(db, 1)
    code, out, err = cli(
        capsys, "import", str(write(tmp_path / "x.json", data)), "--db", str(db), "--lang", lang
    )
    assert (code, out) == (2, "")
    assert err.strip().endswith(said)
    assert export(db, 1) == before
    with Store(db) as store:
        assert len(store.sessions()) == 1 and store.load(1).revision == 2


def test_a_file_of_the_same_session_with_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.db"
    cli(capsys, "import", str(write(tmp_path / "s.json", session([GAME]))), "--db", str(db))
    data = json.loads(export(db, 1))
    data["whist_price"] = "5.00"
    code, _, err = cli(
        capsys, "import", str(write(tmp_path / "x.json", data)), "--db", str(db), "--lang", "en"
    )
    assert code == 2
    assert err.strip().endswith(
        "the session of Anna, Boris, Vera is in this database already, with other settings: "
        "nothing was written"
    )


def test_a_bad_id_is_named_by_its_deal_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = session([GAME, {**rasp(2, 5, 3), "uid": "not-an-id"}])
    code, _, err = cli(
        capsys,
        "import",
        str(write(tmp_path / "s.json", data)),
        "--db",
        str(tmp_path / "a.db"),
        "--lang",
        "en",
    )
    assert code == 2
    assert "deal 2: uid: must be an id like 1b4e28ba-2fa1-41d2-883f-0016d3cca427" in err
    twice = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
    data = session([{**GAME, "uid": twice}, {**rasp(2, 5, 3), "uid": twice}])
    code, _, err = cli(capsys, "settle", str(write(tmp_path / "t.json", data)), "--lang", "en")
    assert code == 2 and f"the id {twice} is given twice" in err


def test_players_are_matched_by_their_id_first(tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    with Store(a) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        text = store.export_session(sid)
    with Store(b) as store:
        store.import_session(text)
        [anna] = [p for p in store.directory() if p.name == "Anna"]
        store.rename_player(anna.id, "Anya")
    with Store(a) as store:
        sid = store.create_session(["Vera", "Anna", "Boris"])
        second = store.export_session(sid)
    with Store(b) as store:
        new = store.import_session(second)
        # Anna is Anya here (renamed): the same directory entry, not a new "Anna".
        assert store.load(new).session.players == ["Vera", "Anya", "Boris"]
        assert sorted(p.name for p in store.directory()) == ["Anya", "Boris", "Vera"]


def test_the_migration_gives_every_existing_row_its_own_id(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "schema-1.db", path)
    with Store(path) as store:
        assert store.version() == schema_version()
        exported = [json.loads(store.export_session(s.id)) for s in store.sessions()]
    conn = sqlite3.connect(path)
    sessions = [r[0] for r in conn.execute("SELECT uid FROM sessions")]
    players = [r[0] for r in conn.execute("SELECT uid FROM players")]
    deals = [r[0] for r in conn.execute("SELECT uid FROM deal_uids")]
    adds = conn.execute("SELECT count(*) FROM actions WHERE kind = 'add'").fetchone()[0]
    conn.close()
    every = sessions + players + deals
    assert len(sessions) == 2 and len(players) == 4 and len(deals) == adds > 0
    assert all(UID.fullmatch(u) for u in every) and len(set(every)) == len(every)
    assert sorted(e["uid"] for e in exported) == sorted(sessions)


# --- scorepad copy ---------------------------------------------------------------------------


def _store_with_everything(db: Path) -> None:
    """A pulya, a bula and a Prefa session, a voided deal, and a player who sits nowhere."""
    from support.evenings import BALKAN, BALKAN_PLAYERS, PREFA, PREFA_PLAYERS

    with Store(db) as store:
        store.import_session(json.dumps(session([GAME, rasp(2, 5, 3), rasp(3, 3, 4)])))
        store.import_session(
            json.dumps(
                {
                    "format": "scorepad-session/1",
                    "players": BALKAN_PLAYERS,
                    "convention": "balkan",
                    "deals": [*BALKAN[:5], {**BALKAN[5], "voided": "misdeal"}, *BALKAN[6:8]],
                }
            )
        )
        store.import_session(
            json.dumps(
                {
                    "format": "scorepad-session/1",
                    "players": PREFA_PLAYERS,
                    "convention": "prefa",
                    "deals": PREFA,
                }
            )
        )
        store.add_player("Zoya")


def _dump(db: Path) -> dict[str, Any]:
    """Everything a store holds, as files (ids included), and its directory."""
    with Store(db) as store:
        return {
            "sessions": sorted(store.export_session(s.id) for s in store.sessions()),
            "players": sorted((p.name, store.player_uid(p.id)) for p in store.directory()),
        }


def test_copy_moves_a_whole_store_and_a_second_copy_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _store_with_everything(a)
    code, out, err = cli(capsys, "copy", "--from", str(a), "--to", str(b), "--lang", "en")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "3 sessions new",
        "0 sessions unchanged",
        "8 players new",  # Anna, Boris, Vera, Ana, Nikos, Eleni, Giorgos, Zoya
    ]
    assert _dump(b) == _dump(a)
    code, out, err = cli(capsys, "copy", "--from", str(a), "--to", str(b), "--lang", "en")
    assert out.splitlines() == [
        "0 sessions new",
        "3 sessions unchanged",
        "0 players new",
        "nothing new: the target had all of it already, nothing was written",
    ]
    assert _dump(b) == _dump(a)
    with Store(b) as store:
        assert len(store.sessions()) == 3


def test_copy_brings_the_deals_played_on_in_the_source_and_back_leaves_the_source_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _store_with_everything(a)
    cli(capsys, "copy", "--from", str(a), "--to", str(b))
    with Store(b) as store:
        from conftest import typed

        sid = next(s.id for s in store.sessions() if s.convention == "sochi")
        s = store.load(sid)
        s = store.add_deal(sid, typed(store, sid, rasp(4, 3, 3)), seen=s.revision)
        store.add_deal(sid, typed(store, sid, rasp(3, 4, 3)), seen=s.revision)
    code, out, _ = cli(capsys, "copy", "--from", str(b), "--to", str(a), "--lang", "en")
    assert code == 0
    assert out.splitlines() == [
        "0 sessions new",
        "2 sessions unchanged",
        "1 session played on further, its new deals added: 2",
        "0 players new",
    ]
    assert _dump(a) == _dump(b)
    code, out, _ = cli(capsys, "copy", "--from", str(b), "--to", str(a), "--lang", "de")
    assert out.splitlines()[-1] == (
        "Nichts Neues: Das Ziel hatte schon alles, nichts wurde geschrieben"
    )


def test_copy_refuses_another_scheme_and_never_shows_a_password(tmp_path: Path) -> None:
    """The process itself (exit status 2): a mysql:// address is refused with today's sentence;
    a PostgreSQL address that cannot be reached is said without its password."""
    a = tmp_path / "a.db"
    _store_with_everything(a)
    done = run_cli("copy", "--from", str(a), "--to", "mysql://me:secret@db/club", "--lang", "en")
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "--db names a mysql:// database: Scorepad keeps its data in a SQLite file, so give "
        "that file's path (nothing was created)"
    )
    assert "secret" not in done.stderr and not (tmp_path / "mysql:").exists()
    done = run_cli(
        "copy", "--from", str(a), "--to", "postgresql://me:secret@127.0.0.1:1/club", "--lang", "en"
    )
    assert (done.returncode, done.stderr) == (2, "cannot open postgresql://me@127.0.0.1:1/club\n")
    done = run_cli("copy", "--from", str(a), "--to", str(tmp_path / "b.db"), "--lang", "en")
    assert (done.returncode, done.stdout.splitlines()[0]) == (0, "3 sessions new")


# --- properties ------------------------------------------------------------------------------

PROPS = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def draw_file(data: st.DataObject) -> dict[str, Any]:
    kind = data.draw(st.sampled_from(["sochi", "leningrad", "balkan", "prefa", "austrian"]))
    if kind in ("sochi", "leningrad"):
        return random_session(
            Draw(data),
            convention=kind,
            players=data.draw(st.sampled_from([3, 4])),
            deals=data.draw(st.integers(0, 12)),
        )
    return random_family_session(Draw(data), convention=kind, deals=data.draw(st.integers(0, 8)))


def settle(text: str) -> str:
    """``scorepad settle FILE --json`` of a session file, of any family."""
    from scorepad.report import ledger as family_report
    from scorepad.report import pulya as report
    from scorepad.scoring.ledger.families import settle_family
    from scorepad.scoring.peek import peek_family
    from scorepad.scoring.pulya.score import replay
    from scorepad.scoring.pulya.session import parse_session

    if peek_family(text) != "pulya":
        return family_report.to_json_text(settle_family(text))
    return report.to_json_text(replay(parse_session(text)))


@PROPS
@given(st.data())
def test_export_import_import_export_is_the_first_export_and_settles_the_same(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    raw = draw_file(data)
    folder = tmp_path_factory.mktemp("prop")
    with Store(folder / "a.db") as a, Store(folder / "b.db") as b:
        first = a.export_session(a.import_session(json.dumps(raw)))
        sid = b.import_session(first)
        assert b.import_session(first) == sid
        assert b.export_session(sid) == first
        assert len(b.sessions()) == 1
        assert settle(b.export_session(sid)) == settle(json.dumps(raw))
        assert b.export_session(b.import_session(b.export_session(sid))) == first


@PROPS
@given(st.data())
def test_copy_twice_is_copy_once_and_there_and_back_leaves_the_source_unchanged(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    from scorepad.store.moving import copy_store

    folder = tmp_path_factory.mktemp("copy")
    a, b = folder / "a.db", folder / "b.db"
    with Store(a) as store:
        for _ in range(data.draw(st.integers(1, 3))):
            store.import_session(json.dumps(draw_file(data)))
    before = _dump(a)
    with Store(a, create=False, read_only=True) as src, Store(b) as dst:
        copy_store(src, dst)
    once = _dump(b)
    with Store(a, create=False, read_only=True) as src, Store(b) as dst:
        again = copy_store(src, dst)
    assert not again.anything_new and _dump(b) == once == before
    with Store(b, create=False, read_only=True) as src, Store(a) as dst:
        back = copy_store(src, dst)
    assert not back.anything_new and _dump(a) == before


# --- club nights -----------------------------------------------------------------------------


def _club_night(db: Path) -> str:
    """A night of six at two tables, a deal written and confirmed at each, tour 1 ended; its
    club file."""
    from test_club_store import DATE, RASP, SIX, _write

    from scorepad.club.store import ClubStore

    with Store(db) as store:
        club = ClubStore(store)
        nid = club.create_night("Friday", date=DATE, tours=2, pool_target=10, seed=5)
        for i in range(1, 7):
            club.check_in(nid, f"Player {i}")
        club.draw(nid)
        for tab in club.load(nid).tour(1).tables:
            deal = _write(club, nid, tab.number, SIX if tab.number == 1 else RASP)
            club.confirm(nid, 1, tab.number, deal, by=tab.players[1])
        club.end_tour(nid, 1)
        return club.export_night(nid)


def _nights(db: Path) -> list[str]:
    from scorepad.club.store import ClubStore

    with Store(db) as store:
        club = ClubStore(store, create=False)
        return [club.export_night(nid) for nid, _, _ in club.nights()]


def test_a_club_file_imported_twice_is_one_night(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _club_night(tmp_path / "club.db")
    data = json.loads(text)
    assert UID.fullmatch(data["uid"]) and all(UID.fullmatch(p["uid"]) for p in data["players"])
    path = write(tmp_path / "night.json", text)
    db = tmp_path / "other.db"
    assert cli(capsys, "club", "import", str(path), "--db", str(db)) == (0, "1\n", "")
    assert cli(capsys, "club", "import", str(path), "--db", str(db), "--lang", "ru") == (
        0,
        "1\n",
        "вечер 1 уже был в этой базе: ничего нового\n",
    )
    assert _nights(db) == [text]
    with Store(db) as store:
        assert len(store.sessions()) == 2  # one session a table, not two
    # A club file from before the ids (none in it): imported twice, still one night.
    for p in data["players"]:
        del p["uid"]
    del data["uid"]
    for t in data["sessions"]:
        for key in ("uid", "player_uids"):
            t["session"].pop(key, None)
        for d in t["session"]["deals"]:
            d.pop("uid", None)
    old = write(tmp_path / "old.json", json.dumps(data))
    fresh = tmp_path / "fresh.db"
    cli(capsys, "club", "import", str(old), "--db", str(fresh))
    cli(capsys, "club", "import", str(old), "--db", str(fresh))
    assert len(_nights(fresh)) == 1


def test_a_club_file_of_a_night_here_with_another_content_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _club_night(tmp_path / "club.db")
    data = json.loads(text)
    data["tours"] = 3
    path = write(tmp_path / "night.json", json.dumps(data))
    code, out, err = cli(
        capsys, "club", "import", str(path), "--db", str(tmp_path / "club.db"), "--lang", "en"
    )
    assert (code, out) == (2, "")
    assert err.strip().endswith(
        "the club night Friday of 2026-12-01 is in this database already, with another content: "
        "nothing was written"
    )
    assert _nights(tmp_path / "club.db") == [text]


def test_copy_carries_the_club_nights_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    text = _club_night(a)
    with Store(a) as store:
        store.import_session(json.dumps(session([GAME])))
    code, out, _ = cli(capsys, "copy", "--from", str(a), "--to", str(b), "--lang", "en")
    assert (code, out.splitlines()) == (
        0,
        [
            "1 session new",  # the table's sessions travel with their night
            "0 sessions unchanged",
            "9 players new",
            "1 club night new",
            "0 club nights unchanged",
        ],
    )
    assert _nights(b) == [text]
    code, out, _ = cli(capsys, "copy", "--from", str(a), "--to", str(b), "--lang", "en")
    assert out.splitlines()[-3:] == [
        "0 club nights new",
        "1 club night unchanged",
        "nothing new: the target had all of it already, nothing was written",
    ]
    assert _nights(b) == [text] and _dump(b) == _dump(a)
    code, out, _ = cli(capsys, "copy", "--from", str(b), "--to", str(a), "--lang", "en")
    assert out.splitlines()[-1] == (
        "nothing new: the target had all of it already, nothing was written"
    )
    assert _nights(a) == [text]


def test_a_deal_the_session_took_back_is_a_conflict_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from conftest import typed

    db = tmp_path / "a.db"
    cli(capsys, "import", str(write(tmp_path / "s.json", session([GAME]))), "--db", str(db))
    with Store(db) as store:
        store.add_deal(1, typed(store, 1, rasp(2, 5, 3)), seen=1)
        played_on = store.export_session(1)  # the phone has deal 2 …
        store.undo(1, seen=2)  # … which the laptop took back
        before = store.export_session(1)
    code, _, err = cli(
        capsys,
        "import",
        str(write(tmp_path / "p.json", played_on)),
        "--db",
        str(db),
        "--lang",
        "en",
    )
    assert code == 2
    assert err.strip().endswith(
        "the session of Anna, Boris, Vera is in this database already, with another deal 2: "
        "nothing was written"
    )
    assert export(db, 1) == before


def test_a_file_of_a_new_game_without_ids_starts_a_new_game_each_time(store: Store) -> None:
    """A file without ids is known by its content; with no deal it has none (the players and
    the stakes of a game not begun): each import is a game of its own, while the same file with
    its deals imported twice is one session."""
    empty = json.dumps(session([]))
    first, second = store.import_session(empty), store.import_session(empty)
    assert first != second
    assert store.import_session(json.dumps(session([GAME]))) == store.import_session(
        json.dumps(session([GAME]))
    )
    assert len(store.sessions()) == 3
