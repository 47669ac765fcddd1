"""Cards: the 32-card pack (7 to A in ♠ ♣ ♦ ♥), its notations, hands and layouts.

Cards read in the notations players write: ``A♠ 10♥``, ``AS TH``, Russian ranks ``Т К Д В``
(туз, король, дама, валет) and suit letters ``П Т Б Ч`` (пики, трефы, бубны, черви), or a hand
grouped by suit: ``♠AK ♥AKQ10 ♦A ♣QJ10``.  Inside, a card is a number 0-31 and a hand a bit
mask (the engine's speed); callers see :class:`Card` and :class:`Hand`.

>>> Card.parse("10♥"), Card.parse("TH"), Card.parse("Д♣"), Card.parse("ТТ")
(Card('10♥'), Card('10♥'), Card('Q♣'), Card('A♣'))
>>> str(Hand.parse("♠AK ♥AKQ10 ♦A ♣QJ10"))
'♠AK ♣QJ10 ♦A ♥AKQ10'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from ..core.i18n import N_, Msg, ScorepadError, msg
from ..scoring.contract import Trump

try:  # the compiled reading of a hand (_dds.c), where the install built it
    from . import _dds as _compiled
except ImportError:  # no C compiler: the Python reading below
    _compiled = None  # type: ignore[assignment]


class Suit(Enum):
    """Suits in ladder order (§1.3); the value is the session-format letter."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self.index]

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self]

    @classmethod
    def from_trump(cls, trump: Trump) -> Suit | None:
        """The suit a contract's trump names (``None`` for no-trump); the two enums share letters.

        >>> Suit.from_trump(Trump.HEARTS), Suit.from_trump(Trump.NO_TRUMP)
        (<Suit.HEARTS: 'H'>, None)
        """
        return None if trump is Trump.NO_TRUMP else cls(trump.value)

    def to_trump(self) -> Trump:
        return Trump(self.value)


_SUITS = tuple(Suit)
_SUIT_INDEX = {s: i for i, s in enumerate(_SUITS)}
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANKS_RU = ("7", "8", "9", "10", "В", "Д", "К", "Т")
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {r: i for i, r in enumerate(RANKS_RU)}
_RANK_ALIASES |= {"T": 3, "1": 3}  # "TH" (English ten); "1" only as the start of "10"
_SUIT_ALIASES = {
    "♠": 0, "S": 0, "П": 0, "♤": 0,
    "♣": 1, "C": 1, "Т": 1, "♧": 1, "К": 1,  # трефы / крести
    "♦": 2, "D": 2, "Б": 2, "♢": 2,
    "♥": 3, "H": 3, "Ч": 3, "♡": 3,
}  # fmt: skip


class CardError(ScorepadError):
    """A card or a hand that cannot be read, or a layout that is not a deal."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; ``index`` = suit × 8 + rank (7 is rank 0, A is rank 7)."""

    index: int

    @property
    def suit(self) -> Suit:
        return _SUITS[self.index >> 3]

    @property
    def rank(self) -> int:
        return self.index & 7

    @property
    def rank_text(self) -> str:
        return RANKS[self.rank]

    def __str__(self) -> str:
        return f"{RANKS[self.rank]}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card('{self}')"

    @property
    def code(self) -> str:
        """``AS``, ``TH``: ASCII only."""
        return f"{'T' if self.rank == 3 else RANKS[self.rank]}{self.suit.value}"

    def ru(self) -> str:
        return f"{RANKS_RU[self.rank]}{self.suit.symbol}"

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        return cls(suit.index * 8 + rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        found = _SPELLINGS.get(text) or _SPELLINGS.get(text.strip().upper())
        if found is not None:
            return found
        raise CardError(
            msg(N_("'{token}' is not a card: write A♠, 10♥, AS, TH or Т♠"), token=shown(text))
        )


_RANK_WORDS = (None, None, None, None, N_("J"), N_("Q"), N_("K"), N_("A"))


def card_word(card: Card) -> Msg:
    """``J♣`` / ``В♣``: the card in the reader's language (a sentence's argument)."""
    word = _RANK_WORDS[card.rank]
    rank: str | Msg = card.rank_text if word is None else msg(word)
    return Msg("{rank}{suit}", {"rank": rank, "suit": card.suit.symbol})


ALL_CARDS = tuple(Card(i) for i in range(32))
# Every accepted spelling, upper-cased: a record of 30 plays is parsed by lookups, not by rules.
_SPELLINGS: dict[str, Card] = {
    rank_text + suit_text: ALL_CARDS[suit * 8 + rank]
    for rank_text, rank in _RANK_ALIASES.items()
    if rank_text != "1"
    for suit_text, suit in _SUIT_ALIASES.items()
}
SPELLINGS = _SPELLINGS
FULL = (1 << 32) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))


def cards_of(mask: int) -> Iterator[Card]:
    while mask:
        low = mask & -mask
        yield ALL_CARDS[low.bit_length() - 1]
        mask ^= low


_GROUP = re.compile(r"([♠♣♦♥])((?:10|[7-9JQKAТКДВT])*)")
_RANK = re.compile(r"10|[7-9JQKAТКДВT]")


