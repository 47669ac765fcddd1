"""Club nights as a league receives them (issue #39): whole ``scorepad-club/1`` documents, each
table a real pulya of random legal deals (the engine checks them), built in memory and read back
by the club file's own reader, so the season reads exactly what a club publishes."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from collections.abc import Sequence

from scorepad.club.draw import draw
from scorepad.club.file import dump_night
from scorepad.club.night import Night
from scorepad.club.scoring import Scoring, Whists
from scorepad.league.nights import PublishedNight
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import Session
from scorepad.scoring.pulya.settlement import balances
from scorepad.testing.generate import RandomChooser, random_session


def club_night(
    players: Sequence[tuple[str, str]],
    *,
    date: dt.date,
    seed: int,
    tours: int = 2,
    deals: int = 3,
    name: str = "Friday",
    scoring: Scoring | None = None,
    uid: str | None = None,
) -> str:
    """The club file of an ended night: ``players`` (name, uid) checked in, ``tours`` tours
    drawn and played to ``deals`` random deals a table, every tour ended."""
    n = Night(
        name=name,
        date=date,
        convention="sochi",
        deals_per_tour=deals,
        tours=tours,
        seed=seed,
        scoring=scoring or Whists(),
        uid=uid or uid_of(f"night-{name}-{date}-{seed}"),
    )
    for who, _ in players:
        n = n.check_in(who)
    ids = dict(players)
    n = n.model_copy(
        update={"players": tuple(p.model_copy(update={"uid": ids[p.name]}) for p in n.players)}
    )
    chooser = RandomChooser(seed)
    sessions: dict[tuple[int, int], Session] = {}
    for t in range(1, tours + 1):
        n, _ = draw(n)
        for tab in n.drawn[-1].tables:
            data = random_session(chooser, players=len(tab.players), deals=deals, corrections=False)
            data["players"] = [n.name_of(p) for p in tab.players]
            s = Session.model_validate(data)
            scored = replay(s)
            got = balances(scored.sheet, scored.settings)
            n = n.with_whists(t, tab.number, dict(zip(tab.players, got, strict=True)))
            sessions[(t, tab.number)] = s
        n = n.end(t)
    return dump_night(n, sessions)


def published(club: str, document: str, *, version: int = 1) -> PublishedNight:
    """A night as the league's store holds it (what ``LeagueStore.nights()`` gives)."""
    from scorepad.club.file import parse_night

    night = parse_night(document)[0]
    assert night.uid is not None
    return PublishedNight(
        club=club,
        night=night.uid,
        version=version,
        document=document,
        digest=hashlib.sha256(document.encode()).hexdigest(),
        published_at="2026-12-31T00:00:00.000+00:00",
        change=None if version == 1 else "a correction",
    )


def roster_names(prefix: str, n: int) -> list[tuple[str, str]]:
    """``n`` players of a club: names and uids."""
    return [(f"{prefix} {i}", uid_of(f"{prefix}-{i}")) for i in range(1, n + 1)]


def uid_of(text: str) -> str:
    """A stable id made from a text: the same text, the same id."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"scorepad-test/{text}"))
