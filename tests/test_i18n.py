"""Every sentence a player reads comes from the catalogs, in every language of i18n.LANGUAGES."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from conftest import explain, one
from scorepad.core.cyrillic import to_cyrillic
from scorepad.core.i18n import (
    LANGUAGE_LIST,
    LANGUAGES,
    Msg,
    catalog,
    language_of,
    nmsg,
    whist_count,
)

ROOT = Path(__file__).resolve().parent.parent

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# The numbers every plural test renders; each language's own distinguishing ones are added.
NUMBERS = (1, 2, 5, 21)


def test_catalogs_are_up_to_date_and_every_language_is_complete() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/catalogs.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_check_names_an_untranslated_sentence_in_any_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No sentence is let through: one msgstr emptied, or one plural form, and the check names it."""
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    catalogs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(catalogs)
    assert all(catalogs.missing(lang) == [] for lang in LANGUAGES)
    po = (ROOT / "scorepad" / "locale" / "el" / "LC_MESSAGES" / "scorepad.po").read_text("utf-8")
    single = 'msgid "Write the deal"\nmsgstr "Καταχώριση μοιρασιάς"\n'
    plural = 'msgstr[1] "{n} μπάζες"\n'
    assert single in po and plural in po
    broken = po.replace(single, 'msgid "Write the deal"\nmsgstr ""\n')
    broken = broken.replace(plural, 'msgstr[1] ""\n')
    (tmp_path / "el.po").write_text(broken, "utf-8")
    monkeypatch.setattr(catalogs, "path", lambda lang: tmp_path / f"{lang}.po")
    assert catalogs.missing("el") == ["Write the deal", "{n} trick"]


@cache
def _po(lang: str):  # type: ignore[no-untyped-def]
    with (ROOT / "scorepad" / "locale" / lang / "LC_MESSAGES" / "scorepad.po").open("rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_is_translated(lang: str) -> None:
    """Complete: every msgid of the English catalog has every form filled in ``lang``."""
    english = {m.id if isinstance(m.id, str) else m.id[0] for m in _po("en") if m.id}
    cat = catalog(lang)
    assert sorted(english - set(cat.messages)) == []
    po = _po(lang)
    for m in po:
        if isinstance(m.id, tuple):
            assert len(m.string) == po.num_plurals and all(m.string), m.id[0]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_language_keeps_every_placeholder(lang: str) -> None:
    en, other = catalog("en"), catalog(lang)

    def names(text: str | tuple[str, ...]) -> set[str]:
        forms = text if isinstance(text, tuple) else (text,)
        return {name for form in forms for name in re.findall(r"{(\w+)}", form)}

    for msgid, text in other.messages.items():
        assert msgid in en.messages
        assert names(text) == names(en.messages[msgid]), msgid


@cache
def _distinguishing(lang: str) -> list[int]:
    """1, 2, 5, 21 and, for each plural category of the language, the smallest number in it."""
    locale = Locale.parse(lang)
    first: dict[str, int] = {}
    for n in range(0, 200):
        first.setdefault(locale.plural_form(n), n)
    return sorted(set(NUMBERS) | set(first.values()))


@cache
def _cldr_index(lang: str, n: int) -> int:
    """The gettext form CLDR's category of ``n`` names: one, (two,) few, many, then other."""
    locale = Locale.parse(lang)
    order = [c for c in ("one", "two", "few", "many") if c in locale.plural_form.tags]
    order.append("other")
    num = _po(lang).num_plurals
    return min(order.index(locale.plural_form(n)), num - 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_renders_with_its_numbers(lang: str) -> None:
    """Every catalog sentence, every number argument set to 1, 2, 5, 21 and the numbers the
    language's plural rules tell apart: each renders whole (no placeholder left), and a counted
    sentence takes the form CLDR's rule names for its count, with the count written in it."""
    cat = catalog(lang)
    for m in _po("en"):
        if not m.id:
            continue
        single = m.id if isinstance(m.id, str) else m.id[0]
        fields = set(re.findall(r"{(\w+)}", single if isinstance(m.id, str) else " ".join(m.id)))
        for n in _distinguishing(lang):
            args = {name: n for name in fields}
            if isinstance(m.id, tuple):
                text = cat.render(
                    nmsg(m.id[0], m.id[1], n, **{k: v for k, v in args.items() if k != "n"})
                )
                forms = cat.messages.get(m.id[0])
                assert isinstance(forms, tuple), m.id[0]
                template = forms[_cldr_index(lang, n)]
                assert text == template.format_map({name: str(n) for name in fields})
                if "{n}" in template:
                    assert str(n) in text
            else:
                text = cat.render(Msg(single, args))
            assert "{" not in text.replace("{}", ""), (lang, single, text)


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("ru", ["1 вист", "2 виста", "5 вистов", "11 вистов", "21 вист", "22 виста", "25 вистов"]),
        (
            "sr_Latn",
            ["1 vist", "2 vista", "5 vistova", "11 vistova", "21 vist", "22 vista", "25 vistova"],
        ),
        (
            "sr_Cyrl",
            ["1 вист", "2 виста", "5 вистова", "11 вистова", "21 вист", "22 виста", "25 вистова"],
        ),
        (
            "de",
            ["1 Whist", "2 Whists", "5 Whists", "11 Whists", "21 Whists", "22 Whists", "25 Whists"],
        ),
        ("el", ["1 βιστ", "2 βιστ", "5 βιστ", "11 βιστ", "21 βιστ", "22 βιστ", "25 βιστ"]),
        (
            "en",
            ["1 whist", "2 whists", "5 whists", "11 whists", "21 whists", "22 whists", "25 whists"],
        ),
    ],
)
def test_whist_counts_agree_in_every_language(lang: str, counts: list[str]) -> None:
    assert [catalog(lang).render(whist_count(n)) for n in (1, 2, 5, 11, 21, 22, 25)] == counts


