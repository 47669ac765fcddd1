"""Builders shared by the tests: a session dict, its replay, one deal's writing."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from scorepad.scoring.pulya.score import Scored, replay
from scorepad.scoring.pulya.session import parse_session
from scorepad.scoring.pulya.sheet import Writing

if TYPE_CHECKING:
    from scorepad.store import Store

ROOT = Path(__file__).resolve().parent.parent


def session(
    deals: list[dict[str, Any]],
    *,
    convention: str = "sochi",
    players: list[str] | None = None,
    overrides: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "format": "scorepad-session/1",
        "players": players or ["Anna", "Boris", "Vera"],
        "convention": convention,
        "overrides": overrides or {},
        "pool_target": extra.pop("pool_target", 20),
        **extra,
        "deals": deals,
    }


def scored(deals: list[dict[str, Any]], **kw: Any) -> Scored:
    return replay(parse_session(session(deals, **kw)))


def one(deal: dict[str, Any], **kw: Any) -> Writing:
    """The writing of a single deal, played first in a fresh session."""
    return scored([deal], **kw).deals[0].writing


def explain(w: Writing, lang: str = "en") -> list[str]:
    return [m.render(lang) for m in w.explain or ()]


def run_cli(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """The real CLI's ``main(argv)``, in this process: what a user's process would give back
    (its exit status, its stdout and stderr as text) without starting Python and importing the
    package again for every command (a second or more each on CI).  Where the process itself
    is the point (the binary's exit status, a signal, a kill, /dev/full) use
    :func:`run_cli_process`.  ``env`` and ``cwd``: the environment and the folder the command
    runs in (a process's own), both as they were afterwards."""
    from scorepad.cli import main

    stdout, stderr = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    # Byte streams under UTF-8 text, as a process's are: the CLI reads `sys.stdin.buffer` and
    # reconfigures its streams' error handler (`_escape_unshowable`).
    streams = (
        io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8"),
        io.TextIOWrapper(stdout, encoding="utf-8", write_through=True),
        io.TextIOWrapper(stderr, encoding="utf-8", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = streams
    environ = dict(os.environ)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    try:
        with contextlib.chdir(cwd):
            code: int | str | None = main(list(args))
    except SystemExit as exc:  # argparse: --help, --version, a bad argument
        code = exc.code
    except BaseException:  # what the process would print before dying with status 1
        traceback.print_exc()
        code = 1
    finally:
        if env is not None:
            os.environ.clear()
            os.environ.update(environ)
        sys.stdin, sys.stdout, sys.stderr = saved
        for stream in streams:  # flushed, and let go without closing the bytes under them
            stream.detach()
    if isinstance(code, str):  # sys.exit("message"): printed, status 1
        stderr.write(code.encode() + b"\n")
        code = 1
    return subprocess.CompletedProcess(
        ["scorepad", *args], code or 0, _as_text(stdout.getvalue()), _as_text(stderr.getvalue())
    )


def _as_text(raw: bytes) -> str:
    """Bytes read back as `subprocess.run(text=True)` does (universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8").read()


def run_cli_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI in its own process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "scorepad.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def cli_out(*args: str) -> str:
    """What the real CLI prints for a command that must succeed."""
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def settle_json(data: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "session.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run_cli("settle", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A database file's path in the test's own folder (not created)."""
    return tmp_path / "scorepad.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """A fresh store on a real SQLite file, closed when the test ends.  Its connection may be
    used from another thread, as the app's is (a screen writes from Flet's)."""
    from scorepad.store import Store

    with Store(db_path, check_same_thread=False) as s:
        yield s


@pytest.fixture
def cli_settle(tmp_path: Path):  # type: ignore[no-untyped-def]
    return lambda data: settle_json(data, tmp_path)


def typed(store: Any, sid: int, data: Any) -> Any:
    """A deal's JSON form as the model of the session's family: the store takes typed deals
    (as the forms build them).  A malformed deal is refused here, by the family's model."""
    from scorepad.scoring.family import family

    if not isinstance(data, dict):
        return data
    return family(store.family(sid)).deal_adapter().validate_python(data)


_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A test that failed (its set-up or its call) is marked, for the fixture below."""
    report = yield
    if report.failed:
        item.stash[_FAILED] = True
    return report


@pytest.fixture(autouse=True)
def _pages_closed_after_each_browser_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's pages closed when it ends (the browser itself lives for its module),
    but for a page its file keeps for the next test (``harness.KeptPage``) while no test fails on
    it: after a failure the next test begins on a new page.

    A Flutter page left open keeps drawing and answering its socket: a module of ten scenarios
    kept ten renderers at a fifth of a core each to its end, on a 2-core machine, slowing every
    later test of the suite."""
    yield
    if "browser" in request.fixturenames:
        from e2e.harness import KEPT

        failed = request.node.stash.get(_FAILED, False)
        browser = request.getfixturevalue("browser")
        for context in list(getattr(browser, "contexts", ())):
            if context in KEPT and not failed:
                continue
            KEPT.discard(context)
            with contextlib.suppress(Exception):  # a page the test already closed, a dead browser
                context.close()


@pytest.fixture(scope="session")
def phone_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``scorepad build-app`` with the network cut (test_phone_e2e.build_offline), once for the
    test session (each xdist worker its own): the phone files serve it and only read it, and a
    build is a dozen seconds or more."""
    from test_phone_e2e import build_offline

    folder = tmp_path_factory.mktemp("phone") / "app"
    out = build_offline(folder)
    assert out.startswith(f"Built the app in {folder}: ")
    return folder


# --- a throwaway PostgreSQL (tests/support/postgres.py) -----------------------------------------


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Any]:
    """One PostgreSQL server for the test session (each xdist worker its own); a test that
    needs it fails, never skips, when it cannot be started."""
    from support.postgres import start

    cluster = start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: Any) -> str:
    """The address of a new, empty database on the test session's PostgreSQL."""
    return str(postgres_cluster.database())


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the store lives, once per backend: a SQLite file's path, or the address of a new
    PostgreSQL database (a test taking it runs on both)."""
    if request.param == "sqlite":
        return str(tmp_path / "scores.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The suite's work units for ``--dist loadgroup`` (scripts/test): a test file whose tests
    share a module fixture (an app server, a browser) is one unit, so that fixture starts once;
    every other test is a unit of its own, so the two workers end together instead of one
    waiting on the other's last file.  A long file may split its unit by a parameter
    (``XDIST_SPLIT = "size"``, or a function of the test's parameters that names its part):
    each part starts its own server and browser, and the parts run side by side.  Without
    xdist the mark changes nothing."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        if info is None or not any(
            fixture.scope in ("module", "class", "package")
            for defs in info.name2fixturedefs.values()
            for fixture in defs
        ):
            continue
        group = item.path.stem
        split = getattr(getattr(item, "module", None), "XDIST_SPLIT", None)
        params = getattr(getattr(item, "callspec", None), "params", {})
        if callable(split):
            group += f"-{split(params)}"
        elif split is not None and split in params:
            group += f"-{params[split]}"
        item.add_marker(pytest.mark.xdist_group(group))
    if getattr(config.option, "dist", "no") == "loadgroup":
        items[:] = longest_first(items)


#: The slowest tests of a full run (tests/durations.txt), in seconds; the others are guessed.
DURATIONS = Path(__file__).resolve().parent / "durations.txt"
BROWSER_TEST, OTHER_TEST = 15.0, 0.5


def measured() -> dict[str, float]:
    """Each test's seconds (its set-up, call and tear-down) as tests/durations.txt has them."""
    import re

    found: dict[str, float] = {}
    for line in DURATIONS.read_text("utf-8").splitlines():
        m = re.match(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(\S+)", line)
        if m:
            found[unit_free(m[2])] = found.get(unit_free(m[2]), 0.0) + float(m[1])
    return found


def unit_free(nodeid: str) -> str:
    """A test's id without the ``@group`` xdist adds to it."""
    at = nodeid.rfind("@")
    return nodeid[:at] if at > nodeid.rfind("]") else nodeid


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The work units in the order of their expected time, longest first (each unit's tests in
    their own order): xdist hands them out in this order (pytest_configure turns its own
    reordering, by the number of tests, off), so the last to start are short and the two
    workers end together, not one idle while the other plays a long file begun last."""
    seconds = measured()
    units: dict[str, list[pytest.Item]] = {}
    weight: dict[str, float] = {}
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        unit = str(mark.args[0]) if mark is not None and mark.args else item.nodeid
        guess = BROWSER_TEST if "browser" in getattr(item, "fixturenames", ()) else OTHER_TEST
        units.setdefault(unit, []).append(item)
        weight[unit] = weight.get(unit, 0.0) + seconds.get(unit_free(item.nodeid), guess)
    order = sorted(units, key=lambda unit: -weight[unit])  # stable: ties keep their order
    return [item for unit in order for item in units[unit]]


def pytest_configure(config: pytest.Config) -> None:
    """Under ``--dist loadgroup`` xdist keeps the units in the order collected
    (``longest_first``) instead of sorting them by their number of tests."""
    if getattr(config.option, "dist", "no") == "loadgroup":
        config.option.loadscopereorder = False
