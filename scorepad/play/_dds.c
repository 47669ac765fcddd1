/* The double-dummy search of scorepad/play/dds.py, compiled.
 *
 * The same search as the pure-Python one (dds.PythonSearch), step for step: the positions
 * between tricks are kept in a table with a lower and an upper bound, in compressed ranks;
 * touching cards of one hand are one card; the cards are tried in the same order; quick tricks
 * bound a game's positions; the talon tricks of an all-pass are searched in real ranks.  The
 * Python one stays the reference: the tests compare the two on every test deal and on random
 * deals.  The only differences are of speed: a hash table of plain C structs instead of a
 * dict of tuples, the candidate order computed by bit masks instead of kept in a dict.
 *
 * A card is suit * 8 + rank (7 is rank 0, the ace 7), a hand a 32-bit mask; the three hands in
 * play are indexed 0-2 in playing order.  The Python side (dds.DoubleDummy) reads the state of
 * a Play and calls Search.node (between tricks) or Search.trick_from (inside a trick).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;

static const u32 SUIT[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};
#define BOTTOMS 0x01010101u /* the lowest bit of each suit's byte */
#define MAX_TALON 8

/* PACK[u][m]: the cards m of one suit packed down over the suit's cards still out (u). */
static uint8_t PACK[256][256];

static void init_pack(void) {
    for (int u = 0; u < 256; u++) {
        for (int m = 0; m < 256; m++) {
            int packed = 0, i = 0;
            for (int b = 0; b < 8; b++) {
                if (u >> b & 1) {
                    if (m >> b & 1) packed |= 1 << i;
                    i++;
                }
            }
            PACK[u][m] = (uint8_t)packed;
        }
    }
}

static inline u32 compress(u32 m, u32 u) {
    return (u32)PACK[u & 255][m & 255] | (u32)PACK[u >> 8 & 255][m >> 8 & 255] << 8 |
           (u32)PACK[u >> 16 & 255][m >> 16 & 255] << 16 |
           (u32)PACK[u >> 24 & 255][m >> 24 & 255] << 24;
}

static inline int popcount(u32 x) { return __builtin_popcount(x); }
static inline int lowest(u32 x) { return __builtin_ctz(x); }
static inline int highest(u32 x) { return 31 - __builtin_clz(x); }
/* The cards of a suit above ``card`` (card's bit and below cleared; 2 << 31 needs 64 bits). */
static inline u32 above(u32 mask, int card) { return mask & ~(u32)((2ull << card) - 1); }
/* Only the lowest card of each run of touching cards. */
static inline u32 runs(u32 legal) { return legal & ~((legal << 1) & ~BOTTOMS); }

/* --- the table of solved positions ----------------------------------------------------- */

typedef struct {
    u64 a, b, c; /* the key: (c0, c1), (c2, extra), (the talon card, leader, talon trick) */
    int8_t lo, hi;
    uint8_t used;
} Entry;

typedef struct {
    PyObject_HEAD
    int trump; /* -1: no trump */
    int overtake;
    int decl;
    int more;
    int att[3]; /* whether the hand wants the counted seat to take tricks */
    int first;
    int owned; /* 4 players: the dealer's talon cards lead the first tricks */
    int total;
    int ntalon;
    int talon[MAX_TALON];
    Entry *tt;
    size_t cap, count;
    int bits;
    int full; /* the table could not grow: positions are no longer stored */
    long long nodes;
} Search;

static inline size_t slot_of(const Search *S, u64 a, u64 b, u64 c) {
    u64 h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full ^
            (c + 0x85EBCA77C2B2AE63ull) * 0x165667B19E3779F9ull;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    return (size_t)(h >> (64 - S->bits));
}

static Entry *tt_find(const Search *S, u64 a, u64 b, u64 c) {
    size_t mask = S->cap - 1;
    for (size_t i = slot_of(S, a, b, c);; i = (i + 1) & mask) {
        Entry *e = &S->tt[i];
        if (!e->used) return NULL;
        if (e->a == a && e->b == b && e->c == c) return e;
    }
}

static int tt_grow(Search *S) {
    size_t cap = S->cap * 2;
    Entry *fresh = calloc(cap, sizeof(Entry));
    if (fresh == NULL) return -1;
    Entry *old = S->tt;
    size_t old_cap = S->cap;
    S->tt = fresh;
    S->cap = cap;
    S->bits++;
    for (size_t k = 0; k < old_cap; k++) {
        if (!old[k].used) continue;
        for (size_t i = slot_of(S, old[k].a, old[k].b, old[k].c);; i = (i + 1) & (cap - 1)) {
            if (!fresh[i].used) {
                fresh[i] = old[k];
                break;
            }
        }
    }
    free(old);
    return 0;
}

static void tt_put(Search *S, u64 a, u64 b, u64 c, int lo, int hi) {
    size_t mask = S->cap - 1;
    size_t i = slot_of(S, a, b, c);
    for (;; i = (i + 1) & mask) {
        Entry *e = &S->tt[i];
        if (!e->used) break;
        if (e->a == a && e->b == b && e->c == c) {
            e->lo = (int8_t)lo;
            e->hi = (int8_t)hi;
            return;
        }
    }
    if (S->full) return;
    if ((S->count + 1) * 2 > S->cap) {
        if (tt_grow(S) < 0) {
            /* Out of memory: keep searching without storing (slower, still right). */
            S->full = 1;
            return;
        }
        mask = S->cap - 1;
        for (i = slot_of(S, a, b, c); S->tt[i].used; i = (i + 1) & mask) {
        }
    }
    Entry *e = &S->tt[i];
    e->a = a;
    e->b = b;
    e->c = c;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->used = 1;
    S->count++;
}

