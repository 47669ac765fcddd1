"""When two names look the same: the skeleton of Unicode TR39 (confusables), over case and width.

The confusable pairs are Unicode's own (``confusables.txt``), as the maintained
``confusable_homoglyphs`` package ships them; a hand list would miss most of them.  TR39 maps
each character to a prototype; two characters are confusable when they share one, so the
classes here are the pairs' closure, each named by its smallest member.  Only single-character
prototypes are used (``rn`` for ``m`` would make real names collide).
"""

from __future__ import annotations

import unicodedata
from functools import cache

#: Marks that the data writes around right-to-left prototypes; they are not part of them.
_MARKS = str.maketrans("", "", "\u200e\u200f")


@cache
def _classes() -> dict[str, str]:
    """Each confusable character's class, named by its smallest member (a union-find)."""
    # Loaded on the first name checked (the package has no type hints).
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            parent[ch] = parent.get(parent[ch], parent[ch])
            ch = parent[ch]
        return ch

    for source, glyphs in confusables.confusables_data.items():
        if len(source) != 1:
            continue
        for glyph in glyphs:
            target = glyph["c"].translate(_MARKS)
            if len(target) != 1:
                continue
            a, b = root(source), root(target)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def skeleton(text: str) -> str:
    """TR39's skeleton (NFD, each character to its class, NFD again), of the case-folded text.

    >>> skeleton("Bοris") == skeleton("Boris")  # a Greek omicron
    True
    >>> skeleton("\\u0410nna") == skeleton("ANNA") == skeleton("\\uff21nna")  # Cyrillic A, wide A
    True
    >>> skeleton("Vera") == skeleton("Vika")
    False
    """
    classes = _classes()
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    mapped = "".join(classes.get(ch, ch) for ch in unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFD", mapped)
