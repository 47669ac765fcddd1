"""Issue #37, item 8: the QR codes print the address the phones can reach.  `club pdf` finds the
server running on the same database (a real server process) and uses its port (and, for a
server on every interface, this computer's network address); --address and --port override;
a server only this computer can reach, or none, is said on stderr.  The Seating screen warns
when the server listens only on this computer."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
import zxingcpp
from PIL import Image
from support.club_nights import drawn_night
from support.flet_fakes import by_id, make_page, texts
from support.table_server import serving
from test_app_club_tables import ids

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.seating import seating_screen
from scorepad.app.frame.shell import Shell
from scorepad.app.server.share import Sharing, lan_addresses
from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.store import Store


def _night(db: Path) -> int:
    with Store(db) as store:
        club = ClubStore(store)
        nid = drawn_night(club, 3, tours=1, deals=1)
    return nid


def _codes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, db: Path, nid: int, *extra: str
) -> tuple[list[str], str]:
    """The QR codes of the PDF's seating page (read back from the rendered page), and stderr."""
    pdf = tmp_path / "night.pdf"
    capsys.readouterr()
    args = ["club", "pdf", str(nid), str(pdf), "--force", *extra, "--db", str(db), "--lang", "en"]
    assert main(args) == 0
    err = capsys.readouterr().err
    for old in tmp_path.glob("page-*.png"):
        old.unlink()
    subprocess.run(
        ["pdftoppm", "-r", "110", "-f", "1", "-l", "1", "-png", str(pdf), str(tmp_path / "page")],
        check=True,
        timeout=120,
    )
    [page] = sorted(tmp_path.glob("page-*.png"))
    return [c.text for c in zxingcpp.read_barcodes(Image.open(page))], err.strip()


LAN = (lan_addresses() or ["127.0.0.1"])[0]


def test_the_pdf_codes_follow_the_running_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    with Store(db) as store:
        sid = ClubStore(store).session_of(nid, 1, 1)

    # No server on this database: this computer's address and port 8550, said on stderr.
    [code], err = _codes(capsys, tmp_path, db, nid)
    assert code.startswith(f"http://{LAN}:8550/join/{sid}/")
    assert err == (
        f"no Scorepad server is running on this database: the QR codes say http://{LAN}:8550"
    )

    # A server on this computer only, on another port: its port, and a warning.
    with serving(db) as (_, port):
        [code], err = _codes(capsys, tmp_path, db, nid)
        assert port != 8550 and code.startswith(f"http://{LAN}:{port}/join/{sid}/")
        assert err == (
            f"the server on port {port} listens only on this computer: phones cannot open "
            f"http://{LAN}:{port}; start it with --share"
        )
        # --address and --port say where, as given.
        [code], _ = _codes(capsys, tmp_path, db, nid, "--address", "10.0.0.5", "--port", "9000")
        assert code.startswith(f"http://10.0.0.5:9000/join/{sid}/")

    # A server on the network (--share): its port, this computer's address, nothing to say.
    with serving(db, "--share") as (_, port):
        [code], err = _codes(capsys, tmp_path, db, nid)
        assert code.startswith(f"http://{LAN}:{port}/join/{sid}/")
        assert err == ""


def test_the_seating_screen_warns_when_phones_cannot_reach_the_server(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    store = Store(db, check_same_thread=False)
    page, session, _ = make_page()  # the session kept: the page lives while it does
    shell = Shell(page, store, "en", threading.RLock())
    shell.state.night = nid
    shell.show(seating_screen)
    assert by_id(page, "club-seating-local").value == (
        "This server listens only on this computer: phones cannot open these codes. "
        "Start it with scorepad --share."
    )
    shell.table = SimpleNamespace(
        sharing=Sharing.make("0.0.0.0", 8551, tls=False, pin="123456"), grants=None
    )
    shell.show(seating_screen)
    assert "club-seating-local" not in ids(page)
    if lan_addresses():  # a machine with no network has no address to print
        assert f"http://{LAN}:8551/join/" in " ".join(texts(page))
    assert session.page is page
    store.close()
