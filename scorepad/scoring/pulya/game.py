"""Scoring a game (6-10 tricks): pulya, remiz, whists, consolation, whister shortfall (§3-§5).

Call order and roles come from :mod:`scorepad.scoring.pulya.whist`; this module only writes.
Every number written comes with a sentence (:class:`~scorepad.core.i18n.Msg`) that accounts for it.
"""

from __future__ import annotations

from ...core.i18n import N_, msg, nmsg, whist_count
from ...core.numbers import Number, half, normal
from .pulya import write_pool_at
from .session import Game
from .sheet import Writing
from .table import Table, contract_name
from .whist import Kind, Whisting


def score_game(g: Game, t: Table, outcome: Whisting | None) -> Writing:
    """What a (validated) game writes.  ``outcome`` is ``None`` only for a conceded game.

    The outcome comes from :func:`~scorepad.scoring.pulya.legal.verify_game`, which checks the game.

    >>> from scorepad.scoring.pulya.convention import settings_for
    >>> from scorepad.scoring.pulya.legal import verify_game
    >>> t = Table(settings_for("sochi"), ("Anna", "Boris", "Vera"), target=20, dealer=0,
    ...           pools=[0, 0, 0], raspasy_in_row=0)
    >>> g = Game.model_validate({"type": "game", "declarer": 1, "contract": "7S",
    ...                          "calls": ["whist"], "tricks": {"1": 7, "2": 3, "0": 0}})
    >>> w = score_game(g, t, verify_game(g, t))
    >>> w.pool, w.whists[2]
    ([0, 4, 0], [0, 12, 0])
    >>> [m.render() for m in w.explain or ()]
    ['Boris made 7♠: 4 into the pulya.', 'Vera whisted alone: 3 defence tricks × 4 = 12 whists on Boris.']
    """
    s = t.settings
    w = Writing(t.players, explain=t.explain)
    level = g.contract.level
    # The names go into sentences only; without sentences they are not looked up.
    cname: object = contract_name(g.contract) if t.explain else ""

    if g.talon_bonus:
        # Written even on a game given up: the premium is for the talon, taken before (§11).
        _talon_premium(w, g, table=t, per_trick=s.trick_whists(level))
    if g.conceded is not None:
        _conceded(w, g, t, cname)
        return w
    assert outcome is not None
    if not outcome.played:
        _not_played(w, g, t, outcome, cname)
        return w

    assert g.tricks is not None
    defence = 10 - g.tricks[g.declarer]
    under = max(0, level - g.tricks[g.declarer])
    if under:
        _down(w, g, t, under, cname)
    else:
        _made(w, g, t, s.price(level), cname)
    short = _shortfalls(g, t, outcome, defence)
    if outcome.kind is Kind.CHECKED and not s.ten_checked_whists:
        # A checked ten writes nothing for the defence, only the declarer's pulya or gora.
        if under and w.explain is not None:
            w.explain.append(msg(N_("The ten was checked: the defenders write no whists.")))
        return w
    _whists_for_tricks(w, g, t, outcome, short, under=under)
    if under:
        _consolations(w, g, t, outcome, under)
    _whister_shortfalls(w, t, short, level)
    return w


def _conceded(w: Writing, g: Game, t: Table, cname: object) -> None:
    """A game given up before the whist: the undertricks into the gora, no whists for tricks."""
    assert g.conceded is not None
    remiz = t.settings.remiz(g.contract.level)
    gora = g.conceded * remiz
    w.add_gora(g.declarer, gora)
    if w.explain is not None:
        w.explain.append(
            nmsg(
                "{declarer} gave up {contract} before the whist, down {n}: {gora} into the gora; no whists for tricks.",
                "{declarer} gave up {contract} before the whist, down {n}: {n} × {price} = {gora} into the gora; no whists for tricks.",
                g.conceded,
                declarer=t.name(g.declarer),
                contract=cname,
                price=remiz,
                gora=gora,
            )
        )


