"""The league's season (issue #39, item 3): standings per club and across the league, and one
OpenSkill rating for every player wherever he played, computed from the clubs' published nights.

Pure: everything here is a function of the nights (:class:`~.nights.PublishedNight`, or the
clubs' own files: :func:`recompute_from_files`) and the league's links (:class:`~.players.Roster`),
so the league's figures can be recomputed from the clubs' files by anyone and compared.

- **Who.** A club's player linked to a league player counts as that league player (after merges:
  a merge adds the two records up, a split gives each his own back).  A player not linked yet
  counts as himself in his club only (``club/uid``): his record is whole, and moves to his league
  player the moment he is linked.
- **The order played.** The nights by their date, then the club's id, then the night's uid: an
  order the documents alone fix (two clubs' nights of one evening are rated in the same order by
  the league and by a recomputation from the files, whatever order they were published in).  A
  night's tours in order; the tables of one tour are simultaneous (a player sits at one).
- **Standings**, as the club's standings count them (:func:`scorepad.club.standings.standings`):
  a night a player sat at a table counts as played, with his night's points (his tour points,
  byes included), his whists and his place in the night; the league's are the clubs' summed.
  Ranked by points, then whists, then more nights, then name.
- **Ratings**: the players' model (:mod:`scorepad.players.rating`: OpenSkill's Plackett-Luce with
  its defaults, ``tau=0``), each table of each tour one game, its players ranked by their whists
  there (equal whists a tie); shown as μ − 3σ after :data:`~scorepad.players.rating.MIN_GAMES`
  tables.  A table where one league player holds two seats (two club players linked to him, or a
  merge of two who sat together) is not rated and is said (:attr:`Season.conflicts`): a merge
  there is a mistake the operator splits again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from ..club.file import parse_night
from ..club.night import Night, Player
from ..club.standings import standings
from ..core.i18n import N_, Msg, msg, nmsg
from ..core.numbers import Number, normal, signed, whist_figure
from ..players.rating import MODEL, Shown, ranks
from ..scoring.pulya.session import look_alike
from .nights import PublishedNight
from .players import Roster
from .store import LeagueStore

if TYPE_CHECKING:
    from ..store import Store


@dataclass(frozen=True, slots=True)
class NightRef:
    """One night of the season: whose, which, its name and date."""

    club: str
    night: str  # the night's uid
    name: str
    date: dt.date


@dataclass(frozen=True, slots=True)
class NightLine:
    """One player's night: where, his place (of how many), points, whists, rating after it."""

    night: NightRef
    player: str  # his uid in the club (or his name's key, in a night without uids)
    name: str  # the name he played under there
    place: int
    of: int
    points: Number
    whists: Number
    tables: int
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class Row:
    """A player's line in a table of standings."""

    rank: int
    who: str
    name: str
    nights: int
    points: Number
    whists: Number
    places: tuple[int, ...]  # his place in each night, in the order played

    @property
    def wins(self) -> int:
        return sum(1 for p in self.places if p == 1)

    @property
    def mean_place(self) -> Number:
        return normal(Fraction(sum(self.places), len(self.places))) if self.places else 0

    @property
    def key(self) -> tuple[Number, Number, int]:
        return (self.points, self.whists, self.nights)


@dataclass(frozen=True, slots=True)
class LeagueRating(Shown):
    who: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class Conflict:
    """A table not rated: one league player holds two of its seats."""

    night: NightRef
    tour: int
    table: int
    who: str


@dataclass(frozen=True)
class Season:
    nights: tuple[NightRef, ...]
    league: tuple[Row, ...]
    clubs: dict[str, tuple[Row, ...]]
    ratings: dict[str, LeagueRating]
    lines: dict[str, tuple[NightLine, ...]]  # each player's nights, in the order played
    names: dict[str, str]
    conflicts: tuple[Conflict, ...] = field(default=())

    def rating_table(self) -> list[LeagueRating]:
        """Shown ratings first, best first; then the rest by games."""
        return sorted(
            self.ratings.values(),
            key=lambda r: (not r.shown, -r.ordinal if r.shown else -r.games, self.names[r.who]),
        )

    def clubs_of(self, who: str) -> list[tuple[str, int]]:
        """The clubs a player played in and how many nights in each, most first."""
        count: dict[str, int] = {}
        for x in self.lines.get(who, ()):
            count[x.night.club] = count.get(x.night.club, 0) + 1
        return sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))


def local_id(club: str, p: Player) -> str:
    """A club player's own id there: his uid, or (a night without uids) his name's key."""
    return p.uid or f"name:{look_alike(p.name)}"


def who(club: str, p: Player, roster: Roster) -> str:
    """The league player he counts as: his link, or himself in his club (``club/id``)."""
    mine = local_id(club, p)
    return roster.links.get((club, mine)) or f"{club}/{mine}"


#: A night read: its club, and the night (checked in full by the club file's reader).
ClubNight = tuple[str, Night]


def current(nights: Iterable[PublishedNight]) -> list[PublishedNight]:
    """The latest version of each club's night (a correction replaces its earlier version)."""
    last: dict[tuple[str, str], PublishedNight] = {}
    for n in nights:
        key = (n.club, n.night)
        if key not in last or n.version > last[key].version:
            last[key] = n
    return list(last.values())


