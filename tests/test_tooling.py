"""The code stays clean: ruff (lint and format) and mypy --strict on the package; the README true."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_lint() -> None:
    done = run("ruff", "check", "scorepad", "tests", "benchmarks", "scripts")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format() -> None:
    done = run("ruff", "format", "--check", "scorepad", "tests", "benchmarks", "scripts")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict() -> None:
    done = run("mypy", "scorepad")
    assert done.returncode == 0, done.stdout + done.stderr


def test_readme_has_exactly_the_two_setup_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in setup.splitlines() if line.startswith("    ")]
    assert commands == ["python -m pip install -e . && scorepad", "bash scripts/test"]
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_demo_sheet() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--lang", "ru", "demo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Платежи:" in done.stdout


def test_the_readme_examples_run() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```")[0] for b in readme.split("```json")[1:]]
    session, record = blocks
    settled = run_cli("settle", "-", "--json", stdin=session)
    assert settled.returncode == 0, settled.stderr
    assert json_of(settled.stdout)["balance"] == ["-40/3", "44/3", "-4/3"]
    audited = run_cli("audit", "-", "--json", stdin=record)
    assert audited.returncode == 0, audited.stderr
    assert json_of(audited.stdout)["entry"]["tricks"] == {"0": 9, "1": 1, "2": 0}


def json_of(text: str) -> dict[str, object]:
    import json

    return json.loads(text)  # type: ignore[no-any-return]


def test_every_testing_id_in_the_readme_is_in_the_app() -> None:
    import re

    readme = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    table = readme.split("## Testing ids", 1)[1].split("\n\n")[2]
    ids = {i for row in table.splitlines()[2:] for i in re.findall(r"`([a-z][^`]*)`", row)}
    # The app's modules, and the reports that name the cash-out's columns.
    paths = [*(ROOT / "scorepad" / "app").rglob("*.py"), ROOT / "scorepad" / "report" / "ledger.py"]
    code = "\n".join(p.read_text(encoding="utf-8") for p in paths)
    # Every string literal that could name a control, its {…} parts as wildcards.
    literal = re.compile(
        r"""f?["']([a-z][a-z0-9_]*(?:[-_][a-z0-9_{}.\[\]]+|\{[^}"']*\})+|[a-z]+)["']"""
    )
    templates = {re.sub(r"\{[^}]*\}", "{}", m) for m in literal.findall(code)}
    patterns = [re.compile(re.escape(t).replace(r"\{\}", ".+") + "$") for t in templates]

    def found(ident: str) -> bool:
        shape = re.sub(r"\{[^}]*\}", "{}", ident)
        return shape in templates or any(p.match(ident) for p in patterns)

    def spelled(ident: str) -> list[str]:
        """``stat-{won,lost}`` is two ids; ``{seat}``, ``{0..10}`` or ``{a,…}`` stay open."""
        m = re.search(r"\{([^}…]*,[^}…]*)\}", ident)
        if m is None:
            return [ident]
        return [
            x
            for alt in m.group(1).split(",")
            for x in spelled(ident[: m.start()] + alt + ident[m.end() :])
        ]

    every = [x for i in ids for x in spelled(i)]
    assert len(every) > 180
    assert sorted(i for i in every if not found(i)) == []


def test_the_readme_is_for_players_and_hosts_and_under_350_lines() -> None:
    """Issue #34: the README is for players and hosts; the rest (every command of a club night,
    of the players' directory, the languages' terms, safety, testing) is in docs/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 350