/* --- the search ------------------------------------------------------------------------ */

static int node(Search *S, u32 h0, u32 h1, u32 h2, int leader, u32 extra, int alpha, int beta);
static int card(Search *S, const u32 hs[3], int leader, int *pp, int *pc, int k, u32 extra, int j,
                int forced, int pre, int alpha, int beta);

/* The candidates ``cm`` (a mask), the likeliest best first, into ``out``; returns how many. */
static int order(const Search *S, int *out, u32 cm, const u32 hs[3], int pos, int k,
                 int best_card, int best_pos) {
    int n = 0;
    u32 m;
#define ASC(mask)                                                                              \
    for (m = (mask); m; m &= m - 1) out[n++] = lowest(m)
#define DESC(mask)                                                                             \
    for (m = (mask); m; m &= ~(1u << highest(m))) out[n++] = highest(m)
    if (k == 0 && best_card < 0) {
        if (S->more) {
            /* Lead a top card first (it wins), then low cards. */
            u32 others = (hs[0] | hs[1] | hs[2]) & ~hs[pos];
            u32 tops = 0;
            for (m = cm; m; m &= m - 1) {
                int c = lowest(m);
                if (!(above(others & SUIT[c >> 3], c))) tops |= 1u << c;
            }
            ASC(tops);
            ASC(cm & ~tops);
            return n;
        }
        if (pos != S->decl) {
            /* Misère, the defence leads: first into the suits the declarer still holds. */
            u32 dh = hs[S->decl], into_suits = 0;
            for (int s = 0; s < 4; s++)
                if (dh & SUIT[s]) into_suits |= SUIT[s];
            u32 into = cm & into_suits;
            if (into && into != cm) {
                ASC(into);
                ASC(cm & ~into);
                return n;
            }
        }
        ASC(cm);
        return n;
    }
    if (best_card < 0) {
        ASC(cm);
        return n;
    }
    int bs = best_card >> 3;
    u32 beats = above(SUIT[bs], best_card);
    if (S->trump >= 0 && S->trump != bs) beats |= SUIT[S->trump];
    if (S->more) {
        int side = S->att[pos];
        int partner_wins = best_pos >= 0 && S->att[best_pos] == side;
        if ((partner_wins && k == 2) || !(cm & beats)) {
            ASC(cm);
            return n;
        }
        ASC(cm & beats);
        ASC(cm & ~beats);
        return n;
    }
    /* Misère and all-pass: the counted seat ducks with his highest loser; the others keep
       low cards while he may still have to win. */
    if (pos == S->decl) {
        u32 lose = cm & ~beats;
        if (!lose && k == 2) {
            DESC(cm); /* he must take it: with his highest card, the danger gone */
            return n;
        }
        DESC(lose);
        ASC(cm & beats);
        return n;
    }
    if (best_pos == S->decl) {
        DESC(cm & ~beats);
        ASC(cm & beats);
        return n;
    }
    ASC(cm);
    return n;
#undef ASC
#undef DESC
}

/* Tricks the leader's side cashes from the top, whatever the others do (compressed ranks). */
static int quick(const Search *S, const u32 hs[3], int leader, u32 u, int rem) {
    u32 own = hs[leader];
    u32 o1 = hs[(leader + 1) % 3], o2 = hs[(leader + 2) % 3];
    int trump = S->trump;
    u32 tmask = trump >= 0 ? SUIT[trump] : 0;
    int opp_trumps = ((o1 | o2) & tmask) != 0;
    int total = 0, best_side = 0;
    for (int s = 0; s < 4; s++) {
        int shift = 8 * s;
        int n = popcount(u >> shift & 0xFF);
        if (!n) continue;
        u32 mine = own >> shift & 0xFF;
        int top = 0;
        for (int bit = n - 1; bit >= 0 && (mine >> bit & 1); bit--) top++;
        if (!top) continue;
        if (s == trump || !opp_trumps) {
            total += top;
        } else {
            int cap = top;
            if (o1 & tmask) {
                int c = popcount(o1 >> shift & 0xFF);
                if (c < cap) cap = c;
            }
            if (o2 & tmask) {
                int c = popcount(o2 >> shift & 0xFF);
                if (c < cap) cap = c;
            }
            if (cap > best_side) best_side = cap;
        }
    }
    total += best_side;
    return total < rem ? total : rem;
}

/* The last trick plays itself. */
static int last(const Search *S, u32 c0, u32 c1, u32 c2, int leader) {
    u32 hs[3] = {c0, c1, c2};
    int best_pos = leader, best = highest(hs[leader]);
    for (int k = 1; k <= 2; k++) {
        int pos = (leader + k) % 3;
        int c = highest(hs[pos]);
        if (c >> 3 == best >> 3) {
            if (c > best) {
                best_pos = pos;
                best = c;
            }
        } else if (c >> 3 == S->trump) {
            best_pos = pos;
            best = c;
        }
    }
    return best_pos == S->decl;
}

static int trick3(Search *S, u32 h0, u32 h1, u32 h2, int leader, int alpha, int beta);