def in_order(nights: Iterable[ClubNight]) -> list[ClubNight]:
    """The order played (see the module's note)."""
    return sorted(nights, key=lambda cn: (cn[1].date, cn[0], cn[1].uid or "", cn[1].name))


#: Nights read and checked, by their documents' digests: a page drawn again, or the season
#: after one more night, reads only what is new (a night is checked in full, its deals replayed).
_READ: dict[str, Night] = {}
MAX_READ = 4096


def read_night(n: PublishedNight) -> Night:
    """A published night read and checked (kept by its digest; the same document, the same night)."""
    # Keyed by the document's own hash, not by the digest it came with: what is read is what
    # is kept.
    key = hashlib.sha256(n.document.encode()).hexdigest()
    night = _READ.get(key)
    if night is None:
        night = parse_night(n.document)[0]
        if len(_READ) >= MAX_READ:
            _READ.clear()
        _READ[key] = night
    return night


def season(nights: Sequence[PublishedNight], roster: Roster) -> Season:
    """The season of the league's published nights (their current versions)."""
    return season_of([(n.club, read_night(n)) for n in current(nights)], roster)


def recompute_from_files(files: Mapping[str, Sequence[Path | str]], roster: Roster) -> Season:
    """The season recomputed from the clubs' own files (``scorepad club export``), club id ->
    its files: what the league's figures must equal (issue #39's acceptance)."""
    read = [
        (club, parse_night(Path(path).read_bytes())[0])
        for club, paths in files.items()
        for path in paths
    ]
    return season_of(read, roster)


def season_of(nights: Iterable[ClubNight], roster: Roster) -> Season:
    ordered = in_order(nights)
    refs: list[NightRef] = []
    lines: dict[str, list[NightLine]] = {}
    names: dict[str, str] = dict(roster.names)
    state: dict[str, tuple[float, float, int]] = {}
    conflicts: list[Conflict] = []
    for club, night in ordered:
        ref = NightRef(club, night.uid or "", night.name, night.date)
        refs.append(ref)
        ids = {p.number: who(club, p, roster) for p in night.players}
        for p in night.players:
            names.setdefault(ids[p.number], p.name)
        tables: dict[int, int] = {}
        for t in night.drawn:
            if t.state != "ended":
                continue
            for tab in t.tables:
                if tab.whists is None:
                    continue
                seats = [ids[n] for n in tab.players]
                for n in tab.players:
                    tables[n] = tables.get(n, 0) + 1
                if len(set(seats)) != len(seats):
                    twice = next(x for x in seats if seats.count(x) > 1)
                    conflicts.append(Conflict(ref, t.number, tab.number, twice))
                    continue
                teams = []
                for seat in seats:
                    mu, sigma, _ = state.get(seat, (MODEL.mu, MODEL.sigma, 0))
                    teams.append([MODEL.rating(mu=mu, sigma=sigma)])
                order = ranks(tab.whists[n] for n in tab.players)
                new = MODEL.rate(teams, ranks=[float(x) for x in order])
                for seat, [r] in zip(seats, new, strict=True):
                    state[seat] = (r.mu, r.sigma, state.get(seat, (0.0, 0.0, 0))[2] + 1)
        rows = standings(night)
        played = [s for s in rows if s.played]
        for s in played:
            w = ids[s.number]
            mu, sigma, _ = state.get(w, (MODEL.mu, MODEL.sigma, 0))
            lines.setdefault(w, []).append(
                NightLine(
                    ref,
                    local_id(club, night.player(s.number)),
                    s.name,
                    s.rank,
                    len(rows),
                    s.points,
                    s.whists,
                    tables.get(s.number, 0),
                    mu,
                    sigma,
                )
            )
    clubs = sorted({club for club, _ in ordered})
    return Season(
        nights=tuple(refs),
        league=table_of(lines, names),
        clubs={c: table_of(lines, names, club=c) for c in clubs},
        ratings={w: LeagueRating(w, mu, sigma, g) for w, (mu, sigma, g) in state.items()},
        lines={w: tuple(x) for w, x in lines.items()},
        names={w: names[w] for w in lines},
        conflicts=tuple(conflicts),
    )


def table_of(
    lines: Mapping[str, Sequence[NightLine]], names: Mapping[str, str], *, club: str | None = None
) -> tuple[Row, ...]:
    """The standings of the league (or of one club): points, then whists, then nights."""
    rows = []
    for w, mine in lines.items():
        got = [x for x in mine if club is None or x.night.club == club]
        if not got:
            continue
        rows.append(
            Row(
                0,
                w,
                names[w],
                len(got),
                normal(sum((x.points for x in got), start=0)),
                normal(sum((x.whists for x in got), start=0)),
                tuple(x.place for x in got),
            )
        )
    rows.sort(key=lambda r: (tuple(-v for v in r.key), r.name, r.who))
    ranked: list[Row] = []
    for i, r in enumerate(rows):
        rank = ranked[-1].rank if ranked and ranked[-1].key == r.key else i + 1
        ranked.append(Row(rank, r.who, r.name, r.nights, r.points, r.whists, r.places))
    return tuple(ranked)


