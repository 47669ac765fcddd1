"""A shell for the family screens in unit tests: the shell's dispatch for a ledger family (the
open session's FamilyStored, the family's own forms), on a real Store and a fake Flet page."""

from __future__ import annotations

from typing import Any

from scorepad.app.family_ui import ui_of
from scorepad.app.shell import Shell


class FamilyShell(Shell):
    def family_stored(self) -> Any:
        assert self.sid is not None
        with self.lock:
            return self.store.load_family(self.sid)

    def new_form(self) -> Any:  # type: ignore[override]
        self.editing = None
        stored = self.family_stored()
        self.basis = stored.revision
        self.form = ui_of(stored.family).new_form(stored)
        return self.form

    def edit_form(self, deal_id: int, index: int) -> Any:  # type: ignore[override]
        stored = self.family_stored()
        self.basis = stored.revision
        self.form = ui_of(stored.family).edit_form(stored, index)
        self.editing = (deal_id, index)
        self.state.edit_reason = ""
        return self.form


def in_order(root: Any) -> list[str]:
    """Every text under ``root`` in the order it is drawn (top to bottom, left to right)."""
    import flet as ft
    from flet.controls.base_control import BaseControl

    out: list[str] = []

    def walk(c: Any) -> None:
        if isinstance(c, ft.Text) and isinstance(c.value, str):
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
