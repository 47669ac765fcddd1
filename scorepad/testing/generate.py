"""Random *valid* sessions: for property tests (driven by hypothesis) and benchmarks (seeded).

Every deal is drawn from what :mod:`scorepad.scoring.pulya.legal` offers at that moment (the dealer
by rotation, the exit level of a running all-pass series, the convention's call sequences, the
talon's cap) and checked by the engine as it is drawn, so a generated session always validates.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from pydantic import TypeAdapter

from ..scoring.contract import Contract, Trump
from ..scoring.pulya import legal
from ..scoring.pulya.convention import settings_for
from ..scoring.pulya.score import Replay
from ..scoring.pulya.session import FORMAT, Deal, Session
from ..scoring.pulya.table import Table

T = TypeVar("T")
_DEAL: TypeAdapter[Any] = TypeAdapter(Deal)
NAMES = ("Anna", "Boris", "Vera", "Gleb")


class Chooser(Protocol):
    def integer(self, lo: int, hi: int) -> int: ...

    def choice(self, options: Sequence[T]) -> T: ...


class RandomChooser:
    """A :class:`Chooser` over :class:`random.Random` (reproducible with a seed)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]


def random_session(
    ch: Chooser,
    *,
    convention: str = "sochi",
    players: int = 3,
    deals: int = 20,
    overrides: dict[str, Any] | None = None,
    corrections: bool = True,
    pool_target: int = 20,
) -> dict[str, Any]:
    """A valid session file (as a dict) of ``deals`` random deals."""
    first = ch.integer(0, players - 1)
    head: dict[str, Any] = {
        "format": FORMAT,
        "players": list(NAMES[:players]),
        "convention": convention,
        "overrides": dict(overrides or {}),
        "pool_target": pool_target,
        "first_dealer": first,
        "whist_price": ch.choice(["1.00", "0.10", "2.50", "100"]),
        "currency": ch.choice(["RUB", "EUR", "JPY"]),
    }
    settings = settings_for(convention, overrides)
    r = Replay(Session.model_validate({**head, "deals": []}), settings)
    out: list[dict[str, Any]] = []
    for index in range(deals):
        d = random_deal(ch, r.table(), corrections=corrections)
        problems = r.add(index, _DEAL.validate_python(d))
        assert not problems, (d, [p.render() for p in problems])
        out.append(d)
    return {**head, "deals": out}


def _split(
    ch: Chooser, total: int, seats: Sequence[int], caps: dict[int, int] | None = None
) -> dict[str, int]:
    caps = caps or {}
    left = total
    out: dict[str, int] = {}
    for i, seat in enumerate(seats):
        rest_cap = sum(caps.get(s, 10) for s in seats[i + 1 :])
        lo = max(0, left - rest_cap)
        hi = min(left, caps.get(seat, 10))
        take = left if i == len(seats) - 1 else ch.integer(lo, hi)
        out[str(seat)] = take
        left -= take
    return out


def random_deal(ch: Chooser, t: Table, *, corrections: bool = True) -> dict[str, Any]:
    kinds = (
        ["game"] * 6 + ["misere", "raspasy", "raspasy"] + (["correction"] if corrections else [])
    )
    kind = ch.choice(kinds)
    if kind == "misere" and kind not in legal.kinds(t):
        kind = "raspasy"
    if kind == "game":
        return _game(ch, t)
    if kind == "misere":
        declarer = ch.choice(legal.declarers(t))
        d: dict[str, Any] = {
            "type": "misere",
            "declarer": declarer,
            "tricks": {str(declarer): ch.choice([0, 0, 0, 1, 2, 4])},
        }
        if t.sits_out is not None and ch.integer(0, 3) == 0:
            d["shared_with_dealer"] = True
        return d
    if kind == "raspasy":
        seats = legal.trick_seats(t, "raspasy")
        caps = {seat: legal.trick_cap(t, "raspasy", seat) for seat in seats}
        return {"type": "raspasy", "tricks": _split(ch, 10, seats, caps)}
    seat = ch.integer(0, t.players - 1)
    c: dict[str, Any] = {"type": "correction", "seat": seat, "note": "agreed at the table"}
    if ch.integer(0, 1):
        c["pool"] = ch.integer(0, 6)
    if ch.integer(0, 1):
        c["gora"] = ch.choice([ch.integer(-4, 12), "7/2", "-1/3"])
    others = [s for s in range(t.players) if s != seat]
    if ch.integer(0, 1):
        c["whists"] = {str(o): ch.choice([ch.integer(0, 40), "10/3"]) for o in others}
    return c


