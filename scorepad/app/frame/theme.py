"""One look for every screen: a Material 3 theme grown from one seed colour (light and dark, the
system choosing), touch targets of at least 48 px, and the few building blocks the screens share.

Colours come from the theme's scheme (``ft.Colors.PRIMARY``, ``ERROR_CONTAINER``...), never a
fixed shade, so that the dark theme stays readable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft

SEED = "#2E6B4F"  # the green of a card table
FONT = "DejaVu"  # bundled: ♠ ♣ ♦ ♥ → ✓ render offline
FONTS = {"DejaVu": "fonts/DejaVuSans.ttf", "DejaVuBold": "fonts/DejaVuSans-Bold.ttf"}
TAP = 48  # px: the smallest touch target
# px: the buttons of the one-screen deal entry (grid, calls, tricks), which share a phone's height;
# a row of them still gives 40 × 26 px or more a button, with 2–4 px between.
COMPACT = 40
WIDE = 600  # px: from this width a navigation rail and wider cards, below it a phone


def apply(page: ft.Page) -> None:
    """The theme of the whole app; dark mode follows the system."""
    page.fonts = FONTS
    page.theme = _theme()
    page.dark_theme = _theme()
    page.theme_mode = ft.ThemeMode.SYSTEM
    page.padding = 0


def _theme() -> ft.Theme:
    return ft.Theme(
        color_scheme_seed=SEED,
        font_family=FONT,
        use_material3=True,
        visual_density=ft.VisualDensity.STANDARD,
    )


def sem(identifier: str, control: ft.Control, *, label: str | None = None) -> ft.Semantics:
    """A stable automation id (``flt-semantics-identifier`` on the web)."""
    return ft.Semantics(identifier=identifier, content=control, label=label)


def choice(
    selected: bool,
    text: str,
    on_click: Callable[..., Any] | None,
    *,
    width: float | None = None,
    disabled: bool = False,
) -> ft.Control:
    """One option of a set: filled when chosen, outlined otherwise; 48 px tall."""
    kind = ft.FilledButton if selected else ft.OutlinedButton
    # A contract's red suits stay red on every family's grid, as on the pulya's.
    label: str | ft.Text = text
    if RED_SUITS & set(text):
        label = ft.Text(spans=suit_spans(text), no_wrap=True)
    return kind(
        content=label,
        on_click=on_click,
        height=TAP,
        width=width,
        disabled=disabled,
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=0 if width else 12)),
    )


def primary(
    text: str, on_click: Callable[..., Any] | None, *, disabled: bool = False
) -> ft.FilledButton:
    return ft.FilledButton(text, on_click=on_click, height=TAP, disabled=disabled)


def secondary(
    text: str, on_click: Callable[..., Any] | None, *, disabled: bool = False
) -> ft.Control:
    return ft.OutlinedButton(text, on_click=on_click, height=TAP, disabled=disabled)


def quiet(text: str, on_click: Callable[..., Any] | None, *, disabled: bool = False) -> ft.Control:
    return ft.TextButton(text, on_click=on_click, height=TAP, disabled=disabled)


def card(*controls: ft.Control, title: str | None = None, spacing: float = 8) -> ft.Control:
    """A card of the deal entry (and other screens): an optional title over its controls."""
    body: list[ft.Control] = []
    if title:
        body.append(ft.Text(title, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
    body.extend(controls)
    return ft.Card(
        ft.Container(ft.Column(body, spacing=spacing, tight=True), padding=12),
        margin=0,
    )


def heading(text: str) -> ft.Control:
    return ft.Text(text, size=22, weight=ft.FontWeight.BOLD)


def assets_dir() -> Path:
    """``assets/`` beside the package (a checkout), or inside it (an installed wheel)."""
    package = Path(__file__).resolve().parents[2]
    for candidate in (package / "_assets", package.parent / "assets"):
        if (candidate / "fonts").is_dir():
            return candidate
    raise FileNotFoundError(f"no assets folder with fonts next to {package}")


RED_SUITS = frozenset("♥♦")


def suit_spans(text: str, *, size: float | None = None) -> list[ft.TextSpan]:
    """``text`` in pieces, the red suits (♥ ♦) in red and every other letter as it is: the same
    colours in every list and sentence (the black suits take the text's own colour)."""
    spans: list[ft.TextSpan] = []
    run = ""
    for ch in text:
        if ch in RED_SUITS:
            if run:
                spans.append(ft.TextSpan(run))
                run = ""
            spans.append(ft.TextSpan(ch, style=ft.TextStyle(color=ft.Colors.ERROR, size=size)))
        else:
            run += ch
    if run:
        spans.append(ft.TextSpan(run))
    return spans


def suited(text: str, **kw: Any) -> ft.Text:
    """A text whose red suits are red (``kw``: the Text's own arguments)."""
    if not RED_SUITS & set(text):
        return ft.Text(text, **kw)
    return ft.Text(spans=suit_spans(text), **kw)
