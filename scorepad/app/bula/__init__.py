"""The Balkan bula in the app: its deal form (``form``), its entry (``entry``) and its sheet
(``sheet``), registered for the shell here."""

from __future__ import annotations

from ..families.form import explained
from ..frame.family import FamilyUI, register_family
from . import form
from .entry import bula_entry
from .sheet import bula_sheet

register_family(
    "bula",
    ui=FamilyUI(
        new_form=form.new_form,
        edit_form=form.edit_form,
        carry=form.carry,
        entry=bula_entry,
        sheet=bula_sheet,
        title=form.title,
        explained=explained,
        forms=(form.BulaForm,),
        dirty=form.BulaForm.touched,
    ),
)
