"""The screens by name, filled by ``screens.py``: any module may look a screen up here without
importing it (so no screen module imports another, and nothing imports in a circle).  The
panels and deal writers a package adds to the open session's screens are registered here too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the phone's snapshot keeps this module: nothing compiled (pydantic) below it
    import flet as ft

    from ..session import DealWrites
    from .shell import Shell

Screen = Callable[["Shell"], "ft.Control"]


class UnknownScreen(KeyError):
    """A screen name nobody registered (a programming error, never a player's)."""


_SCREENS: dict[str, Screen] = {}


def add(name: str, screen: Screen) -> None:
    _SCREENS[name] = screen


def screen(name: str) -> Screen:
    try:
        return _SCREENS[name]
    except KeyError:
        raise UnknownScreen(name) from None


# --- what a package adds to an open session's screens ---------------------------------------

#: A panel drawn above an open session's screen (None: nothing for this page), e.g. a club
#: table's confirmations.
Panel = Callable[["Shell"], "ft.Control | None"]


_PANELS: list[Panel] = []
_BAR: list[Panel] = []  # the bar above every screen of a session (the shared table's)


def set_bar(bar: Panel) -> None:
    """The bar drawn first above a session's screens (app/screens/table.py: the viewer's note,
    Share the table, the next pulka), before the panels."""
    _BAR[:] = [bar]


def bar() -> Panel | None:
    return _BAR[0] if _BAR else None


_WRITERS: list[Callable[[Shell, int], DealWrites | None]] = []


def add_panel(panel: Panel) -> None:
    _PANELS.append(panel)


def panels() -> tuple[Panel, ...]:
    return tuple(_PANELS)


def add_writer(writer: Callable[[Shell, int], DealWrites | None]) -> None:
    _WRITERS.append(writer)


def writer(shell: Shell, sid: int) -> DealWrites | None:
    """Who writes a deal in session ``sid`` when the store alone does not (None: the store)."""
    for w in _WRITERS:
        found = w(shell, sid)
        if found is not None:
            return found
    return None
