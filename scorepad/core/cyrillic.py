"""Serbian Latin script → Cyrillic, letter for letter: the sr_Cyrl catalog and the presets' Serbian
words are the Latin ones transliterated (scripts/catalogs.py, :func:`scorepad.core.i18n.own_words`)."""

from __future__ import annotations

import re

_LATIN = "ABVGDĐEŽZIJKLMNOPRSTĆUFHCČŠ"
_CYRILLIC = "АБВГДЂЕЖЗИЈКЛМНОПРСТЋУФХЦЧШ"
_LETTERS = dict(zip(_LATIN + _LATIN.lower(), _CYRILLIC + _CYRILLIC.lower(), strict=True))
_DIGRAPHS = {"Lj": "Љ", "LJ": "Љ", "lj": "љ", "Nj": "Њ", "NJ": "Њ", "nj": "њ"}
_DIGRAPHS |= {"Dž": "Џ", "DŽ": "Џ", "dž": "џ"}
# What stays in Latin letters: placeholders, quoted field values, options, file and format names,
# abbreviations (PIN, HTTP, JSON, CSV, PDF, QR, NT), source references (D12, A-Q1) and foreign words (Kodex).
_KEEP = re.compile(
    r"\{[^}]*\}|'[^']*'|--[\w-]+|(?<!\w)[A-Za-z0-9_]+(?:[-/.:][A-Za-z0-9_]+)+(?!\w)|\w*\d\w*"
    r"|\w*[_qwxyQWXY]\w*|\b(?:PIN|HTTP|JSON|CSV|PDF|QR|ISO|MB|NT|EUR|USD|RSD|RUB|SQLite|TH|AS)\b"
    r"|\bS, C, D, H\b|\b(?:game|misere|correction|truncate|full|made|slovenia|literal|split"
    r"|null|true|false|format|type|pagat|pot|Scorepad)\b"
)
_WORD = re.compile(r"Lj|LJ|lj|Nj|NJ|nj|Dž|DŽ|dž|.", re.S)


def to_cyrillic(text: str) -> str:
    """Serbian Latin script → Cyrillic, one letter (or digraph) for one letter.

    >>> print(to_cyrillic("Lj. dže nj {player} 'trick' PIN, D12 Kodex"))
    Љ. џе њ {player} 'trick' PIN, D12 Kodex
    """
    out, at = [], 0
    for kept in _KEEP.finditer(text):
        out.append(_letters(text[at : kept.start()]))
        out.append(kept.group())
        at = kept.end()
    out.append(_letters(text[at:]))
    return "".join(out)


def _letters(text: str) -> str:
    return "".join(
        _DIGRAPHS.get(piece) or _LETTERS.get(piece, piece) for piece in _WORD.findall(text)
    )
