"""The benchmark's 10,000-deal sessions settle to the same bytes as before the speed work.

`benchmarks/bench_scoring.py` times a seeded 10,000-deal Sochi session (3 players); the files
in `tests/fixtures/bench-*.json.gz` are that session and a Leningrad one at 4 players (halves,
doubled whists and gora, a sitting-out dealer).  Each goes through the CLI's own `main`
in-process (`settle --json`, the Russian sheet, the sheet without sentences), and the SHA-256
of every output must equal the one computed from the code without the speed work.  A
deliberate scoring or wording fix changes these hashes: recompute them then, from the code
before the change being tested, and say why.  (Recomputed twice: the gender-free wording of the
sentences changed the `--json` and Russian outputs; then deals numbered from 1, fractions as
⅓ and the cash-out table changed the wording again, computed from the code before the speed work
with those changes. The figures did not move: tests/golden/numbers.jsonl.gz is unchanged.)
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from scorepad import cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# (session, arguments after the file): sha256 of stdout, its length in bytes.
EXPECTED = {
    ("sochi-3", "--json"): (
        "9da41329e45f5cea24111ee8288cd615e30f5f4e8fc44311ea8a2becc7ffd3c1",
        2_875_730,
    ),
    ("sochi-3", "ru"): (
        "125fe7d3ef051e42e205ce64168e61d37cb7f50dddd831059e7549ac12668c99",
        2_413_933,
    ),
    ("sochi-3", "--no-explain"): (
        "67c05c2ed952184dc0e68f62585e4e07b85b90ec2d8e11dbc5f95f53f1fbce53",
        522,
    ),
    ("leningrad-4", "--json"): (
        "850d3fe0719854be015321a49ceafa8bda89969683b2695777c931a39ed30a19",
        3_390_208,
    ),
    ("leningrad-4", "ru"): (
        "8b64c7204005962759f2bcc140bdec5294a354d018dbc25dd9c376d999b2fe98",
        2_627_672,
    ),
    ("leningrad-4", "--no-explain"): (
        "e3da06559b6ee0f2ff93ac7d6fcd149eff91d4100d1e4b52bd576dc21f24c356",
        716,
    ),
}
SESSIONS = {
    "sochi-3": "cb0f57a39b4a93f2a8751256ff33d46d7490ff04174df69c70c1b0691839cce1",
    "leningrad-4": "ff15502289124eb7b117b2b0236de12a0909bedc19cc6ffdd8df98ca83e4db04",
}
ARGS = {
    "--json": ["--lang", "en", "settle", "{file}", "--json"],
    "ru": ["--lang", "ru", "settle", "{file}"],
    "--no-explain": ["--lang", "en", "settle", "{file}", "--no-explain"],
}


def _session_file(name: str, tmp_path: Path) -> Path:
    text = gzip.decompress((FIXTURES / f"bench-{name}-10000.json.gz").read_bytes())
    assert hashlib.sha256(text).hexdigest() == SESSIONS[name]
    assert len(json.loads(text)["deals"]) == 10_000
    path = tmp_path / f"{name}.json"
    path.write_bytes(text)
    return path


@pytest.mark.parametrize(("name", "variant"), sorted(EXPECTED))
def test_settle_of_10000_deals_is_byte_identical(
    name: str, variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _session_file(name, tmp_path)
    argv = [str(path) if a == "{file}" else a for a in ARGS[variant]]
    assert cli.main(argv) == 0
    out = capsys.readouterr()
    assert out.err == ""
    data = out.out.encode("utf-8")
    digest, size = EXPECTED[name, variant]
    assert (hashlib.sha256(data).hexdigest(), len(data)) == (digest, size)
