"""Every testing id the app sets is in the table of ``docs/testing.md``.

``tests/test_tooling.py`` checks the other direction (every id the table names is in the code);
together they keep the table the code's own list: an id added to a screen without a line in the
docs, or a line left for an id that is gone, fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "scorepad" / "app"
HOLE = "\x00"  # where an f-string or a table entry has a part that varies


def _template(node: ast.expr) -> str | None:
    """An id written in the code: a literal, or an f-string with its varying parts as holes."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else HOLE for v in node.values)
    return None  # an id passed down in a variable: checked where it is written


def code_ids() -> dict[str, str]:
    """Each id template given to ``sem(…)`` or ``ft.Semantics(identifier=…)``, with one place."""
    found: dict[str, str] = {}
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            arg = None
            if name == "sem" and node.args:
                arg = node.args[0]
            elif name == "Semantics":
                arg = next((k.value for k in node.keywords if k.arg == "identifier"), None)
            template = None if arg is None else _template(arg)
            if template is not None:
                found.setdefault(template, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def documented() -> set[str]:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    table = text.split("## Testing ids", 1)[1]
    # An entry may start with its varying part (``{row}-pot``), which the other direction's
    # test cannot look up in the code's literals.
    return {re.sub(r"\{[^}]*\}", HOLE, i) for i in re.findall(r"`([a-z{][^`]*)`", table)}


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile(re.escape(template).replace(HOLE, ".+") + "$")


def test_the_code_finds_its_ids() -> None:
    ids = code_ids()
    # A sample the test must see, or it would pass by reading nothing.
    assert {"pulya-circle", "sessions-empty", f"deal-title-{HOLE}", f"{HOLE}-back"} <= set(ids)
    assert len(ids) > 200


def test_every_id_the_app_sets_is_documented() -> None:
    docs = documented()
    doc_patterns = [_pattern(d) for d in docs]

    def listed(template: str) -> bool:
        # The table's entry covers the code's (``deal-{n}`` covers f"deal-{number}"), or the
        # code's is a pattern the table spells out (f"{ident}-back": ``confirm-void-back``).
        return any(p.match(template.replace(HOLE, "x")) for p in doc_patterns) or any(
            _pattern(template).match(d.replace(HOLE, "x")) for d in docs
        )

    missing = {t.replace(HOLE, "{…}"): where for t, where in code_ids().items() if not listed(t)}
    assert not missing, f"testing ids missing from docs/testing.md: {missing}"