def _not_played(w: Writing, g: Game, t: Table, outcome: Whisting, cname: object) -> None:
    """Nobody whisted, or a half-whist: the game counts made; a half-whister writes his half."""
    s = t.settings
    level = g.contract.level
    declarer = t.name(g.declarer)
    if outcome.kind is Kind.ALL_PASSED and w.explain is not None:
        w.explain.append(
            msg(
                N_("Nobody whisted: the deal was not played, {declarer} counts it made."),
                declarer=declarer,
            )
        )
    _made(w, g, t, s.price(level), cname)
    if outcome.kind is not Kind.HALF:
        return
    assert outcome.half_whister is not None
    per_trick = s.trick_whists(level)
    half_tricks = half(s.obligation(level))
    half_amount = normal(half_tricks * per_trick)
    w.add_whists(outcome.half_whister, g.declarer, half_amount)
    if w.explain is not None:
        w.explain.append(
            nmsg(
                "{whister} half-whisted, the deal was not played: {n} trick × {price} = {whists} on {declarer}.",
                "{whister} half-whisted, the deal was not played: {n} tricks × {price} = {whists} on {declarer}.",
                half_tricks,
                whister=t.name(outcome.half_whister),
                price=per_trick,
                whists=whist_count(half_amount),
                declarer=declarer,
            )
        )


def _down(w: Writing, g: Game, t: Table, under: int, cname: object) -> None:
    """A failed game: each undertrick at the remiz price into the declarer's gora."""
    remiz = t.settings.remiz(g.contract.level)
    w.add_gora(g.declarer, under * remiz)
    if w.explain is not None:
        w.explain.append(
            nmsg(
                "{declarer} failed {contract}, down {n}: {gora} into the gora.",
                "{declarer} failed {contract}, down {n}: {n} × {price} = {gora} into the gora.",
                under,
                declarer=t.name(g.declarer),
                contract=cname,
                price=remiz,
                gora=under * remiz,
            )
        )


def _whists_for_tricks(
    w: Writing, g: Game, t: Table, outcome: Whisting, short: dict[int, Number], *, under: int
) -> None:
    """Each whister's whists for the defence's tricks, by the whist style and quota (§4)."""
    s = t.settings
    assert g.tricks is not None
    tricks = g.tricks
    per_trick = s.trick_whists(g.contract.level)
    defence = 10 - tricks[g.declarer]
    kind = outcome.kind

    def writes(seat: int) -> bool:  # a whister short on his obligation may lose his tricks
        return not (short.get(seat) and not s.failed_whister_writes_tricks)

    if kind in (Kind.TWO, Kind.CHECKED):
        for seat in outcome.whisters:
            if writes(seat):
                _trick_whists(w, t, seat, g.declarer, tricks[seat], per_trick, alone=False)
    elif kind is Kind.ONE and under and s.whist_style == "gentleman":
        pass  # written with the consolation, split with the passer
    elif kind is Kind.ONE and s.whist_style == "gentleman" and s.gentleman_on_made:
        # FSPR: gentleman whist halves the trick whists on a made contract as well.
        whister, passer = outcome.whisters[0], outcome.passers[0]
        counted = tricks[whister] if s.whist_quota == "personal" else defence
        if counted and writes(whister):
            total = counted * per_trick
            each = half(total)
            w.add_whists(whister, g.declarer, each)
            w.add_whists(passer, g.declarer, each)
            if w.explain is not None:
                w.explain.append(
                    nmsg(
                        "Gentleman whist on a made contract: {whister} and {passer} split {n} trick × {price} = {total}: {each} each on {declarer}.",
                        "Gentleman whist on a made contract: {whister} and {passer} split {n} tricks × {price} = {total}: {each} each on {declarer}.",
                        counted,
                        whister=t.name(whister),
                        passer=t.name(passer),
                        price=per_trick,
                        total=total,
                        each=whist_count(each),
                        declarer=t.name(g.declarer),
                    )
                )
    elif kind is Kind.ONE and s.whist_quota == "personal":
        # Over-greedy: the passer's tricks belong to nobody (§4.4).
        seat = outcome.whisters[0]
        if writes(seat):
            _trick_whists(w, t, seat, g.declarer, tricks[seat], per_trick, alone=False)
    else:  # ONE, RETURNED: the lone whister writes for the whole defence (§4.2)
        seat = outcome.whisters[0]
        if writes(seat):
            _trick_whists(w, t, seat, g.declarer, defence, per_trick, alone=True)


