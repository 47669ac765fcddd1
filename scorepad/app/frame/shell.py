"""The app's frame: the store, the language, which session is open, which screen is shown.

Screens are functions ``(shell) -> Control``; after every action the shell draws the screen
again from the store (the sheet is always derived, so there is no view state to go stale).
Every sentence comes from the catalogs through :meth:`Shell.t`.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Hashable, Iterator
from typing import Any, TypeVar, cast

import flet as ft

from ...core.i18n import LANGUAGES, N_, Msg, catalog
from ...store import AnyStored, Store, Stored
from ..server.access import Access
from ..server.table import Table
from ..session import Refused, TableSession
from . import live, nav, registry
from .family import EntryForm, destination, ui_of
from .nav import Screen, shown
from .state import AppState
from .theme import WIDE, sem

__all__ = ["Screen", "Shell", "sem"]

LANGUAGE_KEY = "scorepad-language"  # this device's choice, in the browser's local storage


async def remembered_language(default: str) -> str:
    """The language this device chose on the first screen, else ``default`` (--lang, the system)."""
    try:
        found = await asyncio.wait_for(ft.SharedPreferences().get(LANGUAGE_KEY), timeout=10)
    except (TimeoutError, RuntimeError):  # no storage: the default
        return default
    return found if found in LANGUAGES else default


async def remember_language(code: str) -> None:
    with contextlib.suppress(TimeoutError, RuntimeError):  # no storage: it lasts as the page
        await asyncio.wait_for(ft.SharedPreferences().set(LANGUAGE_KEY, code), timeout=10)


T = TypeVar("T")

# Revisions a page remembers having drawn (live.guarded keeps their write controls, hidden).
KEPT = 3


def _indexed(index: Any, made: Any) -> bool:
    """A kept part still in the page's index (its top control stands for what is inside)."""
    if isinstance(made, list):
        return all(_indexed(index, c) for c in made)
    if isinstance(made, ft.BaseControl):
        return index.get(made._i) is made
    return True  # not a control: nothing to index


def message_box(text: str, *, padding: float = 12) -> ft.Control:
    """A refusal on screen, as a live region: a screen reader reads it out when it appears."""
    return ft.Semantics(
        key="message",
        identifier="message",
        label=text,
        live_region=True,
        exclude_semantics=True,  # the label is the text: read once
        content=ft.Container(
            ft.Text(text, color=ft.Colors.ON_ERROR_CONTAINER, selectable=True),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            padding=padding,
            border_radius=12,
        ),
    )


