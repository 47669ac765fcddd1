"""Which family a session file belongs to, told from its convention without loading an engine.

`settle` asks this first: a pulya file (nearly all of them) then never loads the other
families' engines (:mod:`.ledger.families`), a file of another family loads them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FAMILIES = ("bula", "kassa", "pot", "direct")


def conventions_dir() -> Path:
    """``conventions/`` beside the package (a checkout), or inside it (an installed wheel).

    Its one folder per family is what tells a preset's family; the pulya's presets are read by
    :mod:`.pulya.convention`, the others' by :mod:`.ledger.families`.
    """
    here = Path(__file__).resolve().parents[1]  # the package
    for candidate in (here / "_conventions", here.parent / "conventions"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no conventions folder next to {here}")  # a broken install


def family_ids() -> dict[str, str]:
    """Preset id → family, from the file names alone (cheap: no preset is read)."""
    base = conventions_dir()
    return {
        path.stem: family for family in FAMILIES for path in sorted((base / family).glob("*.toml"))
    }


def known_conventions() -> list[str]:
    """Every preset id, the pulya's first (file names alone: no preset is read)."""
    base = conventions_dir()
    return [p.stem for p in sorted(base.glob("*.toml"))] + list(family_ids())


def convention_of(data: bytes | str | dict[str, Any]) -> str | None:
    """The convention a session file names, from its parsed value (a ``\\u`` escape is the
    letter it writes), or None: not JSON, nested past 200 levels, no convention string."""
    from pydantic_core import from_json  # the parser pydantic uses: bounded depth, fast

    try:
        raw = data if isinstance(data, dict) else from_json(data)
    except ValueError:
        return None
    convention = raw.get("convention") if isinstance(raw, dict) else None
    return convention if isinstance(convention, str) else None


def peek_family(data: bytes | str | dict[str, Any]) -> str:
    """The family of a session file's convention, or ``pulya`` (whose parser reports any problem)."""
    convention = convention_of(data)
    return family_ids().get(convention, "pulya") if convention is not None else "pulya"
