"""Greek Prefa (the kassa) in the app: its deal form (``form``), its entry (``entry``) and its
sheet (``sheet``), registered for the shell here."""

from __future__ import annotations

from ..families.form import explained
from ..frame.family import FamilyUI, register_family
from . import form
from .entry import kassa_entry
from .sheet import kassa_sheet

register_family(
    "kassa",
    ui=FamilyUI(
        new_form=form.new_form,
        edit_form=form.edit_form,
        carry=form.carry,
        entry=kassa_entry,
        sheet=kassa_sheet,
        title=form.title,
        explained=explained,
        forms=(form.KassaForm,),
        dirty=form.KassaForm.touched,
    ),
)
