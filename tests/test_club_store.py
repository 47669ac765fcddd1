"""A club night in a real SQLite file: tables as pulya sessions, deals confirmed by another
player, disputes, the director's corrections, ended tours, the club file and the backup."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from support.club_nights import RASP, SIX

from scorepad.club.errors import ClubError
from scorepad.club.scoring import Places
from scorepad.club.store import ClubStore
from scorepad.store import Store, StoreError

DATE = datetime.date(2026, 12, 1)
# Deals for a table of three (seat numbers are the table's seats, 0 deals first).
SEVEN = {
    "type": "game",
    "declarer": 0,
    "contract": "7H",
    "calls": ["whist", "whist"],
    "tricks": {"0": 7, "1": 2, "2": 1},
}


@pytest.fixture
def club(store: Store) -> ClubStore:
    return ClubStore(store)


def _night(club: ClubStore, players: int = 6, **kw: object) -> int:
    nid = club.create_night("Friday", date=DATE, tours=2, pool_target=10, seed=5, **kw)  # type: ignore[arg-type]
    for i in range(1, players + 1):
        club.check_in(nid, f"Player {i}")
    return nid


def _write(
    club: ClubStore,
    nid: int,
    table: int,
    deal: dict[str, object],
    *,
    by: int | None = None,
    tour: int = 1,
) -> int:
    sid = club.session_of(nid, tour, table)
    seats = club.load(nid).tour(tour).table(table).players
    stored = club.write_deal(
        nid,
        tour,
        table,
        deal,
        by=seats[0] if by is None else by,
        seen=club.store.load(sid).revision,
    )
    return stored.journal.live[-1].deal_id


def test_the_night_is_stored_with_its_frozen_convention(club: ClubStore, store: Store) -> None:
    nid = _night(club, overrides={"remiz_factor": 2}, scoring=Places())
    night = club.load(nid)
    assert night.settings["remiz_factor"] == 2
    assert night.scoring == Places()
    assert [p.name for p in night.players] == [f"Player {i}" for i in range(1, 7)]
    assert "Player 3" in store.players()  # the roster


def test_check_in_twice_and_a_look_alike_are_refused(club: ClubStore, store: Store) -> None:
    nid = _night(club, 3)
    with pytest.raises(ClubError, match="'Player 1' is already checked in as number 1"):
        club.check_in(nid, "player 1")
    store.add_player("Anna")
    with pytest.raises(StoreError, match="looks like 'Anna'"):
        club.check_in(nid, "\uff21nna")  # a full-width A
    assert len(club.load(nid).players) == 3


def test_each_table_is_a_pulya_session(club: ClubStore, store: Store) -> None:
    nid = _night(club)
    report = club.draw(nid)
    night = club.load(nid)
    assert report.tour == 1 and report.byes == ()
    for tab in night.drawn[0].tables:
        s = store.load(club.session_of(nid, 1, tab.number)).session
        assert s.players == [night.name_of(n) for n in tab.players]
        assert s.pool_target == 10 and s.convention == "sochi"
        assert (
            store.load(club.session_of(nid, 1, tab.number)).settings.model_dump(mode="json")
            == night.settings
        )


def test_a_deal_is_provisional_until_another_player_confirms(club: ClubStore) -> None:
    nid = _night(club)
    club.draw(nid)
    a, b, _ = club.load(nid).tour(1).table(1).players
    deal = _write(club, nid, 1, SIX, by=a)
    sid = club.session_of(nid, 1, 1)
    assert [(m.state, m.written_by) for m in club.marks(sid)] == [("provisional", a)]
    with pytest.raises(ClubError) as exc:
        club.confirm(nid, 1, 1, deal, by=a)
    assert exc.value.message.render("en") == (
        f"deal 1 was written by number {a}: another player at the table confirms it"
    )
    outsider = club.load(nid).tour(1).table(2).players[0]
    with pytest.raises(ClubError, match=f"number {outsider} does not sit at table 1 of tour 1"):
        club.confirm(nid, 1, 1, deal, by=outsider)
    assert club.marks(sid)[0].state == "provisional"
    mark = club.confirm(nid, 1, 1, deal, by=b)
    assert (mark.state, mark.decided_by) == ("confirmed", b)
    with pytest.raises(ClubError, match="deal 1 is confirmed already"):
        club.confirm(nid, 1, 1, deal, by=b)


def test_a_rejected_deal_is_disputed_and_written_again(club: ClubStore, store: Store) -> None:
    nid = _night(club)
    club.draw(nid)
    a, _, c = club.load(nid).tour(1).table(1).players
    deal = _write(club, nid, 1, SIX, by=a)
    club.reject(nid, 1, 1, deal, by=c, reason="the tricks are wrong")
    views = {v.table: v for v in club.tables(nid)}
    assert views[1].state == "disputed" and views[1].disputed == 1
    assert views[2].state == "waiting"
    sid = club.session_of(nid, 1, 1)
    fixed = {**SIX, "tricks": {"1": 7, "2": 2, "0": 1}}
    club.rewrite_deal(
        nid, 1, 1, deal, fixed, by=c, reason="7 tricks, audited", seen=store.load(sid).revision
    )
    assert [(m.state, m.written_by) for m in club.marks(sid)] == [("provisional", c)]
    club.confirm(nid, 1, 1, deal, by=a)
    assert club.tables(nid)[0].state == "playing"


def test_a_tour_ends_with_every_deal_confirmed(club: ClubStore) -> None:
    nid = _night(club)
    club.draw(nid)
    with pytest.raises(ClubError, match="tour 1 cannot end: table 1 has no result"):
        club.end_tour(nid, 1)
    seats = {t: club.load(nid).tour(1).table(t).players for t in (1, 2)}
    ids = {t: _write(club, nid, t, SIX, by=seats[t][0]) for t in (1, 2)}
    with pytest.raises(ClubError, match="tour 1 cannot end: table 1 has a deal not confirmed"):
        club.end_tour(nid, 1)
    for t in (1, 2):
        club.confirm(nid, 1, t, ids[t], by=seats[t][1])
    club.end_tour(nid, 1)
    assert club.load(nid).tour(1).state == "ended"
    # A deal at a table whose tour has ended is refused, and nothing is written.
    sid = club.session_of(nid, 1, 1)
    with pytest.raises(ClubError) as exc:
        _write(club, nid, 1, SEVEN)
    assert exc.value.message.render("en") == (
        "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    )
    assert exc.value.message.render("ru") == (
        "тур 1 закончен: раздачу стола 1 меняет только судья, с указанием причины"
    )
    assert len(club.store.load(sid).session.deals) == 1


def test_the_directors_correction_needs_a_reason_and_changes_the_standings(
    club: ClubStore, store: Store
) -> None:
    nid = _night(club)
    club.draw(nid)
    seats = {t: club.load(nid).tour(1).table(t).players for t in (1, 2)}
    ids = {t: _write(club, nid, t, SIX, by=seats[t][0]) for t in (1, 2)}
    for t in (1, 2):
        club.confirm(nid, 1, t, ids[t], by=seats[t][2])
    club.end_tour(nid, 1)
    before = {s.number: s.points for s in club.standings(nid)}
    sid = club.session_of(nid, 1, 2)
    revision = store.load(sid).revision
    with pytest.raises(ClubError) as exc:
        club.correct_deal(nid, 1, 2, ids[2], SEVEN, reason="  ", seen=revision)
    assert exc.value.message.render("ru") == "исправлению судьи нужна причина"
    assert store.load(sid).revision == revision
    club.correct_deal(nid, 1, 2, ids[2], SEVEN, reason="the protocol says 7H", seen=revision)
    assert store.history(sid)[-1].reason == "the protocol says 7H"
    assert club.corrections(nid)[0]["reason"] == "the protocol says 7H"
    after = {s.number: s.points for s in club.standings(nid)}
    assert {n: before[n] for n in seats[1]} == {n: after[n] for n in seats[1]}
    assert {n: before[n] for n in seats[2]} != {n: after[n] for n in seats[2]}


def test_redraw_needs_a_confirmation_and_no_deal(club: ClubStore, store: Store) -> None:
    nid = _night(club, 9)
    club.draw(nid)
    first = club.load(nid).tour(1)
    with pytest.raises(ClubError, match="a re-draw of tour 1 needs a confirmation"):
        club.redraw(nid, confirmed=False)
    assert club.load(nid).tour(1) == first
    club.redraw(nid, confirmed=True)
    again = club.load(nid).tour(1)
    assert again.redraws == 1 and again.tables != first.tables
    assert len(store.sessions()) == 3  # the first draw's sessions are put away
    _write(club, nid, 1, SIX)
    with pytest.raises(ClubError, match="tour 1 cannot be drawn again: its first deal is written"):
        club.redraw(nid, confirmed=True)


def test_the_fixed_deal_count_closes_a_table(club: ClubStore) -> None:
    nid = club.create_night("Quick", date=DATE, tours=1, deals_per_tour=2, seed=1)
    for name in "ABC":
        club.check_in(nid, name)
    club.draw(nid)
    _write(club, nid, 1, SIX)
    _write(club, nid, 1, RASP)
    assert club.tables(nid)[0].state == "finished"
    with pytest.raises(ClubError, match="table 1 has played its 2 deals of the tour"):
        _write(club, nid, 1, SEVEN)


def test_the_club_file_round_trips_through_another_database(
    club: ClubStore, tmp_path: Path
) -> None:
    nid = _night(club, 7)
    club.draw(nid)
    night = club.load(nid)
    for tab in night.tour(1).tables:
        deal = _write(
            club,
            nid,
            tab.number,
            RASP if len(tab.players) == 3 else {**RASP, "tricks": {"0": 0, "1": 3, "2": 4, "3": 3}},
        )
        club.confirm(nid, 1, tab.number, deal, by=tab.players[1])
    club.end_tour(nid, 1)
    club.draw(nid)
    text = club.export_night(nid)
    with Store(tmp_path / "other.db") as other:
        again = ClubStore(other)
        nid2 = again.import_night(text)
        assert again.load(nid2) == club.load(nid)
        assert again.export_night(nid2) == text
        assert {s.number: s.points for s in again.standings(nid2)} == {
            s.number: s.points for s in club.standings(nid)
        }


def test_a_club_file_that_does_not_add_up_writes_nothing(club: ClubStore, tmp_path: Path) -> None:
    nid = _night(club, 6)
    club.draw(nid)
    _write(club, nid, 1, SIX)
    data = json.loads(club.export_night(nid))
    whists = data["drawn"][0]["tables"][0]["whists"]
    key = next(iter(whists))
    whists[key] = "1000"
    with Store(tmp_path / "other.db") as other:
        again = ClubStore(other)
        with pytest.raises(ClubError, match="tour 1, table 1 does not add up"):
            again.import_night(json.dumps(data))
        assert again.nights() == [] and other.sessions() == [] and other.players() == []


def test_the_backup_holds_the_night(club: ClubStore, store: Store, tmp_path: Path) -> None:
    nid = _night(club)
    club.draw(nid)
    _write(club, nid, 1, SIX)
    copy = store.backup(tmp_path / "backup.db")
    with Store(copy) as restored:
        assert ClubStore(restored).load(nid) == club.load(nid)


def test_the_directors_view_counts_idle_minutes(club: ClubStore) -> None:
    nid = _night(club)
    club.draw(nid)
    _write(club, nid, 1, SIX)
    view = club.tables(nid)[0]
    assert view.last_deal_at is not None
    written = datetime.datetime.fromisoformat(view.last_deal_at)
    assert view.idle_minutes(written + datetime.timedelta(minutes=12, seconds=5)) == 12
    assert club.tables(nid)[1].idle_minutes(written) is None  # no deal yet
