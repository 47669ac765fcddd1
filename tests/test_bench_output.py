"""The benchmark's 10,000-deal sessions settle to the same bytes as before the speed work.

`benchmarks/bench_scoring.py` times a seeded 10,000-deal Sochi session (3 players); the files
in `tests/fixtures/bench-*.json.gz` are that session and a Leningrad one at 4 players (halves,
doubled whists and gora, a sitting-out dealer).  Each goes through the CLI's own `main`
in-process (`settle --json`, the Russian sheet, the sheet without sentences), and the SHA-256
of every output must equal the one computed from the code before the speed work started.  A
deliberate scoring or wording fix changes these hashes: recompute them then and say why.
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
        "2eb0f54d94c59f4a1c0d906bd7012d12c92caa3c45567d4742c8582eeab932e8",
        2_875_730,
    ),
    ("sochi-3", "ru"): (
        "290f3e377c8ef548a66d35df4bbcffd08c3ac99f91e2390a23247b95909bbbdc",
        2_585_997,
    ),
    ("sochi-3", "--no-explain"): (
        "1d8e2797169e8b760452fddc7749d9b737d69ec3037a13ca47ece1878657a1da",
        504,
    ),
    ("leningrad-4", "--json"): (
        "4f7af8d459137f5f255bea1b257069e48cbe10fe14af41022dd13a8988f306d5",
        3_390_208,
    ),
    ("leningrad-4", "ru"): (
        "2aff685c6d31db39b509f4bb6c7fa8134a0de09298f1bfcab447e8f783fbb2af",
        2_711_630,
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
