"""The league's store (issue #39): its clubs and their secrets, and the nights they publish,
checked in full and versioned; on a real SQLite file and on a real PostgreSQL."""

from __future__ import annotations

import datetime
import hashlib
import json
from pathlib import Path

import pytest
from support.league import correct_first_deal, played_night, unbalanced

from scorepad.club.store import ClubStore
from scorepad.league.store import LeagueError, LeagueStore
from scorepad.store import Store, schema_version

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"]


@pytest.fixture
def club_file(tmp_path: Path) -> tuple[ClubStore, int]:
    store = Store(tmp_path / "club.db")
    club = ClubStore(store)
    nid = played_night(club, NAMES, tours=2)
    return club, nid


def test_migration_10_makes_the_league_tables(target: str) -> None:
    with Store(target) as store:
        assert store.version() == schema_version() >= 10
        tables = store.backend.tables()
        assert {"league_clubs", "league_nights"} <= set(tables)


def test_a_club_joins_with_a_secret_kept_hashed_and_revocable(target: str) -> None:
    with Store(target) as store:
        league = LeagueStore(store)
        cid, secret = league.add_club("Sochi Club")
        other, secret2 = league.add_club("Belgrade")
        assert secret != secret2 and len(secret) >= 32
        [row] = store.backend.query("SELECT * FROM league_clubs WHERE id = ?", (cid,))
        assert secret not in json.dumps(row)
        assert row["secret"] == hashlib.sha256(secret.encode()).hexdigest()
        assert league.club_of(secret).id == cid
        assert [(c.id, c.name, c.revoked) for c in league.clubs()] == [
            (other, "Belgrade", None),
            (cid, "Sochi Club", None),
        ]
        with pytest.raises(LeagueError) as refused:
            league.add_club("sochi  club")
        assert (
            refused.value.message.render("en") == "the league has a club named sochi club already"
        )
        league.revoke_club(cid)
        assert [c.revoked is not None for c in league.clubs()] == [False, True]
        for wrong in (secret, secret2[:-1] + "x", "", "short"):
            with pytest.raises(LeagueError) as refused:
                league.club_of(wrong)
            assert refused.value.kind == "secret"
            assert (
                refused.value.message.render("en")
                == "the league does not know this club's secret, or revoked it"
            )
        assert league.club_of(secret2).id == other


def test_a_night_is_taken_once_and_a_correction_is_its_next_version(
    target: str, club_file: tuple[ClubStore, int]
) -> None:
    club, nid = club_file
    document = club.export_night(nid)
    with Store(target) as store:
        league = LeagueStore(store)
        cid, secret = league.add_club("Sochi Club")
        first = league.take(secret, document)
        assert first.new and first.night.version == 1 and first.night.change is None
        assert first.night.document == document
        assert first.night.digest == hashlib.sha256(document.encode()).hexdigest()
        assert first.night.night == club.load(nid).uid and first.night.club == cid
        again = league.take(secret, document.encode())  # the same night sent twice
        assert not again.new and again.night == first.night
        assert store.backend.execute("SELECT count(*) FROM league_nights").fetchone()[0] == 1

        # The director corrects a deal after the night: the next version, the first kept.
        correct_first_deal(club, nid)
        corrected = club.export_night(nid)
        assert corrected != document
        second = league.take(secret, corrected, "deal 1 of table 1 was a raspasy")
        assert second.new and second.night.version == 2
        assert second.night.change == "deal 1 of table 1 was a raspasy"
        assert [v.document for v in league.versions(cid, first.night.night)] == [
            document,
            corrected,
        ]
        assert [n.document for n in league.nights()] == [corrected]
        assert [n.version for n in league.nights(current=False)] == [1, 2]
        assert not league.take(secret, corrected).new


def test_a_night_that_does_not_add_up_is_refused_naming_its_table_and_nothing_is_taken(
    target: str, club_file: tuple[ClubStore, int]
) -> None:
    club, nid = club_file
    bad = unbalanced(club.export_night(nid), tour=2, table=1)
    with Store(target) as store:
        league = LeagueStore(store)
        _, secret = league.add_club("Sochi Club")
        with pytest.raises(LeagueError) as refused:
            league.take(secret, bad)
        said = refused.value.message.render("en")
        assert said.startswith("tour 2, table 1 does not add up"), said
        assert refused.value.message.render("ru").startswith("тур 2, стол 1 не сходится")
        assert league.nights(current=False) == []
        with pytest.raises(LeagueError) as refused:
            league.take(secret, "{not json")
        assert refused.value.message.render("en") == "this is not a club file: it is not JSON"
        assert league.nights(current=False) == []


def test_a_revoked_or_wrong_secret_publishes_nothing(
    target: str, club_file: tuple[ClubStore, int]
) -> None:
    club, nid = club_file
    document = club.export_night(nid)
    with Store(target) as store:
        league = LeagueStore(store)
        cid, secret = league.add_club("Sochi Club")
        league.revoke_club(cid)
        for s in (secret, "x" * 32):
            with pytest.raises(LeagueError) as refused:
                league.take(s, document)
            assert refused.value.kind == "secret"
        assert league.nights(current=False) == []


def test_a_night_not_ended_or_another_clubs_is_refused(target: str, tmp_path: Path) -> None:
    club = ClubStore(Store(tmp_path / "club.db"))
    ended = played_night(club, NAMES)
    open_night = club.create_night(
        "Open", date=datetime.date(2026, 12, 5), tours=2, deals_per_tour=1
    )
    with Store(target) as store:
        league = LeagueStore(store)
        _, a = league.add_club("A")
        _, b = league.add_club("B")
        with pytest.raises(LeagueError) as refused:
            league.take(a, club.export_night(open_night))
        assert refused.value.message.render("en") == (
            "the club night Open of 2026-12-05 has not ended: publish it after its last tour"
        )
        league.take(a, club.export_night(ended))
        with pytest.raises(LeagueError) as refused:  # a copy of A's night: it would count twice
            league.take(b, club.export_night(ended))
        assert refused.value.message.render("en") == (
            "the club night Friday of 2026-12-04 was published by another club of the league"
        )
        assert len(league.nights()) == 1


def test_nights_are_in_the_order_they_were_played(target: str, tmp_path: Path) -> None:
    club = ClubStore(Store(tmp_path / "club.db"))
    days = [datetime.date(2026, 12, d) for d in (9, 2, 9, 5)]
    nids = [
        played_night(club, NAMES, name=f"Night {k}", date=day, seed=k) for k, day in enumerate(days)
    ]
    with Store(target) as store:
        league = LeagueStore(store)
        _, secret = league.add_club("A")
        for nid in nids:
            league.take(secret, club.export_night(nid))
        got = [json.loads(n.document)["name"] for n in league.nights()]
        assert got == ["Night 1", "Night 3", "Night 0", "Night 2"]
