"""Issue #37, item 1: one deal numbering everywhere after a void.  The number said at the table
(a voided deal keeps its number, struck through) is the number of the phones' entry and confirm
list, of `club confirm`'s arguments and output, of `club tables`, of the director's view, of the
club file and of the PDF protocol (read back with pdftotext)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support.club_nights import RASP, SIX, drawn_night
from support.flet_fakes import by_id, navigate
from test_app_club_tables import Night, ids, until

from scorepad.app.club.tables import table_pin
from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.store import Store


def _cli(capsys: pytest.CaptureFixture[str], db: Path, *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["club", *map(str, args), "--db", str(db), "--lang", "en"])
    out, err = capsys.readouterr()
    return code, out, err


def _voided_table(db: Path) -> tuple[int, tuple[int, ...], list[int]]:
    """Table 1 of tour 1 writes three deals, voids deal 2 (confirmed), writes deal 4 (waiting):
    the night, the table's seats, the deals' ids in the order written."""
    with Store(db) as store:
        club = ClubStore(store)
        nid = drawn_night(club, deals=6)
        a, b, c = club.load(nid).tour(1).table(1).players
        sid = club.session_of(nid, 1, 1)
        for deal in (SIX, RASP, SIX):
            club.write_deal(nid, 1, 1, deal, by=a, seen=store.load(sid).revision)
            club.confirm(nid, 1, 1, store.load(sid).journal.live[-1].deal_id, by=b)
        second = store.load(sid).journal.live[1].deal_id
        change = club.void_deal(nid, 1, 1, second, by=a, reason="dealt twice")
        assert change.deal == 2
        club.decide_change(nid, 1, 1, change.seq or 0, by=b, confirmed=True)
        club.write_deal(nid, 1, 1, RASP, by=a, seen=store.load(sid).revision)
        ids_ = list(store.load(sid).journal.entries)
    return nid, (a, b, c), ids_


def test_after_a_void_the_store_the_cli_the_file_and_the_pdf_number_deals_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    nid, (a, b, c), written = _voided_table(db)
    with Store(db) as store:
        club = ClubStore(store)
        marks = club.marks(club.session_of(nid, 1, 1))
        assert [(m.number, m.deal_id) for m in marks] == [
            (1, written[0]),
            (3, written[2]),
            (4, written[3]),
        ]
        view = club.tables(nid)[0]
        assert (view.deals, view.voided) == (3, (2,))

    # The CLI names deals by the number said at the table: deal 2 is the voided one.
    code, out, err = _cli(capsys, db, "confirm", nid, 1, 1, 2, "--by", c)
    assert (code, out) == (2, "")
    assert err.strip() == "deal 2 of table 1 is voided: restore it first"
    code, out, _ = _cli(capsys, db, "confirm", nid, 1, 1, 4, "--by", c)
    assert (code, out) == (0, "deal 4: confirmed\n")
    with Store(db) as store:
        club = ClubStore(store)
        [fourth] = [m for m in club.marks(club.session_of(nid, 1, 1)) if m.number == 4]
        assert (fourth.deal_id, fourth.state, fourth.decided_by) == (written[3], "confirmed", c)
    code, _, err = _cli(capsys, db, "confirm", nid, 1, 1, 5, "--by", c)
    assert (code, err.strip()) == (2, "table 1 has no deal 5")
    # `club deal` prints the number the table says for the deal it wrote.
    code, out, _ = _cli(capsys, db, "deal", nid, 1, 1, json.dumps(SIX), "--by", b)
    assert (code, out) == (0, "5\n")
    code, out, _ = _cli(capsys, db, "tables", nid)
    assert out.splitlines()[0].startswith(
        "Table 1: 4 deals, playing; 1 to confirm; voided: deal 2; no deal for "
    )

    # The club file: the voided deal in its place (session deal 2), its change on deal 2.
    code, out, _ = _cli(capsys, db, "export", nid, "-")
    data = json.loads(out)
    [table] = [s for s in data["sessions"] if s["table"] == 1]
    deals = table["session"]["deals"]
    assert len(deals) == 5 and deals[1]["voided"] == "dealt twice"
    assert [(ch["kind"], ch["deal"]) for ch in table["changes"]] == [("void", 2)]

    # The PDF protocol lists every deal by that number, the voided one with its reason.
    pdf = tmp_path / "night.pdf"
    code, _, err = _cli(
        capsys, db, "pdf", nid, pdf, "--tour", 1, "--base", "http://192.168.1.20:8550"
    )
    assert code == 0, err
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    page = text[text.index("Tour 1, table 1: protocol") :]
    lines = [line for line in page.splitlines() if line[:2] in ("1.", "2.", "3.", "4.", "5.", "6.")]
    assert [line.split(".")[0] for line in lines[:5]] == ["1", "2", "3", "4", "5"]
    assert lines[1].endswith("— voided (dealt twice): it does not count")
    assert lines[3].endswith(f"confirmed; written by #{a}, decided by #{c}")
    assert "provisional; written by #" in lines[4]

    # A restore names the voided deal by its number.
    code, out, _ = _cli(capsys, db, "restore", nid, 1, 1, 2, "--by", b)
    assert (code, out) == (0, "change 7, the restore of deal 2: provisional\n")


async def test_the_phones_and_the_director_number_deals_as_the_table_after_a_void(
    tmp_path: Path,
) -> None:
    n = Night(tmp_path, deals=6)
    sid, (first, second, _) = n.sid(1), n.seats(1)
    for deal in (SIX, RASP, SIX):
        n.club.write_deal(n.nid, 1, 1, deal, by=first, seen=n.store.load(sid).revision)
        n.club.confirm(n.nid, 1, 1, n.store.load(sid).journal.live[-1].deal_id, by=second)
    change = n.club.void_deal(
        n.nid, 1, 1, n.store.load(sid).journal.live[1].deal_id, by=first, reason="dealt twice"
    )
    n.club.decide_change(n.nid, 1, 1, change.seq or 0, by=second, confirmed=True)
    n.club.write_deal(n.nid, 1, 1, RASP, by=first, seen=n.store.load(sid).revision)

    b, sb = n.phone(1, "device-of-the-second-player-002")
    assert b.access.enter(table_pin(n.store, sid)) is None
    b.redraw()
    await navigate(sb, b.page, "nav-sheet")
    # The deal to confirm is deal 4, as the table says it and the entry counts on from it.
    assert "club-confirm-4" in ids(b.page) and "club-confirm-3" not in ids(b.page)
    assert by_id(b.page, "club-deal-4").value.startswith("Deal 4 (All pass), written by #")
    await navigate(sb, b.page, "nav-entry")
    assert by_id(b.page, "deal-header").value.startswith("Deal 5")

    # The director corrects deal 3 (the table's third deal written, its second that counts):
    # his list of corrections names it by that number.
    third = n.store.load(sid).journal.live[1].deal_id
    n.club.correct_deal(
        n.nid, 1, 1, third, RASP, reason="the protocol", seen=n.store.load(sid).revision
    )
    host, _ = n.host()
    await until(lambda: "club-table-1" in ids(host.page))
    assert by_id(host.page, "club-table-1").value.splitlines()[0] == (
        "Table 1: 3 deals, playing; 1 to confirm; voided: deal 2"
    )
    assert by_id(host.page, "club-correction-0").value == ("Tour 1, table 1, deal 3: the protocol")
    n.store.close()
