"""Which double-dummy core runs: compiled where the install found a C compiler, else Python.

The values of the two are compared in tests/test_dds.py; here, that the install built the
compiled one where it could, that ``SCOREPAD_SOLVER=python`` chooses the Python one, that the
CLI says which one runs, and that the audit and the analysis give the same answers with both.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from scorepad.play import dds
from scorepad.play.analysis import analyse, analysis_json
from scorepad.play.play import Play
from scorepad.play.record import DealRecord, audit, audit_json, parse_record
from scorepad.testing.generate import RandomChooser, random_record

ROOT = Path(__file__).resolve().parent.parent
DEALS = ROOT / "tests" / "fixtures" / "deals"


def run(*args: str, solver: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "SCOREPAD_SOLVER"}
    if solver is not None:
        env["SCOREPAD_SOLVER"] = solver
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_install_built_the_compiled_core_where_a_compiler_is() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    expected = "compiled" if shutil.which(compiler) else "python"
    core = run("-c", "from scorepad.play import dds; print(dds.CORE)", solver=None)
    assert core.strip() == expected


def test_scorepad_solver_python_chooses_the_python_core() -> None:
    code = "from scorepad.play import dds; print(dds.CORE)"
    assert run("-c", code, solver="python").strip() == "python"
    assert run("-c", code, solver="compiled").strip() == dds.CORE  # only "python" forces


@pytest.mark.parametrize("solver", [None, "python"])
def test_audit_version_says_which_core_runs(solver: str | None) -> None:
    expected = "python" if solver == "python" else dds.CORE
    out = run("-m", "scorepad.cli", "audit", "--version", solver=solver)
    assert out == f"scorepad 0.1.0, double-dummy solver: {expected}\n"


def test_a_search_runs_on_the_core_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0: every spade and ♣87, leading in no trump: the eight spades, then the clubs lost.
    p = Play([1023, 1023 << 10, 1023 << 20], (0, 1, 2), trump=None, first_hand=0)
    assert isinstance(dds.DoubleDummy(p, 0, more=True, core="python").search, dds.PythonSearch)
    compiled = dds.DoubleDummy(p, 0, more=True, core="compiled")
    assert type(compiled.search).__module__ == "scorepad.play._dds"
    assert compiled.value(p) == 8 and compiled.nodes > 0
    monkeypatch.setattr(dds, "CORE", "python")
    assert isinstance(dds.DoubleDummy(p, 0, more=True).search, dds.PythonSearch)
    monkeypatch.setattr(dds, "CORE", "compiled")
    assert type(dds.DoubleDummy(p, 0, more=True).search).__module__ == "scorepad.play._dds"


def both(record: DealRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit (the claim checked double dummy) and the analysis: equal with both cores."""
    out = {}
    for core in ("compiled", "python"):
        monkeypatch.setattr(dds, "CORE", core)
        a = audit(record)
        out[core] = (audit_json(a), analysis_json(a, analyse(a)) if a.tricks else None)
    assert out["compiled"] == out["python"]


@pytest.mark.parametrize("path", sorted(DEALS.glob("*.json")), ids=lambda p: p.stem)
def test_the_audit_and_the_analysis_are_the_same_with_both_cores(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    both(parse_record(path.read_bytes()), monkeypatch)


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_records_with_claims_are_the_same_with_both_cores(
    seed: int, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = random_record(RandomChooser(900 + seed), players=players, claim=True)
    both(parse_record(record), monkeypatch)
