"""Translation, under its released name: see :mod:`scorepad.core.i18n`.

Every refusal subclasses ``scorepad.i18n.ScorepadError`` (the package's docstring says so), so the
names stay importable here; Scorepad's own modules import :mod:`scorepad.core.i18n`.
"""

from .core.i18n import (
    DOMAIN,
    LANGUAGE_LIST,
    LANGUAGE_NAMES,
    LANGUAGES,
    LOCALE_DIR,
    N_,
    Catalog,
    Language,
    Msg,
    OwnWords,
    ScorepadError,
    catalog,
    format_number,
    language_of,
    msg,
    nmsg,
    own_words,
    system_language,
    whist_count,
)

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_LIST",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "Catalog",
    "Language",
    "Msg",
    "OwnWords",
    "ScorepadError",
    "catalog",
    "format_number",
    "language_of",
    "msg",
    "nmsg",
    "own_words",
    "system_language",
    "whist_count",
]
