"""The families' deal entry on one phone screen (issue #27), in a real browser at 360×740, in
English and in Russian: a whole game (the declarer, the contract, each defender's call, the
declarer's tricks) entered without scrolling, Write and the preview above it inside the window;
a count that cannot be chosen says why when tapped, there; and the family's own kinds of deal
(the bula's refe and pik without contra, the Prefa's both-pass game, the pot's all pass and bete)
on the same screen.  Screenshots: ``screenshots/family-entry-<family>-<lang>-*.png``.

Then every family's variants in each of the six languages on one served app (four players with
the dealer sitting out, the bula's contra chain, the pot's Bettel, Swabian and American deals):
nothing beyond the 360 px screen and no list to scroll (``nothing_beyond``: a control clipped
by a scrolled list would otherwise pass for seen); and the taps each family's common deals take,
counted by the test's tap helper and checked against the table in docs/app.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e import harness
from e2e.harness import (
    box_of,
    has_text,
    on_one_screen,
    redrawn,
    running_app,
    shot,
    tap,
    visible,
)
from support import seats
from support.evenings import BALKAN_PLAYERS, PREFA_PLAYERS, import_evening
from test_pot_e2e import NAMES as POT_PLAYERS

from scorepad.core.i18n import catalog, msg
from scorepad.store import Store

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture


def _part(params: dict[str, Any]) -> str:
    """The file in four parts for CI's two workers (conftest.py), by language: English (with the
    taps), Russian, then two languages each; about 13, 10, 14 and 14 tests, so that no part
    is left running alone at the end."""
    lang = params.get("lang", "en")
    return {"en": "en", "ru": "ru", "de": "de", "sr_Latn": "de"}.get(lang, "el")


XDIST_SPLIT = _part

SESSIONS = {
    "bula": (BALKAN_PLAYERS, "balkan", {"start_bula": 30}),
    "kassa": (PREFA_PLAYERS, "prefa", {}),
    "pot": (POT_PLAYERS, "austrian", {}),
}
# The game each family's test enters (the first dealer is seat 0; seat 1 declares): what the
# declarer plays, his tricks, the count a defender cannot then take, and the defenders' call.
GAMES = {
    "bula": (["bid-3"], 7, 4, "follow"),
    "kassa": (["contract-7S"], 8, 3, "whist"),
    "pot": (["suit-H"], 7, 4, "play"),
}
REFUSED = {
    "en": "{n} is not possible: {player} has {k}",
    "ru": "{n} не получится: {player} — уже {k}",
}


def count(page: Any, ident: str) -> int:
    return int(page.locator(f'[flt-semantics-identifier="{ident}"]').count())


def in_window(page: Any, ident: str) -> None:
    """``ident`` lies inside the window, above the phone's bottom bar, without scrolling."""
    box, bar = box_of(page, ident), box_of(page, "nav-entry")
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 0.5, (ident, box, bar)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360.5, (ident, box)


def header(page: Any, n: int, ru: bool) -> None:
    from playwright.sync_api import expect

    expect(page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
        f"{'Сдача' if ru else 'Deal'} {n}", timeout=15000
    )


def write(page: Any) -> None:
    """Write, once the form is complete (the button enabled: the preview has no problem)."""
    from playwright.sync_api import expect

    expect(page.locator('[flt-semantics-identifier="confirm-deal"]').first).to_be_enabled(
        timeout=15000
    )
    redrawn(page, "confirm-deal")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("family", ["bula", "kassa", "pot"])
def test_a_family_game_on_one_phone_screen(
    phone: harness.KeptPage, served: tuple[str, Path], family: str, lang: str
) -> None:
    family_game(phone, served[1], family, lang)