def _game(ch: Chooser, t: Table) -> dict[str, Any]:
    s = t.settings
    declarer = ch.choice(legal.declarers(t))
    level = ch.choice(legal.levels(t))
    trump = ch.choice(list(Trump))
    contract = Contract(level, trump)
    d: dict[str, Any] = {"type": "game", "declarer": declarer, "contract": contract.code}
    conceded = s.concede != "none" and ch.integer(0, 9) == 0
    if conceded:
        d["conceded"] = s.concede
    if legal.has_talon_premium(t) and ch.integer(0, 2) == 0:
        d["talon_bonus"] = ch.integer(0, 3)
    if conceded:
        return d
    d1, d2 = t.defenders(declarer)
    options = legal.sequences(t, declarer, contract)
    if options:
        chosen = ch.choice(list(options))
        d["calls"] = [str(c) for c in chosen]
        outcome = options[chosen]
    else:
        outcome = legal.verify_calls(
            t, declarer=declarer, contract=contract, calls=None
        )  # a checked ten
    played, lone = outcome.played, outcome.lone_whister
    if played:
        taken = ch.integer(max(0, level - 4), 10)
        defence = _split(ch, 10 - taken, [d1, d2])
        d["tricks"] = {str(declarer): taken, **defence}
        if lone and ch.integer(0, 3) == 0:
            d["open"] = True
    return d


def random_record(
    ch: Chooser,
    *,
    convention: str = "sochi",
    players: int = 3,
    overrides: dict[str, Any] | None = None,
    raspasy_in_row: int = 0,
    claim: bool = False,
) -> dict[str, Any]:
    """A legal deal record: a random deal, bid, whisted and played by random legal moves."""
    from ..play.auction import PASS, Auction, legal_bids, rank
    from ..play.cards import ALL_CARDS, Hand, Suit
    from ..play.play import Play

    s = settings_for(convention, overrides)
    dealer = ch.integer(0, players - 1)
    t = Table(
        s,
        NAMES[:players],
        target=10,
        dealer=dealer,
        pools=[0] * players,
        raspasy_in_row=raspasy_in_row,
    )
    deck = list(range(32))
    for i in range(31, 0, -1):  # Fisher-Yates with the chooser, so hypothesis can shrink it
        j = ch.integer(0, i)
        deck[i], deck[j] = deck[j], deck[i]
    hands = {seat: deck[k * 10 : (k + 1) * 10] for k, seat in enumerate(t.active)}
    talon = deck[30:32]
    text = {seat: " ".join(str(ALL_CARDS[c]) for c in cards) for seat, cards in hands.items()}
    a = Auction(t.active, legal.required_exit(t))
    said: list[str] = []
    while not a.finished:
        options = legal_bids(a)
        # Mostly pass, so auctions end; bids climb slowly.
        b = (
            PASS
            if ch.integer(0, 2) or len(options) == 1
            else options[min(len(options) - 1, ch.integer(1, 3))]
        )
        said.append(b if isinstance(b, str) else b.code)
        a = a.bid(b)
    record: dict[str, Any] = {
        "format": "scorepad-deal/1",
        "players": list(NAMES[:players]),
        "convention": convention,
        "overrides": dict(overrides or {}),
        "dealer": dealer,
        "raspasy_in_row": raspasy_in_row,
        "hands": {str(k): v for k, v in text.items()},
        "talon": " ".join(str(ALL_CARDS[c]) for c in talon),
        "auction": said,
    }
    masks = [0] * players
    for seat, cards in hands.items():
        for c in cards:
            masks[seat] |= 1 << c
    declarer = a.winner
    trump: int | None = None
    first = t.active[0]
    if declarer is None:
        if s.raspasy_talon == "open":
            owner = t.sits_out
            if owner is not None:
                masks[owner] = (1 << talon[0]) | (1 << talon[1])
            p = Play(
                masks,
                t.active,
                trump=None,
                first_hand=first,
                must_overtake=s.must_overtake,
                talon_leads=tuple(talon),
                talon_owner=owner,
            )
        else:
            p = Play(masks, t.active, trump=None, first_hand=first, must_overtake=s.must_overtake)
    else:
        final = a.final_bid
        assert final is not None
        pool = hands[declarer] + talon
        discard = [pool.pop(ch.integer(0, len(pool) - 1)) for _ in range(2)]
        masks[declarer] = sum(1 << c for c in pool)
        record["discard"] = " ".join(str(ALL_CARDS[c]) for c in discard)
        if isinstance(final, Contract):
            up = [
                Contract(lv, tr)
                for lv in range(final.level, 11)
                for tr in Trump
                if rank(Contract(lv, tr)) >= rank(final)
            ]
            contract = final if ch.integer(0, 3) else ch.choice(up[:4])
            record["contract"] = contract.code
            suit = Suit.from_trump(contract.trump)
            trump = None if suit is None else suit.index
            calls = legal.sequences(t, declarer, contract)
            if calls:
                spoken = ch.choice(list(calls))
                record["calls"] = [str(c) for c in spoken]
                if not calls[spoken].played:
                    return record
        else:
            record["contract"] = "misere"
        p = Play(masks, t.active, trump=trump, first_hand=first, must_overtake=s.must_overtake)
    tricks: list[str] = []
    stop = ch.integer(3, 9) if claim and declarer is not None else 10
    while p.trick_number < stop:
        played: list[str] = []
        for _ in range(len(p.order)):
            card = ch.choice(list(Hand(p.legal(p.to_play))))
            played.append(str(card))
            p.play(card.index)
        tricks.append(" ".join(played))
    record["play"] = tricks
    if stop < 10 and declarer is not None:
        from ..play.dds import solve as best_tricks

        more = record.get("contract") != "misere"
        value = best_tricks(p, declarer, more=more)
        others = [s for s in p.order if s != declarer]
        # Each defender gets at least what he takes alone against the other two.
        second = best_tricks(p, others[1], more=True) if more else 0
        record["claim"] = {
            "by": declarer,
            "tricks": {
                str(declarer): value,
                str(others[0]): 10 - stop - value - second,
                str(others[1]): second,
            },
        }
    return record


