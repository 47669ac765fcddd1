"""The store's contract, which any backend passes: each test runs on a real SQLite file and on a
real PostgreSQL server (tests/support/postgres.py; started for the session, a database per test;
a PostgreSQL that cannot start fails these tests, it never skips them).

Sessions of every family, the journal's actions, the stale-revision refusal, nothing half
written, the directory of players, a club night through the store, the join links and grants,
files in and out, two writers at once, and the CLI on a PostgreSQL address."""

from __future__ import annotations

import gzip
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.uids import without_ids

from conftest import session, typed
from scorepad.app.server.grants import Grants, grant_key
from scorepad.cli import main
from scorepad.club.errors import ClubError
from scorepad.club.store import ClubStore, seat_of, table_pin
from scorepad.scoring.pulya.session import dump_session, parse_session
from scorepad.store import (
    AnyStored,
    InvalidEntry,
    PulyaStored,
    StaleRevision,
    Store,
    StoreError,
    Unavailable,
    open_store,
    schema_version,
)

GOLDEN = Path(__file__).resolve().parent / "golden" / "families.jsonl.gz"
GAME = {
    "type": "game",
    "declarer": 1,
    "contract": "7S",
    "calls": ["whist", "pass"],
    "tricks": {"1": 7, "2": 2, "0": 1},
}
SIX = {
    "type": "game",
    "declarer": 0,
    "contract": "6H",
    "calls": ["whist", "pass"],
    "tricks": {"0": 6, "1": 3, "2": 1},
}


def rasp(a: int, b: int, c: int) -> dict[str, Any]:
    return {"type": "raspasy", "tricks": {"0": a, "1": b, "2": c}}


@pytest.fixture
def store(target: str) -> Iterator[Store]:
    with open_store(target) as s:
        yield s


def golden_sessions() -> dict[str, dict[str, Any]]:
    """The first golden session of each ledger family, with its settlement (en, JSON)."""
    found: dict[str, dict[str, Any]] = {}
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            family = json.loads(entry["json_en"])["family"]
            found.setdefault(family, entry)
    return found


# --- sessions and the journal ------------------------------------------------------------------


def test_the_schema_is_made_on_opening(store: Store) -> None:
    assert store.version() == schema_version()
    assert {"sessions", "actions", "players", "nights", "night_phones", "table_links"} <= set(
        store.backend.tables()
    )


