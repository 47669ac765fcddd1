"""Who may do what at a shared table: the host, a phone with the PIN, a viewer.

- **The host** is a page whose connection comes from this computer (the socket's peer address,
  see wire.py; never a page property the client can write).  With ``--pin`` the host types the
  PIN too.  Only the host administers: every session, the roster, import, export, delete.
  The host may let the phones of a session start the next pulka at its table (a switch, kept
  in the database by grants.py; :meth:`Access.require_next`).
- **A phone** reaches one session through its join link (a random token, grants.py) and writes
  it once it gave the PIN.  The server remembers a hash of the device's token and of the PIN
  it gave in the database (grants.grant_key), so a restart with the same PIN keeps every phone
  writing and one with another PIN (a generated PIN is new at every start) does not; the host
  can make every phone type it again.  A device token is taken only in the alphabet the server
  issues (:func:`valid_token`).
- Wrong PINs are throttled **per device** (5 tries, then 30 s doubling with every miss, at most
  an hour) and **per source address** (20 misses, then 60 s doubling, at most an hour).  An
  address's waits bind only the devices that first appeared after its misses began: a stranger's
  guessing never refuses the right PIN to a phone that was already at the table and has not
  missed itself.  Such phones get 10 tries at most while their address waits, so a guesser who
  made many devices before guessing gets no more than 10 from them.  One address so gets at
  most about 58 guesses a day (20, then 5 within the first hour of waits, then one an hour, and
  the 10 spared tries).  A PIN given with ``--pin`` has at least 6 digits as soon as the table
  is on the network: 4 digits (10 000 PINs) fall within a day to about 170 addresses guessing
  together; 6 digits (a million) give a whole /24 network of 254 addresses about 1.5 % a day.
- **A table of its own** (a club night's table, scorepad/club): its join link opens one
  session, and its phones write with that table's PIN, not the server's, under the same
  throttle; a device that gave one table's PIN writes at that table only.
The check is made in the write path itself (:meth:`Access.require_write`), not only by hiding
buttons.
"""

from __future__ import annotations

import hmac
import math
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core.i18n import N_, Msg, msg, nmsg
from ...store import StoreError
from .devices import issued, signed_token
from .grants import Grants, grant_key
from .throttle import Throttle

PIN_DIGITS = 6
PIN_MIN, PIN_MAX = 4, 12  # a PIN given with --pin (4 only while the table is on this computer)
PIN_MIN_SHARED = 6  # on the network
TRIES = 5  # wrong PINs a device may enter before it waits
WAIT = 30.0  # seconds, doubled with every further wrong PIN
ADDRESS_TRIES = 20  # wrong PINs from one source address before its new devices wait
ADDRESS_WAIT = 60.0
# Tries an address's waits spare for the devices first seen before its misses began (the phones
# already at the table): without a bound, a guesser who made many devices before guessing would
# get one try from each of them whatever the address's wait.
ADDRESS_SPARED = 10
WAIT_MAX = 3600.0


class ServeRefused(StoreError):
    """The server cannot start as asked (busy port, a network address without a PIN...)."""


class NotAllowed(StoreError):
    """A write from a device that may not write; nothing was written."""


def generate_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def check_pin_option(pin: str, *, shared: bool = False) -> str:
    if not (pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX):
        raise ServeRefused(
            msg(N_("the table PIN must be {low} to {high} digits"), low=PIN_MIN, high=PIN_MAX)
        )
    if shared and len(pin) < PIN_MIN_SHARED:
        raise ServeRefused(short_pin())
    return pin


def short_pin() -> Msg:
    return msg(
        N_(
            "a table PIN on the network needs at least {n} digits: a shorter one can be guessed within a day by many devices at once"
        ),
        n=PIN_MIN_SHARED,
    )


def new_device_token() -> str:
    return secrets.token_urlsafe(18)


_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def valid_token(token: object) -> bool:
    """A device token in the alphabet the server issues them in (``token_urlsafe``): nothing
    else is taken, not even to be replaced by a lookup."""
    return isinstance(token, str) and _TOKEN.fullmatch(token) is not None


