"""The shared table against real Flet pages (no browser): stale writes, live updates, who may write.

Each page is a real ``flet`` Session; the pages of one "server" share one PubSub hub on the test's
event loop, as Flet's web server does.  Events go through ``Session.dispatch_event``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import flet as ft
import flet.canvas as cv
import msgpack
import pytest
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub
from support.flet_fakes import (
    RecordingConnection,
    _encode,
    by_id,
    find,
    fire,
    navigate,
    texts,
    type_into,
)

from conftest import typed
from scorepad.app.frame import (
    live,
    screens,  # noqa: F401  (fills the screen registry)
)
from scorepad.app.frame.shell import Shell
from scorepad.app.pulya.entry import entry_screen
from scorepad.app.pulya.sheet import sheet_screen
from scorepad.app.screens.history import history_screen
from scorepad.app.screens.sessions import sessions_screen
from scorepad.app.screens.table import join, pin_screen
from scorepad.app.server.access import Access, Gate
from scorepad.app.server.grants import Grants
from scorepad.app.server.share import Sharing
from scorepad.app.server.table import Table
from scorepad.store import Store

PASSED = {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]}


def page_on(hub: PubSubHub | None) -> tuple[ft.Page, Session]:
    conn = RecordingConnection()
    if hub is not None:
        conn.pubsubhub = hub
    session = Session(conn)
    _context_page.set(session.page)
    session.apply_page_patch({"route": "/", "width": 360, "height": 740})
    msgpack.packb(session.get_page_patch(), default=_encode)
    return session.page, session


class Room:
    """One server: a store, a lock, a PIN gate and the pages open on it."""

    def __init__(self, store: Store, *, pin: str | None, hub: PubSubHub | None) -> None:
        self.store = store
        self.lock = threading.RLock()
        self.grants = Grants(store.db, self.lock)
        self.gate = Gate(pin, explicit=pin is not None, grants=self.grants)
        self.hub = hub
        self.table = Table(
            self.gate, Sharing.make("127.0.0.1", 8550, tls=False, pin=pin), grants=self.grants
        )
        self.sessions: list[Session] = []  # a page holds its session weakly

    def device(self, name: str, *, scope: int | None = None) -> tuple[Shell, Session]:
        page, session = page_on(self.hub)
        access = Access(self.gate, f"device-{name}-0123456789", loopback=True)
        shell = Shell(page, self.store, "en", self.lock, access=access)
        shell.table = self.table
        live.subscribe(shell)
        self.sessions.append(session)
        return shell, session


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait for a state (the hub delivers on the loop), never for a fixed time."""
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def enter_passed_six(shell: Shell, session: Session) -> None:
    for ident in ("declarer-1", "contract-6S", "call-pass", "call-pass"):
        await fire(session, by_id(shell.page, ident))


def open_entry(shell: Shell, sid: int) -> None:
    shell.sid = sid
    shell.new_form()
    shell.show(entry_screen)


def header(shell: Shell) -> str:
    return str(by_id(shell.page, "deal-header").value)


def lines(shell: Shell, ident: str) -> list[str]:
    """The lines of a block of text, top to bottom."""
    return [str(t.value) for t in by_id(shell.page, ident).controls]


def message(shell: Shell) -> str:
    return str(by_id(shell.page, "message").content.value)


# --- the two-tabs double write (issue: the shared table) -------------------------------------


async def test_two_tabs_entering_the_same_deal_write_it_once(store: Store) -> None:
    """Both tabs enter "Boris 6♠, pass, pass" on deal 1 and confirm: one deal is written."""
    sid = store.create_session(["Anna", "Boris", "Vera"])
    lock = threading.RLock()
    pages = []
    for _ in range(2):
        page, session = page_on(None)
        shell = Shell(page, store, "en", lock)
        shell.show(sessions_screen)
        await fire(session, by_id(page, f"session-open-{sid}"))
        await enter_passed_six(shell, session)
        pages.append((shell, session))
    (a, sa), (b, sb) = pages
    await fire(sa, by_id(a.page, "confirm-deal"))
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert len(store.load(sid).session.deals) == 1
    assert "Deal 2: Boris deals, Vera leads." in texts(b.page)


async def test_a_stale_deal_is_refused_named_and_rebased_keeping_the_choices(store: Store) -> None:
    room = Room(store, pin=None, hub=None)  # no hub: the refusal itself is what is tested
    sid = store.create_session(["Anna", "Boris", "Vera"])
    a, sa = room.device("a")
    b, sb = room.device("b")
    open_entry(a, sid)
    open_entry(b, sid)
    for ident in ("declarer-1", "contract-7S", "call-whist", "call-pass", "tricks-1-7"):
        await fire(sa, by_id(a.page, ident))
    await fire(sa, by_id(a.page, "tricks-2-3"))  # the picker: Vera took 3
    for ident in ("declarer-1", "contract-6S", "call-pass", "call-pass"):
        await fire(sb, by_id(b.page, ident))
    await fire(sa, by_id(a.page, "confirm-deal"))
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert len(store.load(sid).session.deals) == 1
    # b is shown the deal written beside his own; they differ, so nothing is chosen for him.
    assert lines(b, "conflict-theirs") == [
        "Deal 1 was written on another device first:",
        "Boris: 7♠",
        "Boris made 7♠: 4 into the pulya.",
        "Vera whisted alone: 3 defence tricks × 4 = 12 whists on Boris.",
    ]
    assert lines(b, "conflict-mine")[:2] == ["Your entry:", "Boris: 6♠"]
    assert by_id(b.page, "conflict-verdict").value == (
        "The two differ: check at the table which is right."
    )
    assert find(b.page, lambda c: getattr(c, "identifier", None) == "confirm-deal") == []
    await fire(sb, by_id(b.page, "conflict-write-next"))  # an explicit choice of its own
    assert header(b) == "Deal 2: Boris deals, Vera leads."
    assert b.form is not None
    assert (b.form.declarer, b.form.level, b.form.calls) == (1, 6, ["pass", "pass"])
    assert len(store.load(sid).session.deals) == 1  # nothing written by that choice alone
    await fire(sb, by_id(b.page, "confirm-deal"))  # confirmed again, on the new basis
    assert [d.contract.code for d in store.load(sid).session.deals] == ["7S", "6S"]  # type: ignore[union-attr]


