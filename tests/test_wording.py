"""The engine's sentences: English assumes no gender; Russian keeps every name in the nominative.

A name is an undeclined placeholder, so Russian never puts one where grammar needs a case
(«на {player}», «игроку {player}»): the sentences use shapes such as «Вася → Коля: 4 виста» or a
name as a label before its figure.  And Russian speaks of a пулька, never a «сессия».
"""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from conftest import ROOT, explain, one

NAMES = (
    "player|declarer|whister|passer|dealer|other|helped|helper|a|b|payer|payee|holder|leader|"
    "expected|winner"
)
# A preposition or a case-bearing noun right before a name placeholder.
NEEDS_CASE = re.compile(
    r"(?i)(?<![\w])(на|у|от|для|с|со|к|ко|по|за|о|об|при|игроку|игрока|игроком|игроке)\s+\{("
    + NAMES
    + r")\}"
)
GENDERED = re.compile(r"\b(his|he|him|himself|her|she)\b")


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    path = ROOT / "scorepad" / "locale" / lang / "LC_MESSAGES" / "scorepad.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def test_no_russian_sentence_declines_a_name_or_says_session() -> None:
    bad = []
    for m in _catalog("ru"):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for text in strings:
            if NEEDS_CASE.search(text) or re.search(r"(?i)сесси", text):
                bad.append(text)
    assert bad == []


# The pulya engine and its settings; the other families' sentences are theirs to word.
ENGINE = ("scorepad/scoring/", "scorepad/report/", "scorepad/cli/__init__.py", "scorepad/play/")
OTHER_FAMILIES = ("bula.py", "kassa.py", "pot.py", "ledger.py", "families.py")


def test_no_english_sentence_of_the_engine_assumes_a_gender() -> None:
    bad = []
    for m in _catalog("en"):
        where = [loc for loc, _ in m.locations]
        if not any(w.startswith(ENGINE) and not w.endswith(OTHER_FAMILIES) for w in where):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        bad += [text for text in ids if text and GENDERED.search(text)]
    assert bad == []


def test_a_returned_whist_explained_in_both_languages() -> None:
    # Four players, Gleb deals and returns Vera's half-whist on 6♠; Anna takes 4 (down 2).
    w = one(
        {
            "type": "game",
            "declarer": 0,
            "contract": "6S",
            "calls": ["pass", "half", "pass", "whist"],
            "tricks": {"0": 4, "1": 3, "2": 3},
        },
        players=["Anna", "Boris", "Vera", "Gleb"],
        first_dealer=3,
    )
    assert explain(w, "en") == [
        "Anna failed 6♠, down 2: 2 × 2 = 4 into the gora.",
        "Gleb whisted alone: 6 defence tricks × 2 = 12 whists on Anna.",
        "Gleb writes consolation: 2 undertricks × 2 = 4 whists on Anna.",
        "Gleb returned the whist and writes Boris's consolation too: 4 whists on Anna.",
        "Gleb returned the whist and writes Vera's consolation too: 4 whists on Anna.",
    ]
    assert explain(w, "ru") == [
        "Anna: без 2 на 6♠, 2 × 2 = 4 в гору.",
        "Gleb → Anna: вист в одиночку, 6 взяток защиты × 2 = 12 вистов.",
        "Gleb → Anna: консоляция, 2 недобранные × 2 = 4 виста.",
        "Gleb → Anna: возвратный вист, и консоляция защитника (Boris), 4 виста.",
        "Gleb → Anna: возвратный вист, и консоляция защитника (Vera), 4 виста.",
    ]


def test_help_and_misere_explained_in_russian() -> None:
    # Target 2: Anna's six nobody whists closes her pool; her second six helps the highest
    # open pool (Boris and Vera both at 0: the left neighbour, Boris) with 2 points, 20 whists.
    from conftest import scored

    deals = [{"type": "game", "declarer": 0, "contract": "6S", "calls": []}] * 2
    w = scored(deals, pool_target=2).deals[1].writing
    assert explain(w, "ru") == [
        "Никто не вистовал: сдача не разыгрывалась, Anna записывает игру сыгранной.",
        "Anna → Boris: пуля закрыта, 2 очка в помощь, 20 вистов.",
    ]
    m = one(
        {"type": "misere", "declarer": 0, "tricks": {"0": 1}, "shared_with_dealer": True},
        players=["Anna", "Boris", "Vera", "Gleb"],
        first_dealer=3,
    )
    assert explain(m, "ru") == [
        "Anna делит мизер со сдающим (Gleb): каждый пишет 1/2.",
        "Anna: на мизере 1 взятка; Anna — 5 в гору.",
        "Anna: на мизере 1 взятка; Gleb — 5 в гору.",
    ]


# Engine words a settings screen must not show (#27): sources, option ids, field names.
JARGON = re.compile(r"§|HIST|FSPR|ФСПР|\w_\w|'trick'|«trick»")


def test_setting_meanings_are_plain_in_every_language_and_their_sources_are_in_the_docs() -> None:
    from scorepad.core.i18n import LANGUAGES, catalog
    from scorepad.scoring.pulya.convention import Settings

    docs = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    meanings = {n: f.description for n, f in Settings.model_fields.items() if f.description}
    assert len(meanings) > 40
    bad = []
    for name, meaning in meanings.items():
        assert f"## `{name}`" in docs and meaning in docs, name  # the source sits beside it
        for lang in LANGUAGES:
            shown = catalog(lang).gettext(meaning)
            english = re.search(r"\btrick\b", shown) or shown == meaning
            if JARGON.search(shown) or (lang != "en" and english):
                bad.append((lang, name, shown))
    assert bad == []
