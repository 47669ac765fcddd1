"""The pot and direct families: Austrian (1829 and modern), Illustrated, Danube-Swabian, American.

Three players.  Money moves at once: between the **pot** and a player's **cash** (the ante counted
as paid out), or directly between players.  A player's standing is his cash plus a share of the pot
(A12).  Rules are cited by the digest's ids (central-european §1 A*, §2 B*, §3 C*, §5 E*, §6 F*);
``system`` picks the rules and the settings fix the amounts.

* ``1829`` — the pot, per-trick money by suit, short defenders pay from their pocket (A4–A12).
* ``modern`` — the fixed pot 10/20/10 and 1 per trick, or an unlimited, limited or Styrian pot;
  concessions and premiums (B5–B12).
* ``illustrated`` — ``modern`` for the suits, and Bettel, Durchmarsch, Plauderer and open
  Durchmarsch settled directly with contra and recontra per opponent (C1–C2).
* ``swabian`` — no pot: the bid number per over- and undertrick, Kunstwerk (E2–E5).
* ``american`` — a pot with agreed payouts, and second-round chips (F1–F4).

>>> t = PotTable.start(PotSettings(system="1829", ante=240), ["Anton", "Brigitte", "Charlotte"])
>>> g = PotGame(type="game", declarer=0, suit="D", defence={1: "play", 2: "play"},
...             tricks={0: 6, 1: 2, 2: 2})
>>> _ = t.play(g)
>>> t.cash, t.pot
([-222, -234, -234], 690)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ...core.i18n import N_, Msg, msg, nmsg
from ...core.numbers import Number, normal
from ..pulya.legal import DealError
from ..pulya.session import Note, SeatKey
from .defence import verify_roles, verify_tricks, verify_unplayed
from .ledger import Account, Ledger, Posting
from .seats import Seat, dealt_in, verify_dealer, verify_player

System = Literal["1829", "modern", "illustrated", "swabian", "american"]
Suit = Literal["C", "S", "D", "H"]
Role = Literal["play", "drop", "invite", "invited"]
NonSuit = Literal["bettel", "durchmarsch", "plauderer", "open_durchmarsch"]
Count = Annotated[int, Field(strict=True, ge=0, le=10)]
Amount = Annotated[int, Field(ge=0, le=1_000_000)]

# The ladder, low to high: the number of a suit bid (clubs 1 … hearts 4; B9, A3).
SUIT_NUMBER = {"C": 1, "S": 2, "D": 3, "H": 4}
SUIT_NAMES = {"C": N_("clubs"), "S": N_("spades"), "D": N_("diamonds"), "H": N_("hearts")}
NONSUIT_NAMES = {
    "bettel": N_("Bettel"),
    "durchmarsch": N_("Durchmarsch"),
    "plauderer": N_("Plauderer"),
    "open_durchmarsch": N_("open Durchmarsch"),
}
NONSUIT_INDEX = {"bettel": 0, "durchmarsch": 1, "plauderer": 2, "open_durchmarsch": 3}
# Swabian bids (E, §5.1): 2 leaves … 5 acorns, 6 Bettel, 7 Durchmarsch.
SWABIAN_NAMES = {
    2: N_("leaves"),
    3: N_("bells"),
    4: N_("hearts"),
    5: N_("acorns"),
    6: N_("Bettel"),
    7: N_("Durchmarsch"),
}


class PotError(DealError):
    """A deal breaks a rule of the pot family: ``field`` and the sentence a player reads."""


def _suits(c: int, s: int, d: int, h: int) -> dict[Suit, int]:
    return {"C": c, "S": s, "D": d, "H": h}


def _nonsuit_values() -> dict[NonSuit, int]:
    return {"bettel": 10, "durchmarsch": 20, "plauderer": 30, "open_durchmarsch": 40}


class PotSettings(BaseModel):
    """The settings of the pot and direct families (central-european §10, defaults §11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["pot", "direct"] = "pot"
    system: System = Field(
        "modern",
        description=N_(
            "Which rules: Vienna 1829, modern Austrian, Illustrated, Danube-Swabian or American."
        ),
    )
    ante: Amount = Field(
        50,
        description=N_(
            "Each player's stake into the pot at the start and whenever the pot is filled again."
        ),
    )
    pot_refill: Literal["before_short_deal", "when_empty"] = Field(
        "before_short_deal",
        description=N_(
            "When the players pay in again: before a deal whose win the pot cannot pay, or when it is empty."
        ),
    )
    pot_remainder: Literal["split", "carry"] = Field(
        "split",
        description=N_(
            "What is left in the pot when play stops: shared equally, or carried to the next game."
        ),
    )
    # 1829
    trick_rate: dict[Suit, Amount] = Field(
        default_factory=lambda: _suits(1, 2, 3, 4),
        description=N_("1829: the price of a trick by trump (♣1 ♠2 ♦3 ♥4 kr)."),
    )
    value_factor: Amount = Field(
        10, description=N_("1829: a game is worth this × the trick price.")
    )
    bete: Amount = Field(
        10, description=N_("1829: the penalty (Bete) of a dealer who declines the talon.")
    )
    hand_multiplier: Amount = Field(
        2,
        description=N_(
            "1829: a hand game multiplies the trick price and the game's value by this."
        ),
    )
    short_pair: Literal["literal", "split"] = Field(
        "literal",
        description=N_(
            "1829: when both defenders are short on a made game, each pays everyone's tricks, or they share the declarer's."
        ),
    )
    # modern Austrian
    win: Amount = Field(
        10, description=N_("Modern: a declarer who makes his game takes this from the pot.")
    )
    loss: Amount = Field(20, description=N_("Modern: a failed declarer pays this into the pot."))
    defender_loss: Amount = Field(
        10,
        description=N_(
            "Modern: a defender short of tricks (or one who invited) pays this into the pot."
        ),
    )
    trick_pay: Amount = Field(
        1, description=N_("Modern: the declarer pays this per trick to a defender.")
    )
    failed_declarer_collects: StrictBool = Field(
        False,
        description=N_("Modern: a failed declarer still takes the win before paying the loss."),
    )
    trick_pay_rule: Literal["all", "quota"] = Field(
        "all",
        description=N_(
            "Modern: tricks are paid to every defender who played, or only to those with 2 or more."
        ),
    )
    concede_each: Amount = Field(
        3, description=N_("Modern: a declarer who gives up pays this to each defender.")
    )
    concede_single: Amount = Field(
        5,
        description=N_(
            "Modern: a declarer who gives up pays this to the only defender who stayed."
        ),
    )
    premium_hearts_hand: Amount = Field(
        10,
        description=N_(
            "Modern: hearts from the hand («Préférence»), made or failed, paid by or to each opponent."
        ),
    )
    premium_four_aces: Amount = Field(
        10,
        description=N_(
            "Modern: four aces held by a declarer who makes his game, paid by each opponent."
        ),
    )
    premium_no_aces: Amount = Field(
        10, description=N_("Modern: no ace, announced, paid by or to each opponent.")
    )
    multiply_by_bid: StrictBool = Field(
        False,
        description=N_(
            "Modern: the pot's amounts, the trick payments and a concession are multiplied by the bid's number (clubs 1 … hearts 4); the premiums are not."
        ),
    )
    pot_mode: Literal["fixed", "unlimited", "limited", "styrian"] = Field(
        "fixed",
        description=N_(
            "Modern: a fixed pot, an unlimited or a limited one (every dealer adds a stake), or the Styrian pot."
        ),
    )
    dealer_ante: Amount = Field(
        10,
        description=N_("Modern, unlimited or limited pot: what every dealer adds before dealing."),
    )
    pot_cap: Amount = Field(
        100, description=N_("Modern, limited pot: at most this much of the pot is in play.")
    )
    styrian_win: dict[Suit, Amount] = Field(
        default_factory=lambda: _suits(20, 30, 40, 50),
        description=N_(
            "Styrian pot: the win by trump (♣20 ♠30 ♦40 ♥50); a failure costs twice that, a short defender once."
        ),
    )
    # Illustrated
    nonsuit_values: dict[NonSuit, Amount] = Field(
        default_factory=_nonsuit_values,
        description=N_(
            "Illustrated: Bettel, Durchmarsch, Plauderer and open Durchmarsch, paid by or to each opponent."
        ),
    )
    nonsuit_hand_multiplier: Amount = Field(
        2, description=N_("Illustrated: a hand version multiplies the value by this.")
    )
    # Swabian
    kunstwerk: Amount = Field(
        2,
        description=N_(
            "Danube-Swabian: a talon of two cards of one rank (Kunstwerk): the auction's winner pays the dealer this."
        ),
    )
    # American
    payout_mode: Literal["per_trick", "per_contract"] = Field(
        "per_trick",
        description=N_("American: the pot pays per trick the declarer takes, or per contract."),
    )
    payout: dict[Suit, Amount] = Field(
        default_factory=lambda: _suits(1, 1, 1, 1),
        description=N_(
            "American: what the pot pays by trump, per trick or per contract (1 per trick in every suit unless agreed otherwise)."
        ),
    )
    failure_penalty: Amount | None = Field(
        None,
        description=N_(
            "American: a failed declarer pays this into the pot (empty: what a bare six would pay)."
        ),
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PotGame(_Model):
    """A suit game (1829, modern, illustrated, american): trump, the defence, tricks in play."""

    type: Literal["game"]
    declarer: Seat
    suit: Suit
    hand: StrictBool = False
    defence: dict[SeatKey, Role] = Field(default_factory=dict)
    tricks: dict[SeatKey, Count] | None = None
    four_aces: StrictBool = False
    no_aces: StrictBool = False
    second_round: dict[SeatKey, Amount] | None = None  # American: the chips each bidder put in
    dealer: Seat | None = None  # checked against the rotation (§9.3)
    note: Note | None = None


class PotNonSuit(_Model):
    """Illustrated's Bettel, Durchmarsch, Plauderer or open Durchmarsch, settled directly (C2)."""

    type: Literal["nonsuit"]
    declarer: Seat
    contract: NonSuit
    hand: StrictBool = False
    contra: dict[SeatKey, StrictBool] = Field(default_factory=dict)
    recontra: StrictBool = False
    tricks: Count  # the declarer's, as counted when play stopped
    dealer: Seat | None = None
    note: Note | None = None


class SwabianGame(_Model):
    """A Danube-Swabian game: bid 2–7, by hand or not, the declarer's tricks, contras (E2–E4)."""

    type: Literal["swabian"]
    declarer: Seat
    bid: Annotated[int, Field(strict=True, ge=2, le=7)]
    hand: StrictBool = False
    tricks: Count
    contra: dict[SeatKey, StrictBool] = Field(default_factory=dict)
    recontra: StrictBool = False
    kunstwerk: StrictBool = False
    dealer: Seat | None = None
    note: Note | None = None


class Concede(_Model):
    """The soloist gives up before play (B7), with the suit he named: under ``multiply_by_bid``
    (B9, «all payments») the concession pays × its bid number.  A concession written without
    its suit pays × 1, as before the suit could be given."""

    type: Literal["concede"]
    declarer: Seat
    defence: dict[SeatKey, Role]
    suit: Suit | None = None
    dealer: Seat | None = None
    note: Note | None = None


class Bete(_Model):
    """1829: all passed twice and the dealer declined the talon (A6)."""

    type: Literal["bete"]
    dealer: Seat
    note: Note | None = None


class PotAllPass(_Model):
    """All passed and the cards are redealt by the next dealer (B-Q7 pagat; F-Q3).

    Nothing is won or lost, but the deal counts: the dealer passes on, and in an unlimited or
    limited pot this dealer's stake goes in as before every deal (B10; §9.3, §9.5 ``allpass``).
    """

    type: Literal["allpass"]
    dealer: Seat | None = None
    note: Note | None = None


PotDeal = Annotated[
    PotGame | PotNonSuit | SwabianGame | Concede | Bete | PotAllPass, Field(discriminator="type")
]
AnyPotDeal = PotGame | PotNonSuit | SwabianGame | Concede | Bete | PotAllPass
# 1829 has no redeal: when all pass twice the dealer takes the talon or pays the Bete (A6); in
# the Swabian game forehand must bid (E-Q2).
ALLOWED_DEALS: dict[str, tuple[type[_Model], ...]] = {
    "1829": (PotGame, Bete),
    "modern": (PotGame, Concede, PotAllPass),
    "illustrated": (PotGame, Concede, PotNonSuit, PotAllPass),
    "swabian": (SwabianGame,),
    "american": (PotGame, PotAllPass),
}


def _err(field: str | None, text: str, **args: object) -> PotError:
    return PotError(field, msg(text, **args))


@dataclass(slots=True)
class PotTable:
    """The pot, each player's cash, and who deals next."""

    settings: PotSettings
    names: tuple[str, ...]
    dealer: int = 0
    ledger: Ledger = field(default_factory=Ledger)

    @classmethod
    def start(
        cls, settings: PotSettings, names: Sequence[str], *, first_dealer: int = 0
    ) -> PotTable:
        t = cls(settings, tuple(names), first_dealer % len(names))
        if settings.system != "swabian" and settings.pot_mode not in ("unlimited", "limited"):
            t._ante()
        return t

    @property
    def n(self) -> int:
        return len(self.names)

    def opponents(self, declarer: int) -> list[int]:
        """The declarer's two opponents this deal (with four, the dealer sits out: B11)."""
        return [p for p in dealt_in(self.n, self.dealer) if p != declarer]

    @property
    def finished(self) -> bool:
        """A pot game has no set end: the players stop when they like."""
        return False

    @property
    def cash(self) -> list[Number]:
        return self.ledger.row("cash", self.n)

    @property
    def pot(self) -> Number:
        return self.ledger.get("pot")

    def _ante(self) -> list[Posting]:
        a = self.settings.ante
        why = msg(N_("everyone antes {amount}"), amount=a)
        out = [Posting(Account("cash", p), -a, why) for p in range(self.n)]
        out.append(Posting(Account("pot"), a * self.n, why))
        self.ledger.post(out)
        return out

    # --- checking -----------------------------------------------------------------------------
    def verify(self, deal: AnyPotDeal) -> None:
        s = self.settings
        if not isinstance(deal, ALLOWED_DEALS[s.system]):
            raise _err("type", N_("this kind of deal does not exist in this game"))
        if isinstance(deal, Bete):
            # The dealer who declines the talon pays: a seat of the table (the form offers any).
            if not 0 <= deal.dealer < self.n:
                raise _err("dealer", N_("no such player"))
            return
        if not isinstance(deal, SwabianGame):
            verify_dealer(deal.dealer, self.dealer, self.names, error=PotError)
        if isinstance(deal, PotAllPass):
            return
        d = deal.declarer
        verify_player(d, self.n, self.dealer, self.names, "declarer", error=PotError)
        others = self.opponents(d)
        if isinstance(deal, PotNonSuit | SwabianGame):
            bad = [p for p in deal.contra if p not in others]
            if bad:
                raise _err(f"contra.{bad[0]}", N_("contra is said by an opponent of the declarer"))
            if deal.recontra and not any(deal.contra.values()):
                raise _err("recontra", N_("recontra answers a contra"))
            if isinstance(deal, SwabianGame) and deal.kunstwerk and deal.dealer is None:
                raise _err("dealer", N_("a Kunstwerk is paid to the dealer: name the dealer"))
            return
        if s.system == "american":
            assert isinstance(deal, PotGame)  # ALLOWED_DEALS
            if deal.defence:
                raise _err("defence", N_("in American Preference the declarer plays against both"))
            if deal.tricks is None or list(deal.tricks) != [d]:
                raise _err("tricks", N_("write the declarer's tricks only"))
            if deal.four_aces or deal.no_aces:
                raise _err(
                    "four_aces" if deal.four_aces else "no_aces",
                    N_("premiums belong to the modern Austrian game"),
                )
            if deal.second_round:
                bad = [p for p in deal.second_round if p not in dealt_in(self.n, self.dealer)]
                if bad:
                    raise _err(f"second_round.{bad[0]}", N_("no such player"))
            return
        roles = verify_roles(
            d, dealt_in(self.n, self.dealer), deal.defence, self.names, error=PotError
        )
        if isinstance(deal, Concede):
            if roles == ["drop", "drop"]:
                # B5: both defenders out, the declarer is deemed to take all ten and takes his
                # win from the pot; nobody is left to concede to (B7 pays the defenders who
                # stayed).  One event has one result: it is the game, both dropping (issue 38).
                raise _err(
                    "defence",
                    N_(
                        "both defenders dropped out, so {seat} has won without play and takes his win from the pot: write it as a game in which both drop out, not as giving up"
                    ),
                    seat=self.names[d],
                )
            return
        if s.system == "1829" and "invite" in roles:
            raise _err("defence", N_("the rules of 1829 have no invitation"))
        if deal.second_round:
            raise _err("second_round", N_("only American Preference has a second round of chips"))
        if roles == ["drop", "drop"]:
            verify_unplayed(deal.tricks, error=PotError)
            return
        playing = [d, *(p for p in others if deal.defence[p] != "drop")]
        verify_tricks(deal.tricks, playing, error=PotError)
        if (deal.four_aces or deal.no_aces) and s.system not in ("modern", "illustrated"):
            raise _err(
                "four_aces" if deal.four_aces else "no_aces",
                N_("premiums belong to the modern Austrian game"),
            )
        if deal.four_aces and deal.no_aces:
            raise _err("no_aces", N_("four aces and no ace cannot both be held"))

    # --- writing ------------------------------------------------------------------------------
    def play(self, deal: AnyPotDeal) -> list[Posting]:
        """Verify ``deal``, write it, and return its postings."""
        self.verify(deal)
        out: list[Posting] = []
        s = self.settings
        dealer = self.dealer
        if s.system in ("modern", "illustrated") and s.pot_mode in ("unlimited", "limited"):
            # B10: every dealer adds his stake before dealing.
            out += self._pay_pot(
                dealer, s.dealer_ante, N_("{seat} deals and adds {amount} to the pot")
            )
            self.ledger.post(out)
        need = self._pot_need(deal)
        short = self.pot < need if s.pot_refill == "before_short_deal" else self.pot <= 0
        if need and short:  # the re-ante is the deal's: its sentence and postings come first
            out += self._ante()
        if isinstance(deal, Bete):
            rest = self._pay_pot(
                deal.dealer, s.bete, N_("{seat} declines the talon: Bete of {amount} into the pot")
            )
        elif isinstance(deal, PotAllPass):
            why = msg(
                N_("all passed: the cards are redealt, {seat} deals next"),
                seat=self.names[(dealer + 1) % self.n],
            )
            rest = [Posting(Account("note"), 0, why)]
        elif isinstance(deal, Concede):
            rest = self._concede(deal)
        elif isinstance(deal, PotNonSuit):
            rest = self._nonsuit(deal)
        elif isinstance(deal, SwabianGame):
            rest = self._swabian(deal)
        elif s.system == "1829":
            rest = self._game_1829(deal)
        elif s.system == "american":
            rest = self._american(deal)
        else:
            rest = self._game_modern(deal)
        self.ledger.post(rest)
        self.dealer = (self.dealer + 1) % self.n
        return out + rest

    def _pot_need(self, deal: AnyPotDeal) -> Number:
        """What the deal, as played, takes from the pot (the re-ante of A-Q4 comes before it)."""
        s = self.settings
        if not isinstance(deal, PotGame) or s.pot_mode in ("unlimited", "limited"):
            return 0
        d = deal.declarer
        tricks = deal.tricks or {}
        dropped = all(r == "drop" for r in deal.defence.values())
        made = dropped or tricks.get(d, 0) >= 6
        if s.system == "1829":
            short = any(tricks.get(p, 2) < 2 for p, r in deal.defence.items() if r == "play")
            return self._value_1829(deal)[1] if made and not short else 0
        if s.system == "american":
            rate = s.payout[deal.suit]
            if not made:
                return 0
            return rate * tricks[d] if s.payout_mode == "per_trick" else rate
        return self._win(deal) if made or s.failed_declarer_collects else 0

    def _pay_pot(self, seat: int, amount: Number, text: str) -> list[Posting]:
        """``seat`` pays ``amount`` into the pot (negative: takes it out)."""
        if not amount:
            return []
        return self._pot_postings(
            seat, amount, msg(text, seat=self.names[seat], amount=abs(amount))
        )

    @staticmethod
    def _pot_postings(seat: int, amount: Number, why: Msg) -> list[Posting]:
        return [Posting(Account("cash", seat), -amount, why), Posting(Account("pot"), amount, why)]

    def _pay(
        self,
        payer: int,
        payee: int,
        amount: Number,
        text: str = N_("{payer} pays {payee} {amount}"),
        **args: object,
    ) -> list[Posting]:
        if not amount:
            return []
        why = msg(text, payer=self.names[payer], payee=self.names[payee], amount=amount, **args)
        return [
            Posting(Account("cash", payer), -amount, why),
            Posting(Account("cash", payee), amount, why),
        ]

    # 1829 -------------------------------------------------------------------------------------
    def _value_1829(self, deal: PotGame) -> tuple[int, int]:
        s = self.settings
        r = s.trick_rate[deal.suit] * (s.hand_multiplier if deal.hand else 1)
        return r, s.value_factor * s.trick_rate[deal.suit] * (s.hand_multiplier if deal.hand else 1)

    def _game_1829(self, deal: PotGame) -> list[Posting]:
        s = self.settings
        d = deal.declarer
        r, v = self._value_1829(deal)
        defenders = [p for p, role in sorted(deal.defence.items()) if role == "play"]
        if not defenders:  # A5: both dropped out; A11: they neither pay nor receive
            return self._pay_pot(d, -v, N_("{seat} takes {amount} from the pot"))
        tricks = dict(deal.tricks or {})
        made = tricks[d] >= 6
        short = [p for p in defenders if tricks[p] < 2]
        out: list[Posting] = []
        if made and not short:  # A7
            out += self._pay_pot(d, -v, N_("{seat} takes {amount} from the pot"))
            for p in defenders:
                out += self._pay(
                    d, p, r * tricks[p], N_("{payer} pays {payee} {amount} for tricks")
                )
        elif made:  # A8: the pot stays as it is
            if len(short) == 2 and s.short_pair == "split":
                for p in short:
                    out += self._pay(
                        p,
                        d,
                        Fraction(r * tricks[d], 2),
                        N_("{payer} pays {payee} {amount} for tricks"),
                    )
            else:
                in_play = [d, *defenders]
                for p in short:
                    for q in in_play:
                        if q != p:
                            out += self._pay(
                                p, q, r * tricks[q], N_("{payer} pays {payee} {amount} for tricks")
                            )
        else:
            out += self._pay_pot(d, v, N_("{seat} pays {amount} into the pot"))  # A9
            for p in short:  # A10: a short defender too
                out += self._pay_pot(p, v, N_("{seat} pays {amount} into the pot"))
            for p in defenders:
                out += self._pay(
                    d, p, r * tricks[p], N_("{payer} pays {payee} {amount} for tricks")
                )
        return out

    # modern Austrian --------------------------------------------------------------------------
    def _factor(self, deal: PotGame | Concede) -> int:
        """B9 («all payments may be multiplied by the bid number», S0): with ``multiply_by_bid``
        the fixed pot's win, loss and short-defender loss, the trick payments, the Styrian win
        (and so its losses) and a concession's payments are × the suit's number, clubs 1 …
        hearts 4.  Not multiplied: the premiums (B8, pagat's fixed amounts per opponent) and an
        unlimited or limited pot's amounts (they are the pot itself, B10)."""
        if deal.suit is None or not self.settings.multiply_by_bid:
            return 1
        return SUIT_NUMBER[deal.suit]

    def _win(self, deal: PotGame) -> Number:
        s = self.settings
        if s.pot_mode == "styrian":
            return s.styrian_win[deal.suit] * self._factor(deal)
        if s.pot_mode == "unlimited":
            return self.pot
        if s.pot_mode == "limited":
            return min(self.pot, s.pot_cap)
        return s.win * self._factor(deal)

    def _game_modern(self, deal: PotGame) -> list[Posting]:
        s = self.settings
        d = deal.declarer
        f = self._factor(deal)
        win = self._win(deal)
        loss: Number
        short_loss: Number
        if s.pot_mode == "fixed":
            loss, short_loss, per_trick = s.loss * f, s.defender_loss * f, Fraction(s.trick_pay * f)
        else:  # B10: the amount in play P, 2P, P and P/10 per trick (Styrian: the win W alike)
            loss, short_loss, per_trick = 2 * win, win, Fraction(win) / 10
        out: list[Posting] = []
        roles = dict(deal.defence)
        players = [p for p, role in sorted(roles.items()) if role != "drop"]
        if not players:  # B5: deemed to have taken all ten
            out += self._pay_pot(d, -win, N_("{seat} takes {amount} from the pot"))
            return out + self._premiums(deal, made=True)
        tricks = dict(deal.tricks or {})
        made = tricks[d] >= 6
        inviter = next((p for p in players if roles[p] == "invite"), None)
        if made or s.failed_declarer_collects:
            out += self._pay_pot(d, -win, N_("{seat} takes {amount} from the pot"))
        if not made:
            out += self._pay_pot(d, loss, N_("{seat} pays {amount} into the pot"))
        team = sum(tricks[p] for p in players)
        for p in players:
            if roles[p] == "invited":
                continue
            k = team if p == inviter else tricks[p]
            if s.trick_pay_rule == "quota" and p != inviter and k < 2:
                continue
            out += self._pay(
                d, p, normal(per_trick * k), N_("{payer} pays {payee} {amount} for tricks")
            )
        if inviter is not None:
            if team < 4:
                out += self._pay_pot(
                    inviter, short_loss, N_("{seat} defended short: pays {amount} into the pot")
                )
        else:
            for p in players:
                if tricks[p] < 2:
                    out += self._pay_pot(
                        p, short_loss, N_("{seat} defended short: pays {amount} into the pot")
                    )
        return out + self._premiums(deal, made=made)

    def _premiums(self, deal: PotGame, *, made: bool) -> list[Posting]:
        """B8: paid between the declarer and each opponent, whether or not he played."""
        s = self.settings
        d = deal.declarer
        out: list[Posting] = []
        for p in self.opponents(d):
            if deal.hand and deal.suit == "H" and s.premium_hearts_hand:
                out += self._premium(d, p, s.premium_hearts_hand, made, N_("Préférence"))
            if deal.four_aces and made and s.premium_four_aces:
                out += self._premium(d, p, s.premium_four_aces, made, N_("four aces"))
            if deal.no_aces and s.premium_no_aces:
                out += self._premium(d, p, s.premium_no_aces, made, N_("no ace"))
        return out

    def _premium(self, d: int, p: int, amount: int, made: bool, name: str) -> list[Posting]:
        text = N_("{payer} pays {payee} {amount}: {premium}")
        if made:
            return self._pay(p, d, amount, text, premium=msg(name))
        return self._pay(d, p, amount, text, premium=msg(name))

    def _concede(self, deal: Concede) -> list[Posting]:
        """B7: 3 to each defender, or 5 to the one who stayed; the pot does not move."""
        s = self.settings
        f = self._factor(deal)
        stayed = [p for p, role in sorted(deal.defence.items()) if role != "drop"]
        out: list[Posting] = []
        text = N_("{payer} gives up: pays {payee} {amount}")
        if len(stayed) == 1:
            return self._pay(deal.declarer, stayed[0], s.concede_single * f, text)
        for p in stayed:
            out += self._pay(deal.declarer, p, s.concede_each * f, text)
        return out

    # Illustrated, Swabian ---------------------------------------------------------------------
    def _nonsuit(self, deal: PotNonSuit) -> list[Posting]:
        """C1–C2: made → each opponent pays V; failed → the declarer pays each V."""
        s = self.settings
        d = deal.declarer
        v = s.nonsuit_values[deal.contract] * (s.nonsuit_hand_multiplier if deal.hand else 1)
        made = deal.tricks == (0 if deal.contract in ("bettel", "plauderer") else 10)
        out: list[Posting] = []
        for p in self.opponents(d):
            m = (4 if deal.recontra else 2) if deal.contra.get(p) else 1
            name = msg(NONSUIT_NAMES[deal.contract])
            text = N_("{payer} pays {payee} {amount}: {premium}")
            out += (
                self._pay(p, d, v * m, text, premium=name)
                if made
                else self._pay(d, p, v * m, text, premium=name)
            )
        return out

    def _swabian(self, deal: SwabianGame) -> list[Posting]:
        """E2–E4: the bid number, ±1 per over- or undertrick in 2–5; contra ×2, recontra ×4."""
        s = self.settings
        d, n = deal.declarer, deal.bid
        out: list[Posting] = []
        if deal.kunstwerk and not deal.hand and deal.dealer is not None and deal.dealer != d:
            out += self._pay(
                d, deal.dealer, s.kunstwerk, N_("{payer} pays {payee} {amount}: Kunstwerk")
            )
        if n == 6:
            made, extra = deal.tricks == 0, 0
        elif n == 7:
            made, extra = deal.tricks == 10, 0
        else:
            need = (7 if n == 2 else 6) + (1 if deal.hand else 0)
            made = deal.tricks >= need
            extra = abs(deal.tricks - need) if made else need - deal.tricks
        base = n + extra
        name = msg(SWABIAN_NAMES[n])
        for p in self.opponents(d):
            m = (4 if deal.recontra else 2) if deal.contra.get(p) else 1
            text = N_("{payer} pays {payee} {amount}: {premium}")
            out += (
                self._pay(p, d, base * m, text, premium=name)
                if made
                else self._pay(d, p, base * m, text, premium=name)
            )
        return out

    # American ---------------------------------------------------------------------------------
    def _american(self, deal: PotGame) -> list[Posting]:
        """F1–F3: second-round chips into the pot; the payout from it, or the penalty into it."""
        s = self.settings
        d = deal.declarer
        out: list[Posting] = []
        for p, chips in sorted((deal.second_round or {}).items()):
            if chips:  # the count picks each language's plural form ("1 chip", "1 фишку")
                why = nmsg(
                    "{seat} bids {n} chip into the pot",
                    "{seat} bids {n} chips into the pot",
                    chips,
                    seat=self.names[p],
                )
                out += self._pot_postings(p, chips, why)
        taken = (deal.tricks or {})[d]
        rate = s.payout[deal.suit]
        if taken >= 6:
            gain = rate * taken if s.payout_mode == "per_trick" else rate
            out += self._pay_pot(d, -gain, N_("{seat} takes {amount} from the pot"))
        else:
            bare_six = rate * 6 if s.payout_mode == "per_trick" else rate
            penalty = s.failure_penalty if s.failure_penalty is not None else bare_six
            out += self._pay_pot(d, penalty, N_("{seat} pays {amount} into the pot"))
        return out


def results(table: PotTable) -> tuple[Number, ...]:
    """Each player's standing: cash plus an equal share of the pot (A12), exact, summing to zero.

    With ``pot_remainder = "carry"`` the pot stays for the next session and the standing is the
    cash alone (the pot then balances the sum).
    """
    if table.settings.pot_remainder == "carry":
        return tuple(normal(c) for c in table.cash)
    share = Fraction(table.pot) / table.n
    return tuple(normal(c + share) for c in table.cash)
