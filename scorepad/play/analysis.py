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

from ..contract import Contract, Trump
from ..i18n import N_, Msg, msg
from .auction import MISERE
from .cards import Card
from .dds import DoubleDummy
from .play import Play
from .record import Audit

_RANK_WORDS = (None, None, None, None, N_("J"), N_("Q"), N_("K"), N_("A"))


def card_msg(card: Card) -> Msg:
    """``J♣`` / ``В♣``: the rank letter in the reader's language."""
    word = _RANK_WORDS[card.rank]
    rank: str | Msg = card.rank_text if word is None else msg(word)
    return Msg("{rank}{suit}", {"rank": rank, "suit": card.suit.symbol})


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
            out.append(CardValue(tr.number, seat, card, side, before, after, costly))
            p.play(card.index, seat)
    return tuple(out)


def _wants_more(kind: str, seat: int, counted: int) -> bool:
    return (seat == counted) == (kind == "game")


def verdict_line(a: Audit, cv: CardValue) -> Msg:
    """``trick 6, Boris's J♣: the defence could have taken 4, now 3``."""
    names = a.record.players
    args: dict[str, Any] = {
        "k": cv.trick,
        "player": names[cv.seat],
        "card": card_msg(cv.card),
        "before": cv.before,
        "after": cv.after,
    }
    if cv.side == "player":
        text = N_("trick {k}, {player}'s {card}: {player} could have kept to {before}, now {after}")
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


def contract_line(cv: ContractValue) -> Msg:
    if cv.code == MISERE:
        return msg(N_("misère: the declarer takes {n} with best play"), n=cv.tricks)
    name: str | Msg
    if cv.code == "NT" or cv.code.endswith("NT"):
        name = (
            msg(N_("{level}NT"), level=int(cv.code[:-2])) if cv.code[:-2] else msg(N_("no trump"))
        )
    else:
        level = cv.code[:-1]
        name = level + "♠♣♦♥"["SCDH".index(cv.code[-1])]
    return msg(N_("{contract}: the declarer takes {n} with best play"), contract=name, n=cv.tricks)


def lines(a: Audit, an: Analysis) -> list[Msg]:
    """The analysis in sentences: the contracts, then every card that cost a trick."""
    out: list[Msg] = []
    names = a.record.players
    if an.kind == "raspasy":
        for seat, n in an.players.items():
            out.append(
                msg(
                    N_("{player} takes {n} with best play against the other two"),
                    player=names[seat],
                    n=n,
                )
            )
    else:
        for cv in an.contracts:
            line = contract_line(cv)
            out.append(msg(N_("{line} (played)"), line=line) if cv.played else line)
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
                **({"sentence": verdict_line(a, cv).render(lang)} if cv.costly else {}),
            }
            for cv in an.cards
        ],
        "lines": [m.render(lang) for m in lines(a, an)],
    }
