"""The table session: every write a page of the app makes, and the reads it draws from, without
Flet.

A page (``frame/shell.Shell``) draws; this writes.  One ``TableSession`` a page: it holds the
store and the lock shared by every page of the server (one database connection, handlers on
several threads), the device's right to write (``server/access.Access``), the open session's id
and the revision the page's view was built from (``basis``).  Each write returns the session as
it stands after it (or what it made: a new game's id) or a :class:`Refused`, whose sentence is
in the player's language: the store's, the engine's or the device's refusal, never a traceback,
and nothing written.  A write that names a revision older than the session's is refused as the
store refuses it (``Refused.stale``), and the page tells what changed.

Nothing here imports Flet: the session is tested on a real store without a page
(tests/test_table_session.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..core.i18n import ScorepadError
from ..scoring.pulya.session import SessionInvalid
from ..store import (
    AnyDeal,
    AnyStored,
    InvalidEntry,
    SessionSummary,
    StaleRevision,
    Store,
    Stored,
)
from ..store.journal import Action
from .server.access import Access, open_access
from .server.grants import Grants

if TYPE_CHECKING:
    from ..league.outbox import Flushed

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Refused:
    """A write that was refused; nothing was written.  ``said``: why, in the player's language;
    ``stale``: the session changed after the revision the write named."""

    said: str
    stale: bool = False


class DealWrites(Protocol):
    """How a deal is written in a session that is not an ordinary pulka (a club table writes
    through its night: who wrote it, a player's change waiting for another's confirmation)."""

    def add(self, deal: AnyDeal, *, seen: int) -> AnyStored: ...

    def no_deal_left(self) -> bool:
        """No deal is left to write (a club table that has played its deals of the tour)."""
        ...

    def edit(self, deal_id: int, deal: AnyDeal, *, reason: str, seen: int) -> AnyStored: ...

    def change(
        self,
        kind: str,
        step: Callable[[], AnyStored],
        *,
        seen: int,
        deal_id: int | None = None,
        reason: str = "",
    ) -> AnyStored:
        """A void, an undo, a redo or a restore (``step``: the store's own): written as this
        session writes it, or a StoreError when refused; returns the session as it stands."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game as the store creates it: who plays and the settings frozen for it."""

    players: tuple[str, ...]
    convention: str = "sochi"
    overrides: dict[str, Any] = field(default_factory=dict)
    pool_target: int = 20
    first_dealer: int = 0
    whist_price: str = "1.00"
    currency: str = "RUB"


def refusal(exc: ScorepadError, lang: str) -> Refused:
    """A refusal in the player's words: the deal by its number and the field named, for an entry."""
    if isinstance(exc, StaleRevision):
        return Refused(exc.render(lang), stale=True)
    if isinstance(exc, SessionInvalid):
        return Refused("\n".join(exc.render(lang)))
    if isinstance(exc, InvalidEntry):
        return Refused(exc.said(lang))
    render = getattr(exc, "render", None)
    if callable(render):
        said = render(lang)
        return Refused(said if isinstance(said, str) else "\n".join(said))
    return Refused(exc.message.render(lang))


class TableSession:
    """What one page writes and reads (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        lock: threading.RLock,
        *,
        lang: str = "en",
        access: Access | None = None,
    ) -> None:
        self.store = store
        self.lock = lock
        self.lang = lang
        self.access = access or open_access()
        self.sid: int | None = None  # the open session
        self.basis: int | None = None  # the revision the page's view was built from
        self._family: tuple[int, str] | None = None  # (session, family): it never changes

    # --- reads -----------------------------------------------------------------------------

    def read(self, look: Callable[[Store], T]) -> T:
        """``look(store)`` under the lock (a read of several parts sees one state)."""
        with self.lock:
            return look(self.store)

    @contextmanager
    def locked(self) -> Iterator[Store]:
        """The store under the lock, for a read of several steps."""
        with self.lock:
            yield self.store

    def load(self, sid: int | None = None) -> AnyStored:
        """Session ``sid`` (default: the open one) as it stands."""
        return self.read(lambda s: s.load(self._sid(sid)))

    @property
    def family(self) -> str:
        """The open session's scoring family (``pulya`` when none is open)."""
        if self.sid is None:
            return "pulya"
        if self._family is None or self._family[0] != self.sid:
            sid = self.sid
            self._family = (sid, self.read(lambda s: s.family(sid)))
        return self._family[1]

    def history(self, sid: int | None = None) -> list[Action]:
        return self.read(lambda s: s.history(self._sid(sid)))

    def sessions(self) -> list[SessionSummary]:
        return self.read(lambda s: s.sessions())

    def closed(self) -> dict[int, tuple[str, str]]:
        """The games closed before their end: their time and the table's reason."""
        return self.read(lambda s: s.closed_sessions())

    def players(self) -> list[str]:
        return self.read(lambda s: s.players())

    def export(self, sid: int) -> str:
        return self.read(lambda s: s.export_session(sid))

    def grants(self) -> Grants:
        """The database's memory of the PIN's devices and the join links (server/grants.py),
        under the lock this session holds."""
        return Grants(self.store, self.lock)

    # --- writes ----------------------------------------------------------------------------

    def write(
        self,
        action: Callable[[Store], T],
        *,
        admin: bool = False,
        outside: bool = False,
        create: bool = False,
    ) -> T | Refused:
        """``action(store)`` under the lock, if this device may write; a refusal is returned in
        the player's language.  ``admin``: an action on the host's database (delete, import, the
        roster), which only the host's own computer may make; ``create``: a new game
        (``Access.require_create``).  ``outside``: an
        action outside any session (a club night's), which a device bound to a shared game may
        not make.  A session returned becomes the page's basis."""
        try:
            if create:  # a new game: the host's on the LAN, any phone's on the hosted server
                self.access.require_create()
            else:
                if admin:
                    self.access.require_host()
                self.access.require_write(None if outside else self.sid)
            with self.lock:
                done = action(self.store)
        except ScorepadError as exc:
            return refusal(exc, self.lang)
        if isinstance(done, Stored):  # a session (not a new game's id, nor nothing)
            self.basis = done.revision
        return done

    def direct(self, night: int | None, action: Callable[[Store], T]) -> T | Refused:
        """A club night's action (``night`` None: a new night) under the lock, by its director
        only: the host's page on the LAN, the night's owner on the hosted server
        (``Access.require_director``); a refusal is returned in the player's language."""
        try:
            self.access.require_director(night)
            with self.lock:
                return action(self.store)
        except ScorepadError as exc:
            return refusal(exc, self.lang)

    def league_joined(self) -> bool:
        """Whether the club of this store has joined a league (its league file: docs/league.md)."""
        from ..league.outbox import joined, outbox_path

        return joined(outbox_path(self.store.path))

    def publish_night(self, night: int, change: str | None = None) -> Flushed | Refused:
        """An ended club night sent to the club's league, by its director only (with what
        waited in the club's outbox before it).  The night is read under the lock and sent
        without it: the league may be slow or away (then it waits in the outbox)."""
        from ..club.store import ClubStore
        from ..league.outbox import Outbox, outbox_path, queue_nights

        try:
            self.access.require_director(night)
            with Outbox.open(outbox_path(self.store.path)) as box:
                if box.league is None:
                    box.flush(self.lang)  # refused: the club has not joined a league
                with self.lock:
                    queue_nights(ClubStore(self.store), box, [night], change=change)
                return box.flush(self.lang)
        except ScorepadError as exc:
            return refusal(exc, self.lang)

    def add(
        self, deal: AnyDeal, *, seen: int, via: DealWrites | None = None
    ) -> AnyStored | Refused:
        """A new deal in the open session, on the revision ``seen``."""
        sid = self._sid(None)
        if via is not None:
            return self.write(lambda s: via.add(deal, seen=seen))
        return self.write(lambda s: s.add_deal(sid, deal, seen=seen))

    def edit(
        self,
        deal_id: int,
        deal: AnyDeal,
        *,
        reason: str,
        seen: int,
        via: DealWrites | None = None,
    ) -> AnyStored | Refused:
        """Deal ``deal_id`` written again (the later deals are checked again)."""
        sid = self._sid(None)
        if via is not None:
            return self.write(lambda s: via.edit(deal_id, deal, reason=reason, seen=seen))
        return self.write(lambda s: s.edit_deal(sid, deal_id, deal, reason=reason, seen=seen))

    def void(
        self, deal_id: int, *, reason: str, seen: int, via: DealWrites | None = None
    ) -> AnyStored | Refused:
        sid = self._sid(None)
        return self._change(
            "void",
            lambda s: s.void_deal(sid, deal_id, reason=reason, seen=seen),
            seen,
            via,
            deal_id=deal_id,
            reason=reason,
        )

    def restore(
        self, deal_id: int, *, seen: int, via: DealWrites | None = None
    ) -> AnyStored | Refused:
        sid = self._sid(None)
        return self._change(
            "restore", lambda s: s.restore_deal(sid, deal_id, seen=seen), seen, via, deal_id=deal_id
        )

    def undo(self, *, seen: int, via: DealWrites | None = None) -> AnyStored | Refused:
        sid = self._sid(None)
        return self._change("undo", lambda s: s.undo(sid, seen=seen), seen, via)

    def redo(self, *, seen: int, via: DealWrites | None = None) -> AnyStored | Refused:
        sid = self._sid(None)
        return self._change("redo", lambda s: s.redo(sid, seen=seen), seen, via)

    def _change(
        self,
        kind: str,
        step: Callable[[Store], AnyStored],
        seen: int,
        via: DealWrites | None,
        *,
        deal_id: int | None = None,
        reason: str = "",
    ) -> AnyStored | Refused:
        if via is None:
            return self.write(step)
        return self.write(
            lambda s: via.change(kind, lambda: step(s), seen=seen, deal_id=deal_id, reason=reason)
        )

    def new_game(self, game: NewGame) -> int | Refused:
        """A new game: the host's on the LAN, any phone's on the hosted server, which makes that
        phone its owner (``Access.made``); its id (the page opens it: ``open``)."""

        def action(s: Store) -> int:
            sid = _create(s, game)
            self.access.made(sid)
            return sid

        return self.write(action, create=True)

    def next_pulka(
        self, old: int, first_dealer: int, *, grants: Grants | None = None
    ) -> int | Refused:
        """The next pulka of game ``old``: the same players and settings, a dealer chosen anew;
        a shared table's link moves to it (``grants``), so the phones that joined follow."""

        def action(s: Store) -> int:
            self.access.require_next(old)  # refused in a sentence unless the host allows it
            session = s.load(old).session
            new = _create(
                s,
                NewGame(
                    players=tuple(session.players),
                    convention=session.convention,
                    overrides=dict(session.overrides),
                    pool_target=getattr(session, "pool_target", 20),
                    first_dealer=first_dealer,
                    whist_price=session.whist_price,
                    currency=session.currency,
                ),
            )
            if grants is not None:
                grants.move_table(old, new)
            return new

        return self.write(action)

    def close(self, reason: str) -> Refused | None:
        """The open game closed before its end, with the table's reason."""
        sid = self._sid(None)
        return self.write(lambda s: s.close_session(sid, reason=reason))

    def reopen(self) -> Refused | None:
        sid = self._sid(None)
        return self.write(lambda s: s.reopen_session(sid))

    def delete(self, sid: int, *, seen: int) -> Refused | None:
        """Game ``sid`` off the list (its record kept), unless it changed after ``seen``."""
        return self.write(lambda s: s.delete_session(sid, seen=seen), admin=True)

    def import_game(self, text: str | bytes) -> int | Refused:
        """A game from its file: its new id."""
        return self.write(lambda s: s.import_session(text), admin=True)

    # The directory of players: the host's computer only.

    def rename_player(self, pid: int, name: str) -> Refused | None:
        return self.write(lambda s: s.rename_player(pid, name), admin=True)

    def merge_players(self, pid: int, into: int, *, reason: str) -> Refused | None:
        return self.write(lambda s: s.merge_players(pid, into, reason=reason), admin=True)

    def settle_debt(
        self, debtor: int, creditor: int, amount: int, *, currency: str
    ) -> Refused | None:
        """``debtor`` paid ``creditor`` ``amount`` minor units off the table: the debts
        between them go down (``scorepad debts`` counts it)."""
        return self.write(
            lambda s: s.settle_debt(debtor, creditor, amount, currency=currency), admin=True
        )

    def open(self, sid: int | None) -> None:
        """The page shows game ``sid`` now (None: no game)."""
        self.sid = sid

    def _sid(self, sid: int | None) -> int:
        found = self.sid if sid is None else sid
        assert found is not None, "a session's read or write with no session open"
        return found


def _create(store: Store, game: NewGame) -> int:
    return store.create_session(
        list(game.players),
        convention=game.convention,
        overrides=dict(game.overrides),
        pool_target=game.pool_target,
        first_dealer=game.first_dealer,
        whist_price=game.whist_price,
        currency=game.currency,
    )


__all__ = ["DealWrites", "NewGame", "Refused", "TableSession", "refusal"]
