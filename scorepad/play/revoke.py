"""A revoke (фальшренонс) in a deal record, and what the table's rule makes of it.

:func:`~scorepad.play.record.audit` stops at the first illegal card.  When that card is a revoke
(the player held it, it was his turn, and he did not follow suit or did not trump as he had to:
Kodex §3.9.16), the deal is still a deal: :func:`audit_revoke` replays the record past it, counts
the tricks as played on (or claimed), and applies the convention's ``revoke`` setting to give the
tricks as they must be written and the session entry of the deal.  Any other fault (a card not
held, played by the wrong player, played twice) stays a record that cannot be scored.

The rule moves tricks from the offender's side to the other side (``docs/settings.md``,
``revoke``): ``one_trick`` (Kodex §3.9.16.2, the minimum), ``two_tricks`` (the house rule «без
двух», after §3.9.18), ``rest`` (the revoke's trick and every later one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.i18n import N_, Msg, msg, nmsg
from .auction import MISERE, Bid
from .cards import ALL_CARDS, SPELLINGS, Card, CardError, card_word
from .record import (
    DealRecord,
    RecordInvalid,
    begin,
    claim_checked,
    session_entry,
    trick_step,
    verified_entry,
    why_illegal,
)

__all__ = [
    "BestPlay",
    "Revoke",
    "RevokeVerdict",
    "audit_revoke",
    "best_play",
    "best_play_lines",
    "penalty_moves",
]


@dataclass(frozen=True, slots=True)
class Revoke:
    """The revoke: in which trick (1-based), by whom, which card, and the rule it broke."""

    trick: int
    seat: int
    card: Card
    why: Msg  # "Olga played 9♦ while holding a club — revoke"


@dataclass(frozen=True, slots=True)
class RevokeVerdict:
    """A record whose one fault is a revoke, and the deal the table's rule writes."""

    record: DealRecord
    revoke: Revoke
    rule: str  # the convention's ``revoke`` setting
    declarer: int | None
    contract: Bid | None
    played_out: bool  # the play went on to the end (or to a claim): the tricks are counted
    taken: dict[int, int] = field(default_factory=dict)  # as played (the claim included)
    written: dict[int, int] = field(default_factory=dict)  # after the penalty
    moves: tuple[tuple[int, int, int], ...] = ()  # (from seat, to seat, tricks)
    entry: dict[str, Any] = field(default_factory=dict)  # the deal as it must be written


def audit_revoke(record: DealRecord) -> RevokeVerdict:
    """Replay a record whose first fault is a revoke; :class:`RecordInvalid` for any other fault
    (or a second revoke: the check settles one)."""
    b = begin(record)
    if not b.played:
        raise RecordInvalid(
            "play", msg(N_("the deal was not played (no whist), so it has no tricks"))
        )
    p, names = b.play, record.players
    found: Revoke | None = None
    seen: dict[int, int] = {}
    # Each trick's winner, by trick number: the ``rest`` rule counts from the revoke's trick.
    winners: list[int] = []
    for k, text in enumerate(record.play, start=1):
        if p.finished:
            raise RecordInvalid(trick_step(k), msg(N_("all ten tricks were already played")))
        talon = ALL_CARDS[p.talon_leads[k - 1]] if k - 1 < len(p.talon_leads) else None
        try:
            cards = [SPELLINGS.get(t) or Card.parse(t) for t in text.replace(",", " ").split()]
        except CardError as exc:
            raise RecordInvalid(trick_step(k), exc.message) from None
        if len(cards) != len(p.order):
            why = msg(
                N_("a trick has {n} cards here, not {given}"), n=len(p.order), given=len(cards)
            )
            raise RecordInvalid(trick_step(k), why)
        for i, card in enumerate(cards):
            seat = p.to_play
            legal = p.legal(seat) >> card.index & 1
            held = p.hands[seat] >> card.index & 1
            if not legal:
                owner = next((s for s in p.order if p.hands[s] >> card.index & 1), None)
                why = why_illegal(p, names, seen, owner, seat, card, first=i == 0, talon=talon)
                if not held or found is not None:
                    raise RecordInvalid(trick_step(k), why)
                found = Revoke(k, seat, card, why)
            seen[card.index] = k
            done = p.play(card.index, seat)
            if done is not None:
                winners.append(done[0])
    if found is None:
        raise RecordInvalid("play", msg(N_("this deal has no revoke")))
    declarer, contract = b.declarer, b.contract
    rule = b.table.settings.revoke
    if p.current or (not p.finished and record.claim is None):
        # Stopped at the revoke (or before the end, unclaimed): the count is not known yet.
        return RevokeVerdict(record, found, rule, declarer, contract, played_out=False)
    taken = dict(p.won)
    if record.claim is not None:
        claim_checked(record, p, declarer, contract, taken, names, b.table)
    after = taken_from(winners, found.trick)
    if record.claim is not None:
        for seat, n in record.claim.tricks.items():
            after[int(seat)] = after.get(int(seat), 0) + n
    moves = penalty_moves(
        rule,
        offender=found.seat,
        declarer=declarer,
        misere=contract == MISERE,
        order=p.order,
        whisters=b.whisting.whisters if b.whisting is not None else (),
        taken=taken,
        after=after,
    )
    written = dict(taken)
    for giver, to, n in moves:
        written[giver] -= n
        written[to] = written.get(to, 0) + n
    entry = verified_entry(
        session_entry(record, declarer, contract, b.whisting, written, b.table), b.table
    )
    return RevokeVerdict(
        record, found, rule, declarer, contract, True, taken, written, tuple(moves), entry
    )