/* A position between tricks after the talon's: compressed, looked up, searched. */
static int plain(Search *S, u32 h0, u32 h1, u32 h2, int leader, int rem, int alpha, int beta) {
    if (rem == 1) return last(S, h0, h1, h2, leader);
    u32 u = h0 | h1 | h2;
    u32 c[3] = {compress(h0, u), compress(h1, u), compress(h2, u)};
    u64 ka = (u64)c[0] | (u64)c[1] << 32, kb = c[2], kc = (u64)leader << 32;
    Entry *e = tt_find(S, ka, kb, kc);
    int lo = 0, hi = rem;
    if (e != NULL) {
        lo = e->lo;
        hi = e->hi;
    }
    if (lo >= beta || lo == hi) return lo;
    if (hi <= alpha) return hi;
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    if (S->more) {
        int q = quick(S, c, leader, c[0] | c[1] | c[2], rem);
        if (q) {
            if (S->att[leader]) {
                if (q > lo) {
                    lo = q;
                    if (lo >= b) {
                        tt_put(S, ka, kb, kc, lo, hi);
                        return lo;
                    }
                    if (lo > a) a = lo;
                }
            } else if (rem - q < hi) { /* the defence cashes its tops */
                hi = rem - q;
                if (hi <= a) {
                    tt_put(S, ka, kb, kc, lo, hi);
                    return hi;
                }
                if (hi < b) b = hi;
            }
        }
    }
    S->nodes++;
    int v = trick3(S, c[0], c[1], c[2], leader, a, b);
    if (v <= a) {
        if (v < hi) hi = v;
    } else if (v >= b) {
        if (v > lo) lo = v;
    } else {
        lo = hi = v;
    }
    tt_put(S, ka, kb, kc, lo, hi);
    return v;
}

/* The legal cards of ``hand`` after the trick's winning card so far (``wc``), led suit ``led``. */
static inline u32 legal_after(const Search *S, u32 hand, u32 smask, int led, int wc) {
    u32 f = hand & smask;
    u32 tmask = S->trump >= 0 ? SUIT[S->trump] : 0;
    if (f) {
        if (S->overtake && wc >> 3 == led) {
            u32 t = above(f, wc);
            return t ? t : f;
        }
        return f;
    }
    if (hand & tmask) {
        u32 t = hand & tmask;
        if (S->overtake && wc >> 3 == S->trump) {
            u32 o = above(t, wc);
            return o ? o : t;
        }
        return t;
    }
    return hand;
}

/* One whole trick from its lead, in compressed ranks: three nested choices. */
static int trick3(Search *S, u32 h0, u32 h1, u32 h2, int leader, int alpha, int beta) {
    const u32 hs[3] = {h0, h1, h2};
    const int trump = S->trump, decl = S->decl;
    const int p0 = leader, p1 = (leader + 1) % 3, p2 = (leader + 2) % 3;
    const u32 x0 = hs[p0], x1 = hs[p1], x2 = hs[p2];
    const int m0 = S->att[p0], m1 = S->att[p1], m2 = S->att[p2];
    const int rem = popcount(x0) - 1;
    int cands0[10], cands1[10], cands2[10];
    int n0 = order(S, cands0, runs(x0), hs, p0, 0, -1, -1);
    int best0 = m0 ? -1 : 99;
    int a0 = alpha, b0 = beta;
    for (int i0 = 0; i0 < n0; i0++) {
        const int c0 = cands0[i0];
        const int led = c0 >> 3;
        const u32 smask = SUIT[led];
        const u32 y0 = x0 & ~(1u << c0);
        u32 legal = legal_after(S, x1, smask, led, c0);
        int n1 = order(S, cands1, runs(legal), hs, p1, 1, c0, p0);
        int best1 = m1 ? -1 : 99;
        int a1 = a0, b1 = b0;
        for (int i1 = 0; i1 < n1; i1++) {
            const int c1 = cands1[i1];
            int w, wc;
            if (c1 >> 3 == led) {
                if (c1 > c0) {
                    w = p1;
                    wc = c1;
                } else {
                    w = p0;
                    wc = c0;
                }
            } else if (c1 >> 3 == trump) {
                w = p1;
                wc = c1;
            } else {
                w = p0;
                wc = c0;
            }
            const u32 y1 = x1 & ~(1u << c1);
            legal = legal_after(S, x2, smask, led, wc);
            int n2 = order(S, cands2, runs(legal), hs, p2, 2, wc, w);
            int best2 = m2 ? -1 : 99;
            int a2 = a1, b2 = b1;
            for (int i2 = 0; i2 < n2; i2++) {
                const int c2 = cands2[i2];
                int win;
                if (c2 >> 3 == wc >> 3)
                    win = c2 > wc ? p2 : w;
                else if (c2 >> 3 == trump)
                    win = p2;
                else
                    win = w;
                const u32 y2 = x2 & ~(1u << c2);
                const int gain = win == decl;
                int v;
                if (rem) {
                    u32 nh[3];
                    nh[p0] = y0;
                    nh[p1] = y1;
                    nh[p2] = y2;
                    v = gain + plain(S, nh[0], nh[1], nh[2], win, rem, a2 - gain, b2 - gain);
                } else {
                    v = gain;
                }
                if (m2) {
                    if (v > best2) {
                        best2 = v;
                        if (v > a2) {
                            a2 = v;
                            if (a2 >= b2) break;
                        }
                    }
                } else if (v < best2) {
                    best2 = v;
                    if (v < b2) {
                        b2 = v;
                        if (a2 >= b2) break;
                    }
                }
            }
            int v = best2;
            if (m1) {
                if (v > best1) {
                    best1 = v;
                    if (v > a1) {
                        a1 = v;
                        if (a1 >= b1) break;
                    }
                }
            } else if (v < best1) {
                best1 = v;
                if (v < b1) {
                    b1 = v;
                    if (a1 >= b1) break;
                }
            }
        }
        int v = best1;
        if (m0) {
            if (v > best0) {
                best0 = v;
                if (v > a0) {
                    a0 = v;
                    if (a0 >= b0) break;
                }
            }
        } else if (v < best0) {
            best0 = v;
            if (v < b0) {
                b0 = v;
                if (a0 >= b0) break;
            }
        }
    }
    return best0;
}

