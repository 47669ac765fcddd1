"""The night: its settings (frozen when it is created), the registry and the tours drawn.

A :class:`Night` is a frozen value; every change returns a new one (``check_in``,
``withdraw``, …), refusing bad input with a :class:`~.errors.ClubError` and changing nothing.

Players are numbered in the order they check in (1, 2, …).  A player who arrives after tour
``k`` was drawn plays from tour ``k + 1``; a withdrawal takes effect between tours: the player
keeps the tours he played and is drawn for none after.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from ..core.i18n import N_, msg
from ..core.numbers import Number
from ..scoring.pulya.session import (
    ConventionId,
    FieldRefused,
    PlayerName,
    Rational,
    Uid,
    clean_text,
    look_alike,
    player_name,
)
from .errors import ClubError
from .scoring import Scoring, Whists

FORMAT: Literal["scorepad-club/1"] = "scorepad-club/1"
MAX_PLAYERS = 400
MAX_TOURS = 50
MAX_NIGHT_NAME = 80
#: The largest whole number SQLite stores (a signed 64-bit integer): a file's number beyond it
#: is refused by the reader, naming the field, instead of failing the write half-way.
MAX_INT = 2**63 - 1
#: A number of the night (a player's, a tour's, a table's) as a file may hold it.
Count = Annotated[int, Field(ge=1, le=MAX_INT)]


def _night_name(value: str) -> str:
    text = clean_text(value.strip(), "name", limit=MAX_NIGHT_NAME)
    if not text:
        raise FieldRefused(msg(N_("a night has a name")))
    return text


TourState = Literal["drawn", "playing", "ended"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Player(_Model):
    """A checked-in player: his number, name, first tour and (after a withdrawal) last tour."""

    number: Count
    name: PlayerName
    # The player's stable id in the directory (optional: a file from before issue #36 has none).
    uid: Uid | None = None
    first_tour: Count = 1
    last_tour: Annotated[int, Field(ge=0, le=MAX_INT)] | None = None

    def plays(self, tour: int) -> bool:
        return self.first_tour <= tour and (self.last_tour is None or tour <= self.last_tour)


class Table(_Model):
    """A table of one tour: its players' numbers in seat order (seat 0 deals first), and once
    written, each player's whists there (his pulya balance; the store keeps the deals)."""

    number: Count
    players: tuple[Count, ...] = Field(min_length=3, max_length=4)
    whists: dict[Count, Rational] | None = None


class Tour(_Model):
    number: Count
    tables: tuple[Table, ...]
    byes: tuple[Count, ...] = ()
    state: TourState = "drawn"
    #: How many times this tour was drawn again (each draw has its own seed).
    redraws: Annotated[int, Field(ge=0, le=MAX_INT)] = 0

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise ClubError(msg(N_("tour {tour} has no table {table}"), tour=self.number, table=number))


