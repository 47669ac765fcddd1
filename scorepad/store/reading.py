"""Reading a stored session: its rows, its journal, and the replay of its sheet (every family,
through its engine: :mod:`scorepad.scoring.family`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from ..core.i18n import N_, Msg, msg
from ..scoring.family import NAMES, Family, family
from ..scoring.ledger.families import AnySession, FamilyScored, FamilySettings
from ..scoring.pulya.convention import ConventionError, Settings
from ..scoring.pulya.score import Scored
from ..scoring.pulya.session import FORMAT, Session, SessionInvalid, Struck, quote
from .errors import NotFound, StoreError, damaged_session
from .journal import Action, Journal, JournalError, Live, check_action
from .schema import Connection


@dataclass(frozen=True, slots=True)
class SessionSummary:
    id: int
    players: list[str]
    convention: str
    pool_target: int
    created_at: str
    finished_at: str | None
    revision: int
    deals: int
    family: str = "pulya"
    damage: Msg | None = None  # why the row is damaged (a hand-edited file): listed, not read


SessionT = TypeVar("SessionT")
SettingsT = TypeVar("SettingsT")
ScoredT = TypeVar("ScoredT")


@dataclass(frozen=True, slots=True)
class Stored(Generic[SessionT, SettingsT, ScoredT]):
    """A stored session as it stands, of any family: its file form, the settings it is scored by,
    its journal and its scored sheet or ledger (its family's own: ``engine`` says what differs).

    One view for every family, the pulya too; a part that knows its family names the types
    (``PulyaStored``, ``LedgerStored``), the others ask ``engine`` instead of the view's type."""

    id: int
    family: str
    session: SessionT
    settings: SettingsT
    journal: Journal
    scored: ScoredT
    created_at: str
    finished_at: str | None

    @property
    def revision(self) -> int:
        return self.journal.revision

    @property
    def engine(self) -> Family:
        """The session's family, as the engine offers it (loaded when first asked)."""
        return family(self.family)


#: A pulya session as it stands (what the pulya's own parts read).
PulyaStored = Stored[Session, Settings, Scored]
#: A session of a ledger family (bula, kassa, pot, direct) as it stands.
LedgerStored = Stored[AnySession, FamilySettings, FamilyScored]
#: A session of whatever family (the store's answer; the family's parts read it through
#: ``engine`` or name their own types above).
AnyStored = Stored[Any, Any, Any]


class _RowInvalid(Exception):
    """A stored row that does not pass the checks: only a damaged or hand-edited file has one."""

    def __init__(self, detail: Msg, seq: int | None = None) -> None:
        self.detail = detail
        self.seq = seq
        super().__init__(detail.render())


def _detail(text: str) -> Msg:
    return Msg("{detail}", {"detail": quote(text, 60)})


def _stored_deal(text: str, name: str = "pulya") -> Any:
    """A stored deal, as the journal keeps it; a row that no longer parses is damage, in words."""
    try:
        return family(name).deal_adapter().validate_json(text)
    except ValidationError as exc:
        raise _RowInvalid(_detail(str(exc.errors()[0]["msg"]))) from None


def _players(text: str) -> list[str]:
    """The players of a stored session: a JSON list of names, else the row is damaged."""
    try:
        players = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise _RowInvalid(_detail(f"players: {exc}")) from None
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _RowInvalid(_detail("players: not a list of names"))
    return players


def _frozen_settings(text: str) -> dict[str, Any]:
    try:
        frozen = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise _RowInvalid(_detail(f"settings: {exc}")) from None
    if not isinstance(frozen, dict):
        raise _RowInvalid(_detail("settings: not an object"))
    return frozen


def _stored_session(row: dict[str, Any], journal: Journal) -> tuple[Any, Any]:
    """The stored session as its file and the settings it is scored by, by its family's engine:
    the live deals, and each voided one in its place (its number and its dealer are the
    file's: docs/session-format.md, "Voided deals")."""
    data = {
        "format": FORMAT,
        "players": _players(row["players"]),
        "convention": row["convention"],
        "overrides": _export_overrides(row),
        "pool_target": row["pool_target"],
        "first_dealer": row["first_dealer"],
        "whist_price": row["whist_price"],
        "currency": row["currency"],
    }
    struck = tuple(
        Struck[Any](place=place, reason=_struck_reason(entry), deal=entry.deal)
        for place, entry in enumerate(journal.entries.values())
        if entry.voided
    )
    try:
        return family(row["family"]).stored_session(data, row["settings"], journal.deals, struck)
    except ValidationError as exc:
        # Only a damaged or hand-edited row fails here: everything written was checked first.
        raise _RowInvalid(_detail(str(exc.errors()[0]["msg"]))) from None
    except SessionInvalid as exc:
        raise _RowInvalid(exc.problems[0].sentence()) from None


def _struck_reason(entry: Any) -> str:
    """Why the deal was voided (the last void in effect; a void always has its reason)."""
    voids = [a.reason for a in entry.revisions if a.kind == "void" and a.reason]
    return voids[-1] if voids else "-"


def _deal_json(deal: Any) -> Any:
    return deal.model_dump(mode="json", exclude_defaults=True)


def _export_overrides(row: dict[str, Any]) -> dict[str, Any]:
    """The frozen settings, written as overrides of today's preset, so the file scores the same."""
    frozen = _frozen_settings(row["settings"])
    try:
        preset = family(row["family"]).preset_settings(row["convention"])
    except ConventionError:
        return frozen  # the preset is gone: every setting is an override
    if preset is None:
        return frozen
    return {k: v for k, v in frozen.items() if preset.get(k) != v}


def _summary(r: Any) -> SessionSummary:
    """A row of the session list; a damaged one is listed with its damage, the others as usual."""
    try:
        players = _players(r[1])
    except _RowInvalid as exc:
        return SessionSummary(r[0], [], str(r[2]), 0, str(r[4]), None, 0, 0, str(r[8]), exc.detail)
    return SessionSummary(r[0], players, r[2], r[3], r[4], r[5], r[6], r[7], r[8])


class Reading(Connection):
    def players(self) -> list[str]:
        with self._reading():
            return [
                r["name"]
                for r in self.backend.query(
                    "SELECT name FROM players WHERE merged_into IS NULL ORDER BY name COLLATE NOCASE"
                )
            ]

    def sessions(self, *, include_deleted: bool = False) -> list[SessionSummary]:
        """Every session, newest first."""
        where = "" if include_deleted else "WHERE deleted_at IS NULL"
        with self._reading():
            rows = self.backend.execute(
                "SELECT id, players, convention, pool_target, created_at, finished_at, revision, "
                f"deals, family FROM sessions {where} ORDER BY id DESC"
            ).fetchall()
        return [_summary(r) for r in rows]

    @contextmanager
    def _session_rows(self, sid: int) -> Iterator[None]:
        """Whatever a session's rows fail on is damage of that session, said in one sentence
        naming the database, the session and the action; its other sessions stay readable."""
        try:
            yield
        except StoreError:
            raise
        except _RowInvalid as exc:
            raise damaged_session(self.path, sid, exc.detail, exc.seq) from None
        except JournalError as exc:
            raise damaged_session(self.path, sid, exc.message) from None
        except SessionInvalid as exc:
            raise damaged_session(self.path, sid, exc.problems[0].sentence()) from None
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
            raise damaged_session(self.path, sid, _detail(str(exc) or type(exc).__name__)) from None

    def _row(self, sid: int) -> dict[str, Any]:
        with self._reading():
            rows = list(self.backend.query("SELECT * FROM sessions WHERE id = ?", [sid]))
        if not rows:
            raise NotFound(msg(N_("there is no session {id}"), id=sid))
        row = rows[0]
        if row["family"] not in NAMES:
            raise damaged_session(self.path, sid, _detail(f"family: {row['family']!r}"))
        if not isinstance(row["revision"], int):
            raise damaged_session(self.path, sid, _detail(f"revision: {row['revision']!r}"))
        return row

    def _actions(self, sid: int, family: str) -> list[Action]:
        out = []
        with self._reading():
            rows = self.backend.execute(
                "SELECT seq, kind, at, deal_id, deal, reason, target FROM actions "
                "WHERE session_id = ? ORDER BY seq",
                (sid,),
            ).fetchall()
        with self._session_rows(sid):
            for r in rows:
                try:
                    deal = _stored_deal(r[4], family) if r[4] is not None else None
                    action = Action(r[0], r[1], r[2], r[3], deal, r[5], r[6])
                    check_action(action)
                except (_RowInvalid, JournalError) as exc:
                    detail = exc.detail if isinstance(exc, _RowInvalid) else exc.message
                    raise _RowInvalid(detail, r[0]) from None
                out.append(action)
        return out

    def _journal(self, sid: int, actions: list[Action]) -> Journal:
        """The journal the actions add up to; an action it cannot take is damage, named."""
        j = Journal()
        for a in actions:
            try:
                j.apply(a)
            except JournalError as exc:
                raise damaged_session(self.path, sid, exc.message, a.seq) from None
        return j

    def family(self, sid: int) -> str:
        """The session's scoring family: ``pulya``, ``bula``, ``kassa``, ``pot`` or ``direct``."""
        return str(self._row(sid)["family"])

    def load(self, sid: int) -> AnyStored:
        """Session ``sid`` as it stands, whatever its family (the view says which)."""
        row = self._row(sid)
        live = self._live.get(sid)
        if live is None or live.revision != row["revision"]:
            journal = self._journal(sid, self._actions(sid, row["family"]))
            with self._session_rows(sid):
                live = self._replay(row, journal)
        with self._session_rows(sid):
            return self._stored(row, live)

    def _replay(self, row: dict[str, Any], journal: Journal) -> Live:
        """Replay the whole session (and keep it for the next added deal)."""
        session, settings = _stored_session(row, journal)
        live = Live(journal.revision, journal, family(row["family"]).start(session, settings))
        self._live[row["id"]] = live
        return live

    def _stored(self, row: dict[str, Any], live: Live) -> AnyStored:
        scored = live.replay.result()
        return Stored(
            row["id"],
            row["family"],
            scored.session,
            scored.settings,
            live.journal,
            scored,
            row["created_at"],
            row["finished_at"],
        )

    def history(self, sid: int) -> list[Action]:
        actions = self._actions(sid, self._row(sid)["family"])
        self._journal(sid, actions)  # an action the journal cannot take is said, not shown
        return actions