/* A complete trick (inside a talon trick or from a middle-of-trick start): who takes it, and
   the rest from the next lead. */
static int end(Search *S, const u32 hs[3], int *pp, int *pc, u32 extra, int j, int forced,
               int pre, int alpha, int beta) {
    const int trump = S->trump;
    int led;
    if (pre >= 0)
        led = pre >> 3;
    else if (forced >= 0)
        led = forced;
    else
        led = pc[0] >> 3;
    int winner = -1; /* the talon card's owner (4 players) */
    int best = pre >= 0 ? pre : -1;
    int suit = led;
    int trumped = 0, followed = 0;
    for (int i = 0; i < 3; i++) {
        if (trump >= 0 && pc[i] >> 3 == trump) trumped = 1;
        if (pc[i] >> 3 == led) followed = 1;
    }
    if (trumped) {
        suit = trump;
        best = -1;
        winner = -2;
    } else if (pre < 0 && !followed) {
        /* 3-player all-pass: nobody had the talon's suit; the first hand's card leads. */
        suit = pc[0] >> 3;
    }
    for (int i = 0; i < 3; i++) {
        if (pc[i] >> 3 == suit && pc[i] > best) {
            best = pc[i];
            winner = pp[i];
        }
    }
    int gain = winner == S->decl;
    /* After a talon trick the first hand leads again, whoever took it. */
    int nxt = (winner >= 0 && j + 1 > S->ntalon) ? winner : S->first;
    return gain + node(S, hs[0], hs[1], hs[2], nxt, extra, alpha - gain, beta - gain);
}