def _consolations(w: Writing, g: Game, t: Table, outcome: Whisting, under: int) -> None:
    """Consolation for a failed game (§5.2, §3.4): who writes it depends on how the defence went."""
    s = t.settings
    cons = s.consolation_whists(g.contract.level)
    kind = outcome.kind
    if kind in (Kind.TWO, Kind.CHECKED):
        for seat in outcome.whisters:
            _consolation(w, t, seat, g.declarer, under, cons)
    elif kind is Kind.ONE and s.whist_style == "gentleman":
        _gentleman_split(w, g, t, outcome, under, cons)
    elif kind is Kind.ONE:
        _lone_whister_consolation(w, g, t, outcome, under, cons)
    else:  # RETURNED: the returner writes everyone's consolation (§4.3, §11)
        _returned_consolation(w, g, t, outcome, under, cons)
    sitter = t.sits_out
    if sitter is not None and s.consolation_to_dealer and sitter not in outcome.whisters:
        amount = under * cons
        w.add_whists(sitter, g.declarer, amount)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{dealer}, the dealer, writes consolation: {n} undertrick × {cons} = {whists} on {declarer}.",
                    "{dealer}, the dealer, writes consolation: {n} undertricks × {cons} = {whists} on {declarer}.",
                    under,
                    dealer=t.name(sitter),
                    cons=cons,
                    whists=whist_count(amount),
                    declarer=t.name(g.declarer),
                )
            )


def _gentleman_split(
    w: Writing, g: Game, t: Table, outcome: Whisting, under: int, cons: int
) -> None:
    """Gentleman whist on a failed game: trick whists and both consolations, split in half."""
    s = t.settings
    assert g.tricks is not None
    whister, passer = outcome.whisters[0], outcome.passers[0]
    per_trick = s.trick_whists(g.contract.level)
    counted = g.tricks[whister] if s.whist_quota == "personal" else 10 - g.tricks[g.declarer]
    total = counted * per_trick + 2 * under * cons
    each = half(total)
    w.add_whists(whister, g.declarer, each)
    w.add_whists(passer, g.declarer, each)
    if w.explain is not None:
        w.explain.append(
            msg(
                N_(
                    "Gentleman whist: {whister} and {passer} split ({tricks} × {price} + 2 × {under} × {cons}) = {total}: {each} each on {declarer}."
                ),
                whister=t.name(whister),
                passer=t.name(passer),
                tricks=counted,
                price=per_trick,
                under=under,
                cons=cons,
                total=total,
                each=whist_count(each),
                declarer=t.name(g.declarer),
            )
        )


def _lone_whister_consolation(
    w: Writing, g: Game, t: Table, outcome: Whisting, under: int, cons: int
) -> None:
    """One whister, one passer: the passer's consolation as the convention says (§5.2)."""
    s = t.settings
    whister, passer = outcome.whisters[0], outcome.passers[0]
    _consolation(w, t, whister, g.declarer, under, cons)
    if s.passer_consolation == "passer":
        _consolation(w, t, passer, g.declarer, under, cons)
    elif s.passer_consolation == "whister":
        _consolation_of(
            w,
            t,
            whister,
            passer,
            g.declarer,
            under * cons,
            N_("{whister} also writes {passer}'s consolation: {whists} on {declarer}."),
        )
    elif w.explain is not None:
        w.explain.append(
            msg(N_("{passer} passed and writes no consolation."), passer=t.name(passer))
        )


