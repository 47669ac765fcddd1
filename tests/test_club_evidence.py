"""Issue #37, item 4: editing a deal that had its cards kept keeps them: a History edit (the
form writes the sheet's fields only), a player's rewrite at a club table and the director's
correction; the session export and the club file both still carry the record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.club_nights import drawn_night

from scorepad.club.store import ClubStore, parse_deal
from scorepad.store import Store

RECORD = {
    "format": "scorepad-deal/1",
    "hands": {"0": ["SA", "SK"], "1": ["HA"], "2": ["DA"]},
    "talon": ["C7", "C8"],
}
WITH_CARDS = {
    "type": "game",
    "declarer": 1,
    "contract": "6S",
    "calls": ["whist"],
    "tricks": {"1": 6, "2": 3, "0": 1},
    "record": RECORD,
}
EDITED = {**WITH_CARDS, "tricks": {"1": 7, "2": 2, "0": 1}}
EDITED.pop("record")
OWN = {**EDITED, "record": {**RECORD, "talon": ["C9", "C10"]}}


def test_a_history_edit_keeps_the_cards_and_the_session_export_has_them(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        sid = store.create_session(["Anna", "Boris", "Vera"], convention="sochi", pool_target=10)
        stored = store.add_deal(sid, _deal(WITH_CARDS), seen=0)
        deal_id = stored.journal.live[0].deal_id
        stored = store.edit_deal(sid, deal_id, _deal(EDITED), reason="7 tricks", seen=1)
        deal = stored.journal.live[0].deal
        assert deal.record == RECORD and deal.tricks[1] == 7
        exported = json.loads(store.export_session(sid))
        assert exported["deals"][0]["record"] == RECORD
        assert exported["deals"][0]["tricks"]["1"] == 7
        # An edit that brings its own cards keeps those.
        stored = store.edit_deal(sid, deal_id, _deal(OWN), reason="the cards again", seen=2)
        assert stored.journal.live[0].deal.record["talon"] == ["C9", "C10"]


def test_a_rewrite_and_a_correction_at_a_club_table_keep_the_cards(tmp_path: Path) -> None:
    with Store(tmp_path / "club.db") as store:
        club = ClubStore(store)
        nid = drawn_night(club, ("Anna", "Boris", "Vera"), tours=1)
        a, b, _ = club.load(nid).tour(1).table(1).players
        sid = club.session_of(nid, 1, 1)
        stored = club.write_deal(nid, 1, 1, WITH_CARDS, by=a, seen=0)
        deal_id = stored.journal.live[0].deal_id
        club.reject(nid, 1, 1, deal_id, by=b, reason="the tricks are wrong")
        club.rewrite_deal(nid, 1, 1, deal_id, EDITED, by=a, reason="7 tricks", seen=1)
        club.correct_deal(nid, 1, 1, deal_id, EDITED, reason="the protocol", seen=2)
        assert store.load(sid).journal.live[0].deal.record == RECORD
        data = json.loads(club.export_night(nid))
        [table] = data["sessions"]
        assert table["session"]["deals"][0]["record"] == RECORD


def _deal(data: dict[str, object]) -> Any:
    return parse_deal(dict(data))