def differences(league: Season, files: Season) -> list[str]:
    """Where two seasons differ (the league's, one recomputed from the files), in plain words
    for a test's failure: the nights, each table's rows, each rating; empty when they agree."""
    out: list[str] = []
    if league.nights != files.nights:
        out.append(f"nights: {len(league.nights)} in the league, {len(files.nights)} in the files")
    for name, a, b in [("league", league.league, files.league)] + [
        (f"club {c}", league.clubs.get(c, ()), files.clubs.get(c, ()))
        for c in sorted({*league.clubs, *files.clubs})
    ]:
        for x, y in zip(a, b, strict=False):
            if x != y:
                out.append(f"{name}: {x} in the league, {y} in the files")
        if len(a) != len(b):
            out.append(f"{name}: {len(a)} rows in the league, {len(b)} in the files")
    for who in sorted({*league.ratings, *files.ratings}):
        mine, theirs = league.ratings.get(who), files.ratings.get(who)
        if mine != theirs:
            out.append(f"rating of {who}: {mine} in the league, {theirs} in the files")
    if not out and league != files:
        out.append("the players' nights or names differ")
    return out


# --- the league's store (the one read that is not pure) ---------------------------------------


def store_nights(store: Store) -> list[PublishedNight]:
    """The current versions of the league's published nights."""
    return LeagueStore(store).nights(current=True)


def league_season(store: Store) -> Season:
    """The league's season as its database holds it: its published nights and its links (what
    :func:`recompute_from_files` must equal)."""
    from .players import LeaguePlayers

    return season(store_nights(store), LeaguePlayers(store).roster())


def club_names(store: Store | None) -> dict[str, str]:
    """Each club's name as the league's store knows it (a club without one shows its id)."""
    return {} if store is None else {c.id: c.name for c in LeagueStore(store).clubs()}


# --- in words (the CLI, the pages and the PDF say the same sentences) ---------------------------


def rating_figure(r: LeagueRating | None) -> str:
    """μ − 3σ to one decimal once shown; a dash before :data:`~scorepad.players.rating.MIN_GAMES` tables."""
    # The typographer's minus, as every other figure of the app (core.numbers.signed).
    return f"{r.ordinal:.1f}".replace("-", "−") if r is not None and r.shown else "—"


def row_line(row: Row, rating: LeagueRating | None) -> Msg:
    """ "1. Anna: 3 nights, points 12, whists +40, first in 1; rating 18.3"."""
    args = {
        "rank": row.rank,
        "name": row.name,
        "points": whist_figure(row.points),
        "whists": signed(row.whists),
        "wins": row.wins,
    }
    if rating is not None and rating.shown:
        return nmsg(
            "{rank}. {name}: {n} night, points {points}, whists {whists}, first in {wins}; rating {rating}",
            "{rank}. {name}: {n} nights, points {points}, whists {whists}, first in {wins}; rating {rating}",
            row.nights,
            rating=rating_figure(rating),
            **args,
        )
    return nmsg(
        "{rank}. {name}: {n} night, points {points}, whists {whists}, first in {wins}",
        "{rank}. {name}: {n} nights, points {points}, whists {whists}, first in {wins}",
        row.nights,
        **args,
    )


def heading(s: Season, club: str | None = None, clubs: Mapping[str, str] | None = None) -> Msg:
    """The title of a table: the league's, or one club's, with how many nights it counts."""
    if club is None and len(s.clubs) == 1:  # "of 1 clubs" in English otherwise
        return nmsg(
            "The league's standings: {n} night of one club",
            "The league's standings: {n} nights of one club",
            len(s.nights),
        )
    if club is None:
        return nmsg(
            "The league's standings: {n} night of {clubs} clubs",
            "The league's standings: {n} nights of {clubs} clubs",
            len(s.nights),
            clubs=len(s.clubs),
        )
    return nmsg(
        "Standings of the club {club}: {n} night",
        "Standings of the club {club}: {n} nights",
        sum(1 for x in s.nights if x.club == club),
        club=(clubs or {}).get(club, club),
    )


def night_line(x: NightLine, clubs: Mapping[str, str] | None = None) -> Msg:
    """One night of a player's page."""
    return msg(
        N_("{date}, {night} ({club}): place {place} of {of}, points {points}, whists {whists}"),
        date=x.night.date.isoformat(),
        night=x.night.name,
        club=(clubs or {}).get(x.night.club, x.night.club),
        place=x.place,
        of=x.of,
        points=whist_figure(x.points),
        whists=signed(x.whists),
    )


__all__ = [
    "Conflict",
    "LeagueRating",
    "NightLine",
    "NightRef",
    "Row",
    "Season",
    "club_names",
    "current",
    "differences",
    "heading",
    "in_order",
    "league_season",
    "night_line",
    "rating_figure",
    "read_night",
    "recompute_from_files",
    "row_line",
    "season",
    "season_of",
    "store_nights",
    "table_of",
]