/* Inside a trick: the next player chooses a card (played so far: pp seats, pc cards). */
static int card(Search *S, const u32 hs[3], int leader, int *pp, int *pc, int k, u32 extra, int j,
                int forced, int pre, int alpha, int beta) {
    if (k == 3) return end(S, hs, pp, pc, extra, j, forced, pre, alpha, beta);
    const int pos = (leader + k) % 3;
    const u32 hand = hs[pos];
    const int trump = S->trump;
    /* The suit to follow: the talon's, the talon card's, or the first card's. */
    int led = forced >= 0 ? forced : (pre >= 0 ? pre >> 3 : (k ? pc[0] >> 3 : -1));
    u32 legal = hand;
    int best_card = pre, best_pos = -1; /* the card winning so far */
    for (int i = 0; i < k; i++) {
        int p = pp[i], c = pc[i];
        if (best_card < 0) {
            best_card = c;
            best_pos = p;
        } else if (c >> 3 == best_card >> 3) {
            if (c > best_card) {
                best_card = c;
                best_pos = p;
            }
        } else if (c >> 3 == trump ||
                   (best_card >> 3 != led && best_card >> 3 != trump && c >> 3 == led)) {
            best_card = c;
            best_pos = p;
        }
    }
    if (led >= 0) {
        u32 follow = hand & SUIT[led];
        if (follow) {
            legal = follow;
            if (S->overtake && best_card >= 0 && best_card >> 3 == led) {
                u32 t = above(follow, best_card);
                legal = t ? t : follow;
            }
        } else if (trump >= 0 && (hand & SUIT[trump])) {
            legal = hand & SUIT[trump];
            if (S->overtake && best_card >= 0 && best_card >> 3 == trump) {
                u32 t = above(legal, best_card);
                legal = t ? t : legal;
            }
        }
    }
    int cands[10];
    u32 cm = runs(legal);
    int n;
    if (cm & (cm - 1)) {
        n = order(S, cands, cm, hs, pos, k, best_card, best_pos);
    } else {
        n = 0;
        if (cm) cands[n++] = lowest(cm);
    }
    const int maximize = S->att[pos];
    int best = maximize ? -1 : 99;
    for (int i = 0; i < n; i++) {
        u32 nh[3] = {hs[0], hs[1], hs[2]};
        nh[pos] &= ~(1u << cands[i]);
        pp[k] = pos;
        pc[k] = cands[i];
        int v = card(S, nh, leader, pp, pc, k + 1, extra, j, forced, pre, alpha, beta);
        if (maximize) {
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            if (v < beta) {
                beta = v;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

/* A position between tricks (real or compressed ranks): the counted seat's tricks. */
static int node(Search *S, u32 h0, u32 h1, u32 h2, int leader, u32 extra, int alpha, int beta) {
    int rem = popcount(h0);
    if (popcount(h1) > rem) rem = popcount(h1);
    if (popcount(h2) > rem) rem = popcount(h2);
    if (rem == 0) return 0;
    int j = S->total - rem;
    if (j >= S->ntalon) return plain(S, h0, h1, h2, leader, rem, alpha, beta);
    /* A talon trick: searched in real ranks (the talon cards are real cards). */
    u32 u = h0 | h1 | h2 | extra;
    int pre = -1, forced = -1;
    if (S->owned) {
        pre = S->talon[j];
        u |= 1u << pre;
        extra &= ~(1u << pre);
    } else {
        forced = S->talon[j] >> 3;
    }
    u32 cp = pre >= 0 ? compress(1u << pre, u) : 0;
    u64 ka = (u64)compress(h0, u) | (u64)compress(h1, u) << 32;
    u64 kb = (u64)compress(h2, u) | (u64)compress(extra, u) << 32;
    u64 kc = (u64)cp | (u64)leader << 32 | 1ull << 34;
    Entry *e = tt_find(S, ka, kb, kc);
    int lo = 0, hi = rem;
    if (e != NULL) {
        lo = e->lo;
        hi = e->hi;
    }
    if (lo >= beta || lo == hi) return lo;
    if (hi <= alpha) return hi;
    int a = alpha > lo ? alpha : lo;
    int b = beta < hi ? beta : hi;
    S->nodes++;
    u32 hs[3] = {h0, h1, h2};
    int pp[3], pc[3];
    int v = card(S, hs, leader, pp, pc, 0, extra, j, forced, pre, a, b);
    if (v <= a) {
        if (v < hi) hi = v;
    } else if (v >= b) {
        if (v > lo) lo = v;
    } else {
        lo = hi = v;
    }
    tt_put(S, ka, kb, kc, lo, hi);
    return v;
}

/* --- the Python type ------------------------------------------------------------------- */

static int Search_init(Search *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"trump", "overtake", "decl", "more", "first", "talon", "owned",
                             "total", NULL};
    PyObject *talon;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ipipiOpi", kwlist, &S->trump, &S->overtake,
                                     &S->decl, &S->more, &S->first, &talon, &S->owned,
                                     &S->total))
        return -1;
    if (S->trump < -1 || S->trump > 3 || S->decl < 0 || S->decl > 2 || S->first < 0 ||
        S->first > 2 || S->total < 0 || S->total > 32) {
        PyErr_SetString(PyExc_ValueError, "a search is for three hands of at most 32 cards");
        return -1;
    }
    PyObject *seq = PySequence_Fast(talon, "the talon leads are a sequence of cards");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_TALON) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many talon leads");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c > 31) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a card is 0 to 31");
            return -1;
        }
        S->talon[i] = (int)c;
    }
    Py_DECREF(seq);
    S->ntalon = (int)n;
    for (int i = 0; i < 3; i++) S->att[i] = (i == S->decl) == (S->more != 0);
    free(S->tt);
    S->bits = 12;
    S->cap = (size_t)1 << S->bits;
    S->count = 0;
    S->full = 0;
    S->nodes = 0;
    S->tt = calloc(S->cap, sizeof(Entry));
    if (S->tt == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Search_dealloc(Search *S) {
    free(S->tt);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int ready(Search *S) {
    if (S->tt == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not initialised");
        return 0;
    }
    return 1;
}

static PyObject *Search_node(Search *S, PyObject *args) {
    unsigned int h0, h1, h2, extra;
    int leader, alpha, beta;
    if (!PyArg_ParseTuple(args, "IIIiIii", &h0, &h1, &h2, &leader, &extra, &alpha, &beta))
        return NULL;
    if (!ready(S)) return NULL;
    if (leader < 0 || leader > 2) {
        PyErr_SetString(PyExc_ValueError, "the leader is 0, 1 or 2");
        return NULL;
    }
    return PyLong_FromLong(node(S, h0, h1, h2, leader, extra, alpha, beta));
}

static PyObject *Search_trick_from(Search *S, PyObject *args) {
    unsigned int h0, h1, h2, extra;
    int leader, j;
    PyObject *played;
    if (!PyArg_ParseTuple(args, "IIIiOIi", &h0, &h1, &h2, &leader, &played, &extra, &j))
        return NULL;
    if (!ready(S)) return NULL;
    PyObject *seq = PySequence_Fast(played, "the cards played are a sequence of (hand, card)");
    if (seq == NULL) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int pp[3], pc[3];
    if (k > 3 || leader < 0 || leader > 2 || j < 0) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick has at most three cards from the hands");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &pp[i], &pc[i])) {
            Py_DECREF(seq);
            return NULL;
        }
        if (pp[i] < 0 || pp[i] > 2 || pc[i] < 0 || pc[i] > 31) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a card played is (hand 0-2, card 0-31)");
            return NULL;
        }
    }
    Py_DECREF(seq);
    u32 hs[3] = {h0, h1, h2};
    u32 u = h0 | h1 | h2 | extra;
    int pre = -1, forced = -1;
    if (j < S->ntalon) {
        if (S->owned) {
            pre = S->talon[j];
            u |= 1u << pre;
        } else {
            forced = S->talon[j] >> 3;
        }
    }
    int most = S->total - j;
    int v;
    if (j < S->ntalon) { /* the talon cards are real cards: no compressed ranks yet */
        v = card(S, hs, leader, pp, pc, (int)k, extra, j, forced, pre, -1, most + 1);
    } else {
        for (Py_ssize_t i = 0; i < k; i++) u |= 1u << pc[i];
        u32 cs[3] = {compress(h0, u), compress(h1, u), compress(h2, u)};
        for (Py_ssize_t i = 0; i < k; i++) pc[i] = lowest(compress(1u << pc[i], u));
        v = card(S, cs, leader, pp, pc, (int)k, 0, j, -1, -1, -1, most + 1);
    }
    return PyLong_FromLong(v);
}