def family_game(phone: harness.KeptPage, db: Path, family: str, lang: str) -> None:
    ru = lang == "ru"
    names, convention, overrides = SESSIONS[family]
    # A new session of its own on the file's app, opened from the list of sessions.
    sid = new_session(db, names, convention, overrides)

    def snap(step: str) -> None:
        nothing_beyond(page)
        page.mouse.move(200, 20)  # no button under the pointer (a hovered one looks pressed)
        shot(page, f"family-entry-{family}-{lang}-{step}")

    page = phone.sessions(lang)
    if ru:
        page.get_by_text("Новая пулька").wait_for(timeout=10000)
    redrawn_open(page, sid)
    header(page, 1, ru)
    snap("0-empty")

    # A whole game: seat 1 declares, both defenders join, his tricks counted.
    contract, made, refused, call = GAMES[family]
    redrawn(page, "declarer-1")
    for ident in contract:
        visible(page, ident)
        redrawn(page, ident)
    defenders = [s for s in range(3) if s != 1]
    for s in defenders:
        ident = f"role-{s}-{call}" if family == "pot" else f"call-{s}-{call}"
        if family == "pot" and count(page, ident) == 0:
            continue  # a pot defender plays unless he says otherwise
        redrawn(page, ident)
    if family == "bula":
        redrawn(page, "contra-0")
    visible(page, f"tricks-1-{made}")
    redrawn(page, f"tricks-1-{made}")
    has_text(page, "tricks-1", str(made))
    # The defender before the last has a picker; the last is filled in.
    middle = next(s for s in defenders if count(page, f"tricks-{s}-0"))
    grid = ["contract-chosen"] + (["hand-yes"] if family == "pot" else [])
    on_one_screen(page, [*grid, "tricks-1-10", f"tricks-{middle}-10"])
    snap("1-game")

    # A count that cannot be: tapped anyway, it says why, where the preview was.
    redrawn(page, f"tricks-{middle}-{refused}")
    said = REFUSED[lang].format(n=refused, player=names[1], k=made)
    has_text(page, "message", said)
    in_window(page, "message")
    in_window(page, "confirm-deal")
    has_text(page, "tricks-1", str(made))
    snap("2-refused")
    redrawn(page, f"tricks-{middle}-0")
    on_one_screen(page, ["tricks-1-10"])
    write(page)
    header(page, 2, ru)

    # The family's own kinds, on the same screen.
    if family == "bula":
        redrawn(page, "declarer-2")
        on_one_screen(page, ["kind-allpass", "bid-2", "kind-pik_no_contra"])
        snap("3-bids")
        redrawn(page, "kind-allpass")
        on_one_screen(page, ["kind-allpass", "declarer-0"])
        snap("4-refe")
    elif family == "kassa":
        redrawn(page, "declarer-2")
        on_one_screen(page, ["contract-6S", "contract-10H"])
        snap("3-grid")
        redrawn(page, "contract-6S")
        for s in (0, 1):
            redrawn(page, f"call-{s}-pass")
        # The calls said, side by side in one row.
        has_text(page, "defender-0", f"{names[0]}: {'пас' if ru else 'pass'}")
        on_one_screen(page, ["contract-chosen", "defender-0", "defender-1"])
        snap("4-both-pass")
    else:
        redrawn(page, "kind-allpass")
        on_one_screen(page, ["kind-allpass", "kind-concede", "kind-game"])
        snap("3-allpass")
    write(page)
    header(page, 3, ru)


def redrawn_open(page: Any, sid: int) -> None:
    from e2e.harness import tap

    tap(page, f"session-open-{sid}")
    visible(page, "deal-header")


# --- every family's variants, four players, every language (issue #27) ---------------------------

