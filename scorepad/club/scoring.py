"""Tournament scoring as data: from a table's whists (each player's pulya balance) to tour points.

A night chooses one transform, stored in its file as a small JSON object (``kind`` names it):

- ``whists``: the whists as they are (the settlement's balance of each player);
- ``places``: place points per table, e.g. 3/2/1/0 at a table of four, ties shared;
- ``piecewise``: the whists through thresholds and factors, as online tournaments write them
  ("up to 200 = 1:1, above 200 = 10:1"): the first 200 whists count one point each, every ten
  whists beyond count one point; a loss is scored the same way below zero.

``normalise`` (whists and piecewise) makes tables of 3 and 4 comparable: a balance is the sum of
a player's nets against each opponent, so it is counted per opponent and scaled to a table of
three, ``balance × 2 / (players − 1)``.  Place points are normal by their table-size lists
(3/2/1/0 at four and 3/1½/0 at three both give 1½ a seat on average).

Everything is exact (``int`` or ``Fraction``); nothing is rounded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..core.i18n import N_, msg
from ..core.numbers import Number, normal
from ..scoring.pulya.session import FieldRefused, Rational
from .errors import ClubError


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Whists(_Model):
    """The whists as they are (optionally per opponent: see the module's note)."""

    kind: Literal["whists"] = "whists"
    normalise: bool = False


class Places(_Model):
    """Place points per table: the best balance takes ``four[0]`` (or ``three[0]``), and so on;
    players with equal balances share the points of the places they hold."""

    kind: Literal["places"] = "places"
    four: tuple[Rational, Rational, Rational, Rational] = (3, 2, 1, 0)
    three: tuple[Rational, Rational, Rational] = (3, Fraction(3, 2), 0)


class Step(_Model):
    """Whists up to ``up_to`` (from the step before; ``None``: no limit) count one point for
    every ``whists`` whists (``1`` is 1:1, ``10`` is 10:1)."""

    up_to: Annotated[int, Field(ge=1)] | None = None
    whists: Annotated[int, Field(ge=1, le=10_000)] = 1


class Piecewise(_Model):
    """The whists through thresholds and factors, the same either side of zero."""

    kind: Literal["piecewise"] = "piecewise"
    steps: tuple[Step, ...] = Field(min_length=1)
    normalise: bool = False

    @model_validator(mode="after")
    def _rising(self) -> Piecewise:
        limits = [s.up_to for s in self.steps]
        if limits[-1] is not None or any(x is None for x in limits[:-1]):
            raise FieldRefused(msg(N_("only the last step of a piecewise scoring has no limit")))
        shown = [x for x in limits if x is not None]
        if shown != sorted(set(shown)):
            raise FieldRefused(msg(N_("the limits of a piecewise scoring's steps rise")))
        return self


Scoring = Annotated[Whists | Places | Piecewise, Field(discriminator="kind")]


def _normalised(whists: Number, players: int) -> Number:
    """Per opponent, scaled to a table of three.

    >>> _normalised(90, 4), _normalised(90, 3)
    (60, 90)
    """
    return normal(Fraction(whists) * 2 / (players - 1))


def piecewise(steps: Sequence[Step], whists: Number) -> Number:
    """The points of ``whists`` through the steps.

    >>> s = (Step(up_to=200, whists=1), Step(whists=10))
    >>> piecewise(s, 350), piecewise(s, -350), piecewise(s, 150), piecewise(s, 205)
    (215, -215, 150, Fraction(401, 2))
    """
    rest = abs(Fraction(whists))
    low = 0
    points = Fraction(0)
    for step in steps:
        if rest <= 0:
            break
        span = rest if step.up_to is None else min(rest, Fraction(step.up_to - low))
        points += span / step.whists
        rest -= span
        low = step.up_to or low
    return normal(points if whists >= 0 else -points)


def _places(points: Sequence[Number], whists: Sequence[Number]) -> list[Number]:
    """Place points, ties shared: equal balances split the points of their places.

    >>> _places((3, 2, 1, 0), (10, 10, -5, -15))
    [Fraction(5, 2), Fraction(5, 2), 1, 0]
    """
    order = sorted(range(len(whists)), key=lambda i: -whists[i])
    out: list[Number] = [0] * len(whists)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and whists[order[end + 1]] == whists[order[place]]:
            end += 1
        share = normal(Fraction(sum(points[place : end + 1], start=0), end - place + 1))
        for k in range(place, end + 1):
            out[order[k]] = share
        place = end + 1
    return out


def tour_points(scoring: Scoring, whists: Mapping[int, Number]) -> dict[int, Number]:
    """Each player's tour points at one table, from his whists there (player number → value).

    >>> tour_points(Places(), {7: 12, 3: -4, 5: -8})
    {7: 3, 3: Fraction(3, 2), 5: 0}
    """
    players = len(whists)
    if players not in (3, 4):
        raise ClubError(msg(N_("a table has 3 or 4 players, not {n}"), n=players))
    numbers = list(whists)
    values = [whists[n] for n in numbers]
    if isinstance(scoring, Places):
        got = _places(scoring.four if players == 4 else scoring.three, values)
        return dict(zip(numbers, got, strict=True))
    if scoring.normalise:
        values = [_normalised(v, players) for v in values]
    if isinstance(scoring, Piecewise):
        values = [piecewise(scoring.steps, v) for v in values]
    return dict(zip(numbers, values, strict=True))


def bye_points(scoring: Scoring) -> Number:
    """A bye is an average result: no whists, or the mean place points of a table of four.

    >>> bye_points(Places()), bye_points(Whists())
    (Fraction(3, 2), 0)
    """
    if isinstance(scoring, Places):
        return normal(Fraction(sum(scoring.four, start=0), 4))
    return 0


_STEP = re.compile(r"(?:(\d+)=)?(\d+):1")


def parse_scoring(text: str) -> Scoring:
    """A transform as the CLI writes it: ``whists``, ``whists:normalised``, ``places:3/2/1/0``
    (a table of three then takes 3/1½/0), ``piecewise:200=1:1,10:1`` (``+normalised``).

    >>> parse_scoring("piecewise:200=1:1,10:1").steps[1]
    Step(up_to=None, whists=10)
    >>> parse_scoring("places:5/3/1/0").three
    (5, 2, 0)
    """
    kind, _, rest = text.strip().partition(":")
    norm = rest.endswith("+normalised") or rest == "normalised"
    rest = rest.removesuffix("+normalised").removesuffix("normalised").strip()
    try:
        if kind == "whists" and not rest:
            return Whists(normalise=norm)
        if kind == "places" and not norm:
            four = tuple(Fraction(x) for x in (rest or "3/2/1/0").split("/"))
            if len(four) != 4 or list(four) != sorted(four, reverse=True):
                raise ValueError(text)
            # A table of three keeps the first and last place and the mean of the middle two.
            three = (four[0], (four[1] + four[2]) / 2, four[3])
            return Places(four=tuple(map(normal, four)), three=tuple(map(normal, three)))
        if kind == "piecewise":
            steps = []
            for part in rest.split(","):
                m = _STEP.fullmatch(part.strip())
                if m is None:
                    raise ValueError(text)
                steps.append(Step(up_to=int(m[1]) if m[1] else None, whists=int(m[2])))
            return Piecewise(steps=tuple(steps), normalise=norm)
    except ValueError:
        pass
    raise ClubError(
        msg(
            N_(
                "{value} is not a tournament scoring: whists, whists:normalised, places:3/2/1/0 or piecewise:200=1:1,10:1"
            ),
            value=repr(text[:40]),
        )
    )