def _returned_consolation(
    w: Writing, g: Game, t: Table, outcome: Whisting, under: int, cons: int
) -> None:
    """A returned whist: the returner writes his own and the passers' consolation (§4.3, §11)."""
    s = t.settings
    returner = outcome.whisters[0]
    dealer_whists = returner == t.sits_out
    if dealer_whists and s.dealer_whist_consolation == "one":
        # FSPR: the whisting dealer writes one consolation, nobody else any.
        _consolation(w, t, returner, g.declarer, under, cons)
        return
    # A whisting dealer's own consolation is the sitting-out dealer's (§11).
    if not dealer_whists or s.consolation_to_dealer:
        _consolation(w, t, returner, g.declarer, under, cons)
    for seat in outcome.passers:
        if seat == outcome.half_whister and s.returned_half_consolation == "lapses":
            if w.explain is not None:
                w.explain.append(
                    msg(
                        N_("{passer} went half-whist and was overruled: that consolation lapses."),
                        passer=t.name(seat),
                    )
                )
            continue
        _consolation_of(
            w,
            t,
            returner,
            seat,
            g.declarer,
            under * cons,
            N_(
                "{whister} returned the whist and writes {passer}'s consolation too: {whists} on {declarer}."
            ),
        )


def _whister_shortfalls(w: Writing, t: Table, short: dict[int, Number], level: int) -> None:
    """Whister's shortfall (недовист), into his own gora (§3.2, §3.3)."""
    if not short:
        return
    s = t.settings
    remiz = s.remiz(level)
    penalty = remiz if s.whist_responsibility == "full" else half(remiz)
    for seat, missing in short.items():
        short_gora = normal(missing * penalty)
        w.add_gora(seat, short_gora)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{whister} fell short on the whist by {n} trick: {n} × {price} = {gora} into the gora.",
                    "{whister} fell short on the whist by {n} tricks: {n} × {price} = {gora} into the gora.",
                    missing,
                    whister=t.name(seat),
                    price=normal(penalty),
                    gora=short_gora,
                )
            )


def _made(w: Writing, g: Game, t: Table, price: int, cname: object) -> None:
    declarer = t.name(g.declarer)
    write_pool_at(
        t,
        w,
        g.declarer,
        price,
        why=N_("{declarer} made {contract}: {points} into the pulya."),
        declarer=declarer,
        contract=cname,
    )


def _trick_whists(
    w: Writing, t: Table, seat: int, declarer: int, tricks: int, per_trick: int, *, alone: bool
) -> None:
    if not tricks:
        return
    amount = tricks * per_trick
    w.add_whists(seat, declarer, amount)
    if w.explain is None:
        return
    if alone:
        text = nmsg(
            "{whister} whisted alone: {n} defence trick × {price} = {whists} on {declarer}.",
            "{whister} whisted alone: {n} defence tricks × {price} = {whists} on {declarer}.",
            tricks,
            whister=t.name(seat),
            price=per_trick,
            whists=whist_count(amount),
            declarer=t.name(declarer),
        )
    else:
        text = nmsg(
            "{whister} whisted: {n} trick × {price} = {whists} on {declarer}.",
            "{whister} whisted: {n} tricks × {price} = {whists} on {declarer}.",
            tricks,
            whister=t.name(seat),
            price=per_trick,
            whists=whist_count(amount),
            declarer=t.name(declarer),
        )
    w.explain.append(text)


def _consolation_of(
    w: Writing, t: Table, writer: int, passer: int, declarer: int, amount: int, why: str
) -> None:
    """``writer`` writes ``passer``'s consolation as well (Finka; a returned whist)."""
    w.add_whists(writer, declarer, amount)
    if w.explain is not None:
        w.explain.append(
            msg(
                why,
                whister=t.name(writer),
                passer=t.name(passer),
                whists=whist_count(amount),
                declarer=t.name(declarer),
            )
        )


