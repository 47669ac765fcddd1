"""Greek Prefa: a kassa per player that counts down, and chips between players (central-european §7).

Three players, listed in turn order (counter-clockwise): the defender on the declarer's
**right** is the next seat after him, the one on his **left** the seat after that.  A contract
is worth *c* (§7.2); the defence has duties (§7.3); rules G1–G8 (§7.4) move kassa points and
chips (1 chip = 1/10 of a kassa point in money).  The game ends when every kassa is empty.

>>> t = KassaTable.start(KassaSettings(kassa=31), ["A", "B", "C"])
>>> g = KassaGame(type="game", declarer=2, contract="6S",
...               defence={0: "whist", 1: "whist"}, tricks={2: 6, 0: 2, 1: 2})
>>> [(p.account.kind, p.account.a, p.account.b, p.amount) for p in t.play(g)]
[('kassa', 2, -1, -2), ('chips', 0, 2, 4), ('chips', 1, 2, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...core.i18n import N_, Msg, msg, nmsg
from ...core.numbers import Number, normal, signed
from ..contract import Contract, Trump
from ..pulya.legal import DealError
from ..pulya.session import Note, SeatKey, parse_contract
from ..pulya.table import contract_name
from .defence import verify_roles, verify_tricks, verify_unplayed
from .ledger import Account, Ledger, Posting
from .seats import Seat, dealt_in, verify_dealer, verify_player

# ``counter``: the invited player answered with a counter-invitation (G-Q1, a setting): he
# answers for the defence as an inviter does, and the first inviter plays without liability.
Role = Literal["whist", "pass", "invite", "invited", "counter"]
Count = Annotated[int, Field(strict=True, ge=0, le=10)]

# §7.2: 6♠ 2, 6♣ 3, 6♦ 4, 6♥ 5, 6NT 6; then one value per level for the suits and one more for NT.
_SIX = {Trump.SPADES: 2, Trump.CLUBS: 3, Trump.DIAMONDS: 4, Trump.HEARTS: 5, Trump.NO_TRUMP: 6}
_SUIT = {7: 7, 8: 8, 9: 9, 10: 10}
_NT = {7: 8, 8: 9, 9: 10}
# §7.3: (right, left) when both whist; a lone whister; the inviter's team.
DUTY_PAIR = {6: (2, 2), 7: (2, 1), 8: (1, 1), 9: (1, 0), 10: (0, 0)}
DUTY_LONE = {6: 2, 7: 2, 8: 1, 9: 1, 10: 0}
DUTY_INVITED = {6: 4, 7: 3, 8: 2, 9: 1, 10: 0}


Chips = Annotated[int, Field(ge=0, le=10_000)]


class KassaError(DealError):
    """A Prefa deal breaks a rule: ``field`` and the sentence a player reads."""


class KassaSettings(BaseModel):
    """The settings of Greek Prefa (central-european §10, defaults §11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Literal["kassa"] = "kassa"
    kassa: int = Field(
        31, ge=1, le=100_000, description=N_("Each player's kassa at the start (31, 20, 10 …).")
    )
    chips_per_point: int = Field(
        10,
        ge=1,
        le=1000,
        description=N_("How many chips a kassa point is worth at the cash-out (usually 10)."),
    )
    # The variants of §7.4 (G-Q1): none is on by default.
    ten_nt: Literal["off", "A", "B"] = Field(
        "off",
        description=N_("Whether 10NT is played: no 10NT, 10NT worth 11, or 10NT worth 10."),
    )
    ten_as_nine: bool = Field(
        False,
        description=N_(
            "«10 as 9»: a ten is worth what the nine of its kind is (10♠ … 10♥ 9; 10NT 10)."
        ),
    )
    four_aces: Literal["off", "kassa", "chips"] = Field(
        "off",
        description=N_(
            "Four aces held: not paid, off the holder's kassa (it goes down by the value of four aces), or in chips from each (every other player pays the holder that many chips; a declarer who fails pays them instead)."
        ),
    )
    four_aces_value: int = Field(
        10, ge=0, le=10_000, description=N_("The value of four aces, in kassa points or chips.")
    )
    counter_invitation: bool = Field(
        False,
        description=N_(
            "The invited player may answer with a counter-invitation and answer for the defence himself."
        ),
    )
    sitting_out_chips: tuple[Chips, Chips] = Field(
        (25, 50),
        description=N_(
            "Four players: a failed declarer pays the dealer sitting out this many chips, for down one and for down two or more."
        ),
    )
    end: Literal["all", "two"] = Field(
        "all",
        description=N_(
            "The game ends when every kassa is empty, or when two are (then a third of the last kassa is paid in chips to each of the empty ones)."
        ),
    )


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class KassaGame(_Model):
    """A declared contract (6♠ … 10♥, no 10NT), the defence's calls and the tricks in play."""

    type: Literal["game"]
    declarer: Seat
    contract: str
    defence: dict[SeatKey, Role]
    tricks: dict[SeatKey, Count] | None = None
    four_aces: Seat | None = None  # who held them, where the variant is played (G-Q1)
    dealer: Seat | None = None  # checked against the rotation; with four he sits out (§7.1)
    note: Note | None = None

    @field_validator("contract")
    @classmethod
    def _contract(cls, code: str) -> str:
        parse_contract(code)  # 10NT only under the ten_nt setting (KassaTable.verify)
        return code

    @property
    def parsed(self) -> Contract:
        return Contract.parse(self.contract)


class KassaRedeal(_Model):
    """All passed: the cards are redealt by the next dealer (§7.1).  Nothing is written, but
    the deal passes on, which decides who sits out when four play."""

    type: Literal["redeal"]
    dealer: Seat | None = None
    note: Note | None = None


KassaDeal = Annotated[KassaGame | KassaRedeal, Field(discriminator="type")]


def contract_value(c: Contract, settings: KassaSettings | None = None) -> int:
    """§7.2, and the variants 10NT (A 11, B 10) and «10 as 9» (G-Q1).

    >>> [contract_value(Contract.parse(x)) for x in ("6S", "6NT", "7H", "7NT", "9NT", "10H")]
    [2, 6, 7, 8, 10, 10]
    >>> contract_value(Contract.parse("10NT"), KassaSettings(ten_nt="A"))
    11
    """
    s = settings or KassaSettings()
    nt = c.trump is Trump.NO_TRUMP
    if c.level == 10 and s.ten_as_nine:
        return _NT[9] if nt else _SUIT[9]
    if c.level == 10 and nt:
        return 11 if s.ten_nt == "A" else 10
    if c.level == 6:
        return _SIX[c.trump]
    return (_NT if nt else _SUIT)[c.level]


def shortfall_multiplier(short: int, *, inviter: bool = False, level: int = 6) -> int:
    """G1: ×1 short by one, ×2 by more; an inviter short by 3 or 4 on a 6 or 7 pays ×3 or ×4.

    >>> [shortfall_multiplier(s) for s in (1, 2, 3)], shortfall_multiplier(3, inviter=True, level=7)
    ([1, 2, 2], 3)
    """
    if inviter and level in (6, 7) and short in (3, 4):
        return short
    return 1 if short <= 1 else 2


def _err(field: str | None, text: str, **args: object) -> KassaError:
    return KassaError(field, msg(text, **args))


@dataclass(slots=True)
class KassaTable:
    """The Prefa game as it stands: kassas and chips."""

    settings: KassaSettings
    names: tuple[str, ...]
    ledger: Ledger = field(default_factory=Ledger)
    dealer: int = 0  # who deals now; with four players he sits out (§7.1)

    @classmethod
    def start(
        cls, settings: KassaSettings, names: Sequence[str], *, first_dealer: int = 0
    ) -> KassaTable:
        t = cls(settings, tuple(names), dealer=first_dealer % len(names))
        t.ledger.post(
            Posting(Account("kassa", p), settings.kassa, msg(N_("the starting kassa")))
            for p in range(len(names))
        )
        return t

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def kassas(self) -> list[Number]:
        return self.ledger.row("kassa", self.n)

    @property
    def finished(self) -> bool:
        empty = sum(1 for k in self.kassas if k == 0)
        return empty == self.n or (self.settings.end == "two" and empty >= 2)

    def right(self, seat: int) -> int:
        """The defender on ``seat``'s right: the next in turn order among those dealt in."""
        seats = dealt_in(self.n, self.dealer)
        return seats[(seats.index(seat) + 1) % len(seats)]

    def verify(self, deal: KassaGame | KassaRedeal) -> None:
        if self.finished:
            raise _err(None, N_("every kassa is empty: the game is over, no deal can follow"))
        verify_dealer(deal.dealer, self.dealer, self.names, error=KassaError)
        if isinstance(deal, KassaRedeal):
            return
        verify_player(deal.declarer, self.n, self.dealer, self.names, "declarer", error=KassaError)
        s = self.settings
        c = deal.parsed
        if c.level == 10 and c.trump is Trump.NO_TRUMP and s.ten_nt == "off":
            raise _err("contract", N_("there is no 10NT in Prefa"))
        if deal.four_aces is not None:
            if s.four_aces == "off":
                raise _err("four_aces", N_("four aces are not paid under this convention"))
            verify_player(
                deal.four_aces, self.n, self.dealer, self.names, "four_aces", error=KassaError
            )
        d = deal.declarer
        others = [p for p in dealt_in(self.n, self.dealer) if p != d]
        given = dict(deal.defence)
        if "counter" in given.values():
            if not s.counter_invitation:
                raise _err("defence", N_("there is no counter-invitation under this convention"))
            if sorted(given.values()) != ["counter", "invite"]:
                raise _err(
                    "defence",
                    N_(
                        "a counter-invitation answers an invitation: one player invites, the other counters"
                    ),
                )
            given = {p: ("invited" if r == "invite" else "invite") for p, r in given.items()}
        roles = verify_roles(d, dealt_in(self.n, self.dealer), given, self.names, error=KassaError)
        if roles == ["pass", "pass"]:
            verify_unplayed(deal.tricks, error=KassaError)
            return
        playing = [d, *(p for p in others if deal.defence[p] != "pass")]
        verify_tricks(deal.tricks, playing, error=KassaError)

    def play(self, deal: KassaGame | KassaRedeal) -> list[Posting]:
        self.verify(deal)
        if isinstance(deal, KassaRedeal):
            self.dealer = (self.dealer + 1) % self.n
            why = msg(
                N_("all passed: the cards are redealt, {seat} deals next"),
                seat=self.names[self.dealer],
            )
            return [Posting(Account("note"), 0, why)]
        out = self._postings(deal)
        self.ledger.post(out)
        aces = self._four_aces(deal, out)
        self.ledger.post(aces)
        sitting = self._sitting_out(deal, out)
        self.ledger.post(sitting)
        end = self._two_kassa_end()
        self.ledger.post(end)
        self.dealer = (self.dealer + 1) % self.n
        return out + aces + sitting + end

    def _sitting_out(self, deal: KassaGame, out: Sequence[Posting]) -> list[Posting]:
        """§7.4, four players: a failed declarer pays the dealer sitting out 25 chips down one,
        50 down two or more."""
        if self.n != 4 or not deal.tricks:
            return []
        short = deal.parsed.level - deal.tricks[deal.declarer]
        if short <= 0:
            return []
        one, more = self.settings.sitting_out_chips
        return self._chips(
            deal.declarer,
            self.dealer,
            one if short == 1 else more,
            N_("{payer} pays {payee} {amount} chips: the dealer sitting out"),
        )

    def _four_aces(self, deal: KassaGame, out: Sequence[Posting]) -> list[Posting]:
        """G-Q1: four aces held, in kassa points off the holder's kassa or chips from each."""
        s = self.settings
        holder = deal.four_aces
        if holder is None or not s.four_aces_value:
            return []
        if s.four_aces == "kassa":
            return self._kassa(holder, -s.four_aces_value, [])
        failed = holder == deal.declarer and any(
            p.account == Account("kassa", holder) and p.amount > 0 for p in out
        )
        text = N_("{payer} pays {payee} {amount} chips: four aces")
        chips: list[Posting] = []
        for p in dealt_in(self.n, self.dealer):
            if p != holder:
                pair = (holder, p) if failed else (p, holder)
                chips += self._chips(*pair, s.four_aces_value, text)
        return chips

    def _two_kassa_end(self) -> list[Posting]:
        """G-Q1 «two-kassa end»: when two kassas are empty the third is paid out, ÷ 3 in chips to
        each empty one, and the game is over."""
        kassas = self.kassas
        empty = [p for p in range(self.n) if kassas[p] == 0]
        if self.settings.end != "two" or self.n != 3 or len(empty) != 2:
            return []  # a rule for three (four players end when every kassa is empty)
        (third,) = (p for p in range(self.n) if kassas[p] != 0)
        rest = kassas[third]
        out = [
            Posting(
                Account("kassa", third),
                -rest,
                msg(
                    N_("two kassas are empty: {seat}'s kassa of {amount} is paid out"),
                    seat=self.names[third],
                    amount=rest,
                ),
            )
        ]
        share = normal(Fraction(rest * self.settings.chips_per_point, 3))
        for p in empty:
            out += self._chips(
                third, p, share, N_("{payer} pays {payee} {amount} chips: a third of the kassa")
            )
        return out

    # --- G1–G7 --------------------------------------------------------------------------------
    def _chips(
        self, payer: int, payee: int, amount: Number, why: str, **args: object
    ) -> list[Posting]:
        """``payer`` pays ``payee`` ``amount`` chips: chips[payee][payer] is what payee received."""
        if not amount:
            return []
        m = msg(why, payer=self.names[payer], payee=self.names[payee], amount=amount, **args)
        return [Posting(Account("chips", payee, payer), amount, m)]

    def _postings(self, deal: KassaGame) -> list[Posting]:
        d = deal.declarer
        c = deal.parsed
        v = contract_value(c, self.settings)
        level = c.level
        right, left = self.right(d), self.right(self.right(d))
        roles = dict(deal.defence)
        if "counter" in roles.values():  # the counter-inviter answers as the inviter (G-Q1)
            roles = {p: ("invited" if r == "invite" else "invite") for p, r in roles.items()}
        out: list[Posting] = []
        paid = N_("{payer} pays {payee} {amount} chips")
        if roles[right] == roles[left] == "pass":
            # G6: both pass: the declarer's kassa −c, no chips.
            made = msg(N_("{contract} made, both passed"), contract=contract_name(c))
            return self._kassa(d, -v, out, made)
        tricks = dict(deal.tricks or {})
        whisters = [p for p in (right, left) if roles[p] in ("whist", "invite")]
        inviter = next((p for p in whisters if roles[p] == "invite"), None)
        defence = 10 - tricks[d]
        short = level - tricks[d]
        if short > 0:
            # G4: the declarer fails: kassa +c×G1(s); pays each whister c × tricks × G1(s).
            mult = shortfall_multiplier(short)
            # "down by one" said as a word where the language says it so ("μέσα κατά μία")
            down = nmsg(
                "{contract} down by {n}", "{contract} down by {n}", short, contract=contract_name(c)
            )
            self._kassa(d, v * mult, out, down)
            for p in whisters:
                k = defence if p == inviter else tricks[p]
                out += self._chips(d, p, v * k * mult, paid)
            return out
        # The declarer made.  Duties: a pair collectively, a lone whister or an inviter alone.
        failed: list[tuple[int, int]] = []  # (whister, multiplier)
        if inviter is not None:
            s = DUTY_INVITED[level] - defence
            if s > 0:
                failed.append((inviter, shortfall_multiplier(s, inviter=True, level=level)))
        elif len(whisters) == 1:
            s = DUTY_LONE[level] - tricks[whisters[0]]
            if s > 0:
                failed.append((whisters[0], shortfall_multiplier(s)))
        else:
            duty = dict(zip((right, left), DUTY_PAIR[level], strict=True))
            collective = sum(duty.values()) - defence
            if collective > 0:  # G2: a pair that reaches its duty together is never penalised
                own = [p for p in whisters if tricks[p] < duty[p]]
                if len(own) == 1:
                    failed.append((own[0], shortfall_multiplier(collective)))
                else:
                    failed += [(p, shortfall_multiplier(duty[p] - tricks[p])) for p in own]
        if not failed:
            # G3: the declarer's kassa −c; he pays each whister c × his tricks.
            self._kassa(d, -v, out, msg(N_("{contract} made"), contract=contract_name(c)))
            for p in whisters:
                k = defence if p == inviter else tricks[p]
                out += self._chips(d, p, v * k, paid)
            return out
        # G5: his kassa is unchanged; a failed whister pays him, and a partner who met his duty.
        # The line says why the chips move: the whister took too few (issue 38 item 11).
        short_whist = N_("{payer} pays {payee} {amount} chips: too few tricks as a whister")
        for p, mult in failed:
            out += self._chips(p, d, v * tricks[d] * mult, short_whist)
            partner = [q for q in whisters if q != p]
            if len(failed) == 1 and partner:
                out += self._chips(p, partner[0], v * tricks[partner[0]] * mult, short_whist)
        return out

    def _kassa(
        self, d: int, change: int, out: list[Posting], result: Msg | None = None
    ) -> list[Posting]:
        """Write ``change`` on the declarer's kassa, never below zero (G7); ``result``: what
        moved it, made or down (issue 38 item 11: "6♦ down by 1, kassa +4", not "kassa +4")."""
        kassas = self.kassas
        if change >= 0 or kassas[d] + change >= 0:
            why = msg(N_("{seat}: kassa {amount}"), seat=self.names[d], amount=signed(change))
            if result is not None:
                why = msg(
                    N_("{seat}: {result}, kassa {amount}"),
                    seat=self.names[d],
                    result=result,
                    amount=signed(change),
                )
            out.append(Posting(Account("kassa", d), change, why))
            return out
        own = kassas[d]
        rest = -change - own
        if own:
            out.append(
                Posting(
                    Account("kassa", d),
                    -own,
                    msg(N_("{seat} empties the kassa"), seat=self.names[d]),
                )
            )
        # The player with the most points first (tie: the one on the declarer's right), then the third.
        right, left = self.right(d), self.right(self.right(d))
        for p in sorted((right, left), key=lambda q: (-kassas[q], q != right)):
            if not rest:
                break
            take = min(rest, kassas[p])
            if take:
                out.append(
                    Posting(
                        Account("kassa", p),
                        -take,
                        msg(
                            N_("{seat}'s kassa gives {amount} for {declarer}"),
                            seat=self.names[p],
                            amount=take,
                            declarer=self.names[d],
                        ),
                    )
                )
                out += self._chips(
                    p,
                    d,
                    take * self.settings.chips_per_point,
                    N_("{payer} pays {payee} {amount} chips for the kassa points taken"),
                )
                rest -= take
        if rest:
            half = Fraction(rest * self.settings.chips_per_point, 2)
            for p in (right, left):
                out += self._chips(
                    p,
                    d,
                    normal(half),
                    N_("{payer} pays {payee} {amount} chips: both kassas are empty"),
                )
        return out


def results(table: KassaTable) -> tuple[Number, ...]:
    """Each player's chips now (G8): received minus paid, summing to zero."""
    n = table.n
    chips = table.ledger.square("chips", n)
    return tuple(
        normal(sum(chips[i][j] for j in range(n)) - sum(chips[j][i] for j in range(n)))
        for i in range(n)
    )