LANGS = ["en", "ru", "de", "sr_Latn", "sr_Cyrl", "el"]
# A session a case plays in: its players (four: the dealer sits out) and its convention.
CASES: dict[str, tuple[list[str], str, dict[str, Any]]] = {
    "bula-contra": (BALKAN_PLAYERS, "balkan", {"start_bula": 30}),
    "bula-four": ([*BALKAN_PLAYERS, "Dragana"], "balkan", {"start_bula": 30}),
    "kassa-four": ([*PREFA_PLAYERS, "Dimitra"], "prefa", {}),
    "pot-four": ([*POT_PLAYERS, "Dietrich"], "austrian", {}),
    "pot-bettel": (POT_PLAYERS, "illustrated", {}),
    "pot-swabian": (POT_PLAYERS, "swabian", {}),
    "pot-american": (POT_PLAYERS, "american", {}),
    # The taps each kind of deal takes (below): three players.
    "taps-bula": (BALKAN_PLAYERS, "balkan", {"start_bula": 30}),
    "taps-kassa": (PREFA_PLAYERS, "prefa", {}),
    "taps-pot": (POT_PLAYERS, "austrian", {}),
    "taps-illustrated": (POT_PLAYERS, "illustrated", {}),
    "taps-swabian": (POT_PLAYERS, "swabian", {}),
    "taps-american": (POT_PLAYERS, "american", {}),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One app for every case below: each case imports its own session before it opens it."""
    with running_app(tmp_path_factory.mktemp("families") / "screens.db") as found:
        yield found


@pytest.fixture(scope="module")
def phone(browser: Any, served: tuple[str, Path]) -> Iterator[harness.KeptPage]:
    """The phone every test below opens its own new session on (harness.KeptPage: one page load
    for the file instead of one a test)."""
    kept = harness.KeptPage(browser, served[0])
    yield kept
    kept.discard()


def new_session(db: Path, names: list[str], convention: str, overrides: dict[str, Any]) -> int:
    with Store(db) as store:
        return import_evening(store, names, convention, overrides)


def nothing_beyond(page: Any) -> None:
    """Every control of the entry lies inside the phone's screen: none wider than the window,
    none below the bottom bar (nothing to scroll to)."""
    bar = box_of(page, "nav-entry")
    out = page.evaluate(
        """([width, bottom]) => [...document.querySelectorAll('[flt-semantics-identifier]')]
            .filter(n => !n.getAttribute('flt-semantics-identifier').startsWith('nav-'))
            .map(n => [n.getAttribute('flt-semantics-identifier'), n.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.left < -0.5 || r.right > width + 0.5
                                                || r.top < -0.5 || r.bottom > bottom + 0.5))
            .map(([id, r]) => `${id} ${r.left},${r.top} ${r.width}x${r.height}`)""",
        [page.viewport_size["width"], bar["y"]],
    )
    # A control clipped by a scrolled list shows only its visible part: the list itself says
    # whether anything lies beyond it.
    # (The preview pinned above Write keeps its height and scrolls a long explanation: not here.)
    out += page.evaluate(
        """(footer) => [...document.querySelectorAll('flt-semantics')]
            .filter(n => ['scroll', 'auto'].includes(getComputedStyle(n).overflowY)
                         && n.scrollHeight > n.clientHeight + 1
                         && n.getBoundingClientRect().top < footer - 1)
            .map(n => `a list to scroll: ${n.scrollHeight} in ${n.clientHeight}`)""",
        footer_top(page),
    )
    if out:
        harness._on_failure(page, "beyond")
    assert not out, out


def footer_top(page: Any) -> float:
    """Where the pinned footer begins: the preview, or the refusal shown in its place."""
    for ident in ("preview", "message", "confirm-deal"):
        if count(page, ident):
            return box_of(page, ident)["y"]
    raise AssertionError("the entry has no Write")


class Walk:
    """A case's taps on the entry, in one language: each waits for the redraw it causes; a
    check that the screen needs no scrolling and a screenshot where the test says."""

    def __init__(self, page: Any, case: str, lang: str) -> None:
        self.page, self.case, self.lang = page, case, lang
        self.cat = catalog(lang)
        self.taps = 0

    def t(self, text: str, **args: Any) -> str:
        return self.cat.render(msg(text, **args))

    def __call__(self, *idents: str) -> None:
        for ident in idents:
            visible(self.page, ident)
            redrawn(self.page, ident)
            self.taps += 1

    def take(self) -> int:
        n, self.taps = self.taps, 0
        return n

    def fits(self, step: str, idents: list[str]) -> None:
        """The controls named and Write with the preview on one screen, nothing beyond it."""
        nothing_beyond(self.page)
        on_one_screen(self.page, idents)
        self.page.mouse.move(200, 20)  # no button under the pointer (a hovered one looks pressed)
        shot(self.page, f"family-entry-{self.case}-{self.lang}-{step}")

    def header(self, n: int) -> None:
        from playwright.sync_api import expect

        expect(self.page.locator('[flt-semantics-identifier="deal-header"]').first).to_contain_text(
            self.t("Deal {n}", n=n), timeout=15000
        )

    def write(self, n: int) -> None:
        """Write the complete deal: the next deal's number in the heading."""
        write(self.page)
        self.taps += 1
        self.header(n + 1)


def opened(phone: harness.KeptPage, db: Path, case: str, lang: str) -> Walk:
    """The phone at 360×740 in ``lang`` with the case's new session open on its first deal."""
    sid = new_session(db, *CASES[case])
    walk = Walk(phone.sessions(lang), case, lang)
    tap(walk.page, f"session-open-{sid}")
    walk.header(1)
    return walk


def seats_shown(page: Any, prefix: str, seats: range | list[int]) -> list[int]:
    return [s for s in seats if count(page, f"{prefix}-{s}")]


def bula_contra(w: Walk) -> None:
    """Boris declares 3 (his bid's grid folded), both follow; the five contra levels, then who
    said the rekontra's kontra, then the tricks."""
    w("declarer-1", "bid-3")
    w.fits("0-bid", ["contract-chosen", "call-0-follow", "call-2-pass"])
    w("call-2-follow", "call-0-follow")
    w.fits("1-contra-levels", ["contra-0", "contra-2", "contra-4", "contract-chosen"])
    w("contra-2")
    sayer = seats_shown(w.page, "contra-by", [0, 2])[0]
    w.fits("2-contra-by", ["contra-said", f"contra-by-{sayer}", "contra-4"])
    w(f"contra-by-{sayer}")
    w("tricks-1-7", "tricks-2-2")
    w.fits("3-tricks", ["contra-said", "tricks-1-10", "tricks-2-10"])
    w.write(1)


def four_game(first: str, contract: str, call: str | None, made: int) -> Any:
    """Seat 0 deals and sits out; seat 2 declares ``contract``, the defenders (3, 1) say
    ``call``, their tricks as the rest."""

    def walk(w: Walk) -> None:
        w.fits("0-empty", ["declarer-1", "declarer-3"])
        w("declarer-2")
        if first:
            w(first)
        w(contract)
        if call:
            for s in (3, 1):
                w(f"call-{s}-{call}")
        if w.case == "bula-four":
            w("contra-0")
        w(f"tricks-2-{made}")
        middle = seats_shown(w.page, "tricks", [3, 1])
        w(f"tricks-{middle[0]}-1")
        said = ["defender-3", "defender-1"] if w.case == "pot-four" else []
        w.fits("1-game", ["contract-chosen", *said, "tricks-2-10", f"tricks-{middle[0]}-10"])
        w.write(1)
        # The next dealer, seat 1, sits out: seat 0 is back in the declarers' row.
        w.fits("2-next", ["declarer-0", "declarer-2", "declarer-3"])
        assert count(w.page, "declarer-1") == 0

    return walk


def pot_bettel(w: Walk) -> None:
    """Illustrated: Brigitte's Bettel, contra by Maximiliane, recontra; no trick."""
    w.fits("0-kinds", ["kind-game", "kind-nonsuit", "kind-concede", "kind-allpass"])
    w("kind-nonsuit", "declarer-1")
    w.fits("1-contracts", ["contract-bettel", "contract-open_durchmarsch"])
    w("contract-bettel", "contra-2", "recontra")
    w("tricks-1-0")
    w.fits(
        "2-contra",
        ["contract-chosen", "hand-yes", "contra-0", "contra-2", "recontra", "tricks-1-10"],
    )
    w.write(1)


def pot_swabian(w: Walk) -> None:
    """Swabian: Brigitte bids 4 (hearts) from the hand, Anton's contra; her tricks."""
    w.fits("0-bids", ["declarer-0", "declarer-2"])
    w("declarer-1")
    w.fits("1-bids", ["bid-2", "bid-7", "hand-yes"])
    w("bid-4", "hand-yes", "contra-0")
    w("tricks-1-6")
    w.fits(
        "2-contra",
        ["contract-chosen", "hand-yes", "contra-0", "contra-2", "recontra", "tricks-1-10"],
    )
    w.write(1)


def pot_american(w: Walk) -> None:
    """American: Brigitte's spades, a chip each from the others in the second round; her tricks."""
    w("declarer-1", "suit-S")
    w("chips-0-more", "chips-2-more")
    w("tricks-1-6")
    w.fits("1-game", ["contract-chosen", "chips-0-more", "chips-2-less", "tricks-1-10"])
    w.write(1)


WALKS: dict[str, Any] = {
    "bula-contra": bula_contra,
    "bula-four": four_game("", "bid-3", "follow", 7),
    "kassa-four": four_game("", "contract-7S", "whist", 8),
    "pot-four": four_game("", "suit-H", None, 7),
    "pot-bettel": pot_bettel,
    "pot-swabian": pot_swabian,
    "pot-american": pot_american,
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("taps-")])
def test_each_family_variant_on_one_phone_screen_in_every_language(
    phone: harness.KeptPage, served: tuple[str, Path], case: str, lang: str
) -> None:
    """Four players (the dealer sitting out), the bula's contra chain, the pot's Bettel, Swabian
    and American deals, in each of the app's languages: at 360×740 every step of the deal
    needs no scrolling, Write and the preview in the window, no control beyond the screen.
    Screenshots: ``screenshots/family-entry-<case>-<lang>-*.png``."""
    WALKS[case](opened(phone, served[1], case, lang))


