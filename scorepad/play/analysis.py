"""What was makeable, and which card cost it: the double-dummy analysis of an audited deal.

For the deal as played (the declarer's hand after his discard): the declarer's tricks with
best play in the contract played and in each other contract he could have chosen (every
trump, no trump, misère); on an all-pass, each player's tricks against the other two.  Then,
card by card through the actual play, the best the player's side could still reach before the
card and after it: a card after which it is worse cost the side a trick.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.i18n import N_, Msg, msg, nmsg
from ..scoring.contract import Contract, Trump
from .auction import MISERE, Bid
from .cards import ALL_CARDS, Card, card_word
from .dds import DoubleDummy
from .play import Play
from .record import Audit

card_msg = card_word  # ``J♣`` / ``В♣``: the rank letter in the reader's language


@dataclass(frozen=True, slots=True)
class ContractValue:
    """The declarer's tricks with best play in one contract (``code``: ``7S``, ``misere``)."""

    code: str
    tricks: int
    played: bool  # the contract that was played


@dataclass(frozen=True, slots=True)
class CardValue:
    """One card of the actual play and what its side could reach before and after it."""

    trick: int
    seat: int
    card: Card
    side: str  # "declarer", "defence" (a game or a misère) or "player" (an all-pass)
    before: int  # the side's tricks for the whole deal (a misère, an all-pass: the tricks kept to)
    after: int
    costly: bool
    better: Card | None = None  # a card that kept ``before`` (named beside the costly one)


@dataclass(frozen=True, slots=True)
class Analysis:
    kind: str  # "game", "misere" or "raspasy"
    declarer: int | None
    contracts: tuple[ContractValue, ...]  # a game or a misère: every choice, the played one marked
    players: dict[int, int]  # an all-pass: each player's tricks with best play against the others
    cards: tuple[CardValue, ...]


def _fresh(a: Audit, trump: int | None = None, *, same_trump: bool = True) -> Play:
    s = a.start
    assert s is not None
    return Play(
        list(s.hands),
        s.order,
        trump=s.trump if same_trump else trump,
        first_hand=s.first_hand,
        must_overtake=s.must_overtake,
        talon_leads=s.talon_leads,
        talon_owner=s.talon_owner,
    )


def analyse(a: Audit) -> Analysis:
    """The double-dummy account of a legal deal (see the module's summary)."""
    if a.start is None:
        raise ValueError("the deal has no play to analyse")
    declarer = a.declarer
    if declarer is None:
        kind = "raspasy"
        base = _fresh(a)
        players = {seat: DoubleDummy(base, seat, more=False).value(base) for seat in base.order}
        contracts: tuple[ContractValue, ...] = ()
    else:
        kind = "misere" if a.contract == MISERE else "game"
        players = {}
        choices = []
        for code, trump in (("S", 0), ("C", 1), ("D", 2), ("H", 3), ("NT", None)):
            p = _fresh(a, trump, same_trump=False)
            value = DoubleDummy(p, declarer, more=True).value(p)
            played = isinstance(a.contract, Contract) and (
                a.contract.trump.value == code
                or (a.contract.trump is Trump.NO_TRUMP and code == "NT")
            )
            label = a.contract.code if played and isinstance(a.contract, Contract) else code
            choices.append(ContractValue(label, value, played))
        p = _fresh(a, None, same_trump=False)
        choices.append(
            ContractValue(MISERE, DoubleDummy(p, declarer, more=False).value(p), kind == "misere")
        )
        contracts = tuple(choices)
    return Analysis(kind, declarer, contracts, players, _cards(a, kind))


def _cards(a: Audit, kind: str) -> tuple[CardValue, ...]:
    p = _fresh(a)
    declarer = a.declarer
    solvers: dict[int, DoubleDummy] = {}
    if declarer is not None:
        solvers[declarer] = DoubleDummy(p, declarer, more=kind == "game")
    else:
        for seat in p.order:
            solvers[seat] = DoubleDummy(p, seat, more=False)
    out: list[CardValue] = []
    for tr in a.tricks:
        for seat, card in tr.cards:
            if seat not in p.order:  # the 4-player dealer's talon card: nobody chose it
                continue
            counted = seat if declarer is None else declarer
            dd = solvers[counted]
            values = dd.card_values(p)
            done = p.won.get(counted, 0)
            after = done + values[card.index]
            before = done + (
                max(values.values()) if _wants_more(kind, seat, counted) else min(values.values())
            )
            if kind == "game" and seat != declarer:
                side, before, after = "defence", 10 - before, 10 - after
            elif declarer is None:
                side = "player"
            else:
                side = "declarer" if seat == declarer else "defence"
            costly = after != before
            if costly and declarer is None:
                # An all-pass: the value is the player's against the two others' best; a card
                # cost him only if he then took more than he could have kept to.
                costly = a.taken.get(seat, 0) > before
            better = None
            if costly:
                want = max if _wants_more(kind, seat, counted) else min
                best = want(values.values())
                keep = [c for c, v in values.items() if v == best]
                same = [c for c in keep if c >> 3 == card.index >> 3]
                better = ALL_CARDS[min(same or keep)]
            out.append(CardValue(tr.number, seat, card, side, before, after, costly, better))
            p.play(card.index, seat)
    return tuple(out)