static PyObject *Search_get_nodes(Search *S, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(S->nodes);
}

static PyObject *Search_get_positions(Search *S, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(S->count);
}

static PyMethodDef Search_methods[] = {
    {"node", (PyCFunction)Search_node, METH_VARARGS,
     "node(h0, h1, h2, leader, extra, alpha, beta): a position between tricks, searched."},
    {"trick_from", (PyCFunction)Search_trick_from, METH_VARARGS,
     "trick_from(h0, h1, h2, leader, played, extra, j): a position inside trick j, searched."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched (not found in the table)",
     NULL},
    {"positions", (getter)Search_get_positions, NULL, "positions kept in the table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scorepad.play._dds.Search",
    .tp_doc = "The double-dummy search of one deal's fixed parts, with its table of positions.",
    .tp_basicsize = sizeof(Search),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ---- The trick play of a record (play.Play.play_tricks, compiled) --------------------------
 *
 * The rules of play.Play, the Python one being the reference (the tests compare the two on
 * random legal and illegal plays): follow suit; without the suit, trump; without trumps,
 * anything; ``overtake``: beat the winning card when following suit or trumping.  On an
 * all-pass the talon cards lead the first tricks: with 3 players the talon card names the
 * suit (the first hand plays first), with 4 the dealer (``owner``) leads it himself; the first
 * hand leads the trick after them.  Only whole tricks are played, and all or none: any card
 * that is not legal (or a trick not of one card a player) gives None, nothing played, and the
 * Python side names the fault.
 */

/* The mask of cards ``hand`` may play to the trick so far (``cur``: m cards, ``led``: -1 when
 * nothing has led). */
static u32 legal_now(u32 hand, int led, int trump, int overtake, const int *cur, int m) {
    if (led < 0) return hand;
    int trumped = 0, best_led = -1, best_trump = -1;
    if (overtake) {
        for (int i = 0; i < m; i++) {
            int c = cur[i];
            if (c >> 3 == led && c > best_led) best_led = c;
            if (trump >= 0 && c >> 3 == trump) {
                if (led != trump) trumped = 1;
                if (c > best_trump) best_trump = c;
            }
        }
    }
    u32 follow = hand & SUIT[led];
    if (follow) {
        if (overtake) {
            u32 beat = trumped ? 0 : follow & ~(u32)((1ull << (best_led + 1)) - 1);
            return beat ? beat : follow;
        }
        return follow;
    }
    if (trump >= 0) {
        u32 trumps = hand & SUIT[trump];
        if (trumps) {
            if (overtake && trumped) {
                u32 beat = trumps & ~(u32)((1ull << (best_trump + 1)) - 1);
                return beat ? beat : trumps;
            }
            return trumps;
        }
    }
    return hand;
}

static int long_item(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "an int was expected");
        return -1;
    }
    *out = PyLong_AsLong(o);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *play_tricks(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hands_o, *order_o, *talon_o, *tricks_o, *pairs_o;
    int trump, overtake, first, leader, owner, done;
    if (!PyArg_ParseTuple(args, "O!O!ipiiO!iiO!O!:play_tricks", &PyList_Type, &hands_o,
                          &PyTuple_Type, &order_o, &trump, &overtake, &first, &leader,
                          &PyTuple_Type, &talon_o, &owner, &done, &PyList_Type, &tricks_o,
                          &PyTuple_Type, &pairs_o))
        return NULL;
    Py_ssize_t players = PyList_GET_SIZE(hands_o), n = PyTuple_GET_SIZE(order_o);
    Py_ssize_t talon_n = PyTuple_GET_SIZE(talon_o);
    if (players < 1 || players > 4 || n < 1 || n > players || talon_n > MAX_TALON ||
        PyTuple_GET_SIZE(pairs_o) != 4 * 32 || trump < -1 || trump > 3 || owner < -1 ||
        owner >= players || first < 0 || first >= players || done < 0) {
        PyErr_SetString(PyExc_ValueError, "play_tricks: a play this engine does not hold");
        return NULL;
    }
    u32 H[4] = {0, 0, 0, 0};
    int order[4], talon[MAX_TALON], in_order[4] = {0, 0, 0, 0};
    for (Py_ssize_t i = 0; i < players; i++) {
        PyObject *o = PyList_GET_ITEM(hands_o, i);
        if (!PyLong_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "a hand is an int");
            return NULL;
        }
        unsigned long long v = PyLong_AsUnsignedLongLong(o);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
        if (v >> 32) {
            PyErr_SetString(PyExc_ValueError, "a hand is a 32-bit mask");
            return NULL;
        }
        H[i] = (u32)v;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (long_item(order_o, i, &v) < 0) return NULL;
        if (v < 0 || v >= players) {
            PyErr_SetString(PyExc_ValueError, "a seat out of range");
            return NULL;
        }
        order[i] = (int)v;
        in_order[v] = 1;
    }
    for (Py_ssize_t i = 0; i < talon_n; i++) {
        long v;
        if (long_item(talon_o, i, &v) < 0) return NULL;
        if (v < 0 || v > 31) {
            PyErr_SetString(PyExc_ValueError, "a card out of range");
            return NULL;
        }
        talon[i] = (int)v;
    }
    if (leader < 0 || leader >= players || !in_order[leader] || !in_order[first]) {
        PyErr_SetString(PyExc_ValueError, "the leader does not play");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(tricks_o);
    if (count > 64) Py_RETURN_NONE; /* far more tricks than cards: never legal */
    int winners[64], seats[64][5], cards[64][5], sizes[64];
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *trick = PyList_GET_ITEM(tricks_o, t);
        if (!PyList_Check(trick)) {
            PyErr_SetString(PyExc_TypeError, "a trick is a list of cards");
            return NULL;
        }
        if (PyList_GET_SIZE(trick) != n) Py_RETURN_NONE;
        Py_ssize_t k = done + t;
        int talon_trick = k < talon_n;
        if (talon_trick || (k == talon_n && talon_n > 0)) leader = first;
        int start = 0;
        while (order[start] != leader) start++;
        int m = 0, led = -1;
        int *cur = cards[t], *who = seats[t];
        if (talon_trick) {
            if (owner >= 0) {
                who[0] = owner;
                cur[0] = talon[k];
                m = 1;
            }
            led = talon[k] >> 3;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int seat = order[(start + i) % n];
            long c;
            if (long_item(trick, i, &c) < 0) return NULL;
            if (c < 0 || c > 31) Py_RETURN_NONE;
            u32 bit = 1u << c;
            if (!(H[seat] & bit) || !(legal_now(H[seat], led, trump, overtake, cur, m) & bit))
                Py_RETURN_NONE;
            if (led < 0) led = (int)(c >> 3);
            H[seat] ^= bit;
            who[m] = seat;
            cur[m++] = (int)c;
        }
        /* Who wins: the best trump; else the best card of the suit led; else (3-player all-pass,
         * nobody had the talon's suit) the best of the first hand's suit. */
        int best = -1, winner = -1;
        if (trump >= 0)
            for (int i = 0; i < m; i++)
                if (cur[i] >> 3 == trump && cur[i] > best) best = cur[i], winner = who[i];
        if (winner < 0)
            for (int i = 0; i < m; i++)
                if (cur[i] >> 3 == led && cur[i] > best) best = cur[i], winner = who[i];
        if (winner < 0) {
            int suit = -1;
            for (int i = 0; i < m; i++)
                if (who[i] == first) suit = cur[i] >> 3;
            for (int i = 0; i < m; i++)
                if (cur[i] >> 3 == suit && cur[i] > best) best = cur[i], winner = who[i];
        }
        sizes[t] = m;
        winners[t] = winner;
        leader = in_order[winner] ? winner : first;
    }
    PyObject *won = PyList_New(count), *played = PyList_New(count), *left = PyList_New(players);
    if (won == NULL || played == NULL || left == NULL) goto fail;
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *w = PyLong_FromLong(winners[t]), *trick = PyList_New(sizes[t]);
        if (w == NULL || trick == NULL) {
            Py_XDECREF(w);
            Py_XDECREF(trick);
            goto fail;
        }
        PyList_SET_ITEM(won, t, w);
        for (int i = 0; i < sizes[t]; i++) {
            PyObject *pair = PyTuple_GET_ITEM(pairs_o, seats[t][i] * 32 + cards[t][i]);
            Py_INCREF(pair);
            PyList_SET_ITEM(trick, i, pair);
        }
        PyList_SET_ITEM(played, t, trick);
    }
    for (Py_ssize_t i = 0; i < players; i++) {
        PyObject *h = PyLong_FromUnsignedLong(H[i]);
        if (h == NULL) goto fail;
        PyList_SET_ITEM(left, i, h);
    }
    return Py_BuildValue("(NNNi)", won, played, left, leader);
