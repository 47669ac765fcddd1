"""What the next deal may be, and why not: the one place the rules of an entry are written.

For a table state (:class:`~scorepad.scoring.pulya.table.Table`: the convention, the seating, the
dealer, the pools and the all-pass series) this module answers, in the manner of
python-chess's ``legal_moves``/``is_legal`` and PokerKit's ``verify_x``/``can_x``:

- the kinds of deal (:func:`kinds`), the declarers (:func:`declarers`) and the contracts from the
  exit level of a running all-pass series (:func:`levels`, §9.2);
- the whist calls, speaker by speaker (:func:`call_options`), and the outcome of a whole
  sequence (:func:`whisting`, §4.3-4.5, §11): Stalingrad, the checked ten, the half-whist and
  the 4-player dealer;
- whose tricks a deal writes and each seat's cap (:func:`trick_seats`, :func:`trick_cap`: the
  talon takes at most two tricks);
- :func:`verify_deal`, which checks a whole entry and raises a :class:`DealError` subclass whose
  ``message`` is the sentence the player reads; :func:`is_legal` is its yes or no.

The scorer verifies every entry through :func:`verify_deal`, the app's form offers what these
functions offer, the generator draws from them and the deal-record audit checks through them.

>>> from scorepad.scoring.pulya.convention import settings_for
>>> t = Table(settings_for("piter"), ("Anna", "Boris", "Vera"), target=20, dealer=0,
...           pools=[0, 0, 0], raspasy_in_row=2)
>>> kinds(t), levels(t)
(('game', 'misere', 'raspasy'), (7, 8, 9, 10))
>>> call_options(t, declarer=1, contract=Contract.parse("7S"), said=["pass"])
(0, (<Call.WHIST: 'whist'>, <Call.HALF: 'half'>, <Call.PASS: 'pass'>))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Literal

from ...core.i18n import N_, Msg, ScorepadError, msg
from ..contract import Contract, Trump
from .convention import Settings
from .raspasy import exit_level, participants
from .session import Correction, Game, Misere, PlayedDeal, Raspasy
from .table import Table
from .whist import Call, Kind, Whisting, shortest

DealKind = Literal["game", "misere", "raspasy"]
KINDS: tuple[DealKind, ...] = ("game", "misere", "raspasy")
LEVELS = (6, 7, 8, 9, 10)
STALINGRAD = Contract(6, Trump.SPADES)
TALON_TRICKS = 2  # the 4-player dealer's talon on an open all-pass wins two tricks at most
MISERE_BELOW = 9  # a misère sits between 8NT and 9♠ on the ladder (§1.3)
_W, _P, _H = Call.WHIST, Call.PASS, Call.HALF
Sequences = dict[tuple[Call, ...], Whisting]


# --- refusals ---------------------------------------------------------------------------------


class DealError(ScorepadError):
    """One deal breaks a rule: ``field`` names what is wrong, ``message`` says why."""

    def __init__(self, field: str | None, message: Msg) -> None:
        self.field = field
        super().__init__(message)


class SeatOutOfRange(DealError):
    """A seat number past the last player."""


class SitsOut(DealError):
    """The 4-player dealer sits the deal out and cannot declare."""


class BelowExit(DealError):
    """After all-passes a contract below the exit level (§9.2)."""


class MisereTooLow(BelowExit):
    """After all-passes with an exit of 9 or more a misère is below the exit."""


class WhistError(DealError):
    """The whist calls break the convention (§4.3-4.5)."""

    def __init__(self, message: Msg) -> None:
        super().__init__("calls", message)


class StalingradError(WhistError):
    """A 6♠ that both defenders must whist (Stalingrad)."""


class CheckedTenError(WhistError):
    """A checked ten has no calls."""


class TricksError(DealError):
    """The tricks do not add up, or a seat is missing, extra or over its cap."""

    def __init__(self, message: Msg) -> None:
        super().__init__("tricks", message)


class TalonCapError(TricksError):
    """The dealer's talon took more tricks than it can."""


class OpenError(DealError):
    """Only a lone whister plays open."""


# --- kinds, declarers, contracts --------------------------------------------------------------


def required_exit(t: Table) -> int | None:
    """The lowest contract that ends the running all-pass series (None: no series)."""
    return exit_level(t.settings.raspasy_exit, t.raspasy_in_row)


def verify_kind(t: Table, kind: DealKind) -> None:
    """A misère after all-passes whose exit is 9 or more is too low (see :func:`verify_level`)."""
    if kind == "misere":
        verify_level(t, None)


