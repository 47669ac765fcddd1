"""A club table on its players' own phones (each table is a pulka, joined by its link).

Above the table's screens: which player this phone is (chosen once), every deal still to be
confirmed with one tap, **Confirm** or **Reject** (a rejected deal is disputed and offers the
card-by-card check), and the director's latest announcement.  Every deal written or changed at
the table goes through the night (scorepad/club/store.py): who wrote it, and on the host's
computer with no seat chosen, a change is the director's correction, with its reason.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import flet as ft

from ...club.errors import ClubError
from ...club.store import ClubStore, Seat, change_words, device_key, seat_of, table_pin
from ...core.i18n import N_, msg, nmsg
from ...report.pulya import deal_title
from ...store import AnyDeal, AnyStored, PulyaStored, Store, StoreError
from ..dispute.start import open_for_deal
from ..frame import registry
from ..frame.dialog import ask_first
from ..frame.shell import Shell
from ..frame.theme import card, primary, secondary, sem
from .follow import follow, tell

#: The screens that show the panel: the open table's own (not the deal entry, whose write
#: button stays where the thumb is, nor the card check).
_SHOWN = frozenset({"sheet_screen", "history_screen", "settle_screen", "chart_screen"})
_FOLLOWING: weakref.WeakSet[Shell] = weakref.WeakSet()
T = TypeVar("T")


def table_pins(store: Store, lock: threading.RLock) -> Callable[[int], str | None]:
    """The gate's question (access.py): session ``sid``'s own PIN, when it is a club table."""

    def pin(sid: int) -> str | None:
        with lock:
            return table_pin(store, sid)

    return pin


def seat(shell: Shell, sid: int | None = None) -> Seat | None:
    sid = shell.sid if sid is None else sid
    if sid is None:
        return None
    table = sid

    def load() -> Seat | None:
        return shell.session.read(lambda db: seat_of(db, table))

    return shell.read(("seat", sid), load)


def mine(shell: Shell, sid: int) -> int | None:
    """The number this phone (its device) holds at the table, settled once (issue #37)."""
    with shell.session.locked():
        return ClubStore(shell.session.store).phone_number(sid, shell.access.device)


def me(shell: Shell, where: Seat, sid: int) -> int:
    """This phone's number at the table, or a refusal that says how to choose it."""
    number = mine(shell, sid)
    if number is None or number not in where.players:
        raise StoreError(
            msg(N_("Choose who you are at table {table} first (on the sheet)."), table=where.table)
        )
    return number


def _club(call: Callable[[], T]) -> T:
    """A club refusal as the shell shows a store's: the sentence, nothing written."""
    try:
        return call()
    except ClubError as exc:
        raise StoreError(exc.message) from None


@dataclass(frozen=True, slots=True)
class TableWrites:
    """A deal written at a club table (app/session.DealWrites)."""

    shell: Shell
    where: Seat
    sid: int

    def no_deal_left(self) -> bool:
        """The table has written its deals of the tour (the entry offers none: issue #37)."""
        club = ClubStore(self.shell.session.store)
        with self.shell.session.locked():
            limit = club.deals_per_tour(self.where.night)
            played = len(self.shell.session.load(self.sid).journal.live)
        return limit is not None and played >= limit

    def add(self, deal: AnyDeal, *, seen: int) -> AnyStored:
        by = me(self.shell, self.where, self.sid)
        w = self.where
        club = ClubStore(self.shell.session.store)
        return _club(lambda: club.write_deal(w.night, w.tour, w.table, deal, by=by, seen=seen))

    def edit(self, deal_id: int, deal: AnyDeal, *, reason: str, seen: int) -> AnyStored:
        w = self.where
        club = ClubStore(self.shell.session.store)
        if mine(self.shell, self.sid) is None and self.shell.access.corrects(self.sid):
            # The director (the host's computer, the night's owner on the hosted server) with
            # no seat chosen: a correction, any time.
            return _club(
                lambda: club.correct_deal(
                    w.night, w.tour, w.table, deal_id, deal, reason=reason, seen=seen
                )
            )
        by = me(self.shell, w, self.sid)
        return _club(
            lambda: club.rewrite_deal(
                w.night, w.tour, w.table, deal_id, deal, by=by, reason=reason, seen=seen
            )
        )

    def change(
        self,
        kind: str,
        step: Callable[[], AnyStored],
        *,
        seen: int,
        deal_id: int | None = None,
        reason: str = "",
    ) -> AnyStored:
        """A void, an undo, a redo or a restore at the table: a player's is provisional until
        another player confirms it (and refused once the tour ended); the director's (the
        host's computer with no player chosen) is written as it is, any time."""
        if mine(self.shell, self.sid) is None and self.shell.access.corrects(self.sid):
            return step()
        by = me(self.shell, self.where, self.sid)
        w = self.where
        club = ClubStore(self.shell.session.store)
        where = (w.night, w.tour, w.table)
        if kind == "void":
            assert deal_id is not None
            _club(lambda: club.void_deal(*where, deal_id, by=by, reason=reason, seen=seen))
        elif kind == "restore":
            assert deal_id is not None
            _club(lambda: club.restore_deal(*where, deal_id, by=by, seen=seen))
        elif kind == "undo":
            _club(lambda: club.undo(*where, by=by, seen=seen))
        else:
            _club(lambda: club.redo(*where, by=by, seen=seen))
        return self.shell.session.load(self.sid)


def writes(shell: Shell, sid: int) -> TableWrites | None:
    where = seat(shell, sid)
    return None if where is None else TableWrites(shell, where, sid)


def table_panel(shell: Shell) -> ft.Control | None:
    """The club table's part of the screen, or None (not a club table, not its screen)."""
    sid = shell.sid
    if sid is None or getattr(shell.screen, "__name__", "") not in _SHOWN:
        return None
    where = seat(shell, sid)
    if where is None:
        return None
    _follow(shell)
    club = ClubStore(shell.session.store)
    with shell.session.locked() as db:
        stored = db.load(sid)
        marks = club.marks(sid, stored)
        changes = club.changes(sid)
        said = club.announcement(where.night)
        claims = club.phone_claims(sid)
    names = dict(zip(where.players, stored.session.players, strict=True))
    held = {c.number for c in claims if not c.freed}
    number = next(
        (c.number for c in claims if not c.freed and c.device == device_key(shell.access.device)),
        None,
    )
    lines: list[ft.Control] = []
    if said is not None:
        lines.append(
            sem(
                "club-announcement",
                ft.Text(shell.t(N_("From the director: {words}"), words=said), weight="bold"),
            )
        )
    if shell.access.corrects(sid):  # the director: the LAN's host, the hosted night's owner
        lines.append(
            sem(
                "club-director",
                ft.TextButton(
                    shell.t(N_("Director")),
                    icon=ft.Icons.ARROW_BACK,
                    on_click=lambda: _director(shell, where.night),
                ),
            )
        )
        if number is None:
            lines.append(
                ft.Text(
                    shell.t(
                        N_(
                            "On the host, with no player chosen, a deal changed here is the director's correction (with a reason, in the journal)."
                        )
                        if shell.access.host
                        else N_(
                            "You direct this night: with no player chosen, a deal you change here is your correction (with a reason, in the journal)."
                        )
                    )
                )
            )
    if number not in where.players:
        # Chosen once per phone: a number another phone holds is not offered (issue #37).
        lines.append(ft.Text(shell.t(N_("Who are you at this table? (chosen once)"))))
        lines.append(
            ft.Row(
                [
                    sem(
                        f"club-me-{n}",
                        secondary(f"#{n} {names[n]}", on_click=lambda e, n=n: _choose(shell, n)),
                    )
                    for n in where.players
                    if n not in held
                ],
                wrap=True,
            )
        )
    else:
        lines.append(
            sem(
                "club-me",
                ft.Text(shell.t(N_("You are #{number} {name}"), number=number, name=names[number])),
            )
        )
    # Who the table's phones are, and each claim the director freed: seen by the whole table.
    if held:
        lines.append(
            sem(
                "club-phones",
                ft.Text(
                    shell.t(
                        N_("Phones at this table: {players}"),
                        players=", ".join(f"#{n} {names[n]}" for n in sorted(held) if n in names),
                    )
                ),
            )
        )
    for k, freed in enumerate(x for x in claims if x.freed):
        lines.append(
            sem(
                f"club-freed-{k}",
                ft.Text(
                    shell.t(
                        N_(
                            "The director freed #{number} {name}: a phone may choose that number again"
                        ),
                        number=freed.number,
                        name=names.get(freed.number, ""),
                    )
                ),
            )
        )
    if getattr(shell.screen, "__name__", "") == "settle_screen":
        lines.extend(_points_at_table(shell, club, where, stored))
    ended = _tour_end(shell, club, where, number)
    if ended is not None:
        lines.append(sem("club-tour-ended", ft.Text(ended, weight=ft.FontWeight.BOLD)))
    live = stored.journal.live
    seats = list(stored.session.players)
    for index, m in enumerate(marks):
        if m.state == "confirmed":
            continue
        what = shell.render(deal_title(live[index].deal, seats))
        if m.state == "provisional":
            writer = _who(names, m.written_by)
            # A deal written again (a disputed one, checked) comes up with its reason.
            last = live[index].revisions[-1]
            said = (
                shell.t(
                    N_("Deal {number} ({what}), written again by {writer} ({reason}): to confirm"),
                    number=m.number,
                    what=what,
                    writer=writer,
                    reason=last.reason or "-",
                )
                if last.kind == "edit"
                else shell.t(
                    N_("Deal {number} ({what}), written by {writer}: to confirm"),
                    number=m.number,
                    what=what,
                    writer=writer,
                )
            )
            lines.append(sem(f"club-deal-{m.number}", ft.Text(said)))
            if m.written_by is not None and m.written_by == number:
                # The writer's own deal: another player confirms it (no button to tap).
                lines.append(
                    _said(
                        shell,
                        f"club-waiting-{m.number}",
                        N_("Waiting for another player to confirm it."),
                    )
                )
                continue
            lines.append(
                _confirm_or_reject(
                    shell,
                    f"club-confirm-{m.number}",
                    f"club-reject-{m.number}",
                    shell.t(N_("Reject deal {number}?"), number=m.number),
                    lambda ok, why, d=m.deal_id: _decide(shell, where, d, ok, why),
                )
            )
        else:
            # Disputed: the writer (and the whole table) reads who rejected it and why.
            judge = _who(names, m.decided_by)
            lines.append(
                sem(
                    f"club-deal-{m.number}",
                    ft.Text(
                        shell.t(
                            N_(
                                "Deal {number} ({what}) is disputed: check it card by card, then write it again"
                            ),
                            number=m.number,
                            what=what,
                        )
                        if m.rejection is None
                        else shell.t(
                            N_(
                                "Deal {number} ({what}) was rejected by {judge}: {reason}. Check it card by card, then write it again."
                            ),
                            number=m.number,
                            what=what,
                            judge=judge,
                            reason=m.rejection,
                        )
                    ),
                )
            )
            lines.append(
                sem(
                    f"club-audit-{m.number}",
                    secondary(
                        shell.t(N_("Check this deal…")),
                        on_click=lambda e, d=m.deal_id, i=index: open_for_deal(shell, d, i),
                    ),
                )
            )
    for c in changes:
        writer = _who(names, c.written_by)
        if c.state == "disputed" and c.rejection is not None and c.seq is not None:
            # A change rejected here was taken back: its maker reads who rejected it and why.
            lines.append(
                _said(
                    shell,
                    f"club-change-rejected-{c.seq}",
                    N_("{change}, by {writer}, was rejected by {judge}: {reason}"),
                    change=change_words(c, numbered=False),
                    writer=writer,
                    judge=_who(names, c.decided_by),
                    reason=c.rejection,
                )
            )
        if c.state != "provisional":
            continue
        lines.append(
            _said(
                shell,
                f"club-change-{c.seq}",
                N_("{change}, by {writer}: to confirm"),
                change=change_words(c, numbered=False),
                writer=writer,
            )
        )
        if c.written_by == number:  # his own change: another player confirms it
            lines.append(
                _said(
                    shell,
                    f"club-change-waiting-{c.seq}",
                    N_("Waiting for another player to confirm it."),
                )
            )
            continue
        lines.append(
            _confirm_or_reject(
                shell,
                f"club-change-confirm-{c.seq}",
                f"club-change-reject-{c.seq}",
                shell.t(N_("Reject {change}?"), change=change_words(c, numbered=False)),
                lambda ok, why, q=c.seq: _decide_change(shell, where, q, ok, why),
            )
        )
    return sem(
        "club-table",
        card(
            *lines,
            title=shell.t(N_("Table {table}, tour {tour}"), table=where.table, tour=where.tour),
        ),
    )


def _who(names: dict[int, str], number: int | None) -> str:
    """A player at the table as its phones name him ("#4 Gleb"), or "—" (not said)."""
    return f"#{number} {names[number]}" if number in names else "—"


def _said(shell: Shell, ident: str, text: str, **args: Any) -> ft.Control:
    """One line of the panel: a catalog's sentence, under its test id."""
    return sem(ident, ft.Text(shell.t(text, **args)))


def _points_at_table(
    shell: Shell, club: ClubStore, where: Seat, stored: PulyaStored
) -> list[ft.Control]:
    """On the cash-out of a club table: what the night counts (issue #37), each player's
    place at the table, whists and tour points by the night's scoring, best first (the
    cash-out below shows no money: the night pays none)."""
    from ...club.scoring import tour_points
    from ...core.numbers import signed, whist_figure
    from ...scoring.pulya.settlement import balances

    scored = stored.scored  # a club table is a pulya (club/store.py creates each one)
    if not stored.session.deals:
        return []
    with shell.session.locked():
        night = club.load(where.night)
    got = balances(scored.sheet, scored.settings)
    whists = dict(zip(where.players, got, strict=True))
    points = tour_points(night.scoring, whists)
    names = dict(zip(where.players, stored.session.players, strict=True))
    order = sorted(where.players, key=lambda n: (-points[n], -whists[n], n))
    out: list[ft.Control] = [
        sem(
            "club-points-head",
            ft.Text(
                shell.t(N_("What the night counts at this table (tour {tour}):"), tour=where.tour),
                weight=ft.FontWeight.BOLD,
            ),
        )
    ]
    for place, n in enumerate(order, start=1):
        out.append(
            sem(
                f"club-points-{n}",
                ft.Text(
                    shell.t(
                        N_("{place}. #{number} {name}: {points} points ({whists} whists)"),
                        place=place,
                        number=n,
                        name=names[n],
                        points=whist_figure(points[n]),
                        whists=signed(whists[n]),
                    )
                ),
            )
        )
    return out


def _tour_end(shell: Shell, club: ClubStore, where: Seat, number: int | None) -> str | None:
    """Once the tour has ended, what the phone says (issue #37): that it ended, and where its
    player sits in the next tour once it is drawn (or his bye, or that it was the last)."""
    with shell.session.locked():
        if club.tour_state(where.night, where.tour) != "ended":
            return None
        night = club.load(where.night)
    nxt = next((t for t in night.drawn if t.number == where.tour + 1), None)
    if where.tour >= night.tours:
        return shell.t(N_("Tour {tour} has ended: it was the night's last."), tour=where.tour)
    if nxt is None or number is None:
        return shell.t(
            N_("Tour {tour} has ended; the director draws tour {next}."),
            tour=where.tour,
            next=where.tour + 1,
        )
    if number in nxt.byes:
        return shell.t(
            N_("Tour {tour} has ended. In tour {next} you have a bye."),
            tour=where.tour,
            next=nxt.number,
        )
    for tab in nxt.tables:
        if number in tab.players:
            return shell.t(
                N_("Tour {tour} has ended. In tour {next} you play at table {table}: {players}."),
                tour=where.tour,
                next=nxt.number,
                table=tab.number,
                players=", ".join(f"#{n} {night.name_of(n)}" for n in tab.players),
            )
    return shell.t(
        N_("Tour {tour} has ended; you are not drawn for tour {next}."),
        tour=where.tour,
        next=nxt.number,
    )


def _director(shell: Shell, night: int) -> None:
    shell.state.night = night
    shell.go("club-director")


def _choose(shell: Shell, number: int) -> None:
    """This phone says who it is at the table: once (the director frees a mistaken choice)."""
    sid = shell.sid
    assert sid is not None
    where = seat(shell, sid)
    assert where is not None
    club = ClubStore(shell.session.store)

    def claim() -> None:
        _club(
            lambda: club.claim_phone(
                where.night, where.tour, where.table, number, device=shell.access.device
            )
        )

    if shell.told(shell.session.write(lambda _db: claim())):
        tell(shell.page, ("table", sid))
    shell.redraw()


def _decide(shell: Shell, where: Seat, deal_id: int, confirmed: bool, reason: str = "") -> None:
    """One tap: this phone's player confirms (or rejects, saying why) a deal another wrote."""
    sid = shell.sid
    assert sid is not None
    club = ClubStore(shell.session.store)

    def decide() -> Any:
        by = me(shell, where, sid)
        w = (where.night, where.tour, where.table)
        if confirmed:
            return _club(lambda: club.confirm(*w, deal_id, by=by))
        return _club(lambda: club.reject(*w, deal_id, by=by, reason=reason))

    if shell.told(shell.session.write(lambda _db: decide())):
        tell(shell.page, ("table", sid))
    shell.redraw()


def _decide_change(shell: Shell, where: Seat, seq: int, confirmed: bool, reason: str = "") -> None:
    """One tap: this phone's player confirms (or rejects, saying why: it is taken back)
    another's change."""
    sid = shell.sid
    assert sid is not None
    club = ClubStore(shell.session.store)

    def decide() -> Any:
        by = me(shell, where, sid)
        mark = _club(
            lambda: club.decide_change(
                where.night,
                where.tour,
                where.table,
                seq,
                by=by,
                confirmed=confirmed,
                reason=None if confirmed else reason,
            )
        )
        # Taken back: the session changed (announced as any write); else only the mark did.
        return shell.session.load(sid) if mark.reversed_by is not None else None

    if shell.told(shell.session.write(lambda _db: decide())):
        tell(shell.page, ("table", sid))
    shell.redraw()


def _follow(shell: Shell) -> None:
    """Redraw this page when its table's deals are confirmed or the director announces."""
    if shell in _FOLLOWING:
        return
    _FOLLOWING.add(shell)

    def wanted(topic: str, message: Any) -> bool:
        kind, key = message
        if shell.sid is None or getattr(shell.screen, "__name__", "") not in _SHOWN:
            return False
        if kind == "table":
            return bool(key == shell.sid)
        where = seat(shell)
        return where is not None and where.night == key

    follow(shell.page, wanted, lambda: shell.redraw(), topics=("club",))


def entry_note(shell: Shell) -> ft.Control | None:
    """Above a club table's deal entry, one or two short lines (issue #37): which deal of the
    tour this is ("counts as 4 of 6") or that the table has played them all, and how many of
    the table's deals and changes wait for a confirmation (listed on the Sheet)."""
    sid = shell.sid
    if sid is None or getattr(shell.screen, "__name__", "") != "entry_screen" or shell.editing:
        return None
    where = seat(shell, sid)
    if where is None:
        return None
    club = ClubStore(shell.session.store)
    with shell.session.locked() as db:
        limit = club.deals_per_tour(where.night)
        stored = db.load(sid)
        marks = club.marks(sid, stored)
        changes = club.changes(sid)
    lines: list[ft.Control] = []
    played = len(stored.journal.live)
    if limit is not None and played >= limit:
        lines.append(
            sem(
                "club-entry-done",
                ft.Text(
                    shell.t(
                        N_(
                            "Table {table} has played its {n} deals of tour {tour}: no deal is left to write."
                        ),
                        table=where.table,
                        n=limit,
                        tour=where.tour,
                    ),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ERROR,
                ),
            )
        )
    elif limit is not None:
        lines.append(
            sem(
                "club-entry-count",
                ft.Text(
                    shell.t(
                        N_("Tour {tour}: this deal counts as {k} of {limit}"),
                        tour=where.tour,
                        k=played + 1,
                        limit=limit,
                    )
                ),
            )
        )
    waiting = sum(m.state == "provisional" for m in marks) + sum(
        c.state == "provisional" for c in changes
    )
    if waiting:
        lines.append(
            sem(
                "club-entry-waiting",
                ft.Text(
                    shell.render(
                        nmsg(
                            "{n} deal or change waits for a confirmation (on the Sheet)",
                            "{n} deals or changes wait for a confirmation (on the Sheet)",
                            waiting,
                        )
                    )
                ),
            )
        )
    return sem("club-entry-note", ft.Column(lines, spacing=2)) if lines else None


registry.add_panel(table_panel)
registry.add_panel(entry_note)
registry.add_writer(writes)


def _confirm_or_reject(
    shell: Shell, confirm: str, reject: str, title: str, decide: Callable[[bool, str], None]
) -> ft.Control:
    """The two answers another player at the table gives a deal or a change, in one row.
    Reject asks first why, in the player's words (required: the writer, the table and the
    director read it); Back changes nothing.

    Keyed by what it answers: when the deal's row gives way to a change's (a void of the deal
    waiting for its confirmation), a live redraw replaces the row instead of renaming its
    buttons in place, which the web client shows under the old ids."""

    def ask_why() -> None:
        # One line, as a void's reason: a line break is refused as every reason's is.
        why = ft.TextField(label=shell.t(N_("What is wrong? (required)")), autofocus=True)
        ask_first(
            shell,
            title,
            sem(f"{reject}-reason", why),
            f"{reject}-confirm",
            shell.t(N_("Reject")),
            lambda: decide(False, why.value or ""),
        )

    return ft.Row(
        [
            sem(confirm, primary(shell.t(N_("Confirm")), on_click=lambda e: decide(True, ""))),
            sem(reject, secondary(shell.t(N_("Reject")), on_click=lambda e: ask_why())),
        ],
        wrap=True,
        key=confirm,
    )
