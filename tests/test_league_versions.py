"""A property of the league's versions (issue #39): whatever a club sends, in whatever order
and how often, the league's versions of a night are the documents it sent with each repeat of
the current one left out, numbered 1, 2, … with no gap, and its current night is the last
document sent."""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from support.league import correct_first_deal, played_night

from scorepad.club.store import ClubStore
from scorepad.league.store import LeagueStore
from scorepad.store import Store


@cache
def documents() -> tuple[str, ...]:
    """One night as its club exported it, then after one correction, then after another."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        club = ClubStore(Store(folder / "club.db"))
        nid = played_night(club, ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"], deals=3)
        out = [club.export_night(nid)]
        correct_first_deal(club, nid)
        out.append(club.export_night(nid))
        sid = club.session_of(nid, 1, 2)
        deal = club.store.load(sid).journal.live[1].deal_id
        club.correct_deal(
            nid, 1, 2, deal, {"type": "raspasy", "tricks": {"0": 2, "1": 4, "2": 4}},
            reason="the second protocol", seen=club.store.load(sid).revision,
        )  # fmt: skip
        out.append(club.export_night(nid))
        club.store.close()
    assert len(set(out)) == 3
    return tuple(out)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=8))
def test_the_versions_are_what_was_sent_without_repeats(sent: list[int]) -> None:
    docs = documents()
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "league.db") as store:
        league = LeagueStore(store)
        cid, secret = league.add_club("A")
        for k, i in enumerate(sent):
            league.take(secret, docs[i], f"change {k}")
        expected = [i for k, i in enumerate(sent) if k == 0 or sent[k - 1] != i]
        [current] = league.nights()
        versions = league.versions(cid, current.night)
        assert [v.document for v in versions] == [docs[i] for i in expected]
        assert [v.version for v in versions] == list(range(1, len(expected) + 1))
        assert current == versions[-1] and current.document == docs[sent[-1]]
        assert versions[0].change is None  # a first version corrects nothing
