"""The pot and direct families in the app (the Austrian games, Illustrated, American, Swabian):
the deal form (``form``), the entry (``entry``), the sheet (``sheet``) and its figures
(``figures``), registered for the shell here."""

from __future__ import annotations

from ..families.form import explained
from ..frame.family import FamilyUI, register_family
from . import form
from .entry import entry_screen
from .sheet import sheet_screen

register_family(
    "pot",
    "direct",
    ui=FamilyUI(
        new_form=form.new_form,
        edit_form=form.edit_form,
        carry=form.carry,
        entry=entry_screen,
        sheet=sheet_screen,
        title=form.title,
        explained=explained,
        forms=(form.PotForm,),
        dirty=form.dirty,
    ),
)
