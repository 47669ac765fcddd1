"""Issue 38 item 14: a game in play is no debt; an abandoned one is closed with a reason.

``scorepad debts`` counts finished games only (a pulka in play may still turn) and a game closed
before its end, as it stands; it says which games it counted, which it counted as they stood
when closed, and which are in play.  Closing needs a reason, a closed game takes no write, and
it is reopened from the same command line or the same screen.  Through the real store (a SQLite
file, the schema's own migration), the real CLI in process, and the app's cash-out screen.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from support.flet_fakes import by_id, fire, make_page, texts, type_into

from conftest import typed
from scorepad.app.frame import screens  # noqa: F401  (the navigation's screens)
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.cashout import settle_screen
from scorepad.app.screens.sessions import sessions_screen
from scorepad.cli import main
from scorepad.store import Store, StoreError, schema_version

NAMES = ["Anna", "Boris", "Vera"]


def seven(declarer: int = 0) -> dict[str, Any]:
    """7♠ made, both whisting 7/2/1: the whisters pay the declarer if the game stopped now."""
    others = [p for p in range(3) if p != declarer]
    return {
        "type": "game",
        "declarer": declarer,
        "contract": "7S",
        "calls": ["whist", "whist"],
        "tricks": {str(declarer): 7, str(others[0]): 2, str(others[1]): 1},
    }


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _evening(store: Store, declarers: tuple[int, ...] = (0, 0, 0), target: int = 20) -> int:
    """A pulka of three 7♠ by Anna: in play, with payments if it stopped now."""
    sid = store.create_session(NAMES, pool_target=target)
    rev = 0
    for d in declarers:
        rev = store.add_deal(sid, typed(store, sid, seven(d)), seen=rev).revision
    return sid


# --- the store ---------------------------------------------------------------------------------


def test_a_closed_game_keeps_its_reason_takes_no_write_and_is_reopened(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        sid = _evening(store)
        with pytest.raises(StoreError, match="closing a game needs a reason"):
            store.close_session(sid, reason="  ")
        assert store.closed_sessions() == {}
        store.close_session(sid, reason="Vera's train")
        ((at, why),) = store.closed_sessions().values()
        assert why == "Vera's train" and at[:2] == "20" and list(store.closed_sessions()) == [sid]
        rev = store.load(sid).revision
        with pytest.raises(StoreError) as refused:
            store.add_deal(sid, typed(store, sid, seven()), seen=rev)
        assert refused.value.render("en") == (
            "this game was closed (Vera's train): reopen it to write in it"
        )
        assert store.load(sid).revision == rev  # nothing written
        with pytest.raises(StoreError, match="closed already"):
            store.close_session(sid, reason="again")
        store.reopen_session(sid)
        assert store.closed_sessions() == {}
        assert store.add_deal(sid, typed(store, sid, seven()), seen=rev).revision == rev + 1
        with pytest.raises(StoreError, match="not closed: there is nothing to reopen"):
            store.reopen_session(sid)


def test_a_finished_game_has_nothing_to_close(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        sid = _evening(store, (0, 1, 2), target=4)  # each makes 7♠: every pulya of 4 closed
        assert store.load(sid).finished_at is not None
        with pytest.raises(StoreError, match="this game is finished: there is nothing to close"):
            store.close_session(sid, reason="done")


def test_the_closing_is_a_named_migration_of_its_own(tmp_path: Path) -> None:
    from scorepad.store import schema as store_schema

    ((version, name, step),) = [m for m in store_schema.MIGRATIONS if "closed" in m[1]]
    assert version == 5 <= schema_version()
    assert step.__name__ == "_closed_sessions"
    with Store(tmp_path / "m.db") as store:
        store.close_session(_evening(store), reason="late")
    with sqlite3.connect(tmp_path / "m.db") as conn:
        names = {r[0]: r[1] for r in conn.execute("SELECT version, name FROM _migrations")}
        columns = {r[1] for r in conn.execute("PRAGMA table_info(sessions)")}
        row = conn.execute("SELECT closed_reason FROM sessions").fetchone()
    assert names[version] == name and {"closed_at", "closed_reason"} <= columns
    assert row == ("late",)


# --- the command line --------------------------------------------------------------------------


def test_debts_count_no_game_in_play_and_a_closed_one_as_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    with Store(db) as store:
        first, second = _evening(store), _evening(store)
    code, out, _ = cli(capsys, "debts", "--db", str(db))
    assert code == 0 and "owes" not in out  # three deals of an unfinished pulka owe nothing
    assert "No game is finished yet: there is nothing to count." in out
    assert f"In play, not counted: #{first} (" in out and f", #{second} (" in out
    code, out, _ = cli(capsys, "sessions", "--db", str(db))
    assert out.count("in play") == 2

    code, out, _ = cli(capsys, "close", str(first), "--reason", "the bar closed", "--db", str(db))
    assert (code, out) == (0, f"Game {first} is closed: the bar closed.\n")
    code, out, _ = cli(capsys, "debts", "--db", str(db))
    lines = out.splitlines()
    # The closed pulka's cash-out as it stood: three 7♠ by Anna, whisted 2 and 1.
    assert lines[:2] == [
        "Boris owes Anna RUB\xa016.00 over 1 evening",
        "Vera owes Anna RUB\xa028.00 over 1 evening",
    ]
    assert f"Counted as it stands: #{first} (" in out and "closed (the bar closed)." in out
    assert (
        f"In play, not counted: #{second} (" in out and f"#{first} (" not in out.split("In play")[1]
    )
    rows = list(csv.DictReader(io.StringIO(cli(capsys, "debts", "--csv", "--db", str(db))[1])))
    assert {(r["debtor"], r["creditor"]) for r in rows} == {("Boris", "Anna"), ("Vera", "Anna")}
    assert {r["evenings"] for r in rows} == {"1"}
    code, out, _ = cli(capsys, "sessions", "--db", str(db))
    assert "closed (the bar closed)" in out and out.count("in play") == 1

    code, out, err = cli(capsys, "close", str(first), "--reason", "twice", "--db", str(db))
    assert code != 0 and "this game is closed already (the bar closed)" in err and out == ""
    code, out, _ = cli(capsys, "reopen", str(first), "--db", str(db))
    assert (code, out) == (0, f"Game {first} is back in play.\n")
    assert "owes" not in cli(capsys, "debts", "--db", str(db))[1]
    code, _, err = cli(capsys, "close", str(first), "--reason", "", "--db", str(db))
    assert code != 0 and "closing a game needs a reason" in err


def test_debts_are_said_in_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "l.db"
    with Store(db) as store:
        sid = _evening(store)
        store.close_session(sid, reason="kasno je")
    assert main(["--lang", "sr", "debts", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"Računa se kako stoji: #{sid} (" in out and "zatvorena (kasno je)." in out


# --- the app: the cash-out screen asks, closes, and reopens -----------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Any:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        sid = _evening(store)
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = sid
        shell.show(settle_screen)
        yield shell, session, store, sid


def dialog(shell: Shell) -> Any:
    """The dialog shown last (one closed stays in the page's list until the client says so)."""
    return shell.page._dialogs.controls[-1]


async def test_the_cash_out_closes_a_game_after_asking_and_reopens_it(app: Any) -> None:
    shell, session, store, sid = app
    assert "The game is not finished: if we stopped now." in texts(shell.page)
    await fire(session, by_id(shell.page, "close-game"))
    assert "Close this game before its end?" in texts(dialog(shell))
    await fire(
        session, by_id(dialog(shell), "close-confirm-back")
    )  # asked first: Back writes nothing
    assert store.closed_sessions() == {}
    await fire(session, by_id(shell.page, "close-game"))
    await fire(session, by_id(dialog(shell), "close-confirm"))  # no reason: refused, said
    assert store.closed_sessions() == {}
    assert shell.message == "closing a game needs a reason"
    await fire(session, by_id(shell.page, "close-game"))
    await type_into(session, by_id(dialog(shell), "close-reason"), "Vera left early")
    await fire(session, by_id(dialog(shell), "close-confirm"))
    assert store.closed_sessions()[sid][1] == "Vera left early"
    assert by_id(shell.page, "closed-note").value == "Closed before its end: Vera left early."
    shell.show(sessions_screen)
    assert any("closed (Vera left early)" in t for t in texts(shell.page))
    shell.show(settle_screen)
    await fire(session, by_id(shell.page, "reopen-game"))
    assert "Put this game back in play?" in texts(dialog(shell))
    await fire(session, by_id(dialog(shell), "reopen-confirm"))
    assert store.closed_sessions() == {}
    assert by_id(shell.page, "close-game")  # in play again: it can be closed again
