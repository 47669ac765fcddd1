"""A league's players: stable ids, the links from the clubs' players, claims, merges and splits.

- A **league player** has a stable id of his own (a uid) and a name.
- A club's player (his ``uid`` in the club's published night, :mod:`.nights`) is **linked** to a
  league player once: by the player's own **claim** (a code the club's director gives him, typed
  on his phone; the phone then keeps a secret that says "this is me" for his next club's code),
  or by the league's **operator**.  A link is never changed: the database refuses it.
- The roster's **look-alike check** (:func:`scorepad.scoring.pulya.session.look_alike`) runs over
  the whole league: a new league player whose name looks like another league player's (or like a
  name one of them plays under in a club) is refused, and so is a link of a club's name that
  looks like another league player's.
- Two league players found to be one person are **merged**; a merge taken back is a **split**.
  Both are records (never a delete or an update): the links stay with the league player they were
  made to, so a split gives back exactly what each had.

The season (:mod:`.season`) reads the links through :meth:`LeaguePlayers.roster`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from ..core.i18n import N_, msg
from ..scoring.pulya.session import FieldRefused, clean_text, look_alike, player_name
from ..store import Store, StoreError, now
from ..store.schema import new_uid

LinkedBy = Literal["claim", "operator"]
#: A claim code's letters: no 0/O, 1/I/L to misread from a director's screen or paper.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: 12 letters of 31: about 59 bits, far beyond guessing at any rate a server answers.
CODE_LENGTH = 12
MAX_REASON = 500


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _code_key(code: str) -> str:
    """The stored form of a claim code: as typed, without dashes, spaces or case."""
    return _hash("".join(ch for ch in code.upper() if ch.isalnum()))


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def _reason(reason: str, needed: str) -> str:
    try:
        why = clean_text((reason or "").strip(), "reason", limit=MAX_REASON)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    if not why:
        raise StoreError(msg(needed))
    return why


def _name(name: str) -> str:
    try:
        return player_name(name)
    except FieldRefused as exc:
        raise StoreError(exc.message) from None
    except ValueError:
        raise StoreError(msg(N_("a player name must not be empty"))) from None


@dataclass(frozen=True, slots=True)
class Link:
    """A club's player (``club``, his ``player`` uid there, the ``name`` he plays under) linked
    to a league player."""

    club: str
    player: str
    name: str
    league_player: str  # the league player's uid the link was made to
    by: LinkedBy
    at: str


@dataclass(frozen=True, slots=True)
class LeaguePlayer:
    uid: str
    name: str
    created_at: str
    #: The league player he is merged into now (his uid), or None.
    merged_into: str | None
    #: The links made to him (not those of the players merged into him).
    links: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class MergeRecord:
    id: int
    kind: Literal["merge", "split"]
    player: str  # uid of the league player merged away (or split off again)
    into: str | None  # a merge's target
    undoes: int | None  # a split: the merge it takes back
    reason: str
    at: str


@dataclass(frozen=True, slots=True)
class Roster:
    """What the season needs: each linked club player's league player *now* (after merges),
    and each league player's name."""

    links: dict[tuple[str, str], str]  # (club, club player uid) -> league player uid
    names: dict[str, str]  # league player uid -> name


@dataclass(frozen=True, slots=True)
class Claimed:
    """A claim made: the league player, and the secret his phone keeps (shown once)."""

    player: str
    name: str
    secret: str


