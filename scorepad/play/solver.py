"""Exhaustive search of the remaining play (double dummy): the simple reference solver.

The audit uses the fast solver (:mod:`scorepad.play.dds`); this one stays as the reference the
tests compare it with, simple enough to trust.

Used to verify claims ("I take the rest", "N of the rest") and to check a disputed misère
("he could have been caught").  Every card is seen; the declarer plays against the defenders
together.  The search asks "can the attacking side force at least k tricks?" with a table of
positions already decided, and tries only one card of a run of equivalent cards (cards of a
suit with no outstanding card between them win and lose the same tricks).
"""

from __future__ import annotations

from .cards import SUIT_MASK
from .play import Play


def _suit_of(card: int) -> int:
    return card >> 3


class Solver:
    """The position of a :class:`~scorepad.play.play.Play` between tricks, searched exhaustively.

    ``counted`` is the seat whose tricks are counted (the declarer); ``more`` says whether he
    wants more (a game) or fewer (a misère).
    """

    def __init__(self, play: Play, counted: int, *, more: bool) -> None:
        if (
            play.current
            or play.talon_owner is not None
            or play.trick_number < len(play.talon_leads)
        ):
            raise ValueError("a claim is searched from the start of a trick, after any talon leads")
        self.order = play.order
        self.n = len(play.order)
        self.trump = play.trump
        self.overtake = play.must_overtake
        self.decl = play.order.index(counted)
        self.more = more
        self.start = (tuple(play.hands[s] for s in play.order), play.order.index(play.leader))
        self.memo: dict[tuple[tuple[int, ...], int, int], bool] = {}

    @property
    def remaining(self) -> int:
        return self.start[0][0].bit_count()

    def value(self) -> int:
        """The counted seat's tricks from here on, with best play by both sides."""
        hands, leader = self.start
        total = self.remaining
        # The attacker (who wants the counted seat to take tricks) forces at least k: find the largest k.
        k = 0
        while k < total and self._can(hands, leader, k + 1):
            k += 1
        return k

    def _attacker(self, pos: int) -> bool:
        """Whether the player at ``pos`` wants the counted seat to take tricks."""
        return (pos == self.decl) == self.more

    def _can(self, hands: tuple[int, ...], leader: int, k: int) -> bool:
        if k <= 0:
            return True
        if k > hands[0].bit_count():
            return False
        key = (hands, leader, k)
        found = self.memo.get(key)
        if found is None:
            found = self._trick(hands, leader, (), k)
            self.memo[key] = found
        return found

    def _trick(self, hands: tuple[int, ...], leader: int, played: tuple[int, ...], k: int) -> bool:
        n = self.n
        if len(played) == n:
            winner = (leader + self._winning(played)) % n
            return self._can(hands, winner, k - (winner == self.decl))
        pos = (leader + len(played)) % n
        hand = hands[pos]
        cards = self._candidates(hands, pos, self._legal(hand, played), played)
        attacker = self._attacker(pos)
        for card in cards:
            nxt = (*hands[:pos], hand & ~(1 << card), *hands[pos + 1 :])
            ok = self._trick(nxt, leader, (*played, card), k)
            if ok == attacker:
                return ok  # the attacker found a way, or the defence found a refutation
        return not attacker

    def _legal(self, hand: int, played: tuple[int, ...]) -> int:
        if not played:
            return hand
        led = _suit_of(played[0])
        follow = hand & SUIT_MASK[led]
        trumped = (
            self.trump is not None
            and led != self.trump
            and any(_suit_of(c) == self.trump for c in played)
        )
        if follow:
            if self.overtake and not trumped:
                best = max(c for c in played if _suit_of(c) == led)
                return (follow & ~((1 << (best + 1)) - 1)) or follow
            return follow
        if self.trump is not None:
            trumps = hand & SUIT_MASK[self.trump]
            if trumps:
                if self.overtake and trumped:
                    best = max(c for c in played if _suit_of(c) == self.trump)
                    return (trumps & ~((1 << (best + 1)) - 1)) or trumps
                return trumps
        return hand

    def _winning(self, played: tuple[int, ...]) -> int:
        led = _suit_of(played[0])
        best, at = -1, 0
        trump = self.trump
        has_trump = trump is not None and any(_suit_of(c) == trump for c in played)
        suit = trump if has_trump else led
        for i, c in enumerate(played):
            if _suit_of(c) == suit and c > best:
                best, at = c, i
        return at

    def _candidates(
        self, hands: tuple[int, ...], pos: int, legal: int, played: tuple[int, ...]
    ) -> list[int]:
        """One card of each run of equivalent cards, lowest first."""
        others = 0
        for i, h in enumerate(hands):
            if i != pos:
                others |= h
        for c in played:
            others |= 1 << c
        out: list[int] = []
        prev = -1
        mask = legal
        while mask:
            low = mask & -mask
            card = low.bit_length() - 1
            mask ^= low
            if prev >= 0 and card >> 3 == prev >> 3:
                between = ((1 << card) - 1) & ~((1 << (prev + 1)) - 1)
                if not others & between:
                    prev = card
                    continue
            out.append(card)
            prev = card
        return out


def best_tricks(play: Play, counted: int, *, more: bool) -> int:
    """The counted seat's tricks in the rest of the play, with best play by everyone."""
    return Solver(play, counted, more=more).value()