async def test_the_refusal_is_in_russian_for_a_russian_page(store: Store) -> None:
    room = Room(store, pin=None, hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    a, sa = room.device("a")
    b, sb = room.device("b")
    b.lang = "ru"
    open_entry(a, sid)
    open_entry(b, sid)
    await enter_passed_six(a, sa)
    await enter_passed_six(b, sb)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert lines(b, "conflict-theirs")[:2] == [
        "Сдача 1 первой записана на другом устройстве:",
        "Boris: 6♠",
    ]
    assert by_id(b.page, "conflict-verdict").value == (
        "Ваша запись — та же сдача: она записана один раз."
    )
    assert find(b.page, lambda c: getattr(c, "identifier", None) == "conflict-mine") == []
    assert len(store.load(sid).session.deals) == 1
    # The same deal: the main button discards b's entry; nothing is written twice.
    discard = by_id(b.page, "conflict-discard")
    assert isinstance(discard, ft.FilledButton) and discard.content == "Отбросить мою запись"
    await fire(sb, discard)
    assert len(store.load(sid).session.deals) == 1
    assert header(b) == "Сдача 2: сдаёт Boris, ходит Vera."
    assert b.form is not None and b.form.declarer is None


async def test_a_stale_edit_void_and_undo_are_refused_and_told(store: Store) -> None:
    room = Room(store, pin=None, hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    a, sa = room.device("a")
    b, sb = room.device("b")
    for s in (a, b):
        s.sid = sid
        s.show(history_screen)
    # b starts an edit of deal 1 (kept on its basis), a voids deal 1 meanwhile
    await fire(sb, by_id(b.page, "edit-1"))
    await fire(sa, by_id(a.page, "void-1"))
    await type_into(sa, by_id(a.page, "void-reason"), "misdealt")
    await fire(sa, by_id(a.page, "confirm-void"))
    await type_into(sb, by_id(b.page, "edit-reason"), "typo")
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert message(b) == (
        "Deal 1 was just voided on another device (misdealt). Check your entry and confirm again."
    )
    history = store.history(sid)
    assert [x.kind for x in history] == ["add", "void"]
    # b's history was drawn before the void: its undo names revision 1 and is refused
    b.show(history_screen)
    b_undo = by_id(b.page, "undo")
    store.add_deal(sid, typed(store, sid, PASSED), seen=2)
    await fire(sb, b_undo)
    assert message(b) == (
        "Deal 2 was just written on another device: Boris: 6♠. Check your entry and confirm again."
    )
    assert [x.kind for x in store.history(sid)] == ["add", "void", "add"]


async def test_delete_names_the_revision_the_list_showed(store: Store) -> None:
    room = Room(store, pin=None, hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    a, sa = room.device("a")
    a.show(sessions_screen)
    await fire(sa, by_id(a.page, f"session-delete-{sid}"))
    store.add_deal(
        sid, typed(store, sid, PASSED), seen=0
    )  # another device writes while the dialog is open
    await fire(sa, by_id(a.page, "confirm-delete"))
    assert [s.id for s in store.sessions()] == [sid]


# --- live ------------------------------------------------------------------------------------


async def test_every_page_of_the_session_shows_a_write_without_reload(store: Store) -> None:
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    other = store.create_session(["Gleb", "Dima", "Egor"])
    writer, sw = room.device("w")
    on_sheet, _ = room.device("s")
    on_history, _ = room.device("h")
    on_entry, _ = room.device("e")
    elsewhere, _ = room.device("x")
    open_entry(writer, sid)
    for shell, screen in ((on_sheet, sheet_screen), (on_history, history_screen)):
        shell.sid = sid
        shell.show(screen)
    open_entry(on_entry, sid)
    open_entry(elsewhere, other)
    await enter_passed_six(writer, sw)
    await fire(sw, by_id(writer.page, "confirm-deal"))
    await until(lambda: on_entry.basis == 1, "the entry page moved to revision 1")
    await until(lambda: on_history.basis == 1, "the history page moved to revision 1")
    assert header(on_entry) == "Deal 2: Boris deals, Vera leads."
    assert find(on_entry.page, lambda c: getattr(c, "identifier", None) == "message") == []
    assert by_id(on_history.page, "deal-1") is not None
    await until(lambda: on_sheet.basis == 1, "the sheet page moved to revision 1")
    assert header(elsewhere) == "Deal 1: Gleb deals, Dima leads."


async def writer_beside(
    store: Store, watching: tuple[str, ...]
) -> tuple[int, Shell, Session, list[Shell]]:
    """A writer on deal 1's entry, "Boris 6♠, pass, pass" entered, and pages on the session's
    history, all on one server."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    writer, sw = room.device("w")
    watchers = [room.device(name)[0] for name in watching]
    open_entry(writer, sid)
    for shell in watchers:
        shell.sid = sid
        shell.show(history_screen)
    await enter_passed_six(writer, sw)
    return sid, writer, sw, watchers


async def test_the_table_s_other_pages_are_drawn_before_the_writer_s_fresh_form(
    store: Store,
) -> None:
    """A write on a shared table: the other phones first, the writer's fresh form after them
    (live.after_others); meanwhile his Write is disabled and a second tap writes nothing."""
    sid, writer, sw, watchers = await writer_beside(store, ("a", "b", "c"))
    order: list[str] = []
    for name, shell in (("writer", writer), *((f"watcher-{k}", w) for k, w in enumerate(watchers))):
        shown = shell.show

        def recorded(screen: Any, *, diffed: bool = False, name: str = name, shown: Any = shown):
            order.append(name)
            shown(screen, diffed=diffed)

        shell.show = recorded  # type: ignore[method-assign]
    write = by_id(writer.page, "confirm-deal")
    await fire(sw, write)
    assert order == []  # nothing drawn yet: the handler only wrote and told the others
    assert write.disabled  # the written form's Write, shown disabled until the fresh form
    await fire(sw, write)  # a second tap on it before the fresh form: nothing more is written
    await until(lambda: header(writer) == "Deal 2: Boris deals, Vera leads.", "the fresh form")
    assert order == ["watcher-0", "watcher-1", "watcher-2", "writer"]
    assert len(store.load(sid).session.deals) == 1
    assert all(by_id(w.page, "deal-1") is not None for w in watchers)


async def test_a_writer_s_page_gone_before_its_turn_is_not_drawn(store: Store) -> None:
    """The phone that wrote closed at once: the other pages are drawn, its own is left alone
    (nothing raised in the server's task); the deal is written once."""
    sid, writer, sw, (watcher,) = await writer_beside(store, ("h",))
    frame = writer.frame
    await fire(sw, by_id(writer.page, "confirm-deal"))
    await sw.disconnect(60)  # the phone went away before its fresh form's turn
    await until(lambda: watcher.basis == 1, "the other page drawn")
    for _ in range(5):
        await asyncio.sleep(0.01)
    assert writer.frame == frame  # not drawn: nobody is there to see it
    assert not live._PENDING  # its task ended, without an error
    assert len(store.load(sid).session.deals) == 1


async def test_a_lone_page_draws_its_fresh_form_at_once(store: Store) -> None:
    """Nobody else shows the session: the writer's fresh form is drawn in the handler."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    writer, sw = room.device("w")
    elsewhere, _ = room.device("x")
    elsewhere.sid = store.create_session(["Gleb", "Dima", "Egor"])
    elsewhere.show(history_screen)
    open_entry(writer, sid)
    await enter_passed_six(writer, sw)
    await fire(sw, by_id(writer.page, "confirm-deal"))
    assert header(writer) == "Deal 2: Boris deals, Vera leads."


async def test_a_page_entering_a_deal_is_told_live_and_its_confirm_refused(store: Store) -> None:
    """A half-entered deal is not redrawn under the player's finger: he is told at once, his
    confirm (on the old basis) is refused, and only then is the form rebased, choices kept."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    a, sa = room.device("a")
    b, sb = room.device("b")
    open_entry(a, sid)
    open_entry(b, sid)
    for ident in ("kind-raspasy", "tricks-1-3", "tricks-2-3"):
        await fire(sb, by_id(b.page, ident))
    b_confirm = by_id(b.page, "confirm-deal")
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    told = (
        "Deal 1 was just written on another device: Boris: 6♠. Check your entry and confirm again."
    )
    # A banner at the top of the page: the write button at the bottom stays uncovered.
    notices = lambda: [  # noqa: E731
        c.content.content.value
        for c in find(b.page, lambda c: isinstance(c, ft.Banner))
        if isinstance(c.content, ft.Semantics)
    ]
    await until(lambda: notices() == [told], "b was told")
    assert find(b.page, lambda c: isinstance(c, ft.SnackBar)) == []
    assert b.basis == 0 and header(b) == "Deal 1: Anna deals, Boris leads."
    assert by_id(b.page, "confirm-deal") is b_confirm  # not redrawn under the finger
    await fire(sb, b_confirm)
    assert len(store.load(sid).session.deals) == 1  # refused: it named revision 0
    assert [c.open for c in find(b.page, lambda c: isinstance(c, ft.Banner))] == [False]
    # b is shown the deal written beside his own all-pass: they differ, his choice.
    assert lines(b, "conflict-theirs")[:2] == [
        "Deal 1 was written on another device first:",
        "Boris: 6♠",
    ]
    await fire(sb, by_id(b.page, "conflict-write-next"))
    assert header(b) == "Deal 2: Boris deals, Vera leads."
    assert b.form is not None and b.form.kind == "raspasy"
    assert b.form.tricks == {}  # the seats moved on with the dealer: counted again
    for ident in ("tricks-2-3", "tricks-0-3"):
        await fire(sb, by_id(b.page, ident))
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert len(store.load(sid).session.deals) == 2


async def test_the_live_notice_does_not_follow_the_player_to_another_screen(store: Store) -> None:
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    a, sa = room.device("a")
    b, sb = room.device("b")
    open_entry(a, sid)
    open_entry(b, sid)
    await fire(sb, by_id(b.page, "declarer-2"))  # b has begun a deal: told, not redrawn
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    banners = lambda: [c for c in find(b.page, lambda c: isinstance(c, ft.Banner)) if c.open]  # noqa: E731
    await until(lambda: len(banners()) == 1, "b was told")
    await navigate(sb, b.page, "nav-sheet")
    assert banners() == []


def circles(page: ft.Page) -> list[cv.Circle]:
    """The rings of the pulya drawn on the page's canvas."""
    (canvas,) = find(page, lambda c: isinstance(c, cv.Canvas))
    return [s for s in canvas.shapes if isinstance(s, cv.Circle)]


async def test_a_live_redraw_sends_only_what_changed(store: Store) -> None:
    """A page redrawn on another device's write keeps the controls that did not change (their
    ids, so the update sent is the new deal, not the whole screen) and the bars around it; the
    page then works as before (a view switched, a deal opened)."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    a, sa = room.device("a")
    on_history, sh = room.device("h")
    on_sheet, ss = room.device("s")
    open_entry(a, sid)
    for shell, screen in ((on_history, history_screen), (on_sheet, sheet_screen)):
        shell.sid = sid
        shell.show(screen)
    card = by_id(on_history.page, "deal-1")
    bars = (on_history.page.appbar, on_history.page.navigation_bar)
    rings = circles(on_sheet.page)
    names = by_id(on_sheet.page, "pulya-name-0")
    assert len(rings) == 4
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: on_history.basis == 2 and on_sheet.basis == 2, "both pages redrawn")
    assert by_id(on_history.page, "deal-2") is not None
    assert by_id(on_history.page, "deal-1")._i == card._i
    assert (on_history.page.appbar, on_history.page.navigation_bar) == bars
    # The sheet's paper: its rings and the names stay the objects shown (nothing sent of them).
    assert all(a is b for a, b in zip(circles(on_sheet.page), rings, strict=True))
    assert by_id(on_sheet.page, "pulya-name-0") is names
    await fire(ss, by_id(on_sheet.page, "sheet-table-view"))
    assert on_sheet.state.sheet_view == "table"
    await fire(sh, by_id(on_history.page, "edit-1"))
    assert header(on_history) == "Deal 1: Anna deals, Boris leads."


async def test_a_live_redraw_keeps_the_unchanged_cards_whose_buttons_act_on_the_new_state(
    store: Store,
) -> None:
    """On another device's write, the cards that did not change stay the very objects on the
    page (Shell.reuse: Flet skips them, and nothing of them is sent again); their buttons act
    on the state drawn last: a Void on deal 1 tapped after the redraw is applied, not refused."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    store.add_deal(sid, typed(store, sid, RASPASY), seen=1)
    a, sa = room.device("a")
    b, sb = room.device("b")
    open_entry(a, sid)
    b.sid = sid
    b.show(history_screen)
    cards = (by_id(b.page, "deal-1"), by_id(b.page, "deal-2"))
    sent = len(sb.connection.messages)
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 3, "b was redrawn live at revision 3")
    assert by_id(b.page, "deal-1") is cards[0] and by_id(b.page, "deal-2") is cards[1]
    # Kept, they are still found by their ids (a tap from the browser names the id).
    assert sb.index.get(cards[0]._i) is cards[0]
    assert sb.index.get(by_id(b.page, "void-1")._i) is by_id(b.page, "void-1")
    update = b"".join(
        msgpack.packb([m.action, m.body], default=_encode) for m in sb.connection.messages[sent:]
    )
    assert "Deal 3 · Boris: 6♠".encode() in update
    assert "Deal 1 ·".encode() not in update and "Deal 2 ·".encode() not in update
    await fire(sb, by_id(b.page, "void-1"))
    await type_into(sb, by_id(b.page, "void-reason"), "misdealt")
    await fire(sb, by_id(b.page, "confirm-void"))
    assert [(x.seq, x.kind, x.deal_id) for x in store.history(sid)][-1] == (4, "void", 1)
    assert find(b.page, lambda c: getattr(c, "identifier", None) == "message") == []
    assert by_id(b.page, "voided-title-1").value == "Deal 1 · Boris: 6♠"


@pytest.mark.parametrize("width", [360, 1280])
async def test_a_live_redraw_sends_the_frame_s_column_alone_when_nothing_around_it_changed(
    store: Store, width: int
) -> None:
    """Another device's write redraws a phone's (or a laptop's) history: the frame, the app bar
    and the bottom bar (the laptop's rail) stay the very objects on the page, and the one patch
    sent names the frame's column, with the new card in it: Flet diffs that column alone, not
    the view and its bars on every page at the table."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    a, sa = room.device("a")
    b, sb = room.device("b")
    sb.apply_page_patch({"width": width})
    open_entry(a, sid)
    b.sid = sid
    b.show(history_screen)
    frame = b.page.controls[0]
    column = frame.content.content if width < 600 else frame.content.controls[2].content
    bars = (b.page.appbar, b.page.navigation_bar, frame.content)
    assert isinstance(column, ft.Column) and (bars[1] is None) == (width >= 600)
    sent = len(sb.connection.messages)
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 2, "b was redrawn live at revision 2")
    assert b.page.controls[0] is frame and (b.page.appbar, b.page.navigation_bar) == bars[:2]
    assert frame.content is bars[2]  # the laptop's row, with its rail, kept too
    patches = sb.connection.messages[sent:]
    assert [m.body.id for m in patches] == [column._i]
    assert "Deal 2 · Boris: 6♠".encode() in msgpack.packb(
        [patches[0].action, patches[0].body], default=_encode
    )
    assert by_id(b.page, "deal-2") is not None and sb.index.get(column._i) is column


async def test_the_history_of_a_write_is_worded_once_for_every_page_showing_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three phones on the history: one write is put in words once, not once a page (the pages
    of one session and language share them), and each page shows them."""
    from scorepad.app.screens import history

    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    a, sa = room.device("a")
    open_entry(a, sid)
    phones = [room.device(f"p{k}")[0] for k in range(3)]
    for phone in phones:
        phone.sid = sid
        phone.show(history_screen)
    worded: list[int] = []
    explained = history._explained
    monkeypatch.setattr(
        history, "_explained", lambda stored: worded.append(stored.revision) or explained(stored)
    )
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: all(p.basis == 2 for p in phones), "every phone redrawn live")
    assert worded == [2]
    for phone in phones:
        assert by_id(phone.page, "deal-title-2").value == "Deal 2 · Boris: 6♠"


async def test_a_live_redraw_reads_the_session_and_asks_who_may_write_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page is drawn on every write at the table: the redraw reads the session once and asks
    once whether the page may write (a club table's PIN behind it is a query), however many of
    its parts need them; between draws each question is asked anew (a PIN typed meanwhile
    counts at once)."""

    def one_deal(store: Store) -> int:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        store.add_deal(sid, typed(store, sid, PASSED), seen=0)
        return sid

    _, (a, sa), (b, _) = entry_and_history(store, one_deal)
    loads: list[int] = []
    asked: list[str] = []
    gate = b.access.gate
    load, may_write = store.load, gate.may_write
    monkeypatch.setattr(store, "load", lambda s: loads.append(s) or load(s))
    monkeypatch.setattr(
        gate, "may_write", lambda device, **kw: asked.append(device) or may_write(device, **kw)
    )
    await enter_passed_six(a, sa)
    b_device = b.access.device
    loads.clear()
    asked.clear()
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 2, "b was redrawn live at revision 2")
    assert by_id(b.page, "deal-title-2").value == "Deal 2 · Boris: 6♠"
    assert by_id(b.page, "undo") is not None and by_id(b.page, "edit-2") is not None
    assert asked.count(b_device) == 1
    assert b.access.answers is None  # between draws: asked anew
    b_loads = len(loads)
    b.redraw(diffed=True)
    assert len(loads) == b_loads + 1 and asked.count(b_device) == 2


async def test_a_pot_session_is_live_too(store: Store) -> None:
    """A pot session (a ledger family): the history is redrawn as a diff, the family's own sheet
    as a new frame; an undo tapped on the redrawn history is applied to what it showed."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = store.create_session(["Anton", "Brigitte", "Charlotte"], convention="austrian")
    a, sa = room.device("a")
    on_history, sh = room.device("h")
    on_sheet, _ = room.device("s")
    open_entry(a, sid)
    on_history.sid = on_sheet.sid = sid
    on_history.show(history_screen)
    on_sheet.show(sheet_screen)
    for ident in ("declarer-0", "suit-D", "tricks-0-7", "tricks-1-2", "confirm-deal"):
        await fire(sa, by_id(a.page, ident))
    await until(lambda: on_history.basis == 1, "the history redrawn")
    await until(lambda: on_sheet.basis == 1, "the sheet redrawn")
    assert by_id(on_history.page, "deal-1") is not None
    await fire(sh, by_id(on_history.page, "undo"))
    assert [x.kind for x in store.history(sid)] == ["add", "undo"]


# --- history's undo, redo and restore racing a live redraw ------------------------------------

RASPASY = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}


def history_with_everything(store: Store) -> int:
    """Deal 2 voided (restorable), deal 3 added and undone (redoable), something to undo."""
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    store.add_deal(sid, typed(store, sid, RASPASY), seen=1)
    store.void_deal(sid, 2, reason="misdealt", seen=2)
    store.add_deal(sid, typed(store, sid, PASSED), seen=3)
    store.undo(sid, seen=4)
    return sid


def entry_and_history(
    store: Store, history: Callable[[Store], int] = history_with_everything
) -> tuple[int, tuple[Shell, Session], tuple[Shell, Session]]:
    """A session (by default a history with everything, at revision 5), device a on its entry,
    b on its history; both on one server."""
    room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
    sid = history(store)
    a, sa = room.device("a")
    b, sb = room.device("b")
    open_entry(a, sid)
    b.sid = sid
    b.show(history_screen)
    return sid, (a, sa), (b, sb)


@pytest.mark.parametrize("ident", ["undo", "redo"])
async def test_a_history_tap_sent_before_a_live_redraw_arrived_is_refused(
    store: Store, ident: str
) -> None:
    """The phone showed revision 5 when the player tapped; the tap reaches the server after the
    page was redrawn live on another device's deal (revision 6), as the client sends it: by the
    id of the control it showed.  It is refused in words, never applied to revision 6."""
    sid, (a, sa), (b, sb) = entry_and_history(store)
    tapped = by_id(b.page, ident)  # the button on b's screen at revision 5
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 6, "b was redrawn live at revision 6")
    before = store.history(sid)
    await b_taps(sb, tapped)
    assert store.history(sid) == before
    assert message(b) == (
        # Deal 3: the voided deal 2 keeps its number.
        "Deal 3 was just written on another device: Boris: 6♠. Check your entry and confirm again."
    )
    if ident == "redo":  # a's deal ended what could be redone: the button drawn now says so
        assert by_id(b.page, "redo").disabled is True
        return
    # The player has seen the new state now: the same tap is applied, on revision 6.
    await fire(sb, by_id(b.page, ident))
    assert [x.seq for x in store.history(sid)] == [*(x.seq for x in before), 7]
    assert store.history(sid)[-1].kind == ident
    assert find(b.page, lambda c: getattr(c, "identifier", None) == "message") == []


async def test_a_restore_asked_before_another_device_wrote_is_refused_then_asked_again(
    store: Store,
) -> None:
    """Restore asks first, as Void does: its confirmation names the revision the dialog was
    opened on.  Another device writes meanwhile: the restore is refused in words, nothing is
    written; asked again, on the new revision, it is applied."""
    sid, (a, sa), (b, sb) = entry_and_history(store)
    card = by_id(b.page, "voided-2")
    await fire(sb, by_id(b.page, "restore-2"))
    dialog = b.page._dialogs.controls[-1]
    assert sorted(texts(dialog)) == [  # sorted: capitals first
        "Deal 2 · All pass",
        "Restore deal 2?",
        "deal 2 was voided (misdealt)",
    ]
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 6, "b was redrawn live at revision 6")
    assert by_id(b.page, "voided-2") is card  # kept whole by the redraw: nothing to send
    before = store.history(sid)
    await fire(sb, by_id(dialog, "confirm-restore"))
    assert store.history(sid) == before
    assert message(b) == (
        "Deal 3 was just written on another device: Boris: 6♠. Check your entry and confirm again."
    )
    await fire(sb, by_id(b.page, "restore-2"))
    await fire(sb, by_id(b.page._dialogs.controls[-1], "confirm-restore"))
    assert [x.kind for x in store.history(sid)][-1] == "restore"
    assert [e.deal_id for e in store.load(sid).journal.live] == [1, 2, 6]  # 6: a's deal
    assert find(b.page, lambda c: getattr(c, "identifier", None) == "voided-2") == []


