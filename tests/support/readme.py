"""The README's sections as a reader runs them: each indented command line of a section, split
as a shell would (a trailing ``  # comment`` left out)."""

from __future__ import annotations

import shlex
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def section_commands(heading: str) -> list[list[str]]:
    """The command lines under ``## heading`` (until the next ``## ``)."""
    text = README.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    return [shlex.split(line.split("  #", 1)[0]) for line in lines]
