"""Who may write at a shared table: the table PIN, checked on the server, remembered per device.

A device is a browser profile: it keeps a random token in its local storage, and the server
remembers which tokens gave the right PIN, for as long as it runs.  Wrong PINs are throttled per
device (a few tries, then a wait that doubles with every further miss) and overall (a cap on
wrong PINs a minute from everyone together), so guessing six digits takes longer than an evening.
The check is made in the write path itself (:func:`require_write`), not only by hiding buttons.
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ...i18n import N_, Msg, msg
from ...store import StoreError

PIN_DIGITS = 6
PIN_MIN, PIN_MAX = 4, 12  # a PIN given with --pin
TRIES = 5  # wrong PINs a device may enter before it waits
WAIT = 30.0  # seconds, doubled with every further wrong PIN
WAIT_MAX = 3600.0
GLOBAL_CAP = 30  # wrong PINs a minute from all devices together


class ServeRefused(StoreError):
    """The server cannot start as asked (busy port, a network address without a PIN...)."""


class NotAllowed(StoreError):
    """A write from a device that may not write; nothing was written."""


def generate_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def check_pin_option(pin: str) -> str:
    if not (pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX):
        raise ServeRefused(
            msg(N_("the table PIN must be {low} to {high} digits"), low=PIN_MIN, high=PIN_MAX)
        )
    return pin


def new_device_token() -> str:
    return secrets.token_urlsafe(18)


def valid_token(token: object) -> bool:
    return isinstance(token, str) and 16 <= len(token) <= 64 and token.isascii()


@dataclass
class _Misses:
    count: int = 0
    until: float = 0.0


@dataclass
class Gate:
    """The table PIN and what every device did with it (one per server)."""

    pin: str | None  # None: no PIN, every device writes (the host's own 127.0.0.1)
    explicit: bool = False  # given with --pin: asked on this computer too
    wait: float = WAIT
    tries: int = TRIES
    global_cap: int = GLOBAL_CAP
    clock: Callable[[], float] = time.monotonic
    _unlocked: set[str] = field(default_factory=set)
    _misses: dict[str, _Misses] = field(default_factory=dict)
    _recent: deque[float] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def required(self) -> bool:
        return self.pin is not None

    def may_write(self, device: str, *, loopback: bool = False) -> bool:
        """Whether ``device`` may write; with a generated PIN the host's own computer may."""
        if self.pin is None or (loopback and not self.explicit):
            return True
        return device in self._unlocked

    def forget(self, device: str) -> None:
        with self._lock:
            self._unlocked.discard(device)

    def enter(self, device: str, entered: str) -> Msg | None:
        """Check a PIN typed on ``device``: None when it opens writing, else why not."""
        if self.pin is None:
            return None
        text = (entered or "").strip()
        if not text:
            return msg(N_("Enter the table PIN: the host's screen shows it."))
        with self._lock:
            now = self.clock()
            while self._recent and self._recent[0] <= now - 60:
                self._recent.popleft()
            misses = self._misses.setdefault(device, _Misses())
            if misses.until > now:
                return self._waiting(misses.until - now)
            if len(self._recent) >= self.global_cap:
                return msg(
                    N_(
                        "Too many wrong PINs at this table: every device waits a minute; try again then."
                    )
                )
            if len(text) <= PIN_MAX and hmac.compare_digest(text.encode(), self.pin.encode()):
                self._unlocked.add(device)
                self._misses.pop(device, None)
                return None
            misses.count += 1
            self._recent.append(now)
            if misses.count >= self.tries:
                extra = misses.count - self.tries
                misses.until = now + min(WAIT_MAX, self.wait * 2**extra)
                return self._waiting(misses.until - now)
            if len(text) != len(self.pin) or not text.isdigit():
                return msg(
                    N_("That is not the table PIN: it is {n} digits. Tries left: {left}."),
                    n=len(self.pin),
                    left=self.tries - misses.count,
                )
            return msg(
                N_("Wrong PIN. Tries left on this device: {left}."),
                left=self.tries - misses.count,
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
    loopback: bool = False  # the page comes from this computer
    scope: int | None = None  # opened by a join link: this session and nothing else

    @property
    def may_write(self) -> bool:
        return self.gate.may_write(self.device, loopback=self.loopback)

    @property
    def host(self) -> bool:
        """The whole app: every session, the roster, import, export, delete."""
        return self.scope is None and self.may_write

    def require_write(self, sid: int | None) -> None:
        """The server-side check every write makes: a viewer's write is refused here."""
        if not self.may_write:
            raise NotAllowed(
                msg(N_("This device may only look at the sheet: enter the table PIN to write."))
            )
        if self.scope is not None and sid != self.scope:
            raise NotAllowed(msg(N_("This device may only write to the shared session.")))


def open_access() -> Access:
    """A page of a server with no PIN (the default: 127.0.0.1 only)."""
    return Access(Gate(None), "local", loopback=True)