class Night(_Model):
    """One club night, as its file holds it (``scorepad-club/1``)."""

    format: Literal["scorepad-club/1"] = FORMAT
    # The night's stable id (optional: a file from before issue #36 has none).
    uid: Uid | None = None
    name: Annotated[str, AfterValidator(_night_name)]
    date: dt.date
    convention: ConventionId
    #: The convention's settings, frozen when the night was created (every table plays them).
    settings: dict[str, Any] = Field(default_factory=dict)
    pool_target: Annotated[int, Field(ge=1, le=10_000)] | None = None
    deals_per_tour: Annotated[int, Field(ge=1, le=1_000)] | None = None
    tours: Annotated[int, Field(ge=1, le=MAX_TOURS)]
    scoring: Scoring = Field(default_factory=Whists)
    #: 3 or 4: every table that size (a count that does not divide gets byes); None: tables
    #: of three, and of four where the count needs it.
    seats: Literal[3, 4] | None = None
    #: The draw's seed: the same night draws the same seats.
    seed: Annotated[int, Field(ge=0, le=MAX_INT)] = 0
    players: tuple[Player, ...] = Field(default=(), max_length=MAX_PLAYERS)
    drawn: tuple[Tour, ...] = ()

    @model_validator(mode="after")
    def _one_length(self) -> Night:
        if (self.pool_target is None) == (self.deals_per_tour is None):
            raise FieldRefused(
                msg(N_("a night has a pool target or a fixed number of deals per tour, not both"))
            )
        return self

    # --- reading ---------------------------------------------------------------------------

    def player(self, number: int) -> Player:
        for p in self.players:
            if p.number == number:
                return p
        raise ClubError(msg(N_("no player has the number {number} tonight"), number=number))

    def name_of(self, number: int) -> str:
        return self.player(number).name

    @property
    def current(self) -> Tour | None:
        """The last tour drawn, or None before the first draw."""
        return self.drawn[-1] if self.drawn else None

    @property
    def next_tour(self) -> int:
        """The number of the tour a check-in or a withdrawal affects first."""
        t = self.current
        if t is None:
            return 1
        return t.number + 1 if t.state != "drawn" else t.number

    def present(self, tour: int) -> list[Player]:
        """The players drawn for ``tour`` (checked in for it and not withdrawn before it)."""
        return [p for p in self.players if p.plays(tour)]

    def tour(self, number: int) -> Tour:
        for t in self.drawn:
            if t.number == number:
                return t
        raise ClubError(msg(N_("tour {tour} is not drawn yet"), tour=number))

    # --- the registry ----------------------------------------------------------------------

    def returning(self, name: str) -> Player | None:
        """The withdrawn player a check-in of ``name`` brings back (the roster's look-alike
        key), or None: checking the same person in again is his return, not a second player."""
        try:
            key = look_alike(player_name(name))
        except ValueError:
            return None
        for p in self.players:
            if p.last_tour is not None and look_alike(p.name) == key:
                return p
        return None

    def verify_check_in(self, name: str) -> str:
        try:
            clean = player_name(name)
        except ValueError as exc:
            raise ClubError(
                getattr(exc, "message", msg(N_("a player name must not be empty")))
            ) from None
        key = look_alike(clean)
        for p in self.players:
            if look_alike(p.name) == key and p.plays(self.next_tour):
                raise ClubError(
                    msg(
                        N_("{name} is already checked in as number {number}"),
                        name=repr(p.name),
                        number=p.number,
                    )
                )
        if len(self.players) >= MAX_PLAYERS:
            raise ClubError(msg(N_("a night has at most {limit} players"), limit=MAX_PLAYERS))
        if self.next_tour > self.tours:
            raise ClubError(msg(N_("every tour of the night is drawn")))
        return clean

    def check_in(self, name: str) -> Night:
        """A player arrives: he gets the next number and plays from the next tour drawn; a
        player who withdrew comes back with his number and his record (:meth:`come_back`)."""
        back = self.returning(name)
        if back is not None and not any(
            look_alike(p.name) == look_alike(back.name) and p.last_tour is None
            for p in self.players
        ):
            return self.come_back(back.number)
        clean = self.verify_check_in(name)
        number = max((p.number for p in self.players), default=0) + 1
        p = Player(number=number, name=clean, first_tour=self.next_tour)
        return self.model_copy(update={"players": (*self.players, p)})

    def withdraw(self, number: int) -> Night:
        """A player leaves between tours: he keeps the tours played and is drawn for no more."""
        p = self.player(number)
        last = self.next_tour - 1
        if p.last_tour is not None:
            raise ClubError(msg(N_("number {number} has withdrawn already"), number=number))
        players = tuple(
            q.model_copy(update={"last_tour": last}) if q.number == number else q
            for q in self.players
        )
        return self.model_copy(update={"players": players})

    def come_back(self, number: int) -> Night:
        """A withdrawal taken back: the player plays again from the next tour drawn, with his
        number and the tours he played (a tour drawn while he was away has no line of his:
        neither a table nor a bye)."""
        p = self.player(number)
        if p.last_tour is None:
            raise ClubError(msg(N_("number {number} has not withdrawn"), number=number))
        if self.next_tour > self.tours:
            raise ClubError(msg(N_("every tour of the night is drawn")))
        players = tuple(
            q.model_copy(update={"last_tour": None}) if q.number == number else q
            for q in self.players
        )
        return self.model_copy(update={"players": players})

    # --- tours -----------------------------------------------------------------------------

    def _replace_tour(self, tour: Tour) -> Night:
        drawn = tuple(tour if t.number == tour.number else t for t in self.drawn)
        return self.model_copy(update={"drawn": drawn})

    def with_whists(self, tour: int, table: int, whists: dict[int, Number]) -> Night:
        """A table's whists as its pulya stands (the store computes them from the deals)."""
        t = self.tour(tour)
        tab = t.table(table)
        if set(whists) != set(tab.players):
            raise ClubError(
                msg(
                    N_("tour {tour}, table {table}: the whists name other players than the table"),
                    tour=tour,
                    table=table,
                )
            )
        tables = tuple(
            x.model_copy(update={"whists": dict(whists)}) if x.number == table else x
            for x in t.tables
        )
        return self._replace_tour(t.model_copy(update={"tables": tables}))

    def started(self, tour: int) -> Night:
        """The tour's first deal is written: from now on it cannot be drawn again."""
        t = self.tour(tour)
        if t.state != "drawn":
            return self
        return self._replace_tour(t.model_copy(update={"state": "playing"}))

    def verify_end(self, tour: int) -> None:
        t = self.tour(tour)
        if t.state == "ended":
            raise ClubError(msg(N_("tour {tour} has ended already"), tour=tour))
        for tab in t.tables:
            if tab.whists is None:
                raise ClubError(
                    msg(
                        N_("tour {tour} cannot end: table {table} has no result"),
                        tour=tour,
                        table=tab.number,
                    )
                )

    def end(self, tour: int) -> Night:
        """The tour ends: its tables' results count in the standings and change only by the
        director, with a reason."""
        self.verify_end(tour)
        return self._replace_tour(self.tour(tour).model_copy(update={"state": "ended"}))