@dataclass
class Gate:
    """The table PIN and what every device did with it (one per server)."""

    pin: str | None  # None: no PIN, every device writes (the host's own 127.0.0.1)
    explicit: bool = False  # given with --pin: asked on this computer too
    grants: Grants | None = None  # the database's memory of the devices that gave the PIN
    wait: float = WAIT
    tries: int = TRIES
    address_tries: int = ADDRESS_TRIES
    address_wait: float = ADDRESS_WAIT
    address_spared: int = ADDRESS_SPARED
    clock: Callable[[], float] = time.monotonic
    # A session's own PIN (a club table's), or None: the server's PIN is that session's PIN.
    table_pins: Callable[[int], str | None] = lambda sid: None
    # Several workers share the database (workers.py): a grant is asked of the database, where
    # another worker may have made it or forgotten every grant, never of this one's memory.
    shared: bool = False
    _unlocked: set[str] = field(default_factory=set)  # grant keys (grants.grant_key)
    # The key this server's device tokens are signed with (devices.py), on a database several
    # workers share: a token one issued is known to all.  None: this process's memory only.
    device_key: bytes | None = None
    # The misses of each device and address: this process's memory, or the database's when
    # several workers share it (throttle.SharedThrottle: otherwise N workers, N times the tries).
    throttle: Throttle = field(default_factory=Throttle)
    # When each device was first seen, by this process: a device first seen by another worker
    # is a newcomer here (bound by its address's wait: stricter, never looser).
    _seen: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.grants is not None and not self.shared:
            self._unlocked |= self.grants.granted()

    def _granted(self, key: str) -> bool:
        if self.shared and self.grants is not None:
            return self.grants.has(key)
        return key in self._unlocked

    @property
    def required(self) -> bool:
        return self.pin is not None

    def issue(self) -> str:
        """A new device token: signed when the database is shared (every worker knows it)."""
        if self.device_key is not None:
            return signed_token(self.device_key)
        return new_device_token()

    def known(self, device: str) -> bool:
        """Whether this server issued ``device`` (or it gave the PIN before a restart)."""
        if device in self._seen:
            return True
        if self.device_key is not None and issued(self.device_key, device):
            return True
        return self.pin is not None and self._granted(grant_key(device, self.pin))

    def meet(self, device: str) -> None:
        """A device token this server issued, or one it knows: when it was first seen counts."""
        with self._lock:
            self._seen.setdefault(device, self.clock())

    def may_write(self, device: str, *, loopback: bool = False, scope: int | None = None) -> bool:
        """Whether ``device`` may write; with a generated PIN the host's own computer may.

        A page opened by a table's own link (``scope``) writes once it gave that table's PIN,
        from any address: the PIN is the table's, not the computer's."""
        own = self.table_pins(scope) if scope is not None else None
        if own is not None and scope is not None:
            return self._granted(grant_key(device, own, scope))
        if self.pin is None or (loopback and not self.explicit):
            return True
        return self._granted(grant_key(device, self.pin))

    def forget_all(self) -> int:
        """Every device types the PIN again (the host's choice); how many were forgotten."""
        with self._lock:
            n = len(self._unlocked)
            self._unlocked.clear()
        if self.grants is not None:
            self.grants.revoke_all()
        return n

    def enter(
        self, device: str, entered: object, address: str = "", scope: int | None = None
    ) -> Msg | None:
        """Check a PIN typed on ``device`` from ``address``: None when it opens writing (the
        session ``scope``'s own PIN when it has one, else the server's)."""
        own = self.table_pins(scope) if scope is not None else None
        pin = own if own is not None else self.pin
        if pin is None:
            return None
        unlocks = grant_key(device, pin, scope if own is not None else None)
        if not isinstance(entered, str):  # a client can send any value for the field
            return msg(N_("The table PIN is digits only: type it again."))
        text = entered.strip()
        if not text:
            return msg(N_("Enter the table PIN: the host's screen shows it."))
        now = self.clock()
        with (
            self._lock,
            self.throttle.counting(now, f"pin device\0{device}", f"pin address\0{address}") as (
                misses,
                place,
            ),
        ):
            first_seen = self._seen.setdefault(device, now)
            if misses.until > now:
                return self._waiting(misses.until - now)
            # The address's waits bind the devices that came after its misses began (a guesser
            # making new devices), never a phone that was at the table before and never missed.
            newcomer = misses.count > 0 or first_seen >= place.since
            if place.until > now:
                if newcomer or place.spared >= self.address_spared:
                    return self._network_waiting(place.until - now)
                place.spared += 1
            if len(text) <= PIN_MAX and hmac.compare_digest(text.encode(), pin.encode()):
                self._unlocked.add(unlocks)
                misses.clear()
                if self.grants is not None:
                    self.grants.grant(unlocks)
                return None
            misses.count += 1
            if place.count == 0:
                place.since = now
            place.count += 1
            if place.count >= self.address_tries:
                extra = place.count - self.address_tries
                place.until = now + min(WAIT_MAX, self.address_wait * 2**extra)
            if misses.count >= self.tries:
                extra = misses.count - self.tries
                misses.until = now + min(WAIT_MAX, self.wait * 2**extra)
                return self._waiting(misses.until - now)
            if len(text) != len(pin) or not text.isdigit():
                return nmsg(  # "4 цифры", "6 цифр": the count agrees
                    "That is not the table PIN: it is {n} digit. Tries left: {left}.",
                    "That is not the table PIN: it is {n} digits. Tries left: {left}.",
                    len(pin),
                    left=self.tries - misses.count,
                )
            return msg(
                N_("Wrong PIN. Tries left on this device: {left}."),
                left=self.tries - misses.count,
            )

    @staticmethod
    def _network_waiting(seconds: float) -> Msg:
        """The address's wait: this device may never have typed a wrong PIN at all."""
        return msg(
            N_(
                "Too many wrong PINs from this network, not necessarily from this device: wait {s} s, then try again."
            ),
            s=max(1, math.ceil(seconds)),
        )

    @staticmethod
    def _waiting(seconds: float) -> Msg:
        return msg(
            N_("Too many wrong PINs on this device: wait {s} s, then try again."),
            s=max(1, math.ceil(seconds)),
        )


