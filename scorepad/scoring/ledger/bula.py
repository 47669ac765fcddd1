"""The Balkan bula family (ex-Yugoslav *preferans*): bula, supe and refe (central-european §4).

Three players.  Each has a **bula** that counts down from the agreed start, and writes **supe**
on the declarer he defended against.  A contract's value is 2n with the talon and 2(n+1) by hand
(«igra»), multiplied by 2 per contra level and by 2 when the declarer uses a **refe** (D1, D8).
The game ends when the bulas sum to zero (D10); the cash-out weighs a bula point ten supe (D11).
The seed's pot form (D12, ``scoring = "pot"``) keeps a pot and cash instead of bulas.

Rules are cited by the digest's numbers (D1–D12); every figure is exact (int or Fraction).

>>> s = BulaSettings(start_bula=30)
>>> t = BulaTable.start(s, ["A", "B", "C"])
>>> g = BulaGame(type="game", declarer=2, bid=3, defence={0: "follow", 1: "follow"},
...              tricks={2: 6, 0: 2, 1: 2})
>>> [(p.account.kind, p.account.a, p.account.b, p.amount) for p in t.play(g)]
[('bula', 2, -1, -6), ('supe', 0, 2, 12), ('supe', 1, 2, 12)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ...core.i18n import N_, Msg, msg
from ...core.numbers import Number, normal
from ..pulya.legal import DealError
from ..pulya.session import Note, SeatKey
from .defence import verify_roles, verify_tricks, verify_unplayed
from .ledger import Account, Ledger, Posting
from .seats import Seat, dealt_in, verify_dealer, verify_player

# The bids as Serbian and Croatian players say them (translated only into Cyrillic letters).
BID_NAMES = {
    2: N_("pik"),
    3: N_("karo"),
    4: N_("herc"),
    5: N_("tref"),
    6: N_("betl"),
    7: N_("sans"),
}


def bid_name(bid: int, hand: bool) -> Msg:
    """``herc``, or ``herc igra`` for the hand version."""
    name = msg(BID_NAMES[bid])
    return msg(N_("{bid} igra"), bid=name) if hand else name


BETL, SANS = 6, 7
Role = Literal["follow", "pass", "invite", "invited"]
Count = Annotated[int, Field(strict=True, ge=0, le=10)]


class BulaError(DealError):
    """A bula deal breaks a rule: ``field`` and the sentence a player reads."""


class BulaSettings(BaseModel):
    """The settings of the bula family (central-european §10, defaults §11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["bula"] = "bula"
    scoring: Literal["bula", "pot"] = Field(
        "bula",
        description=N_(
            "How the game is kept: on the bula sheet, or with a pot the players pay into."
        ),
    )
    start_bula: int = Field(
        60,
        ge=2,
        le=100_000,
        multiple_of=2,
        description=N_("Each player's bula at the start: an even number agreed before play."),
    )
    bula_weight: int = Field(
        10,
        ge=1,
        le=1000,
        description=N_("A bula point is worth this many supe at the cash-out (usually 10)."),
    )
    refe_limit: int | None = Field(
        None,
        ge=0,
        le=1000,
        description=N_(
            "How many rounds of refe may be written in all (empty: no limit; usually 1 with a bula of 30, 3 with 50)."
        ),
    )
    refe_blocked_under_hat: bool = Field(
        True, description=N_("No refe is written while any bula is below zero.")
    )
    pik_without_contra: Literal["refe", "made", "slovenia", "play"] = Field(
        "refe",
        description=N_(
            "A pik with the talon that nobody contras: a refe for all (Serbian clubs), made without play (Croatia), the Slovenian way (a refe for all unless a bula is under the hat, then nothing), or played."
        ),
    )
    pik_refe_fallback_causes: Literal["both", "limit_only", "under_hat_only"] = Field(
        "both",
        description=N_(
            "When a pik without contra gets no refe, the declarer counts pik as made if the refe was refused for either cause (the refe limit reached, a bula under the hat), for the refe limit only, or for a bula under the hat only."
        ),
    )
    pik_on_refe_played: bool = Field(
        False, description=N_("A declarer holding a refe plays pik with the talon without contra.")
    )
    allow_sub_mort_kontra: bool = Field(
        True, description=N_("The contra chain goes on to subkontra (×8) and mortkontra (×16).")
    )
    invite_on_pik: bool = Field(
        False, description=N_("A lone follower may invite on pik with the talon.")
    )
    last_game: Literal["truncate", "full", "double_fall"] = Field(
        "truncate",
        description=N_(
            "A last game worth more than the bula left: truncated (only what is left is written, the supe in proportion), in full, or a failure doubled (a made game is truncated)."
        ),
    )
    defence_cap: int = Field(
        5, ge=1, le=10, description=N_("The defence writes supe for at most this many tricks.")
    )
    betl_fail_tricks: int = Field(
        5,
        ge=0,
        le=10,
        description=N_("On a failed betl, each defender writes supe for this many tricks."),
    )
    ante: int = Field(
        100, ge=0, le=1_000_000, description=N_("Pot form: each player's stake in the pot.")
    )
    declarer_factor: int = Field(
        20,
        ge=0,
        le=1000,
        description=N_("Pot form: the declarer takes this × the base from the pot, or pays it in."),
    )
    defender_factor: int = Field(
        10,
        ge=0,
        le=1000,
        description=N_("Pot form: a defender short of tricks pays this × the base."),
    )
    trick_factor: int = Field(
        2,
        ge=0,
        le=1000,
        description=N_(
            "Pot form: the declarer pays this × the base for each trick of the defence."
        ),
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Contra(_Model):
    """A contra chain opened by defender ``by``: level 1 kontra … 4 mortkontra (×2 … ×16)."""

    by: Seat
    level: Annotated[int, Field(strict=True, ge=1, le=4)]


class BulaGame(_Model):
    """A declared game: the bid (2 pik … 7 sans), by hand or not, the defence, tricks as counted."""

    type: Literal["game"]
    declarer: Seat
    bid: Annotated[int, Field(strict=True, ge=2, le=7)]
    hand: StrictBool = False
    defence: dict[SeatKey, Role]
    contra: Contra | None = None
    tricks: dict[SeatKey, Count] | None = None
    dealer: Seat | None = None  # checked against the rotation; with four he sits out (§4.1)
    note: Note | None = None


class BulaAllPass(_Model):
    """Everybody passed: a round of refe (D7)."""

    type: Literal["allpass"]
    dealer: Seat | None = None
    note: Note | None = None


class PikNoContra(_Model):
    """Pik with the talon that nobody contra'd: not played (D9)."""

    type: Literal["pik_no_contra"]
    declarer: Seat
    dealer: Seat | None = None
    note: Note | None = None


BulaDeal = Annotated[BulaGame | BulaAllPass | PikNoContra, Field(discriminator="type")]


def value(bid: int, hand: bool) -> int:
    """D1: 2n with the talon, 2(n+1) by hand.

    >>> value(4, False), value(5, True), value(6, False)
    (8, 12, 12)
    """
    return 2 * (bid + 1) if hand else 2 * bid


def _err(field: str | None, text: str, **args: object) -> BulaError:
    return BulaError(field, msg(text, **args))


@dataclass(slots=True)
class BulaTable:
    """The bula game as it stands: the ledger, each player's unused refe, the rounds written."""

    settings: BulaSettings
    names: tuple[str, ...]
    ledger: Ledger = field(default_factory=Ledger)
    refe_rounds: int = 0
    hats: list[list[str]] = field(default_factory=list)
    dealer: int = 0  # who deals now; with four players he sits out (§4.1)

    @classmethod
    def start(
        cls, settings: BulaSettings, names: Sequence[str], *, first_dealer: int = 0
    ) -> BulaTable:
        n = len(names)
        t = cls(settings, tuple(names), hats=[[] for _ in range(n)], dealer=first_dealer % n)
        if settings.scoring == "pot":
            t.ledger.post(
                Posting(Account("cash", p), -settings.ante, msg(N_("the ante"))) for p in range(n)
            )
            t.ledger.post([Posting(Account("pot"), settings.ante * n, msg(N_("the ante")))])
        else:
            t.ledger.post(
                Posting(Account("bula", p), settings.start_bula, msg(N_("the starting bula")))
                for p in range(n)
            )
        return t

    # --- where the game stands -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def refe(self) -> list[int]:
        """Each player's refe not yet used."""
        return [int(v) for v in self.ledger.row("refe", self.n)]

    @property
    def bulas(self) -> list[Number]:
        return self.ledger.row("bula", self.n)

    @property
    def left(self) -> Number:
        """What is left to close: the sum of the bulas (D10)."""
        return normal(sum(self.bulas, start=0))

    @property
    def finished(self) -> bool:
        if self.settings.scoring == "pot":
            return False
        return self.left <= 0

    def _refe_blocked(self) -> tuple[bool, bool]:
        """(the limit is reached, someone is under the hat) — D7."""
        s = self.settings
        limit = s.refe_limit is not None and self.refe_rounds >= s.refe_limit
        hat = s.scoring == "bula" and s.refe_blocked_under_hat and any(b < 0 for b in self.bulas)
        return limit, hat

    # --- checking -----------------------------------------------------------------------------
    def verify(self, deal: BulaGame | BulaAllPass | PikNoContra) -> None:
        """Raise :class:`BulaError` if ``deal`` may not be written now."""
        if self.finished:
            raise _err(None, N_("the bulas sum to zero: the game is over, no deal can follow"))
        s = self.settings
        verify_dealer(deal.dealer, self.dealer, self.names, error=BulaError)
        if isinstance(deal, BulaAllPass):
            return
        verify_player(deal.declarer, self.n, self.dealer, self.names, "declarer", error=BulaError)
        if isinstance(deal, PikNoContra):
            if s.pik_without_contra == "play":
                raise _err(
                    "type",
                    N_("under this convention pik without contra is played: write it as a game"),
                )
            if self.refe[deal.declarer] and (
                s.pik_on_refe_played or s.pik_without_contra == "made"
            ):
                raise _err(
                    "type",
                    N_("a declarer holding a refe plays pik without contra: write it as a game"),
                )
            return
        roles = verify_roles(
            deal.declarer,
            dealt_in(self.n, self.dealer),
            deal.defence,
            self.names,
            error=BulaError,
        )
        both_pass = roles == ["pass", "pass"]
        pik_talon = deal.bid == 2 and not deal.hand
        if deal.bid == BETL and roles != ["follow", "follow"]:
            raise _err("defence", N_("betl is followed by both defenders"))  # D3
        if deal.contra is not None:
            c = deal.contra
            if deal.bid == BETL:
                raise _err(
                    "contra", N_("contra on betl is not supported (its rules are not sourced)")
                )
            if c.by == deal.declarer or c.by not in deal.defence:
                raise _err("contra.by", N_("contra is said by a defender"))
            if deal.defence[c.by] not in ("follow", "invite"):
                raise _err("contra.by", N_("a defender who passed cannot say contra"))
            if c.level > 2 and not s.allow_sub_mort_kontra:
                raise _err(
                    "contra.level",
                    N_("under this convention the contra chain stops at rekontra (level 2)"),
                )
        elif pik_talon and not self._pik_played(deal.declarer):
            # D9, §9.3: pik with the talon is played only under contra.  Both defenders passing
            # is the same event as pik_no_contra; one event has one result, so the game form
            # is refused too (issue 23 item 6).
            if both_pass:
                raise _err(
                    "defence",
                    N_(
                        "pik with the talon that nobody contras is not played: write it as pik without contra"
                    ),
                )
            raise _err(
                "contra",
                N_(
                    "pik with the talon is played only under contra: write it as pik without contra"
                ),
            )
        if pik_talon and "invite" in roles and not s.invite_on_pik:
            raise _err("defence", N_("no invitation on pik with the talon under this convention"))
        if both_pass:
            if deal.contra is not None:
                raise _err("contra", N_("nobody follows, so nobody can say contra"))
            verify_unplayed(deal.tricks, error=BulaError)
            return
        tricks = verify_tricks(deal.tricks, self.in_play(deal), error=BulaError, total=None)
        total = sum(tricks.values())
        defence = total - tricks[deal.declarer]
        if total > 10:
            raise _err("tricks", N_("tricks sum to {n}, at most 10"), n=total)
        if deal.bid == BETL:
            if tricks[deal.declarer] == 0 and total != 10:
                raise _err(
                    "tricks", N_("a betl made takes no trick in 10: tricks sum to {n}"), n=total
                )
            return
        if s.scoring == "pot":
            if total != 10:
                raise _err(
                    "tricks",
                    N_("in the pot form all 10 tricks are played: they sum to {n}"),
                    n=total,
                )
            return
        if defence > s.defence_cap:
            raise _err(
                "tricks",
                N_("play stops when the defence has {cap} tricks: it cannot have {n}"),
                cap=s.defence_cap,
                n=defence,
            )
        if total != 10 and defence != s.defence_cap:
            raise _err(
                "tricks",
                N_("tricks sum to {n}: play stops before 10 only when the defence has {cap}"),
                n=total,
                cap=s.defence_cap,
            )

    def _pik_played(self, declarer: int) -> bool:
        """Pik with the talon is played without contra under these settings (D9, D-Q9)."""
        s = self.settings
        holds_refe = self.refe[declarer] > 0
        return (
            s.pik_without_contra == "play"
            or (s.pik_on_refe_played and holds_refe)
            or (s.pik_without_contra == "made" and holds_refe)
        )

    def in_play(self, deal: BulaGame) -> list[int]:
        """The declarer and the defenders who play (a contra or an invitation brings the passer in)."""
        out = [deal.declarer]
        for seat, role in sorted(deal.defence.items()):
            if role != "pass" or deal.contra is not None:
                out.append(seat)
        return sorted(out)

    # --- writing ------------------------------------------------------------------------------
    def play(self, deal: BulaGame | BulaAllPass | PikNoContra) -> list[Posting]:
        """Verify ``deal``, write it, and return its postings."""
        self.verify(deal)
        if isinstance(deal, BulaAllPass):
            out = self._allpass()
        elif isinstance(deal, PikNoContra):
            out = self._pik_no_contra(deal)
        elif self.settings.scoring == "pot":
            out = self._pot_game(deal)
        else:
            out = self._bula_game(deal)
        before = self.bulas
        self.ledger.post(out)
        self._mark_hats(before)
        self.dealer = (self.dealer + 1) % self.n
        return out

    def _mark_hats(self, before: Sequence[Number]) -> None:
        for p, (old, new) in enumerate(zip(before, self.bulas, strict=True)):
            if old > 0 >= new:
                self.hats[p].append("hat")
            elif old < 0 <= new:
                self.hats[p].append("crossed")

    def _allpass(self, why: Msg | None = None) -> list[Posting]:
        """A round of refe (D7); ``why``: one sentence for the round (a pik nobody contra'd),
        else each player's refe said after an all-pass."""
        limit, hat = self._refe_blocked()
        if limit or hat:
            return [
                Posting(
                    Account("note"),
                    0,
                    msg(N_("no refe: the agreed number of refe rounds is reached"))
                    if limit
                    else msg(N_("no refe: a bula is under the hat")),
                )
            ]
        self.refe_rounds += 1
        return [
            Posting(
                Account("refe", p),
                1,
                why or msg(N_("all passed: a refe for {seat}"), seat=self.names[p]),
            )
            for p in range(self.n)
        ]

    def _pik_no_contra(self, deal: PikNoContra) -> list[Posting]:
        s = self.settings
        limit, hat = self._refe_blocked()
        pik = msg(N_("pik without contra is not played: a refe for everyone"))
        if s.pik_without_contra == "slovenia":
            # «никто ничего не пишет; а если никто не под шляпой, то все получают рефет»
            return self._allpass(pik)
        if s.pik_without_contra == "refe" and not (limit or hat):
            return self._allpass(pik)
        if s.pik_without_contra == "refe":
            falls_back = {
                "both": limit or hat,
                "limit_only": limit,
                "under_hat_only": hat,
            }[s.pik_refe_fallback_causes]
            if not falls_back:
                return [
                    Posting(Account("note"), 0, msg(N_("pik without contra: nothing is written")))
                ]
        # Counted as made without play: −4 (doubled, and a refe used, if he holds one) (D9).
        game = BulaGame(
            type="game",
            declarer=deal.declarer,
            bid=2,
            defence={p: "pass" for p in dealt_in(self.n, self.dealer) if p != deal.declarer},
        )
        return self._bula_game(game) if s.scoring == "bula" else self._pot_game(game)

    def _multiplier(self, deal: BulaGame, out: list[Posting]) -> int:
        m = 2 ** (deal.contra.level if deal.contra else 0)
        if self.refe[deal.declarer] > 0:
            # D8: a refe doubles everything and is used up whatever the result.
            out.append(
                Posting(
                    Account("refe", deal.declarer),
                    -1,
                    msg(
                        N_("{seat} plays on a refe: everything ×2"), seat=self.names[deal.declarer]
                    ),
                )
            )
            m *= 2
        return int(m)

    def _bula_game(self, deal: BulaGame) -> list[Posting]:
        s = self.settings
        d = deal.declarer
        out: list[Posting] = []
        unit = value(deal.bid, deal.hand) * self._multiplier(deal, out)
        roles, tricks = _defence(deal)
        defenders = sorted(roles)
        left = self.left
        penalties: list[Posting] = []
        supe: list[tuple[int, int]] = []  # (writer, tricks)
        if roles[defenders[0]] == roles[defenders[1]] == "pass":
            made = True  # D5: deemed to have taken all ten
        elif deal.bid == BETL:
            made = tricks[d] == 0
            if not made:
                supe = [(p, s.betl_fail_tricks) for p in defenders]  # D6
        else:
            team = sum(tricks[p] for p in defenders)
            made = team < s.defence_cap
            counted = min(team, s.defence_cap)
            followers = [p for p in defenders if roles[p] == "follow"]
            for p in defenders:
                if roles[p] in ("invite", "contra"):
                    supe.append((p, counted))
                elif roles[p] == "follow":
                    supe.append((p, min(tricks[p], counted)))
            failing: list[int] = []
            if made:
                for p in defenders:
                    if (roles[p] == "contra" and team < 5) or (roles[p] == "invite" and team < 4):
                        failing.append(p)
                if len(followers) == 2 and team < 4:
                    failing += [p for p in followers if tricks[p] < 2]
                elif (
                    len(followers) == 1
                    and roles[followers[0]] == "follow"
                    and not any(r in ("invite", "contra") for r in roles.values())
                ) and tricks[followers[0]] < 2:
                    failing.append(followers[0])
            for p in failing:
                penalties.append(
                    Posting(
                        Account("bula", p),
                        unit,
                        msg(
                            N_("{seat} has too few tricks as a defender: bula +{amount}"),  # D4
                            seat=self.names[p],
                            amount=unit,
                        ),
                    )
                )
        name = bid_name(deal.bid, deal.hand)
        if made and not penalties and s.last_game in ("truncate", "double_fall") and unit > left:
            # D10: the last game writes only what is left, the supe in the same proportion.
            scale = Fraction(left, unit)
            out.append(
                Posting(
                    Account("bula", d),
                    -left,
                    msg(
                        N_(
                            "{seat} made {bid}, the last game: bula −{amount}, what was left"
                        ),  # D10
                        seat=self.names[d],
                        bid=name,
                        amount=left,
                    ),
                )
            )
            for p, k in supe:
                amount = normal(k * unit * scale)
                out.append(self._supe(p, d, k, unit, amount, left=left))
            return out
        amount = unit
        if not made and s.last_game == "double_fall" and unit > left:
            amount = 2 * unit  # IKLUB «duplo padanje» (D-E7)
        out.append(
            Posting(
                Account("bula", d),
                -amount if made else amount,
                msg(
                    N_("{seat} made {bid}: bula −{amount}"),
                    seat=self.names[d],
                    bid=name,
                    amount=amount,
                )
                if made
                else msg(
                    N_("{seat} failed {bid}: bula +{amount}"),
                    seat=self.names[d],
                    bid=name,
                    amount=amount,
                ),
            )
        )
        out.extend(self._supe(p, d, k, unit, k * unit) for p, k in supe)
        out.extend(penalties)
        return out

    def _supe(
        self,
        writer: int,
        declarer: int,
        k: int,
        unit: int,
        amount: Number,
        *,
        left: Number | None = None,
    ) -> Posting:
        """``writer``'s supe on ``declarer``; on a truncated last game the sentence states the
        scale, what was left over the unit (D10: "2 × 8 × 6/8", not a bare "2 × 8")."""
        names = {"writer": self.names[writer], "declarer": self.names[declarer]}
        if left is None:
            why = msg(
                N_("{writer} writes {amount} supe on {declarer} ({k} × {unit})"),
                amount=amount,
                k=k,
                unit=unit,
                **names,
            )
        else:
            why = msg(
                N_(
                    "{writer} writes {amount} supe on {declarer} ({k} × {unit} × {left}/{unit}, the last game)"
                ),
                amount=amount,
                k=k,
                unit=unit,
                left=left,
                **names,
            )
        return Posting(Account("supe", writer, declarer), amount, why)

    def _pot_game(self, deal: BulaGame) -> list[Posting]:
        """D12, the seed's pot form: amounts in base units b = n (+1 by hand)."""
        s = self.settings
        d = deal.declarer
        out: list[Posting] = []
        base = (deal.bid + (1 if deal.hand else 0)) * self._multiplier(deal, out)
        roles, tricks = _defence(deal)
        defenders = sorted(roles)
        both_pass = all(r == "pass" for r in roles.values())
        if both_pass:
            made = True
        elif deal.bid == BETL:
            made = tricks[d] == 0
        else:
            made = sum(tricks[p] for p in defenders) < 5
        take = s.declarer_factor * base
        out.append(
            Posting(
                Account("cash", d), take if made else -take, _pot_why(self.names[d], made, take)
            )
        )
        out.append(
            Posting(Account("pot"), -take if made else take, _pot_why(self.names[d], made, take))
        )
        if both_pass or deal.bid in (BETL, SANS):
            return out  # D-Q7: the defender payments are for suit contracts only
        team = sum(tricks[p] for p in defenders)
        followers = [p for p in defenders if roles[p] == "follow"]
        short: list[int] = []
        if made:
            lead = [p for p in defenders if roles[p] in ("invite", "contra")]
            if lead:
                if team < (5 if roles[lead[0]] == "contra" else 4):
                    short = lead
            elif len(followers) == 2:
                if team < 4:
                    short = [p for p in followers if tricks[p] < 2]
            elif followers and tricks[followers[0]] < 2:
                short = followers
        for p in short:
            fine = s.defender_factor * base
            why = msg(
                N_("{seat} defended short: pays {amount} into the pot"),
                seat=self.names[p],
                amount=fine,
            )
            out.append(Posting(Account("cash", p), -fine, why))
            out.append(Posting(Account("pot"), fine, why))
        for p in defenders:
            if roles[p] in ("invite", "contra"):
                k = team
            elif roles[p] == "follow":
                k = tricks[p]
            else:
                continue
            pay = s.trick_factor * base * k
            if pay:
                why = msg(
                    N_("{declarer} pays {seat} {amount} for {k} tricks"),
                    declarer=self.names[d],
                    seat=self.names[p],
                    amount=pay,
                    k=k,
                )
                out.append(Posting(Account("cash", d), -pay, why))
                out.append(Posting(Account("cash", p), pay, why))
        return out


def _defence(deal: BulaGame) -> tuple[dict[int, str], dict[int, int]]:
    """Each defender's role and tricks (0 for a passer).

    Under contra the other defender is considered invited, whether or not he dropped out (the seed).
    """
    roles: dict[int, str] = dict(deal.defence)
    if deal.contra is not None:
        for seat in roles:
            roles[seat] = "contra" if seat == deal.contra.by else "invited"
    return roles, dict.fromkeys(deal.defence, 0) | dict(deal.tricks or {})


def _pot_why(seat: str, made: bool, amount: int) -> Msg:
    if made:
        return msg(N_("{seat} made: takes {amount} from the pot"), seat=seat, amount=amount)
    return msg(N_("{seat} failed: pays {amount} into the pot"), seat=seat, amount=amount)


def results(table: BulaTable) -> tuple[Number, ...]:
    """Each player's result now, in supe (positive wins), summing to exactly zero.

    Bula form (D11): w·(avg − bula) + supe written − supe received.  Pot form (D12): cash + pot/n.
    """
    n, led = table.n, table.ledger
    if table.settings.scoring == "pot":
        share = Fraction(led.get("pot")) / n
        return tuple(normal(led.get("cash", p) + share) for p in range(n))
    bulas = table.bulas
    avg = Fraction(sum(bulas, start=0)) / n
    w = table.settings.bula_weight
    supe = led.square("supe", n)
    return tuple(
        normal(
            w * (avg - bulas[i])
            + sum(supe[i][j] for j in range(n))
            - sum(supe[j][i] for j in range(n))
        )
        for i in range(n)
    )
