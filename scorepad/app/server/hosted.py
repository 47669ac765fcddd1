"""The hosted server (``scorepad serve``): phones alone own their tables (issue #36).

No page is the host here: being on loopback, or behind the proxy, gives nothing.  A phone that
starts a game becomes its **owner** (owners.py: a secret the server issued, kept in the
browser, stored hashed); the owner shares the table's link and its own PIN, exports or deletes
that table, and hands it to another phone.  Other phones join with the link and write once they
typed the table's PIN, as on the LAN.  A page sees only the tables its browser owns or joined
(the secrets and links the browser holds, each checked against the database); nothing lists
the server's tables, nights or players.  The operator administers with the CLI on the server
(``scorepad sessions|export|delete … --db URL``).

Started by :func:`run_hosted` (one process; the lead wires several workers in at merge).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...store import Store
from ..club.tables import table_pins
from .access import Access, Gate, NotAllowed, ServeRefused, valid_token
from .admin import ADMIN_KEY, Admin
from .devices import device_key
from .grants import Grants, grant_key
from .owners import CREATIONS_PER_HOUR, Owners
from .throttle import WALL_CLOCK, SharedThrottle

#: Where the browser keeps the tables it owns and joined (Flet's client storage).
TABLES_KEY = "scorepad-tables"
#: At most this many of each kind are kept by one browser (the oldest go first).
KEPT = 50
#: A hand-over code's address: ``/take/SID/CODE`` (a table), ``/take/night/NID/CODE`` (a night).
TAKE = re.compile(r"/take/(night/)?(\d{1,9})/([A-Za-z0-9_-]{16,64})/?")
#: The operator's admin page (only when a secret is configured).
ADMIN = re.compile(r"/admin/?")


@dataclass
class Hosted:
    """What every page of one hosted server shares: the owners and the creation limit."""

    owners: Owners
    grants: Grants
    per_hour: int = CREATIONS_PER_HOUR
    #: The operator's admin page (admin.py); None: no secret configured, no page.
    admin: Admin | None = None


class HostedGate(Gate):
    """The PIN gate of the hosted server: every table has its own PIN (owners.pin), and each
    grant is noted with its table, so that an owner forgets only its own table's phones."""

    hosted: Hosted | None = None

    def enter(
        self, device: str, entered: object, address: str = "", scope: int | None = None
    ) -> Msg | None:
        assert self.hosted is not None
        pin = self.table_pins(scope) if scope is not None else None
        if pin is None:  # a table nobody owns (deleted, or the operator's): no PIN opens it
            return msg(N_("This link opens nothing: ask the host for the table's link."))
        refused = super().enter(device, entered, address, scope=scope)
        if refused is None and scope is not None:
            self.hosted.owners.note_grant(grant_key(device, pin, scope), scope)
        return refused

    def forget_table(self, sid: int) -> int:
        """Every phone of table ``sid`` types its PIN again (its owner's choice)."""
        assert self.hosted is not None
        keys = self.hosted.owners.forget_phones(sid)
        with self._lock:
            self._unlocked -= keys
        return len(keys)


def not_owner() -> Msg:
    return msg(N_("Only the phone that owns this table may do that."))


def not_director() -> Msg:
    return msg(N_("Only the phone that created this club night may direct it."))