@dataclass
class Access:
    """What one page (one browser tab) may do."""

    gate: Gate
    device: str
    loopback: bool = False  # the connection's peer is this computer (decided from the socket)
    scope: int | None = None  # opened by a join link: this session and nothing else
    address: str = ""  # the connection's peer address (what the PIN throttle counts)
    link: str = ""  # the join link's token the page came with (scope's)
    # While the page is drawn (Shell.drawing): each answer asked once.  A draw asks "may this
    # page write?" for every part that has a write control, and a club table's PIN behind it is
    # a query; a page is drawn on every write at the table.
    answers: dict[str, bool] | None = field(default=None, repr=False, compare=False)

    def _answer(self, question: str, ask: Callable[[], bool]) -> bool:
        if self.answers is None:
            return ask()
        known = self.answers.get(question)
        if known is None:
            known = self.answers[question] = ask()
        return known

    @property
    def link_open(self) -> bool:
        """Whether the join link this page came with still opens its session: the host's
        "New link" shuts a page that holds the old one, open or reloaded."""
        grants = self.gate.grants
        if self.scope is None or grants is None:
            return True
        scope = self.scope
        return self._answer("link", lambda: grants.opens(scope, self.link))

    @property
    def may_write(self) -> bool:
        return self._answer(
            "write",
            lambda: self.gate.may_write(self.device, loopback=self.loopback, scope=self.scope),
        )

    def enter(self, entered: object) -> Msg | None:
        """The PIN typed on this page: its table's own, or the server's."""
        return self.gate.enter(self.device, entered, self.address, scope=self.scope)

    @property
    def host(self) -> bool:
        """The whole app: every session, the roster, import, export, delete (this computer only)."""
        return self.loopback and self.scope is None and self.may_write

    def require_write(self, sid: int | None) -> None:
        """The server-side check every write makes: a viewer's write is refused here."""
        if not self.may_write:
            raise NotAllowed(
                msg(N_("This device may only look at the sheet: enter the table PIN to write."))
            )
        if self.scope is not None and sid != self.scope:
            raise NotAllowed(msg(N_("This device may only write to the shared game.")))
        if not self.link_open:
            raise NotAllowed(msg(N_("This link opens nothing: ask the host for the table's link.")))

    def require_next(self, sid: int) -> None:
        """Starting the next pulka at the table of session ``sid``: the host may; a phone may
        when it writes that session and the host turned the switch on.  Nothing else of the
        host's (the list, delete, import, export, the roster) opens with it."""
        if self.host:
            return
        self.require_write(sid)
        grants = self.gate.grants
        if self.scope != sid or grants is None or not grants.next_allowed(sid):
            raise NotAllowed(
                msg(
                    N_(
                        "The host has not let phones start the next pulka: ask at the host's computer."
                    )
                )
            )

    def require_host(self) -> None:
        """Administration (delete, import, export, the roster) stays on the host's computer."""
        if not self.host:
            raise NotAllowed(msg(N_("Only the host's computer may do that.")))

    # --- a new game (the hosted server gives one to any phone: hosted.py) ---------------------

    @property
    def may_create(self) -> bool:
        """Whether this page may start a new game: the host's, on the LAN."""
        return self.host

    def require_create(self) -> None:
        """The server-side check of a new game (the same as any administration here)."""
        self.require_host()
        self.require_write(None)

    def made(self, sid: int) -> None:
        """A new game ``sid`` was written by this page (in the same lock): nothing on the LAN;
        on the hosted server this page becomes its owner."""

    # --- a club night (the host's on the LAN; its owner's on the hosted server) --------------

    def directs(self, nid: int) -> bool:
        """Whether this page may see club night ``nid``'s director's screens (the club screens
        are the host's on the LAN: they are reached from its sessions screen)."""
        return True

    def require_director(self, nid: int | None) -> None:
        """The server-side check of every director's action on night ``nid`` (None: a new
        night): on the LAN, as it always was, a page that writes."""
        self.require_write(None)

    def made_night(self, nid: int) -> None:
        """A new night ``nid`` was made by this page: nothing on the LAN; on the hosted server
        this page becomes its director."""

    def corrects(self, sid: int) -> bool:
        """Whether this page writes at club table ``sid`` as its night's director (with no
        player chosen, a change is the director's correction): the host's on the LAN, the
        night's owner's on the hosted server."""
        return self.host


def open_access() -> Access:
    """A page of a server with no PIN (the default: 127.0.0.1 only)."""
    return Access(Gate(None), "local", loopback=True)
