"""The one error a club night raises: a sentence a player reads, nothing changed."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from ..i18n import N_, ScorepadError, msg


class ClubError(ScorepadError):
    """A refusal of the club engine (registry, draw, scoring, file): ``message`` says why."""


def refused(exc: ValidationError, what: Any) -> ClubError:
    """The first problem pydantic found, as one sentence: where, and why (in the catalogs'
    words, as a session file's problems: never pydantic's English)."""
    from ..scoring.pulya.session import pydantic_problem

    e = exc.errors()[0]
    why = pydantic_problem(e).message
    where = ".".join(str(x) for x in e["loc"]) or "-"
    return ClubError(
        msg(N_("{what} is refused at {where}: {why}"), what=what, where=where, why=why)
    )
