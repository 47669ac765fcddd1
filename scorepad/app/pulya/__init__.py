"""The pulya in the app: its deal form (``form``), its entry screen (``entry``), its sheet
(``sheet``) and the paper drawing of the pulya, gora and whists (``paper``), registered for the
shell here as every family's are."""

from __future__ import annotations

from ...report.pulya import deal_title
from ..frame.family import FamilyUI, register_family
from . import form
from .entry import entry_screen
from .sheet import sheet_screen

register_family(
    "pulya",
    ui=FamilyUI(
        new_form=form.new_form,
        edit_form=form.edit_form,
        carry=form.carry_stored,
        entry=entry_screen,
        sheet=sheet_screen,
        title=deal_title,
        explained=form.explained,
        forms=(form.DealForm,),
        dirty=form.touched,
        carry_edit=form.carry_edit,
    ),
)