def kinds(t: Table) -> tuple[DealKind, ...]:
    """The kinds of deal that may come next."""
    return tuple(k for k in KINDS if _passes(partial(verify_kind, t, k)))


def verify_seat(field: str, seat: int, t: Table) -> None:
    if seat >= t.players:
        raise SeatOutOfRange(field, seat_range(seat, t.players))


def seat_range(seat: int, n: int) -> Msg:
    return msg(N_("seat {seat} is out of range: the seats are 0 to {last}"), seat=seat, last=n - 1)


def verify_declarer(t: Table, seat: int) -> None:
    verify_seat("declarer", seat, t)
    if seat == t.sits_out:
        raise SitsOut(
            "declarer",
            msg(
                N_("{player} deals this deal and sits it out: the dealer cannot declare"),
                player=t.name(seat),
            ),
        )


def declarers(t: Table) -> tuple[int, ...]:
    """Who may declare, in speaking order from the dealer's left (the 4-player dealer sits out)."""
    return tuple(s for s in t.active if _passes(partial(verify_declarer, t, s)))


def verify_level(t: Table, level: int | None) -> None:
    """After all-passes only a contract at the exit level or higher may be played (§9.2).

    ``None`` is a misère, which sits between 8NT and 9♠ on the ladder.
    """
    need = required_exit(t)
    if need is None or not is_below_exit(need, level):
        return
    error: type[BelowExit]
    if level is None:
        error, field = MisereTooLow, "type"
        text = N_("after {k} all-passes the lowest contract is {level}: a misère is too low")
    else:
        error, field = BelowExit, "contract"
        text = N_("after {k} all-passes the lowest contract is {level}")
    raise error(field, msg(text, k=t.raspasy_in_row, level=need))


def is_below_exit(need: int, level: int | None) -> bool:
    """Whether a contract of ``level`` (``None``: a misère) is below the exit level ``need``.

    >>> is_below_exit(7, 6), is_below_exit(8, None), is_below_exit(9, None)
    (True, False, True)
    """
    return need >= MISERE_BELOW if level is None else level < need


def levels(t: Table) -> tuple[int, ...]:
    """The contract levels that may be played next."""
    return tuple(lv for lv in LEVELS if _passes(partial(verify_level, t, lv)))


def contracts(t: Table) -> tuple[Contract, ...]:
    """Every contract that may be played next, up the ladder."""
    return tuple(Contract(lv, tr) for lv in levels(t) for tr in Trump)


# --- whist calls ------------------------------------------------------------------------------


def is_checked_ten(settings: Settings, contract: Contract) -> bool:
    """A ten the convention plays checked: nobody whists, both defend openly (§4.5)."""
    return contract.level == 10 and settings.ten == "checked"


def legal_sequences(
    level: int, first: int, second: int, *, dealer: int | None, settings: Settings
) -> Sequences:
    """The convention's call sequences (shortest form) on a contract of ``level``, and outcomes.

    ``dealer`` is the sitting-out dealer's seat with four players, else ``None``.  Stalingrad
    and the checked ten, which depend on the contract, are applied by :func:`sequences`.

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> sorted(legal_sequences(8, 1, 2, dealer=None, settings=settings_for("sochi")))
    [(), (<Call.PASS: 'pass'>, <Call.WHIST: 'whist'>), (<Call.WHIST: 'whist'>,), (<Call.WHIST: 'whist'>, <Call.WHIST: 'whist'>)]
    """
    d1, d2 = first, second
    seqs: Sequences = {(_W, _W): Whisting(Kind.TWO, (d1, d2))}
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


def _sequences(
    settings: Settings,
    contract: Contract,
    seats: tuple[int, int, int | None],
    cache: dict[tuple[int, int, int, int | None], Sequences] | None = None,
) -> Sequences:
    """The legal sequences on ``contract`` for the defenders and the sitting-out dealer ``seats``."""
    if is_checked_ten(settings, contract):
        return {}
    d1, d2, dealer = seats
    key = (contract.level, d1, d2, dealer)
    table = cache.get(key) if cache is not None else None
    if table is None:
        table = legal_sequences(contract.level, d1, d2, dealer=dealer, settings=settings)
        if cache is not None:
            cache[key] = table
    if settings.stalingrad and contract == STALINGRAD:
        return {(_W, _W): table[(_W, _W)]}
    return table


