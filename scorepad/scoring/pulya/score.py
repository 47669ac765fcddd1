"""Replaying a session: every deal checked in context, then written onto the sheet.

Each deal is checked in its place at the table by :func:`~scorepad.scoring.pulya.legal.verify_deal`
(the seating, the exit level of the raspasy series, the whist calls, the tricks); the dealer
rotation and the series itself are kept here.  A session with any problem is never
scored: :func:`replay` raises :class:`~scorepad.scoring.pulya.session.SessionInvalid` listing them all.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ...core.i18n import N_, msg, whist_count
from ...core.numbers import Number
from .convention import ConventionError, OverridesRefused, Settings, settings_for
from .game import score_game
from .legal import DealError, seat_range, verify_correction, verify_deal
from .misere import score_misere
from .raspasy import exit_level, score_raspasy
from .session import (
    Correction,
    Game,
    Misere,
    PlayedDeal,
    Problem,
    Raspasy,
    Session,
    SessionInvalid,
    in_file_places,
    unknown_convention,
)
from .settlement import balances_over_deals
from .sheet import Sheet, Tally, Writing
from .table import Table, contract_name
from .whist import Kind, Whisting


@dataclass(slots=True)
class DealResult:
    """What deal ``index`` wrote, and who dealt it (``None`` for a correction)."""

    index: int
    writing: Writing
    dealer: int | None


class Step(NamedTuple):
    """A checked deal and its place at the table: all that writing it needs."""

    deal_index: int
    deal: Correction | PlayedDeal
    dealer: int | None
    in_row: int
    outcome: Whisting | None


@dataclass(frozen=True, slots=True)
class Checked:
    """A session whose every deal obeys the rules in context; ready to be written."""

    session: Session
    settings: Settings
    steps: tuple[Step, ...]
    next_dealer: int
    raspasy_in_row: int


@dataclass(frozen=True, slots=True)
class Scored:
    """A replayed session: per-deal writings, the sheet, and where the table stands now."""

    #: The family it is of (a ledger family's ``FamilyScored.family`` names its own).
    family: ClassVar[str] = "pulya"

    session: Session
    settings: Settings
    deals: tuple[DealResult, ...]
    sheet: Sheet
    next_dealer: int
    raspasy_in_row: int

    @property
    def players(self) -> int:
        return len(self.session.players)

    @property
    def finished(self) -> bool:
        return is_finished(self.sheet.pool, self.session.pool_target, self.settings)

    @property
    def required_exit(self) -> int | None:
        """The lowest contract that ends the current all-pass series, if one is running."""
        return exit_level(self.settings.raspasy_exit, self.raspasy_in_row)

    def results_over_deals(self) -> list[tuple[Number, ...]]:
        """Each player's balance in whists after each deal (the chart), exact: what a ledger
        family's ``FamilyScored.results_over_deals`` is for its own unit."""
        return balances_over_deals([d.writing for d in self.deals], self.settings, self.players)

    def table(self) -> Table:
        """The table the next deal is played at: what :mod:`~scorepad.scoring.pulya.legal` asks about."""
        s = self.session
        return Table(
            self.settings,
            s.players,
            target=s.pool_target,
            dealer=self.next_dealer,
            pools=list(self.sheet.pool),
            raspasy_in_row=self.raspasy_in_row,
        )


def is_finished(pools: Sequence[Number], target: int, settings: Settings) -> bool:
    """The convention's end of the game (§10.1)."""
    if settings.game_end == "all_closed":
        return all(p >= target for p in pools)
    return sum(pools) >= target * len(pools)


def session_settings(session: Session) -> Settings:
    try:
        return settings_for(session.convention, session.overrides)
    except OverridesRefused as exc:
        raise SessionInvalid([Problem(None, "overrides", r) for r in exc.reasons]) from None
    except ConventionError as exc:
        unknown = unknown_convention({"convention": session.convention})
        if unknown is not None:
            raise SessionInvalid([unknown]) from None
        raise SessionInvalid([Problem(None, "convention", exc.message)]) from None