# --- the taps each kind of deal takes, in each family (docs/app.md's table) ------------------------

FAMILY_TAPS_HEAD = "| Preset | Deal | Taps |"


def readme_family_taps() -> dict[tuple[str, str], int]:
    """The tap counts docs/app.md states (its table under ``FAMILY_TAPS_HEAD``)."""
    text = (harness.ROOT / "docs" / "app.md").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines()]
    rows: dict[tuple[str, str], int] = {}
    for line in lines[lines.index(FAMILY_TAPS_HEAD) + 2 :]:
        if not line.startswith("|"):
            break
        preset, kind, n = (cell.strip().strip("`") for cell in line.strip("|").split("|"))
        rows[(preset, kind)] = int(n)
    return rows


def defenders_of(declarer: int) -> list[int]:
    """A declarer's opponents at a table of three, from his left (the engine's seating: with
    three, nobody sits out, whoever deals)."""
    return seats.family_defenders(3, 0, declarer)


def game(w: Walk, declarer: int, contract: str, call: str | None) -> None:
    """A declared game: the declarer, the contract, each defender's ``call`` (none: the pot's
    defenders play unless they say otherwise)."""
    w(f"declarer-{declarer}", contract)
    if call:
        for s in defenders_of(declarer):
            w(f"call-{s}-{call}")


