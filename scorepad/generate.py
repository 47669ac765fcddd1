"""Random *valid* sessions: for property tests (driven by hypothesis) and benchmarks (seeded).

Every deal is drawn from what the rules allow at that moment (the dealer by rotation, the
exit level of a running all-pass series, the convention's call sequences) and checked by the
engine as it is drawn, so a generated session always validates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from .contract import Contract, Trump
from .convention import settings_for
from .raspasy import exit_level, participants
from .score import Replay
from .session import FORMAT, Deal, Session
from .table import Table
from .whist import WhistError, legal_sequences, whisting

T = TypeVar("T")
_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)
NAMES = ("Anna", "Boris", "Vera", "Gleb")


class Chooser(Protocol):
    def integer(self, lo: int, hi: int) -> int: ...

    def choice(self, options: Sequence[T]) -> T: ...


class RandomChooser:
    """A :class:`Chooser` over :class:`random.Random` (reproducible with a seed)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]


def random_session(
    ch: Chooser,
    *,
    convention: str = "sochi",
    players: int = 3,
    deals: int = 20,
    overrides: dict[str, Any] | None = None,
    corrections: bool = True,
    pool_target: int = 20,
) -> dict[str, Any]:
    """A valid session file (as a dict) of ``deals`` random deals."""
    first = ch.integer(0, players - 1)
    head: dict[str, Any] = {
        "format": FORMAT,
        "players": list(NAMES[:players]),
        "convention": convention,
        "overrides": dict(overrides or {}),
        "pool_target": pool_target,
        "first_dealer": first,
        "whist_price": ch.choice(["1.00", "0.10", "2.50", "100"]),
        "currency": ch.choice(["RUB", "EUR", "JPY"]),
    }
    settings = settings_for(convention, overrides)
    r = Replay(Session.model_validate({**head, "deals": []}), settings)
    out: list[dict[str, Any]] = []
    for index in range(deals):
        d = random_deal(ch, r.table(), corrections=corrections)
        problems = r.add(index, _DEAL.validate_python(d))
        assert not problems, (d, [p.render() for p in problems])
        out.append(d)
    return {**head, "deals": out}


def _split(
    ch: Chooser, total: int, seats: Sequence[int], caps: dict[int, int] | None = None
) -> dict[str, int]:
    caps = caps or {}
    left = total
    out: dict[str, int] = {}
    for i, seat in enumerate(seats):
        rest_cap = sum(caps.get(s, 10) for s in seats[i + 1 :])
        lo = max(0, left - rest_cap)
        hi = min(left, caps.get(seat, 10))
        take = left if i == len(seats) - 1 else ch.integer(lo, hi)
        out[str(seat)] = take
        left -= take
    return out


def random_deal(ch: Chooser, t: Table, *, corrections: bool = True) -> dict[str, Any]:
    kinds = (
        ["game"] * 6 + ["misere", "raspasy", "raspasy"] + (["correction"] if corrections else [])
    )
    kind = ch.choice(kinds)
    need = exit_level(t.settings.raspasy_exit, t.raspasy_in_row)
    if kind == "misere" and need is not None and need > 8:
        kind = "raspasy"
    if kind == "game":
        return _game(ch, t, need)
    if kind == "misere":
        declarer = ch.choice(t.active)
        d: dict[str, Any] = {
            "type": "misere",
            "declarer": declarer,
            "tricks": {str(declarer): ch.choice([0, 0, 0, 1, 2, 4])},
        }
        if t.sits_out is not None and ch.integer(0, 3) == 0:
            d["shared_with_dealer"] = True
        return d
    if kind == "raspasy":
        seats = tuple(range(t.players))
        caps = {}
        if t.sits_out is not None:
            caps[t.sits_out] = 2 if t.sits_out in participants(t) else 0
        return {"type": "raspasy", "tricks": _split(ch, 10, seats, caps)}
    seat = ch.integer(0, t.players - 1)
    c: dict[str, Any] = {"type": "correction", "seat": seat, "note": "agreed at the table"}
    if ch.integer(0, 1):
        c["pool"] = ch.integer(0, 6)
    if ch.integer(0, 1):
        c["gora"] = ch.choice([ch.integer(-4, 12), "7/2", "-1/3"])
    others = [s for s in range(t.players) if s != seat]
    if ch.integer(0, 1):
        c["whists"] = {str(o): ch.choice([ch.integer(0, 40), "10/3"]) for o in others}
    return c


def _game(ch: Chooser, t: Table, need: int | None) -> dict[str, Any]:
    s = t.settings
    declarer = ch.choice(t.active)
    level = ch.choice([lv for lv in (6, 7, 8, 9, 10) if need is None or lv >= need])
    trump = ch.choice(list(Trump))
    contract = Contract(level, trump)
    d: dict[str, Any] = {"type": "game", "declarer": declarer, "contract": contract.code}
    if s.concede != "none" and ch.integer(0, 9) == 0:
        d["conceded"] = s.concede
        return d
    if t.sits_out is not None and s.talon_bonus and ch.integer(0, 2) == 0:
        d["talon_bonus"] = ch.integer(0, 3)
    d1, d2 = t.defenders(declarer)
    if level == 10 and s.ten == "checked":
        played, lone = True, False
    else:
        options = []
        for calls in legal_sequences(level, d1, d2, t.sits_out, s):
            try:
                options.append(
                    (list(calls), whisting(list(calls), contract, d1, d2, t.sits_out, s))
                )
            except WhistError:
                continue  # Stalingrad
        chosen, outcome = ch.choice(options)
        d["calls"] = chosen
        played, lone = outcome.played, len(outcome.whisters) == 1
    if played:
        taken = ch.integer(max(0, level - 4), 10)
        defence = _split(ch, 10 - taken, [d1, d2])
        d["tricks"] = {str(declarer): taken, **defence}
        if lone and ch.integer(0, 3) == 0:
            d["open"] = True
    return d