class Replay:
    """Deals checked (and, with ``score``, written) one at a time.

    :func:`validate` checks a whole session, :func:`write` writes it; the store appends one
    deal with :meth:`add` and reads the sheet without replaying the rest.
    """

    def __init__(
        self, session: Session, settings: Settings | None = None, *, score: bool = True
    ) -> None:
        self.session = session
        self.settings = settings or session_settings(session)
        self.score = score
        self.n = len(session.players)
        self.problems: list[Problem] = []
        if session.first_dealer >= self.n:
            self.problems.append(
                Problem(None, "first_dealer", seat_range(session.first_dealer, self.n))
            )
        self.steps: list[Step] = []
        self.writer = Writer(session, self.settings)
        self.dealer = session.first_dealer % self.n
        self.in_row = 0
        self._whist_cache: dict[Any, Any] = {}

    @property
    def sheet(self) -> Sheet:
        return self.writer.sheet

    def table(self, dealer: int | None = None) -> Table:
        """The context of the next played deal."""
        s = self.session
        return Table(
            self.settings,
            s.players,
            target=s.pool_target,
            dealer=self.dealer if dealer is None else dealer,
            pools=self.writer.tally.pool,
            raspasy_in_row=self.in_row,
            whist_cache=self._whist_cache,
        )

    def add(self, index: int, deal: Correction | PlayedDeal) -> list[Problem]:
        """Check deal ``index`` (and write it); returns its problems (nothing is written then)."""
        step, found = self._check(index, deal)
        if found:
            self.problems.extend(found)
            return found
        assert step is not None
        self.steps.append(step)
        if self.score:
            self.writer.write(step)
        return []

    def append(self, deal: Correction | PlayedDeal) -> list[Problem]:
        """Write one more deal after the session's (the store's added deal: nothing else is
        replayed); its problems, and then the session is as it was."""
        problems = self.add(len(self.session.deals), deal)
        if not problems:
            self.session = self.session.model_copy(update={"deals": [*self.session.deals, deal]})
            self.writer.session = self.session
        return problems

    def _check(
        self, index: int, deal: Correction | PlayedDeal
    ) -> tuple[Step | None, list[Problem]]:
        n, names = self.n, self.session.players
        if isinstance(deal, Correction):
            try:
                verify_correction(deal, n)
            except DealError as exc:
                return None, [Problem(index, exc.field, exc.message)]
            return Step(index, deal, None, self.in_row, None), []
        dealer = self.dealer
        found: list[Problem] = []
        if deal.dealer is not None and deal.dealer != dealer:
            if deal.dealer >= n:
                found.append(Problem(index, "dealer", seat_range(deal.dealer, n)))
            elif not deal.dealer_override:
                found.append(
                    Problem(
                        index,
                        "dealer",
                        msg(
                            N_(
                                "the dealer by rotation is {expected}, not {given} (set dealer_override to change it)"
                            ),
                            expected=names[dealer],
                            given=names[deal.dealer],
                        ),
                    )
                )
            else:
                dealer = deal.dealer
        # The deal passes on even past a bad entry, so later deals are checked in their place.
        self.dealer = (dealer + 1) % n
        table = self.table(dealer)
        try:
            outcome = verify_deal(deal, table)
        except DealError as exc:
            found.append(Problem(index, exc.field, exc.message))
            return None, found
        if found:
            return None, found
        step = Step(index, deal, dealer, self.in_row, outcome)
        self.in_row = _next_in_row(deal, table, outcome)
        return step, []

    def checked(self) -> Checked:
        if self.problems:
            raise SessionInvalid(self.problems)
        return Checked(self.session, self.settings, tuple(self.steps), self.dealer, self.in_row)

    def result(self) -> Scored:
        if self.problems:
            raise SessionInvalid(self.problems)
        return self.writer.scored(self.dealer, self.in_row)


class Writer:
    """Writes checked steps onto a sheet: arithmetic only, no rule is checked here."""

    def __init__(self, session: Session, settings: Settings, *, explain: bool = True) -> None:
        self.session = session
        self.settings = settings
        self.explain = explain
        self.tally = Tally(len(session.players))
        self.results: list[DealResult] = []
        # A table reads the tally's live pools, so one per (dealer, all-passes in a row) serves.
        self._tables: dict[tuple[int, int], Table] = {}

    @property
    def sheet(self) -> Sheet:
        return self.tally.sheet()

    def write(self, step: Step) -> DealResult:
        s = self.session
        deal = step.deal
        if isinstance(deal, Correction):
            w = _score_correction(deal, len(s.players), s.players, explain=self.explain)
        else:
            assert step.dealer is not None
            key = (step.dealer, step.in_row)
            table = self._tables.get(key)
            if table is None:
                table = Table(
                    self.settings,
                    s.players,
                    target=s.pool_target,
                    dealer=step.dealer,
                    pools=self.tally.pool,
                    raspasy_in_row=step.in_row,
                    explain=self.explain,
                )
                self._tables[key] = table
            w = _score(deal, table, step.outcome)
        self.tally.add(w)
        result = DealResult(step.deal_index, w, step.dealer)
        self.results.append(result)
        return result

    def scored(self, next_dealer: int, in_row: int) -> Scored:
        return Scored(
            self.session, self.settings, tuple(self.results), self.sheet, next_dealer, in_row
        )