# --- the other families (bula, kassa, pot, direct) ---------------------------------------------


def random_family_session(
    ch: Chooser, *, convention: str = "balkan", deals: int = 20, tries: int = 40
) -> dict[str, Any]:
    """A valid session file of a ledger family's preset: each deal drawn at random and kept
    only when the family's engine accepts it (a refused one changes nothing there)."""
    from ..scoring.ledger.bula import BulaError
    from ..scoring.ledger.families import (
        family_presets,
        parse_family_deal,
        parse_family_session,
        start_table,
    )
    from ..scoring.ledger.kassa import KassaError
    from ..scoring.ledger.pot import PotError

    preset = family_presets()[convention]
    head: dict[str, Any] = {
        "format": FORMAT,
        "players": list(NAMES[:3]),
        "convention": convention,
        "first_dealer": ch.integer(0, 2),
        "whist_price": ch.choice(["0.10", "1", "0.07", "2.50"]),
        "currency": ch.choice(["EUR", "RUB", "JPY"]),
        "deals": [],
    }
    session = parse_family_session(head)
    table = start_table(preset.resolve(), session)
    made: list[dict[str, Any]] = []
    draw = {"bula": _bula_deal, "kassa": _kassa_deal, "pot": _pot_deal, "direct": _pot_deal}
    for _ in range(deals):
        if table.finished:
            break
        for _ in range(tries):
            data = draw[preset.family](ch, table)
            model = parse_family_deal(preset.family, data, index=len(made))
            try:
                table.play(model)
            except (BulaError, KassaError, PotError):
                continue
            made.append(data)
            break
    return head | {"deals": made}


def _share(ch: Chooser, seats: list[int], total: int) -> dict[str, int]:
    """``total`` tricks among ``seats`` at random (the last seat takes the rest)."""
    out: dict[str, int] = {}
    left = total
    for seat in seats[:-1]:
        out[str(seat)] = ch.integer(0, left)
        left -= out[str(seat)]
    out[str(seats[-1])] = left
    return out


