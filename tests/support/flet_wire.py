"""A raw client of Flet 1.0.5's WebSocket protocol, for the shared-table tests.

It speaks what the Flutter client speaks (flet/messaging/protocol.py, flet_web/fastapi/
flet_app.py): binary frames ``0x00`` + msgpack ``[action, body]``; it registers, answers the
server's method calls (the SharedPreferences of the device token) and keeps every control the
server sent, so a test can find a control by its semantics identifier and fire its events,
or send whatever an attacker would.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
import websockets.sync.client as ws_client
from websockets.exceptions import ConnectionClosed

REGISTER, PATCH, EVENT, PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def _walk(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        v = stack.pop()
        yield v
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


class Client:
    """One page: a WebSocket to ``/ws`` registered at ``route``."""

    def __init__(
        self,
        port: int,
        route: str = "/",
        *,
        prefs: dict[str, Any] | None = None,
        width: int = 360,
        register: bool = True,
        host: str = "127.0.0.1",
        headers: dict[str, str] | list[tuple[str, str]] | None = None,
        session_id: str | None = None,
        sock: socket.socket | None = None,
        source: str | None = None,
    ) -> None:
        """``sock``: a connection already open to ``host`` (a phone's, from another network
        namespace: tests/netns.py); else one is opened from here, from the address ``source``
        if given (another 127.0.0.x: a phone of another address, for the per-address bounds)."""
        if sock is None and source is not None:
            sock = socket.create_connection((host, port), timeout=20, source_address=(source, 0))
        self.port = port
        self.prefs: dict[str, Any] = {} if prefs is None else prefs
        self.frames: list[list[Any]] = []
        self.crashed: list[str] = []
        self.closed: int | None = None
        self.ws = ws_client.connect(
            f"ws://{host}:{port}/ws",
            origin=f"http://{host}:{port}",  # type: ignore[arg-type]
            additional_headers=headers or {},
            open_timeout=20,
            max_size=None,
            sock=sock,
        ).__enter__()  # a connection kept open across calls (closed by close())
        #: A wait looks again as soon as the server said anything, not after 0.2 s of reading
        #: (for a caller whose every wait names the state it needs: a bare "a new frame" may
        #: see the first of an answer's frames only).
        self.eager = False
        self.page_id: int | None = None
        self.session_id: str | None = None  # the server's, for a reload (``session_id=``)
        if register:
            self.send(
                REGISTER,
                {
                    "session_id": session_id,
                    "page_name": "",
                    "page": {
                        "route": route,
                        "width": width,
                        "height": 740,
                        "web": True,
                        "platform": "linux",
                    },
                },
            )

    # --- sending -----------------------------------------------------------------------

    def send(self, action: int, body: Any) -> None:
        self.ws.send(pack(action, body))

    def send_raw(self, data: bytes | str) -> None:
        self.ws.send(data)

    def event(self, target: int, name: str = "click", data: Any = None) -> None:
        self.send(EVENT, {"target": target, "name": name, "data": data})

    def props(self, target: int, props: dict[str, Any]) -> None:
        self.send(PROPS, {"id": target, "props": props})

    # --- receiving ---------------------------------------------------------------------

    def pump(self, timeout: float = 0.2, *, first: bool = False) -> int:
        """Read what the server sent within ``timeout`` s (answering its method calls);
        ``first``: only until something came (and what came with it), for a wait to look."""
        n = 0
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.0, deadline - time.monotonic())  # 0: what has arrived, no waiting
            try:
                data = self.ws.recv(timeout=left)
            except TimeoutError:
                return n
            except ConnectionClosed as exc:
                self.closed = exc.rcvd.code if exc.rcvd else 1006
                return n
            n += 1
            self._on(data)
            if first:
                deadline = 0.0

    def _on(self, data: bytes | str) -> None:
        assert isinstance(data, bytes) and data[:1] == b"\x00"
        action, body = msgpack.unpackb(data[1:], strict_map_key=False, raw=False)
        self.frames.append([action, body])
        if action == REGISTER and self.page_id is None:
            self.session_id = body.get("session_id")
            patch = body.get("page_patch") or {}
            self.page_id = patch.get("_i") if isinstance(patch, dict) else None
        elif action == INVOKE:
            self._answer(body)
        elif action == CRASHED:
            self.crashed.append(str(body.get("message")))

    def _answer(self, body: dict[str, Any]) -> None:
        name, args = body.get("name"), body.get("args") or {}
        result: Any = None
        if name == "get":
            result = self.prefs.get(args.get("key"))
        elif name == "set":
            self.prefs[args.get("key")] = args.get("value")
            result = True
        self.send(
            INVOKE,
            {
                "control_id": body["control_id"],
                "call_id": body["call_id"],
                "result": result,
                "error": None,
            },
        )

    def wait(self, predicate: Callable[[Client], bool], timeout: float = 30.0) -> None:
        """Read until ``predicate`` holds (a state, not a time); fail after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            assert time.monotonic() < deadline, f"never happened; {len(self.frames)} frames"
            assert self.closed is None, f"closed with {self.closed}"
            self.pump(0.2, first=self.eager)

    def wait_closed(self, timeout: float = 30.0) -> int:
        deadline = time.monotonic() + timeout
        while self.closed is None:
            assert time.monotonic() < deadline, "the server never closed the connection"
            self.pump(0.2)
        return self.closed

    # --- what the page shows -----------------------------------------------------------

    def strings(self) -> set[str]:
        return {v for f in self.frames for v in _walk(f) if isinstance(v, str)}

    def shows(self, text: str) -> bool:
        return any(text in s for s in self.strings())

    def control(self, identifier: str) -> int:
        """The id of the control wrapped in the semantics ``identifier`` (the newest drawn)."""
        found: int | None = None
        for f in self.frames:
            for v in _walk(f):
                if isinstance(v, dict) and v.get("identifier") == identifier:
                    content = v.get("content")
                    if isinstance(content, dict) and "_i" in content:
                        found = content["_i"]
        assert found is not None, f"no control {identifier!r} on the page"
        return found

    def count(self, identifier: str) -> int:
        """How many times a control with semantics ``identifier`` was drawn."""
        return sum(
            isinstance(v, dict) and v.get("identifier") == identifier
            for f in self.frames
            for v in _walk(f)
        )

    def has(self, identifier: str) -> bool:
        return any(
            isinstance(v, dict) and v.get("identifier") == identifier
            for f in self.frames
            for v in _walk(f)
        )

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def nav(client: Client, label: str, timeout: float = 15) -> None:
    """A bottom-bar destination tapped, as the Flutter client does."""
    client.wait(lambda c: c.shows(label), timeout)
    bar = [
        v
        for f in client.frames
        for v in _walk(f)
        if isinstance(v, dict) and v.get("_c") == "NavigationBar"
    ][-1]
    index = [d.get("label") for d in bar.get("destinations", [])].index(label)
    n = len(client.frames)
    client.props(bar["_i"], {"selected_index": index})
    client.event(bar["_i"], "change", str(index))
    client.wait(lambda c: len(c.frames) > n, timeout)