class Shell:
    """One browser tab (or window) of the app."""

    def __init__(
        self,
        page: ft.Page,
        store: Store,
        lang: str,
        lock: threading.RLock,
        access: Access | None = None,
    ) -> None:
        self.page = page
        # What this page writes and reads (app/session.py): the store and its lock shared by
        # the server's pages, who may write, the open session and the revision drawn from.
        self.session = TableSession(store, lock, lang=lang, access=access)
        # Where a language chosen on the first screen is kept: the browser's storage when the
        # app serves a real page (server/run.py), nowhere for a page made in a test.
        self.remember_language: Callable[[str], object] = lambda code: None
        # The deal being entered: the open session's family's form (frame/family.py).
        self.form: EntryForm | None = None
        self.editing: tuple[int, int] | None = None  # (deal id, index) of a deal being edited
        self.screen: Screen | None = None
        self.message: str | None = None
        self.state = AppState()
        self._wide = self.wide
        page.on_resize = self._resized
        # The server-wide table (PIN, sharing) when served (see live.py, server/table.py).
        self.table: Table | None = None
        # The revisions this page drew, newest last (see live.guarded), and what the frame,
        # the app bar and the bottom bar were drawn for: a live redraw sends only what changed.
        self.drawn: list[tuple[int, int]] = []  # (session, revision)
        self._frame = 0
        # Something outside the root view changed since the last drawing (a notice closed):
        # the next drawing sends the whole page.
        self.page_touched = False
        self._bars: dict[str, tuple[tuple[Any, ...], ft.Control | None]] = {}
        # The frame on display: its number, its rail (a laptop's) and the column of its parts.
        self._scaffold: tuple[int, ft.Control | None, ft.Column] | None = None
        # The parts of the screen on display (``reuse``) and those of the draw being made.
        self._reused: dict[str, tuple[Any, Any]] = {}
        self._reusing: dict[str, tuple[Any, Any]] = {}
        # What the draw being made read of the store (Shell.drawing), or None between draws.
        self._read: dict[Hashable, object] | None = None

    # --- the session (app/session.py): what the page shows -----------------------------

    @property
    def lang(self) -> str:
        return self.session.lang

    @lang.setter
    def lang(self, code: str) -> None:
        self.session.lang = code

    @property
    def sid(self) -> int | None:
        """The open session."""
        return self.session.sid

    @sid.setter
    def sid(self, sid: int | None) -> None:
        self.session.open(sid)

    @property
    def basis(self) -> int | None:
        """The revision the page's form was built from: its write names it."""
        return self.session.basis

    @basis.setter
    def basis(self, revision: int | None) -> None:
        self.session.basis = revision

    @property
    def access(self) -> Access:
        """What this page may do (server/access.py)."""
        return self.session.access

    # --- words ---------------------------------------------------------------------------

    def t(self, text: str, **args: Any) -> str:
        return catalog(self.lang).render(Msg(text, args))

    def render(self, m: Msg) -> str:
        return catalog(self.lang).render(m)

    # --- data ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def drawing(self) -> Iterator[None]:
        """One draw of the page: the session, who may write and the club table are read once
        and are the same for every part of it (one revision on the whole screen).  A page is
        drawn on every write at the table, and each part used to read them anew."""
        if self._read is not None:  # a draw within a draw (a refresh showing its screen)
            yield
            return
        self._read = {}
        self.access.answers = {}
        try:
            yield
        finally:
            self._read = None
            self.access.answers = None

    def read(self, key: Hashable, load: Callable[[], T]) -> T:
        """``load()``, once per draw (Shell.drawing) for ``key``; each time between draws."""
        if self._read is None:
            return load()
        if key not in self._read:
            self._read[key] = load()
        return cast("T", self._read[key])

    def stored(self) -> AnyStored:
        """The open session as it stands, whatever its family: once per draw (``read``)."""
        return self.read(("stored", self.sid), self.session.load)

    @property
    def family(self) -> str:
        """The open session's scoring family (``pulya`` when none is open)."""
        return self.session.family

    def new_form(self) -> EntryForm:
        self.editing = None
        stored = self.stored()
        self.basis = stored.revision
        self.form = ui_of(stored.family).new_form(stored)
        return self.form

    def edit_form(self, deal_id: int, index: int, *, stored: AnyStored | None = None) -> EntryForm:
        """A form for deal ``index`` as it was written, in its own context (the deals before it).

        ``stored``: the state the player saw when he chose the deal (its revision is the form's
        basis, so an edit of a deal that changed meanwhile is refused and rebased); default now.
        """
        if stored is None:
            stored = self.stored()
        self.basis = stored.revision
        self.form = ui_of(stored.family).edit_form(stored, index)
        self.editing = (deal_id, index)
        self.state.edit_reason = ""
        return self.form

    def told(self, done: object, *, seen: int | None = None) -> bool:
        """What a write of the session (app/session.py) came to, on screen: a refusal shown
        with its reason (it changed nothing), or the written session announced to the other
        pages of the session.  ``seen`` is the revision the form was built from: a stale write
        is told what changed, and the form is rebased.  Says whether it was written."""
        if isinstance(done, Refused):
            if done.stale and seen is not None and self.sid is not None:
                live.stale_told(self, seen)
            else:
                self.message = done.said
            return False
        self.message = None
        if isinstance(done, Stored):  # a session (not a new game's id, nor nothing)
            live.publish(self, done.id, done.revision)
        return True

    def attempt(
        self, action: Callable[[], object], *, seen: int | None = None, admin: bool = False
    ) -> bool:
        """``action`` written through the session (its lock, the device's right to write, a
        refusal in the player's words: app/session.py), and what it came to shown (``told``)."""
        return self.told(self.session.write(lambda _store: action(), admin=admin), seen=seen)

    @property
    def finished(self) -> bool:
        """Every pool of the open pulka is closed and nobody chose to play on."""
        if self.sid is None:
            return False
        return self.stored().scored.finished and self.sid not in self.state.playing_on

    # --- drawing ---------------------------------------------------------------------------

    @property
    def in_session(self) -> bool:
        """The screen shown is one of the open session's (in its navigation)."""
        return self.sid is not None and nav.destination_of(self.screen) is not None

    @property
    def frame(self) -> int:
        """The frame on display: a new one for each screen drawn anew (not a live redraw)."""
        return self._frame

    @property
    def wide(self) -> bool:
        return (self.page.width or 0) >= WIDE

    def go(self, name: str) -> None:
        """Show the screen registered as ``name`` (a fresh deal form for the deal entry)."""
        self.message = None
        if name == "entry" and self.sid is not None:
            self.new_form()
        self.show(nav.screen(name))

    def show(self, screen: Screen, *, diffed: bool = False) -> None:
        """Draw ``screen`` from the store (see ``_show``), reading it once (``drawing``)."""
        with self.drawing():
            self._show(screen, diffed=diffed)

    def _show(self, screen: Screen, *, diffed: bool = False) -> None:
        """Draw ``screen`` from the store.

        ``diffed``: the same screen drawn again on a write from another device (live.py).  Flet
        then diffs the new frame against the one shown (keyed, frozen: the controls that stayed
        keep their ids), so only what changed is built and sent.  Otherwise the frame is new:
        a tap sent from the screen that was shown before reaches nothing on the new one.
        """
        name = destination(screen)
        if name is not None:  # a family's entry or sheet: shown under the navigation's own
            screen = nav.screen(name)
        if not (diffed and screen is self.screen):
            self._frame += 1
            self._reused = {}  # a new frame: nothing of the old one is kept
        self._reusing = {}
        if screen is not self.screen:
            live.close_notice(self)  # a note about the entry does not follow to other screens
        self.screen = screen
        body = screen(self)
        drawn = (self.sid, self.basis)
        if self.sid is not None and self.basis is not None and drawn not in self.drawn:
            self.drawn = [*self.drawn[-(KEPT - 1) :], (self.sid, self.basis)]
        controls: list[ft.Control] = []
        if self.message:
            controls.append(message_box(self.message))
        draw_bar = registry.bar()
        bar = draw_bar(self) if draw_bar is not None else None
        if bar is not None:
            if bar.key != "table-bar":  # a bar kept from the last draw has it (Shell.reuse)
                bar.key = "table-bar"
            controls.append(bar)
        for k, panel in enumerate(registry.panels()):  # a club table's confirmations...
            extra = panel(self)
            if extra is not None:
                if extra.key != f"panel-{k}":
                    extra.key = f"panel-{k}"
                controls.append(extra)
        body.key = "body"
        controls.append(body)
        selected = nav.destination_of(screen)
        page = self.page
        bars = (page.appbar, page.navigation_bar)
        side: ft.Control | None = None  # the laptop's rail
        if selected is None or self.sid is None:
            page.navigation_bar = None
            page.appbar = None
            self._bars.clear()
        else:
            page.appbar = self._appbar()
            drawn_for = (
                self.lang,
                self.family,
                selected,
                tuple(nav.destinations()),
                shown(self, "nav-entry"),
            )
            if self.wide:
                page.navigation_bar = None
                self._bars.pop("bottom", None)
                side = self._kept("rail", drawn_for, lambda: nav.navigation_rail(self, selected))
            else:
                self._bars.pop("rail", None)
                page.navigation_bar = self._kept(
                    "bottom", drawn_for, lambda: nav.navigation_bar(self, selected)
                )
        kept = self._scaffold
        if diffed and kept is not None and kept[0] == self._frame and kept[1] is side:
            # A live redraw in the same frame: the frame's column takes the new parts, and
            # Flet diffs that column alone when nothing around it changed (the bars are the
            # very ones shown), not the view, its bars and the frame around it on every page.
            column = kept[2]
            column.controls = controls
            alone = bars[0] is page.appbar and bars[1] is page.navigation_bar
        else:
            column = ft.Column(controls, spacing=10, expand=True)
            content = ft.Container(column, padding=12, expand=True)
            root: ft.Control = content
            if side is not None:
                root = ft.Row(
                    [side, ft.VerticalDivider(width=1), content],
                    expand=True,
                    spacing=0,
                    vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                )
            page.controls = [ft.SafeArea(root, expand=True, key=f"frame-{self._frame}")]
            self._scaffold = (self._frame, side, column)
            alone = False
        if self.page_touched or not diffed:
            page.update()
        elif alone:
            column.update()
        else:
            # A live redraw changes the root view alone (its frame and bars): Flet's diff of the
            # whole page would walk the window, the overlay, the services too, on every page.
            page.update(page.views[0])
        self.page_touched = False
        self._reindex()
        self._reused, self._reusing = self._reusing, {}

    def _reindex(self) -> None:
        """Flet's diff, replacing a kept part's old parent, drops the part's controls from the
        page's index (by which a tap finds its control) though they stay on screen: they are
        put back, so a tap on a kept button still reaches it."""
        kept = [
            made
            for key, (_, made) in self._reusing.items()
            if key in self._reused and self._reused[key][1] is made
        ]
        if not kept:
            return
        try:
            index = self.page.session.index
        except RuntimeError:  # a page with no session behind it
            return
        # Flet keeps them when flet_diff is installed (it stops at a part the new frame took).
        stack: list[Any] = [made for made in kept if not _indexed(index, made)]
        while stack:
            c = stack.pop()
            if isinstance(c, list):
                stack.extend(c)
            elif isinstance(c, ft.BaseControl):
                index[c._i] = c
                for name in ("content", "controls", "shapes", "actions", "spans"):
                    inner = getattr(c, name, None)
                    if inner is not None:
                        stack.append(inner)

    def reuse(self, key: str, drawn_for: object, make: Callable[[], T]) -> T:
        """The part ``key`` of the screen: the very object on display when it was drawn for
        the same things (``drawn_for``, compared by ``==``) in this frame, else ``make()``.

        A live redraw is a diff of the new screen against the one shown (``show(diffed=True)``);
        Flet skips a kept object whole, where a new one, even equal, is compared field by field
        (and each connected page pays it on every write).  A kept part must not change in place
        and its handlers must not hold what changes from one draw to the next (the revision, the
        journal): they read it when tapped, or it belongs in ``drawn_for``.  Each key once a draw.
        """
        old = self._reused.get(key)
        if old is not None and old[0] == drawn_for:
            self._reusing[key] = old
            return cast("T", old[1])
        made = make()
        self._reusing[key] = (drawn_for, made)
        return made

    def _kept(self, name: str, drawn_for: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """The bar drawn for the same things last time (nothing to send), or a new one."""
        old = self._bars.get(name)
        if old is not None and old[0] == drawn_for:
            return old[1]
        # Not frozen: a new bar must be a new control (a new id), so that a tap on the old
        # bar's destinations (sent before the new bar reached the screen) reaches nothing,
        # never a different destination at the same place on the new one.
        bar = make()
        self._bars[name] = (drawn_for, bar)
        return bar

    def _appbar(self) -> ft.AppBar:
        names = ", ".join(self.stored().session.players)
        back = shown(self, "nav-sessions")  # a joined phone has no list to go back to
        bar: ft.AppBar = self._kept(
            "top", (self.lang, names, back), lambda: self._new_appbar(names, back=back)
        )
        return bar

    def _new_appbar(self, names: str, *, back: bool) -> ft.AppBar:
        return ft.AppBar(
            automatically_imply_leading=False,
            leading=None
            if not back
            else sem(
                "nav-sessions",
                ft.IconButton(
                    ft.Icons.ARROW_BACK,
                    tooltip=self.t(N_("Games")),
                    on_click=lambda: self.go("sessions"),
                ),
                label=self.t(N_("Games")),
            ),
            title=ft.Text(names, size=18, overflow=ft.TextOverflow.ELLIPSIS),
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        )

    def _resized(self, _e: Any) -> None:
        # Phone or laptop layout: redraw only when the width crosses the line.
        if self.wide != self._wide:
            self._wide = self.wide
            self.redraw()

    def redraw(self, *, diffed: bool = False) -> None:
        if self.screen is not None:
            self.show(self.screen, diffed=diffed)
