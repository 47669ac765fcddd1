"""Exact numbers: whists and points are ``int`` or :class:`fractions.Fraction`, never floats.

Most entries are whole, so the engine keeps plain ``int`` where it can (fast) and a
``Fraction`` only where a rule divides (half-responsibility, a split gora).
"""

from __future__ import annotations

import re
from fractions import Fraction

Number = int | Fraction

_RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")


def parse_rational(text: str) -> Number:
    """Parse ``"31"``, ``"-88/3"`` (the spec's ``str(Fraction)`` form) exactly.

    >>> parse_rational("-88/3")
    Fraction(-88, 3)
    >>> parse_rational("12")
    12
    >>> parse_rational("1/0")
    Traceback (most recent call last):
    ...
    ValueError: '1/0' has a zero denominator
    """
    shown = repr(text if len(text) <= 24 else text[:24] + "…")  # never a whole huge value
    if not _RATIONAL.fullmatch(text):
        raise ValueError(f"{shown} is not an exact rational like '12' or '-88/3'")
    numerator, _, denominator = text.partition("/")
    if denominator and int(denominator) == 0:
        raise ValueError(f"{shown} has a zero denominator")
    return normal(Fraction(int(numerator), int(denominator or 1)))


# A price as a session file gives it: a decimal ("0.10") or an exact fraction ("1/60": a
# kreuzer in gulden, A12 and A-E6), bounded so that any accepted file can be settled.
PRICE = re.compile(r"[0-9]{1,12}(\.[0-9]{1,6})?|[0-9]{1,12}/[0-9]{1,12}")


def parse_price(text: str) -> Fraction:
    """A price, exactly: ``"2.50"`` or ``"1/60"``; money is rounded once, at the end.

    >>> parse_price("1/60"), parse_price("0.10")
    (Fraction(1, 60), Fraction(1, 10))
    >>> parse_price("1/0")
    Traceback (most recent call last):
    ...
    ValueError: the price is a decimal like '1.00' or a fraction like '1/60'
    """
    if PRICE.fullmatch(text):
        numerator, _, denominator = text.partition("/")
        if not denominator:
            return Fraction(text)
        if int(denominator):
            return Fraction(int(numerator), int(denominator))
    raise ValueError("the price is a decimal like '1.00' or a fraction like '1/60'")


def normal(value: Number) -> Number:
    """A whole Fraction becomes an int, so sums stay fast and JSON stays plain.

    >>> normal(Fraction(4, 2)), normal(Fraction(1, 2))
    (2, Fraction(1, 2))
    """
    # `type(...) is int` first: `isinstance(x, Fraction)` goes through the ABC machinery.
    if type(value) is not int and isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def half(n: int) -> Number:
    """``n / 2``: an int when ``n`` is even (the usual case), a Fraction only when it is odd.

    >>> half(8), half(-7)
    (4, Fraction(-7, 2))
    """
    return n // 2 if n % 2 == 0 else Fraction(n, 2)


def to_json(value: Number) -> int | str:
    """A sheet value for JSON: whole numbers as numbers, others as ``"p/q"`` strings."""
    if type(value) is int:
        return value
    value = normal(value)
    return value if isinstance(value, int) else str(value)


def json_fraction(value: object) -> int | str:
    """The JSON encoder's hook for what it cannot write itself: an exact fraction.

    Whole numbers the encoder writes as they are; a fraction is converted here, once, to what
    :func:`to_json` gives.

    >>> import json
    >>> json.dumps([3, Fraction(-88, 3), Fraction(4, 2)], default=json_fraction)
    '[3, "-88/3", 2]'
    """
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    raise TypeError(f"{type(value).__name__} is not a sheet number")


def to_text(value: Number) -> str:
    """Always the ``str(Fraction)`` form: ``"-40/3"``, ``"31"``."""
    return str(normal(value))


_VULGAR = {
    (1, 2): "½",
    (1, 3): "⅓",
    (2, 3): "⅔",
    (1, 4): "¼",
    (3, 4): "¾",
    (1, 6): "⅙",
    (5, 6): "⅚",
    (1, 8): "⅛",
    (3, 8): "⅜",
    (5, 8): "⅝",
    (7, 8): "⅞",
}


def signed(value: Number) -> str:
    """A change with its sign: ``+3``, ``−2``, ``0`` (the minus a typesetter's).

    >>> signed(3), signed(-2), signed(0), signed(Fraction(-1, 2))
    ('+3', '−2', '0', '−½')
    """
    return ("+" if value > 0 else "") + whist_figure(value)


def whist_figure(value: Number) -> str:
    """Whole whists, and the exact remainder as a fraction only where there is one.

    >>> whist_figure(Fraction(-530, 3)), whist_figure(12), whist_figure(Fraction(1, 2))
    ('−176⅔', '12', '½')
    >>> whist_figure(Fraction(-12, 7)), whist_figure(0)
    ('−1 5/7', '0')
    """
    v = Fraction(value)
    sign = "−" if v < 0 else ""
    whole, rest = divmod(abs(v.numerator), v.denominator)
    if not rest:
        return f"{sign}{whole}"
    glyph = _VULGAR.get((rest, v.denominator))
    if glyph is None:
        fraction = f"{rest}/{v.denominator}"
        return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"
    return f"{sign}{whole or ''}{glyph}"
