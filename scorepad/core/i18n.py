"""Translation: every sentence a player reads comes from a gettext catalog (see LANGUAGES).

The engine never formats a sentence.  It returns :class:`Msg` values (a msgid and its
arguments); a view, the CLI or the JSON report renders them in the player's language.
Catalogs live in ``scorepad/locale/<lang>/LC_MESSAGES/scorepad.po`` and are read with Babel.
"""

from __future__ import annotations

import gettext
import locale as _locale
import os
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from .numbers import whist_figure


class Language(NamedTuple):
    """A language the app speaks: ``code`` names its catalog folder and is Babel's locale (plural
    rules, numbers, money); ``name`` is what the language switch shows, in the language itself."""

    code: str
    name: str


# The one list of languages: the CLI's --lang, the app's switch, scripts/catalogs.py.  Serbian is
# written in Latin script (sr_Latn, translated) and in Cyrillic (sr_Cyrl, transliterated from the
# Latin catalog by scripts/catalogs.py).
LANGUAGE_LIST = (
    Language("en", "English"),
    Language("ru", "Русский"),
    Language("de", "Deutsch"),
    Language("sr_Latn", "Srpski"),
    Language("sr_Cyrl", "Српски"),
    Language("el", "Ελληνικά"),
)
LANGUAGES = tuple(language.code for language in LANGUAGE_LIST)
LANGUAGE_NAMES = {language.code: language.name for language in LANGUAGE_LIST}
DOMAIN = "scorepad"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def N_(text: str) -> str:
    """Mark a msgid for extraction; translation happens when the message is rendered."""
    return text


class Msg(NamedTuple):
    """A sentence to be translated later: ``text`` (msgid), optional ``plural`` for count ``n``.

    Arguments may be strings, numbers or other :class:`Msg` values (rendered in turn).
    A tuple, because a long evening makes tens of thousands of them.
    """

    text: str
    args: Mapping[str, Any] = {}
    plural: str | None = None
    n: Any = None

    def render(self, lang: str = "en") -> str:
        return catalog(lang).render(self)


def msg(text: str, **args: Any) -> Msg:
    return Msg(text, args)


def nmsg(singular: str, plural: str, n: Any, **args: Any) -> Msg:
    args["n"] = n
    return Msg(singular, args, plural, n)


def whist_count(n: Any) -> Msg:
    """``12 whists`` / ``12 вистов`` / ``3⅓ виста``: a count of whists, agreed in number, the
    whole whists and a remainder only where there is one (as on the cash-out)."""
    m = nmsg("{n} whist", "{n} whists", n)  # the count picks the form, the figure is shown
    return m._replace(args={"n": whist_figure(n)})


