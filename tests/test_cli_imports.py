"""Each command loads only what it uses: start-up is almost all imports (issue 12).

The modules a real `scorepad` run has loaded when it ends, per command: `--version` and
`--help` load no library at all, `settle FILE` of a pulya session neither the store
(sqlite-utils), the rules engine, the other families' engines nor Flet, `audit` the rules
engine but not the store.  (How long it takes is measured by
benchmarks/bench_scoring.py, never here.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scorepad" / "data" / "demo-session.json"
RECORD = ROOT / "tests" / "fixtures" / "deals"

# Runs the entry point as the installed script does, then lists sys.modules on stderr.
PROBE = """
import json, sys
from scorepad.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print("MODULES " + json.dumps(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""

HEAVY = ("pydantic", "babel", "sqlite_utils", "scorepad.store", "scorepad.play", "flet")


def loaded(*args: str, db: Path | None = None) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if db is not None:
        env["SCOREPAD_DB"] = str(db)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    line = done.stderr.splitlines()[-1]
    assert line.startswith("MODULES ")
    return set(json.loads(line.removeprefix("MODULES ")))


def top(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["settle", "--help"]])
def test_version_and_help_load_no_library(args: list[str]) -> None:
    modules = loaded(*args)
    assert [name for name in HEAVY if top(modules, name)] == []
    assert "scorepad.cli" in modules


@pytest.mark.parametrize("extra", [[], ["--json"], ["--no-explain"]])
def test_settle_of_a_file_loads_neither_the_store_nor_the_rules_engine_nor_flet(
    extra: list[str],
) -> None:
    modules = loaded("settle", str(DEMO), *extra)
    assert "scorepad.scoring.pulya.score" in modules and "scorepad.report" in modules
    for name in ("sqlite_utils", "scorepad.store", "scorepad.play", "flet"):
        assert not top(modules, name), name
    assert "scorepad.scoring.ledger.families" not in modules  # the other families' engines


def test_audit_loads_the_rules_engine_but_not_the_store() -> None:
    record = sorted(RECORD.glob("*.json"))[0]
    modules = loaded("audit", str(record))
    assert "scorepad.play.record" in modules
    assert not top(modules, "sqlite_utils") and not top(modules, "flet")


def test_a_store_command_loads_the_store_but_not_flet(tmp_path: Path) -> None:
    modules = loaded("sessions", db=tmp_path / "s.db")
    assert "scorepad.store" in modules and "sqlite_utils" in modules
    assert not top(modules, "flet") and not top(modules, "scorepad.play")
