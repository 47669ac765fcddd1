"""The fast double-dummy solver: every card seen, best play by both sides.

One alpha-beta search per position, over the three hands in play (with four players the
dealer sits out; on an all-pass his talon cards lead the first tricks).  What makes it fast:

- positions are kept in a table with a lower and an upper bound on the counted seat's tricks,
  so a narrower window reuses what a wider one found;
- each position is stored with its ranks compressed (a 9 is the same card as a 7 once the 8
  and the 7 are gone), so equal positions meet in the table whatever was played before;
- in compressed ranks, touching cards of one hand are one card: only the lowest of a run
  is tried;
- cards are tried in a sensible order (a cheap winner, a low card under a partner's winner,
  the highest loser on a misère), so the window closes early;
- quick tricks: the leader's top cards he can cash bound the value before any search;
- a misère is searched with null windows from below (does he take at least 1, 2, ...?): the
  answer is usually small, and each search leaves bounds in the table for the next.

:class:`~scorepad.play.solver.Solver` stays as the slow, simple reference the tests compare
against.

The search runs compiled where ``pip install`` found a C compiler (``_dds.c``, the same search
step for step, some thirty to a hundred times faster) and in pure Python otherwise
(:class:`PythonSearch`, the compiled one's reference in the tests).  :data:`CORE` says which
one runs; ``SCOREPAD_SOLVER=python`` in the environment makes it the Python one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Literal, Protocol

from .cards import SUIT_MASK
from .play import Play

Core = Literal["compiled", "python"]

try:
    from . import _dds as _compiled
except ImportError:  # built without a C compiler: the pure-Python search runs
    _compiled = None  # type: ignore[assignment]

#: The search that runs by default: ``"compiled"`` when the extension is built (and
#: ``SCOREPAD_SOLVER`` is not ``python``), else ``"python"``.
CORE: Core = (
    "compiled"
    if _compiled is not None and os.environ.get("SCOREPAD_SOLVER", "").lower() != "python"
    else "python"
)


class Search(Protocol):
    """What :class:`DoubleDummy` asks of a search (``_dds.Search`` and :class:`PythonSearch`)."""

    @property
    def nodes(self) -> int: ...

    def node(
        self, h0: int, h1: int, h2: int, leader: int, extra: int, alpha: int, beta: int, /
    ) -> int: ...

    def trick_from(
        self,
        h0: int,
        h1: int,
        h2: int,
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
        /,
    ) -> int: ...


#: A search's constructor: (trump, overtake, decl, more, first, talon, owned, total).
NewSearch = Callable[[int, bool, int, bool, int, tuple[int, ...], bool, int], Search]


def _search_of(core: Core) -> NewSearch:
    if core == "python":
        return PythonSearch
    if core != "compiled":
        raise ValueError(f"the solver's core is 'compiled' or 'python', not {core!r}")
    if _compiled is None:
        raise RuntimeError(
            "the compiled solver is not built: install with a C compiler (pip install -e .)"
        )
    return _compiled.Search


_BOTTOMS = 0x01010101  # the lowest bit of each suit's byte


def _pack_table(u: int) -> list[int]:
    """For a suit's remaining cards ``u`` (a byte): each subset packed to the low bits."""
    t = [0] * 256
    bits = [b for b in range(8) if u >> b & 1]
    sub = u
    while True:
        packed = 0
        for i, b in enumerate(bits):
            if sub >> b & 1:
                packed |= 1 << i
        t[sub] = packed
        if sub == 0:
            break
        sub = (sub - 1) & u
    return t


_T = [_pack_table(u) for u in range(256)]  # 3^8 entries: a few milliseconds at import


def _table(u: int) -> list[int]:
    return _T[u]


def _compress(masks: tuple[int, ...], union: int) -> list[int]:
    """The masks with each suit's ranks packed down over the cards still out (``union``)."""
    out = [0] * len(masks)
    for s in range(4):
        shift = 8 * s
        t = _table(union >> shift & 0xFF)
        for i, m in enumerate(masks):
            out[i] |= t[m >> shift & 0xFF] << shift
    return out


