"""The club file ``scorepad-club/1``: a whole night in one JSON document (docs/club-format.md).

It holds the night (settings, registry, tours, seatings, each table's whists) and, for each
table that has deals, the table's pulya as a ``scorepad-session/1`` document.  Reading checks
everything before anything is used: the shape, then the registry (a number once, a player once
per tour, at a table of his tour), then that each table adds up (its whists sum to zero and are
what its deals add up to).  A problem is one sentence naming the tour and the table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import from_json

from ..core.i18n import N_, msg
from ..core.numbers import normal, to_json
from ..scoring.pulya.convention import ConventionError, settings_for
from ..scoring.pulya.score import replay
from ..scoring.pulya.session import (
    TOO_DEEP,
    Session,
    SessionInvalid,
    dump_session,
    look_alike,
    not_json,
    reason_text,
)
from ..scoring.pulya.settlement import balances
from .errors import ClubError, refused
from .night import FORMAT, Count, Night

#: The largest club file read (a night of 400 players and their deals is far below it).
MAX_FILE = 16 * 1024 * 1024

TableKey = tuple[int, int]  # (tour, table)


class TableChange(BaseModel):
    """A void, restore, undo or redo a player made at the table, and what the table said."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["void", "restore", "undo", "redo"]
    deal: Count  # the deal's number at the table (a voided deal keeps its number)
    # A void's: checked as the store checks a reason (its limit, no control or bidi character).
    reason: Annotated[str, AfterValidator(reason_text)] | None = None
    state: Literal["provisional", "confirmed", "disputed"]
    by: Count  # the player who made it
    decided_by: Count | None = None  # who confirmed or rejected it
    taken_back: bool = False  # rejected, and taken back by the opposite action
    # A rejected change's reason, in the words of the player who rejected it (a file from
    # before the reasons has none).
    rejection: Annotated[str, AfterValidator(reason_text)] | None = None


class TableDispute(BaseModel):
    """A deal rejected at the table and not written again yet: who wrote it, who rejected it
    and why (issue #37)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deal: Count  # the deal's number at the table (a voided deal keeps its number)
    by: Count | None = None  # the player who wrote it (None: not said at the table)
    decided_by: Count  # the player who rejected it
    reason: Annotated[str, AfterValidator(reason_text)] | None = None


class TableSession(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    tour: Count
    table: Count
    session: Session
    changes: tuple[TableChange, ...] = ()
    disputes: tuple[TableDispute, ...] = ()


class ClubFile(Night):
    """The night and its tables' pulya sessions."""

    sessions: tuple[TableSession, ...] = Field(default=())


def dump_night(
    night: Night,
    sessions: Mapping[TableKey, Session] | None = None,
    changes: Mapping[TableKey, Sequence[TableChange]] | None = None,
    disputes: Mapping[TableKey, Sequence[TableDispute]] | None = None,
) -> str:
    """The club file of a night (canonical: keys in order, two-space indents); a table's
    ``changes`` and ``disputes`` are written only when it has some."""
    data = json.loads(night.model_dump_json())
    # A stable id is written where there is one (a night or a player from an older file has
    # none): the file of a night without ids reads and writes as before.
    if data.get("uid") is None:
        data.pop("uid", None)
    for p in data["players"]:
        if p.get("uid") is None:
            p.pop("uid", None)
    data["sessions"] = []
    for key, s in sorted((sessions or {}).items()):
        table: dict[str, Any] = {
            "tour": key[0],
            "table": key[1],
            "session": session_data(s),
        }
        made = (changes or {}).get(key)
        if made:
            table["changes"] = [c.model_dump(mode="json", exclude_none=True) for c in made]
        rejected = (disputes or {}).get(key)
        if rejected:
            table["disputes"] = [d.model_dump(mode="json", exclude_none=True) for d in rejected]
        data["sessions"].append(table)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def session_data(session: Session) -> Any:
    """A table's session as the club file holds it; its voided deals (``struck``, which the
    model leaves out) back in their places with their reasons, as a session file has them."""
    if session.struck or session.deal_uids:  # the model leaves both out: the file has them
        return json.loads(dump_session(session))
    return json.loads(session.model_dump_json(exclude_none=True))