def _wants_more(kind: str, seat: int, counted: int) -> bool:
    return (seat == counted) == (kind == "game")


def verdict_line(a: Audit, cv: CardValue) -> Msg:
    """``trick 6, Boris's J♣ instead of 7♣: the defence could have taken 4, now 3``."""
    names = a.record.players
    args: dict[str, Any] = {
        "k": cv.trick,
        "player": names[cv.seat],
        "card": card_msg(cv.card),
        "before": cv.before,
        "after": cv.after,
    }
    if cv.better is not None:
        args["card"] = msg(
            N_("{card} instead of {better}"), card=card_msg(cv.card), better=card_msg(cv.better)
        )
    if cv.side == "player":
        text = N_(
            "trick {k}, {player}'s {card}: {player} could have kept to {before} whatever the others did; after it up to {after}"
        )
    elif a.contract == MISERE:
        text = (
            N_(
                "trick {k}, {player}'s {card}: the declarer could have kept to {before}, now {after}"
            )
            if cv.side == "declarer"
            else N_(
                "trick {k}, {player}'s {card}: the defence could have caught the declarer for {before}, now {after}"
            )
        )
    elif cv.side == "declarer":
        text = N_(
            "trick {k}, {player}'s {card}: the declarer could have taken {before}, now {after}"
        )
    else:
        text = N_(
            "trick {k}, {player}'s {card}: the defence could have taken {before}, now {after}"
        )
    return Msg(text, args)


def result_msg(contract: Bid, tricks: int) -> Msg:
    """Against the contract: ``made``, ``down 2``; a misère ``made`` or ``caught for 2``."""
    if contract == MISERE:
        if tricks == 0:
            return msg(N_("made"))
        return msg(N_("caught for {n}"), n=tricks)
    assert isinstance(contract, Contract)
    if tricks >= contract.level:
        return msg(N_("made"))
    return msg(N_("down {n}"), n=contract.level - tricks)


def _named(cv: ContractValue, level: int) -> tuple[Bid, str | Msg]:
    """The contract of a choice as a player writes it (``7♣``, ``7NT``, ``misère``)."""
    if cv.code == MISERE:
        return MISERE, msg(N_("misère"))
    c = Contract.parse(cv.code) if cv.code[:1].isdigit() else Contract(level, Trump(cv.code))
    if c.trump is Trump.NO_TRUMP:
        return c, msg(N_("{level}NT"), level=c.level)
    return c, c.symbol


def contract_line(cv: ContractValue, level: int = 6, taken: int | None = None) -> Msg:
    """``7♣: 4 tricks, down 3``; the contract played: what was taken, then with best play."""
    contract, name = _named(cv, level)
    best = nmsg("{n} trick", "{n} tricks", cv.tricks)
    if taken is None and contract == MISERE:
        return msg(
            N_("{contract}: {result}"), contract=name, result=result_msg(contract, cv.tricks)
        )
    if taken is None:
        return msg(
            N_("{contract}: {tricks}, {result}"),
            contract=name,
            tricks=best,
            result=result_msg(contract, cv.tricks),
        )
    return msg(
        N_(
            "{contract} (played): the declarer took {taken}, {result}; with best play {best}, {best_result}"
        ),
        contract=name,
        taken=nmsg("{n} trick", "{n} tricks", taken),
        result=result_msg(contract, taken),
        best=best,
        best_result=result_msg(contract, cv.tricks),
    )


def lines(a: Audit, an: Analysis) -> list[Msg]:
    """The analysis in sentences: the contracts, then every card that cost a trick."""
    out: list[Msg] = []
    names = a.record.players
    if an.kind == "raspasy":
        each = ", ".join(f"{names[seat]} {n}" for seat, n in an.players.items())
        out.append(
            msg(
                N_(
                    "Each player's own best alone against the other two (so the counts do not add up): {each}"
                ),
                each=each,
            )
        )
    else:
        level = a.contract.level if isinstance(a.contract, Contract) else 6
        taken = a.taken.get(an.declarer, 0) if an.declarer is not None else None
        for cv in sorted(an.contracts, key=lambda cv: not cv.played):
            out.append(contract_line(cv, level, taken if cv.played and a.tricks else None))
    costly = [cv for cv in an.cards if cv.costly]
    if an.cards and not costly:
        out.append(msg(N_("No card cost its side a trick.")))
    out.extend(verdict_line(a, cv) for cv in costly)
    return out


def analysis_json(a: Audit, an: Analysis, lang: str = "en") -> dict[str, Any]:
    return {
        "kind": an.kind,
        "declarer": an.declarer,
        "contracts": [
            {"contract": cv.code, "tricks": cv.tricks, "played": cv.played} for cv in an.contracts
        ],
        "players": {str(s): n for s, n in an.players.items()},
        "cards": [
            {
                "trick": cv.trick,
                "seat": cv.seat,
                "card": str(cv.card),
                "side": cv.side,
                "before": cv.before,
                "after": cv.after,
                "costly": cv.costly,
                **({"better": str(cv.better)} if cv.better is not None else {}),
                **({"sentence": verdict_line(a, cv).render(lang)} if cv.costly else {}),
            }
            for cv in an.cards
        ],
        "lines": [m.render(lang) for m in lines(a, an)],
    }
