"""The director's view on the host: every table of the tour, its deal count and state (no
deal yet, playing, done, a deal disputed, no deal for N minutes), the disputes, the
corrections; open a table to correct a deal (its History: a change there, with a reason, is the
director's correction); announce to all tables; end the tour, draw the next one.  It follows
every table's write as it happens (follow.py)."""

from __future__ import annotations

import datetime as dt
import json
import weakref
from collections.abc import Callable
from typing import Any

import flet as ft

from ...club.disputes import change_rejection, deal_disputes
from ...club.night import Night
from ...club.scoring import parse_scoring
from ...club.store import TableView, voided_words
from ...core.i18n import N_, msg, nmsg
from ...league.outbox import ended
from ...scoring.pulya.convention import presets
from ...store import now
from ..frame.shell import Shell
from ..frame.theme import heading, primary, quiet, secondary, sem
from ..session import Refused
from .common import attempt, back, club, night_id
from .follow import SETTLE, follow, tell
from .nights import SCORING_PRESETS, SEATS

#: Minutes without a deal after which a playing table is pointed out.
IDLE_MINUTES = 10

_STATES = {
    "waiting": N_("no deal yet"),
    "playing": N_("playing"),
    "finished": N_("done"),
    "disputed": N_("a deal disputed"),
}


def table_line(shell: Shell, view: TableView, names: dict[int, str], at: dt.datetime) -> str:
    players = ", ".join(f"#{n} {names[n]}" for n in view.players)
    line = shell.render(
        nmsg(
            "Table {table}: {n} deal, {state}; {provisional} to confirm",
            "Table {table}: {n} deals, {state}; {provisional} to confirm",
            view.deals,
            table=view.table,
            state=msg(_STATES[view.state]),
            provisional=view.provisional,
        )
    )
    voided = voided_words(view.voided)
    if voided is not None:
        line += "; " + shell.render(voided)
    idle = view.idle_minutes(at)
    if view.state == "playing" and idle is not None and idle >= IDLE_MINUTES:
        line += "; " + shell.t(N_("no deal for {minutes} min"), minutes=idle)
    return f"{line}\n{players}"


def settings_line(shell: Shell, night: Night) -> str:
    """The night's settings as the director checks them (issue #37): convention, date, length,
    table size and scoring (a documented preset's words, or the custom scoring's data)."""
    known = presets().get(night.convention)
    convention = known.name_in(shell.lang) if known is not None else night.convention
    length = (
        nmsg("{n} deal a tour", "{n} deals a tour", night.deals_per_tour)
        if night.deals_per_tour is not None
        else msg(N_("to a pool of {n}"), n=night.pool_target)
    )
    seats = dict(SEATS)["auto" if night.seats is None else str(night.seats)]
    scoring = next(
        (
            shell.t(words)
            for key, words in SCORING_PRESETS
            if key != "custom" and parse_scoring(key) == night.scoring
        ),
        json.dumps(night.scoring.model_dump(mode="json"), ensure_ascii=False),
    )
    return shell.t(
        N_("{convention}, {date}; {length}; {seats}; scoring: {scoring}"),
        convention=convention,
        date=night.date.isoformat(),
        length=length,
        seats=msg(seats),
        scoring=scoring,
    )


def director_screen(shell: Shell) -> ft.Control:
    nid = night_id(shell)
    if not shell.access.directs(nid):  # the hosted server: another browser's night
        return sem(
            "club-not-director",
            ft.Text(shell.t(N_("Only the phone that created this club night may direct it."))),
        )
    seen = _Seen(shell, nid)
    director = _Director(shell, nid)
    _follow(shell)
    night, tour = seen.night, seen.tour
    head = (
        shell.t(
            N_("{night}, tour {tour} of {tours}"),
            night=night.name,
            tour=tour.number,
            tours=night.tours,
        )
        if tour is not None
        else night.name
    )
    controls: list[ft.Control] = [
        back(shell, "club"),
        heading(head),
        sem("club-settings", ft.Text(settings_line(shell, night))),
        _screens(shell),
    ]
    if tour is None:
        controls.append(ft.Text(shell.t(N_("No tour is drawn yet."))))
    for v in seen.views:
        controls += _table(shell, seen, v, director)
    controls += _disputes(shell, seen)
    controls += _corrections(shell, seen.corrections)
    controls += _announcement(shell, seen.said, director)
    controls += _tour_steps(shell, seen, director)
    if ended(night) and shell.session.league_joined():
        controls += _league(shell, nid)
    return ft.Column(controls, spacing=10, scroll=ft.ScrollMode.AUTO)


