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


def normal(value: Number) -> Number:
    """A whole Fraction becomes an int, so sums stay fast and JSON stays plain.

    >>> normal(Fraction(4, 2)), normal(Fraction(1, 2))
    (2, Fraction(1, 2))
    """
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def to_json(value: Number) -> int | str:
    """A sheet value for JSON: whole numbers as numbers, others as ``"p/q"`` strings."""
    value = normal(value)
    return value if isinstance(value, int) else str(value)


def to_text(value: Number) -> str:
    """Always the ``str(Fraction)`` form: ``"-40/3"``, ``"31"``."""
    return str(normal(value))