#: A club file read and checked: the night, each table's session, each table's changes and
#: each table's disputed deals.
CheckedNight = tuple[
    Night,
    dict[TableKey, Session],
    dict[TableKey, tuple[TableChange, ...]],
    dict[TableKey, tuple[TableDispute, ...]],
]


def parse_night(text: str | bytes) -> CheckedNight:
    """A club file read and checked in full; a :class:`ClubError` names the first problem."""
    if len(text) > MAX_FILE:
        raise ClubError(msg(N_("a club file is at most {limit} MB"), limit=MAX_FILE >> 20))
    try:
        # json's own detection of the encoding (a BOM, UTF-16), then pydantic's parser, whose
        # depth is bounded: a file nested 100,000 deep is a sentence, not a RecursionError.
        if isinstance(text, bytes):
            text = text.decode(json.detect_encoding(text))
        data = from_json(text)
    except UnicodeDecodeError:
        raise ClubError(msg(N_("this is not a club file: it is not JSON"))) from None
    except ValueError as exc:
        if TOO_DEEP.fullmatch(str(exc)):
            raise ClubError(not_json(str(exc))) from None
        raise ClubError(msg(N_("this is not a club file: it is not JSON"))) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ClubError(
            msg(N_("this is not a club file: its format is not {format}"), format=FORMAT)
        )
    try:
        f = ClubFile.model_validate(data)
    except ValidationError as exc:
        raise refused(exc, msg(N_("the club file"))) from None
    night = Night.model_validate(f.model_dump(exclude={"sessions"}))
    sessions = {(s.tour, s.table): s.session for s in f.sessions}
    changes = {(s.tour, s.table): s.changes for s in f.sessions if s.changes}
    disputes = {(s.tour, s.table): s.disputes for s in f.sessions if s.disputes}
    verify_night(night, sessions)
    for (tour, table), made in changes.items():
        _verify_changes(night, tour, table, sessions[(tour, table)], made)
    for (tour, table), rejected in disputes.items():
        _verify_disputes(night, tour, table, sessions[(tour, table)], rejected)
    return night, sessions, changes, disputes


def _verify_changes(
    night: Night, tour: int, table: int, session: Session, changes: Sequence[TableChange]
) -> None:
    """A table's changes: made and decided by its players (never the same one), each on a deal
    the table wrote, a void with its reason."""
    players = night.tour(tour).table(table).players
    written = len(session.deals) + len(session.struck)
    for k, c in enumerate(changes, start=1):
        where = {"tour": tour, "table": table, "number": k}
        if c.by not in players or (c.decided_by is not None and c.decided_by not in players):
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: change {number} names a player of another table"
                    ),
                    **where,
                )
            )
        if c.decided_by == c.by or (c.state == "provisional") != (c.decided_by is None):
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: change {number} is decided by another player, once"
                    ),
                    **where,
                )
            )
        if c.rejection is not None and c.state != "disputed":
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: change {number} has a rejection's reason but was not rejected"
                    ),
                    **where,
                )
            )
        if c.deal > written or (c.kind == "void") != bool(c.reason):
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: change {number} names no deal of the table, or a void lacks its reason"
                    ),
                    **where,
                )
            )


def _verify_disputes(
    night: Night, tour: int, table: int, session: Session, disputes: Sequence[TableDispute]
) -> None:
    """A table's disputed deals: each a deal the table counts (not a voided one), once, written
    and rejected by two players of that table."""
    players = night.tour(tour).table(table).players
    live = {place + 1 for place in session.places}  # the numbers said at the table
    seen: set[int] = set()
    for d in disputes:
        where = {"tour": tour, "table": table, "number": d.deal}
        if d.deal not in live or d.deal in seen:
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: the disputed deal {number} is not a deal the table counts, once"
                    ),
                    **where,
                )
            )
        seen.add(d.deal)
        if (
            d.decided_by not in players
            or d.by == d.decided_by
            or (d.by is not None and d.by not in players)
        ):
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table}: deal {number} is rejected by another player of the table than its writer"
                    ),
                    **where,
                )
            )