def counts(w: Walk, declarer: int, tricks: tuple[int, int]) -> None:
    """The declarer's tricks, then the defender's who has a picker (the other's is the rest)."""
    w(f"tricks-{declarer}-{tricks[0]}")
    middle = seats_shown(w.page, "tricks", [s for s in defenders_of(declarer)])
    picked = [s for s in middle if count(w.page, f"tricks-{s}-0")]
    if picked:
        w(f"tricks-{picked[0]}-{tricks[1]}")


def bula_taps(w: Walk) -> dict[str, int]:
    done: dict[str, int] = {}
    game(w, 1, "bid-3", "follow")  # Ana deals: Boris's karo, both follow, made
    w("contra-0")
    counts(w, 1, (7, 2))
    w.fits("made", ["contract-chosen", "contra-said"])
    w.write(1)
    done["A game made, both follow"] = w.take()
    game(w, 2, "bid-3", "follow")  # Boris deals: Vera's karo, both follow, down
    w("contra-0")
    counts(w, 2, (4, 3))
    w.write(2)
    done["A game down, both follow"] = w.take()
    game(w, 0, "bid-4", "follow")  # Vera deals: Ana's herc under kontra by a defender
    w("contra-1")
    w(f"contra-by-{seats_shown(w.page, 'contra-by', defenders_of(0))[0]}")
    counts(w, 0, (6, 2))
    w.fits("contra", ["contract-chosen", "contra-said"])
    w.write(3)
    done["A game under kontra, both follow"] = w.take()
    w("kind-allpass")  # Ana deals: all pass, a refe
    w.write(4)
    done["All pass (refe)"] = w.take()
    return done


