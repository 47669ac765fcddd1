"""The night on paper: rendered with poppler's pdftoppm and read back (the QR codes with
zxing-cpp, the words with pdftotext); the plain-text summary for a messenger."""

from __future__ import annotations

import datetime
import subprocess
from pathlib import Path

import zxingcpp
from PIL import Image
from support.club_nights import SIX

from scorepad.club.pdf import night_pdf
from scorepad.club.scoring import Places
from scorepad.club.store import ClubStore
from scorepad.club.summary import seating_lines, standings_lines
from scorepad.store import Store


def _night(tmp_path: Path) -> tuple[ClubStore, int]:
    club = ClubStore(Store(tmp_path / "club.db"))
    nid = club.create_night(
        "Пятница",
        date=datetime.date(2026, 12, 4),
        tours=2,
        deals_per_tour=1,
        scoring=Places(),
        seed=4,
    )
    for name in ("Анна", "Борис", "Вера", "Глеб", "Дима", "Женя"):
        club.check_in(nid, name)
    club.draw(nid)
    for tab in club.load(nid).tour(1).tables:
        sid = club.session_of(nid, 1, tab.number)
        club.write_deal(
            nid, 1, tab.number, SIX, by=tab.players[0], seen=club.store.load(sid).revision
        )
    return club, nid


def _url(club: ClubStore, nid: int) -> object:
    return lambda tour, table: f"http://192.168.1.20:8550/join/{club.session_of(nid, tour, table)}"


def test_the_pdf_reads_back(tmp_path: Path) -> None:
    club, nid = _night(tmp_path)
    night = club.load(nid)
    pdf = tmp_path / "night.pdf"
    data = night_pdf(night, club.protocols(nid), lang="ru", join_url=_url(club, nid))  # type: ignore[arg-type]
    pdf.write_bytes(data)
    # The same night gives the same bytes (dated by the night, not the clock).
    assert night_pdf(night, club.protocols(nid), lang="ru", join_url=_url(club, nid)) == data  # type: ignore[arg-type]
    subprocess.run(
        ["pdftoppm", "-r", "110", "-png", str(pdf), str(tmp_path / "page")], check=True, timeout=120
    )
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 1 + 2 + 1  # the seating, a protocol a table, the standings
    codes = sorted(c.text for c in zxingcpp.read_barcodes(Image.open(pages[0])))
    assert codes == sorted(
        f"http://192.168.1.20:8550/join/{club.session_of(nid, 1, t)}" for t in (1, 2)
    )
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert "Пятница, тур 1 из 2" in text and "Стол 1" in text and "Стол 2" in text
    for tab in night.tour(1).tables:
        for n in tab.players:
            assert f"#{n} {night.name_of(n)}" in text
    assert text.count("Подписи:") == 2
    assert "Тур 1, стол 2: протокол" in text
    assert "предварительная; записал #" in text
    assert "Пятница, 2026-12-04: таблица, ни один тур ещё не" in text  # the heading wraps


def test_the_messenger_summary(tmp_path: Path) -> None:
    club, nid = _night(tmp_path)
    night = club.load(nid)
    lines = standings_lines(night, "en")
    assert lines[0] == "Пятница, 2026-12-04: standings, no tour ended yet"
    assert len(lines) == 7 and lines[1].startswith("1. #")
    seating = seating_lines(night, 1, "en")
    assert seating[0] == "Пятница, tour 1 of 2"
    assert seating[1].startswith("Table 1: #")
