"""The one error a club night raises: a sentence a player reads, nothing changed."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..core.i18n import N_, ScorepadError, msg


class ClubError(ScorepadError):
    """A refusal of the club engine (registry, draw, scoring, file): ``message`` says why."""


#: A night's fields as the new-night form and the CLI name them (not the field ids, #37).
FIELDS = {
    "deals_per_tour": N_("deals a tour"),
    "tours": N_("tours"),
    "pool_target": N_("the pool target"),
}
#: Pydantic's bounds, said in the player's language.
BOUNDS = {
    "greater_than_equal": N_("it must be at least {limit}"),
    "less_than_equal": N_("it must be at most {limit}"),
}


def refused(exc: ValidationError, what: Any) -> ClubError:
    """The first problem pydantic found, as one sentence: where, and why (in the catalogs'
    words, as a session file's problems: never pydantic's English)."""
    from ..scoring.pulya.session import pydantic_problem

    e = exc.errors()[0]
    why: Any = pydantic_problem(e).message
    where: Any = ".".join(str(x) for x in e["loc"]) or "-"
    if len(e["loc"]) == 1 and e["loc"][0] in FIELDS:
        where = msg(FIELDS[str(e["loc"][0])])
        bound = BOUNDS.get(e["type"])
        if bound is not None:
            limit = next(iter(e.get("ctx", {}).values()), "?")
            why = msg(bound, limit=limit)
    return ClubError(
        msg(N_("{what} is refused at {where}: {why}"), what=what, where=where, why=why)
    )
