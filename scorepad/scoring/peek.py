"""Which family a session file belongs to, told from its convention without loading an engine.

`settle` asks this first: a pulya file (nearly all of them) then never loads the other
families' engines (:mod:`.families`), a file of another family loads them.
"""

from __future__ import annotations

import re
from pathlib import Path

FAMILIES = ("bula", "kassa", "pot", "direct")
_CONVENTION = re.compile(rb'"convention"\s*:\s*"([^"\\]{1,64})"')


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


def peek_family(data: bytes) -> str:
    """The family of a session file's convention, or ``pulya`` (whose parser reports any problem)."""
    m = _CONVENTION.search(data)
    return family_ids().get(m.group(1).decode("utf-8", "replace"), "pulya") if m else "pulya"