fail:
    Py_XDECREF(won);
    Py_XDECREF(played);
    Py_XDECREF(left);
    return NULL;
}

/* trick_cards(texts, index): each text's cards, its tokens (split at whitespace and commas, as
 * ``text.replace(",", " ").split()``) looked up in ``index``; None at the first unknown token. */
static PyObject *trick_cards(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *texts, *index;
    if (!PyArg_ParseTuple(args, "O!O!:trick_cards", &PyList_Type, &texts, &PyDict_Type, &index))
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *text = PyList_GET_ITEM(texts, t);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "a trick is written as a str");
            goto fail;
        }
        PyObject *cards = PyList_New(0);
        if (cards == NULL) goto fail;
        PyList_SET_ITEM(out, t, cards);
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t len = PyUnicode_GET_LENGTH(text), start = -1;
        for (Py_ssize_t j = 0; j <= len; j++) {
            Py_UCS4 ch = j < len ? PyUnicode_READ(kind, data, j) : ' ';
            if (ch == ',' || Py_UNICODE_ISSPACE(ch)) {
                if (start < 0) continue;
                PyObject *token = PyUnicode_Substring(text, start, j);
                if (token == NULL) goto fail;
                PyObject *card = PyDict_GetItemWithError(index, token);
                Py_DECREF(token);
                start = -1;
                if (card == NULL) {
                    if (PyErr_Occurred()) goto fail;
                    Py_DECREF(out);
                    Py_RETURN_NONE;
                }
                if (PyList_Append(cards, card) < 0) goto fail;
            } else if (start < 0) {
                start = j;
            }
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

/* hand_mask(text, masks): the mask of a hand written card by card or by suit groups, each token
 * (split as ``str.split`` after commas are spaces) looked up in ``masks`` (token -> (mask, how
 * many cards)); None when a token is unknown, a card is written twice or there is no token:
 * cards.Hand.parse then reads it the long way and says why. */
static PyObject *hand_mask(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *text, *masks;
    if (!PyArg_ParseTuple(args, "UO!:hand_mask", &text, &PyDict_Type, &masks)) return NULL;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), start = -1;
    u64 mask = 0;
    long count = 0, tokens = 0;
    for (Py_ssize_t j = 0; j <= len; j++) {
        Py_UCS4 ch = j < len ? PyUnicode_READ(kind, data, j) : ' ';
        if (ch == ',' || Py_UNICODE_ISSPACE(ch)) {
            if (start < 0) continue;
            PyObject *token = PyUnicode_Substring(text, start, j);
            if (token == NULL) return NULL;
            PyObject *found = PyDict_GetItemWithError(masks, token);
            Py_DECREF(token);
            start = -1;
            if (found == NULL) {
                if (PyErr_Occurred()) return NULL;
                Py_RETURN_NONE;
            }
            if (!PyTuple_Check(found) || PyTuple_GET_SIZE(found) != 2) {
                PyErr_SetString(PyExc_TypeError, "a token's (mask, count) was expected");
                return NULL;
            }
            unsigned long long m = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(found, 0));
            if (m == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
            long c = PyLong_AsLong(PyTuple_GET_ITEM(found, 1));
            if (c == -1 && PyErr_Occurred()) return NULL;
            if (m >> 32) Py_RETURN_NONE;
            mask |= m;
            count += c;
            tokens++;
        } else if (start < 0) {
            start = j;
        }
    }
    if (tokens == 0 || __builtin_popcountll(mask) != count) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(mask);
}

