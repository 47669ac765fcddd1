"""What every benchmark prints beside its figures: the machine, and the smoke mode's switch.

A figure means nothing without the machine it was taken on (a shared 2-core VM's wall time is its
CPU time plus the wait for a core), so each benchmark's first or last line is `machine()`.
`--smoke` runs a benchmark end to end on a few items: CI runs every one of them that way
(tests/test_benchmarks.py) so that none rots; its figures are not the goals' figures.
"""

from __future__ import annotations

import argparse
import os
import platform
from pathlib import Path


def cpu_model() -> str:
    """The processor's name, where the system says it."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown processor"


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{cpu_model()}, {platform.machine()}, {os.cpu_count()} cores, load {load:.1f}, "
        f"Python {platform.python_version()}, {platform.system()}"
    )


def add_smoke(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few items only, to show the benchmark still runs (CI); not the goals' figures",
    )


SMOKE_NOTE = "smoke mode: a few items only, so these figures are not the goals' figures"