@dataclass(frozen=True, slots=True)
class Hand:
    """A set of cards, as a bit mask."""

    mask: int = 0

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        mask = 0
        for c in cards:
            bit = 1 << c.index
            if mask & bit:
                raise CardError(msg(N_("{card} is written twice"), card=card_word(c)))
            mask |= bit
        return cls(mask)

    @classmethod
    def parse(cls, text: str, *, compiled: bool = False) -> Hand:
        """Cards one by one (``A♠ K♠ 10♥``) or grouped by suit (``♠AK ♥AKQ10``).

        ``compiled``: the usual hand (every token a card or a suit group read before, no card
        twice) is read by the C core where it is built; anything else the way below.
        """
        if compiled and _compiled is not None:
            read = _compiled.hand_mask(text, _MASKS)
            if read is not None:
                return cls(read)
        text = text.strip()
        if not text or text == "-":
            return cls(0)
        # Each token by one lookup of its cards; anything unusual (a spelling to normalise, a
        # card written twice, a word that is not a card) goes the long way, which says why.
        mask = count = 0
        masks = _MASKS
        for token in text.replace(",", " ").split():
            found = masks.get(token)
            if found is None:
                found = _token_mask(token)
                if found is None:
                    return cls._parse(text)
            mask |= found[0]
            count += found[1]
        if mask.bit_count() != count:
            return cls._parse(text)
        return cls(mask)

    @classmethod
    def _parse(cls, text: str) -> Hand:
        return cls.of(in_order(text))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return cards_of(self.mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask >> card.index & 1)

    def __str__(self) -> str:
        groups = []
        for s in _SUITS:
            ranks = [
                RANKS[c.rank]
                for c in sorted(cards_of(self.mask & SUIT_MASK[s.index]), reverse=True)
            ]
            if ranks:
                groups.append(s.symbol + "".join(ranks))
        return " ".join(groups) or "-"

    def cards_text(self) -> str:
        """``A♠ K♠ 10♥``: card by card, high to low within suits."""
        return " ".join(
            str(c)
            for s in _SUITS
            for c in sorted(cards_of(self.mask & SUIT_MASK[s.index]), reverse=True)
        )


_GROUPS: dict[str, tuple[Card, ...]] = {}  # suit groups already read: a night repeats them
# A token's cards as (mask, how many): every card's spellings, and suit groups once read.
_MASKS: dict[str, tuple[int, int]] = {t: (1 << c.index, 1) for t, c in _SPELLINGS.items()}
_MASKS_BUILT = len(_MASKS)


def _token_mask(token: str) -> tuple[int, int] | None:
    """A suit group's (mask, count), kept for the next time; ``None`` for anything else."""
    if token[0] not in "♠♣♦♥" or len(token) == 1:
        return None
    try:
        group = _group(token)
    except CardError:
        return None
    found = (sum(1 << c.index for c in set(group)), len(group))
    if len(_MASKS) < _MASKS_BUILT + 4096:
        _MASKS[token] = found
    return found


def shown(text: str, limit: int = 24) -> str:
    """Refused text as a message quotes it: at most ``limit`` characters, escaped (no ESC, BEL
    or bidi override reaches the terminal)."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return repr(cut)[1:-1]


def in_order(text: str) -> list[Card]:
    """The cards of ``text`` in the order written, one by one or grouped by suit (``♣QK``)."""
    text = text.strip()
    if not text or text == "-":
        return []
    cards: list[Card] = []
    spellings = _SPELLINGS
    for token in text.replace(",", " ").split():
        # A card by a lookup; a suit group (``♠AK10``) by its own rule, never by a failed
        # card first.
        if token[0] in "♠♣♦♥" and len(token) > 1:  # no card is spelt suit first: a group
            group = _GROUPS.get(token)
            if group is None:
                group = _group(token)
            cards.extend(group)
        else:
            card = spellings.get(token)
            cards.append(card if card is not None else Card.parse(token))
    return cards


def _group(token: str) -> tuple[Card, ...]:
    m = _GROUP.fullmatch(token.upper())
    if m is None:
        raise CardError(msg(N_("'{token}' is not a suit group like ♠AK10"), token=shown(token)))
    suit = _SUIT_ALIASES[m.group(1)]
    group = tuple(ALL_CARDS[suit * 8 + _RANK_ALIASES[r]] for r in _RANK.findall(m.group(2)))
    if len(_GROUPS) < 4096:
        _GROUPS[token] = group
    return group


def check_layout(hands: dict[int, Hand], talon: Hand, names: list[str]) -> list[Msg]:
    """A layout is valid only with 10 distinct cards per active player and 2 in the talon."""
    union = talon.mask
    count = union.bit_count()
    tens = True
    for hand in hands.values():
        mask = hand.mask
        union |= mask
        n = mask.bit_count()
        count += n
        tens = tens and n == 10
    if union == FULL and count == 32 and talon.mask.bit_count() == 2 and tens:
        return []  # the usual case: every card once, 10 a hand, 2 in the talon
    problems: list[Msg] = []
    seen = 0
    owners: dict[int, str] = {}
    for seat, hand in hands.items():
        if len(hand) != 10:
            problems.append(
                msg(N_("{player} has {n} cards, must have 10"), player=names[seat], n=len(hand))
            )
        clash = seen & hand.mask
        for c in cards_of(clash):
            problems.append(
                msg(
                    N_("{card} is in both {a}'s and {b}'s hand"),
                    card=card_word(c),
                    a=owners[c.index],
                    b=names[seat],
                )
            )
        for c in hand:
            owners.setdefault(c.index, names[seat])
        seen |= hand.mask
    if len(talon) != 2:
        problems.append(msg(N_("the talon has {n} cards, must have 2"), n=len(talon)))
    for c in cards_of(seen & talon.mask):
        problems.append(
            msg(
                N_("{card} is in the talon and in {a}'s hand"), card=card_word(c), a=owners[c.index]
            )
        )
    if not problems and (seen | talon.mask) != FULL:
        missing = Hand(FULL & ~(seen | talon.mask))
        problems.append(
            msg(N_("cards missing from the layout: {cards}"), cards=missing.cards_text())
        )
    return problems