class _Seen:
    """What the director's view shows of the night, read under the session's lock (no widget):
    the tour, its tables, the phones each holds, the disputes, the corrections, the
    announcement and which tour may be reopened."""

    def __init__(self, shell: Shell, nid: int) -> None:
        store = club(shell)
        with shell.session.locked():
            self.night = store.load(nid)
            self.tour = tour = self.night.current
            self.views = store.tables(nid) if tour else []
            self.corrections = store.corrections(nid)
            self.phones = {
                v.table: sorted(c.number for c in store.phone_claims(v.session_id) if not c.freed)
                for v in self.views
            }
            self.disputes = {v.table: deal_disputes(store, v) for v in self.views if v.disputed}
            self.said = store.announcement(nid)
            # The last tour ended (or the one before a tour drawn but not begun) can be reopened.
            self.reopen: int | None = None
            self.drawn_next = False
            if tour is not None and tour.state == "ended":
                self.reopen = tour.number
            elif tour is not None and tour.state == "drawn" and tour.number > 1:
                self.reopen, self.drawn_next = tour.number - 1, True
            if self.reopen is not None and store.reopenable(nid, self.reopen) is not None:
                self.reopen = None
        self.names = {p.number: p.name for p in self.night.players}
        self.at = dt.datetime.fromisoformat(now())


class _Director:
    """The director's taps on one night: each acts through the club's store (its refusal
    shown), tells the phones that hear of it and draws the view again.  A step that cannot be
    taken back without harm asks first."""

    def __init__(self, shell: Shell, nid: int) -> None:
        self.shell = shell
        self.nid = nid
        self.store = club(shell)

    def act(self, step: Callable[[], object]) -> None:
        # A tour ended, reopened or drawn: every table's phones hear of it (their next table).
        if attempt(self.shell, step):
            tell(self.shell.page, ("night", self.nid))
        self.shell.show(director_screen)

    def free(self, tour: int, table: int, number: int) -> None:
        if attempt(self.shell, lambda: self.store.free_phone(self.nid, tour, table, number)):
            tell(self.shell.page, ("table", self.store.session_of(self.nid, tour, table)))
        self.shell.show(director_screen)

    def open_table(self, sid: int) -> None:
        # The table's own screens on the host: History's "Edit" writes the director's
        # correction (no seat chosen on the host), "Check this deal" audits a disputed one.
        self.shell.sid = sid
        self.shell.go("history")

    def draw(self) -> None:
        self.act(lambda: self.store.draw(self.nid))

    def announce(self, words: str) -> None:
        if attempt(self.shell, lambda: self.store.announce(self.nid, words)):
            _DRAFTS.pop(self.shell, None)
            tell(self.shell.page, ("night", self.nid))
            self.shell.message = None
        self.shell.show(director_screen)

    def ask_redraw(self, number: int) -> None:
        # A re-draw needs a confirmation: the seating sheet may be on the tables already.
        t = self.shell.t
        self._ask(
            t(N_("Draw tour {tour} again?"), tour=number),
            ft.Text(t(N_("Every table gets new players; no deal is written yet."))),
            ("confirm-redraw", t(N_("Draw again")), "cancel-redraw"),
            lambda: self.store.redraw(self.nid, confirmed=True),
        )

    def ask_end(self, number: int) -> None:
        # Ending a tour by mistake would count its tables' results as they stand: it asks
        # first, naming the tables short of their deals (issue #37).
        shell, t = self.shell, self.shell.t
        with shell.session.locked():
            short = self.store.short_tables(self.nid, number)
        lines: list[ft.Control] = [
            sem(
                "end-tour-note",
                ft.Text(
                    t(
                        N_(
                            "These tables are short of their deals; their results count as they stand:"
                        )
                    )
                    if short
                    else t(N_("Every table has played its deals."))
                ),
            ),
            *(sem(f"end-tour-short-{k}", ft.Text(shell.render(m))) for k, m in enumerate(short)),
        ]
        self._ask(
            t(N_("End tour {tour}?"), tour=number),
            ft.Column(lines, tight=True),  # as tall as its lines
            ("confirm-end-tour", t(N_("End tour {tour}"), tour=number), "cancel-end-tour"),
            lambda: self.store.end_tour(self.nid, number),
        )

    def ask_reopen(self, number: int, drawn_next: bool) -> None:
        t = self.shell.t
        words = [t(N_("Its tables write and change deals again until it ends."))]
        if drawn_next:
            words.append(
                t(
                    N_(
                        "The seating of tour {tour} (no deal written yet) is withdrawn: draw it again when tour {open} ends, and print the new sheet."
                    ),
                    tour=number + 1,
                    open=number,
                )
            )
        self._ask(
            t(N_("Reopen tour {tour}?"), tour=number),
            sem("reopen-note", ft.Text("\n".join(words))),
            ("confirm-reopen-tour", t(N_("Reopen tour {tour}"), tour=number), "cancel-reopen-tour"),
            lambda: self.store.reopen_tour(self.nid, number),
        )

    def _ask(
        self,
        title: str,
        content: ft.Control,
        buttons: tuple[str, str, str],
        step: Callable[[], object],
    ) -> None:
        """The question before a step: its confirm button (id, words) takes the step, Cancel
        (its id) leaves everything as it was."""
        confirm, words, cancel = buttons
        page = self.shell.page
        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(title),
                content=content,
                actions=[
                    sem(confirm, primary(words, on_click=lambda: self._confirmed(step))),
                    sem(
                        cancel,
                        ft.TextButton(
                            self.shell.t(N_("Cancel")), on_click=lambda: page.pop_dialog()
                        ),
                    ),
                ],
            )
        )

    def _confirmed(self, step: Callable[[], object]) -> None:
        self.shell.page.pop_dialog()
        self.act(step)


