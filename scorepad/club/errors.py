"""The one error a club night raises: a sentence a player reads, nothing changed."""

from __future__ import annotations

from ..i18n import ScorepadError


class ClubError(ScorepadError):
    """A refusal of the club engine (registry, draw, scoring, file): ``message`` says why."""
