"""``scorepad build-app``: the static app for a phone, built with the network cut; and the part of
the phone app that runs without a browser (a write held back from the screen until persisted).

The app itself in a browser: ``test_phone_e2e.py``.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import main
from scorepad.phone import app as phone
from scorepad.phone import build

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scorepad" / "data" / "demo-session.json"
#: What the phone has not: the app must import without them (the LAN share's psutil, the web
#: server's stack, the cash-out picture's Pillow, the club PDF's fpdf).
ABSENT = ["psutil", "PIL", "fpdf", "fastapi", "uvicorn", "starlette", "flet_web", "flet_desktop"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built from a clean clone of the committed code, in a network namespace of its own (no
    interface but a down loopback): a build that needed the network would fail here."""
    tmp = tmp_path_factory.mktemp("clean")
    clone = tmp / "scorepad"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    out = tmp / "app"
    done = subprocess.run(
        [
            "unshare",
            "-n",
            sys.executable,
            "-m",
            "scorepad.cli",
            "--lang",
            "en",
            "build-app",
            str(out),
        ],
        cwd=clone,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(clone), "HOME": str(tmp)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Built the app in {out}: ")
    assert "starts with no network" in done.stdout
    return out


def test_the_build_is_scorepads_own_installable_app(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["name"], manifest["short_name"]) == ("Scorepad", "Scorepad")
    assert manifest["theme_color"] == "#2E6B4F" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        made = (built / icon["src"]).read_bytes()
        assert made == (ROOT / "assets" / icon["src"]).read_bytes()  # Scorepad's, not Flet's
    index = (built / "index.html").read_text(encoding="utf-8")
    assert "<title>Scorepad</title>" in index
    assert "navigator.serviceWorker.register('scorepad-sw.js')" in index
    assert "navigator.storage.persist()" in index
    assert "flet.pyodide = true;" in index
    assert 'flet.pyodideUrl="./pyodide/pyodide.mjs"' in index  # a path, not a bare name
    assert "flet.noCdn=true;" in index
    # Flutter's own (deprecated) service worker would take the place of Scorepad's.
    bootstrap = (built / "flutter_bootstrap.js").read_text(encoding="utf-8")
    assert re.search(r"serviceWorkerSettings:\s*\{", bootstrap) is None
    assert '"compileTarget":"dart2wasm"' not in bootstrap  # CanvasKit's build only: it is there
    # Python starts with the page, not once the Flutter engine has loaded (Flet's jsConnect).
    python = (built / "python.js").read_text(encoding="utf-8")
    assert "_early = _startWorker({});" in python and python.count("globalThis.jsConnect") == 1
    assert (built / "pyodide" / "pyodide.asm.wasm").is_file()
    assert (built / "fonts" / "DejaVuSans.ttf").is_file()


def test_the_client_asks_its_own_host_for_the_rive_runtime_not_a_cdn(built: Path) -> None:
    """Flet's client loads the (unused) Rive runtime from cdn.jsdelivr.net on every start; in
    the build it asks the app's own host, where it is not found, as with no network."""
    from scorepad.app.server.installable import RIVE_CDN, RIVE_HERE

    client = (built / "main.dart.js").read_bytes()
    assert b"cdn.jsdelivr.net" not in client
    assert RIVE_HERE in client and len(RIVE_HERE) == len(RIVE_CDN)


def test_the_service_worker_keeps_every_file_of_the_build(built: Path) -> None:
    script = (built / "scorepad-sw.js").read_text(encoding="utf-8")
    listed = json.loads(script.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    every = sorted(
        p.relative_to(built).as_posix()
        for p in built.rglob("*")
        if p.is_file() and p.name != "scorepad-sw.js"
    )
    assert listed == ["./", *every]
    assert 'const CACHE = "scorepad-' in script


def test_the_python_inside_is_scorepad_and_what_it_imports_for_pyodide(built: Path) -> None:
    with tarfile.open(built / "app.tar.gz") as tar:
        names = set(tar.getnames())
    assert "main.py" in names and "requirements.txt" not in names  # the phone installs nothing
    top = {n.split("/")[1] for n in names if n.startswith("__pypackages__/")}
    assert {"scorepad", "flet", "flet_charts", "pydantic", "pydantic_core", "sqlite_utils"} <= top
    assert {"babel", "msgpack", "segno", "openskill", "confusable_homoglyphs"} <= top
    assert not top & {"psutil", "PIL", "fpdf", "fastapi", "uvicorn", "flet_web", "pip"}
    # Compiled ahead by Pyodide's own Python (scripts/test installs Node.js for it).
    assert "__pypackages__/scorepad/app/frame/__pycache__/shell.cpython-314.pyc" in names
    compiled = sorted(n for n in names if n.endswith(".so"))
    assert compiled and all("wasm32-emscripten" in n for n in compiled)  # none of this machine's
    assert "__pypackages__/scorepad/_conventions/sochi.toml" in names
    assert "__pypackages__/babel/locale-data/ru.dat" in names
    assert "__pypackages__/babel/locale-data/ja.dat" not in names  # no language of the app's


def test_the_vendored_wheels_are_unpacked_once_not_also_carried_whole(built: Path) -> None:
    """The wheels of scorepad/phone/wheels are unpacked into the archive; the wheel files
    themselves (2 MB the phone would unpack at every start for nothing) are not in it."""
    with tarfile.open(built / "app.tar.gz") as tar:
        names = tar.getnames()
    assert not [n for n in names if n.endswith((".whl", "wheels.json"))]
    assert any(n.startswith("__pypackages__/pydantic_core/") for n in names)


def test_a_folder_that_is_not_a_build_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"mine")
    assert main(["--lang", "en", "build-app", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err == f"{folder} is not empty and holds no earlier build of the app\n"
    assert [p.name for p in folder.iterdir()] == ["holiday.jpg"]
    assert (folder / "holiday.jpg").read_bytes() == b"mine"
    assert main(["--lang", "ru", "build-app", str(folder / "holiday.jpg")]) == 2
    assert capsys.readouterr().err == f"{folder / 'holiday.jpg'} — файл, а не папка\n"


def test_a_wheel_that_is_not_the_one_listed_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wheels = tmp_path / "wheels"
    shutil.copytree(build.WHEELS, wheels)
    core = next(wheels.glob("pydantic_core-*.whl"))
    core.write_bytes(core.read_bytes() + b"\0")
    monkeypatch.setattr(build, "WHEELS", wheels)
    assert main(["--lang", "en", "build-app", str(tmp_path / "app")]) == 2
    err = capsys.readouterr().err
    assert err == f"{core} is not the wheel the build expects (its SHA-256 differs)\n"
    assert not (tmp_path / "app").exists() and not (tmp_path / "app.building").exists()


def test_the_app_imports_without_what_the_phone_has_not() -> None:
    code = (
        "import sys\n"
        f"for m in {ABSENT!r}: sys.modules[m] = None\n"
        "import scorepad.app.frame.screens, scorepad.app.frame.shell, scorepad.phone.app\n"
        "from scorepad.app.frame.screens import sessions_screen\n"
        "print('imported')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout == "imported\n", done.stderr


class Screen:
    """A connection to the screen that records what reaches it."""

    def __init__(self) -> None:
        self.got: list[str] = []

    def send_message(self, message: str) -> None:
        self.got.append(message)

    def send_data_channel_frame(self, channel: int, payload: bytes) -> None:
        self.got.append(f"{channel}:{payload.decode()}")


class Flushes:
    """IndexedDB stood in for: each syncfs waits until the test lets it finish."""

    def __init__(self) -> None:
        self.started: list[asyncio.Event] = []

    async def __call__(self, populate: bool) -> None:
        assert populate is False  # a write copies memory to IndexedDB
        done = asyncio.Event()
        self.started.append(done)
        await done.wait()


async def _turns() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_what_a_write_draws_reaches_the_screen_only_once_persisted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    flushes = Flushes()
    monkeypatch.setattr(phone, "_syncfs", flushes)
    durable, screen = phone.Durable(), Screen()
    durable.gate(screen)
    screen.send_message("before")  # nothing written: straight to the screen
    assert screen.got == ["before"]

    durable.written()
    screen.send_message("deal 1 written")
    screen.send_data_channel_frame(3, b"frame")
    await _turns()
    assert screen.got == ["before"] and len(flushes.started) == 1

    durable.written()  # a second write while the first flush runs: it may have missed it
    screen.send_message("deal 2 written")
    flushes.started[0].set()
    await _turns()
    assert screen.got == ["before"] and len(flushes.started) == 2  # held for the second flush

    flushes.started[1].set()
    await _turns()
    assert screen.got == ["before", "deal 1 written", "3:frame", "deal 2 written"]
    screen.send_message("after")
    assert screen.got[-1] == "after" and not durable.pending


async def test_a_failed_flush_still_answers_and_the_next_write_flushes_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[bool] = []

    async def failing(populate: bool) -> None:
        calls.append(populate)
        if len(calls) == 1:
            raise OSError("IndexedDB: QuotaExceededError")

    monkeypatch.setattr(phone, "_syncfs", failing)
    durable, screen = phone.Durable(), Screen()
    durable.gate(screen)
    durable.written()
    screen.send_message("refused?")
    await _turns()
    assert screen.got == ["refused?"] and isinstance(durable.failed, OSError)
    durable.written()
    await _turns()
    assert calls == [False, False] and durable.failed is None


class Counted(phone.Durable):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def written(self) -> None:
        self.count += 1


def test_the_phones_store_asks_for_a_flush_once_a_write_and_never_for_a_read(
    tmp_path: Path,
) -> None:
    durable = Counted()
    store = phone.PhoneStore(tmp_path / "phone.db", durable)
    try:
        sid = store.import_session(DEMO.read_bytes())  # one write (many rows, one transaction)
        assert durable.count == 1
        stored: Any = store.load(sid)
        store.export_session(sid)
        assert durable.count == 1
        first = stored.journal.live[0].deal_id
        store.void_deal(sid, first, reason="misdeal", seen=stored.revision)
        assert durable.count == 2
        # No WAL file beside it: IndexedDB would be given the whole of it on every write.
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["phone.db"]
    finally:
        store.close()


def test_sharing_later_binds_its_sockets_through_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table's screen module no longer imports the web server's stack (the phone has none):
    "Share the table" on a laptop serving 127.0.0.1 binds the network's sockets through the
    running server, and the server serves them."""
    import socket

    from scorepad.app.server import table as screen
    from scorepad.app.server.access import Gate
    from scorepad.app.server.server import Server
    from scorepad.app.server.share import Sharing

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    added: list[socket.socket] = []
    server = Server(None, certfile=None, keyfile=None)  # type: ignore[arg-type]
    monkeypatch.setattr(server, "add", added.extend)
    monkeypatch.setattr(screen, "lan_addresses", lambda: ["127.0.0.1"])  # the "network" here
    table = screen.Table(Gate(None), Sharing.make("127.0.0.1", port, tls=False, pin=None))
    table.server = server
    try:
        shared = table.share_now()
        assert shared.shared and shared.addresses == ("127.0.0.1",) and shared.pin
        assert [s.getsockname() for s in added] == [("127.0.0.1", port)]
    finally:
        for s in added:
            s.close()