def _consolation(w: Writing, t: Table, seat: int, declarer: int, under: int, cons: int) -> None:
    amount = under * cons
    if not amount:
        return
    w.add_whists(seat, declarer, amount)
    if w.explain is not None:
        w.explain.append(
            nmsg(
                "{player} writes consolation: {n} undertrick × {cons} = {whists} on {declarer}.",
                "{player} writes consolation: {n} undertricks × {cons} = {whists} on {declarer}.",
                under,
                player=t.name(seat),
                cons=cons,
                whists=whist_count(amount),
                declarer=t.name(declarer),
            )
        )


def _shortfalls(g: Game, t: Table, outcome: Whisting, defence: int) -> dict[int, Number]:
    """Missing tricks each whister answers for (§3.2).  Empty when the defence did its duty."""
    s = t.settings
    kind = outcome.kind
    level = g.contract.level
    assert g.tricks is not None
    if kind is Kind.CHECKED:
        return {}  # a checked ten carries no obligation
    if kind is Kind.RETURNED and outcome.whisters[0] == t.sits_out and not s.dealer_whist_liable:
        return {}  # «за недобор взяток не отвечает»
    obligation = s.obligation(level)
    if s.whist_quota == "personal" and kind in (Kind.TWO, Kind.ONE):
        # Over-greedy: each whister must take his own half, whatever the declarer did.
        quota = -(-obligation // 2)
        out: dict[int, Number] = {}
        for seat in outcome.whisters:
            missing = quota - g.tricks[seat]
            if missing > 0:
                out[seat] = missing
        return out
    missing = obligation - defence
    if missing <= 0:
        return {}
    if kind is not Kind.TWO:
        return {outcome.whisters[0]: missing}  # the lone whister carries it all (KOD §3.8.5)
    first, second = outcome.whisters
    if level <= 7:
        # Each answers for his own half; a partner's extra tricks cover for him (KOD §3.8.6).
        # Counted in half tricks, so that only an odd count makes a fraction.
        out = {}
        for seat, partner in ((first, second), (second, first)):
            extra = max(0, 2 * g.tricks[partner] - obligation)
            own = max(0, obligation - 2 * g.tricks[seat] - extra)
            if own:
                out[seat] = half(own)
        return out
    if s.responsible_whister == "second":
        return {second: missing}
    if s.responsible_whister == "split":
        return {first: half(missing), second: half(missing)}
    return {first: missing, second: missing}


def _talon_premium(w: Writing, g: Game, *, table: Table, per_trick: int) -> None:
    """The talon premium (§11): the 4-player dealer writes it; with 3 players (FSPR 6.4) each
    opponent writes half of it."""
    assert g.talon_bonus is not None
    amount = g.talon_bonus * per_trick
    t = table
    declarer = t.name(g.declarer)
    sitter = t.sits_out
    if sitter is not None:
        w.add_whists(sitter, g.declarer, amount)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{dealer}, the dealer, writes the talon premium: {n} trick × {price} = {whists} on {declarer}.",
                    "{dealer}, the dealer, writes the talon premium: {n} tricks × {price} = {whists} on {declarer}.",
                    g.talon_bonus,
                    dealer=t.name(sitter),
                    price=per_trick,
                    whists=whist_count(amount),
                    declarer=declarer,
                )
            )
        return
    each = half(amount)
    for seat in t.defenders(g.declarer):
        w.add_whists(seat, g.declarer, each)
        if w.explain is not None:
            w.explain.append(
                nmsg(
                    "{player} writes half the talon premium: {n} trick × {price} / 2 = {whists} on {declarer}.",
                    "{player} writes half the talon premium: {n} tricks × {price} / 2 = {whists} on {declarer}.",
                    g.talon_bonus,
                    player=t.name(seat),
                    price=per_trick,
                    whists=whist_count(each),
                    declarer=declarer,
                )
            )
