"""Flet's diff, made cheaper where the table pays it on every write (Flet 1.0.5 only).

Every control a screen adds is "configured" by Flet's ``DiffBuilder._configure_dataclass``: a
generator that recurses into every declared field of the control, some sixty a control, to find
the controls and value objects nested in it.  Almost every field holds its default (``None``, a
number, a string, an enum), yet each costs a nested generator, an ``is_dataclass`` call and a
debug log call; on the server that was a third of the CPU a write costs (the writer's new entry
frame of ~150 controls, each watching page's new card).

``configure`` does the same walk and the same work on the same objects, in the same order, but
skips what cannot hold a control without recursing into it: a field Flet's ``Prop`` keeps at its
(inert) default, and values of types that are neither dataclasses, lists nor dicts.  It replaces
the method only on the Flet version it was written against and proved equal to
(tests/test_flet_diff.py draws every screen both ways and compares the messages sent, byte for
byte); on any other version Flet's own method stays.
"""

from __future__ import annotations

import dataclasses
import logging
import weakref
from collections.abc import Iterator
from enum import Enum
from typing import Any

import flet
from flet.controls import object_patch
from flet.controls.object_patch import DiffBuilder, ObjectPatchException, _control_setattr
from flet.controls.value_types import Prop

VERSION = "1.0.5"  # the Flet whose method this one repeats
ORIGINAL = DiffBuilder._configure_dataclass

_log = logging.getLogger("flet")

# Types whose values hold no control: configuring them does nothing.  Learned as they come.
_INERT: dict[type, bool] = {type(None): True, str: True, int: True, float: True, bool: True}

# Per dataclass: its fields to walk, each with "read it only when set" (a Prop whose default
# holds no control: unset, its value is that default).
_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _inert(t: type) -> bool:
    known = _INERT.get(t)
    if known is None:
        known = _INERT[t] = not (
            hasattr(t, "__dataclass_fields__") or issubclass(t, dict | list) or issubclass(t, type)
        )
    return known


def _plan(cls: type) -> tuple[tuple[str, bool], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        steps = []
        for f in dataclasses.fields(cls):
            if f.metadata.get("skip", False):
                continue
            declared = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
            sparse = isinstance(declared, Prop) and (
                declared.default is None or isinstance(declared.default, str | int | float | Enum)
            )
            steps.append((f.name, sparse))
        plan = _PLANS[cls] = tuple(steps)
    return plan


def configure(
    self: DiffBuilder,
    item: Any,
    parent: Any,
    frozen: bool,
    configure_setattr_only: bool = False,
) -> Iterator[Any]:
    """``DiffBuilder._configure_dataclass`` (Flet 1.0.5), the same steps in the same order."""
    cls = type(item)
    if isinstance(item, type) or not hasattr(cls, "__dataclass_fields__"):
        if isinstance(item, dict):
            for v in item.values():
                if not _inert(type(v)):
                    yield from configure(self, v, parent, frozen)
        elif isinstance(item, list):
            for v in item:
                if not _inert(type(v)):
                    yield from configure(self, v, parent, frozen)
        elif isinstance(item, type) and hasattr(item, "__dataclass_fields__"):
            yield from ORIGINAL(self, item, parent, frozen, configure_setattr_only)
        return
    if _log.isEnabledFor(logging.DEBUG):
        _log.debug("\n_configure_dataclass: %s %s %s", item, frozen, configure_setattr_only)
    if parent is None:
        parent_ref = getattr(item, "_parent", None)
        parent = parent_ref() if parent_ref else None
    if parent:
        if parent is item:
            raise ObjectPatchException(f"Parent is the same as item: {item}")
        item._parent = weakref.ref(parent)
    if hasattr(item, "_frozen"):
        frozen = item._frozen
    elif frozen:
        item._frozen = frozen
    if getattr(cls, "__flet_control_cls__", None) is None:
        cls.__flet_control_cls__ = self.control_cls
    is_control = bool(self.control_cls) and isinstance(item, self.control_cls)
    if is_control:
        if not configure_setattr_only:
            item.build()
            item._before_update_safe()
            object.__setattr__(item, "_initialized", True)
        yield item
    if not configure_setattr_only:
        child_parent = item if is_control else parent
        values = item.__dict__.get("_values")
        for name, sparse in _plan(cls):
            if sparse and values is not None and name not in values:
                continue  # at its default, which holds nothing to configure
            v = getattr(item, name)
            if not _inert(type(v)):
                yield from configure(self, v, child_parent, frozen)
    if not frozen:
        dst_dirty = getattr(item, "_dirty", None)
        if dst_dirty is not None:
            dst_dirty.clear()
        else:
            if cls.__setattr__ is not _control_setattr:  # type: ignore[comparison-overlap]
                cls.__setattr__ = _control_setattr  # type: ignore[assignment]
            object.__setattr__(item, "__changes", {})


def removed(self: DiffBuilder, item: Any, recurse: bool, owner: Any = None) -> Iterator[Any]:
    """``DiffBuilder._removed_controls`` (Flet 1.0.5), which stops at a control the new tree
    adopted.

    A redraw builds a new frame around the parts it kept (Shell.reuse); Flet's diff gives each
    kept part its new parent, then walks the old frame as removed, down into those kept parts:
    every control of every kept card was dropped from the page's index (a tap on it reached
    nothing) and told it was unmounted, on every write, for every page.  A child whose parent
    is no longer the control being walked was adopted by the new tree: it and everything in it
    stay.  Adopted means: its parent is not the control being walked and is itself part of
    this diff's new tree (Flet registers every control it added or reconciled); a parent
    reference Flet left pointing at an old control (it skips a child it finds unchanged)
    is no adoption, and the child goes with its control.
    """
    control_cls = self.control_cls
    if control_cls and isinstance(item, control_cls):
        if owner is not None:
            ref = getattr(item, "_parent", None)
            adopter = ref() if ref is not None else None
            if (
                adopter is not None
                and adopter is not owner
                and self._added_dataclasses.get(getattr(adopter, "_i", None)) is adopter
            ):
                return
        if hasattr(item, "__prev_lists"):
            for item_list in getattr(item, "__prev_lists", {}).values():
                yield from removed(self, item_list, recurse, item)
            for item_dict in getattr(item, "__prev_dicts", {}).values():
                yield from removed(self, item_dict, recurse, item)
            for item_class in getattr(item, "__prev_classes", {}).values():
                yield from removed(self, item_class, recurse, item)
        elif recurse:
            values = item.__dict__.get("_values")
            for name, sparse in _plan(type(item)):
                if sparse and values is not None and name not in values:
                    continue  # at its default, which holds no control
                v = getattr(item, name)
                if not _inert(type(v)):
                    yield from removed(self, v, recurse, item)
        yield item
    elif isinstance(item, dict):
        for v in item.values():
            yield from removed(self, v, recurse, owner)
    elif isinstance(item, list):
        for v in item:
            yield from removed(self, v, recurse, owner)


ORIGINAL_REMOVED = DiffBuilder._removed_controls


def install() -> bool:
    """Use ``configure`` and ``removed`` for Flet's diff, on the version they repeat; says
    whether it did."""
    if flet.__version__ != VERSION or object_patch.DiffBuilder is not DiffBuilder:
        return False
    DiffBuilder._configure_dataclass = configure  # type: ignore[method-assign]
    DiffBuilder._removed_controls = removed  # type: ignore[method-assign]
    return True


def uninstall() -> None:
    DiffBuilder._configure_dataclass = ORIGINAL  # type: ignore[method-assign]
    DiffBuilder._removed_controls = ORIGINAL_REMOVED  # type: ignore[method-assign]
