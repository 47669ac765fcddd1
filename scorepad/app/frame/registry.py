"""The screens by name, filled by ``screens.py``: any module may look a screen up here without
importing it (so no screen module imports another, and nothing imports in a circle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import flet as ft

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
