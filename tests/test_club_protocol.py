"""Issue #37, item 2: the PDF protocol is the night's record.  Besides every deal by its number
(the voided ones in place), it says what happened at the table in order: a player's void,
undo (rejected: taken back), a deal written again with its reason, the director's correction
with his reason and his own void; the standings page says who came late and who withdrew."""

from __future__ import annotations

import subprocess
from pathlib import Path

from support.club_nights import RASP, SIX, drawn_night

from scorepad.club.pdf import night_pdf
from scorepad.club.store import ClubStore
from scorepad.store import Store

SEVEN = {**SIX, "tricks": {"1": 7, "2": 2, "0": 1}}


def test_the_protocol_says_what_happened_at_the_table(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.db")
    club = ClubStore(store)
    nid = drawn_night(club, deals=3)
    a, b, c = club.load(nid).tour(1).table(1).players
    sid = club.session_of(nid, 1, 1)

    def rev() -> int:
        return store.load(sid).revision

    for deal in (SIX, RASP, SIX):
        club.write_deal(nid, 1, 1, deal, by=a, seen=rev())
    d1, d2, d3 = (e.deal_id for e in store.load(sid).journal.live)
    club.confirm(nid, 1, 1, d1, by=b)
    club.confirm(nid, 1, 1, d2, by=b)
    club.reject(nid, 1, 1, d3, by=b, reason="the tricks are wrong")
    void = club.void_deal(nid, 1, 1, d2, by=a, reason="dealt twice")  # change 4
    club.decide_change(nid, 1, 1, void.seq or 0, by=b, confirmed=True)
    club.rewrite_deal(nid, 1, 1, d3, SEVEN, by=a, reason="the cards say 7", seen=rev())  # 5
    club.confirm(nid, 1, 1, d3, by=b)
    undo = club.undo(nid, 1, 1, by=a)  # 6, taken back by the redo 7
    club.decide_change(nid, 1, 1, undo.seq or 0, by=c, confirmed=False, reason="it was not agreed")
    club.correct_deal(nid, 1, 1, d1, SEVEN, reason="the protocol", seen=rev())  # 8
    store.void_deal(sid, d3, reason="wrong table", seen=rev())  # 9: the director, on the host
    x, y, _ = club.load(nid).tour(1).table(2).players
    club.write_deal(nid, 1, 2, RASP, by=x, seen=0)
    club.confirm(nid, 1, 2, store.load(club.session_of(nid, 1, 2)).journal.live[0].deal_id, by=y)
    club.end_tour(nid, 1)
    club.withdraw(nid, c)
    club.check_in(nid, "Lev")

    pdf = tmp_path / "night.pdf"
    pdf.write_bytes(night_pdf(club.load(nid), club.protocols(nid, 1), lang="en", tour=1))
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    page = text[text.index("Tour 1, table 1: protocol") : text.index("Tour 1, table 2: protocol")]
    said = " ".join(page.split())
    events = [
        f"change 4, the void of deal 2 (dealt twice): confirmed; made by #{a}, decided by #{b}",
        "deal 3 written again (the cards say 7)",
        f"change 6, an undo (deal 3): disputed; made by #{a}, rejected by #{c}: it was not "
        "agreed (taken back)",
        "deal 1: the director's correction (the protocol)",
        "change 9, the void of deal 3 (wrong table): by the director",
    ]
    where = [said.index("• " + e) for e in events]
    assert where == sorted(where)  # in the order they happened
    assert "2. " in said and "voided (dealt twice): it does not count" in said
    assert "voided (wrong table): it does not count" in said
    assert "change 7" not in said  # the redo that took the undo back is said with it
    tail = " ".join(text[text.rindex("standings") :].split())
    assert f"#{c} Player {c} withdrew after tour 1" in tail
    assert "#7 Lev played from tour 2" in tail
    store.close()