def _screens(shell: Shell) -> ft.Control:
    """The night's other screens: the registry, the seating, the standings."""
    return ft.Row(
        [
            sem(
                "club-registry",
                secondary(shell.t(N_("Registry")), on_click=lambda: shell.go("club-registry")),
            ),
            sem(
                "club-seating",
                secondary(shell.t(N_("Seating")), on_click=lambda: shell.go("club-seating")),
            ),
            sem(
                "club-standings",
                secondary(shell.t(N_("Standings")), on_click=lambda: shell.go("club-standings")),
            ),
        ],
        wrap=True,
    )


def _table(shell: Shell, seen: _Seen, v: TableView, director: _Director) -> list[ft.Control]:
    """A table of the tour: its line, Open, and who each of its phones is."""
    controls: list[ft.Control] = [
        sem(f"club-table-{v.table}", ft.Text(table_line(shell, v, seen.names, seen.at))),
        sem(
            f"club-open-{v.table}",
            ft.TextButton(
                shell.t(N_("Open table {table} (to correct a deal)"), table=v.table),
                on_click=lambda e, sid=v.session_id: director.open_table(sid),
            ),
        ),
    ]
    # Who each phone at the table is (chosen once); the director frees a mistaken choice.
    held = seen.phones.get(v.table, [])
    controls.append(
        sem(
            f"club-phones-{v.table}",
            ft.Text(
                shell.t(
                    N_("Phones: {players}"),
                    players=", ".join(f"#{n} {seen.names[n]}" for n in held),
                )
                if held
                else shell.t(N_("Phones: none chosen yet"))
            ),
        )
    )
    tour = seen.tour
    if held and tour is not None and tour.state != "ended":
        number = tour.number
        controls.append(
            ft.Row(
                [
                    sem(
                        f"club-free-{v.table}-{n}",
                        quiet(
                            shell.t(N_("Free #{number}"), number=n),
                            on_click=lambda e, t=v.table, n=n: director.free(number, t, n),
                        ),
                    )
                    for n in held
                ],
                wrap=True,
            )
        )
    return controls


def _disputes(shell: Shell, seen: _Seen) -> list[ft.Control]:
    disputed = [v for v in seen.views if v.disputed]
    rejected = [(v, c) for v in seen.views for c in v.rejected]
    if not (disputed or rejected):
        return []
    controls: list[ft.Control] = [heading(shell.t(N_("Disputes")))]
    # Which deal: the number the table says (a rejected deal waits to be written again).
    controls.extend(
        sem(
            f"club-dispute-{v.table}",
            ft.Text(
                shell.render(
                    nmsg(
                        "Table {table}: deal {numbers} rejected, to be checked and written again",
                        "Table {table}: deals {numbers} rejected, to be checked and written again",
                        len(v.disputed_deals),
                        table=v.table,
                        numbers=", ".join(map(str, v.disputed_deals)),
                    )
                )
            ),
        )
        for v in disputed
    )
    # Each disputed deal: what was written, by whom, who rejected it and why (issue #37).
    controls.extend(
        sem(f"club-dispute-{table}-{number}", ft.Text(shell.render(line)))
        for table, lines in seen.disputes.items()
        for number, line in lines
    )
    # A change rejected at a table was taken back there: the director hears of it, and why.
    controls.extend(
        sem(
            f"club-rejected-{v.table}-{c.seq}",
            ft.Text(shell.render(change_rejection(v.table, c))),
        )
        for v, c in rejected
    )
    return controls