/* accounts(cls, played, start, winners, pairs, talon): the record's trick accounts, each
 * ``cls((number, ((seat, card), ...), winner, talon card or None))`` (a tuple subclass, built
 * as tuple.__new__ builds it) for the tricks played[start:], the (seat, card) pairs taken
 * from ``pairs`` (seat * 32 + card) and the talon card from ``talon`` (by trick). */
static PyObject *accounts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cls, *played, *winners, *pairs, *talon;
    Py_ssize_t start;
    if (!PyArg_ParseTuple(args, "O!O!nO!O!O!:accounts", &PyType_Type, &cls, &PyList_Type, &played,
                          &start, &PyList_Type, &winners, &PyTuple_Type, &pairs, &PyTuple_Type,
                          &talon))
        return NULL;
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t count = PyList_GET_SIZE(winners);
    if (!PyType_IsSubtype(type, &PyTuple_Type) || PyTuple_GET_SIZE(pairs) != 4 * 32 ||
        start < 0 || start + count > PyList_GET_SIZE(played)) {
        PyErr_SetString(PyExc_ValueError, "accounts: arguments this engine does not hold");
        return NULL;
    }
    PyObject *out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *trick = PyList_GET_ITEM(played, start + k);
        if (!PyList_Check(trick)) {
            PyErr_SetString(PyExc_TypeError, "a trick is a list of (seat, card)");
            goto fail;
        }
        Py_ssize_t m = PyList_GET_SIZE(trick);
        PyObject *cards = PyTuple_New(m);
        if (cards == NULL) goto fail;
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *pair = PyList_GET_ITEM(trick, i);
            long seat = -1, card = -1;
            if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
                seat = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
                card = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
            }
            if (seat < 0 || seat > 3 || card < 0 || card > 31) {
                Py_DECREF(cards);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a (seat, card) out of range");
                goto fail;
            }
            PyObject *item = PyTuple_GET_ITEM(pairs, seat * 32 + card);
            Py_INCREF(item);
            PyTuple_SET_ITEM(cards, i, item);
        }
        Py_ssize_t at = start + k;
        PyObject *lead = at < PyTuple_GET_SIZE(talon) ? PyTuple_GET_ITEM(talon, at) : Py_None;
        PyObject *fields = Py_BuildValue("(nNOO)", k + 1, cards, PyList_GET_ITEM(winners, k), lead);
        if (fields == NULL) goto fail;
        PyObject *wrap = PyTuple_Pack(1, fields);
        Py_DECREF(fields);
        if (wrap == NULL) goto fail;
        PyObject *account = PyTuple_Type.tp_new(type, wrap, NULL);
        Py_DECREF(wrap);
        if (account == NULL) goto fail;
        PyList_SET_ITEM(out, k, account);
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"play_tricks", play_tricks, METH_VARARGS,
     "play_tricks(hands, order, trump, overtake, first, leader, talon, owner, done, tricks, "
     "pairs): (winners, tricks played, hands left, leader), or None when a card is not legal."},
    {"trick_cards", trick_cards, METH_VARARGS,
     "trick_cards(texts, index): each trick's card indexes, or None at an unknown token."},
    {"hand_mask", hand_mask, METH_VARARGS,
     "hand_mask(text, masks): a hand's mask, or None for cards.Hand.parse to read it."},
    {"accounts", accounts, METH_VARARGS,
     "accounts(cls, played, start, winners, pairs, talon): the record's trick accounts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds",
    "The compiled double-dummy search and trick play (see scorepad.play.dds and .play).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) {
    init_pack();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