def sequences(t: Table, declarer: int, contract: Contract) -> Sequences:
    """Every legal call sequence (shortest form) on ``contract`` and its outcome.

    Empty for a checked ten, which is played with no calls (see :func:`verify_calls`).
    """
    return _sequences(t.settings, contract, (*t.defenders(declarer), t.sits_out), t.whist_cache)


def whisting(
    calls: Sequence[Call],
    contract: Contract,
    *,
    first: int,
    second: int,
    dealer: int | None,
    settings: Settings,
) -> Whisting:
    """The outcome of ``calls`` by the defenders ``first`` and ``second`` (shortest form).

    Raises :class:`WhistError` saying what is wrong.

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> w = whisting(["pass", "half"], Contract.parse("6D"), first=1, second=2, dealer=None,
    ...              settings=settings_for("sochi"))
    >>> w.kind, w.half_whister, w.played
    (<Kind.HALF: 'half'>, 2, False)
    """
    return _outcome(settings, contract, calls, (first, second, dealer))


def verify_calls(
    t: Table, *, declarer: int, contract: Contract, calls: Sequence[Call] | None
) -> Whisting:
    """The outcome of the defenders' ``calls`` on ``contract`` (shortest form; ``None``: none).

    Raises a :class:`WhistError` subclass whose message names the rule broken.
    """
    seats = (*t.defenders(declarer), t.sits_out)
    return _outcome(t.settings, contract, calls, seats, t.whist_cache)


def _outcome(
    settings: Settings,
    contract: Contract,
    calls: Sequence[Call] | None,
    seats: tuple[int, int, int | None],
    cache: dict[tuple[int, int, int, int | None], Sequences] | None = None,
) -> Whisting:
    level = contract.level
    if is_checked_ten(settings, contract):
        if calls is not None:
            raise CheckedTenError(
                msg(N_("a ten is checked in this convention: nobody whists, so no calls"))
            )
        return Whisting(Kind.CHECKED, seats[:2])
    if calls is None:
        raise WhistError(msg(N_("the defenders' whist calls are required")))
    said = tuple(calls)  # the Call values, or their words: they compare and hash alike
    if settings.stalingrad and contract == STALINGRAD and said != (_W, _W):
        raise StalingradError(msg(N_("Stalingrad: a 6♠ must be whisted by both defenders")))
    if _H in said and level not in settings.half_whist:
        raise WhistError(msg(N_("'half' is not allowed on a {level}-game"), level=level))
    if said[:1] == (_H,):
        raise WhistError(
            msg(N_("'half' is said by the second defender, after a pass, never first"))
        )
    seqs = _sequences(settings, contract, seats, cache)
    found = seqs.get(said)
    if found is None:
        legal = "; ".join(", ".join(s) or "pass, pass" for s in seqs)
        raise WhistError(
            msg(
                N_("{calls} is not a legal call sequence on a {level}-game (legal: {legal})"),
                calls=", ".join(said),
                level=level,
                legal=legal,
            )
        )
    return found


def speaker(prefix: Sequence[str], *, first: int, second: int, dealer: int | None) -> int:
    """Who says the next call after ``prefix`` (§4.3, §11).

    The defenders speak in turn; after a half-whist the other defender may return the whist,
    and then, with four players, the dealer; on 8+ after two passes the dealer (4 players) or,
    by agreement, the first defender (3 players) may still whist.

    >>> [speaker(p, first=1, second=2, dealer=0) for p in ([], ["pass"], ["pass", "half"], ["pass", "half", "pass"])]
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
        return first if p[1] == _H or p == [_W, _P] else last
    if k == 3 and p[:3] == [_W, _P, _H]:
        return second
    return last


def call_options(
    t: Table, *, declarer: int, contract: Contract, said: Sequence[str]
) -> tuple[int | None, tuple[Call, ...]]:
    """Who speaks after ``said`` and the calls he may make; ``(None, ())`` once the calls are done.

    Passes are spoken out loud here (the form asks every defender); a sequence may stop once
    nothing but passes could follow, and :func:`shortest` gives the form that is written.
    """
    seqs = sequences(t, declarer, contract)
    if not seqs:
        return None, ()
    width = max(len(s) for s in seqs)
    p = tuple(Call(c) for c in said)
    extending = [s for s in (q + (_P,) * (width - len(q)) for q in seqs) if s[: len(p)] == p]
    if shortest(p) in seqs and all(set(s[len(p) :]) <= {_P} for s in extending):
        return None, ()
    d1, d2 = t.defenders(declarer)
    options = {s[len(p)] for s in extending if len(s) > len(p)}
    return speaker(p, first=d1, second=d2, dealer=t.sits_out), tuple(
        c for c in (_W, _H, _P) if c in options
    )


def calls_complete(t: Table, *, declarer: int, contract: Contract, said: Sequence[str]) -> bool:
    return call_options(t, declarer=declarer, contract=contract, said=said)[0] is None


# --- tricks -----------------------------------------------------------------------------------


def talon_cap(t: Table) -> int:
    """The tricks the 4-player dealer's talon may win on an all-pass: two when it is opened."""
    if t.sits_out is None:
        return 0
    return TALON_TRICKS if t.sits_out in participants(t) else 0


