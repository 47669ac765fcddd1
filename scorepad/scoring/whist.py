"""Whisting (вистование): which call sequences are legal, and the roles they give (§3, §4.3-4.5).

The defenders speak in order: the first defender (declarer's left), the second, and with four
players the sitting-out dealer last where the convention lets him.  Passes at the end of a
sequence are left out (the session format's shortest form), so ``["whist"]`` is whist–pass.

>>> from scorepad.scoring.convention import settings_for
>>> w = whisting(["pass", "half"], Contract.parse("6D"), 1, 2, None, settings_for("sochi"))
>>> w.kind, w.half_whister, w.played
(<Kind.HALF: 'half'>, 2, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ..contract import Contract, Trump
from ..i18n import N_, Msg, msg
from .convention import Settings


class Kind(Enum):
    ALL_PASSED = "all_passed"  # nobody whisted: not played, counted made
    HALF = "half"  # a half-whist stood: not played, counted made
    ONE = "one"  # one whister, one passer
    TWO = "two"  # both whisted
    RETURNED = "returned"  # the whist returned over a half-whist, or the dealer whisted alone
    CHECKED = "checked"  # a checked ten: played open, both defend


@dataclass(frozen=True, slots=True)
class Whisting:
    """The outcome of the whist calls: who defends, who answers for the defence's tricks."""

    kind: Kind
    whisters: tuple[int, ...] = ()  # in the order they said "whist"
    passers: tuple[int, ...] = ()  # defenders (and a whisting dealer's hands) who passed
    half_whister: int | None = None

    @property
    def played(self) -> bool:
        return self.kind not in (Kind.ALL_PASSED, Kind.HALF)


class WhistError(ValueError):
    def __init__(self, message: Msg) -> None:
        self.message = message
        super().__init__(message.render())


_P, _W, _H = "pass", "whist", "half"
STALINGRAD = Contract(6, Trump.SPADES)


def legal_sequences(
    level: int, first: int, second: int, dealer: int | None, settings: Settings
) -> dict[tuple[str, ...], Whisting]:
    """Every legal call sequence (shortest form) on a contract of ``level``, and its outcome.

    ``dealer`` is the sitting-out dealer's seat with four players, else ``None``.
    """
    d1, d2 = first, second
    seqs: dict[tuple[str, ...], Whisting] = {
        (_W, _W): Whisting(Kind.TWO, (d1, d2)),
    }
    seqs[(_W,)] = Whisting(Kind.ONE, (d1,), (d2,))
    seqs[(_P, _W)] = Whisting(Kind.ONE, (d2,), (d1,))
    seqs[()] = Whisting(Kind.ALL_PASSED, (), (d1, d2))
    if level in settings.half_whist:
        seqs[(_P, _H)] = Whisting(Kind.HALF, (), (d1,), d2)
        seqs[(_P, _H, _W)] = Whisting(Kind.RETURNED, (d1,), (d2,), d2)
        if dealer is not None and settings.dealer_whist:
            seqs[(_P, _H, _P, _W)] = Whisting(Kind.RETURNED, (dealer,), (d1, d2), d2)
        if settings.long_half_whist:
            seqs[(_W, _P, _H)] = Whisting(Kind.HALF, (), (d2,), d1)
            seqs[(_W, _P, _H, _W)] = Whisting(Kind.RETURNED, (d2,), (d1,), d1)
            if dealer is not None and settings.dealer_whist:
                seqs[(_W, _P, _H, _P, _W)] = Whisting(Kind.RETURNED, (dealer,), (d1, d2), d1)
    if level >= 8:
        if dealer is not None and settings.dealer_whist:
            seqs[(_P, _P, _W)] = Whisting(Kind.RETURNED, (dealer,), (d1, d2))
        elif dealer is None and settings.pass_pass_whist:
            seqs[(_P, _P, _W)] = Whisting(Kind.ONE, (d1,), (d2,))
    return seqs


def whisting(
    calls: Sequence[str],
    contract: Contract,
    first: int,
    second: int,
    dealer: int | None,
    settings: Settings,
    cache: dict[tuple[int, int, int, int | None], dict[tuple[str, ...], Whisting]] | None = None,
) -> Whisting:
    """The outcome of ``calls`` (shortest form), or :class:`WhistError` saying what is wrong.

    ``cache`` keeps the legal tables of one convention between calls (a replay passes one).
    """
    level = contract.level
    if settings.stalingrad and contract == STALINGRAD and list(calls) != [_W, _W]:
        raise WhistError(msg(N_("Stalingrad: a 6♠ must be whisted by both defenders")))
    if _H in calls and level not in settings.half_whist:
        raise WhistError(msg(N_("'half' is not allowed on a {level}-game"), level=level))
    if calls and calls[0] == _H:
        raise WhistError(
            msg(N_("'half' is said by the second defender, after a pass, never first"))
        )
    key = (level, first, second, dealer)
    if cache is None:
        seqs = legal_sequences(level, first, second, dealer, settings)
    else:
        seqs = cache.get(key) or cache.setdefault(
            key, legal_sequences(level, first, second, dealer, settings)
        )
    found = seqs.get(tuple(calls))
    if found is None:
        legal = "; ".join(", ".join(s) or "pass, pass" for s in seqs)
        raise WhistError(
            msg(
                N_("{calls} is not a legal call sequence on a {level}-game (legal: {legal})"),
                calls=", ".join(calls),
                level=level,
                legal=legal,
            )
        )
    return found


def speaker(prefix: Sequence[str], first: int, second: int, dealer: int | None) -> int:
    """Who says the next call after ``prefix`` (§4.3, §11).

    The defenders speak in turn; after a half-whist the other defender may return the whist,
    and then, with four players, the dealer; on 8+ after two passes the dealer (4 players) or,
    by agreement, the first defender (3 players) may still whist.

    >>> [speaker(p, 1, 2, 0) for p in ([], ["pass"], ["pass", "half"], ["pass", "half", "pass"])]
    [1, 2, 1, 0]
    """
    p = list(prefix)
    k = len(p)
    last = dealer if dealer is not None else first
    if k == 0:
        return first
    if k == 1:
        return second
    if k == 2:
        return first if p[1] == "half" or p == ["whist", "pass"] else last
    if k == 3 and p[:3] == ["whist", "pass", "half"]:
        return second
    return last


def next_calls(
    prefix: Sequence[str], sequences: Sequence[tuple[str, ...]], speakers: int
) -> tuple[list[str], bool]:
    """The calls the next speaker may make after ``prefix``, and whether ``prefix`` may end here.

    ``sequences`` are the legal shortest forms; ``speakers`` bounds their length with passes.
    """
    padded = {seq + ("pass",) * (speakers - len(seq)) for seq in sequences}
    p = tuple(prefix)
    stripped = list(p)
    while stripped and stripped[-1] == "pass":
        stripped.pop()
    extending = [s for s in padded if s[: len(p)] == p]
    can_end = tuple(stripped) in sequences and all(set(s[len(p) :]) <= {"pass"} for s in extending)
    options = sorted(
        {s[len(p)] for s in extending if len(s) > len(p)}, key=["whist", "half", "pass"].index
    )
    if can_end:
        options = []
    return options, can_end
