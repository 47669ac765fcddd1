"""Enters pot and direct deals through the app's pot entry in a real browser, as a player taps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from e2e.harness import has_text, settle, tap, text_of, visible


@dataclass(frozen=True)
class Deal:
    """One deal as a player enters it: the taps, in order (seats from 0)."""

    declarer: int
    suit: str = ""
    kind: str = "game"
    hand: bool = False
    roles: dict[int, str] = field(default_factory=dict)  # seat → play/drop/invite, in order said
    premium: str = ""
    tricks: dict[int, int] = field(default_factory=dict)  # the seats tapped (the last is filled)


class PotEntry:
    def __init__(self, page: Any, *, lang: str = "en", first: int = 1) -> None:
        from scorepad.core.i18n import catalog

        self.page = page
        # The header says "Deal 12: Anton deals." in the language's words: the part before the
        # dealer's name ("Сдача 12: сдаёт ") is what the next deal's header must start with.
        self.header = catalog(lang).gettext("Deal {n}: {dealer} deals.").partition("{dealer}")[0]
        self.number = first

    def tap(self, ident: str) -> None:
        """Tap once the screen is still: a tap on a screen about to be redrawn may be lost."""
        visible(self.page, ident)
        settle(self.page)
        tap(self.page, ident)

    def tap_after(self, before: str | None, ident: str) -> None:
        """Tap ``ident``, which the tap on ``before`` brings on the screen.  On a loaded machine
        a tap on a screen being redrawn is lost now and then: if ``ident`` does not come, tap
        ``before`` again (a choice tapped twice stays chosen)."""
        from playwright.sync_api import expect

        node = self.page.locator(f'[flt-semantics-identifier="{ident}"]').first
        for _ in range(2):
            if before is None:
                break
            try:
                expect(node).to_be_visible(timeout=8000)
                break
            except AssertionError:
                self.tap(before)
        self.tap(ident)

    def enter(self, d: Deal, preview: list[str], *, kinds: bool = True) -> None:
        """Tap the deal in, check that the preview says ``preview`` (the engine's sentences for
        the deal meant), and write it."""
        taps = [f"kind-{d.kind}"] if kinds else []
        taps.append(f"declarer-{d.declarer}")
        if d.suit:
            taps.append(f"suit-{d.suit}")
        if d.hand:
            taps.append("hand-yes")
        for seat, role in d.roles.items():  # each plays unless he says otherwise: his calls shown
            taps += [f"defender-{seat}", f"role-{seat}-{role}"]
        if d.premium:
            taps.append(f"premium-{d.premium}")
        for before, ident in zip([None, *taps], taps, strict=False):
            self.tap_after(before, ident)
        for seat, n in d.tricks.items():
            self.set_tricks(seat, n)
        settle(self.page)
        from playwright.sync_api import expect

        for k, line in enumerate(preview):
            has_text(self.page, f"preview-{k}", line)
        expect(self.page.locator('[flt-semantics-identifier^="preview-"]')).to_have_count(
            len(preview)
        )
        self.confirm()

    def set_tricks(self, seat: int, n: int) -> None:
        """One tap on the seat's picker.  The screen redrawn by the tap before may still show its
        old picker for a frame, and a tap on that one is lost: tap again until the count shows
        (a second tap on the same count changes nothing)."""
        from playwright.sync_api import expect

        visible(self.page, f"tricks-{seat}-{n}")
        count = self.page.locator(f'[flt-semantics-identifier="tricks-{seat}"]').first
        for _ in range(4):
            if text_of(self.page, f"tricks-{seat}") == str(n):
                try:  # the count stays (not an old screen's about to be replaced)
                    expect(count).to_have_text(str(n), timeout=1000)
                    self.page.wait_for_timeout(300)
                    if text_of(self.page, f"tricks-{seat}") == str(n):
                        return
                except AssertionError:
                    pass
            tap(self.page, f"tricks-{seat}-{n}")
            try:
                expect(count).to_have_text(str(n), timeout=4000)
            except AssertionError:
                continue
        has_text(self.page, f"tricks-{seat}", str(n))

    def confirm(self) -> None:
        from playwright.sync_api import expect

        tap(self.page, "confirm-deal")
        self.number += 1
        expect(self.page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            self.header.format(n=self.number), timeout=15000
        )


def previews(
    convention: str, names: list[str], deals: list[dict[str, Any]], *, lang: str = "en"
) -> list[list[str]]:
    """For each deal, what the entry's preview must say: its title and the engine's sentences."""
    from scorepad.app.pot.form import title
    from scorepad.core.i18n import catalog
    from scorepad.scoring.ledger.families import PotSession, replay_family
    from scorepad.scoring.ledger.ledger import explanations

    cat = catalog(lang)
    s = PotSession.model_validate(
        {"format": "scorepad-session/1", "players": names, "convention": convention, "deals": deals}
    )
    done = replay_family(s)
    return [
        [cat.render(title(s.deals[d.index], names)), *map(cat.render, explanations(d.postings))]
        for d in done.deals
    ]