def verify_night(night: Night, sessions: Mapping[TableKey, Session]) -> None:
    """Everything a club file must agree with (see the module's note)."""
    try:  # every table's session is made with them: a bad one is refused before any write
        settings_for(night.convention, night.settings)
    except ConventionError as exc:
        raise ClubError(
            msg(N_("the club file's settings are refused: {problem}"), problem=exc.message)
        ) from None
    numbers = [p.number for p in night.players]
    if len(set(numbers)) != len(numbers):
        raise ClubError(msg(N_("the club file gives one number to two players")))
    keys = [look_alike(p.name) for p in night.players if p.last_tour is None]
    if len(set(keys)) != len(keys):
        raise ClubError(msg(N_("the club file checks one player in twice")))
    for i, t in enumerate(night.drawn, start=1):
        if t.number != i:
            raise ClubError(msg(N_("the club file's tours are not numbered 1, 2, …")))
        if t.number > night.tours:
            raise ClubError(msg(N_("the club file has more tours than the night")))
        if t.state != "ended" and i < len(night.drawn):
            raise ClubError(
                msg(N_("tour {tour} is drawn after a tour that has not ended"), tour=i + 1)
            )
        seen: set[int] = set()
        for who in [n for tab in t.tables for n in tab.players] + list(t.byes):
            if who in seen or who not in numbers or not night.player(who).plays(t.number):
                raise ClubError(
                    msg(
                        N_("tour {tour}: number {number} is not one player of the tour, once"),
                        tour=t.number,
                        number=who,
                    )
                )
            seen.add(who)
        for tab in t.tables:
            _verify_table(night, t.number, tab.number, sessions.get((t.number, tab.number)))
    for tour, table in sessions:
        night.tour(tour).table(table)  # a session of a table that is not there


def _verify_table(night: Night, tour: int, table: int, session: Session | None) -> None:
    tab = night.tour(tour).table(table)
    where = {"tour": tour, "table": table}
    if tab.whists is None:
        if session is not None and session.deals:
            raise ClubError(msg(N_("tour {tour}, table {table}: deals but no whists"), **where))
        return
    if set(tab.whists) != set(tab.players):
        raise ClubError(
            msg(
                N_("tour {tour}, table {table}: the whists name other players than the table"),
                **where,
            )
        )
    total = normal(sum(tab.whists.values(), start=0))
    if total != 0:
        raise ClubError(
            msg(
                N_("tour {tour}, table {table} does not add up: its whists sum to {total}, not 0"),
                total=to_json(total),
                **where,
            )
        )
    if session is None:
        raise ClubError(msg(N_("tour {tour}, table {table}: whists but no deals"), **where))
    names = [night.name_of(n) for n in tab.players]
    if list(session.players) != names:
        raise ClubError(
            msg(
                N_("tour {tour}, table {table}: the session's players are not the table's"), **where
            )
        )
    try:
        scored = replay(session, explain=False)
    except SessionInvalid as exc:
        raise ClubError(
            msg(
                N_("tour {tour}, table {table}: {problem}"),
                problem=exc.problems[0].sentence(),
                **where,
            )
        ) from None
    got = balances(scored.sheet, scored.settings)
    for seat, n in enumerate(tab.players):
        if got[seat] != tab.whists[n]:
            raise ClubError(
                msg(
                    N_(
                        "tour {tour}, table {table} does not add up: {name} has {whists} whists in the file, the deals give {deals}"
                    ),
                    name=names[seat],
                    whists=to_json(tab.whists[n]),
                    deals=to_json(got[seat]),
                    **where,
                )
            )