@dataclass
class HostedAccess(Access):
    """What one page of the hosted server may do: never the host's rights; its own tables."""

    hosted: Hosted | None = None
    #: The owner secrets this browser holds (checked against the database at every use).
    owned: dict[int, str] = field(default_factory=dict)
    #: The join links this browser opened (their tokens), for its front page.
    joined: dict[int, str] = field(default_factory=dict)
    #: The page's open table (the shell's ``sid``).
    current: Callable[[], int | None] = lambda: None
    #: Keep ``owned`` and ``joined`` in the browser (set by the page).
    save: Callable[[], None] = lambda: None
    #: The club nights this browser directs: their owner secrets (checked at every use).
    nights: dict[int, str] = field(default_factory=dict)
    #: The admin token this page holds (admin.py; its own namespace: no table right).
    admin_token: str = ""

    def _hosted(self) -> Hosted:
        assert self.hosted is not None
        return self.hosted

    @property
    def host(self) -> bool:
        return False  # nobody administers the hosted server from a page

    @property
    def admin(self) -> bool:
        """Whether this page holds an admin grant of the server's secret (checked in the
        database at every use; False when no secret is configured)."""
        admin = self._hosted().admin
        return admin is not None and admin.opens(self.admin_token)

    def require_admin(self) -> None:
        if not self.admin:
            raise NotAllowed(msg(N_("Only the server's operator may do that.")))

    def owns(self, sid: int | None) -> bool:
        """Whether this page's browser holds ``sid``'s owner secret (checked in the database:
        a secret handed over or a table deleted opens nothing from then on)."""
        if sid is None:
            return False
        secret = self.owned.get(sid)
        if secret is None:
            return False
        return self._answer(f"owns {sid}", lambda: self._hosted().owners.owns(sid, secret))

    @property
    def may_write(self) -> bool:
        sid = self.scope if self.scope is not None else self.current()
        if sid is None:
            return False
        if self.scope is None:
            return self.owns(sid) or self.corrects(sid)
        if self.owns(sid):
            return True
        pin = self.gate.table_pins(sid)
        if pin is None:
            return False
        key = grant_key(self.device, pin, sid)
        return self._answer("write", lambda: self._hosted().owners.granted(key))

    def require_write(self, sid: int | None) -> None:
        if sid is not None and self.owns(sid) and self.scope in (None, sid):
            return
        if sid is not None and self.scope is None and self.corrects(sid):
            return  # the night's director, at one of its tables (opened from his screen)
        if sid is None or self.scope != sid:
            raise NotAllowed(msg(N_("This device may only write to the shared game.")))
        super().require_write(sid)

    def require_owner(self, sid: int | None) -> None:
        """Export, delete, share, hand over: the table's owner alone."""
        if sid is None or not self.owns(sid):
            raise NotAllowed(not_owner())

    def require_next(self, sid: int) -> None:
        self.require_owner(sid)

    def require_host(self) -> None:
        raise NotAllowed(not_owner())

    @property
    def may_create(self) -> bool:
        return True

    def require_create(self) -> None:
        hosted = self._hosted()
        if not hosted.owners.take_creation(self.address, limit=hosted.per_hour):
            raise NotAllowed(
                msg(
                    N_(
                        "{n} games were started from this network within the hour: wait a while, then start the next."
                    ),
                    n=hosted.per_hour,
                )
            )

    # --- a club night: its owner directs it, from anywhere ------------------------------------

    def directs(self, nid: int) -> bool:
        """Whether this page's browser holds night ``nid``'s owner secret (in the database)."""
        secret = self.nights.get(nid)
        if secret is None:
            return False
        return self._answer(f"directs {nid}", lambda: self._hosted().owners.directs(nid, secret))

    def require_director(self, nid: int | None) -> None:
        """A new night (None): any page, under the creation limit; an action on night ``nid``:
        its owner alone."""
        if nid is None:
            self.require_create()
            return
        if not self.directs(nid):
            raise NotAllowed(not_director())

    def made_night(self, nid: int) -> None:
        self.nights[nid] = self._hosted().owners.issue_night(nid)
        self.save()

    def corrects(self, sid: int) -> bool:
        """Whether ``sid`` is a table of a night this browser directs, opened from the
        director's screen (not by the table's link: a phone there writes as its player)."""
        if self.scope is not None:
            return False

        def ask() -> bool:
            night = self._hosted().owners.night_of(sid)
            return night is not None and self.directs(night)

        return self._answer(f"corrects {sid}", ask)

    def took_night(self, nid: int, secret: str) -> None:
        """This browser directs night ``nid`` now (a hand-over code it opened)."""
        self.nights[nid] = secret
        self.save()

    def made(self, sid: int) -> None:
        secret, _ = self._hosted().owners.issue(sid)
        self.owned[sid] = secret
        self.scope = None
        self.save()

    def took(self, sid: int, secret: str) -> None:
        """This browser now owns ``sid`` (a hand-over code it opened)."""
        self.owned[sid] = secret
        self.joined.pop(sid, None)
        self.save()

    def stored(self) -> str:
        """What the browser keeps (``TABLES_KEY``): the secrets and links, newest last."""
        return json.dumps(
            {
                "own": {str(k): v for k, v in list(self.owned.items())[-KEPT:]},
                "join": {str(k): v for k, v in list(self.joined.items())[-KEPT:]},
                "nights": {str(k): v for k, v in list(self.nights.items())[-KEPT:]},
            }
        )

    def held(self, value: object) -> None:
        """What a browser said it keeps: only what opens a table now is taken (a value the
        browser sets is never believed: each secret and link is checked in the database)."""
        owned, joined, nights = _parse_held(value, ("own", "join", "nights"))
        hosted = self._hosted()
        self.nights = {nid: s for nid, s in nights.items() if hosted.owners.directs(nid, s)}
        self.owned = {sid: s for sid, s in owned.items() if hosted.owners.owns(sid, s)}
        self.joined = {
            sid: t
            for sid, t in joined.items()
            if sid not in self.owned
            and self.gate.table_pins(sid) is not None
            and hosted.grants.opens(sid, t)
        }


def _parse_held(
    value: object, names: tuple[str, ...] = ("own", "join")
) -> tuple[dict[int, str], ...]:
    """The parts ``names`` of what a browser keeps (``HostedAccess.stored``), each a map of a
    number to a token; anything else, nothing."""
    nothing: tuple[dict[int, str], ...] = tuple({} for _ in names)
    if not isinstance(value, str) or len(value) > 30_000:
        return nothing
    try:
        data = json.loads(value)
    except ValueError:
        return nothing
    if not isinstance(data, dict):
        return nothing

    def part(name: str) -> dict[int, str]:
        got = data.get(name)
        if not isinstance(got, dict):
            return {}
        return {
            int(k): v
            for k, v in list(got.items())[-KEPT:]
            if isinstance(k, str) and k.isascii() and k.isdigit() and len(k) <= 9 and valid_token(v)
        }

    return tuple(part(name) for name in names)


