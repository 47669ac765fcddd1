"""`scorepad` with a display: a desktop window where Flet's desktop client is there, else the web
app with one sentence saying why (issue #38, 15).

Flet's ``flet-desktop`` package is a downloader: the window's program comes from the internet on
first use, and offline that ended in a traceback.  So the window opens only where the client is
already on the machine (bundled in the package, or in Flet's cache from an earlier run).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from support.table_server import ROOT, free_port

from scorepad.app.server.run import desktop_client


def _fake_flet_desktop(monkeypatch: pytest.MonkeyPatch, bin_dir: Path) -> None:
    fake = types.ModuleType("flet_desktop")
    fake.get_package_bin_dir = lambda: str(bin_dir)  # type: ignore[attr-defined]
    fake.version = types.SimpleNamespace(version="1.0.5")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "flet_desktop", fake)


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_no_display_serves_the_web_app_and_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert desktop_client() == (False, None)


def test_no_desktop_package_is_said_in_the_players_language(
    display: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "flet_desktop", None)  # an import of it fails
    window, why = desktop_client()
    assert window is False and why is not None
    assert why.render("en").startswith("No desktop window: Flet's desktop client is not installed")
    assert "pip install flet-desktop==1.0.5" in why.render("en")
    assert why.render("ru").startswith("Окна на рабочем столе не будет")
    assert why.render("de").startswith("Kein Desktop-Fenster")


def test_a_client_never_downloaded_is_not_fetched_and_is_said(
    display: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = display / "bin"
    empty.mkdir()
    _fake_flet_desktop(monkeypatch, empty)
    window, why = desktop_client()
    assert window is False and why is not None
    assert "has not been downloaded yet" in why.render("en")


@pytest.mark.parametrize("where", ["cache", "bundled"])
def test_a_client_in_flets_cache_or_bundled_opens_the_window(
    display: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    bin_dir = display / "bin"
    bin_dir.mkdir()
    if where == "cache":
        (display / ".flet" / "client" / "flet-desktop-full-1.0.5").mkdir(parents=True)
    else:
        (bin_dir / "flet-linux-debian12-x86_64.tar.gz").write_bytes(b"archive")
    _fake_flet_desktop(monkeypatch, bin_dir)
    assert desktop_client() == (True, None)
    # Another version's client in the cache is not this one's.
    if where == "cache":
        (display / ".flet" / "client" / "flet-desktop-full-1.0.5").rmdir()
        (display / ".flet" / "client" / "flet-desktop-full-0.28.3").mkdir()
        assert desktop_client()[0] is False


def test_the_real_command_with_a_display_and_no_client_serves_the_web_app_with_its_reason(
    tmp_path: Path,
) -> None:
    """The process itself: no traceback, the reason, then the address (flet-desktop is not
    installed here, as on most machines)."""
    port = free_port()
    env = dict(os.environ, DISPLAY=":99", HOME=str(tmp_path), FLET_WEB_NO_CDN="1")
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scorepad.cli",
            "--lang",
            "en",
            "--db",
            str(tmp_path / "s.db"),
            "--port",
            str(port),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith("Scorepad is served"):
                break
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    text = "\n".join(lines)
    assert "Traceback" not in text, text
    assert lines[0].startswith("No desktop window: Flet's desktop client is not installed"), text
    assert lines[1] == f"Scorepad is served. On this computer open: http://127.0.0.1:{port}/"
