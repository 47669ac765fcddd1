"""Today's `scorepad settle` equals the golden outputs, byte for byte (see scripts/golden.py).

The demo and 240 generated sessions of every preset (3 and 4 players): the figures without the
sentences, the whole `settle --json` in English and the readable sheet in Russian. A few go
through the real CLI too, so the command's own path is covered.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "golden.py")
assert _spec is not None and _spec.loader is not None
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

SESSIONS = {r["name"]: r["session"] for r in golden.read(golden.GOLDEN / "sessions.jsonl.gz")}
NUMBERS = {r["name"]: r["numbers"] for r in golden.read(golden.GOLDEN / "numbers.jsonl.gz")}
FULL = {r["name"]: r for r in golden.read(golden.GOLDEN / "full.jsonl.gz")}


def test_the_golden_set_covers_every_preset_and_both_table_sizes() -> None:
    assert len(SESSIONS) == 241
    for preset in golden.PRESETS:
        for players in (3, 4):
            assert sum(n.startswith(f"{preset}-{players}-") for n in SESSIONS) == 20


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_figures_and_sentences_are_unchanged(name: str) -> None:
    out = golden.outputs(SESSIONS[name])
    assert out["numbers"] == NUMBERS[name]
    assert out["json_en"] == FULL[name]["json_en"]
    assert out["text_ru"] == FULL[name]["text_ru"]


@pytest.mark.parametrize("name", ["demo", "leningrad-4-3", "rostov-3-7"])
def test_the_cli_prints_the_golden_bytes(name: str, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(SESSIONS[name], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "settle", str(path), "--json"],
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode("utf-8") == FULL[name]["json_en"]
    done = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--lang", "ru", "settle", str(path)],
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode("utf-8") == FULL[name]["text_ru"]


FAMILIES = {r["name"]: r for r in golden.read(golden.GOLDEN / "families.jsonl.gz")}


def test_the_family_golden_set_covers_every_preset_of_the_other_families() -> None:
    from scorepad.scoring.ledger.families import family_presets

    for preset in family_presets():
        names = [n for n in FAMILIES if n.rsplit("-", 1)[0] == preset]
        assert len(names) == 15, preset
        # Real evenings, not empty files: most of the 30 deals the generator asked for.
        assert sum(len(json.loads(FAMILIES[n]["session"])["deals"]) for n in names) > 15 * 15


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_the_other_families_outputs_are_unchanged(name: str) -> None:
    out = golden.family_outputs(FAMILIES[name]["session"])
    assert out["json_en"] == FAMILIES[name]["json_en"]
    assert out["text_ru"] == FAMILIES[name]["text_ru"]
