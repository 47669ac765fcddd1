"""The deal form of the pot and direct families, without any widget: what the screen offers and
what a tap does.

Every choice it offers is one the engine accepts: a candidate deal is checked with
:meth:`PotTable.verify` on the table as it stands, and the preview is a trial
:meth:`PotTable.play` on a copy of it (never a second copy of the rules).  The kinds of deal come
from the engine's table of what each system allows.  Tricks are entered as counted when play
stopped: one tap a seat, the last seat in play filled in so that the sum is 10 once every other
count was chosen.  No count starts chosen (issue #21): a deal is written only with the counts the
players tapped.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter, ValidationError

from ...core.i18n import N_, Msg, catalog, msg, nmsg
from ...scoring.ledger.families import FamilyScored, replay_family, session_before
from ...scoring.ledger.ledger import Posting, explanations
from ...scoring.ledger.pot import (
    ALLOWED_DEALS,
    NONSUIT_NAMES,
    SUIT_NAMES,
    SWABIAN_NAMES,
    AnyPotDeal,
    Bete,
    Concede,
    NonSuit,
    PotAllPass,
    PotDeal,
    PotError,
    PotGame,
    PotNonSuit,
    PotTable,
    Role,
    Suit,
    SwabianGame,
)
from ...scoring.ledger.seats import dealt_in
from ...scoring.pulya.session import Problem, pydantic_problem
from ..families.form import why_not
from ..frame.family import TricksRefused

if TYPE_CHECKING:
    from ...store import LedgerStored

Kind = Literal["game", "nonsuit", "concede", "bete", "swabian", "allpass"]
Premium = Literal["none", "four_aces", "no_aces"]
KINDS: tuple[Kind, ...] = ("game", "nonsuit", "swabian", "concede", "allpass", "bete")
_MODEL: dict[Kind, type[Any]] = {
    "game": PotGame,
    "nonsuit": PotNonSuit,
    "concede": Concede,
    "bete": Bete,
    "swabian": SwabianGame,
    "allpass": PotAllPass,
}
SUITS: tuple[Suit, ...] = ("C", "S", "D", "H")
CONTRACTS: tuple[NonSuit, ...] = ("bettel", "durchmarsch", "plauderer", "open_durchmarsch")
BIDS = (2, 3, 4, 5, 6, 7)
ROLES: tuple[Role, ...] = ("play", "drop", "invite")
PREMIUMS: tuple[Premium, ...] = ("none", "four_aces", "no_aces")
CHIPS_MAX = 99  # American second round: a stepper's top (the engine takes any amount)
_DEAL: TypeAdapter[Any] = TypeAdapter(PotDeal)


def _seat_dict(value: Any) -> dict[int, Any]:
    return {int(k): v for k, v in (value or {}).items()}


@dataclass
class PotForm:
    """One deal of a pot or direct session being entered against the session as it stands."""

    scored: FamilyScored
    kind: Kind = "game"
    declarer: int | None = None
    suit: Suit | None = None
    hand: bool = False
    defence: dict[int, Role] = field(default_factory=dict)
    tricks: dict[int, int] = field(default_factory=dict)
    premium: Premium = "none"
    contract: NonSuit | None = None
    bid: int | None = None
    contra: dict[int, bool] = field(default_factory=dict)
    recontra: bool = False
    kunstwerk: bool = False
    second_round: dict[int, int] = field(default_factory=dict)
    bete_dealer: int | None = None
    # The defender whose calls are shown (the others' said in one row): a phone is short.
    opened: int | None = None

    def __post_init__(self) -> None:
        kinds = self.kinds()
        if self.kind not in kinds:
            self.kind = kinds[0]

    # --- the table as it stands --------------------------------------------------------

    @property
    def table(self) -> PotTable:
        t = self.scored.table
        assert isinstance(t, PotTable)
        return t

    @property
    def system(self) -> str:
        return self.table.settings.system

    @property
    def names(self) -> list[str]:
        return list(self.scored.session.players)

    @property
    def dealer(self) -> int:
        return self.table.dealer

    @property
    def seats(self) -> list[int]:
        """The players dealt in (with four, the dealer sits out: B11)."""
        return dealt_in(self.table.n, self.dealer)

    def defenders(self) -> list[int]:
        """The declarer's opponents in the order they speak (from his left)."""
        seats = self.seats
        if self.declarer not in seats:
            return []
        i = seats.index(self.declarer)
        return [seats[(i + k) % len(seats)] for k in range(1, len(seats))]

    # --- choices -------------------------------------------------------------------------

    def kinds(self) -> list[Kind]:
        """The kinds of deal the system has (the engine's own table)."""
        allowed = ALLOWED_DEALS[self.system]
        return [k for k in KINDS if _MODEL[k] in allowed]

    def choose_kind(self, kind: Kind) -> None:
        if kind not in self.kinds():
            raise ValueError(f"{kind!r} is not a deal of this game; the kinds are {self.kinds()}")
        self.kind = kind
        if kind == "bete" and self.bete_dealer is None:
            self.bete_dealer = self.dealer
        self._reset_defence()

    def declarers(self) -> list[int]:
        return [] if self.kind in ("bete", "allpass") else list(self.seats)

    def choose_declarer(self, seat: int) -> None:
        if seat not in self.declarers():
            raise ValueError(f"seat {seat} cannot declare here")
        self.declarer = seat
        self._reset_defence()

    def suits(self) -> list[Suit]:
        """The trumps: of a game, or of the game a soloist gives up (B9 multiplies it)."""
        return list(SUITS) if self.kind in ("game", "concede") else []

    def choose_suit(self, suit: Suit) -> None:
        if suit not in self.suits():
            raise ValueError(f"{suit!r} is not a trump here")
        self.suit = suit

    def hand_offered(self) -> bool:
        """Whether a hand game is written (American Preference has no hand game to write)."""
        if self.kind in ("nonsuit", "swabian"):
            return True
        return self.kind == "game" and self.system != "american"

    def set_hand(self, value: bool) -> None:
        self.hand = value and self.hand_offered()
        if self.kind == "swabian":
            self._fit_kunstwerk()
            self._reset_tricks()

    def contracts(self) -> list[NonSuit]:
        return list(CONTRACTS) if self.kind == "nonsuit" else []

    def choose_contract(self, contract: NonSuit) -> None:
        if contract not in self.contracts():
            raise ValueError(f"{contract!r} is not a contract here")
        self.contract = contract
        self._reset_tricks()

    def bids(self) -> list[int]:
        return list(BIDS) if self.kind == "swabian" else []

    def choose_bid(self, bid: int) -> None:
        if bid not in self.bids():
            raise ValueError(f"{bid!r} is not a bid here")
        self.bid = bid
        self._reset_tricks()

    def bete_dealers(self) -> list[int]:
        return list(self.seats) if self.kind == "bete" else []

    def choose_bete_dealer(self, seat: int) -> None:
        if seat not in self.bete_dealers():
            raise ValueError(f"seat {seat} cannot pay a Bete here")
        self.bete_dealer = seat

    # --- the defence: play, drop or invite (the invited one cannot refuse) --------------

    def open_defender(self, seat: int) -> None:
        """Show ``seat``'s calls to change what he said (a second tap folds them again)."""
        if seat not in self.defence:
            raise ValueError(f"seat {seat} does not defend here")
        self.opened = None if self.opened == seat else seat

    @property
    def has_defence(self) -> bool:
        """Whether the defenders say play, drop or invite (American and the direct deals: no)."""
        return (
            self.kind in ("game", "concede")
            and self.system != "american"
            and self.declarer is not None
        )

    def _reset_defence(self) -> None:
        self.defence = {p: "play" for p in self.defenders()} if self.has_defence else {}
        self.opened = None
        self.contra = {}
        self.recontra = False
        self.premium = "none"
        self._fit_kunstwerk()
        self._reset_tricks()

    def role_options(self, seat: int) -> list[Role]:
        """What ``seat`` may say: the roles the engine accepts with the other defender's call
        (an invitation calls the other in).  An invited defender says nothing."""
        if not self.has_defence or seat not in self.defence or self.defence[seat] == "invited":
            return []
        return [r for r in ROLES if self._roles_ok(self._with_role(seat, r))]

    def _with_role(self, seat: int, role: Role) -> dict[int, Role]:
        roles = dict(self.defence)
        roles[seat] = role
        other = next(p for p in roles if p != seat)
        if role == "invite":
            roles[other] = "invited"
        elif roles[other] in ("invite", "invited"):
            roles[other] = "drop"  # the invitation is withdrawn: he had passed
        return roles

    def _roles_ok(self, roles: dict[int, Role]) -> bool:
        trial = copy.copy(self)
        trial.defence = roles
        trial.premium = "none"
        trial.suit = self.suit or SUITS[0]  # the defence does not depend on the trump
        trial.tricks = trial._usual_tricks()
        return trial._verify() is None

    def say(self, seat: int, role: Role) -> None:
        if role not in self.role_options(seat):
            raise ValueError(f"seat {seat} cannot say {role!r} here")
        self.defence = self._with_role(seat, role)
        self.opened = None
        if not self._premium_ok(self.premium):
            self.premium = "none"
        self._reset_tricks()

    @property
    def played(self) -> bool:
        """Whether the game was played (not when both defenders dropped out, nor a concession)."""
        if self.kind in ("concede", "bete"):
            return False
        if self.kind == "game" and self.has_defence:
            return any(r != "drop" for r in self.defence.values())
        return self.declarer is not None

    # --- premiums (modern), contra (the direct deals), Kunstwerk, the second round ------

    def premiums(self) -> list[Premium]:
        """The premiums the engine accepts for this deal (none when it has none at all)."""
        if self.kind != "game" or self.declarer is None or self.suit is None:
            return []
        found = [p for p in PREMIUMS if p == "none" or self._premium_ok(p)]
        return found if len(found) > 1 else []

    def _premium_ok(self, premium: Premium) -> bool:
        """The engine accepts the premium here, and pays it when the game is made (American
        Preference accepts the flags but pays no premium: not offered there)."""
        if premium == "none":
            return True
        trial = self._counted()
        trial.premium = premium
        if trial._verify() is not None:
            return False
        made = copy.copy(trial)
        seats = made.trick_seats()
        if seats:
            made.tricks = {s: 10 if s == seats[0] else 0 for s in seats}
        plain = copy.copy(made)
        plain.premium = "none"
        return _flag_pays(made, plain)

    def choose_premium(self, premium: Premium) -> None:
        if premium not in self.premiums():
            raise ValueError(f"{premium!r} is not a premium here")
        self.premium = premium

    @property
    def has_contra(self) -> bool:
        return self.kind in ("nonsuit", "swabian") and self.declarer is not None

    def set_contra(self, seat: int, value: bool) -> None:
        if not self.has_contra or seat not in self.defenders():
            raise ValueError(f"seat {seat} cannot say contra here")
        self.contra[seat] = value
        if not any(self.contra.values()):
            self.recontra = False

    @property
    def recontra_offered(self) -> bool:
        return self.has_contra and any(self.contra.values())

    def set_recontra(self, value: bool) -> None:
        self.recontra = value and self.recontra_offered

    @property
    def kunstwerk_offered(self) -> bool:
        """A Kunstwerk is offered where the engine moves money for it (not by hand, nor to a
        dealer who declares himself)."""
        if self.kind != "swabian" or self.declarer is None or self.bid is None:
            return False
        base = self._counted()
        base.kunstwerk = False
        with_it = self._counted()
        with_it.kunstwerk = True
        return _flag_pays(with_it, base)

    def set_kunstwerk(self, value: bool) -> None:
        self.kunstwerk = value and self.kunstwerk_offered

    def _fit_kunstwerk(self) -> None:
        if self.kunstwerk and not self.kunstwerk_offered:
            self.kunstwerk = False

    @property
    def has_second_round(self) -> bool:
        return self.kind == "game" and self.system == "american"

    def set_chips(self, seat: int, chips: int) -> None:
        if not self.has_second_round or seat not in self.seats or not 0 <= chips <= CHIPS_MAX:
            raise ValueError(f"seat {seat} cannot put {chips} chips in here")
        if chips:
            self.second_round[seat] = chips
        else:
            self.second_round.pop(seat, None)

    # --- tricks: as counted when play stopped, the last seat in play filled in ----------

    def trick_seats(self) -> list[int]:
        """Whose tricks are entered: the declarer first, then the defenders in play."""
        if not self.played or self.declarer is None:
            return []
        if self.kind == "game" and self.has_defence:
            return [self.declarer, *(p for p in self.defenders() if self.defence[p] != "drop")]
        return [self.declarer]

    @property
    def filled(self) -> bool:
        """Whether the last seat's count is filled in (several seats in play sum to 10)."""
        return len(self.trick_seats()) > 1

    def _reset_tricks(self) -> None:
        # No count is written that nobody chose (issue #21): each is tapped, the last seat of
        # several filled in once the others are.
        self.tricks = {}

    def _usual_tricks(self) -> dict[int, int]:
        """A complete count for trials only (what a premium, a call or a Kunstwerk would do):
        never shown nor written."""
        seats = self.trick_seats()
        if not seats:
            return {}
        if len(seats) == 1:
            start = 6
            if self.kind == "nonsuit" and self.contract is not None:
                start = 0 if self.contract in ("bettel", "plauderer") else 10
            if self.kind == "swabian" and self.bid in (6, 7):
                start = 0 if self.bid == 6 else 10
            return {seats[0]: start}
        usual = {seats[0]: 6, **{p: 2 for p in seats[1:-1]}}
        return usual | {seats[-1]: 10 - sum(usual.values())}

    def _counted(self) -> PotForm:
        """A copy to try a flag on: the counts chosen, or the usual ones while some are not."""
        trial = copy.copy(self)
        trial.tricks = dict(self.tricks) if self.tricks_complete else self._usual_tricks()
        return trial

    @property
    def tricks_complete(self) -> bool:
        """Whether every count is known (the players' taps, and the rest filled in)."""
        return all(s in self.tricks for s in self.trick_seats())

    def _fill_last(self) -> None:
        """The last seat takes the rest once every other count was chosen (never before)."""
        seats = self.trick_seats()
        if len(seats) < 2:
            return
        if all(s in self.tricks for s in seats[:-1]):
            self.tricks[seats[-1]] = 10 - sum(self.tricks[s] for s in seats[:-1])
        else:
            self.tricks.pop(seats[-1], None)

    def trick_choices(self, seat: int) -> list[int]:
        """The counts one tap may give ``seat`` (the others kept, the last one filling to 10)."""
        seats = self.trick_seats()
        if seat not in seats or (self.filled and seat == seats[-1]):
            return []
        if not self.filled:
            return list(range(11))
        others = sum(self.tricks.get(s, 0) for s in seats[:-1] if s != seat)
        return [n for n in range(11) if 0 <= 10 - others - n <= 10]

    def trick_refusal(self, seat: int, n: int) -> Msg | None:
        """Why ``seat`` cannot take ``n`` tricks now, or None (the pulya's sentences): the other
        seats chosen by hand are kept, the last one is filled in."""
        seats = self.trick_seats()
        if seat not in seats:
            return msg(N_("{player} has no tricks to enter here"), player=self.names[seat])
        kept = {s: self.tricks[s] for s in seats[:-1] if s != seat and s in self.tricks}
        return why_not(
            self.names, seats, kept if self.filled else {}, seat, n, self.trick_choices(seat)
        )

    def set_tricks(self, seat: int, n: int) -> None:
        """One tap: ``seat`` took ``n``; the last seat takes the rest (a count that cannot be is
        refused with why: TricksRefused)."""
        why = self.trick_refusal(seat, n)
        if why is not None:
            raise TricksRefused(why)
        self.tricks[seat] = n
        self._fill_last()

    # --- the deal --------------------------------------------------------------------------

    def missing(self) -> Msg | None:
        """What is still to be chosen, in words (None when the deal is complete): the deal, then
        the first count not yet tapped."""
        missing = self.choice_missing()
        if missing is not None:
            return missing
        for seat in self.trick_seats():
            if seat not in self.tricks:  # the pulya's sentence: no count is taken for granted
                return msg(N_("{player}: how many tricks?"), player=self.names[seat])
        return None

    def choice_missing(self) -> Msg | None:
        """What is still to be chosen before the counts (None when only they may be missing)."""
        if self.kind in ("bete", "allpass"):
            return None
        if self.declarer is None:
            return msg(N_("choose the declarer"))
        if self.kind == "game" and self.suit is None:
            return msg(N_("choose the trump"))
        if self.kind == "concede" and self.suit is None and self.table.settings.multiply_by_bid:
            return msg(N_("choose the trump"))  # the payments are × its number (B9)
        if self.kind == "nonsuit" and self.contract is None:
            return msg(N_("choose the contract"))
        if self.kind == "swabian" and self.bid is None:
            return msg(N_("choose the bid"))
        return None

    def deal(self) -> AnyPotDeal:
        """The deal as the engine reads it, its model built from the choices (the store takes
        it; a choice still missing or refused is pydantic's ValidationError, naming the field)."""
        if self.kind == "bete":
            return Bete(type="bete", dealer=self.bete_dealer)
        if self.kind == "allpass":
            return PotAllPass(type="allpass", dealer=self.dealer)
        defence = {str(p): r for p, r in self.defence.items()}
        if self.kind == "concede":
            return Concede(type="concede", declarer=self.declarer, defence=defence, suit=self.suit)
        contra = {str(p): True for p, said in sorted(self.contra.items()) if said}
        # The declarer's count, as counted when play stopped (not written until it is chosen).
        counted = self.tricks.get(self.declarer) if self.declarer is not None else None
        if self.kind == "nonsuit":
            return PotNonSuit(
                type="nonsuit",
                declarer=self.declarer,
                contract=self.contract,
                hand=self.hand,
                contra=contra,
                recontra=self.recontra,
                tricks=counted,
            )
        if self.kind == "swabian":
            return SwabianGame(
                type="swabian",
                declarer=self.declarer,
                bid=self.bid,
                hand=self.hand,
                tricks=counted,
                contra=contra,
                recontra=self.recontra,
                kunstwerk=self.kunstwerk,
                dealer=self.dealer if self.kunstwerk else None,
            )
        return PotGame(
            type="game",
            declarer=self.declarer,
            suit=self.suit,
            hand=self.hand,
            defence=defence,
            tricks={str(s): n for s, n in self.tricks.items()} if self.played else None,
            four_aces=self.premium == "four_aces",
            no_aces=self.premium == "no_aces",
            second_round={str(p): c for p, c in sorted(self.second_round.items())} or None,
        )

    def to_deal(self) -> dict[str, Any]:
        """The deal's JSON form (docs/session-format.md, "Other families"), as written."""
        data: dict[str, Any] = self.deal().model_dump(mode="json", exclude_defaults=True)
        return {"type": data.pop("type"), **data}

    def load(self, written: AnyPotDeal | dict[str, Any]) -> None:
        """Fill the form with a written deal (to edit it)."""
        d = written if isinstance(written, dict) else written.model_dump(mode="json")
        kind = d["type"]
        if kind not in self.kinds():
            raise ValueError(f"a {kind} is not a deal of this game")
        self.kind = kind
        self.declarer = d.get("declarer")
        self.hand = bool(d.get("hand", False))
        self.defence = _seat_dict(d.get("defence"))
        self.suit = d.get("suit")
        self.contract = d.get("contract")
        self.bid = d.get("bid")
        self.contra = {p: bool(v) for p, v in _seat_dict(d.get("contra")).items()}
        self.recontra = bool(d.get("recontra", False))
        self.kunstwerk = bool(d.get("kunstwerk", False))
        self.second_round = _seat_dict(d.get("second_round"))
        self.bete_dealer = d.get("dealer") if kind == "bete" else None
        self.premium = (
            "four_aces" if d.get("four_aces") else "no_aces" if d.get("no_aces") else "none"
        )
        tricks = d.get("tricks")
        if isinstance(tricks, int):
            self.tricks = {self.declarer or 0: tricks}
        else:
            self.tricks = _seat_dict(tricks)

    def _verify(self) -> PotError | ValidationError | None:
        try:
            self.table.verify(self.deal())
        except (PotError, ValidationError) as exc:
            return exc
        return None

    def _trial(self) -> list[Posting] | PotError | ValidationError:
        """What the deal writes, played on a copy of the table (the table itself untouched)."""
        done = self._played()
        return done if not isinstance(done, tuple) else done[0]

    def _played(self) -> tuple[list[Posting], PotTable] | PotError | ValidationError:
        try:
            deal = self.deal()
            table = copy.deepcopy(self.table)
            return table.play(deal), table
        except (PotError, ValidationError) as exc:
            return exc

    def preview(self, lang: str = "en") -> tuple[list[str], str | None]:
        """The sentences the deal will write (its title first), or why it cannot be written."""
        cat = catalog(lang)
        missing = self.missing()
        if missing is not None:
            return [], cat.render(missing)
        done = self._played()
        # The field in the player's words, never its name in the file (issue 38 item 10).
        if isinstance(done, ValidationError):
            return [], pydantic_problem(done.errors()[0]).said().render(lang)
        if isinstance(done, PotError):
            return [], Problem(None, done.field, done.message).said().render(lang)
        postings, _after = done
        said = [cat.render(m) for m in explanations(postings)]  # a re-ante first, when made
        if not said:
            said = [cat.render(msg(N_("nobody pays anything")))]
        return [cat.render(title(self.deal(), self.names)), *said], None