def taken_from(winners: list[int], trick: int) -> dict[int, int]:
    """Tricks each seat won from trick number ``trick`` (1-based) on."""
    out: dict[int, int] = {}
    for w in winners[trick - 1 :]:
        out[w] = out.get(w, 0) + 1
    return out


def penalty_moves(
    rule: str,
    *,
    offender: int,
    declarer: int | None,
    misere: bool,
    order: tuple[int, ...],
    whisters: tuple[int, ...],
    taken: dict[int, int],
    after: dict[int, int],
) -> list[tuple[int, int, int]]:
    """The tricks the rule moves, as (from, to, n): from the offender's side to the other side,
    never more than the giving side took (``docs/settings.md``, ``revoke``).

    >>> penalty_moves("one_trick", offender=1, declarer=0, misere=False, order=(0, 1, 2),
    ...               whisters=(1,), taken={0: 6, 1: 3, 2: 1}, after={0: 4, 1: 1})
    [(1, 0, 1)]
    """
    defenders = [s for s in _clockwise(order, declarer) if s != declarer]
    givers: list[int]
    takers: list[int]
    if declarer is None:  # all-pass: the offender takes tricks off the others, most first
        around = _clockwise(order, offender)
        givers = sorted(
            (s for s in order if s != offender), key=lambda s: (-taken.get(s, 0), around.index(s))
        )
        takers = [offender]
    elif misere and offender == declarer:  # he takes them off the defenders, more first
        givers, takers = sorted(defenders, key=lambda s: -taken.get(s, 0)), [declarer]
    elif misere:  # a defender's revoke: tricks come off the declarer, to the offender
        givers, takers = [declarer], [offender]
    elif offender == declarer:  # to the whisters in turn, the declarer's left first
        givers, takers = [declarer], [s for s in defenders if s in whisters] or defenders
    else:  # the offender's own tricks first, then his partner's
        givers, takers = [offender, *(s for s in defenders if s != offender)], [declarer]
    most = declarer is None or (misere and offender == declarer)
    left = {s: taken.get(s, 0) for s in givers}
    if rule == "rest":  # what the giving side took from the revoke's trick on
        owed = {s: min(after.get(s, 0), left[s]) for s in givers}
    else:
        owed = {s: 0 for s in givers}
        for _ in range(2 if rule == "two_tricks" else 1):
            # Off the one who has the most left (all-pass, a misère's defenders: ``givers`` is
            # in that order), or in ``givers``' order of priority (the offender first).
            spare = [s for s in givers if left[s] - owed[s] > 0]
            if not spare:
                break
            giver = max(spare, key=lambda s: left[s] - owed[s]) if most else spare[0]
            owed[giver] += 1
    moves: dict[tuple[int, int], int] = {}
    turn = 0
    for giver in givers:
        for _ in range(owed[giver]):
            to = takers[turn % len(takers)]
            turn += 1
            moves[giver, to] = moves.get((giver, to), 0) + 1
    return [(g, t, k) for (g, t), k in moves.items()]