@contextmanager
def batch() -> Iterator[None]:
    """Pause the cycle collector for one batch.

    Scoring makes many small, acyclic objects; each young-generation collection would also walk
    the whole session.  Reference counting still frees everything; the pause ends with the call.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def validate(session: Session, settings: Settings | None = None) -> Checked:
    """Check every deal in context (raises :class:`SessionInvalid` listing every problem)."""
    r = Replay(session, settings, score=False)
    with batch():
        for index, deal in enumerate(session.deals):
            r.add(index, deal)
    if r.problems and session.struck:  # a file with voided deals: name each by its place
        r.problems[:] = in_file_places(r.problems, session.places)
    return r.checked()


def write(checked: Checked, *, explain: bool = True) -> Scored:
    """Write a checked session onto the sheet; ``explain=False`` skips the sentences."""
    w = Writer(checked.session, checked.settings, explain=explain)
    with batch():
        for step in checked.steps:
            w.write(step)
    return w.scored(checked.next_dealer, checked.raspasy_in_row)


def replay(session: Session, settings: Settings | None = None, *, explain: bool = True) -> Scored:
    """Check every deal in context, then write it onto the sheet."""
    return write(validate(session, settings), explain=explain)


def preview(scored: Scored, deal: Correction | PlayedDeal) -> Writing:
    """What ``deal`` would write if it were the next entry (nothing is kept).

    Raises :class:`DealError` with the field and the reason when the rules refuse it.
    """
    s = scored.session
    if isinstance(deal, Correction):
        verify_correction(deal, len(s.players))
        return _score_correction(deal, len(s.players), s.players)
    table = scored.table()
    outcome = verify_deal(deal, table)
    return _score(deal, table, outcome)


def _score(deal: PlayedDeal, t: Table, outcome: Whisting | None) -> Writing:
    if isinstance(deal, Game):
        return score_game(deal, t, outcome)
    if isinstance(deal, Misere):
        return score_misere(deal, t)
    return score_raspasy(deal, t)


def _score_correction(
    c: Correction, n: int, names: Sequence[str], *, explain: bool = True
) -> Writing:
    w = Writing(n, explain=explain)
    name = names[c.seat]
    note = c.note
    if c.pool:
        w.pool[c.seat] += c.pool
        if w.explain is not None:
            w.explain.append(
                msg(
                    N_("Correction ({note}): {points} into {player}'s pulya."),
                    note=note,
                    points=c.pool,
                    player=name,
                )
            )
    if c.gora:
        w.add_gora(c.seat, c.gora)
        if w.explain is not None:
            w.explain.append(
                msg(
                    N_("Correction ({note}): {points} into {player}'s gora."),
                    note=note,
                    points=c.gora,
                    player=name,
                )
            )
    for other, amount in (c.whists or {}).items():
        if amount:
            w.add_whists(c.seat, other, amount)
            if w.explain is not None:
                w.explain.append(
                    msg(
                        N_("Correction ({note}): {player} writes {whists} on {other}."),
                        note=note,
                        player=name,
                        whists=whist_count(amount),
                        other=names[other],
                    )
                )
    return w


def _next_in_row(deal: PlayedDeal, t: Table, outcome: Whisting | None) -> int:
    """All-passes in the series after this deal: one more, or back to none on an exit (§9.2)."""
    s = t.settings
    if isinstance(deal, Raspasy):
        return t.raspasy_in_row + 1
    if t.raspasy_in_row == 0:
        return 0
    if isinstance(deal, Misere):
        failed = deal.tricks[deal.declarer] > 0
        exits = s.raspasy_exit_by_misere and (s.raspasy_exit_by_failure or not failed)
    else:
        assert isinstance(deal, Game)
        if deal.conceded is not None:
            failed = True
        elif outcome is not None and outcome.played:
            assert deal.tricks is not None
            failed = deal.tricks[deal.declarer] < deal.contract.level
        else:
            failed = False
        unwhisted = outcome is not None and outcome.kind in (Kind.ALL_PASSED, Kind.CHECKED)
        exits = (s.raspasy_exit_by_failure or not failed) and (
            s.raspasy_exit_by_unwhisted or not unwhisted
        )
    return 0 if exits else t.raspasy_in_row


__all__ = [
    "Checked",
    "DealError",
    "DealResult",
    "Replay",
    "Scored",
    "Step",
    "contract_name",
    "is_finished",
    "preview",
    "replay",
    "validate",
    "write",
]
