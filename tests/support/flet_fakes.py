"""A real flet.Page without a client (Flet 1.0.5), as in shared/guides/flet-web-testing.md §6."""

from __future__ import annotations

from typing import Any

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import MessageAction, configure_encode_object_for_msgpack
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

from scorepad.app.frame import flet_diff

flet_diff.install()  # the pages the app serves diff with it (server/run.py): tests too

_encode = configure_encode_object_for_msgpack(BaseControl)


class RecordingConnection(Connection):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[Any] = []
        self.pubsubhub = PubSubHub()

    def send_message(self, message: Any) -> None:
        msgpack.packb([message.action, message.body], default=_encode)
        self.messages.append(message)


def make_page(width: int = 360, height: int = 740) -> tuple[ft.Page, Session, RecordingConnection]:
    conn = RecordingConnection()
    session = Session(conn)
    _context_page.set(session.page)
    session.apply_page_patch({"route": "/", "width": width, "height": height})
    msgpack.packb(session.get_page_patch(), default=_encode)
    return session.page, session, conn


def find(root: Any, predicate: Any) -> list[Any]:
    out, stack, seen = [], [root], set()
    while stack:
        c = stack.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        if predicate(c):
            out.append(c)
        for attr in (
            "views",
            "controls",
            "content",
            "options",
            "actions",
            "_b",
            "rows",
            "cells",
            "columns",
            "label",
            "title",
            "overlay",
            "_dialogs",
            "appbar",
            "leading",
            "navigation_bar",
            "destinations",
            "icon",
        ):
            v = getattr(c, attr, None)
            if isinstance(v, list):
                stack.extend(x for x in v if isinstance(x, BaseControl))
            elif isinstance(v, BaseControl):
                stack.append(v)
    return out


def by_id(root: Any, identifier: str) -> Any:
    """The control inside ``Semantics(identifier=...)``."""
    found = find(root, lambda c: isinstance(c, ft.Semantics) and c.identifier == identifier)
    assert len(found) == 1, f"expected one control with id {identifier!r}, got {len(found)}"
    return found[0].content


def texts(root: Any) -> list[str]:
    """Every text shown, a text drawn in coloured pieces (its spans) as one string."""
    out = []
    for c in find(root, lambda c: isinstance(c, ft.Text)):
        if isinstance(c.value, str):
            out.append(c.value)
        elif c.spans:
            out.append("".join(span.text or "" for span in c.spans))
    return out


def shown_lines(root: Any) -> list[str]:
    """Every line of text shown: a text of several lines (a history card's sentences) gives
    each of its lines."""
    return [line for text in texts(root) for line in text.split("\n")]


async def fire(session: Session, control: Any, event: str = "click", data: Any = None) -> None:
    conn = session.connection
    n = len(conn.messages)
    await session.dispatch_event(control._i, event, data)
    crashed = [
        m.body.message for m in conn.messages[n:] if m.action == MessageAction.SESSION_CRASHED
    ]
    if crashed:
        raise AssertionError(f"on_{event} handler raised:\n{crashed[0]}")


async def type_into(session: Session, field: Any, value: str) -> None:
    session.apply_patch(field._i, {"value": value})
    await fire(session, field, "change", value)


async def navigate(session: Session, page: ft.Page, ident: str) -> None:
    """A tap on a destination of the bottom bar (phone) or the rail (laptop), by its id."""
    bars = find(page, lambda c: isinstance(c, ft.NavigationBar | ft.NavigationRail))
    assert len(bars) == 1, f"expected one navigation bar or rail, got {len(bars)}"
    bar = bars[0]
    ids = [d.icon.identifier for d in bar.destinations]
    session.apply_patch(bar._i, {"selected_index": ids.index(ident)})
    await fire(session, bar, "change", str(ids.index(ident)))
