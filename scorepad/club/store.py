"""A club night in the Scorepad database: tables of its own (made and migrated by the store's
schema, :mod:`scorepad.store.schema`, never here), each table a pulya session.

- ``nights``: the night's settings (frozen when it is created);
- ``night_players``: the registry (number, name on the roster, first and last tour);
- ``night_tours``: each tour drawn (state, byes, re-draws);
- ``night_tables``: each table of a tour, the pulya session it plays in the store;
- ``night_deals``: each deal written at a table: who wrote it and whether another player at
  the table confirmed it (``provisional``, ``confirmed``, ``disputed``);
- ``night_changes``: each void, restore, undo or redo made at a table during its tour (the
  action's place in the session's journal, who made it), provisional until another player at
  the table confirms it; a rejected one is taken back at once by the opposite action (the
  journal keeps both) and stays on the record as disputed, for the director;
- ``night_corrections``: the director's corrections after a tour ended (the reason is in the
  session's journal too);
- ``night_pins``: each table's own PIN (its phones write with it, the shared table's rules);
- ``night_announcements``: what the director announced to every table;
- ``night_phones``: who each phone is at a table (its device, hashed), chosen once and freed
  only by the director; a freed choice stays, for the table and the director to see.

The deals themselves are the sessions' journals (:class:`~scorepad.store.Store`), so a night
is backed up with the database and every table settles as any session does.  A deal and its
confirmation row are two transactions; a deal without a row counts as provisional.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter, ValidationError

from ..core.i18n import N_, Msg, msg, nmsg
from ..core.numbers import Number
from ..scoring.pulya.convention import settings_for
from ..scoring.pulya.session import (
    Deal,
    FieldRefused,
    Session,
    clean_text,
    dump_session,
    pydantic_problem,
    reason_text,
)
from ..scoring.pulya.settlement import balances
from ..store import AnyDeal, AnyStored, InvalidEntry, Store, now
from ..store.journal import deal_numbers, number_of
from ..store.schema import new_uid
from . import draw as drawing
from .draw import DrawReport
from .errors import ClubError, refused
from .file import (
    CheckedNight,
    TableChange,
    TableDispute,
    dump_night,
    parse_night,
    session_data,
)
from .night import Night, Player, Table, Tour
from .scoring import Scoring, Whists
from .standings import Standing, standings

if TYPE_CHECKING:
    from .pdf import Protocol

DealState = Literal["provisional", "confirmed", "disputed"]
ChangeKind = Literal["void", "restore", "undo", "redo"]
TableState = Literal["waiting", "playing", "finished", "disputed"]
#: A table's session pool when the night plays a fixed number of deals: never reached.
NO_POOL = 10_000
#: What a standings token looks like (``secrets.token_urlsafe(16)``): anything else is refused
#: before the database is asked.
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
_SCORING: TypeAdapter[Scoring] = TypeAdapter(Scoring)
_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)


def parse_deal(deal: AnyDeal | dict[str, Any]) -> AnyDeal:
    """A deal as the store takes it: a model, or its JSON form (as in a session file) checked
    here, each problem naming its field."""
    if not isinstance(deal, dict):
        return deal
    try:
        model: AnyDeal = _DEAL.validate_python(deal)
    except ValidationError as exc:
        raise InvalidEntry([pydantic_problem(e) for e in exc.errors()]) from None
    return model


@dataclass(frozen=True, slots=True)
class DealMark:
    """A deal written at a table and what the table said of it."""

    deal_id: int
    number: int  # the number said at the table (a voided deal before it keeps its number)
    state: DealState
    written_by: int | None
    decided_by: int | None
    #: Why the player who rejected it says it is wrong, in his words (a disputed deal's; None
    #: for any other, and for a rejection made before the reasons were kept).
    rejection: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeMark:
    """A void, a restore, an undo or a redo made at a table and what the table said of it.

    ``seq`` is the action's place in the session's journal (its revision, as the History and
    ``scorepad club confirm --change`` name it; None: a change read from a club file, made in
    another database's journal); ``deal`` the number of the deal it touched.
    A rejected change was taken back by the action ``reversed_by`` (None: nothing was left to
    take back, the table had already done it)."""

    seq: int | None
    kind: ChangeKind
    deal: int | None
    reason: str | None
    state: DealState
    written_by: int
    decided_by: int | None
    reversed_by: int | None
    #: A rejected change's reason, in the words of the player who rejected it (or None).
    rejection: str | None = None


@dataclass(frozen=True, slots=True)
class TableView:
    """One table as the director sees it."""

    tour: int
    table: int
    session_id: int
    players: tuple[int, ...]
    deals: int
    state: TableState
    provisional: int
    disputed: int
    last_deal_at: str | None
    #: Voids, restores, undos and redos rejected at the table (taken back; for the director).
    rejected: tuple[ChangeMark, ...] = ()
    #: The numbers of the deals voided at the table: they keep their numbers, so the table's
    #: last deal is ``deals + len(voided)`` (issue #37).
    voided: tuple[int, ...] = ()
    #: The numbers of the deals disputed at the table (rejected and not written again yet).
    disputed_deals: tuple[int, ...] = ()

    def idle_minutes(self, at: dt.datetime) -> int | None:
        """Minutes since the last deal (None before the first one)."""
        if self.last_deal_at is None:
            return None
        return int((at - dt.datetime.fromisoformat(self.last_deal_at)).total_seconds() // 60)


def device_key(device: str) -> str:
    """A device as the claims keep it (hashed: the id itself opens the table's PIN grant)."""
    return hashlib.sha256(f"scorepad-club-phone/{device}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class PhoneClaim:
    """A phone's "I am #n" at a table: held until the director frees it (``freed``)."""

    number: int
    device: str  # hashed
    at: str
    freed: bool


#: A table's own PIN: as many digits as a shared table's on the network.
PIN_DIGITS = 6
#: The longest announcement (a sentence or two read on a phone).
ANNOUNCEMENT_MAX = 280


@dataclass(frozen=True, slots=True)
class Seat:
    """Where a pulya session sits in a night: its tour, its table and the numbers at it."""

    night: int
    tour: int
    table: int
    players: tuple[int, ...]


def seat_of(store: Store, sid: int) -> Seat | None:
    """The club table session ``sid`` is, or None (an ordinary pulka): asked by every page of
    a session, it only reads (the club's tables are the schema's, made when the store opened)."""
    row = store.backend.execute(
        "SELECT night_id, tour, table_no, players FROM night_tables WHERE session_id = ?",
        (sid,),
    ).fetchone()
    if row is None:
        return None
    return Seat(int(row[0]), int(row[1]), int(row[2]), tuple(json.loads(row[3])))


def table_pin(store: Store, sid: int) -> str | None:
    """The PIN of club table ``sid`` (None: not a club table, or drawn before tables had one)."""
    row = store.backend.execute(
        "SELECT pin FROM night_pins WHERE session_id = ?", (sid,)
    ).fetchone()
    return None if row is None else str(row[0])


class ClubStore:
    """The nights of a :class:`~scorepad.store.Store` (which it uses, and does not close)."""

    def __init__(self, store: Store, *, create: bool = True) -> None:
        """``create`` is kept for the callers that say whether they write; either way nothing
        is created here: the club's tables are the schema's (:mod:`scorepad.store.schema`),
        made when the store was opened, and a read never writes."""
        self.store = store
        self.backend = store.backend
        #: A database with no club tables (none since schema 4): kept for its callers.
        self.empty = False

    @contextmanager
    def _write(self) -> Iterator[None]:
        """The store's transaction: a deal or a change at a table and its mark are written in
        one (the store's own action joins it), all or nothing."""
        with self.store._write():
            yield

    # --- nights ----------------------------------------------------------------------------

    def create_night(
        self,
        name: str,
        *,
        date: dt.date,
        tours: int,
        convention: str = "sochi",
        overrides: dict[str, Any] | None = None,
        pool_target: int | None = None,
        deals_per_tour: int | None = None,
        scoring: Scoring | None = None,
        seats: Literal[3, 4] | None = None,
        seed: int | None = None,
    ) -> int:
        """A new night; the convention's settings are frozen now, for every table."""
        settings = settings_for(convention, overrides).model_dump(mode="json")
        try:
            night = Night(
                name=name,
                date=date,
                convention=convention,
                settings=settings,
                pool_target=pool_target,
                deals_per_tour=deals_per_tour,
                tours=tours,
                scoring=scoring or Whists(),
                seats=seats,
                seed=secrets.randbelow(2**31) if seed is None else seed,
            )
        except ValidationError as exc:
            raise refused(exc, msg(N_("the night"))) from None
        with self._write():
            return self._insert_night(night)

    def _insert_night(self, night: Night) -> int:
        pk = self.backend.insert(
            "nights",
            {
                "name": night.name,
                "date": night.date.isoformat(),
                "convention": night.convention,
                "settings": json.dumps(night.settings, sort_keys=True),
                "pool_target": night.pool_target,
                "deals_per_tour": night.deals_per_tour,
                "tours": night.tours,
                "scoring": json.dumps(_SCORING.dump_python(night.scoring, mode="json")),
                "seats": night.seats,
                "seed": night.seed,
                "created_at": now(),
                "uid": night.uid or new_uid(),
            },
        )
        assert pk is not None
        return int(pk)

    def deals_per_tour(self, nid: int) -> int | None:
        """The night's fixed number of deals a tour (None: its tables play to a pool)."""
        value = self._night_row(nid)["deals_per_tour"]
        return None if value is None else int(value)

    def nights(self) -> list[tuple[int, str, str]]:
        """Every night: id, name, date; newest first."""
        if self.empty:
            return []
        return [
            (int(r[0]), str(r[1]), str(r[2]))
            for r in self.backend.execute("SELECT id, name, date FROM nights ORDER BY id DESC")
        ]

    def _night_row(self, nid: int) -> dict[str, Any]:
        rows = (
            []
            if self.empty
            else list(self.backend.query("SELECT * FROM nights WHERE id = ?", [nid]))
        )
        if not rows:
            raise ClubError(msg(N_("there is no night {id}"), id=nid))
        return rows[0]

    def load(self, nid: int) -> Night:
        """The night as it stands: its registry, tours and each table's whists from its deals."""
        row = self._night_row(nid)
        players = tuple(
            Player(
                number=r["number"],
                name=r["name"],
                uid=r["uid"],
                first_tour=r["first_tour"],
                last_tour=r["last_tour"],
            )
            for r in self.backend.query(
                "SELECT np.number, p.name, p.uid, np.first_tour, np.last_tour FROM night_players np "
                "JOIN players p ON p.id = np.player_id WHERE np.night_id = ? ORDER BY np.number",
                [nid],
            )
        )
        tables: dict[int, list[Table]] = {}
        for r in self.backend.query(
            "SELECT tour, table_no, session_id, players FROM night_tables WHERE night_id = ? "
            "ORDER BY tour, table_no",
            [nid],
        ):
            seats = tuple(json.loads(r["players"]))
            whists = self._whists(r["session_id"], seats)
            tables.setdefault(r["tour"], []).append(
                Table(number=r["table_no"], players=seats, whists=whists)
            )
        drawn = tuple(
            Tour(
                number=r["tour"],
                tables=tuple(tables.get(r["tour"], ())),
                byes=tuple(json.loads(r["byes"])),
                state=r["state"],
                redraws=r["redraws"],
            )
            for r in self.backend.query(
                "SELECT * FROM night_tours WHERE night_id = ? ORDER BY tour", [nid]
            )
        )
        return Night(
            uid=row.get("uid"),
            name=row["name"],
            date=dt.date.fromisoformat(row["date"]),
            convention=row["convention"],
            settings=json.loads(row["settings"]),
            pool_target=row["pool_target"],
            deals_per_tour=row["deals_per_tour"],
            tours=row["tours"],
            scoring=_SCORING.validate_python(json.loads(row["scoring"])),
            seats=row["seats"],
            seed=row["seed"],
            players=players,
            drawn=drawn,
        )

    def _whists(self, sid: int, seats: tuple[int, ...]) -> dict[int, Number] | None:
        stored = self.store.load(sid)
        if not stored.session.deals:
            return None
        got = balances(stored.scored.sheet, stored.scored.settings)
        return dict(zip(seats, got, strict=True))

    def standings(self, nid: int, *, through: int | None = None) -> tuple[Standing, ...]:
        return standings(self.load(nid), through=through)

    # --- the live standings link --------------------------------------------------------------

    def standings_token(self, nid: int) -> str:
        """The night's read-only capability: whoever has the link sees the standings, nothing
        more (128 random bits, made once)."""
        token = self._night_row(nid)["token"]
        if token:
            return str(token)
        token = secrets.token_urlsafe(16)
        with self._write():
            self.backend.execute(
                "UPDATE nights SET token = ? WHERE id = ? AND token IS NULL", (token, nid)
            )
        return str(self._night_row(nid)["token"])

    def night_of_token(self, token: str) -> int | None:
        """The night a standings link opens, or None (a wrong or old link)."""
        if not TOKEN.fullmatch(token or ""):
            return None
        row = self.backend.execute(
            "SELECT id, token FROM nights WHERE token = ?", (token,)
        ).fetchone()
        if row is None or not hmac.compare_digest(str(row[1]), token):
            return None
        return int(row[0])

    # --- the registry ----------------------------------------------------------------------

    def check_in(self, nid: int, name: str) -> Player:
        """A player at the door, from the roster or a new name (the roster's look-alike check
        applies); he gets the next number."""
        night = self.load(nid)
        back = night.returning(name)
        if back is not None and night.check_in(name).player(back.number).last_tour is None:
            return self.come_back(nid, back.number)
        clean = night.verify_check_in(name)
        pid = self.store.add_player(clean)  # the roster: same name, or a refused look-alike
        roster = self.backend.execute("SELECT name FROM players WHERE id = ?", (pid,)).fetchone()[0]
        night = night.check_in(roster)
        p = night.players[-1]
        with self._write():
            self.backend.insert(
                "night_players",
                {"night_id": nid, "number": p.number, "player_id": pid, "first_tour": p.first_tour},
            )
        return p

    def withdraw(self, nid: int, number: int) -> Player:
        night = self.load(nid).withdraw(number)
        p = night.player(number)
        with self._write():
            self.backend.execute(
                "UPDATE night_players SET last_tour = ? WHERE night_id = ? AND number = ?",
                (p.last_tour, nid, number),
            )
        return p

    def come_back(self, nid: int, number: int) -> Player:
        """A withdrawal taken back (by mistake, or the player returns): his number and record
        stay, and he is drawn again from the next tour."""
        p = self.load(nid).come_back(number).player(number)
        with self._write():
            self.backend.execute(
                "UPDATE night_players SET last_tour = NULL WHERE night_id = ? AND number = ?",
                (nid, number),
            )
        return p

    # --- the draw --------------------------------------------------------------------------

    def draw(self, nid: int) -> DrawReport:
        """The next tour drawn; each table gets a pulya session of the night's convention."""
        night, report = drawing.draw(self.load(nid))
        self._save_tour(nid, night, night.drawn[-1])
        return report

    def redraw(self, nid: int, *, confirmed: bool) -> DrawReport:
        """The current tour drawn again: only with ``confirmed`` and before its first deal."""
        before = self.load(nid)
        t = drawing.verify_redraw(before)
        if self._tour_has_deals(nid, t.number):
            before = before.started(t.number)
            drawing.verify_redraw(before)
        if not confirmed:
            raise ClubError(msg(N_("a re-draw of tour {tour} needs a confirmation"), tour=t.number))
        night, report = drawing.redraw(before)
        old = self._tables(nid, t.number)
        self._save_tour(nid, night, night.drawn[-1], replace=True)
        for view in old:
            self.store.delete_session(view.session_id, seen=0)
        return report

    def _save_tour(self, nid: int, night: Night, tour: Tour, *, replace: bool = False) -> None:
        names = {p.number: p.name for p in night.players}
        sessions = [
            self.store.create_session(
                [names[n] for n in tab.players],
                convention=night.convention,
                overrides=night.settings,
                pool_target=night.pool_target or NO_POOL,
            )
            for tab in tour.tables
        ]
        with self._write():
            if replace:
                self.backend.execute(
                    "DELETE FROM night_tables WHERE night_id = ? AND tour = ?", (nid, tour.number)
                )
                self.backend.execute(
                    "DELETE FROM night_tours WHERE night_id = ? AND tour = ?", (nid, tour.number)
                )
            self.backend.insert(
                "night_tours",
                {
                    "night_id": nid,
                    "tour": tour.number,
                    "state": tour.state,
                    "byes": json.dumps(list(tour.byes)),
                    "redraws": tour.redraws,
                },
            )
            for tab, sid in zip(tour.tables, sessions, strict=True):
                self.backend.insert(
                    "night_tables",
                    {
                        "night_id": nid,
                        "tour": tour.number,
                        "table_no": tab.number,
                        "session_id": sid,
                        "players": json.dumps(list(tab.players)),
                    },
                )
                pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
                self.backend.insert("night_pins", {"session_id": sid, "pin": pin})

    def _tour_has_deals(self, nid: int, tour: int) -> bool:
        return any(v.deals for v in self._tables(nid, tour))

    # --- tables ----------------------------------------------------------------------------

    def _table_row(self, nid: int, tour: int, table: int) -> tuple[int, tuple[int, ...]]:
        row = self.backend.execute(
            "SELECT session_id, players FROM night_tables WHERE night_id = ? AND tour = ? "
            "AND table_no = ?",
            (nid, tour, table),
        ).fetchone()
        if row is None:
            raise ClubError(msg(N_("tour {tour} has no table {table}"), tour=tour, table=table))
        return int(row[0]), tuple(json.loads(row[1]))

    def session_of(self, nid: int, tour: int, table: int) -> int:
        """The id of the pulya session a table plays in."""
        return self._table_row(nid, tour, table)[0]

    def _tour_state(self, nid: int, tour: int) -> str:
        row = self.backend.execute(
            "SELECT state FROM night_tours WHERE night_id = ? AND tour = ?", (nid, tour)
        ).fetchone()
        if row is None:
            raise ClubError(msg(N_("tour {tour} is not drawn yet"), tour=tour))
        return str(row[0])

    def tour_state(self, nid: int, tour: int) -> str:
        """``drawn``, ``playing`` or ``ended``."""
        return self._tour_state(nid, tour)

    def marks(self, sid: int, stored: AnyStored | None = None) -> list[DealMark]:
        """Every live deal of a table's session with its confirmation state, in order
        (``stored``: the session as just loaded, not read again)."""
        if stored is None:
            stored = self.store.load(sid)
        rows = {
            r["deal_id"]: r
            for r in self.backend.query("SELECT * FROM night_deals WHERE session_id = ?", [sid])
        }
        out = []
        for e in stored.journal.live:
            r = rows.get(e.deal_id)
            out.append(
                DealMark(
                    e.deal_id,
                    # The number said at the table: a voided deal keeps its number (struck
                    # through) and so do the deals after it, as in the History (issue #37).
                    number_of(stored.journal, e.deal_id),
                    r["state"] if r else "provisional",
                    r["written_by"] if r else None,
                    r["decided_by"] if r else None,
                    r["rejection"] if r else None,
                )
            )
        return out

    def _mark(self, sid: int, deal_id: int) -> DealMark:
        for m in self.marks(sid):
            if m.deal_id == deal_id:
                return m
        raise ClubError(msg(N_("deal #{deal} is not in the session"), deal=deal_id))

    def verify_tour_open(self, nid: int, tour: int, table: int) -> None:
        """A player's change at a table (a deal, a void, an undo): refused once the tour ended."""
        if self._tour_state(nid, tour) == "ended":
            raise ClubError(
                msg(
                    N_(
                        "tour {tour} has ended: a deal at table {table} changes only by the director, with a reason"
                    ),
                    tour=tour,
                    table=table,
                )
            )

    def _verify_open(self, nid: int, tour: int, table: int, by: int) -> tuple[int, tuple[int, ...]]:
        sid, seats = self._table_row(nid, tour, table)
        self.verify_tour_open(nid, tour, table)
        if by not in seats:
            raise ClubError(
                msg(
                    N_("number {number} does not sit at table {table} of tour {tour}"),
                    number=by,
                    table=table,
                    tour=tour,
                )
            )
        return sid, seats

    def write_deal(
        self, nid: int, tour: int, table: int, deal: AnyDeal | dict[str, Any], *, by: int, seen: int
    ) -> AnyStored:
        """A deal written at a table by player ``by``: provisional until another confirms it."""
        sid, _ = self._verify_open(nid, tour, table, by)
        night = self._night_row(nid)
        stored: AnyStored = self.store.load(sid)
        limit = night["deals_per_tour"]
        if limit is not None and len(stored.journal.live) >= limit:
            raise ClubError(
                msg(N_("table {table} has played its {n} deals of the tour"), table=table, n=limit)
            )
        if limit is None and stored.scored.finished:
            raise ClubError(msg(N_("table {table} has closed its pool"), table=table))
        with self._write():  # the deal and its mark: one transaction
            stored = self.store.add_deal(sid, parse_deal(deal), seen=seen)
            deal_id = stored.journal.live[-1].deal_id
            self.backend.upsert(
                "night_deals",
                {
                    "session_id": sid,
                    "deal_id": deal_id,
                    "state": "provisional",
                    "written_by": by,
                    "decided_by": None,  # the whole row replaced, as before
                    "rejection": None,
                    "at": now(),
                },
                ("session_id", "deal_id"),
            )
            self.backend.execute(
                "UPDATE night_tours SET state = 'playing' WHERE night_id = ? AND tour = ? "
                "AND state = 'drawn'",
                (nid, tour),
            )
        return stored

    def _decide(
        self,
        nid: int,
        tour: int,
        table: int,
        deal_id: int,
        by: int,
        state: DealState,
        reason: str | None = None,
    ) -> DealMark:
        sid, _ = self._verify_open(nid, tour, table, by)
        mark = self._mark(sid, deal_id)
        if mark.written_by == by:
            raise ClubError(
                msg(
                    N_(
                        "deal {number} was written by number {by}: another player at the table confirms it"
                    ),
                    number=mark.number,
                    by=by,
                )
            )
        if mark.state != "provisional":
            raise ClubError(
                msg(
                    N_("deal {number} is {state} already"),
                    number=mark.number,
                    state=STATE_WORDS[mark.state],
                )
            )
        why = (
            None
            if state == "confirmed"
            else rejection_reason(reason, msg(N_("deal {number}"), number=mark.number))
        )
        with self._write():
            self.backend.upsert(
                "night_deals",
                {
                    "session_id": sid,
                    "deal_id": deal_id,
                    "state": state,
                    "decided_by": by,
                    "rejection": why,
                    "at": now(),
                },
                ("session_id", "deal_id"),
            )
        return self._mark(sid, deal_id)

    def confirm(self, nid: int, tour: int, table: int, deal_id: int, *, by: int) -> DealMark:
        """One tap, "Confirm", by another player at the table."""
        return self._decide(nid, tour, table, deal_id, by, "confirmed")

    def reject(
        self, nid: int, tour: int, table: int, deal_id: int, *, by: int, reason: str
    ) -> DealMark:
        """Another player says the deal is wrong, and why (required: the writer, the table and
        the director read it): it is disputed (the card audit settles it)."""
        return self._decide(nid, tour, table, deal_id, by, "disputed", reason)

    # --- who each phone is at a table ------------------------------------------------------

    def phone_claims(self, sid: int) -> list[PhoneClaim]:
        """Every claim made at table ``sid``, in order (freed ones too: the record)."""
        rows = self.backend.execute(
            "SELECT number, device, at, freed_at FROM night_phones WHERE session_id = ? "
            "ORDER BY id",
            (sid,),
        ).fetchall()
        return [PhoneClaim(int(r[0]), str(r[1]), str(r[2]), r[3] is not None) for r in rows]

    def phone_number(self, sid: int, device: str) -> int | None:
        """The number this device holds at table ``sid``, or None."""
        key = device_key(device)
        for c in self.phone_claims(sid):
            if not c.freed and c.device == key:
                return c.number
        return None

    def claim_phone(self, nid: int, tour: int, table: int, number: int, *, device: str) -> None:
        """A phone says who it is at a table, once: a number held by another phone, or a phone
        that holds another number, is refused (the director frees a mistaken claim).  So a
        player cannot confirm his own deal by saying he is someone else (issue #37)."""
        sid, seats = self._table_row(nid, tour, table)
        if number not in seats:
            raise ClubError(
                msg(
                    N_("number {number} does not sit at table {table} of tour {tour}"),
                    number=number,
                    table=table,
                    tour=tour,
                )
            )
        key = device_key(device)
        held = {c.number: c.device for c in self.phone_claims(sid) if not c.freed}
        if held.get(number) == key:
            return
        if number in held:
            raise ClubError(
                msg(
                    N_(
                        "#{number} is chosen on another phone at this table; if that was a mistake, the director frees it"
                    ),
                    number=number,
                )
            )
        mine = next((n for n, d in held.items() if d == key), None)
        if mine is not None:
            raise ClubError(
                msg(
                    N_(
                        "this phone is #{number} at this table; to choose again, ask the director to free it"
                    ),
                    number=mine,
                )
            )
        with self._write():
            self.backend.insert(
                "night_phones", {"session_id": sid, "number": number, "device": key, "at": now()}
            )

    def free_phone(self, nid: int, tour: int, table: int, number: int) -> None:
        """The director frees #number's phone at a table: that phone (or another) chooses again;
        the table sees that it was freed."""
        sid, _ = self._table_row(nid, tour, table)
        with self._write():
            done = self.backend.execute(
                "UPDATE night_phones SET freed_at = ? WHERE session_id = ? AND number = ? "
                "AND freed_at IS NULL",
                (now(), sid, number),
            ).rowcount
        if not done:
            raise ClubError(
                msg(N_("no phone is #{number} at table {table}"), number=number, table=table)
            )

    # --- voids, restores, undos and redos at a table ------------------------------------------

    def changes(self, sid: int) -> list[ChangeMark]:
        """Every void, restore, undo and redo made at table ``sid`` by its players, in order."""
        rows = self.backend.query(
            "SELECT * FROM night_changes WHERE session_id = ? ORDER BY id", [sid]
        )
        return [
            ChangeMark(
                r["seq"],
                r["kind"],
                r["deal_no"],
                r["reason"],
                r["state"],
                r["written_by"],
                r["decided_by"],
                r["reversed_by"],
                r["rejection"],
            )
            for r in rows
        ]

    def _change(self, sid: int, seq: int) -> ChangeMark:
        for c in self.changes(sid):
            if c.seq == seq:
                return c
        raise ClubError(msg(N_("there is no change {seq} to confirm at this table"), seq=seq))

    def _record_change(
        self,
        nid: int,
        tour: int,
        table: int,
        by: int,
        step: Callable[[int, int], AnyStored],
        seen: int | None,
    ) -> ChangeMark:
        """A player's void, restore, undo or redo (``step(sid, seen)``): written in the
        session's journal, then marked provisional until another player confirms it.
        ``seen``: the revision the player saw (a phone's screen); None, the current one."""
        sid, _ = self._verify_open(nid, tour, table, by)
        if seen is None:
            seen = self.store.load(sid).revision
        with self._write():  # the change and its mark: one transaction
            stored = step(sid, seen)
            actions = self.store.history(sid)
            action = actions[-1]
            numbers = deal_numbers(actions)
            if action.kind in ("undo", "redo"):
                target = actions[(action.target or 0) - 1]
                deal_id = target.seq if target.kind == "add" else target.deal_id
                deal_no = numbers.get(target.seq)
            else:
                deal_id = action.deal_id
                deal_no = numbers.get(action.seq)
            assert stored.revision == action.seq
            self.backend.insert(
                "night_changes",
                {
                    "session_id": sid,
                    "seq": action.seq,
                    "kind": action.kind,
                    "deal_id": deal_id,
                    "deal_no": deal_no,
                    "reason": action.reason,
                    "state": "provisional",
                    "written_by": by,
                    "at": now(),
                },
            )
        return self._change(sid, action.seq)

    def void_deal(
        self,
        nid: int,
        tour: int,
        table: int,
        deal_id: int,
        *,
        by: int,
        reason: str,
        seen: int | None = None,
    ) -> ChangeMark:
        """A player voids a deal at his table (with a reason): provisional until confirmed."""
        return self._record_change(
            nid,
            tour,
            table,
            by,
            lambda sid, seen: self.store.void_deal(sid, deal_id, reason=reason, seen=seen),
            seen,
        )

    def restore_deal(
        self, nid: int, tour: int, table: int, deal_id: int, *, by: int, seen: int | None = None
    ) -> ChangeMark:
        """A player takes a void back at his table: provisional until confirmed."""
        return self._record_change(
            nid,
            tour,
            table,
            by,
            lambda sid, seen: self.store.restore_deal(sid, deal_id, seen=seen),
            seen,
        )

    def undo(
        self, nid: int, tour: int, table: int, *, by: int, seen: int | None = None
    ) -> ChangeMark:
        """A player's undo at his table: provisional until confirmed."""
        return self._record_change(
            nid, tour, table, by, lambda sid, seen: self.store.undo(sid, seen=seen), seen
        )

    def redo(
        self, nid: int, tour: int, table: int, *, by: int, seen: int | None = None
    ) -> ChangeMark:
        """A player's redo at his table: provisional until confirmed."""
        return self._record_change(
            nid, tour, table, by, lambda sid, seen: self.store.redo(sid, seen=seen), seen
        )

    def decide_change(
        self,
        nid: int,
        tour: int,
        table: int,
        seq: int,
        *,
        by: int,
        confirmed: bool,
        reason: str | None = None,
    ) -> ChangeMark:
        """Another player at the table confirms a change, or rejects it.

        A rejected change is taken back at once by the opposite action (a void by a restore, a
        restore by the void it took back, an undo by a redo, a redo by an undo): the table
        plays on from what stood before it, the journal keeps both actions, and the change stays
        on the record as disputed, shown to the director, who settles any further disagreement
        with a correction.  An undo or a redo that the table has written over since cannot be
        taken back by a player: the rejection is refused and the director decides.  A rejection
        says why (``reason``, required), as a rejected deal does."""
        sid, _ = self._verify_open(nid, tour, table, by)
        change = self._change(sid, seq)
        words = change_words(change)
        if change.written_by == by:
            raise ClubError(
                msg(
                    N_("{change} was made by number {by}: another player at the table confirms it"),
                    change=words,
                    by=by,
                )
            )
        if change.state != "provisional":
            raise ClubError(
                msg(
                    N_("{change} is {state} already"),
                    change=words,
                    state=STATE_WORDS[change.state],
                )
            )
        reversed_by = None
        why = None if confirmed else rejection_reason(reason, change_words(change, numbered=False))
        if not confirmed:
            reversed_by = self._take_back(sid, change, words)
        with self._write():
            self.backend.execute(
                "UPDATE night_changes SET state = ?, decided_by = ?, reversed_by = ?, "
                "rejection = ?, at = ? WHERE session_id = ? AND seq = ?",
                ("confirmed" if confirmed else "disputed", by, reversed_by, why, now(), sid, seq),
            )
        return self._change(sid, seq)

    def _take_back(self, sid: int, change: ChangeMark, words: Msg) -> int | None:
        """The action that takes a rejected change back (its seq), or None: nothing to take."""
        stored = self.store.load(sid)
        journal = stored.journal
        seen = stored.revision
        actions = self.store.history(sid)
        assert change.seq is not None  # a change of this journal (one from a file is decided)
        action = actions[change.seq - 1]
        if change.kind in ("void", "restore"):
            assert action.deal_id is not None
            entry = journal.entries.get(action.deal_id)
            if entry is None or entry.voided != (change.kind == "void"):
                return None  # the table has taken it back already
            if change.kind == "void":
                return self.store.restore_deal(sid, action.deal_id, seen=seen).revision
            # Voided again, with the reason of the void the restore took back.
            voids = [a.reason for a in entry.revisions if a.kind == "void" and a.reason]
            why = voids[-1] if voids else "-"
            return self.store.void_deal(sid, action.deal_id, reason=why, seen=seen).revision
        target = action.target
        done = [a.seq for a in journal.done]
        undone = [a.seq for a in journal.undone]
        if change.kind == "undo":
            if target in done:
                return None  # redone since
            if undone and undone[-1] == target:
                return self.store.redo(sid, seen=seen).revision
        else:
            if target in undone:
                return None  # undone since
            if done and done[-1] == target:
                return self.store.undo(sid, seen=seen).revision
        raise ClubError(
            msg(
                N_(
                    "{change} cannot be taken back by the table: deals were written after it; the director decides"
                ),
                change=words,
            )
        )

    def rewrite_deal(
        self,
        nid: int,
        tour: int,
        table: int,
        deal_id: int,
        deal: AnyDeal | dict[str, Any],
        *,
        by: int,
        reason: str,
        seen: int,
    ) -> AnyStored:
        """A player at the table writes a deal again (a disputed one, say): provisional again."""
        sid, _ = self._verify_open(nid, tour, table, by)
        self._mark(sid, deal_id)
        with self._write():  # the deal and its mark: one transaction
            stored = self.store.edit_deal(sid, deal_id, parse_deal(deal), reason=reason, seen=seen)
            self.backend.upsert(
                "night_deals",
                {
                    "session_id": sid,
                    "deal_id": deal_id,
                    "state": "provisional",
                    "written_by": by,
                    "decided_by": None,
                    # Written again: the rejection is answered (the rewrite has its reason).
                    "rejection": None,
                    "at": now(),
                },
                ("session_id", "deal_id"),
            )
        return stored

    def correct_deal(
        self,
        nid: int,
        tour: int,
        table: int,
        deal_id: int,
        deal: AnyDeal | dict[str, Any],
        *,
        reason: str,
        seen: int,
    ) -> AnyStored:
        """The director's correction (any time, an ended tour's too): a reason is required; it
        is written in the session's journal and in the night's corrections."""
        sid, _ = self._table_row(nid, tour, table)
        if not (reason or "").strip():
            raise ClubError(msg(N_("a director's correction needs a reason")))
        self._mark(sid, deal_id)
        with self._write():  # the correction and its mark: one transaction
            stored = self.store.edit_deal(sid, deal_id, parse_deal(deal), reason=reason, seen=seen)
            self.backend.upsert(
                "night_deals",
                {"session_id": sid, "deal_id": deal_id, "state": "confirmed", "at": now()},
                ("session_id", "deal_id"),
            )
            self.backend.insert(
                "night_corrections",
                {
                    "night_id": nid,
                    "tour": tour,
                    "table_no": table,
                    "deal_id": deal_id,
                    "reason": reason.strip(),
                    "at": now(),
                },
            )
        return stored

    def corrections(self, nid: int) -> list[dict[str, Any]]:
        """The director's corrections, in order; ``number``: the deal's number as said at its
        table (issue #37)."""
        rows = list(
            self.backend.query(
                "SELECT tour, table_no, deal_id, reason, at FROM night_corrections "
                "WHERE night_id = ? ORDER BY id",
                [nid],
            )
        )
        journals: dict[tuple[int, int], Any] = {}
        for r in rows:
            key = (r["tour"], r["table_no"])
            if key not in journals:
                journals[key] = self.store.load(self.session_of(nid, *key)).journal
            journal = journals[key]
            r["number"] = (
                number_of(journal, r["deal_id"]) if r["deal_id"] in journal.entries else None
            )
        return rows

    # --- announcements ----------------------------------------------------------------------

    def announce(self, nid: int, text: str) -> None:
        """A message from the director to every table of the night (shown on their phones)."""
        self._night_row(nid)
        try:  # spaces and line breaks one space; any other control, bidi or hidden: refused
            clean = clean_text(
                " ".join((text or "").split()), "announcement", limit=ANNOUNCEMENT_MAX
            )
        except FieldRefused as exc:
            raise ClubError(exc.message) from None
        if not clean:
            raise ClubError(msg(N_("an announcement needs a text")))
        if len(clean) > ANNOUNCEMENT_MAX:
            raise ClubError(
                msg(N_("an announcement has at most {n} characters"), n=ANNOUNCEMENT_MAX)
            )
        with self._write():
            self.backend.insert(
                "night_announcements", {"night_id": nid, "text": clean, "at": now()}
            )

    def announcement(self, nid: int) -> str | None:
        """The director's latest announcement to the night's tables, or None."""
        row = self.backend.execute(
            "SELECT text FROM night_announcements WHERE night_id = ? ORDER BY id DESC LIMIT 1",
            (nid,),
        ).fetchone()
        return None if row is None else str(row[0])

    # --- tours -----------------------------------------------------------------------------

    def _tables(self, nid: int, tour: int) -> list[TableView]:
        limit = self._night_row(nid)["deals_per_tour"]
        views = []
        for r in self.backend.query(
            "SELECT table_no, session_id, players FROM night_tables WHERE night_id = ? AND tour = ? "
            "ORDER BY table_no",
            [nid, tour],
        ):
            sid = r["session_id"]
            stored = self.store.load(sid)
            marks = self.marks(sid, stored)
            changes = self.changes(sid)
            deals = len(stored.journal.live)
            disputed = sum(m.state == "disputed" for m in marks)
            done = stored.scored.finished if limit is None else deals >= limit
            state: TableState = (
                "disputed"
                if disputed
                else "finished"
                if done
                else "playing"
                if deals
                else "waiting"
            )
            last = self.backend.execute(
                "SELECT max(at) FROM actions WHERE session_id = ?", (sid,)
            ).fetchone()[0]
            views.append(
                TableView(
                    tour,
                    r["table_no"],
                    sid,
                    tuple(json.loads(r["players"])),
                    deals,
                    state,
                    sum(m.state == "provisional" for m in marks)
                    + sum(c.state == "provisional" for c in changes),
                    disputed,
                    last,
                    tuple(c for c in changes if c.state == "disputed"),
                    tuple(
                        k
                        for k, e in enumerate(stored.journal.entries.values(), start=1)
                        if e.voided
                    ),
                    tuple(m.number for m in marks if m.state == "disputed"),
                )
            )
        return views

    def tables(self, nid: int, tour: int | None = None) -> list[TableView]:
        """Every table of a tour (the current one by default), as the director sees it."""
        if tour is None:
            t = self.load(nid).current
            if t is None:
                return []
            tour = t.number
        return self._tables(nid, tour)

    def end_tour(self, nid: int, tour: int) -> None:
        """The tour ends: every table has a result and no deal waits for a confirmation."""
        night = self.load(nid)
        night.verify_end(tour)
        for v in self._tables(nid, tour):
            sid = v.session_id
            if any(c.state == "provisional" for c in self.changes(sid)):
                raise ClubError(
                    msg(
                        N_("tour {tour} cannot end: table {table} has a change not confirmed"),
                        tour=tour,
                        table=v.table,
                    )
                )
            if v.provisional or v.disputed:
                raise ClubError(
                    msg(
                        N_("tour {tour} cannot end: table {table} has a deal not confirmed"),
                        tour=tour,
                        table=v.table,
                    )
                )
        with self._write():
            self.backend.execute(
                "UPDATE night_tours SET state = 'ended' WHERE night_id = ? AND tour = ?",
                (nid, tour),
            )

    def short_tables(self, nid: int, tour: int) -> list[Msg]:
        """The tables of ``tour`` short of their deals (or of their pool), as the director is
        told before he ends the tour: "Table 2: 3 of 6 deals"."""
        limit = self._night_row(nid)["deals_per_tour"]
        out = []
        for v in self._tables(nid, tour):
            if limit is not None and v.deals < limit:
                out.append(
                    msg(
                        N_("Table {table}: {n} of {limit} deals"),
                        table=v.table,
                        n=v.deals,
                        limit=limit,
                    )
                )
            elif limit is None and not self.store.load(v.session_id).scored.finished:
                out.append(
                    nmsg(
                        "Table {table}: {n} deal, its pool not closed",
                        "Table {table}: {n} deals, its pool not closed",
                        v.deals,
                        table=v.table,
                    )
                )
        return out

    def reopenable(self, nid: int, tour: int) -> str | None:
        """Why ``tour`` cannot be reopened (a sentence's msgid), or None: it has ended and no
        later tour has a deal (a later tour drawn but not begun loses its draw)."""
        night = self.load(nid)
        t = night.tour(tour)
        if t.state != "ended":
            return N_("tour {tour} has not ended")
        later = [x for x in night.drawn if x.number > tour]
        if len(later) > 1 or (later and later[0].state != "drawn"):
            return N_("tour {tour} cannot be reopened: the next tour has begun")
        return None

    def reopen_tour(self, nid: int, tour: int) -> int | None:
        """The director reopens an ended tour (until the next tour's first deal): its tables
        write and change deals again.  A next tour drawn but not begun has its draw withdrawn
        (it is drawn again, from the same seed, when this tour ends): only the last tour drawn
        may be open.  Returns the number of the tour whose draw was withdrawn, or None."""
        why = self.reopenable(nid, tour)
        if why is not None:
            raise ClubError(msg(why, tour=tour))
        drawn = any(t.number == tour + 1 for t in self.load(nid).drawn)
        later = self._tables(nid, tour + 1) if drawn else []
        with self._write():
            if drawn:
                self.backend.execute(
                    "DELETE FROM night_tables WHERE night_id = ? AND tour = ?", (nid, tour + 1)
                )
                self.backend.execute(
                    "DELETE FROM night_tours WHERE night_id = ? AND tour = ?", (nid, tour + 1)
                )
            self.backend.execute(
                "UPDATE night_tours SET state = 'playing' WHERE night_id = ? AND tour = ?",
                (nid, tour),
            )
        for view in later:
            self.store.delete_session(view.session_id, seen=0)
        return tour + 1 if drawn else None

    def protocols(self, nid: int, tour: int | None = None) -> list[Protocol]:
        """Every table's protocol (of one tour, or of every tour drawn) for the PDF."""
        from .pdf import Protocol, ProtocolDeal

        out = []
        for t in self.load(nid).drawn:
            if tour is not None and t.number != tour:
                continue
            for tab in t.tables:
                sid = self.session_of(nid, t.number, tab.number)
                stored = self.store.load(sid)
                marks = {m.deal_id: m for m in self.marks(sid, stored)}
                deals = []
                for k, e in enumerate(stored.journal.entries.values(), start=1):
                    m = marks.get(e.deal_id)
                    if e.voided or m is None:
                        voids = [a.reason for a in e.revisions if a.kind == "void"]
                        why = (voids[-1] if voids else None) or "-"
                        deals.append(ProtocolDeal(k, e.deal, why, None, None, None))
                    else:
                        deals.append(
                            ProtocolDeal(
                                k,
                                e.deal,
                                None,
                                STATE_WORDS[m.state],
                                m.written_by,
                                m.decided_by,
                                m.rejection,
                            )
                        )
                out.append(
                    Protocol(
                        t.number,
                        tab.number,
                        tab.players,
                        stored.scored,
                        tuple(deals),
                        self._record_of(nid, t.number, tab.number, sid),
                    )
                )
        return out

    def _record_of(self, nid: int, tour: int, table: int, sid: int) -> tuple[Msg, ...]:
        """What happened at a table besides its deals, in the order it happened (issue #37):
        each void, restore, undo and redo (a player's with who made and who decided it, the
        director's as his), each deal written again (with the reason) and each director's
        correction (with his reason)."""
        actions = self.store.history(sid)
        numbers = deal_numbers(actions)
        journal = self.store.load(sid).journal
        made = self.changes(sid)
        # The players' changes and the actions that took a rejected one back are said once.
        seqs = {c.seq for c in made if c.seq is not None}
        seqs |= {c.reversed_by for c in made if c.reversed_by}
        corrected = {
            (r["deal_id"], r["reason"])
            for r in self.corrections(nid)
            if r["tour"] == tour and r["table_no"] == table
        }
        lines: list[tuple[int, Msg]] = []
        for k, c in enumerate(made):
            who = (
                msg(
                    N_("{change}: {state}; made by #{by}, decided by {decider}"),
                    change=change_words(c),
                    state=STATE_WORDS[c.state],
                    by=c.written_by,
                    decider=f"#{c.decided_by}" if c.decided_by else "—",
                )
                if c.rejection is None
                else msg(
                    N_("{change}: {state}; made by #{by}, rejected by #{decider}: {reason}"),
                    change=change_words(c),
                    state=STATE_WORDS[c.state],
                    by=c.written_by,
                    decider=c.decided_by,
                    reason=c.rejection,
                )
            )
            if c.reversed_by is not None:
                who = msg(N_("{what} (taken back)"), what=who)
            lines.append((c.seq if c.seq is not None else -len(made) + k, who))
        for a in actions:
            if a.seq in seqs:
                continue
            if a.kind == "edit" and a.deal_id is not None:
                number = number_of(journal, a.deal_id) if a.deal_id in journal.entries else "?"
                words = (
                    N_("deal {number}: the director's correction ({reason})")
                    if (a.deal_id, a.reason) in corrected
                    else N_("deal {number} written again ({reason})")
                )
                lines.append((a.seq, msg(words, number=number, reason=a.reason or "-")))
            elif a.kind in ("void", "restore", "undo", "redo"):
                if a.kind in ("undo", "redo"):
                    target = actions[(a.target or 0) - 1]
                    deal_no = numbers.get(target.seq)
                else:
                    deal_no = numbers.get(a.seq)
                mark = ChangeMark(a.seq, a.kind, deal_no, a.reason, "confirmed", 0, None, None)
                lines.append(
                    (a.seq, msg(N_("{change}: by the director"), change=change_words(mark)))
                )
        return tuple(m for _, m in sorted(lines, key=lambda x: x[0]))

    # --- the club file ---------------------------------------------------------------------

    def export_night(self, nid: int) -> str:
        """The club file: each table's pulya with its voided deals (struck, with their
        reasons, as a session file keeps them) and its players' changes."""
        night = self.load(nid)
        sessions: dict[tuple[int, int], Session] = {}
        changes: dict[tuple[int, int], list[TableChange]] = {}
        disputes: dict[tuple[int, int], list[TableDispute]] = {}
        for t in night.drawn:
            for tab in t.tables:
                sid = self.session_of(nid, t.number, tab.number)
                s = Session.model_validate_json(self.store.export_session(sid))
                if s.deals or s.struck:
                    sessions[(t.number, tab.number)] = s
                made = [
                    TableChange(
                        kind=c.kind,
                        deal=c.deal or 1,
                        reason=c.reason if c.kind == "void" else None,
                        state=c.state,
                        by=c.written_by,
                        decided_by=c.decided_by,
                        taken_back=c.reversed_by is not None,
                        rejection=c.rejection,
                    )
                    for c in self.changes(sid)
                ]
                if made:
                    changes[(t.number, tab.number)] = made
                # A deal rejected and not written again: disputed in every store (issue #37).
                rejected = [
                    TableDispute(
                        deal=m.number, by=m.written_by, decided_by=m.decided_by, reason=m.rejection
                    )
                    for m in self.marks(sid)
                    if m.state == "disputed" and m.decided_by is not None
                ]
                if rejected:
                    disputes[(t.number, tab.number)] = rejected
        return dump_night(night, sessions, changes, disputes)

    def import_night(self, text: str | bytes | CheckedNight) -> int:
        """A club file, checked in full before anything is written; its deals count as
        confirmed (the file is the night as it was signed off).  Returns the night's id.

        The whole import is one transaction (the roster's new players, the night, its tours, tables and deals): a refusal met while
        writing (a look-alike of a name on the roster) leaves no byte of it behind, and the
        fixed file imported afterwards makes one night."""
        return self.import_night_file(text)[0]

    def import_night_file(self, text: str | bytes | CheckedNight) -> tuple[int, bool]:
        """:meth:`import_night`, and whether the night is new here: a night is one night in
        every store, by its stable id, so a file imported again changes nothing; a file of a
        night kept here with another content is refused, with nothing written."""
        night, sessions, changes, disputes = (
            parse_night(text) if isinstance(text, str | bytes) else text
        )
        uid = night.uid or _legacy_uid(night, sessions, changes, disputes)
        night = night.model_copy(update={"uid": uid})
        with self._write():
            known = self.backend.execute("SELECT id FROM nights WHERE uid = ?", (uid,)).fetchone()
            if known is not None:
                nid = int(known[0])
                if _content(self.export_night(nid)) != _content(
                    dump_night(night, sessions, changes, disputes)
                ):
                    raise ClubError(
                        msg(
                            N_(
                                "the club night {name} of {date} is in this database already, with another content: nothing was written"
                            ),
                            name=night.name,
                            date=night.date.isoformat(),
                        )
                    )
                return nid, False
            ids = {
                p.number: self.store.player_id(_player_name(p.name), p.uid) for p in night.players
            }
            nid = self._insert_night(night)
            for p in night.players:
                self.backend.insert(
                    "night_players",
                    {
                        "night_id": nid,
                        "number": p.number,
                        "player_id": ids[p.number],
                        "first_tour": p.first_tour,
                        "last_tour": p.last_tour,
                    },
                )
            for t in night.drawn:
                self._save_tour(nid, night, t)
                for tab in t.tables:
                    s = sessions.get((t.number, tab.number))
                    if s is not None:
                        if s.uid is None:  # one table of one night: its id is the night's
                            table_uid = uuid.uuid5(uuid.UUID(uid), f"table/{t.number}/{tab.number}")
                            s = s.model_copy(update={"uid": str(table_uid)})
                        self._import_table(nid, t.number, tab.number, s, changes, disputes)
        return nid, True

    def _import_table(
        self,
        nid: int,
        tour: int,
        table: int,
        session: Session,
        changes: dict[tuple[int, int], tuple[TableChange, ...]],
        disputes: dict[tuple[int, int], tuple[TableDispute, ...]],
    ) -> None:
        """A table's session from a club file, in the import's transaction."""
        sid = self.store.import_session(json.dumps(session_data(session)))
        old = self.session_of(nid, tour, table)
        self.backend.execute(
            "UPDATE night_tables SET session_id = ? WHERE night_id = ? AND tour = ? "
            "AND table_no = ?",
            (sid, nid, tour, table),
        )
        self.backend.execute(  # the table keeps the PIN it was drawn with
            "UPDATE night_pins SET session_id = ? WHERE session_id = ?", (sid, old)
        )
        journal = self.store.load(sid).journal
        rejected = {d.deal: d for d in disputes.get((tour, table), ())}
        for e in journal.live:
            d = rejected.get(number_of(journal, e.deal_id))
            # A deal disputed in the file stays disputed, with who rejected it and why: the
            # table writes it again (or the director corrects it) here as it would have there.
            self.backend.insert(
                "night_deals",
                {"session_id": sid, "deal_id": e.deal_id, "state": "confirmed", "at": now()}
                if d is None
                else {
                    "session_id": sid,
                    "deal_id": e.deal_id,
                    "state": "disputed",
                    "written_by": d.by,
                    "decided_by": d.decided_by,
                    "rejection": d.reason,
                    "at": now(),
                },
            )
        # The table's changes, as a record (no action of this journal: no seq); one still to
        # confirm counts as confirmed, as the deals do.
        for c in changes.get((tour, table), ()):
            self.backend.insert(
                "night_changes",
                {
                    "session_id": sid,
                    "kind": c.kind,
                    "deal_no": c.deal,
                    "reason": c.reason,
                    "state": "confirmed" if c.state == "provisional" else c.state,
                    "written_by": c.by,
                    "decided_by": c.decided_by,
                    "reversed_by": 0 if c.taken_back else None,  # in its journal
                    "rejection": c.rejection,
                    "at": now(),
                },
            )
        self.store.delete_session(old, seen=0)


def _player_name(name: str) -> str:
    from ..store.sessions import clean_name

    return clean_name(name)


def _content(text: str) -> Any:
    """A club file without its stable ids: what two files of one night must agree on."""

    def bare(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: bare(v) for k, v in value.items() if k not in ("uid", "player_uids")}
        if isinstance(value, list):
            return [bare(v) for v in value]
        return value

    data = bare(json.loads(text))
    for table in data.get("sessions", ()):  # each table's session in its canonical form
        table["session"] = json.loads(dump_session(Session.model_validate(table["session"])))
    return data


def _legacy_uid(
    night: Night,
    sessions: dict[tuple[int, int], Session],
    changes: dict[tuple[int, int], tuple[TableChange, ...]],
    disputes: dict[tuple[int, int], tuple[TableDispute, ...]],
) -> str:
    """The id of a night whose file has none (written before issue #36): its content's, so
    that the same file imported twice is one night."""
    text = json.dumps(_content(dump_night(night, sessions, changes, disputes)), sort_keys=True)
    return str(uuid.uuid5(_LEGACY_NIGHT, hashlib.sha256(text.encode("utf-8")).hexdigest()))


#: The namespace of the ids given to the nights of files from before issue #36.
_LEGACY_NIGHT = uuid.UUID("8f1c2b7e-3a4d-4e5f-9b6a-0c1d2e3f4a5b")


def change_words(change: ChangeMark, *, numbered: bool = True) -> Msg:
    """A change as the director and the CLI name it: "change 5, the void of deal 3 (wrong
    cards)"; ``numbered=False``, as a player reads it on his phone: "the void of deal 3 (wrong
    cards)" (the change's number is the journal's, no word of the table's; issue #37)."""
    n = change.deal if change.deal is not None else "?"
    if change.seq is None or not numbered:  # a club file's: no action of this database
        return {
            "void": msg(N_("the void of deal {number} ({reason})"), number=n, reason=change.reason),
            "restore": msg(N_("the restore of deal {number}"), number=n),
            "undo": msg(N_("an undo (deal {number})"), number=n),
            "redo": msg(N_("a redo (deal {number})"), number=n),
        }[change.kind]
    if change.kind == "void":
        return msg(
            N_("change {seq}, the void of deal {number} ({reason})"),
            seq=change.seq,
            number=n,
            reason=change.reason,
        )
    if change.kind == "restore":
        return msg(N_("change {seq}, the restore of deal {number}"), seq=change.seq, number=n)
    if change.kind == "undo":
        return msg(N_("change {seq}, an undo (deal {number})"), seq=change.seq, number=n)
    return msg(N_("change {seq}, a redo (deal {number})"), seq=change.seq, number=n)


def rejection_reason(reason: str | None, what: Msg) -> str:
    """A rejection's reason as it is kept: checked as every reason a player writes is (a void's,
    an edit's: stripped, no control, bidi or invisible character, at most
    :data:`~scorepad.scoring.pulya.session.MAX_REASON` characters) and required; a refusal
    names the deal or the change rejected (``what``)."""
    try:
        text = reason_text(reason) if isinstance(reason, str) else ""
    except FieldRefused as exc:
        raise ClubError(msg(N_("{what}: {problem}"), what=what, problem=exc.message)) from None
    if not text:
        raise ClubError(
            msg(N_("{what}: a rejection needs a reason (what is wrong with it)"), what=what)
        )
    return text


def voided_words(numbers: tuple[int, ...]) -> Msg | None:
    """The deals voided at a table, by the numbers they keep: "voided: deals 2, 5"."""
    if not numbers:
        return None
    return nmsg(
        "voided: deal {numbers}",
        "voided: deals {numbers}",
        len(numbers),
        numbers=", ".join(str(n) for n in numbers),
    )


STATE_WORDS = {
    "provisional": msg(N_("provisional")),
    "confirmed": msg(N_("confirmed")),
    "disputed": msg(N_("disputed")),
}
