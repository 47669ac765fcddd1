"""Every module, class and function the docs name still exists.

A reference that no longer resolves sends a newcomer to a room that is gone (docstrings once
named ``family_ui`` and ``bula_form.BulaForm`` long after both had moved).  Checked here:

- in the README and ``docs/``, every path in backticks (``scorepad/club/file.py``,
  ``scoring/pulya/legal.py``, ``tests/test_api.py``) and every dotted name under ``scorepad.``;
- in the package's own sources, every Sphinx role (``:mod:``, ``:class:``, ``:func:``, ``:meth:``,
  ``:data:``, ``:attr:``), absolute or relative to the module that writes it.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorepad"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Where a path in the docs may be read from: the repository, the package, the app, the engine.
BASES = [ROOT, PACKAGE, PACKAGE / "app", PACKAGE / "scoring"]
SUFFIXES = (".py", ".c", ".md", ".toml", ".json", ".po", ".sh")
FILES = {
    p.name
    for p in ROOT.rglob("*")
    if p.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in p.parts)
}

BACKTICKED = re.compile(r"`([^`\s]+)`")
ROLE = re.compile(r":(mod|class|func|meth|data|attr|obj|exc):`~?([^`<>\s]+)`")


# The folders a path to the code starts with: the repository's, the package's, the app's.
FOLDERS = {p.name for base in BASES for p in base.iterdir() if p.is_dir()} | {"..", "shared"}


def _is_path(token: str) -> bool:
    """A path to the code or the specs (a format's name such as ``scorepad-session/1`` is not)."""
    if re.fullmatch(r"[\w./-]+", token) is None or token.startswith("screenshots/"):
        return False
    if "/" not in token:
        return token.endswith(SUFFIXES) and not token.startswith(("deal-", "session"))
    return token.split("/")[0] in FOLDERS


def _path_resolves(token: str) -> bool:
    if "/" not in token:
        return token in FILES
    if token.startswith("../shared/"):  # the specs, laid beside the repository (as for CI)
        return (ROOT.parent / token.removeprefix("../")).exists() or not SPECS_BESIDE
    return any((base / token.rstrip("/")).exists() for base in BASES)


# A checkout on its own (a worktree elsewhere) has no specs beside it: their paths are then
# checked only where they are laid, as in every clone CI makes.
SPECS_BESIDE = (ROOT.parent / "shared" / "spec").is_dir()


def _resolve(dotted: str, *, package: str = "", own: str = "") -> bool:
    """``dotted`` is a module, or a module followed by attributes (a class, its method)."""
    names: list[str] = []
    if dotted.startswith("."):
        up = len(dotted) - len(dotted.lstrip("."))
        base = package.split(".")[: len(package.split(".")) - (up - 1)]
        names.append(".".join([*base, dotted.lstrip(".")]))
    else:
        names.append(dotted)
        if own:
            names.append(f"{own}.{dotted}")  # a name of the module's own
        if package:
            names.append(f"{package}.{dotted}")  # a sibling module
    if any(_importable(name) for name in names):
        return True
    # A bare method's name in a class's docstring: a method of a class of the module.
    if own and "." not in dotted:
        module = importlib.import_module(own)
        return any(
            isinstance(value, type) and value.__module__ == own and hasattr(value, dotted)
            for value in vars(module).values()
        )
    return False


def _importable(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def _doc_tokens() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for token in BACKTICKED.findall(doc.read_text(encoding="utf-8")):
            found.append((doc.name, token))
    return found


def test_every_path_the_docs_name_exists() -> None:
    missing = [
        f"{doc}: {token}"
        for doc, token in _doc_tokens()
        if _is_path(token) and not _path_resolves(token)
    ]
    assert missing == []


def test_every_dotted_name_the_docs_give_resolves() -> None:
    missing = [
        f"{doc}: {token}"
        for doc, token in _doc_tokens()
        if re.fullmatch(r"scorepad(\.\w+)+", token)
        and not token.endswith((".db", ".json", ".toml"))  # a file's name (the database's)
        and not _resolve(token)
    ]
    assert missing == []


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_role_in_the_sources_resolves() -> None:
    missing = []
    for path in _sources():
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        own = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = ".".join(parts[:-1])
        for role, target in ROLE.findall(path.read_text(encoding="utf-8")):
            if not _resolve(target, package=package, own=own):
                missing.append(f"{'/'.join(parts)}.py: :{role}:`{target}`")
    assert missing == []