def _clockwise(order: tuple[int, ...], start: int | None) -> list[int]:
    """The seats of ``order`` clockwise from ``start``'s left (``start`` last)."""
    if start is None or start not in order:
        return list(order)
    i = order.index(start)
    return [*order[i + 1 :], *order[: i + 1]]


@dataclass(frozen=True, slots=True)
class BestPlay:
    """What was makeable with best play (the double-dummy search, every hand open), for the
    declarer (on an all-pass, for each player alone against the other two): over the whole
    deal from its start, and from the position just before the revoking card (the tricks won
    until then, then best play with the offender following suit as he had to)."""

    counted: tuple[int, ...]
    start: dict[int, int]
    at_revoke: dict[int, int]


def best_play(record: DealRecord) -> BestPlay:
    """:class:`BestPlay` of a record whose one fault is a revoke (:func:`audit_revoke` checks
    it first: :class:`RecordInvalid` for any other).  Seconds of CPU with the Python search:
    the app runs it in the analyses' workers (app/analyses.py), never on a page's loop."""
    from .dds import DoubleDummy

    audit_revoke(record)
    b = begin(record)
    p = b.play
    counted = (b.declarer,) if b.declarer is not None else tuple(p.order)
    more = b.declarer is not None and b.contract != MISERE

    def solve() -> dict[int, int]:
        # A search made at the position (it sizes itself by the tricks left).
        return {s: p.won.get(s, 0) + DoubleDummy(p, s, more=more).value(p) for s in counted}

    start = solve()
    for text in record.play:
        for t in text.replace(",", " ").split():
            card = SPELLINGS.get(t) or Card.parse(t)
            seat = p.to_play
            if not p.legal(seat) >> card.index & 1:  # the revoke: the position before it
                return BestPlay(counted, start, solve())
            p.play(card.index, seat)
    raise RecordInvalid("play", msg(N_("this deal has no revoke")))  # audit_revoke found one


def best_play_lines(
    v: RevokeVerdict, best: BestPlay, sheet: dict[str, Any] | None = None
) -> list[Msg]:
    """Best play in sentences, after the revoke rule's verdict: from the deal's start, from the
    revoke's position, and each counted player's tricks on the sheet, by the cards, as the rule
    writes them and with best play from the revoke's position, side by side."""
    from .analysis import result_msg

    names = v.record.players
    where = msg(
        N_("trick {k}, before {player}'s {card}"),
        k=v.revoke.trick,
        player=names[v.revoke.seat],
        card=card_word(v.revoke.card),
    )
    out: list[Msg] = []
    if v.declarer is not None and v.contract is not None:
        for n, text in (
            (best.start[v.declarer], N_("With best play from the deal's start {player} takes {tricks}: {result}.")),
            (best.at_revoke[v.declarer], N_("With best play from the revoke's position ({where}) {player} takes {tricks}: {result}.")),
        ):  # fmt: skip
            out.append(
                msg(
                    text,
                    player=names[v.declarer],
                    tricks=nmsg("{n} trick", "{n} tricks", n),
                    result=result_msg(v.contract, n),
                    where=where,
                )
            )
    else:
        for seats, text in (
            (best.start, N_("With best play from the deal's start, each alone against the other two: {each}.")),
            (best.at_revoke, N_("With best play from the revoke's position ({where}), each alone against the other two: {each}.")),
        ):  # fmt: skip
            each = ", ".join(f"{names[s]} {n}" for s, n in seats.items())
            out.append(msg(text, each=each, where=where))
    on_sheet = (sheet or {}).get("tricks") or {}
    for seat in best.counted:
        if not v.played_out:
            continue
        counts: dict[str, Any] = {
            "player": names[seat],
            "taken": v.taken.get(seat, 0),
            "written": v.written.get(seat, 0),
            "best": best.at_revoke[seat],
        }
        if str(seat) in on_sheet:
            out.append(
                msg(
                    N_(
                        "{player}'s tricks: the sheet {sheet}, the cards {taken}, the revoke rule {written}, best play {best}."
                    ),
                    sheet=on_sheet[str(seat)],
                    **counts,
                )
            )
        else:
            out.append(
                msg(
                    N_(
                        "{player}'s tricks: the cards {taken}, the revoke rule {written}, best play {best}."
                    ),
                    **counts,
                )
            )
    return out