class LeaguePlayers:
    """The league's players in a :class:`~scorepad.store.Store` (SQLite file or PostgreSQL), which
    it uses and does not close; the tables are the schema's (migration 11)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.backend = store.backend

    @contextmanager
    def _write(self) -> Iterator[None]:
        with self.store._write():
            yield

    # --- reading ---------------------------------------------------------------------------

    def _rows(self) -> tuple[dict[int, dict[str, object]], list[dict[str, object]]]:
        players = {
            int(r["id"]): r
            for r in self.backend.query(
                "SELECT id, uid, name, created_at FROM league_players ORDER BY id"
            )
        }
        merges = self.backend.query(
            "SELECT id, kind, player, into_player, undoes, reason, at FROM league_merges "
            "ORDER BY id"
        )
        return players, merges

    @staticmethod
    def _merged(merges: list[dict[str, object]]) -> dict[int, int]:
        """Each league player merged away now -> the one he is merged into (one step)."""
        undone = {int(str(m["undoes"])) for m in merges if m["kind"] == "split"}
        return {
            int(str(m["player"])): int(str(m["into_player"]))
            for m in merges
            if m["kind"] == "merge" and int(str(m["id"])) not in undone
        }

    @staticmethod
    def _root(pid: int, merged: dict[int, int]) -> int:
        while pid in merged:
            pid = merged[pid]
        return pid

    def _links(self) -> list[dict[str, object]]:
        return self.backend.query(
            'SELECT club, player, name, league_player, "by", at FROM league_links '
            "ORDER BY at, club, player"
        )

    def players(self) -> list[LeaguePlayer]:
        """Every league player, merged ones included (their ``merged_into`` says whom)."""
        with self.store._reading():
            players, merges = self._rows()
            links = self._links()
        merged = self._merged(merges)
        uid = {pid: str(r["uid"]) for pid, r in players.items()}
        made: dict[int, list[Link]] = {}
        for x in links:
            pid = int(str(x["league_player"]))
            made.setdefault(pid, []).append(
                Link(
                    str(x["club"]),
                    str(x["player"]),
                    str(x["name"]),
                    uid[pid],
                    "claim" if x["by"] == "claim" else "operator",
                    str(x["at"]),
                )
            )
        out = []
        for pid, r in players.items():
            mine = tuple(made.get(pid, ()))
            into = uid[self._root(pid, merged)] if pid in merged else None
            out.append(LeaguePlayer(uid[pid], str(r["name"]), str(r["created_at"]), into, mine))
        return out

    def player(self, uid: str) -> LeaguePlayer:
        for p in self.players():
            if p.uid == uid:
                return p
        raise StoreError(msg(N_("the league has no player {id}"), id=uid))

    def history(self) -> list[MergeRecord]:
        """Every merge and split, in order."""
        with self.store._reading():
            players, merges = self._rows()
        uid = {pid: str(r["uid"]) for pid, r in players.items()}
        return [
            MergeRecord(
                int(str(m["id"])),
                "split" if m["kind"] == "split" else "merge",
                uid[int(str(m["player"]))],
                uid[int(str(m["into_player"]))] if m["into_player"] is not None else None,
                int(str(m["undoes"])) if m["undoes"] is not None else None,
                str(m["reason"]),
                str(m["at"]),
            )
            for m in merges
        ]

    def roster(self) -> Roster:
        """The links as the season reads them: every club player to his league player now."""
        with self.store._reading():
            players, merges = self._rows()
            links = self._links()
        merged = self._merged(merges)
        uid = {pid: str(r["uid"]) for pid, r in players.items()}
        return Roster(
            links={
                (str(x["club"]), str(x["player"])): uid[
                    self._root(int(str(x["league_player"])), merged)
                ]
                for x in links
            },
            names={uid[pid]: str(r["name"]) for pid, r in players.items() if pid not in merged},
        )

    def link_of(self, club: str, player: str) -> str | None:
        """The league player (now) a club's player is linked to, or None."""
        return self.roster().links.get((club, player))

    # --- the look-alike check --------------------------------------------------------------

    def _id(self, uid: str) -> int:
        row = self.backend.execute("SELECT id FROM league_players WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            raise StoreError(msg(N_("the league has no player {id}"), id=uid))
        return int(row[0])

    def _look_alike(self, name: str, *, besides: int | None) -> str | None:
        """The name of a league player (now, after merges) other than ``besides`` whose name,
        or a club name one of his links plays under, looks like ``name``; or None."""
        players, merges = self._rows()
        merged = self._merged(merges)
        key = look_alike(name)
        mine = self._root(besides, merged) if besides is not None else None
        names = [(pid, str(r["name"])) for pid, r in players.items()]
        names += [(int(str(x["league_player"])), str(x["name"])) for x in self._links()]
        for pid, other in names:
            root = self._root(pid, merged)
            if root != mine and look_alike(other) == key:
                return str(players[root]["name"])
        return None

    # --- writing ---------------------------------------------------------------------------

    def _create(self, name: str, reason: str | None) -> int:
        pid = self.backend.insert(
            "league_players",
            {"uid": new_uid(), "name": name, "created_at": now(), "reason": reason},
        )
        assert pid is not None
        return pid

    def create(self, name: str, *, another_person: str | None = None) -> LeaguePlayer:
        """A new league player; refused when his name looks like a league player's, unless the
        operator says why this is another person (``another_person``, kept as the reason)."""
        clean = _name(name)
        why = (
            _reason(another_person, N_("say why this is another person"))
            if another_person is not None
            else None
        )
        with self._write():
            self._new_player_check(clean, why)
            pid = self._create(clean, why)
            (uid,) = self.backend.execute(
                "SELECT uid FROM league_players WHERE id = ?", (pid,)
            ).fetchone()
        return self.player(str(uid))

    def _new_player_check(self, name: str, why: str | None) -> None:
        other = self._look_alike(name, besides=None)
        if other is not None and why is None:
            raise StoreError(
                msg(
                    N_(
                        "the name {name} looks like {other}, already a player of the league: link to that one"
                    ),
                    name=repr(name),
                    other=repr(other),
                )
            )

    def _linked(self, club: str, player: str) -> bool:
        return (
            self.backend.execute(
                "SELECT 1 FROM league_links WHERE club = ? AND player = ?", (club, player)
            ).fetchone()
            is not None
        )

    def _refuse_linked(self, club: str, player: str, name: str) -> None:
        if self._linked(club, player):
            raise StoreError(
                msg(
                    N_("{name} of this club is linked to a league player already"),
                    name=repr(name),
                )
            )

    def _link(
        self, club: str, player: str, name: str, pid: int, by: LinkedBy, *, namesake: bool = False
    ) -> None:
        """``namesake``: the operator said why this is another person than a look-alike."""
        self._refuse_linked(club, player, name)
        other = None if namesake else self._look_alike(name, besides=pid)
        if other is not None:
            raise StoreError(
                msg(
                    N_(
                        "the name {name} looks like {other}, another player of the league: link to that one, or merge the two"
                    ),
                    name=repr(name),
                    other=repr(other),
                )
            )
        self.backend.insert(
            "league_links",
            {
                "club": club,
                "player": player,
                "name": name,
                "league_player": pid,
                "by": by,
                "at": now(),
            },
        )

    def link(
        self,
        club: str,
        player: str,
        name: str,
        *,
        to: str | None = None,
        another_person: str | None = None,
    ) -> str:
        """The operator links a club's player (his uid there and the name he plays under) to
        the league player ``to``, or to a new league player named as in the club (``to`` None);
        the league player's uid."""
        clean = _name(name)
        why = (
            _reason(another_person, N_("say why this is another person"))
            if another_person is not None
            else None
        )
        with self._write():
            if to is None:
                self._refuse_linked(club, player, clean)  # said before the look-alike
                self._new_player_check(clean, why)
                pid = self._create(clean, why)
            else:
                pid = self._id(to)
                pid = self._root(pid, self._merged(self._rows()[1]))
            self._link(club, player, clean, pid, "operator", namesake=why is not None)
            (uid,) = self.backend.execute(
                "SELECT uid FROM league_players WHERE id = ?", (pid,)
            ).fetchone()
        return str(uid)

    def issue_claim_code(self, club: str, player: str, name: str) -> str:
        """A code for a club's player to claim his place in the league from his phone (the
        club's director gives it to him); a newer code for the same player replaces the older.
        Shown once: the database keeps its hash."""
        clean = _name(name)
        code = new_code()
        with self._write():
            self._refuse_linked(club, player, clean)
            self.backend.execute(
                "DELETE FROM league_claims WHERE club = ? AND player = ? AND used_at IS NULL",
                (club, player),
            )
            self.backend.insert(
                "league_claims",
                {
                    "code": _code_key(code),
                    "club": club,
                    "player": player,
                    "name": clean,
                    "issued_at": now(),
                    "used_at": None,
                },
            )
        return code

    def _by_secret(self, secret: str) -> int | None:
        # Looked up by its SHA-256: the index compares hashes, never the secret itself.
        row = self.backend.execute(
            "SELECT league_player FROM league_player_keys WHERE secret = ?", (_hash(secret),)
        ).fetchone()
        return None if row is None else int(row[0])

    def player_of_secret(self, secret: str | None) -> str | None:
        """The league player a phone's secret names (his uid), or None."""
        if not secret:
            return None
        with self.store._reading():
            pid = self._by_secret(secret)
            if pid is None:
                return None
            pid = self._root(pid, self._merged(self._rows()[1]))
            (uid,) = self.backend.execute(
                "SELECT uid FROM league_players WHERE id = ?", (pid,)
            ).fetchone()
        return str(uid)

    def claim(self, code: str, *, secret: str | None = None) -> Claimed:
        """A player claims his club's place with the director's code, from his phone: linked to
        the league player his phone's ``secret`` names (a second club), or to a new one named
        as in the club (checked against the whole league: a look-alike is refused)."""
        key = _code_key(code)
        with self._write():
            found = self.backend.query(
                "SELECT code, club, player, name FROM league_claims "
                "WHERE code = ? AND used_at IS NULL",
                (key,),
            )
            row = found[0] if found else None
            if row is None:
                raise StoreError(msg(N_("this code claims nothing: ask your club's director")))
            club, player, name = str(row["club"]), str(row["player"]), str(row["name"])
            pid = self._by_secret(secret) if secret else None
            if pid is None:
                self._refuse_linked(club, player, name)
                other = self._look_alike(name, besides=None)
                if other is not None:
                    raise StoreError(
                        msg(
                            N_(
                                "the name {name} looks like {other}, already a player of the league: claim from the phone that claimed {other}, or ask the league's operator"
                            ),
                            name=repr(name),
                            other=repr(other),
                        )
                    )
                pid = self._create(name, None)
                secret = secrets.token_urlsafe(16)
                self.backend.insert(
                    "league_player_keys",
                    {"secret": _hash(secret), "league_player": pid, "at": now()},
                )
            else:
                pid = self._root(pid, self._merged(self._rows()[1]))
            assert secret is not None
            self._link(club, player, name, pid, "claim")
            self.backend.execute(
                "UPDATE league_claims SET used_at = ? WHERE code = ?", (now(), row["code"])
            )
            uid, shown = self.backend.execute(
                "SELECT uid, name FROM league_players WHERE id = ?", (pid,)
            ).fetchone()
        return Claimed(str(uid), str(shown), secret)

    def merge(self, player: str, into: str, *, reason: str) -> None:
        """``player`` is the same person as ``into``: his links count as ``into``'s from now
        on (a record; :meth:`split` takes it back)."""
        why = _reason(reason, N_("a merge needs a reason"))
        with self._write():
            a, b = self._id(player), self._id(into)
            merged = self._merged(self._rows()[1])
            if a in merged or b in merged:
                name = self.backend.execute(
                    "SELECT name FROM league_players WHERE id = ?", (a if a in merged else b,)
                ).fetchone()[0]
                raise StoreError(msg(N_("{name} was merged already"), name=name))
            if a == b:
                raise StoreError(msg(N_("a player cannot be merged into himself")))
            self.backend.insert(
                "league_merges",
                {
                    "kind": "merge",
                    "player": a,
                    "into_player": b,
                    "undoes": None,
                    "reason": why,
                    "at": now(),
                },
            )

    def split(self, player: str, *, reason: str) -> None:
        """Take back the merge of ``player``: he is his own league player again, with exactly
        the links he had (a record; the merge stays on record too)."""
        why = _reason(reason, N_("a split needs a reason"))
        with self._write():
            a = self._id(player)
            merges = self._rows()[1]
            undone = {int(str(m["undoes"])) for m in merges if m["kind"] == "split"}
            live = [
                m
                for m in merges
                if m["kind"] == "merge"
                and int(str(m["player"])) == a
                and int(str(m["id"])) not in undone
            ]
            if not live:
                name = self.backend.execute(
                    "SELECT name FROM league_players WHERE id = ?", (a,)
                ).fetchone()[0]
                raise StoreError(msg(N_("{name} is not merged into another player"), name=name))
            self.backend.insert(
                "league_merges",
                {
                    "kind": "split",
                    "player": a,
                    "into_player": live[-1]["into_player"],
                    "undoes": live[-1]["id"],
                    "reason": why,
                    "at": now(),
                },
            )

    # --- the members' link -----------------------------------------------------------------

    def issue_members_link(self) -> str:
        """A token for the league's pages (its table, its players' pages, the claim): the
        operator gives the link to the league's members.  Shown once; kept hashed."""
        token = secrets.token_urlsafe(16)
        with self._write():
            self.backend.insert(
                "league_member_links",
                {"token": _hash(token), "issued_at": now(), "revoked_at": None},
            )
        return token

    def revoke_members_links(self) -> int:
        """Every members' link stops opening the pages; how many were open."""
        with self._write():
            n = self.backend.execute(
                "UPDATE league_member_links SET revoked_at = ? WHERE revoked_at IS NULL", (now(),)
            ).rowcount
        return int(n)

    def member(self, token: str | None) -> bool:
        """Whether ``token`` is a members' link the operator issued and has not revoked."""
        if not token or len(token) > 64:
            return False
        with self.store._reading():
            row = self.backend.execute(
                "SELECT 1 FROM league_member_links WHERE token = ? AND revoked_at IS NULL",
                (_hash(token),),
            ).fetchone()
        return row is not None


__all__ = [
    "Claimed",
    "LeaguePlayer",
    "LeaguePlayers",
    "Link",
    "MergeRecord",
    "Roster",
    "new_code",
]