_LISTS: dict[int, list[int]] = {}


def _cards(mask: int) -> list[int]:
    """The cards of ``mask``, lowest first (kept: compressed hands repeat; never mutate it)."""
    found = _LISTS.get(mask)
    if found is None:
        found = _ascending(mask)
        if len(_LISTS) < 1 << 20:
            _LISTS[mask] = found
    return found


def _ascending(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class DoubleDummy:
    """The rest of one deal's play, searched double dummy.

    Built from a :class:`Play` for its fixed parts (who plays, trump, the talon leads);
    :meth:`value` and :meth:`card_values` then read any later state of the same deal and share
    one table of solved positions.  ``counted`` is the seat whose tricks are counted; ``more``
    says whether he wants more (a game) or fewer (a misère, an all-pass); the other two play
    against him together.  ``core`` picks the search: ``"compiled"`` or ``"python"`` (the
    default is :data:`CORE`).
    """

    def __init__(self, play: Play, counted: int, *, more: bool, core: Core | None = None) -> None:
        if len(play.order) != 3:
            raise ValueError("the double-dummy search is for the three hands in play")
        self.order = play.order
        self.more = more
        self.first = play.order.index(play.first_hand)
        self.talon = play.talon_leads
        # 4 players: the dealer's talon card is in the trick (a trick it wins is his).
        self.owned = play.talon_owner is not None
        rest = max(play.hands[s].bit_count() for s in play.order)
        self.total = play.trick_number + rest
        self.core: Core = CORE if core is None else core
        self.search = _search_of(self.core)(
            -1 if play.trump is None else play.trump,
            play.must_overtake,
            play.order.index(counted),
            more,
            self.first,
            self.talon,
            self.owned,
            self.total,
        )

    @property
    def nodes(self) -> int:
        """Positions searched so far (not found in the table)."""
        return self.search.nodes

    # --- the public questions ------------------------------------------------------------

    def value(self, play: Play) -> int:
        """The counted seat's tricks from the current trick on (the current trick included)."""
        hands, leader, played, extra, j = self._state(play)
        if not played:
            if self.more:
                return self.search.node(*hands, leader, extra, -1, self.total - j + 1)
            # A misère: null windows from below ("does he take at least g?"), few tricks being
            # the usual answer; the table keeps each search's bounds for the next.
            lo, hi = 0, self.total - j
            while lo < hi:
                g = lo + 1
                v = self.search.node(*hands, leader, extra, g - 1, g)
                if v >= g:
                    lo = v
                else:
                    hi = v
            return lo
        return self.search.trick_from(*hands, leader, played, extra, j)

    def card_values(self, play: Play) -> dict[int, int]:
        """For each card the player to play may play: the counted seat's tricks after it."""
        hands, leader, played, extra, j = self._state(play)
        pos = (leader + len(played)) % 3
        seat = self.order[pos]
        legal = play.legal(seat)
        out: dict[int, int] = {}
        for card in _ascending(legal):
            hs = list(hands)
            hs[pos] &= ~(1 << card)
            out[card] = self.search.trick_from(
                hs[0], hs[1], hs[2], leader, [*played, (pos, card)], extra, j
            )
        return out

    # --- state ----------------------------------------------------------------------------

    def _state(
        self, play: Play
    ) -> tuple[tuple[int, int, int], int, list[tuple[int, int]], int, int]:
        hands = (play.hands[self.order[0]], play.hands[self.order[1]], play.hands[self.order[2]])
        j = play.trick_number
        leader = self.order.index(play.leader)
        played = [(self.order.index(s), c) for s, c in play.current if s in self.order]
        extra = 0
        if self.owned:
            for c in self.talon[j:]:
                extra |= 1 << c
            if j < len(self.talon):  # this trick's talon card is already on the table
                extra &= ~(1 << self.talon[j])
        return hands, leader, played, extra, j


class PythonSearch:
    """The search in pure Python: the fallback where no compiler built ``_dds``, and the
    reference the tests hold the compiled search to.

    Built from a deal's fixed parts (the same arguments as the compiled ``_dds.Search``);
    :meth:`node` and :meth:`trick_from` search a position and keep what they find in one
    table for the next questions about the same deal.
    """

    def __init__(
        self,
        trump: int,
        overtake: bool,
        decl: int,
        more: bool,
        first: int,
        talon: tuple[int, ...],
        owned: bool,
        total: int,
    ) -> None:
        self.trump = trump
        self.overtake = overtake
        self.decl = decl
        self.more = more
        self.att = tuple((i == decl) == more for i in range(3))
        self.first = first
        self.talon = talon
        self.owned = owned
        self.total = total
        self.tt: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        # The card order inside a trick, by the cards to choose from and the trick so far.
        self.orders: dict[int, list[int]] = {}

    @property
    def positions(self) -> int:
        return len(self.tt)

    def node(
        self, h0: int, h1: int, h2: int, leader: int, extra: int, alpha: int, beta: int
    ) -> int:
        """A position between tricks: the counted seat's tricks (within the window)."""
        return self._node((h0, h1, h2), leader, extra, alpha, beta)

    def trick_from(
        self,
        h0: int,
        h1: int,
        h2: int,
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
    ) -> int:
        """A position in the middle of trick ``j`` (real card indexes), searched in full."""
        return self._trick_from((h0, h1, h2), leader, played, extra, j)

    def _trick_from(
        self,
        hands: tuple[int, int, int],
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
    ) -> int:
        """A position in the middle of trick ``j`` (real card indexes), searched in full."""
        union = hands[0] | hands[1] | hands[2] | extra
        pre = -1
        forced = -1
        if j < len(self.talon):
            if self.owned:
                pre = self.talon[j]
                union |= 1 << pre
            else:
                forced = self.talon[j] >> 3
        most = self.total - j
        if j < len(self.talon):  # the talon cards are real cards: no compressed ranks yet
            return self._card(hands, leader, played, extra, j, forced, pre, -1, most + 1)
        for _, c in played:
            union |= 1 << c
        c0, c1, c2, *rest = _compress((*hands, *(1 << c for _, c in played)), union)
        cplayed = [(pos, r.bit_length() - 1) for (pos, _), r in zip(played, rest, strict=True)]
        return self._card((c0, c1, c2), leader, cplayed, 0, j, -1, -1, -1, most + 1)

    # --- the search -----------------------------------------------------------------------

    def _node(
        self, hands: tuple[int, int, int], leader: int, extra: int, alpha: int, beta: int
    ) -> int:
        """A position between tricks (real or compressed ranks): the counted seat's tricks."""
        h0, h1, h2 = hands
        rem = max(h0.bit_count(), h1.bit_count(), h2.bit_count())
        if rem == 0:
            return 0
        j = self.total - rem
        if j >= len(self.talon):
            return self._plain(h0, h1, h2, leader, rem, alpha, beta)
        union = h0 | h1 | h2 | extra
        pre = -1
        forced = -1
        if j < len(self.talon):
            if self.owned:
                pre = self.talon[j]
                union |= 1 << pre
                extra &= ~(1 << pre)
            else:
                forced = self.talon[j] >> 3
        c0, c1, c2, cx, cp = _compress((h0, h1, h2, extra, (1 << pre) if pre >= 0 else 0), union)
        key = (c0, c1, c2, cx, cp, leader)
        talon_trick = j < len(self.talon)
        tt = self.tt
        found = tt.get(key)
        lo, hi = (0, rem) if found is None else found
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = max(alpha, lo)
        b = min(beta, hi)
        if self.more and not talon_trick:
            q = self._quick((c0, c1, c2), leader, c0 | c1 | c2, rem)
            if q:
                if self.att[leader]:
                    if q > lo:
                        lo = q
                        if lo >= b:
                            tt[key] = (lo, hi)
                            return lo
                        a = max(a, lo)
                elif rem - q < hi:  # the defence cashes its tops
                    hi = rem - q
                    if hi <= a:
                        tt[key] = (lo, hi)
                        return hi
                    b = min(b, hi)
        self.nodes += 1
        if talon_trick:  # searched in real ranks: the talon cards are real cards
            v = self._card(hands, leader, [], extra, j, forced, pre, a, b)
        else:
            v = self._card((c0, c1, c2), leader, [], 0, j, -1, -1, a, b)
        if v <= a:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = hi = v
        tt[key] = (lo, hi)
        return v

    def _plain(
        self, h0: int, h1: int, h2: int, leader: int, rem: int, alpha: int, beta: int
    ) -> int:
        """A position between tricks after the talon's: compressed, looked up, searched."""
        if rem == 1:  # the last trick plays itself (real ranks order cards as compressed do)
            return self._last(h0, h1, h2, leader)
        T = _T
        u = h0 | h1 | h2
        t0 = T[u & 255]
        t1 = T[u >> 8 & 255]
        t2 = T[u >> 16 & 255]
        t3 = T[u >> 24 & 255]
        c0 = (
            t0[h0 & 255]
            | t1[h0 >> 8 & 255] << 8
            | t2[h0 >> 16 & 255] << 16
            | t3[h0 >> 24 & 255] << 24
        )
        c1 = (
            t0[h1 & 255]
            | t1[h1 >> 8 & 255] << 8
            | t2[h1 >> 16 & 255] << 16
            | t3[h1 >> 24 & 255] << 24
        )
        c2 = (
            t0[h2 & 255]
            | t1[h2 >> 8 & 255] << 8
            | t2[h2 >> 16 & 255] << 16
            | t3[h2 >> 24 & 255] << 24
        )
        key = (c0, c1, c2, leader)
        tt = self.tt
        found = tt.get(key)
        lo, hi = (0, rem) if found is None else found
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        if self.more:
            q = self._quick((c0, c1, c2), leader, c0 | c1 | c2, rem)
            if q:
                if self.att[leader]:
                    if q > lo:
                        lo = q
                        if lo >= b:
                            tt[key] = (lo, hi)
                            return lo
                        if lo > a:
                            a = lo
                elif rem - q < hi:  # the defence cashes its tops
                    hi = rem - q
                    if hi <= a:
                        tt[key] = (lo, hi)
                        return hi
                    if hi < b:
                        b = hi
        self.nodes += 1
        v = self._trick3(c0, c1, c2, leader, a, b)
        if v <= a:
            if v < hi:
                hi = v
        elif v >= b:
            if v > lo:
                lo = v
        else:
            lo = hi = v
        tt[key] = (lo, hi)
        return v

    def _last(self, c0: int, c1: int, c2: int, leader: int) -> int:
        hs = (c0, c1, c2)
        best_pos, best = leader, hs[leader].bit_length() - 1
        trump = self.trump
        for k in (1, 2):
            pos = (leader + k) % 3
            c = hs[pos].bit_length() - 1
            if c >> 3 == best >> 3:
                if c > best:
                    best_pos, best = pos, c
            elif c >> 3 == trump:
                best_pos, best = pos, c
        return 1 if best_pos == self.decl else 0

    def _trick3(self, h0: int, h1: int, h2: int, leader: int, alpha: int, beta: int) -> int:
        """One whole trick from its lead, in compressed ranks: three nested choices."""
        hs = (h0, h1, h2)
        trump = self.trump
        tmask = SUIT_MASK[trump] if trump >= 0 else 0
        att = self.att
        decl = self.decl
        overtake = self.overtake
        order = self._order
        plain = self._plain
        p0 = leader
        p1 = (leader + 1) % 3
        p2 = (leader + 2) % 3
        x0, x1, x2 = hs[p0], hs[p1], hs[p2]
        m0, m1, m2 = att[p0], att[p1], att[p2]
        rem = x0.bit_count() - 1
        memo = self.orders
        r1 = (p1 == decl) << 38 | 1 << 40  # the seat to play and the card's place in the trick
        r2 = (p2 == decl) << 38 | 2 << 40
        k0 = x0 & ~((x0 << 1) & ~_BOTTOMS)
        cands0 = _cards(k0)
        if len(cands0) > 1:
            if self.more:
                cands0 = order(cands0, hs, p0, leader, 0, -1, -1, -1)
            elif p0 != decl:
                cands0 = self._misere_leads(k0, cands0, hs, p0)
        best0 = -1 if m0 else 99
        a0, b0 = alpha, beta
        for c0 in cands0:
            led = c0 >> 3
            smask = SUIT_MASK[led]
            y0 = x0 & ~(1 << c0)
            f = x1 & smask
            if f:
                legal = f
                if overtake:
                    legal = (f & ~((2 << c0) - 1)) or f
            elif x1 & tmask:
                legal = x1 & tmask
            else:
                legal = x1
            # Past the lead the order depends only on the choices and the trick so far: kept.
            k1 = legal & ~((legal << 1) & ~_BOTTOMS)
            key = k1 | (c0 + 1) << 32 | r1 | (p0 == decl) << 39
            cands1 = memo.get(key)
            if cands1 is None:
                cands1 = _cards(k1)
                if len(cands1) > 1:
                    cands1 = order(cands1, hs, p1, leader, 1, c0, p0, led)
                memo[key] = cands1
            best1 = -1 if m1 else 99
            a1, b1 = a0, b0
            for c1 in cands1:
                if c1 >> 3 == led:
                    w, wc = (p1, c1) if c1 > c0 else (p0, c0)
                elif c1 >> 3 == trump:
                    w, wc = p1, c1
                else:
                    w, wc = p0, c0
                y1 = x1 & ~(1 << c1)
                f = x2 & smask
                if f:
                    legal = f
                    if overtake and wc >> 3 == led:
                        legal = (f & ~((2 << wc) - 1)) or f
                elif x2 & tmask:
                    legal = x2 & tmask
                    if overtake and wc >> 3 == trump:
                        legal = (legal & ~((2 << wc) - 1)) or legal
                else:
                    legal = x2
                k2 = legal & ~((legal << 1) & ~_BOTTOMS)
                key = k2 | (wc + 1) << 32 | r2 | (w == decl) << 39
                cands2 = memo.get(key)
                if cands2 is None:
                    cands2 = _cards(k2)
                    if len(cands2) > 1:
                        cands2 = order(cands2, hs, p2, leader, 2, wc, w, led)
                    memo[key] = cands2
                best2 = -1 if m2 else 99
                a2, b2 = a1, b1
                for c2 in cands2:
                    if c2 >> 3 == wc >> 3:
                        win = p2 if c2 > wc else w
                    elif c2 >> 3 == trump:
                        win = p2
                    else:
                        win = w
                    y2 = x2 & ~(1 << c2)
                    gain = 1 if win == decl else 0
                    if rem:
                        if p0 == 0:
                            v = gain + plain(y0, y1, y2, win, rem, a2 - gain, b2 - gain)
                        elif p0 == 1:
                            v = gain + plain(y2, y0, y1, win, rem, a2 - gain, b2 - gain)
                        else:
                            v = gain + plain(y1, y2, y0, win, rem, a2 - gain, b2 - gain)
                    else:
                        v = gain
                    if m2:
                        if v > best2:
                            best2 = v
                            if v > a2:
                                a2 = v
                                if a2 >= b2:
                                    break
                    elif v < best2:
                        best2 = v
                        if v < b2:
                            b2 = v
                            if a2 >= b2:
                                break
                v = best2
                if m1:
                    if v > best1:
                        best1 = v
                        if v > a1:
                            a1 = v
                            if a1 >= b1:
                                break
                elif v < best1:
                    best1 = v
                    if v < b1:
                        b1 = v
                        if a1 >= b1:
                            break
            v = best1
            if m0:
                if v > best0:
                    best0 = v
                    if v > a0:
                        a0 = v
                        if a0 >= b0:
                            break
            elif v < best0:
                best0 = v
                if v < b0:
                    b0 = v
                    if a0 >= b0:
                        break
        return best0

    def _misere_leads(
        self, k0: int, cands0: list[int], hs: tuple[int, int, int], p0: int
    ) -> list[int]:
        """A defender's leads against a misère, ordered once per pattern: the order depends only
        on the lead's choices and the suits the declarer still holds (kept in ``orders``)."""
        dh = hs[self.decl]
        key = (
            k0
            | (
                (dh & 0xFF != 0)
                | (dh & 0xFF00 != 0) << 1
                | (dh & 0xFF0000 != 0) << 2
                | (dh & 0xFF000000 != 0) << 3
            )
            << 32
        )
        found = self.orders.get(key)
        if found is None:
            found = self.orders[key] = self._order(cands0, hs, p0, p0, 0, -1, -1, -1)
        return found

    def _quick(self, hands: tuple[int, int, int], leader: int, union: int, rem: int) -> int:
        """Tricks the leader's side cashes from the top, whatever the others do."""
        own = hands[leader]
        opp_trumps = 0
        trump = self.trump
        # Anyone else void with a trump must ruff, the partner too (and then he leads).
        opps = [hands[i] for i in range(3) if i != leader]
        if trump >= 0:
            for h in opps:
                if h & SUIT_MASK[trump]:
                    opp_trumps = 1
        total = 0
        best_side = 0
        for s in range(4):
            shift = 8 * s
            n = (union >> shift & 0xFF).bit_count()
            if not n:
                continue
            mine = own >> shift & 0xFF
            top = 0
            bit = n - 1
            while bit >= 0 and mine >> bit & 1:
                top += 1
                bit -= 1
            if not top:
                continue
            if s == trump or not opp_trumps:
                total += top
            else:
                cap = top
                for h in opps:
                    if h & SUIT_MASK[trump]:
                        cap = min(cap, (h >> shift & 0xFF).bit_count())
                best_side = max(best_side, cap)
        return min(rem, total + best_side)

    def _card(
        self,
        hands: tuple[int, int, int],
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
        forced: int,
        pre: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Inside a trick, in compressed ranks: the next player chooses a card."""
        k = len(played)
        if k == 3:
            return self._end(hands, leader, played, extra, j, forced, pre, alpha, beta)
        pos = (leader + k) % 3
        hand = hands[pos]
        # The suit to follow: the talon's, the talon card's, or the first card's.
        led = (
            forced if forced >= 0 else (pre >> 3 if pre >= 0 else (played[0][1] >> 3 if k else -1))
        )
        legal = hand
        trump = self.trump
        best_card = pre  # the card winning so far
        best_pos = -1
        for p, c in played:
            if best_card < 0:
                best_card, best_pos = c, p
            elif c >> 3 == best_card >> 3:
                if c > best_card:
                    best_card, best_pos = c, p
            elif c >> 3 == trump or (best_card >> 3 not in (led, trump) and c >> 3 == led):
                best_card, best_pos = c, p
        if led >= 0:
            follow = hand & SUIT_MASK[led]
            if follow:
                legal = follow
                if self.overtake and best_card >= 0 and best_card >> 3 == led:
                    legal = (follow & ~((2 << best_card) - 1)) or follow
            elif trump >= 0 and hand & SUIT_MASK[trump]:
                legal = hand & SUIT_MASK[trump]
                if self.overtake and best_card >= 0 and best_card >> 3 == trump:
                    legal = (legal & ~((2 << best_card) - 1)) or legal
        cands = _ascending(legal & ~((legal << 1) & ~_BOTTOMS))
        if len(cands) > 1:
            cands = self._order(cands, hands, pos, leader, k, best_card, best_pos, led)
        maximize = self.att[pos]
        best = -1 if maximize else 99
        for card in cands:
            hs = (
                (hands[0] & ~(1 << card), hands[1], hands[2])
                if pos == 0
                else (hands[0], hands[1] & ~(1 << card), hands[2])
                if pos == 1
                else (hands[0], hands[1], hands[2] & ~(1 << card))
            )
            v = self._card(hs, leader, [*played, (pos, card)], extra, j, forced, pre, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def _order(
        self,
        cands: list[int],
        hands: tuple[int, int, int],
        pos: int,
        leader: int,
        k: int,
        best_card: int,
        best_pos: int,
        led: int,
    ) -> list[int]:
        """The candidates, the likeliest best first."""
        trump = self.trump
        decl = self.decl
        if k == 0 and best_card < 0:
            if self.more:
                # Lead a top card first (it wins), then low cards.
                union = hands[0] | hands[1] | hands[2]
                tops = []
                rest = []
                for c in cands:
                    above = union >> (c + 1) & ((0xFF >> ((c & 7) + 1)) if (c & 7) < 7 else 0)
                    if not above & ~hands[pos]:
                        tops.append(c)
                    else:
                        rest.append(c)
                return tops + rest
            if pos != decl:
                # Misère, the defence leads: first into the suits the declarer still holds.
                dh = hands[decl]
                into = [c for c in cands if dh & SUIT_MASK[c >> 3]]
                if into and len(into) < len(cands):
                    return into + [c for c in cands if not dh & SUIT_MASK[c >> 3]]
            return cands
        if best_card < 0:
            return cands

        def beats(c: int) -> bool:
            if c >> 3 == best_card >> 3:
                return c > best_card
            return c >> 3 == trump

        if self.more:
            side = self.att[pos]
            partner_wins = best_pos >= 0 and self.att[best_pos] == side
            if partner_wins and k == 2:
                return cands
            win = [c for c in cands if beats(c)]
            if not win:
                return cands
            return win + [c for c in cands if not beats(c)]
        # Misère and all-pass: the counted seat ducks with his highest loser; the others
        # keep low cards while he may still have to win.
        if pos == decl:
            lose = [c for c in cands if not beats(c)]
            if not lose and k == 2:
                return cands[::-1]  # he must take it: with his highest card, the danger gone
            lose.reverse()
            return lose + [c for c in cands if beats(c)]
        if best_pos == decl:
            lose = [c for c in cands if not beats(c)]
            lose.reverse()
            return lose + [c for c in cands if beats(c)]
        return cands

    def _end(
        self,
        hands: tuple[int, int, int],
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
        forced: int,
        pre: int,
        alpha: int,
        beta: int,
    ) -> int:
        """A complete trick: who takes it, and the rest from the next lead."""
        trump = self.trump
        cards = [c for _, c in played]
        if pre >= 0:
            led = pre >> 3
        elif forced >= 0:
            led = forced
        else:
            led = cards[0] >> 3
        winner = -1  # the talon card's owner (4 players)
        best = pre if pre >= 0 else -1
        suit = led
        if trump >= 0 and any(c >> 3 == trump for c in cards):
            suit = trump
            best = -1
            winner = -2
        elif pre < 0 and not any(c >> 3 == led for c in cards):
            # 3-player all-pass: nobody had the talon's suit; the first hand's card leads.
            suit = cards[0] >> 3
        for p, c in played:
            if c >> 3 == suit and c > best:
                best, winner = c, p
        gain = 1 if winner == self.decl else 0
        # After a talon trick the first hand leads again, whoever took it.
        nxt = winner if winner >= 0 and j + 1 > len(self.talon) else self.first
        return gain + self._node(hands, nxt, extra, alpha - gain, beta - gain)


def solve(play: Play, counted: int, *, more: bool) -> int:
    """The counted seat's tricks in the rest of the play, with best play by everyone."""
    return DoubleDummy(play, counted, more=more).value(play)