def _flag_pays(form: PotForm, without: PotForm) -> bool:
    """Whether a flag moves money: both deals written, ``form``'s (with it) and ``without``'s,
    with a different number of postings."""
    a, b = form._trial(), without._trial()
    return isinstance(a, list) and isinstance(b, list) and len(a) != len(b)


# --- one line naming a written deal (the history, the sheet) ----------------------------------


def _contract(name: str, hand: bool) -> Msg:
    return msg(N_("{contract} from the hand"), contract=msg(name)) if hand else msg(name)


def _tricks(n: int) -> Msg:
    return nmsg("{n} trick", "{n} tricks", n)


def title(deal: Any, players: list[str] | tuple[str, ...] | Any) -> Msg:
    """One line naming a written deal: "Anton: diamonds, 6 tricks", "Brigitte: Bete"."""
    names = list(players)
    if isinstance(deal, dict):
        deal = _DEAL.validate_python(deal)
    if isinstance(deal, Bete):
        return msg(N_("{player}: Bete"), player=names[deal.dealer])
    if isinstance(deal, PotAllPass):
        return msg(N_("All pass: the cards are redealt"))
    who = names[deal.declarer]
    if isinstance(deal, Concede):
        return msg(N_("{player} gives up"), player=who)
    if isinstance(deal, PotNonSuit | SwabianGame):
        if isinstance(deal, PotNonSuit):
            c = _contract(NONSUIT_NAMES[deal.contract], deal.hand)
        else:
            c = _contract(SWABIAN_NAMES[deal.bid], deal.hand)
        if any(deal.contra.values()):
            c = msg(
                N_("{contract}, recontra") if deal.recontra else N_("{contract}, contra"),
                contract=c,
            )
        tricks = deal.tricks
    else:
        c = _contract(SUIT_NAMES[deal.suit], deal.hand)
        if deal.tricks is None:
            return msg(N_("{player}: {contract}, both defenders drop"), player=who, contract=c)
        tricks = deal.tricks[deal.declarer]
    return msg(N_("{player}: {contract}, {tricks}"), player=who, contract=c, tricks=_tricks(tricks))


# --- the family's part for the shell ---------------------------------------------------------


def new_form(stored: LedgerStored) -> PotForm:
    return PotForm(stored.scored)


def edit_form(stored: LedgerStored, index: int) -> PotForm:
    """Deal ``index`` as written, in its own context (the deals before it)."""
    form = PotForm(replay_family(session_before(stored.session, index)))
    form.load(stored.journal.live[index].deal)
    return form


#: What a player chooses on the form (not the state it stands on, nor which defender is shown).
CHOICES = tuple(f.name for f in fields(PotForm) if f.name not in ("scored", "opened"))


def dirty(form: PotForm) -> bool:
    """Whether the player has chosen anything (an untouched form follows the other devices)."""
    fresh = PotForm(form.scored)
    return any(getattr(form, name) != getattr(fresh, name) for name in CHOICES)


def carry(old: PotForm, stored: LedgerStored) -> PotForm:
    """``old``'s choices on the newer state; what no longer fits is left to choose again."""
    form = new_form(stored)
    if old.kind not in form.kinds():
        return form
    for name in CHOICES:
        setattr(form, name, copy.deepcopy(getattr(old, name)))
    form.set_kunstwerk(form.kunstwerk)  # the Kunstwerk is paid to the dealer of the new state
    return form