@pytest.mark.parametrize("family", ["pot", "bula", "kassa", "direct"])
def test_a_session_of_each_family_round_trips_and_settles(
    store: Store, target: str, family: str, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = golden_sessions()[family]
    text = entry["session"] if isinstance(entry["session"], str) else json.dumps(entry["session"])
    sid = store.import_session(text)
    stored = store.load(sid)
    assert store.family(sid) == family
    assert stored.revision == len(stored.journal.entries) == 30
    exported = store.export_session(sid)
    assert store.export_session(store.import_session(exported)) == exported
    assert main(["--lang", "en", "settle", "--db", target, str(sid), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(entry["json_en"])


def pulya(stored: AnyStored) -> PulyaStored:
    assert stored.family == "pulya"
    return stored


def test_add_edit_void_undo_redo_restore_keep_deal_numbers(store: Store, target: str) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=10)
    s = pulya(store.add_deal(sid, typed(store, sid, GAME), seen=0))
    s = pulya(store.add_deal(sid, typed(store, sid, rasp(3, 3, 4)), seen=s.revision))
    s = pulya(store.add_deal(sid, typed(store, sid, SIX), seen=s.revision))
    assert s.revision == 3
    assert (s.scored.sheet.pool, s.scored.sheet.gora) == ([2, 4, 0], [0, 0, 1])
    assert s.scored.sheet.whists == [[0, 0, 0], [8, 0, 0], [0, 12, 0]]
    first, second, third = (e.deal_id for e in s.journal.live)
    assert (first, second, third) == (1, 2, 3)
    s = pulya(
        store.edit_deal(sid, second, typed(store, sid, rasp(4, 3, 3)), reason="miscount", seen=3)
    )
    assert s.revision == 4 and s.scored.sheet.gora == [1, 0, 0]
    s = pulya(store.void_deal(sid, first, reason="wrong table", seen=4))
    assert [e.deal_id for e in s.journal.live] == [second, third]
    assert (s.scored.sheet.pool, s.scored.sheet.gora) == ([2, 0, 0], [1, 0, 0])
    s = pulya(store.undo(sid, seen=5))
    assert [e.deal_id for e in s.journal.live] == [first, second, third]
    s = pulya(store.redo(sid, seen=6))
    assert [e.deal_id for e in s.journal.live] == [second, third]
    s = pulya(store.restore_deal(sid, first, seen=7))
    assert s.revision == 8 and [e.deal_id for e in s.journal.live] == [first, second, third]
    assert s.scored.sheet.pool == [2, 4, 0]
    kinds = [a.kind for a in store.history(sid)]
    assert kinds == ["add", "add", "add", "edit", "void", "undo", "redo", "restore"]
    # A new connection reads the same sheet from the database, not from a kept replay.
    with open_store(target) as other:
        again = other.load(sid)
        assert again.revision == 8 and again.scored.sheet == s.scored.sheet
        assert [x.deals for x in other.sessions()] == [3]


def test_a_stale_write_is_refused_and_nothing_is_written(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, rasp(3, 3, 4)), seen=0)
    with pytest.raises(StaleRevision) as refused:
        store.add_deal(sid, typed(store, sid, GAME), seen=0)
    assert "changed since you looked (revision 0, now 1); nothing was written" in str(refused.value)
    assert "deal 1 was written" in refused.value.render()
    stored = store.load(sid)
    assert (stored.revision, len(stored.journal.live)) == (1, 1)
    assert [(x.revision, x.deals) for x in store.sessions()] == [(1, 1)]


def test_a_refused_entry_writes_nothing(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    with pytest.raises(InvalidEntry):
        store.add_deal(sid, typed(store, sid, rasp(3, 3, 3)), seen=1)  # 9 tricks, not 10
    with pytest.raises(StoreError, match="needs a reason"):
        store.void_deal(sid, 1, reason=" ", seen=1)
    assert [a.kind for a in store.history(sid)] == ["add"]
    assert store.sessions()[0].revision == 1


def test_the_journal_is_append_only_in_the_database_itself(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    refused = "failed \\(a rule of the database refused it\\); nothing was written"
    with pytest.raises(Unavailable, match=refused), store._write():
        store.backend.execute("UPDATE actions SET reason = 'x' WHERE session_id = ?", (sid,))
    with pytest.raises(Unavailable, match=refused), store._write():
        store.backend.execute("DELETE FROM actions WHERE session_id = ?", (sid,))
    assert [a.kind for a in store.history(sid)] == ["add"]


def test_a_session_is_hidden_not_lost(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    other = store.create_session(["Anna", "Boris", "Gleb"])
    store.delete_session(sid, seen=0)
    assert [x.id for x in store.sessions()] == [other]
    assert [x.id for x in store.sessions(include_deleted=True)] == [other, sid]
    assert store.load(sid).revision == 0


# --- players ------------------------------------------------------------------------------------


def test_the_directory_of_players(store: Store) -> None:
    anna = store.add_player("Anna")
    assert store.add_player("anna") == anna  # the same name in another case
    with pytest.raises(StoreError, match="looks like 'Anna'"):
        store.add_player("Аnna")  # a Cyrillic А
    sid = store.create_session(["Anna", "Boris", "Vera"])
    solo = store.create_session(["Ann", "Gleb", "Dina"])
    ids = store.player_ids(sid)
    assert ids[0] == anna and len(set(ids)) == 3
    ann = store.player_ids(solo)[0]
    store.rename_player(ann, "Annie", reason="typo")
    assert store.load(solo).session.players[0] == "Annie"
    store.merge_players(ann, anna, reason="one person")
    assert store.load(solo).session.players[0] == "Anna"
    assert {e.name: e.sessions for e in store.directory()}["Anna"] == 2
    store.undo_merge(ann)
    assert store.load(solo).session.players[0] == "Annie"
    store.settle_debt(ids[1], ids[2], 1250, currency="EUR", reason="cash")
    history = store.player_history()
    assert [h.kind for h in history] == ["rename", "merge", "unmerge", "settle"]
    assert (history[-1].amount, history[-1].currency) == (1250, "EUR")
    lone = store.add_player("Zoe")
    store.delete_player(lone)
    with pytest.raises(StoreError, match="still sits in session"):
        store.delete_player(anna)
    assert store.players() == ["Anna", "Annie", "Boris", "Dina", "Gleb", "Vera"]
    season = store.create_season("Fridays", since="2026-01-01", until="2026-12-31", players=ids)
    assert [(x.id, x.name, x.players) for x in store.seasons()] == [
        (season, "Fridays", tuple(sorted(ids)))
    ]


# --- a club night --------------------------------------------------------------------------------


def test_a_club_night_through_the_store(store: Store) -> None:
    import datetime as dt

    club = ClubStore(store)
    nid = club.create_night("Friday", date=dt.date(2026, 12, 4), tours=2, pool_target=10, seed=5)
    for name in ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"):
        club.check_in(nid, name)
    club.draw(nid)
    views = club.tables(nid)
    assert [(v.table, len(v.players), v.state) for v in views] == [
        (1, 3, "waiting"),
        (2, 3, "waiting"),
    ]
    sid = views[0].session_id
    a, b, _c = views[0].players
    assert seat_of(store, sid) is not None and len(table_pin(store, sid) or "") == 6
    stored = club.write_deal(nid, 1, 1, GAME, by=a, seen=0)
    assert stored.revision == 1
    with pytest.raises(ClubError, match="another player at the table confirms it"):
        club.confirm(nid, 1, 1, 1, by=a)
    assert club.confirm(nid, 1, 1, 1, by=b).state == "confirmed"
    club.claim_phone(nid, 1, 1, b, device="phone-b")
    assert club.phone_number(sid, "phone-b") == b
    change = club.void_deal(nid, 1, 1, 1, by=a, reason="wrong cards")
    assert (change.seq, change.kind, change.state) == (2, "void", "provisional")
    decided = club.decide_change(nid, 1, 1, 2, by=b, confirmed=False, reason="it was not agreed")
    assert (decided.state, decided.reversed_by) == ("disputed", 3)
    view = club.tables(nid)[0]
    assert (view.deals, view.provisional, view.state) == (1, 0, "playing")
    club.announce(nid, "Tour 2 at nine")
    assert club.announcement(nid) == "Tour 2 at nine"
    token = club.standings_token(nid)
    assert club.night_of_token(token) == nid and club.night_of_token("A" * 22) is None
    text = club.export_night(nid)
    # A night is one night in every store (its stable id): imported again, it is the same one.
    again = club.import_night(text)
    assert again == nid and club.export_night(again) == text
    assert [n[1] for n in club.nights()] == ["Friday"]


# --- join links and grants ------------------------------------------------------------------------


def test_join_links_and_grants(store: Store) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    nxt = store.create_session(["Anna", "Boris", "Vera"])
    grants = Grants(store, threading.RLock())
    link = grants.link(sid)
    assert len(link) == 22 and grants.link(sid) == link and grants.opens(sid, link)
    renewed = grants.renew(sid)
    assert renewed != link and not grants.opens(sid, link) and grants.opens(sid, renewed)
    assert not grants.next_allowed(sid)
    grants.allow_next(sid, True)
    grants.allow_next(sid, True)
    assert grants.next_allowed(sid)
    grants.move_table(sid, nxt)
    assert grants.opens(nxt, renewed) and not grants.opens(sid, renewed)
    assert grants.next_allowed(nxt) and grants.followed(sid, renewed) == nxt
    keys = {grant_key(f"device-{n}", "1234") for n in range(3)}
    for key in keys:
        grants.grant(key)
    grants.grant(next(iter(keys)))  # a second grant of the same device: one row
    assert grants.granted() == keys
    assert grants.revoke_all() == 3 and grants.granted() == set()


# --- two writers -------------------------------------------------------------------------------------


def test_two_connections_one_stale_write_refused(store: Store, target: str) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"])
    with open_store(target) as other:
        seen = other.load(sid).revision
        store.add_deal(sid, typed(store, sid, GAME), seen=0)
        with pytest.raises(StaleRevision):
            other.add_deal(sid, typed(other, sid, rasp(3, 3, 4)), seen=seen)
        assert other.load(sid).revision == 1


def test_concurrent_writers_lose_nothing_and_number_every_deal_once(
    store: Store, target: str
) -> None:
    sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=10_000)
    deal = typed(store, sid, rasp(4, 3, 3))
    written: list[int] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            with open_store(target) as mine:
                done = 0
                while done < 8:
                    try:
                        stored = mine.add_deal(sid, deal, seen=mine.load(sid).revision)
                    except StaleRevision:
                        continue  # another writer got there first: look again
                    written.append(stored.revision)
                    done += 1
        except BaseException as exc:  # pragma: no cover - said by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert sorted(written) == list(range(1, 25))  # every revision once: none lost, none twice
    stored = store.load(sid)
    assert [a.seq for a in store.history(sid)] == list(range(1, 25))
    assert len(stored.journal.live) == 24 and stored.scored.sheet.gora != [0, 0, 0]


def test_a_read_only_opening_writes_nothing(target: str) -> None:
    with open_store(target) as s:
        sid = s.create_session(["Anna", "Boris", "Vera"])
    with open_store(target, create=False, read_only=True) as reader:
        assert [x.id for x in reader.sessions()] == [sid]
        with pytest.raises(Unavailable, match="read-only: nothing was written"):
            reader.add_deal(sid, typed(reader, sid, GAME), seen=0)
    with open_store(target) as s:
        assert s.load(sid).revision == 0


# --- the CLI on a PostgreSQL address ------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_the_cli_on_postgresql_says_what_it_says_on_sqlite(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "pulka.json"
    file.write_text(json.dumps(session([GAME, rasp(3, 3, 4), SIX])))
    other = tmp_path / "other.json"
    other.write_text(json.dumps(session([SIX, GAME, rasp(3, 3, 4)])))
    said: dict[str, list[tuple[str, str]]] = {}
    for db in (str(tmp_path / "cli.db"), postgres_url):
        out = []
        for argv in (
            ("import", str(file)),
            ("import", str(file)),  # the same session again: nothing new (its stable id)
            ("import", str(other)),
            ("settle", "2"),
            ("settle", "1", "--json"),
            ("sessions",),
            ("export", "1", "-"),
            ("history", "1"),
        ):
            code, text, err = _cli(capsys, *argv, "--db", db)
            assert code == 0, (argv, err)
            # The list and the history show when: the minute and second, which may differ.
            out.append((re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", "WHEN", text), err))
        said[db] = out
    sqlite, postgres = said.values()
    assert [text for text, _ in postgres[:6]] == [text for text, _ in sqlite[:6]]
    assert [err for _, err in postgres] == [err for _, err in sqlite]
    assert sqlite[1][1] == "session 1 was in this database already: nothing new\n"
    assert [err for _, err in sqlite[2:]] == [""] * 6
    assert json.loads(sqlite[4][0])["players"] == ["Anna", "Boris", "Vera"]
    assert sqlite[5][0].count("3 deals") == 2
    # The export is the file, with the ids the store gave the session, its players and deals
    # (each store its own, unless the file brought them): the rest is the same on both.
    assert without_ids(sqlite[6][0]) == without_ids(postgres[6][0])
    assert without_ids(sqlite[6][0]) == dump_session(parse_session(file.read_text()))
    assert [t for t, _ in sqlite[7:]] == [t for t, _ in postgres[7:]]


def test_the_cli_refuses_other_addresses_and_names_none_with_its_password(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _cli(capsys, "sessions", "--db", "mysql://u:secret@h/db")
    assert (code, out) == (2, "") and "mysql://" in err and "secret" not in err
    code, out, err = _cli(
        capsys, "sessions", "--db", "postgresql://scorepad:secret@127.0.0.1:1/nowhere"
    )
    assert (code, out) == (2, "")
    assert err == "cannot open postgresql://scorepad@127.0.0.1:1/nowhere\n"


def test_a_club_night_from_the_cli_on_postgresql_as_on_sqlite(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said: dict[str, list[str]] = {}
    for db in (str(tmp_path / "club.db"), postgres_url):
        steps: list[tuple[str, ...]] = [
            ("create", "Friday", "--date", "2026-12-04", "--tours", "1", "--deals", "1"),
            ("check-in", "1", "Anna", "Boris", "Vera"),
            ("draw", "1"),
            ("deal", "1", "1", "1", json.dumps(rasp(4, 3, 3)), "--by", "1"),
            ("confirm", "1", "1", "1", "1", "--by", "2"),
            ("end-tour", "1", "1"),
            ("standings", "1"),
            ("nights",),
        ]
        out = []
        for argv in steps:
            seed = ("--seed", "3") if argv[0] == "create" else ()
            code, text, err = _cli(capsys, "club", *argv, *seed, "--db", db)
            assert (code, err) == (0, ""), (argv, err)
            out.append(text)
        said[db] = out
    sqlite, postgres = said.values()
    assert postgres == sqlite
    assert sqlite[0].strip() == "1" and sqlite[-1].startswith("    1")


def test_the_app_takes_a_postgresql_address_and_says_an_unreachable_one_without_its_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The app serves from PostgreSQL too (several workers share one: workers.py); a database
    # it cannot reach is said without the password, and no server starts.
    import scorepad.app.server.run as app

    started: list[object] = []
    monkeypatch.setattr(app, "run", lambda *a, **k: started.append(a))
    code, out, err = _cli(capsys, "--db", "postgresql://ann:s3cret@127.0.0.1:1/club")
    assert (code, out, started) == (2, "", [])
    assert err == "cannot open postgresql://ann@127.0.0.1:1/club\n"
    assert "s3cret" not in err


def test_scorepad_migrate_makes_an_empty_postgresql_database_scorepads_once(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The test server trusts every local user: a password is taken, and never shown.
    url = postgres_url.replace("postgres@", "postgres:s3cret@")
    shown = postgres_url
    code, out, err = _cli(capsys, "sessions", "--db", url)
    assert (code, out) == (2, "")
    assert err == f"{shown} holds no Scorepad data yet; nothing was written\n"
    assert _cli(capsys, "migrate", "--db", url) == (
        0,
        f"{shown} is now a Scorepad database (schema {schema_version()})\n",
        "",
    )
    assert _cli(capsys, "migrate", "--db", url)[1] == (
        f"{shown} is up to date (schema {schema_version()}); nothing was written\n"
    )
    assert _cli(capsys, "sessions", "--db", url) == (0, "", "")


def test_scorepad_db_may_name_a_postgresql_database(
    postgres_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREPAD_DB", postgres_url)
    with open_store(postgres_url) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        store.create_season(
            "Fridays", since="2026-01-01", until="2099-12-31", players=store.player_ids(sid)
        )
    code, out, err = _cli(capsys, "sessions")
    assert (code, err) == (0, "") and "Anna, Boris, Vera" in out
    assert _cli(capsys, "club", "nights") == (0, "", "")
    code, out, err = _cli(capsys, "season", "Fridays")  # read from the address, not refused
    assert (code, err) == (0, "") and "Anna" in out


def test_copy_moves_a_laptops_history_to_postgresql_and_back(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`scorepad copy --from PATH --to URL` and back (issue #36): a laptop's SQLite file onto a
    server's PostgreSQL, idempotently, and from there into a new file that settles the same."""
    laptop, back = tmp_path / "laptop.db", tmp_path / "back.db"
    with Store(laptop) as store:
        first = store.import_session(json.dumps(session([GAME, rasp(3, 3, 4), SIX])))
        store.import_session(json.dumps(session([SIX, GAME])))
    code, out, err = _cli(capsys, "copy", "--from", str(laptop), "--to", postgres_url)
    assert (code, err) == (0, "") and out.splitlines()[0] == "2 sessions new"
    code, out, err = _cli(capsys, "copy", "--from", str(laptop), "--to", postgres_url)
    assert (code, err) == (0, "") and out.splitlines() == [  # the second time: nothing new
        "0 sessions new",
        "2 sessions unchanged",
        "0 players new",
        "nothing new: the target had all of it already, nothing was written",
    ]
    code, out, err = _cli(capsys, "copy", "--from", postgres_url, "--to", str(back))
    assert (code, err) == (0, "") and out.splitlines()[0] == "2 sessions new"
    with Store(laptop) as a, Store(back) as b:
        assert [s.deals for s in a.sessions()] == [s.deals for s in b.sessions()]
        assert a.export_session(first) == b.export_session(first)  # the same ids, the same deals