def kassa_taps(w: Walk) -> dict[str, int]:
    done: dict[str, int] = {}
    game(w, 1, "contract-7S", "whist")  # Nikos deals: Eleni's 7♠, both whist, made
    counts(w, 1, (8, 1))
    w.write(1)
    done["A game made, both whist"] = w.take()
    game(w, 2, "contract-8H", "whist")  # Eleni deals: Giorgos's 8♥, down
    counts(w, 2, (6, 3))
    w.write(2)
    done["A game down, both whist"] = w.take()
    game(w, 0, "contract-6S", "pass")  # Giorgos deals: Nikos's 6♠, both pass
    w.write(3)
    done["A game, both pass"] = w.take()
    return done


def pot_taps(w: Walk) -> dict[str, int]:
    done: dict[str, int] = {}
    game(w, 1, "suit-H", None)  # Anton deals: Brigitte's hearts, both play, won
    counts(w, 1, (7, 2))
    w.write(1)
    done["A suit game won, both play"] = w.take()
    game(w, 2, "suit-S", None)  # Brigitte deals: Maximiliane's spades, Anton drops
    w("defender-0", "role-0-drop")
    counts(w, 2, (6, 4))
    w.write(2)
    done["A suit game, one defender drops"] = w.take()
    w("kind-allpass")  # Maximiliane deals: all pass, redeal
    w.write(3)
    done["All pass, redeal"] = w.take()
    return done


def illustrated_taps(w: Walk) -> dict[str, int]:
    # No trick: the count is tapped (none starts chosen, issue #21).
    w("kind-nonsuit", "declarer-1", "contract-bettel", "tricks-1-0")
    w.write(1)
    return {"Bettel made (Illustrated)": w.take()}


def swabian_taps(w: Walk) -> dict[str, int]:
    w("declarer-1", "bid-4", "tricks-1-7")
    w.write(1)
    return {"A Swabian game (hearts), 7 tricks": w.take()}


def american_taps(w: Walk) -> dict[str, int]:
    w("declarer-1", "suit-S", "tricks-1-7")
    w.write(1)
    return {"An American game, no second round": w.take()}


FAMILY_TAPS = {
    "bula": [("taps-bula", bula_taps)],
    "kassa": [("taps-kassa", kassa_taps)],
    "pot": [
        ("taps-pot", pot_taps),
        ("taps-illustrated", illustrated_taps),
        ("taps-swabian", swabian_taps),
        ("taps-american", american_taps),
    ],
}
EXPECTED_TAPS = {
    "bula": {
        "A game made, both follow": 8,
        "A game down, both follow": 8,
        "A game under kontra, both follow": 9,
        "All pass (refe)": 2,
    },
    "kassa": {
        "A game made, both whist": 7,
        "A game down, both whist": 7,
        "A game, both pass": 5,
    },
    "pot": {
        "A suit game won, both play": 5,
        "A suit game, one defender drops": 6,
        "All pass, redeal": 2,
        "Bettel made (Illustrated)": 5,
        "A Swabian game (hearts), 7 tricks": 4,
        "An American game, no second round": 4,
    },
}


@pytest.mark.parametrize("family", list(FAMILY_TAPS))
def test_the_taps_each_family_deal_takes(
    phone: harness.KeptPage, served: tuple[str, Path], family: str
) -> None:
    """Each common kind of deal of the family tapped in on a phone (360×740, English) from the
    empty entry to the deal written, every count a player said tapped: the taps counted as the
    table in docs/app.md says."""
    counted: dict[tuple[str, str], int] = {}
    for case, walk in FAMILY_TAPS[family]:
        w = opened(phone, served[1], case, "en")
        preset = CASES[case][1]
        counted |= {(preset, kind): n for kind, n in walk(w).items()}
    assert {kind: n for (_, kind), n in counted.items()} == EXPECTED_TAPS[family]
    presets = {CASES[case][1] for case, _ in FAMILY_TAPS[family]}
    stated = {k: n for k, n in readme_family_taps().items() if k[0] in presets}
    assert stated == counted