def test_the_pin_refusal_counts_its_digits() -> None:
    """#27: «в нём 4 цифр» was a singular sentence with a count in it."""
    from scorepad.app.server.access import Gate

    def refusal(pin: str, lang: str) -> str:
        gate = Gate(pin, explicit=True)
        found = gate.enter("phone", "1")
        assert found is not None
        return found.render(lang)

    assert refusal("1234", "ru").startswith("Это не PIN стола: в нём 4 цифры.")
    assert refusal("123456", "ru").startswith("Это не PIN стола: в нём 6 цифр.")
    assert refusal("1234", "sr_Latn").startswith("To nije PIN stola: ima 4 cifre.")
    assert refusal("12345", "de").startswith("Das ist nicht die Tisch-PIN: sie hat 5 Ziffern.")


def test_serbian_cyrillic_is_the_latin_catalog_transliterated() -> None:
    latin, cyrillic = catalog("sr_Latn"), catalog("sr_Cyrl")
    assert latin.messages.keys() == cyrillic.messages.keys()
    for msgid, text in latin.messages.items():
        forms = text if isinstance(text, tuple) else (text,)
        assert cyrillic.messages[msgid] == (
            tuple(map(to_cyrillic, forms)) if isinstance(text, tuple) else to_cyrillic(text)
        )
    assert to_cyrillic("Sve pulje su zatvorene: {helper} — džentlmenski, ljudi, konj") == (
        "Све пуље су затворене: {helper} — џентлменски, људи, коњ"
    )
    assert cyrillic.gettext("Write the deal") == "Упиши дељење"


def test_the_language_list_names_each_language_in_itself() -> None:
    assert [x.code for x in LANGUAGE_LIST] == list(LANGUAGES)
    assert [x.name for x in LANGUAGE_LIST] == [
        "English", "Русский", "Deutsch", "Srpski", "Српски", "Ελληνικά",
    ]  # fmt: skip
    assert [language_of(v) for v in ("de_AT.UTF-8", "el_GR.UTF-8", "sr_RS@latin", "ru")] == [
        "de",
        "el",
        "sr_Latn",
        "ru",
    ]


@pytest.mark.parametrize(
    ("lang", "money"),
    [
        ("de", "−87,33\xa0€"),
        ("sr_Latn", "−87,33\xa0€"),
        ("el", "−87,33\xa0€"),
        ("ru", "−87,33\xa0€"),
    ],
)
def test_money_in_each_language_is_babels(lang: str, money: str) -> None:
    from scorepad.report.pulya import money_text

    assert money_text(-8733, 2, "EUR", lang) == money


def test_russian_plurals() -> None:
    ru = catalog("ru")
    assert [ru.render(whist_count(n)) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 вист",
        "2 виста",
        "5 вистов",
        "11 вистов",
        "21 вист",
        "22 виста",
        "25 вистов",
    ]
    m = nmsg(
        "{player} took {n} trick: {n} × {price} = {gora} into the gora.",
        "{player} took {n} tricks: {n} × {price} = {gora} into the gora.",
        3,
        player="Вера",
        price=1,
        gora=3,
    )
    assert ru.render(m) == "Вера: 3 взятки, 3 × 1 = 3 в гору."  # no verb to agree with the name


def test_a_deal_explained_in_both_languages() -> None:
    w = one(
        {
            "type": "game",
            "declarer": 0,
            "contract": "6NT",
            "calls": ["whist", "pass"],
            "tricks": {"0": 5, "1": 4, "2": 1},
        }
    )
    assert explain(w, "en") == [
        "Anna failed 6NT, down 1: 2 into the gora.",
        "Boris whisted alone: 5 defence tricks × 2 = 10 whists on Anna.",
        "Boris writes consolation: 1 undertrick × 2 = 2 whists on Anna.",
        "Vera writes consolation: 1 undertrick × 2 = 2 whists on Anna.",
    ]
    assert explain(w, "ru") == [
        "Anna: без одной на 6БК, 2 в гору.",
        "Boris → Anna: вист в одиночку, 5 взяток защиты × 2 = 10 вистов.",
        "Boris → Anna: консоляция, 1 недобранная × 2 = 2 виста.",
        "Vera → Anna: консоляция, 1 недобранная × 2 = 2 виста.",
    ]