async def held_tables(page: ft.Page) -> object:
    try:
        return await asyncio.wait_for(ft.SharedPreferences().get(TABLES_KEY), timeout=10)
    except (TimeoutError, RuntimeError):
        return None


async def held_admin() -> object:
    try:
        return await asyncio.wait_for(ft.SharedPreferences().get(ADMIN_KEY), timeout=10)
    except (TimeoutError, RuntimeError):
        return None


async def keep_admin(token: str) -> None:
    try:
        if token:
            await asyncio.wait_for(ft.SharedPreferences().set(ADMIN_KEY, token), timeout=10)
        else:
            await asyncio.wait_for(ft.SharedPreferences().remove(ADMIN_KEY), timeout=10)
    except (TimeoutError, RuntimeError):
        return  # no storage: the operator types the secret again on the next page


async def keep_tables(text: str) -> None:
    try:
        await asyncio.wait_for(ft.SharedPreferences().set(TABLES_KEY, text), timeout=10)
    except (TimeoutError, RuntimeError):
        return  # no storage: this page alone knows its tables


def hosted_pins(owners: Owners, store: Store, lock: threading.RLock) -> Callable[[int], str | None]:
    """Each table's own PIN: a phone-owned game's (owners.pin), else a club night's table's
    (club/tables.py: its phones join and write as on the LAN); None opens nothing."""
    club = table_pins(store, lock)

    def pin(sid: int) -> str | None:
        own = owners.pin(sid)
        return own if own is not None else club(sid)

    return pin


def hosted_parts(
    store: Store,
    lock: threading.RLock,
    *,
    per_hour: int = CREATIONS_PER_HOUR,
    admin_secret: str | None = None,
    clock: Callable[[], float] = WALL_CLOCK,
) -> tuple[Hosted, HostedGate]:
    """One hosted server's memory of owners, grants and the operator, and the gate of its
    pages (run_hosted's, and the tests')."""
    grants = Grants(store, lock)
    owners = Owners(store, lock)
    hosted = Hosted(owners, grants, per_hour=per_hour)
    # The wrong PINs and secrets are counted in the database, on the wall clock: every worker
    # (and every machine) of the server shares one count (throttle.py).
    throttle = SharedThrottle(store, lock)
    if admin_secret is not None:
        hosted.admin = Admin(admin_secret, grants, lock, clock=clock, throttle=throttle)
    gate = HostedGate(
        None,
        grants=grants,
        table_pins=hosted_pins(owners, store, lock),
        clock=clock,
        throttle=throttle,
        # A phone's token is known on every worker and after a restart: its grants stay.
        device_key=device_key(store, lock),
    )
    gate.hosted = hosted
    return hosted, gate


# --- the operator's options ----------------------------------------------------------------------


@dataclass(frozen=True)
class HostedOptions:
    """``scorepad serve``'s options, checked (cli/serve.py)."""

    db: Path | str
    lang: str
    host: str = "0.0.0.0"
    port: int = 8550
    workers: int = 1
    admin_secret: str | None = None
    trusted_proxy: tuple[str, ...] = ()
    public_url: tuple[str, ...] = ()
    per_hour: int = CREATIONS_PER_HOUR
    extra: dict[str, Any] = field(default_factory=dict)


ADMIN_SECRET_MIN = 16


def admin_secret(path: Path | None) -> str | None:
    """The admin page's secret: the file's first line, else ``SCOREPAD_ADMIN_SECRET``; None
    when neither is given (no admin page).  A short secret is refused in a sentence."""
    if path is not None:
        try:
            text = (
                path.read_text(encoding="utf-8").splitlines()[0].strip() if path.is_file() else ""
            )
        except (OSError, UnicodeDecodeError, IndexError):
            text = ""
        if not path.is_file():
            raise ServeRefused(msg(N_("cannot read {path}: no such file"), path=str(path)))
    else:
        env = os.environ.get("SCOREPAD_ADMIN_SECRET")
        if env is None:
            return None
        text = env.strip()
    if len(text) < ADMIN_SECRET_MIN:
        raise ServeRefused(
            msg(
                N_("the admin secret needs at least {n} characters: a shorter one can be guessed"),
                n=ADMIN_SECRET_MIN,
            )
        )
    return text


# --- the pages -----------------------------------------------------------------------------------


__all__ = [
    "Hosted",
    "HostedAccess",
    "HostedGate",
    "HostedOptions",
    "admin_secret",
    "hosted_parts",
    "hosted_pins",
]