def _bula_deal(ch: Chooser, table: Any) -> dict[str, Any]:
    kind = ch.choice(["game"] * 6 + ["allpass", "pik"])
    d = ch.integer(0, 2)
    if kind == "allpass":
        return {"type": "allpass"}
    if kind == "pik":
        return {"type": "pik_no_contra", "declarer": d}
    o1, o2 = [p for p in range(3) if p != d]
    bid = ch.integer(2, 7)
    roles = ch.choice(
        [
            ("follow", "follow"),
            ("follow", "pass"),
            ("pass", "follow"),
            ("invite", "invited"),
            ("pass", "pass"),
        ]
    )
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": d,
        "bid": bid,
        "hand": ch.choice([False, False, True]),
        "defence": {str(o1): roles[0], str(o2): roles[1]},
    }
    if roles == ("pass", "pass"):
        return deal
    if roles[0] == "follow" and ch.integer(0, 5) == 0:
        deal["contra"] = {"by": o1, "level": ch.integer(1, 2)}
    playing = [d] + [
        p for p, r in ((o1, roles[0]), (o2, roles[1])) if r != "pass" or "contra" in deal
    ]
    own = ch.choice([6, 6, 7, 8, 5, 4, 10]) if bid != 6 else ch.choice([0, 0, 1])
    deal["tricks"] = {str(d): own, **_share(ch, playing[1:], 10 - own)}
    return deal


def _kassa_deal(ch: Chooser, table: Any) -> dict[str, Any]:
    d = ch.integer(0, 2)
    o1, o2 = [p for p in range(3) if p != d]
    level = ch.choice([6, 6, 6, 7, 7, 8, 9, 10])
    trump = ch.choice(["S", "C", "D", "H"] + (["NT"] if level < 10 else []))
    roles = ch.choice(
        [
            ("whist", "whist"),
            ("whist", "pass"),
            ("pass", "whist"),
            ("invite", "invited"),
            ("pass", "pass"),
        ]
    )
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": d,
        "contract": f"{level}{trump}",
        "defence": {str(o1): roles[0], str(o2): roles[1]},
    }
    if roles != ("pass", "pass"):
        playing = [p for p, r in ((o1, roles[0]), (o2, roles[1])) if r != "pass"]
        own = min(10, level + ch.integer(-2, 1))
        deal["tricks"] = {str(d): own, **_share(ch, playing, 10 - own)}
    return deal


def _pot_deal(ch: Chooser, table: Any) -> dict[str, Any]:
    system = table.settings.system
    d = ch.integer(0, 2)
    o = [p for p in range(3) if p != d]
    kinds = {
        "1829": ["game"] * 8 + ["bete"],
        "modern": ["game"] * 8 + ["concede"],
        "illustrated": ["game"] * 6 + ["nonsuit", "nonsuit", "concede"],
        "american": ["game"],
        "swabian": ["swabian"],
    }[system]
    kind = ch.choice(kinds)
    if kind == "bete":
        return {"type": "bete", "dealer": d}
    if kind == "concede":
        return {"type": "concede", "declarer": d, "defence": {str(o[0]): "play", str(o[1]): "play"}}
    if kind == "nonsuit":
        return {
            "type": "nonsuit",
            "declarer": d,
            "contract": ch.choice(["bettel", "durchmarsch", "plauderer", "open_durchmarsch"]),
            "hand": ch.choice([False, True]),
            "contra": {str(o[0]): ch.choice([False, False, True])},
            "tricks": ch.choice([0, 0, 1, 10, 10, 9]),
        }
    if kind == "swabian":
        return {
            "type": "swabian",
            "declarer": d,
            "bid": ch.integer(2, 7),
            "hand": ch.choice([False, True]),
            "tricks": ch.integer(3, 10),
            "contra": {str(o[1]): ch.choice([False, False, True])},
        }
    if system == "american":  # the declarer plays against both: no defence to choose
        own = ch.choice([6, 6, 7, 8, 5, 4])
        return {
            "type": "game",
            "declarer": d,
            "suit": ch.choice(["C", "S", "D", "H"]),
            "tricks": {str(d): own},  # the declarer's alone: the pot pays him only
        }
    roles = ch.choice([("play", "play"), ("play", "drop"), ("invite", "invited"), ("drop", "drop")])
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": d,
        "suit": ch.choice(["C", "S", "D", "H"]),
        "hand": ch.choice([False, False, True]),
        "defence": {str(o[0]): roles[0], str(o[1]): roles[1]},
    }
    if roles != ("drop", "drop"):
        inplay = [p for p, r in zip(o, roles, strict=True) if r != "drop"]
        own = ch.choice([6, 6, 7, 8, 5, 4])
        deal["tricks"] = {str(d): own, **_share(ch, inplay, 10 - own)}
    return deal