def format_number(value: Any) -> str:
    if type(value) is int:  # the usual case, without the ABC check of isinstance(.., Fraction)
        return str(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else str(value)
    return str(value)


class Catalog:
    """One language's messages, read from its .po file."""

    def __init__(self, lang: str) -> None:
        from babel.messages.pofile import read_po  # only when a sentence is rendered

        self.lang = lang
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        with path.open("rb") as f:
            po = read_po(f, locale=lang)
        self.messages: dict[str, str | tuple[str, ...]] = {}
        for m in po:
            if not m.id or m.fuzzy:
                continue
            key = str(m.id if isinstance(m.id, str) else m.id[0])
            if isinstance(m.string, (tuple, list)):
                if all(m.string):
                    self.messages[key] = tuple(str(x) for x in m.string)
            elif m.string:
                self.messages[key] = str(m.string)

    def gettext(self, text: str) -> str:
        found = self.messages.get(text, text)
        return found[0] if isinstance(found, tuple) else found

    def ngettext(self, singular: str, plural: str, n: Any) -> str:
        found = self.messages.get(singular)
        if isinstance(found, tuple):
            index = _plural_index(self.lang, n)
            return found[min(index, len(found) - 1)]
        return singular if n == 1 else plural

    def render(self, m: Msg) -> str:
        text, args, plural, n = m
        if plural is not None and n is not None:
            template = self.ngettext(text, plural, n)
        else:
            template = self.gettext(text)
        # Inlined for the common arguments (a long evening renders tens of thousands).
        values: dict[str, Any] = {}
        for k, v in args.items():
            kind = type(v)
            if kind is str:
                values[k] = v
            elif kind is int:
                values[k] = str(v)
            else:
                values[k] = self._arg(v)
        return template.format_map(values)

    def render_args(self, text: str, **args: Any) -> str:
        return self.render(Msg(text, args))

    def _arg(self, value: Any) -> str:
        kind = type(value)
        if kind is str:  # names and contracts: most arguments
            return str(value)
        if kind is Msg or isinstance(value, Msg):
            return self.render(value)
        return format_number(value)


@cache
def _plural_rule(lang: str) -> Any:
    """The language's gettext plural formula, from Babel's locale data (ru, sr: one/few/many;
    en, de, el: one/other), compiled by the standard library."""
    from babel.messages.plurals import get_plural

    return gettext.c2py(get_plural(lang).plural_expr)


def _plural_index(lang: str, n: Any) -> int:
    """gettext plural index of ``n`` in ``lang``.

    A fraction takes the second form in every language: the genitive singular in Russian and
    Serbian ("⅓ виста", "⅓ vista"), the plural elsewhere ("½ whists", "½ Whists").
    """
    if not isinstance(n, int):
        return 1
    return int(_plural_rule(lang)(abs(n)))


@cache
def catalog(lang: str) -> Catalog:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return Catalog(lang)


def language_of(locale_name: str) -> str:
    """The language of a POSIX locale name: ``de_AT.UTF-8`` → de, ``sr_RS@latin`` → sr_Latn,
    ``sr_RS`` → sr_Cyrl (glibc's Serbian is Cyrillic), anything unknown → en.

    >>> [language_of(x) for x in ("ru_RU.UTF-8", "sr_RS@latin", "sr_RS.UTF-8", "el_GR", "C")]
    ['ru', 'sr_Latn', 'sr_Cyrl', 'el', 'en']
    """
    name = locale_name.split(":")[0].lower()  # LANGUAGE may list several: the first
    base = name.split(".")[0].split("@")[0].split("_")[0].split("-")[0]
    if base == "sr":
        return "sr_Latn" if "latin" in name or "latn" in name else "sr_Cyrl"
    return base if base in LANGUAGES else "en"


def system_language() -> str:
    """The default language from the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return language_of(value)
    return language_of(_locale.getlocale()[0] or "")


def own_words(english: str, russian: str, others: Mapping[str, str], lang: str) -> str:
    """A preset's name or summary in ``lang``, as its file words it: ``name`` (English),
    ``name_ru``, ``names.de`` …; Serbian Cyrillic is the Latin transliterated; English where the
    file has no words for the language.

    >>> own_words("Balkan bula", "Балканский", {"sr_Latn": "Balkanska bula"}, "sr_Cyrl")
    'Балканска була'
    """
    if lang == "ru":
        return russian
    if lang == "sr_Cyrl" and "sr_Latn" in others:
        from .cyrillic import to_cyrillic

        return to_cyrillic(others["sr_Latn"])
    return others.get(lang, english)


class OwnWords:
    """A preset's name and summary in the player's language (the preset models mix this in)."""

    def name_in(self, lang: str) -> str:
        w: Any = self
        return own_words(w.name, w.name_ru, w.names, lang)

    def summary_in(self, lang: str) -> str:
        w: Any = self
        return own_words(w.summary, w.summary_ru, w.summaries, lang)


def _(text: str, lang: str = "en", **args: Any) -> str:
    """Translate and format a sentence now (views, CLI)."""
    return catalog(lang).render(Msg(text, args))


class ScorepadError(ValueError):
    """A refusal a player reads: ``message`` is the sentence, translated when it is rendered.

    Every error the engines, the store and the journal raise subclasses this one, so a view or
    the CLI shows ``exc.message`` in the player's language without knowing which layer refused.
    """

    def __init__(self, message: Msg, text: str | None = None) -> None:
        self.message = message
        super().__init__(message.render() if text is None else text)