def trick_seats(t: Table, kind: DealKind, declarer: int | None = None) -> tuple[int, ...]:
    """The seats whose tricks a played deal writes.

    An all-pass writes every seat (the 4-player dealer's talon too, see :func:`trick_cap`); a
    game every seat dealt in (the declarer and his two defenders); a misère at least the
    declarer.
    """
    if kind == "raspasy":
        return tuple(range(t.players))
    if declarer is None:
        return ()
    return (declarer,) if kind == "misere" else t.active


def trick_cap(t: Table, kind: DealKind, seat: int) -> int:
    """The most tricks ``seat`` may take in a deal of ``kind``."""
    if kind == "raspasy" and seat == t.sits_out:
        return talon_cap(t)
    return 10


def _check_sum(tricks: Mapping[int, int]) -> None:
    total = sum(tricks.values())
    if total != 10:
        raise TricksError(msg(N_("tricks sum to {total}, must be 10"), total=total))


def _not_played(seat: int, t: Table) -> TricksError:
    return TricksError(
        msg(N_("seat {seat} ({player}) did not play this deal"), seat=seat, player=t.name(seat))
    )


def _check_seats(tricks: Mapping[int, int], seats: Sequence[int], t: Table) -> None:
    for seat in tricks:
        verify_seat("tricks", seat, t)
    extra = [s for s in tricks if s not in seats]
    if extra:
        raise _not_played(extra[0], t)
    missing = [s for s in seats if s not in tricks]
    if missing:
        raise TricksError(
            msg(
                N_("the tricks of seat {seat} ({player}) are missing"),
                seat=missing[0],
                player=t.name(missing[0]),
            )
        )


def verify_tricks(
    t: Table, *, kind: DealKind, declarer: int | None, tricks: Mapping[int, int]
) -> None:
    """The tricks of a played deal: the right seats, each under its cap, ten in all."""
    if kind == "misere":
        assert declarer is not None
        if declarer not in tricks:
            raise TricksError(msg(N_("the misère player's tricks are required")))
        for seat in tricks:
            verify_seat("tricks", seat, t)
            if seat not in t.active:
                raise _not_played(seat, t)
        total = sum(tricks.values())
        if len(tricks) == len(t.active):
            _check_sum(tricks)
        elif total > 10:
            raise TricksError(msg(N_("tricks sum to {total}, more than 10"), total=total))
        return
    _check_seats(tricks, trick_seats(t, kind, declarer), t)
    _check_sum(tricks)
    if kind != "raspasy" or t.sits_out is None:
        return  # only the 4-player dealer's talon has a cap below ten
    for seat, n in tricks.items():
        top = trick_cap(t, kind, seat)
        if n > top:
            raise TalonCapError(
                msg(
                    N_("the dealer's talon can win at most {top} tricks here, not {given}"),
                    top=top,
                    given=n,
                )
            )


# --- whole deals ------------------------------------------------------------------------------


def verify_deal(deal: PlayedDeal, t: Table) -> Whisting | None:
    """Check a played deal against the table; returns the whisting outcome of a game.

    Raises a :class:`DealError` subclass naming the field and the rule.

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> from scorepad.scoring.pulya.session import Misere
    >>> s = settings_for("sochi", {"raspasy_exit": [6, 7, 9]})
    >>> t = Table(s, ("Anna", "Boris", "Vera"), target=20, dealer=0, pools=[0, 0, 0],
    ...           raspasy_in_row=3)
    >>> verify_deal(Misere(type="misere", declarer=1, tricks={1: 0}), t)
    Traceback (most recent call last):
    ...
    scorepad.scoring.pulya.legal.MisereTooLow: after 3 all-passes the lowest contract is 9: a misère is too low
    """
    if isinstance(deal, Game):
        return verify_game(deal, t)
    if isinstance(deal, Misere):
        verify_misere(deal, t)
        return None
    verify_raspasy(deal, t)
    return None


