"""Screens draw; the table session writes (app/session.py).

No module of the app's pages holds the store's lock or reaches the store through the page
(``shell.store``, ``shell.lock``): every write and every locked read goes through the page's
``TableSession``, which holds the lock, checks the device's right to write and turns a refusal
into the player's words.  The server's own modules (app/server/) and the poll of other
processes' writes (frame/outside.py: one a server, not a page's) keep their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "scorepad" / "app"
KEEP_THEIR_OWN = {"session.py", "frame/outside.py"}

# The store's writes: in the pages only as the session's own (``shell.session.undo(...)``), or
# a club night's through its ClubStore (named ``club``), inside ``shell.session.write``.
WRITES = {
    "add_deal",
    "edit_deal",
    "void_deal",
    "restore_deal",
    "undo",
    "redo",
    "create_session",
    "close_session",
    "reopen_session",
    "delete_session",
    "import_session",
    "import_file",
    "rename_player",
    "merge_players",
    "undo_merge",
    "delete_player",
    "settle_debt",
    "create_season",
    "add_player",
}


def _pages() -> list[Path]:
    return [
        p
        for p in sorted(APP.rglob("*.py"))
        if p.relative_to(APP).parts[0] != "server"
        and p.relative_to(APP).as_posix() not in KEEP_THEIR_OWN
    ]


def _found(text: str, where: str) -> list[str]:
    """What module ``where`` (its ``text``) does that only the session may."""
    tree = ast.parse(text)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            said = ast.unparse(node)
            if node.attr == "lock":
                found.append(f"{where}:{node.lineno}: {said} (the session holds the lock)")
            elif node.attr == "store" and ast.unparse(node.value).endswith("shell"):
                found.append(f"{where}:{node.lineno}: {said} (the page has no store)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = ast.unparse(node.func.value)
            if (
                node.func.attr in WRITES
                and not (receiver.endswith("session") or receiver == "club")
            ) or receiver.endswith("session.store"):
                found.append(f"{where}:{node.lineno}: {receiver}.{node.func.attr}(...)")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


def test_no_page_holds_the_lock_or_writes_to_the_store() -> None:
    found = [
        line
        for path in _pages()
        for line in _found(path.read_text(encoding="utf-8"), path.relative_to(APP).as_posix())
    ]
    assert found == []


def test_the_guard_finds_what_it_forbids() -> None:
    """The check itself: each way a screen used to write is found."""
    text = (
        "def f(shell, sid, seen):\n"
        "    with shell.lock:\n"
        "        shell.store.history(sid)\n"
        "    shell.session.store.delete_session(sid, seen=seen)\n"
        "    db.undo(sid, seen=seen)\n"
        "    shell.session.undo(seen=seen)\n"
        "    club.undo(1, 2, 3, by=1, seen=seen)\n"
    )
    assert _found(text, "screens/probe.py") == [
        "screens/probe.py:2: shell.lock (the session holds the lock)",
        "screens/probe.py:3: shell.store (the page has no store)",
        "screens/probe.py:4: shell.session.store.delete_session(...)",
        "screens/probe.py:5: db.undo(...)",
    ]
