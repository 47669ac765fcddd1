"""Check a deal by its cards: the screen over :class:`~scorepad.app.dispute.form.DisputeForm`.

Four steps, each drawn from the form: the cards (a 32-card grid, suits in rows; tap cards, tap
whose they are), the auction (the bids the engine allows, the discard, the contract, the whist
calls), the play (whose turn it is and the cards he may play; another card is entered as
disputed; a claim between tricks), and the verdict in words.  The record is stored with the
deal (History reopens it) or written as a new deal from the deal entry.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...play.analysis import card_msg
from ...play.auction import MISERE, PASS, Bid
from ...play.cards import ALL_CARDS, RANKS, Suit
from ...play.record import RecordInvalid, dumps
from ...play.revoke import RevokeVerdict
from ...scoring.contract import Contract
from ...store import AnyDeal, AnyStored
from ..analyses import ANALYSES, Busy, revoke_lines
from ..frame.nav import register
from ..frame.registry import writer
from ..frame.shell import Shell
from ..frame.theme import TAP, card, choice, heading, primary, quiet, secondary
from ..session import Refused
from .form import TALON, DisputeForm, Place
from .start import Dispute

CALL_LABELS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half-whist")}
STEPS = (
    ("cards", N_("Cards")),
    ("auction", N_("Auction")),
    ("play", N_("Play")),
    ("verdict", N_("Verdict")),
)
# One light colour per place: a hand, the talon (the scheme's containers: readable when dark).
PLACE_COLOURS = (
    ft.Colors.PRIMARY_CONTAINER,
    ft.Colors.TERTIARY_CONTAINER,
    ft.Colors.SECONDARY_CONTAINER,
    ft.Colors.INVERSE_PRIMARY,
)


def dispute_screen(shell: Shell) -> ft.Control:
    d = shell.state.dispute
    assert isinstance(d, Dispute)
    f = d.form

    def tap(change: Callable[[], Any], *, advance: bool = False) -> Callable[[], None]:
        def handler() -> None:
            try:
                change()
            except (ValueError, RecordInvalid) as exc:
                shell.message = _refusal(shell, exc)
            else:
                shell.message = None
            step = d.step
            if advance:
                d.step = f.stage
            # The same step drawn again is diffed: the controls that stay keep their ids, so a
            # quick next tap still lands.
            shell.show(dispute_screen, diffed=d.step == step)

        return handler

    def go(step: str) -> Callable[[], None]:
        def handler() -> None:
            d.step = step
            shell.show(dispute_screen)

        return handler

    reached = [name for name, _ in STEPS].index(f.stage)
    steps = ft.Row(
        [
            sem(
                f"dispute-step-{name}",
                choice(d.step == name, shell.t(label), go(name), disabled=i > reached),
            )
            for i, (name, label) in enumerate(STEPS)
        ],
        wrap=True,
        spacing=4,
    )
    body = {"cards": _cards, "auction": _auction, "play": _play, "verdict": _verdict}[d.step]
    return ft.Column(
        [
            ft.Row(
                [
                    sem("dispute-back", quiet(shell.t(N_("Back")), lambda: shell.go(d.back))),
                    heading(shell.t(N_("Check a deal"))),
                ],
                wrap=True,
            ),
            steps,
            *body(shell, d, tap),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=8,
    )


Tap = Callable[..., Callable[[], None]]


def sem(identifier: str, control: ft.Control, *, label: str | None = None) -> ft.Semantics:
    """A testing id that is also the control's key: a diffed redraw replaces a control whose id
    changed instead of renaming it in place (the web client keeps a renamed node's old id)."""
    return ft.Semantics(identifier=identifier, key=identifier, content=control, label=label)


def _refusal(shell: Shell, exc: Exception) -> str:
    if isinstance(exc, RecordInvalid):
        return exc.render(shell.lang)
    message = getattr(exc, "message", None)
    if isinstance(message, Msg):
        return shell.render(message)
    return shell.t(N_("That cannot be done now."))


def _place_name(shell: Shell, f: DisputeForm, place: Place | str) -> str:
    if place == TALON:
        return shell.t(N_("Talon"))
    if place == "discard":
        return shell.t(N_("Discard"))
    return f.players[int(place)]


def short_marks(names: list[str]) -> list[str]:
    """Each name's mark in the card grid: its shortest prefix (2 or 3 letters) that no other
    name shares, a digit added where even 3 letters are shared ("Ta" was both Tanya and the
    talon; issue #37)."""
    out = []
    for k, name in enumerate(names):
        others = [n.casefold() for j, n in enumerate(names) if j != k]
        mark = ""
        for size in (2, 3):
            mark = name[:size]
            if not any(o.startswith(mark.casefold()) for o in others):
                break
        else:
            mark = name[:2] + str(k + 1)
        out.append(mark)
    return out


def _rank(shell: Shell, rank: int) -> str:
    return shell.render(card_msg(ALL_CARDS[rank]))[:-1]


def _bid_code(b: Bid) -> str:
    """``7S``, ``pass``, ``misere``: a bid's testing id part."""
    return b.code if isinstance(b, Contract) else b


def _card_button(
    shell: Shell, index: int, on_click: Callable[[], None], *, disputed: bool = False
) -> ft.Control:
    """A card to play, its hearts and diamonds red as on the grid (a disputed one in the
    error container's colours)."""
    red = ALL_CARDS[index].suit in (Suit.HEARTS, Suit.DIAMONDS)
    return ft.OutlinedButton(
        content=ft.Text(
            _card_text(shell, index),
            color=ft.Colors.RED_700 if red else ft.Colors.ON_SURFACE,
            weight=ft.FontWeight.BOLD,
        ),
        on_click=on_click,
        height=TAP,
        width=60,
        style=ft.ButtonStyle(
            padding=ft.Padding.symmetric(horizontal=0),
            bgcolor=ft.Colors.ERROR_CONTAINER if disputed else None,
        ),
    )


def _card_text(shell: Shell, index: int) -> str:
    return shell.render(card_msg(ALL_CARDS[index]))


def _cards(shell: Shell, d: Dispute, tap: Tap) -> list[ft.Control]:
    f = d.form
    places = f.places()
    colour = {p: PLACE_COLOURS[i % len(PLACE_COLOURS)] for i, p in enumerate(places)}
    marks = dict(zip(places, short_marks([_place_name(shell, f, p) for p in places]), strict=True))
    cell = 34 if not shell.wide else 52
    rows: list[ft.Control] = []
    for suit in Suit:
        red = suit in (Suit.HEARTS, Suit.DIAMONDS)
        ink = ft.Colors.RED_700 if red else ft.Colors.ON_SURFACE
        cells: list[ft.Control] = [ft.Text(suit.symbol, size=22, color=ink, width=22)]
        for rank in range(len(RANKS)):
            index = suit.index * 8 + rank
            this = ALL_CARDS[index]
            place = f.place_of(index)
            mark = ""
            if place is not None:
                mark = marks.get(place) or _place_name(shell, f, place)[:2]
            if index in f.discard:
                mark = "✕" + mark[:1]
            selected = index in f.selected
            cells.append(
                sem(
                    f"card-{this.code}",
                    ft.Container(
                        ft.Column(
                            [
                                ft.Text(_rank(shell, index), color=ink, weight=ft.FontWeight.BOLD),
                                ft.Text(mark, size=10),
                            ],
                            spacing=0,
                            tight=True,
                            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                        ),
                        width=cell,
                        height=TAP,
                        alignment=ft.Alignment.CENTER,
                        bgcolor=colour.get(place) if place is not None else None,
                        border=ft.Border.all(
                            3 if selected else 1,
                            ft.Colors.PRIMARY if selected else ft.Colors.OUTLINE_VARIANT,
                        ),
                        border_radius=6,
                        on_click=tap(lambda i=index: f.tap_card(i)),
                    ),
                    label=_card_text(shell, index),
                )
            )
        rows.append(ft.Row(cells, spacing=2))
    whose: list[ft.Control] = []
    for p in places:
        label = shell.t(
            N_("{place} {n}/{size}"), place=_place_name(shell, f, p), n=f.count(p), size=f.size(p)
        )
        whose.append(
            sem(
                f"give-{p}",
                ft.FilledTonalButton(
                    label,
                    on_click=tap(lambda p=p: f.give(p), advance=False),
                    disabled=not f.can_give(p),
                    height=TAP,
                    style=ft.ButtonStyle(bgcolor=colour[p]),
                ),
            )
        )
    if f.declarer is not None:
        whose.append(
            sem(
                "give-discard",
                secondary(
                    shell.t(
                        N_("{place} {n}/{size}"),
                        place=shell.t(N_("Discard")),
                        n=len(f.discard),
                        size=2,
                    ),
                    tap(f.give_discard),
                    disabled=not f.selected,
                ),
            )
        )
    rest = [
        sem(
            f"rest-{p}",
            secondary(
                shell.t(N_("The rest are {place}'s"), place=_place_name(shell, f, p)),
                tap(lambda p=p: f.give_rest(p)),
            ),
        )
        for p in places
        if f.can_give_rest(p)
    ]
    hint = (
        shell.t(N_("{n} chosen: tap whose they are."), n=len(f.selected))
        if f.selected
        else shell.t(N_("Tap cards, then whose they are."))
    )
    out: list[ft.Control] = [
        card(sem("dispute-hint", ft.Text(hint)), *rows, spacing=2),
        card(ft.Row(whose, wrap=True, spacing=4), *([ft.Row(rest, wrap=True)] if rest else [])),
    ]
    if f.dealt:
        out.append(
            sem(
                "dispute-to-auction",
                primary(shell.t(N_("Next: the auction")), _next(d, shell, "auction")),
            )
        )
    return out


def _next(d: Dispute, shell: Shell, step: str) -> Callable[[], None]:
    def handler() -> None:
        d.step = step
        shell.message = None
        shell.show(dispute_screen)

    return handler


def _bid_label(shell: Shell, b: Bid) -> str:
    if b == PASS:
        return shell.t(N_("pass"))
    if b == MISERE:
        return shell.t(N_("misère"))
    assert isinstance(b, Contract)
    return b.symbol


def _auction(shell: Shell, d: Dispute, tap: Tap) -> list[ft.Control]:
    f = d.form
    a = f.auction()
    said = ", ".join(f"{f.players[s]}: {_bid_label(shell, b)}" for s, b in a.said) or "—"
    out: list[ft.Control] = [sem("auction-said", ft.Text(said))]
    if not a.finished:
        speaker = f.players[a.to_speak or 0]
        out.append(
            ft.Text(shell.t(N_("{player} is to speak"), player=speaker), weight=ft.FontWeight.BOLD)
        )
        out.append(
            ft.Row(
                [
                    sem(
                        f"bid-{_bid_code(b)}",
                        choice(False, _bid_label(shell, b), tap(lambda b=b: f.bid(b))),
                    )
                    for b in f.bids()
                ],
                wrap=True,
                spacing=4,
            )
        )
    if a.said:
        out.append(sem("bid-undo", quiet(shell.t(N_("Undo the last bid")), tap(f.undo_bid))))
    if a.finished and f.declarer is not None:
        contracts = f.contracts()
        if len(contracts) > 1:
            out.append(
                card(
                    ft.Row(
                        [
                            sem(
                                f"contract-{_bid_code(c)}",
                                choice(
                                    c == f.contract,
                                    _bid_label(shell, c),
                                    tap(lambda c=c: f.declare(c)),
                                ),
                            )
                            for c in contracts
                        ],
                        wrap=True,
                        spacing=4,
                    ),
                    title=shell.t(N_("The contract")),
                )
            )
        hand = sorted([c.index for c in f.hand(f.declarer)] + f.talon)
        pack = ALL_CARDS
        out.append(
            card(
                ft.Row(
                    [
                        sem(
                            f"discard-{pack[c].code}",
                            choice(
                                c in f.discard,
                                _card_text(shell, c),
                                tap(lambda c=c: f.toggle_discard(c)),
                            ),
                        )
                        for c in hand
                    ],
                    wrap=True,
                    spacing=4,
                ),
                title=shell.t(
                    N_("The discard: two cards of {player}'s hand and the talon"),
                    player=f.players[f.declarer],
                ),
            )
        )
        who, options = f.call_options()
        calls = ", ".join(shell.t(CALL_LABELS[str(c)]) for c in f.calls)
        rows: list[ft.Control] = [ft.Text(calls or "—")]
        if who is not None:
            rows.append(ft.Text(shell.t(N_("{player}: whist or pass?"), player=f.players[who])))
            rows.append(
                ft.Row(
                    [
                        sem(
                            f"call-{c}",
                            choice(
                                False, shell.t(CALL_LABELS[str(c)]), tap(lambda c=c: f.say(str(c)))
                            ),
                        )
                        for c in options
                    ],
                    spacing=4,
                    wrap=True,
                )
            )
        if f.calls:
            rows.append(
                sem("call-undo", quiet(shell.t(N_("Undo the last call")), tap(f.undo_call)))
            )
        if isinstance(f.contract, Contract) and (who is not None or f.calls):
            out.append(card(*rows, title=shell.t(N_("Whist calls"))))
    missing = f.bidding_missing()
    if missing is not None:
        out.append(ft.Text(shell.render(missing), italic=True))
    out.append(
        sem(
            "dispute-to-play",
            primary(
                shell.t(N_("Next: the play")),
                tap(f.confirm_bidding, advance=True),
                disabled=missing is not None or not f.dealt,
            ),
        )
    )
    return out


def _play(shell: Shell, d: Dispute, tap: Tap) -> list[ft.Control]:
    f = d.form
    out: list[ft.Control] = []
    for k, trick in enumerate(f.tricks(), start=1):
        cards = ", ".join(f"{f.players[s]} {_card_text(shell, c.index)}" for s, c in trick)
        out.append(sem(f"trick-{k}", ft.Text(shell.t(N_("Trick {k}: {cards}"), k=k, cards=cards))))
    seat = f.to_play()
    if seat is not None:
        out += _to_play(shell, d, tap, seat)
    if f.claiming:
        out.append(_claim(shell, d, tap))
    elif f.can_claim():
        out.append(_claimants(shell, d, tap))
    if f.can_play_on():
        # After the revoke's trick: the count the revoke rule needs, and the analysis.
        out.append(
            sem(
                "play-on",
                secondary(shell.t(N_("Play on to the end")), tap(f.continue_play, advance=True)),
            )
        )
    if f.played or f.claim_by is not None:
        out.append(sem("card-undo", quiet(shell.t(N_("Undo")), tap(f.undo_card, advance=True))))
    if f.ready:
        out.append(
            sem(
                "dispute-to-verdict",
                primary(shell.t(N_("The verdict")), _next(d, shell, "verdict")),
            )
        )
    return out


def _to_play(shell: Shell, d: Dispute, tap: Tap, seat: int) -> list[ft.Control]:
    """Who plays, the cards he may play, and the others (a disputed play) behind a tap."""
    f = d.form
    out: list[ft.Control] = [
        sem(
            "to-play",
            ft.Text(
                shell.t(N_("{player} to play"), player=f.players[seat]),
                weight=ft.FontWeight.BOLD,
                size=18,
            ),
        ),
        _cards_row(shell, d, tap, "play", f.offered()),
    ]
    if not f.others():
        return out
    if d.show_others:
        out.append(ft.Text(shell.t(N_("Another card, not allowed here (the audit will say why):"))))
        out.append(_cards_row(shell, d, tap, "disputed", f.others()))
    else:
        out.append(
            sem(
                "show-disputed",
                quiet(shell.t(N_("Another card was played…")), tap(d.show_other_cards)),
            )
        )
    return out


def _cards_row(shell: Shell, d: Dispute, tap: Tap, ident: str, cards: Any) -> ft.Control:
    """A button a card (``disputed``: one outside the offer); a tap plays it."""
    return ft.Row(
        [
            sem(
                # Spelled whole, so the testing ids stay findable in the code (docs/testing.md).
                f"disputed-{c.code}" if ident == "disputed" else f"play-{c.code}",
                _card_button(
                    shell,
                    c.index,
                    tap(lambda c=c: d.form.play(c.index), advance=True),
                    disputed=ident == "disputed",
                ),
            )
            for c in cards
        ],
        wrap=True,
        spacing=4,
    )


def _claim(shell: Shell, d: Dispute, tap: Tap) -> ft.Control:
    """A claim being entered: each seat's tricks of the rest (the last one's the rest), Confirm."""
    f = d.form
    rows: list[ft.Control] = [
        ft.Text(
            shell.t(
                N_("{player} claims: of the last {rest} tricks"),
                player=f.players[f.claim_by or 0],
                rest=f.claim_rest(),
            )
        )
    ]
    seats = f.claim_seats()
    for s in seats:
        if s == seats[-1]:
            rows.append(ft.Text(shell.t(N_("{player}: {n}"), player=f.players[s], n=f.claim[s])))
            continue
        rows.append(ft.Text(f.players[s]))
        rows.append(
            ft.Row(
                [
                    sem(
                        f"claim-{s}-{n}",
                        choice(
                            f.claim[s] == n,
                            str(n),
                            tap(lambda s=s, n=n: f.set_claim(s, n)),
                            width=TAP,
                        ),
                    )
                    for n in f.claim_choices(s)
                ],
                wrap=True,
                spacing=4,
            )
        )
    rows.append(
        sem(
            "claim-confirm",
            primary(shell.t(N_("Confirm the claim")), tap(f.confirm_claim, advance=True)),
        )
    )
    return card(*rows, title=shell.t(N_("Claim")))


def _claimants(shell: Shell, d: Dispute, tap: Tap) -> ft.Control:
    """Who may claim the rest of the tricks: a button each."""
    f = d.form
    return ft.Row(
        [
            sem(
                f"claim-by-{s}",
                secondary(
                    shell.t(N_("{player} claims"), player=f.players[s]),
                    tap(lambda s=s: f.start_claim(s)),
                ),
            )
            for s in f.claimants()
        ],
        wrap=True,
        spacing=4,
    )


def _verdict(shell: Shell, d: Dispute, tap: Tap) -> list[ft.Control]:
    f = d.form
    found, said = _verdict_of(d)
    out: list[ft.Control] = [
        sem(
            "verdict",
            ft.Column([ft.Text(shell.render(m)) for m in said], spacing=4),
        )
    ]
    if isinstance(found, RevokeVerdict):
        out.append(_best_play(shell, d))
    if f.can_play_on():  # the verdict asks for the count: the button beside it
        out.append(
            sem(
                "play-on",
                primary(shell.t(N_("Play on to the end")), tap(f.continue_play, advance=True)),
            )
        )
    may_write = shell.sid is not None and shell.access.may_write
    if may_write and d.deal is not None:
        out.append(
            sem(
                "dispute-save",
                primary(shell.t(N_("Keep the cards with the deal")), lambda: _save(shell, d)),
            )
        )
    if may_write and d.deal is not None and isinstance(found, RevokeVerdict) and found.entry:
        out.append(
            sem(
                "dispute-correct",
                primary(
                    shell.t(N_("Write the deal as the revoke rule gives")),
                    lambda: _correct(shell, d, found.entry),
                ),
            )
        )
    if may_write and d.new_deal and found is not None and found.entry:
        out.append(
            sem(
                "dispute-write",
                primary(shell.t(N_("Write this deal")), lambda: _write(shell, d, found.entry)),
            )
        )

    def toggle() -> None:
        d.show_record = not d.show_record
        shell.show(dispute_screen)

    async def save_file() -> None:
        # The browser downloads it (a phone shares it from there); "Open a file…" reads it back.
        await ft.FilePicker().save_file(
            file_name=_file_name(d),
            src_bytes=dumps(f.shared()).encode("utf-8"),
            file_type=ft.FilePickerFileType.CUSTOM,  # for allowed_extensions to count
            allowed_extensions=["json"],
        )

    out.append(
        sem(
            "dispute-share", secondary(shell.t(N_("The record to share (scorepad-deal/1)")), toggle)
        )
    )
    out.append(sem("dispute-save-file", secondary(shell.t(N_("Save as a file")), save_file)))
    if d.show_record:
        out.append(sem("dispute-record", ft.Text(dumps(f.shared()), selectable=True, size=11)))
    return out


def _best_play(shell: Shell, d: Dispute) -> ft.Control:
    """After a revoke's verdict: what best play made, beside the sheet (issue #37).  The
    double-dummy search runs in the analyses' workers, bounded as every analysis is (never on
    the page's loop, and not for a viewer's page); the screen shows it when it is done."""
    f = d.form
    text = dumps(f.shared())
    key = (text, repr(f.sheet))
    if d.best is not None and d.best[0] == key:
        said: list[Msg] = d.best[1]
    elif not shell.access.may_write:
        said = [
            msg(
                N_(
                    "Only a device that writes at this table may analyse deals: enter the table PIN first."
                )
            )
        ]
    else:
        said = [msg(N_("Working out what best play makes…"))]
        if d.best_asked != key:
            d.best_asked = key
            sheet = dict(f.sheet) if isinstance(f.sheet, dict) else None

            async def work() -> None:
                try:
                    lines = await ANALYSES.run(shell.page, revoke_lines, text, sheet)
                except Busy as busy:
                    lines = [busy.message]
                    d.best_asked = None  # asked again at the next drawing
                else:
                    d.best = (key, lines)
                if shell.state.dispute is d and d.step == "verdict":
                    shell.show(dispute_screen, diffed=True)

            try:  # drawn in an event's handler: on the page's loop (a test's page has no other)
                d.best_task = asyncio.get_running_loop().create_task(work())
            except RuntimeError:  # drawn from another thread (a live redraw): the page's loop
                shell.page.run_task(work)
    return sem(
        "revoke-best",
        ft.Column(
            [
                ft.Text(shell.t(N_("Best play")), weight=ft.FontWeight.BOLD),
                *(ft.Text(shell.render(m)) for m in said),
            ],
            spacing=4,
        ),
    )


def _verdict_of(d: Dispute) -> tuple[Any, list[Msg]]:
    """The form's verdict, computed once per record and sheet: every write at the table redraws
    this page, and the verdict's double-dummy search took the event loop each time."""
    f = d.form
    try:
        key = (dumps(f.shared()), repr(f.sheet), tuple(f.players))
    except ValueError:  # a record that cannot be made yet: the form says why, uncached
        return f.verdict()
    if d.verdict is None or d.verdict[0] != key:
        d.verdict = (key, f.verdict())
    found, said = d.verdict[1]
    return found, list(said)


def _file_name(d: Dispute) -> str:
    """``deal-3.json`` for the sheet's deal 3, ``deal.json`` for a record not on the sheet."""
    return "deal.json" if d.deal is None else f"deal-{d.deal[1] + 1}.json"


def _save(shell: Shell, d: Dispute) -> None:
    """The record kept with the sheet's deal (a new revision of it; the deal's writing as is)."""
    assert d.deal is not None and shell.sid is not None
    deal_id, index = d.deal
    stored = shell.stored()
    deal = d.form.with_record(stored.journal.live[index].deal)
    seen = stored.revision
    why = shell.t(N_("the cards entered"))
    if shell.told(_edit(shell, deal_id, deal, reason=why, seen=seen), seen=seen):
        shell.message = shell.t(N_("The cards are kept with deal {n}."), n=index + 1)
    shell.show(dispute_screen)


def _correct(shell: Shell, d: Dispute, entry: dict[str, Any]) -> None:
    """The sheet's deal written as the revoke rule gives, with the cards (a new revision)."""
    assert d.deal is not None and shell.sid is not None
    deal_id, index = d.deal
    seen = shell.stored().revision
    why = shell.t(N_("the cards entered: a revoke"))
    deal = d.form.with_record(entry)
    if shell.told(_edit(shell, deal_id, deal, reason=why, seen=seen), seen=seen):
        d.form.sheet = entry
        shell.message = shell.t(N_("Deal {n} is written as the revoke rule gives."), n=index + 1)
    shell.show(dispute_screen)


def _write(shell: Shell, d: Dispute, entry: dict[str, Any]) -> None:
    """From the deal entry: the audited deal written, with its record."""
    assert shell.sid is not None
    stored = shell.stored()
    seen = stored.revision
    deal = d.form.with_record(entry)
    # A club table writes through its night (who wrote it).
    written = shell.session.add(deal, seen=seen, via=writer(shell, shell.sid))
    if shell.told(written, seen=seen):
        shell.go("history")
        return
    shell.show(dispute_screen)


def _edit(
    shell: Shell, deal_id: int, deal: AnyDeal, *, reason: str, seen: int
) -> AnyStored | Refused:
    """A deal written again with its cards: through a club table's night where there is one (a
    player's rewrite waits for another player's confirmation; the director's is a correction)."""
    via = writer(shell, shell.sid or 0)
    return shell.session.edit(deal_id, deal, reason=reason, seen=seen, via=via)


register("dispute", dispute_screen)
__all__ = ["dispute_screen"]