async def b_taps(session: Session, control: ft.Control) -> None:
    """A tap as the browser sends it: an event for the id of the control it showed."""
    await session.dispatch_event(control._i, "click", None)


async def test_a_tap_after_the_live_redraw_reached_the_screen_is_applied(store: Store) -> None:
    sid, (a, sa), (b, sb) = entry_and_history(store)
    await enter_passed_six(a, sa)
    await fire(sa, by_id(a.page, "confirm-deal"))
    await until(lambda: b.basis == 6, "b was redrawn live at revision 6")
    await fire(sb, by_id(b.page, "undo"))
    assert [x.kind for x in store.history(sid)][-2:] == ["add", "undo"]
    assert store.history(sid)[-1].target == 6  # a's deal, which b's screen showed
    assert len(store.load(sid).session.deals) == 1


async def test_an_edit_opened_on_an_old_screen_edits_the_deal_the_player_saw(
    store: Store,
) -> None:
    """Another device voided deal 1 after b's history was drawn, and b's page has not been told
    yet: b taps "Edit" on deal 2.  The form is deal 2 as b saw it, on b's revision; its write is
    refused in words and rebased, never written onto another deal's content."""
    room = Room(store, pin=None, hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    game = {
        **PASSED,
        "contract": "7S",
        "calls": ["whist", "pass"],
        "tricks": {"0": 0, "1": 7, "2": 3},
    }
    for seen, deal in enumerate((PASSED, RASPASY, game)):
        store.add_deal(sid, typed(store, sid, deal), seen=seen)
    b, sb = room.device("b")
    b.sid = sid
    b.show(history_screen)
    store.void_deal(sid, 1, reason="misdealt", seen=3)
    await fire(sb, by_id(b.page, "edit-2"))
    assert header(b) == "Deal 2: Boris deals, Vera leads."
    assert b.form is not None and b.form.kind == "raspasy"
    await type_into(sb, by_id(b.page, "edit-reason"), "typo")
    await fire(sb, by_id(b.page, "confirm-deal"))
    assert message(b) == (
        "Deal 1 was just voided on another device (misdealt). Check your entry and confirm again."
    )
    assert [x.kind for x in store.history(sid)] == ["add", "add", "add", "void"]
    assert store.load(sid).journal.entries[2].deal.type == "raspasy"
    assert header(b) == "Deal 2: Anna deals, Boris leads."  # deal 2 keeps its number
    assert b.editing == (2, 0) and b.form is not None and b.form.kind == "raspasy"


# --- who may write ---------------------------------------------------------------------------


async def test_a_viewer_has_no_write_controls_and_a_forged_write_is_refused(store: Store) -> None:
    room = Room(store, pin="246810", hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    viewer, sv = room.device("v")
    join(viewer, sid, room.grants.link(sid))
    assert by_id(viewer.page, "viewer-note").value == (
        "You are looking at the sheet; writing needs the table PIN."
    )
    ids = {c.identifier for c in find(viewer.page, lambda c: isinstance(c, ft.Semantics))}
    assert not ids & {"nav-entry", "nav-sessions", "share-table"}
    await navigate(sv, viewer.page, "nav-history")
    ids = {c.identifier for c in find(viewer.page, lambda c: isinstance(c, ft.Semantics))}
    assert not ids & {"undo", "redo", "void-1", "edit-1"}
    # A forged client: the entry screen drawn anyway, a deal entered and confirmed.
    viewer.new_form()
    viewer.show(entry_screen)
    await enter_passed_six(viewer, sv)
    await fire(sv, by_id(viewer.page, "confirm-deal"))
    assert message(viewer) == (
        "This device may only look at the sheet: enter the table PIN to write."
    )
    assert len(store.history(sid)) == 1
    # nor may it reach the list of sessions
    viewer.show(sessions_screen)
    assert f"session-open-{sid}" not in {
        c.identifier for c in find(viewer.page, lambda c: isinstance(c, ft.Semantics))
    }


async def test_a_joined_phone_with_the_pin_writes_only_its_session(store: Store) -> None:
    room = Room(store, pin="246810", hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    other = store.create_session(["Gleb", "Dima", "Egor"])
    phone, sp = room.device("p")
    join(phone, sid, room.grants.link(sid))
    await fire(sp, by_id(phone.page, "pin-open"))
    await type_into(sp, by_id(phone.page, "pin-field"), "246810")
    await fire(sp, by_id(phone.page, "pin-submit"))
    ids = {c.identifier for c in find(phone.page, lambda c: isinstance(c, ft.Semantics))}
    assert "nav-entry" in ids and "nav-sessions" not in ids
    await navigate(sp, phone.page, "nav-entry")
    await enter_passed_six(phone, sp)
    await fire(sp, by_id(phone.page, "confirm-deal"))
    assert len(store.load(sid).session.deals) == 1
    # a forged write to another session is refused in the write path
    phone.sid = other
    phone.new_form()
    phone.show(entry_screen)
    await enter_passed_six(phone, sp)
    await fire(sp, by_id(phone.page, "confirm-deal"))
    assert message(phone) == "This device may only write to the shared game."
    assert store.load(other).session.deals == []


async def test_join_link_to_a_missing_session(store: Store) -> None:
    room = Room(store, pin="246810", hub=None)
    viewer, _ = room.device("v")
    join(viewer, 42, room.grants.link(42))
    assert message(viewer) == "This link opens nothing: ask the host for the table's link."


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("typed", "told"),
    [
        ("", "Enter the table PIN: the host's screen shows it."),
        ("   ", "Enter the table PIN: the host's screen shows it."),
        ("111111", "Wrong PIN. Tries left on this device: 4."),
        ("9" * 5000, "That is not the table PIN: it is 6 digits. Tries left: 4."),
        ("12ab56", "That is not the table PIN: it is 6 digits. Tries left: 4."),
    ],
)
async def test_bad_pins_are_refused_in_a_sentence(store: Store, typed: str, told: str) -> None:
    room = Room(store, pin="246810", hub=None)
    shell, s = room.device("d")
    shell.show(pin_screen)
    await type_into(s, by_id(shell.page, "pin-field"), typed)
    await fire(s, by_id(shell.page, "pin-submit"))
    assert message(shell) == told
    assert not shell.access.may_write


def test_five_wrong_pins_lock_the_device_then_the_wait_grows() -> None:
    clock = Clock()
    gate = Gate("246810", explicit=True, wait=30.0, clock=clock)
    for left in (4, 3, 2, 1):
        assert gate.enter("phone", "000000").render() == (  # type: ignore[union-attr]
            f"Wrong PIN. Tries left on this device: {left}."
        )
    assert gate.enter("phone", "000000").render() == (  # type: ignore[union-attr]
        "Too many wrong PINs on this device: wait 30 s, then try again."
    )
    clock.now += 29
    assert gate.enter("phone", "246810").render() == (  # type: ignore[union-attr]
        "Too many wrong PINs on this device: wait 1 s, then try again."
    )
    assert not gate.may_write("phone")
    assert gate.enter("laptop", "246810") is None  # another device is not locked out
    clock.now += 1.5
    assert gate.enter("phone", "000000").render() == (  # type: ignore[union-attr]
        "Too many wrong PINs on this device: wait 60 s, then try again."
    )
    clock.now += 61
    assert gate.enter("phone", "246810") is None
    assert gate.may_write("phone")


def test_an_address_guessing_with_new_devices_waits_but_a_phone_already_there_does_not() -> None:
    """Strangers' misses never refuse the right PIN to a device that was there and never missed."""
    clock = Clock()
    gate = Gate("246810", explicit=True, clock=clock)
    gate.meet("old-phone")  # at the table before the guessing began
    clock.now += 1
    for i in range(20):  # a guesser making a new device every few tries, from one address
        gate.enter(f"made-{i // 4}", "000000", "192.168.1.66")
    assert gate.enter("made-new", "246810", "192.168.1.66").render() == (  # type: ignore[union-attr]
        "Too many wrong PINs from this network, not necessarily from this device: "
        "wait 60 s, then try again."
    )
    assert gate.enter("old-phone", "246810", "192.168.1.66") is None
    assert gate.enter("other-address", "246810", "192.168.1.7") is None
    clock.now += 61
    assert gate.enter("made-new", "000000", "192.168.1.66").render() == (  # type: ignore[union-attr]
        "Wrong PIN. Tries left on this device: 4."
    )
    assert gate.enter("made-next", "246810", "192.168.1.66").render() == (  # type: ignore[union-attr]
        "Too many wrong PINs from this network, not necessarily from this device: "
        "wait 120 s, then try again."
    )


def test_devices_made_before_the_guessing_buy_ten_tries_at_most() -> None:
    """A guesser who made many devices before guessing (each "at the table before the misses")
    gets one try from each only until the address's 10 spared tries are used."""
    clock = Clock()
    gate = Gate("246810", explicit=True, clock=clock)
    made = [f"made-{i}" for i in range(40)]
    for device in made:
        gate.meet(device)
    clock.now += 1
    for i in range(20):  # the address's own 20 misses
        gate.enter(f"burner-{i // 4}", "000000", "192.168.1.66")
    spared = [gate.enter(d, "000000", "192.168.1.66") for d in made]
    assert [m.render() for m in spared[:10] if m is not None] == [  # tried, and missed
        "Wrong PIN. Tries left on this device: 4."
    ] * 10
    # The rest wait, never tried; the spared misses counted for the address: its wait grew.
    assert {m.render() for m in spared[10:] if m is not None} == {
        "Too many wrong PINs from this network, not necessarily from this device: "
        "wait 3600 s, then try again."
    }
    assert len(spared) == 40 and None not in spared
    assert gate.enter(made[39], "246810", "192.168.1.66") is not None  # not even the right one
    assert not gate.may_write(made[39])
    assert gate.enter("phone-elsewhere", "246810", "192.168.1.7") is None


def test_a_value_that_is_not_text_is_refused_in_a_sentence() -> None:
    gate = Gate("246810", explicit=True)
    for value in (246810, 2.5, ["246810"], {"a": 1}, True):
        assert gate.enter("phone", value).render() == (  # type: ignore[union-attr]
            "The table PIN is digits only: type it again."
        )
    assert not gate.may_write("phone")


def test_the_pin_is_remembered_per_device_and_loopback_host_needs_none() -> None:
    gate = Gate("246810", explicit=False)
    assert gate.may_write("host", loopback=True)  # a generated PIN: the host's computer writes
    assert not gate.may_write("phone")
    assert gate.enter("phone", "246810") is None
    assert gate.may_write("phone")
    explicit = Gate("246810", explicit=True)
    assert not explicit.may_write("host", loopback=True)  # --pin: asked here too


async def test_share_the_table_only_on_the_open_session_s_screens(store: Store) -> None:
    """Issue #27, item 9: New game and Players would share the session opened before."""
    from scorepad.app.frame import registry

    room = Room(store, pin=None, hub=None)
    sid = store.create_session(["Anna", "Boris", "Vera"])
    host, _ = room.device("h")
    open_entry(host, sid)
    assert by_id(host.page, "share-table") is not None
    for name in ("sheet", "history"):
        host.show(registry.screen(name))
        assert by_id(host.page, "share-table") is not None, name
    for name in ("new-session", "players"):
        host.show(registry.screen(name))
        ids = {c.identifier for c in find(host.page, lambda c: isinstance(c, ft.Semantics))}
        assert "share-table" not in ids, name


# --- what another device did, named by its deal (issue #21, item 13) -------------------------


def test_an_undo_or_redo_on_another_device_is_named_by_its_deal(store: Store) -> None:
    """The notice a page shows after another device's undo or redo says which deal it changed."""
    from types import SimpleNamespace

    from scorepad.app.session import TableSession
    from scorepad.core.i18n import catalog

    sid = store.create_session(["Anna", "Boris", "Vera"])
    other = SimpleNamespace(session=TableSession(store, threading.RLock()))  # what it reads
    en = catalog("en")

    def told(seen: int) -> list[str]:
        stored = store.load(sid)
        return [en.render(m) for m in live.changed_since(other, stored, seen)][:-1]  # type: ignore[arg-type]

    s = store.add_deal(sid, typed(store, sid, PASSED), seen=0)
    deal = s.journal.live[0].deal_id
    s = store.add_deal(sid, typed(store, sid, PASSED | {"declarer": 2}), seen=s.revision)
    seen = s.revision
    s = store.edit_deal(
        sid, deal, typed(store, sid, PASSED | {"contract": "7S"}), reason="misheard", seen=seen
    )
    s = store.undo(sid, seen=s.revision)
    assert told(s.revision - 1) == [
        "The change to deal 1 was just undone on another device: Boris: 6♠."
    ]
    s = store.redo(sid, seen=s.revision)
    assert told(s.revision - 1) == [
        "Deal 1 was just changed again on another device (redo): Boris: 7♠."
    ]
    s = store.void_deal(sid, deal, reason="misdeal", seen=s.revision)
    s = store.undo(sid, seen=s.revision)
    assert told(s.revision - 1) == [
        "Deal 1 is back: its void was just undone on another device: Boris: 7♠."
    ]
    s = store.redo(sid, seen=s.revision)
    assert told(s.revision - 1) == ["Deal 1 was just voided again on another device (redo)."]
    s = store.undo(sid, seen=s.revision)  # the void taken back again
    s = store.add_deal(
        sid, typed(store, sid, PASSED | {"declarer": 0, "contract": "8H"}), seen=s.revision
    )
    s = store.undo(sid, seen=s.revision)
    assert told(s.revision - 1) == [
        "The deal just written was taken back on another device (undo): Anna: 8♥."
    ]
    s = store.redo(sid, seen=s.revision)
    assert told(s.revision - 1) == [
        "Deal 3 was just written again on another device (redo): Anna: 8♥."
    ]
    # Three of them at once, oldest first, each named.
    assert told(s.revision - 3)[-1] == (
        "Deal 3 was just written again on another device (redo): Anna: 8♥."
    )
