"""The benchmark's 10,000-deal sessions settle to the same bytes as before the speed work.

`benchmarks/bench_scoring.py` times a seeded 10,000-deal Sochi session (3 players); the files
in `tests/fixtures/bench-*.json.gz` are that session and a Leningrad one at 4 players (halves,
doubled whists and gora, a sitting-out dealer).  Each goes through the CLI's own `main`
in-process (`settle --json`, the Russian sheet, the sheet without sentences), and the SHA-256
of every output must equal the one computed from the code without the speed work.  A
deliberate scoring or wording fix changes these hashes: recompute them then, from the code
before the change being tested, and say why.  (Recomputed once: the gender-free wording of the
sentences changed the `--json` and Russian outputs; the figures, `--no-explain`, did not move.)
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
        "204db137c9a82334dcd629045d92904ca5f5f9eb0053c74119286656ace48514",
        2_875_730,
    ),
    ("sochi-3", "ru"): (
        "4ee293fe3f74a6e27f190eebf581e02e275e40ce96de6aba15a2792232f1a51c",
        2_413_896,
    ),
    ("sochi-3", "--no-explain"): (
        "1d8e2797169e8b760452fddc7749d9b737d69ec3037a13ca47ece1878657a1da",
        504,
    ),
    ("leningrad-4", "--json"): (
        "f60f14d56cac0e33c5f9d3dcac8df4a07ac4c0f88f44d44b61c3905ac53e6430",
        3_390_208,
    ),
    ("leningrad-4", "ru"): (
        "c387d83df6f648e9e6a80aa5188bf8d2a1bcaecc9e627f694e241e6439612e6b",
        2_627_637,
    ),
    ("leningrad-4", "--no-explain"): (
        "681b5a69bb89e845748d824e1b2784a0471aa54d303baf5e9ba61220bbce006f",
        706,
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