def is_legal(deal: PlayedDeal, t: Table) -> bool:
    """Whether the table accepts ``deal`` next (:func:`verify_deal` says why not)."""
    return _passes(partial(verify_deal, deal, t))


def has_talon_premium(t: Table) -> bool:
    """Whether a game may carry a talon premium: by ``talon_bonus`` with four players (the
    sitting-out dealer's), by ``talon_bonus_three`` with three."""
    s = t.settings
    return s.talon_bonus if t.sits_out is not None else s.talon_bonus_three


def verify_game(g: Game, t: Table) -> Whisting | None:
    """A game in context: declarer, exit level, talon premium, giving up, calls, tricks.

    Returns the whisting outcome (``None`` for a game given up before the whist).

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> t = Table(settings_for("sochi"), ("Anna", "Boris", "Vera"), target=20, dealer=0,
    ...           pools=[0, 0, 0], raspasy_in_row=0)
    >>> g = Game.model_validate({"type": "game", "declarer": 1, "contract": "7S",
    ...                          "calls": ["whist"], "tricks": {"1": 7, "2": 3, "0": 0}})
    >>> verify_game(g, t)
    Whisting(kind=<Kind.ONE: 'one'>, whisters=(2,), passers=(0,), half_whister=None)
    >>> verify_game(g.model_copy(update={"declarer": 0, "tricks": {0: 7, 1: 3, 2: 1}}), t)
    Traceback (most recent call last):
    ...
    scorepad.scoring.pulya.legal.TricksError: tricks sum to 11, must be 10
    """
    s = t.settings
    verify_declarer(t, g.declarer)
    verify_level(t, g.contract.level)
    if g.talon_bonus is not None and not has_talon_premium(t):
        raise DealError(
            "talon_bonus",
            msg(
                N_(
                    "a talon premium needs a convention with talon_bonus (4 players) or talon_bonus_three (3 players)"
                )
            ),
        )
    if g.conceded is not None:
        _verify_conceded(g, s)
        return None
    outcome = verify_calls(t, declarer=g.declarer, contract=g.contract, calls=g.calls)
    if g.open and not outcome.lone_whister:
        raise OpenError("open", msg(N_("only a lone whister plays open")))
    if not outcome.played:
        if g.tricks is not None:
            raise TricksError(msg(N_("the deal was not played (no whist), so it has no tricks")))
        return outcome
    if g.tricks is None:
        raise TricksError(msg(N_("the tricks of a played deal are required")))
    verify_tricks(t, kind="game", declarer=g.declarer, tricks=g.tricks)
    return outcome


def _verify_conceded(g: Game, s: Settings) -> None:
    if s.concede == "none":
        raise DealError(
            "conceded", msg(N_("this convention does not allow giving up before the whist"))
        )
    if g.conceded != s.concede:
        raise DealError(
            "conceded",
            msg(
                N_("giving up costs {n} undertricks in this convention, not {given}"),
                n=s.concede,
                given=g.conceded,
            ),
        )
    for name in ("calls", "tricks"):
        if getattr(g, name) is not None:
            raise DealError(
                name, msg(N_("a game given up before the whist has no calls and no tricks"))
            )


def verify_misere(m: Misere, t: Table) -> None:
    """A misère in context: declarer, exit level, a shared misère, the tricks."""
    verify_declarer(t, m.declarer)
    verify_kind(t, "misere")
    if m.shared_with_dealer and t.sits_out is None:
        raise DealError("shared_with_dealer", msg(N_("only a 4-player dealer can share a misère")))
    verify_tricks(t, kind="misere", declarer=m.declarer, tricks=m.tricks)


def verify_raspasy(r: Raspasy, t: Table) -> None:
    """An all-pass: every seat's tricks, ten in all, the dealer's talon under its cap."""
    verify_tricks(t, kind="raspasy", declarer=None, tricks=r.tricks)


def verify_correction(c: Correction, n: int) -> None:
    """A correction: its seats exist, and nobody writes whists on himself."""
    if c.seat >= n:
        raise SeatOutOfRange("seat", seat_range(c.seat, n))
    for other in c.whists or {}:
        if other >= n:
            raise SeatOutOfRange("whists", seat_range(other, n))
        if other == c.seat:
            raise DealError(
                "whists", msg(N_("whists are written on another player, never on the writer"))
            )


def _passes(check: Callable[[], object]) -> bool:
    """``can_x`` from ``verify_x``: whether the check passes."""
    try:
        check()
    except DealError:
        return False
    return True
