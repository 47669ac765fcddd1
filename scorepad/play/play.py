"""Trick play (розыгрыш): KOD §3.6, §3.7.6.

Follow suit; without the suit, trump; without trumps, anything.  Misère and all-pass have no
trumps.  The first trick is led by the first hand (the dealer's left); then the winner leads.
On an all-pass with the talon opened (§9.2): with 3 players each talon card in turn names the
suit of the first two tricks (its rank does not count; the first hand plays first; if nobody
has the suit, the first hand's card leads), and the first hand leads the third; with 4 players
the dealer leads each talon card himself, and a trick it wins is his.  ``must_overtake`` (not a
Russian rule; some English summaries have it): a player following suit, or trumping, must beat
the winning card when he can.

Hands are bit masks (see :mod:`scorepad.play.cards`); the engine is fast enough to replay thousands
of deals a second and to search claims exhaustively.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

from ..core.i18n import N_, Msg, msg
from .cards import ALL_CARDS, SUIT_MASK, card_word

try:  # the compiled trick play (_dds.c), where the install built it
    from . import _dds as _compiled
except ImportError:  # no C compiler: the Python trick play below runs
    _compiled = None  # type: ignore[assignment]

__all__ = ["Play", "_compiled", "suit_name"]

# Every (seat, card) pair of a trick, built once: the compiled trick play hands them out.
_SEAT_CARD: tuple[tuple[int, int], ...] = tuple((s, c) for s in range(4) for c in range(32))


@dataclass(slots=True)
class Play:
    """The play of one deal, trick by trick.

    ``hands[seat]`` are bit masks; ``order`` is every seat that plays a card to each trick,
    clockwise (with 4 players the dealer is left out, except for his talon cards).
    """

    hands: list[int]
    order: tuple[int, ...]
    _: KW_ONLY
    trump: int | None  # suit index, or None
    first_hand: int
    must_overtake: bool = False
    talon_leads: tuple[int, ...] = ()  # card indexes turned for the first tricks (all-pass)
    talon_owner: int | None = None  # 4 players: the dealer, whose talon cards are played
    tricks: list[list[tuple[int, int]]] = field(default_factory=list)  # finished: (seat, card)
    won: dict[int, int] = field(default_factory=dict)
    current: list[tuple[int, int]] = field(default_factory=list)
    leader: int = -1
    last_winner: int = -1  # who took the last trick (the talon's owner too)
    _seq: list[int] = field(default_factory=list)  # who plays to this trick, in order
    _size: int = 0  # cards in this trick

    def __post_init__(self) -> None:
        self.won = {s: 0 for s in self.order} | (
            {self.talon_owner: 0} if self.talon_owner is not None else {}
        )
        self.leader = self.first_hand
        self._start_trick()

    # --- whose turn ------------------------------------------------------------------------

    @property
    def trick_number(self) -> int:
        return len(self.tricks)

    @property
    def finished(self) -> bool:
        hands = self.hands
        return not self.current and not any([hands[s] for s in self.order])

    def _players_of_trick(self) -> list[int]:
        """Who plays to the current trick, in order."""
        n = len(self.order)
        i = self.order.index(self.leader)
        return [self.order[(i + k) % n] for k in range(n)]

    def _start_trick(self) -> None:
        k = len(self.tricks)
        if k < len(self.talon_leads):
            self.leader = self.first_hand
            if self.talon_owner is not None:
                # 4 players: the dealer leads his talon card himself.
                self.current = [(self.talon_owner, self.talon_leads[k])]
        elif k == len(self.talon_leads) and self.talon_leads:
            self.leader = self.first_hand  # the third lead is the first hand's too
        self._seq = self._players_of_trick()
        self._size = len(self.order) + (1 if self._talon_in_trick() else 0)

    @property
    def to_play(self) -> int:
        done = len(self.current) - (1 if self._talon_in_trick() else 0)
        if done >= len(self._seq):
            raise RuntimeError("the trick is complete")
        return self._seq[done]

    @property
    def led_suit(self) -> int | None:
        k = len(self.tricks)
        if self.talon_owner is None and k < len(self.talon_leads):
            return self.talon_leads[k] >> 3
        if not self.current:
            return None
        return self.current[0][1] >> 3

    # --- rules ------------------------------------------------------------------------------

    def legal(self, seat: int) -> int:
        """The mask of cards ``seat`` may play now."""
        hand = self.hands[seat]
        led = self.led_suit
        if led is None:
            return hand
        follow = hand & SUIT_MASK[led]
        if follow:
            if self.must_overtake:
                beat = follow & ~((1 << (self._best_in(led) + 1)) - 1) if not self._trumped() else 0
                return beat or follow
            return follow
        if self.trump is not None:
            trumps = hand & SUIT_MASK[self.trump]
            if trumps:
                if self.must_overtake and self._trumped():
                    beat = trumps & ~((1 << (self._best_in(self.trump) + 1)) - 1)
                    return beat or trumps
                return trumps
        return hand

    def _trumped(self) -> bool:
        """A trump was played to a trick led in another suit (following suit cannot beat it)."""
        trump = self.trump
        if trump is None or not self.current or self.led_suit == trump:
            return False
        return any(c >> 3 == trump for _, c in self.current)

    def _best_in(self, suit: int) -> int:
        best = -1
        for _, c in self.current:
            if c >> 3 == suit and c > best:
                best = c
        return best

    def why_illegal(self, seat: int, card: int) -> Msg | None:
        """The rule a play would break, in words (None if it is legal)."""
        if self.legal(seat) >> card & 1:
            return None
        if not self.hands[seat] >> card & 1:
            return msg(N_("does not hold {card}"), card=card_word(ALL_CARDS[card]))
        if self.legal(seat) >> card & 1:
            return None
        hand = self.hands[seat]
        led = self.led_suit
        assert led is not None
        if hand & SUIT_MASK[led]:
            if card >> 3 == led:
                return msg(
                    N_("played {card} but had to beat the trick"), card=card_word(ALL_CARDS[card])
                )
            return msg(
                N_("played {card} while holding a {suit} — revoke"),
                card=card_word(ALL_CARDS[card]),
                suit=suit_name(led),
            )
        assert self.trump is not None
        if card >> 3 == self.trump:
            return msg(N_("played {card} but had to overtrump"), card=card_word(ALL_CARDS[card]))
        return msg(
            N_("played {card} with no {suit} but holding a trump — must trump"),
            card=card_word(ALL_CARDS[card]),
            suit=suit_name(led),
        )

    def play(self, card: int, seat: int | None = None) -> tuple[int, int] | None:
        """The next player (``seat``, if the caller knows it) plays ``card``, already checked.

        Returns (winner, trick number) when the card ends a trick.
        """
        if seat is None:
            seat = self.to_play
        self.hands[seat] &= ~(1 << card)
        current = self.current
        current.append((seat, card))
        if len(current) < self._size:
            return None
        winner = self._winner()
        self.last_winner = winner
        self.tricks.append(self.current)
        self.won[winner] += 1
        self.current = []
        self.leader = winner if winner in self.order else self.first_hand
        number = len(self.tricks)
        self._start_trick()
        return winner, number

    def play_trick(self, cards: list[int]) -> int:
        """Play a whole trick (the record path's hot loop): -1, or the first illegal card's index.

        A card is legal here only if the player to play holds it and may play it; on an
        illegal card nothing of the trick is played.
        """
        seq = self._seq
        hands = self.hands
        start = len(self.current)
        led = self.led_suit
        trump = self.trump
        slow = self.must_overtake
        for i, card in enumerate(cards):
            seat = seq[i]
            bit = 1 << card
            hand = hands[seat]
            if slow:
                ok = hand & bit and self.legal(seat) & bit
            elif led is None:
                ok = hand & bit
                led = card >> 3
            else:
                # Follow suit; without it, trump; without trumps, anything.
                suit = card >> 3
                ok = hand & bit and (
                    suit == led
                    or (
                        not hand & SUIT_MASK[led]
                        and (trump is None or suit == trump or not hand & SUIT_MASK[trump])
                    )
                )
            if not ok:
                for s, c in self.current[start:]:
                    hands[s] |= 1 << c
                del self.current[start:]
                return i
            hands[seat] ^= bit
            self.current.append((seat, card))
        if len(self.current) != self._size:
            raise ValueError("a trick needs a card from each player")
        winner = self._winner()
        self.last_winner = winner
        self.tricks.append(self.current)
        self.won[winner] += 1
        self.current = []
        self.leader = winner if winner in self.order else self.first_hand
        self._start_trick()
        return -1

    def play_tricks(self, tricks: list[list[int]], *, compiled: bool = False) -> list[int] | None:
        """Play whole tricks, all or none (the record audit's fast path): each trick's winner,
        or ``None`` and nothing played when any card is not legal (or a trick is not whole).

        The same rules as :meth:`play_trick`, which plays the talon tricks and a
        ``must_overtake`` table's here; the plain tricks are played inline, a few times faster.
        ``compiled``: by the C core (``_dds.play_tricks``, every rule of this class, the talon
        leads and ``must_overtake`` too) where it is built; this Python code is its fallback
        and, in the tests, its reference.
        """
        if (
            compiled
            and _compiled is not None
            and len(self.current) == (1 if self._talon_in_trick() else 0)
        ):
            return self._play_tricks_compiled(tricks)
        saved = (list(self.hands), len(self.tricks), dict(self.won), self.leader,
                 self.last_winner, list(self.current), self._seq, self._size)  # fmt: skip
        hands = self.hands
        order = self.order
        n = len(order)
        trump = self.trump
        tmask = SUIT_MASK[trump] if trump is not None else 0
        done = self.tricks
        won = self.won
        winners: list[int] = []
        # Who plays in what order, by who leads: built once, not per trick.
        rotations = {seat: order[i:] + order[:i] for i, seat in enumerate(order)}
        slow = self.must_overtake
        talon_tricks = len(self.talon_leads)
        for cards in tricks:
            if len(cards) != n:
                self._restore(saved)
                return None
            if slow or self.current or len(done) < talon_tricks:
                if self.play_trick(cards) >= 0:
                    self._restore(saved)
                    return None
                winners.append(self.last_winner)
                continue
            seq = rotations[self.leader]
            led = cards[0] >> 3
            lmask = SUIT_MASK[led]
            trick: list[tuple[int, int]] = []
            best, winner, best_trump = -1, -1, -1
            for k in range(n):
                seat = seq[k]
                card = cards[k]
                bit = 1 << card
                hand = hands[seat]
                suit = card >> 3
                # Follow suit; without it, trump; without trumps, anything.
                if not hand & bit or (
                    suit != led and (hand & lmask or (suit != trump and hand & tmask))
                ):
                    self._restore(saved)
                    return None
                hands[seat] = hand ^ bit
                trick.append((seat, card))
                if suit == trump:
                    if card > best_trump:
                        best_trump, winner = card, seat
                elif suit == led and best_trump < 0 and card > best:
                    best, winner = card, seat
            done.append(trick)
            won[winner] += 1
            self.leader = self.last_winner = winner
            winners.append(winner)
        self.current = []
        self._start_trick()
        return winners

    def _play_tricks_compiled(self, tricks: list[list[int]]) -> list[int] | None:
        owner = self.talon_owner
        done = self.tricks
        out = _compiled.play_tricks(
            self.hands,
            self.order,
            -1 if self.trump is None else self.trump,
            self.must_overtake,
            self.first_hand,
            self.leader,
            self.talon_leads,
            -1 if owner is None else owner,
            len(done),
            tricks,
            _SEAT_CARD,
        )
        if out is None:
            return None
        winners, played, hands, self.leader = out
        self.hands[:] = hands
        done.extend(played)
        won = self.won
        for winner in winners:
            won[winner] += 1
        if winners:
            self.last_winner = winners[-1]
        self.current = []
        self._start_trick()
        return winners

    def _restore(
        self,
        saved: tuple[
            list[int], int, dict[int, int], int, int, list[tuple[int, int]], list[int], int
        ],
    ) -> None:
        hands, tricks, won, leader, last_winner, current, seq, size = saved
        self.hands[:] = hands
        del self.tricks[tricks:]
        self.won = won
        self.leader, self.last_winner = leader, last_winner
        self.current, self._seq, self._size = current, seq, size

    def _talon_in_trick(self) -> bool:
        return self.talon_owner is not None and len(self.tricks) < len(self.talon_leads)

    def _winner(self) -> int:
        led = self.led_suit
        cards = self.current
        if self.trump is not None:
            trumps = [(c, s) for s, c in cards if c >> 3 == self.trump]
            if trumps:
                return max(trumps)[1]
        following = [(c, s) for s, c in cards if c >> 3 == led]
        if following:
            return max(following)[1]
        # 3-player all-pass: nobody had the talon's suit; the first hand's card leads.
        first = next(c for s, c in cards if s == self.first_hand)
        return max((c, s) for s, c in cards if c >> 3 == first >> 3)[1]


def suit_name(suit: int) -> Msg:
    return msg((N_("spade"), N_("club"), N_("diamond"), N_("heart"))[suit])
