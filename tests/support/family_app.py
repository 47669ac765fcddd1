"""Helpers for the family screens' tests."""

from __future__ import annotations

from typing import Any


def in_order(root: Any) -> list[str]:
    """Every text under ``root`` in the order it is drawn (top to bottom, left to right)."""
    import flet as ft
    from flet.controls.base_control import BaseControl

    out: list[str] = []

    def walk(c: Any) -> None:
        if isinstance(c, ft.Text) and c.spans:  # drawn in coloured pieces: one string
            out.append("".join(span.text or "" for span in c.spans))
        elif isinstance(c, ft.Text) and isinstance(c.value, str):
            out.append(c.value)
        for attr in ("content", "controls", "title", "actions"):
            v = getattr(c, attr, None)
            if isinstance(v, list):
                for x in v:
                    if isinstance(x, BaseControl):
                        walk(x)
            elif isinstance(v, BaseControl):
                walk(v)

    walk(root)
    return out
