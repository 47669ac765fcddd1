"""One seam for every family, the pulya too: what a family's engine offers the store, the CLI and
the app, and a registry that loads an engine only when it is asked for.

A family is one folder of the engine: the pulya's is :mod:`.pulya` (:mod:`.pulya.family`), the
ledger families' is :mod:`.ledger` (:mod:`.ledger.family`: bula, kassa, pot and direct).  What
the store, the CLI and the app need of one they ask :func:`family` by the session's family name
(the store's ``family`` column, :func:`.peek.peek_family` of a file), never by comparing the
name: a pulya file settled from the command line never loads the ledger families' engines, and a
new family is one more entry in :data:`ENGINES`.

The faces above the engine choose by the same name: a session's report
(:func:`scorepad.report.report_for`), its players' record (:func:`scorepad.scoring.results.record_of`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .peek import FAMILIES

if TYPE_CHECKING:
    from pydantic import BaseModel, TypeAdapter

    from .pulya.session import Problem, Struck

#: Every family, the pulya first, and the engine module that implements it (imported when asked).
ENGINES: dict[str, str] = {
    "pulya": "scorepad.scoring.pulya.family",
    **{name: "scorepad.scoring.ledger.family" for name in FAMILIES},
}
#: Every family's name, the pulya first (what the store's ``family`` column may hold).
NAMES: tuple[str, ...] = tuple(ENGINES)


class Replaying(Protocol):
    """A session replayed and kept, as the store holds it between two actions."""

    def result(self) -> Any:
        """The scored session (the family's own: a sheet, or a ledger)."""
        ...

    def append(self, deal: Any) -> list[Problem] | None:
        """Write one more deal onto the kept replay and say what it refuses (an empty list:
        written); None: this family replays the whole session after a deal (it is short)."""
        ...


@runtime_checkable
class Family(Protocol):
    """A family's engine as the rest of Scorepad sees it."""

    #: The family's name: ``pulya``, ``bula``, ``kassa``, ``pot`` or ``direct``.
    name: str
    #: Whether a deal's place counts the voided deals before it (the ledger families number their
    #: deals as said at the table) or only the live ones (the pulya's index).
    places_count_voided: bool
    #: Whether its sessions play to a pool target (the pulya's ``pool_target``).
    pool: bool
    #: Whether the card-play engine (:mod:`scorepad.play`) knows its deals: a deal record, the
    #: analysis of a deal, a disputed deal checked by its cards (the pulya's; not yet the others').
    cards: bool

    def parse_session(self, data: str | bytes | dict[str, Any]) -> Any:
        """A session file of this family, validated (``SessionInvalid`` says every problem)."""
        ...

    def dump_session(self, session: Any) -> str:
        """The session's canonical file text."""
        ...

    def deal_types(self) -> tuple[type[BaseModel], ...]:
        """The model classes of one deal (a deal of another family is none of them)."""
        ...

    def deal_adapter(self) -> TypeAdapter[Any]:
        """The validator of one deal, as the store keeps it."""
        ...

    def parse_deal(self, data: Any, *, index: int | None) -> Any:
        """One deal checked alone, in its canonical model (``SessionInvalid`` if refused)."""
        ...

    def preset_settings(self, convention: str) -> dict[str, Any] | None:
        """Today's settings of a preset as JSON values (None: no preset of that id)."""
        ...

    def replay(self, session: Any) -> Any:
        """A session's deals checked and written: its scored sheet or ledger."""
        ...

    def stored_session(
        self,
        data: dict[str, Any],
        frozen_settings: str,
        deals: list[Any],
        struck: tuple[Struck[Any], ...],
    ) -> tuple[Any, Any]:
        """A stored session as its file (``data``: the session's fields but its deals) with its
        live ``deals`` and voided ones, and the settings it is scored by; a row that does not
        pass raises what its parser raises (``ValidationError``, ``SessionInvalid``)."""
        ...

    def start(self, session: Any, settings: Any) -> Replaying:
        """Replay a stored session and keep it (``SessionInvalid`` if a deal is refused)."""
        ...


def family(name: str) -> Family:
    """The engine of the family ``name`` (one of :data:`NAMES`), loaded now if it was not."""
    engine: Family = import_module(ENGINES[name]).family(name)
    return engine