def _corrections(shell: Shell, corrections: list[dict[str, Any]]) -> list[ft.Control]:
    if not corrections:
        return []
    return [
        heading(shell.t(N_("Corrections"))),
        *(
            sem(
                f"club-correction-{k}",
                ft.Text(
                    shell.t(
                        N_("Tour {tour}, table {table}, deal {number}: {reason}"),
                        tour=c["tour"],
                        table=c["table_no"],
                        number=c["number"] or "?",
                        reason=c["reason"],
                    )
                ),
            )
            for k, c in enumerate(corrections)
        ),
    ]


def _announcement(shell: Shell, said: str | None, director: _Director) -> list[ft.Control]:
    """The last announcement, and the field and button for the next."""
    # What the director is typing stays when a table's write draws the view again.
    words = ft.TextField(
        label=shell.t(N_("Announcement to every table")),
        multiline=True,
        value=_DRAFTS.get(shell, ""),
        on_change=lambda e: _DRAFTS.__setitem__(shell, e.control.value or ""),
    )
    controls: list[ft.Control] = []
    if said is not None:
        controls.append(
            sem("club-announced", ft.Text(shell.t(N_("From the director: {words}"), words=said)))
        )
    return [
        *controls,
        sem("club-announce-text", words),
        sem(
            "club-announce",
            secondary(
                shell.t(N_("Announce to all tables")),
                on_click=lambda: director.announce(words.value or ""),
            ),
        ),
    ]


def _tour_steps(shell: Shell, seen: _Seen, director: _Director) -> list[ft.Control]:
    """End the tour, reopen the last one ended, draw it again, draw the next, as the night
    stands."""
    tour = seen.tour
    controls: list[ft.Control] = []
    if tour is not None and tour.state != "ended":
        number = tour.number
        controls.append(
            sem(
                "club-end-tour",
                primary(
                    shell.t(N_("End tour {tour}"), tour=number),
                    on_click=lambda: director.ask_end(number),
                ),
            )
        )
    reopen, drawn_next = seen.reopen, seen.drawn_next
    if reopen is not None:
        controls.append(
            sem(
                "club-reopen-tour",
                secondary(
                    shell.t(N_("Reopen tour {tour}"), tour=reopen),
                    on_click=lambda: director.ask_reopen(reopen, drawn_next),
                ),
            )
        )
    if tour is not None and tour.state == "drawn":
        number = tour.number
        controls.append(
            sem(
                "club-redraw",
                secondary(
                    shell.t(N_("Draw tour {tour} again"), tour=number),
                    on_click=lambda: director.ask_redraw(number),
                ),
            )
        )
    if (tour is None or tour.state == "ended") and (tour is None or tour.number < seen.night.tours):
        controls.append(
            sem(
                "club-draw",
                primary(shell.t(N_("Draw the next tour")), on_click=lambda: director.draw()),
            )
        )
    return controls


def _league(shell: Shell, nid: int) -> list[ft.Control]:
    """An ended night sent to the club's league (docs/league.md), through the session: the
    director's words for a correction, if it is one; what the league said is the message."""
    change = ft.TextField(label=shell.t(N_("What changed, if the night was corrected")))

    def publish() -> None:
        done = shell.session.publish_night(nid, change.value or None)
        if isinstance(done, Refused):
            shell.message = done.said
        else:
            lines = [shell.render(line) for line in done.lines()]
            shell.message = "\n".join(lines) or shell.t(N_("The league has this night already."))
        shell.show(director_screen)

    return [
        heading(shell.t(N_("League"))),
        sem("club-league-change", change),
        sem(
            "club-publish-league", secondary(shell.t(N_("Publish to the league")), on_click=publish)
        ),
    ]


_FOLLOWING: weakref.WeakSet[Shell] = weakref.WeakSet()
_DRAFTS: weakref.WeakKeyDictionary[Shell, str] = weakref.WeakKeyDictionary()


def _follow(shell: Shell) -> None:
    """The director's view (and the standings screen) drawn again after any table's write."""
    if shell in _FOLLOWING:
        return
    _FOLLOWING.add(shell)

    def wanted(topic: str, message: Any) -> bool:
        return getattr(shell.screen, "__name__", "") in ("director_screen", "standings_screen")

    follow(shell.page, wanted, lambda: shell.redraw(), settle=SETTLE)
