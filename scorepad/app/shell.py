"""The app's frame: the store, the language, which session is open, which screen is shown.

Screens are functions ``(shell) -> Control``; after every action the shell draws the screen
again from the store (the sheet is always derived, so there is no view state to go stale).
Every sentence comes from the catalogs through :meth:`Shell.t`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import flet as ft

from ..i18n import Msg, catalog
from ..scoring.score import replay
from ..scoring.session import SessionInvalid
from ..store import StaleRevision, Store, Stored, StoreError
from . import live
from .access import Access, open_access
from .form import DealForm

Screen = Callable[["Shell"], ft.Control]


def sem(identifier: str, control: ft.Control) -> ft.Semantics:
    """A stable automation id (``flt-semantics-identifier`` on the web)."""
    return ft.Semantics(identifier=identifier, content=control)


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
        self.store = store
        self.lang = lang
        self.lock = lock  # one database connection, handlers on several threads
        self.sid: int | None = None
        self.form: DealForm | None = None
        self.editing: tuple[int, int] | None = None  # (deal id, index) of a deal being edited
        self.screen: Screen | None = None
        self.message: str | None = None
        self.state: dict[str, Any] = {}
        # The shared table: what this page may do, the revision its form was built from, and
        # the server-wide table (PIN, sharing) when served (see live.py, access.py, table.py).
        self.access = access or open_access()
        self.basis: int | None = None
        self.table: Any = None

    # --- words ---------------------------------------------------------------------------

    def t(self, text: str, **args: Any) -> str:
        return catalog(self.lang).render(Msg(text, args))

    def render(self, m: Msg) -> str:
        return catalog(self.lang).render(m)

    # --- data ------------------------------------------------------------------------------

    def stored(self) -> Stored:
        assert self.sid is not None
        with self.lock:
            return self.store.load(self.sid)

    def new_form(self) -> DealForm:
        self.editing = None
        stored = self.stored()
        self.basis = stored.revision
        self.form = DealForm(stored.scored)
        return self.form

    def edit_form(self, deal_id: int, index: int) -> DealForm:
        """A form for deal ``index`` as it was written, in its own context (the deals before it)."""
        stored = self.stored()
        self.basis = stored.revision
        before = stored.session.model_copy(update={"deals": stored.session.deals[:index]})
        self.form = DealForm(replay(before, stored.settings))
        self.form.load(stored.journal.live[index].deal)
        self.editing = (deal_id, index)
        self.state["reason"] = ""
        return self.form

    def attempt(self, action: Callable[[], Any], *, seen: int | None = None) -> bool:
        """Run a store action; a refusal is shown on screen with its reason and changes nothing.

        The device's right to write is checked here, on the server, for every write.  ``seen``
        is the revision the form was built from: a stale write is told what changed, and the
        form is rebased.  A written action is announced to the other pages of the session.
        """
        try:
            self.access.require_write(self.sid)
            with self.lock:
                done = action()
        except StaleRevision as exc:
            if seen is None or self.sid is None:
                self.message = exc.render(self.lang)
            else:
                live.stale_told(self, seen)
            return False
        except SessionInvalid as exc:
            self.message = "\n".join(exc.render(self.lang))
            return False
        except StoreError as exc:
            self.message = exc.render(self.lang)
            return False
        self.message = None
        if isinstance(done, Stored):
            self.basis = done.revision
            live.publish(self, done.id, done.revision)
        return True

    # --- drawing ---------------------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        self.screen = screen
        body = screen(self)
        controls: list[ft.Control] = []
        if self.message:
            controls.append(
                sem(
                    "message",
                    ft.Container(
                        ft.Text(
                            self.message, color=ft.Colors.RED_900
                        ),  # plain text: screen readers read it
                        bgcolor=ft.Colors.RED_50,
                        padding=10,
                        border_radius=8,
                    ),
                )
            )
        bar = table_bar(self)
        if bar is not None:
            controls.append(bar)
        controls.append(body)
        self.page.controls = [
            ft.SafeArea(ft.Column(controls, spacing=10, expand=True), expand=True)
        ]
        self.page.update()

    def redraw(self) -> None:
        if self.screen is not None:
            self.show(self.screen)


def table_bar(shell: Shell) -> ft.Control | None:
    from .table import table_bar as bar

    return bar(shell)
