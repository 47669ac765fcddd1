"""A league's players (issue #39, item 2): stable ids, a club's player linked once (by his own
claim with the director's code, or by the operator), the roster's look-alike check across the
whole league, merges and splits kept as records.  On a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.league.players import LeaguePlayers, Roster
from scorepad.store import Store, StoreError

NORTH, SOUTH = "club-north", "club-south"


@pytest.fixture
def league(target: str) -> Any:
    store = Store(target)
    yield LeaguePlayers(store)
    store.close()


def refused(call: Any) -> str:
    with pytest.raises(StoreError) as exc:
        call()
    return exc.value.message.render("en")


def counts(league: LeaguePlayers) -> tuple[int, ...]:
    b = league.backend
    return tuple(
        int(b.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
        for t in ("league_players", "league_links", "league_merges", "league_claims")
    )


def test_the_operator_links_a_club_player_once_to_a_stable_id(league: LeaguePlayers) -> None:
    anna = league.link(NORTH, "u-anna", "Anna")
    assert league.roster() == Roster({(NORTH, "u-anna"): anna}, {anna: "Anna"})
    [p] = league.players()
    assert (p.uid, p.name, p.merged_into) == (anna, "Anna", None)
    assert [(x.club, x.player, x.name, x.by) for x in p.links] == [
        (NORTH, "u-anna", "Anna", "operator")
    ]
    # The same club player is linked once: a second link is refused, nothing written.
    before = counts(league)
    boris = league.link(SOUTH, "u-boris", "Boris")
    before = counts(league)
    got = refused(lambda: league.link(NORTH, "u-anna", "Anna", to=boris))
    assert got == "'Anna' of this club is linked to a league player already"
    assert refused(lambda: league.link(NORTH, "u-anna", "Anna")) == got
    assert counts(league) == before
    # A league player the league does not have: said, nothing written.
    assert refused(lambda: league.link(SOUTH, "u-x", "Xenia", to="no-such-id")) == (
        "the league has no player no-such-id"
    )
    assert counts(league) == before
    # The same person in a second club: linked to the same stable id.
    assert league.link(SOUTH, "u-anna-2", "Anna K.", to=anna) == anna
    assert league.roster().links[(SOUTH, "u-anna-2")] == anna
    assert league.player(anna).name == "Anna"


def test_the_look_alike_check_runs_over_the_whole_league(league: LeaguePlayers) -> None:
    anna = league.link(NORTH, "u1", "Anna")
    league.link(NORTH, "u2", "Boris")
    before = counts(league)
    # A Cyrillic А: the same name to the eye; a new league player for it is refused.
    got = refused(lambda: league.link(SOUTH, "u3", "\u0410nna"))
    assert (
        got == "the name 'Аnna' looks like 'Anna', already a player of the league: link to that one"
    )
    assert refused(lambda: league.create("ANNA")).startswith("the name 'ANNA' looks like 'Anna'")
    # A link of a club's "Boris" to Anna: Boris is another player of the league.
    got = refused(lambda: league.link(SOUTH, "u4", "B0ris", to=anna))
    assert got == (
        "the name 'B0ris' looks like 'Boris', another player of the league: link to that one, "
        "or merge the two"
    )
    assert counts(league) == before
    # A name one of them plays under in a club counts too.
    league.link(SOUTH, "u5", "Annushka", to=anna)
    assert refused(lambda: league.create("annushka")).startswith(
        "the name 'annushka' looks like 'Anna'"
    )
    # The operator may say why a look-alike is another person; it is kept as the reason.
    other = league.create("Anna", another_person="Anna from Tver, not Anna from Sochi")
    assert other.uid != anna
    row = league.backend.execute(
        "SELECT reason FROM league_players WHERE uid = ?", (other.uid,)
    ).fetchone()
    assert row[0] == "Anna from Tver, not Anna from Sochi"
    assert refused(lambda: league.create("Anna", another_person="  ")) == (
        "say why this is another person"
    )
    # And through a link: the club's Anna from Tver is made the league's second Anna.
    tver = league.link(SOUTH, "u-tver", "Anna", another_person="the Anna of Tver")
    assert tver not in (anna, other.uid)
    assert league.roster().links[(SOUTH, "u-tver")] == tver


def test_a_player_claims_his_place_with_the_directors_code(league: LeaguePlayers) -> None:
    code = league.issue_claim_code(NORTH, "u-vera", "Vera")
    assert len(code) == 14 and code.count("-") == 2
    # The database keeps only its hash.
    stored = league.backend.execute("SELECT code FROM league_claims").fetchall()
    assert all(code.replace("-", "") not in str(r[0]) for r in stored)
    assert refused(lambda: league.claim("AAAA-BBBB-CCCC")) == (
        "this code claims nothing: ask your club's director"
    )
    mine = league.claim(code.lower().replace("-", " "))  # as typed on a phone
    assert mine.name == "Vera" and len(mine.secret) >= 22
    assert league.roster().links == {(NORTH, "u-vera"): mine.player}
    assert [x.by for x in league.player(mine.player).links] == ["claim"]
    assert league.player_of_secret(mine.secret) == mine.player
    assert league.player_of_secret("forged") is None
    # A code is used once.
    assert refused(lambda: league.claim(code)).startswith("this code claims nothing")
    # Her second club: the phone's secret says it is her; linked to the same league player.
    south = league.issue_claim_code(SOUTH, "u-vera-s", "Vera P.")
    again = league.claim(south, secret=mine.secret)
    assert (again.player, again.secret) == (mine.player, mine.secret)
    assert league.roster().links[(SOUTH, "u-vera-s")] == mine.player
    # Someone else's phone claiming a look-alike of Vera is refused: a new player would be made.
    third = league.issue_claim_code(SOUTH, "u-vera-2", "VERA")
    before = counts(league)
    got = refused(lambda: league.claim(third))
    assert got == (
        "the name 'VERA' looks like 'Vera', already a player of the league: claim from the "
        "phone that claimed 'Vera', or ask the league's operator"
    )
    assert counts(league) == before
    # A linked player gets no code.
    assert refused(lambda: league.issue_claim_code(NORTH, "u-vera", "Vera")) == (
        "'Vera' of this club is linked to a league player already"
    )


def test_a_newer_code_replaces_the_older(league: LeaguePlayers) -> None:
    old = league.issue_claim_code(NORTH, "u-gleb", "Gleb")
    new = league.issue_claim_code(NORTH, "u-gleb", "Gleb")
    assert refused(lambda: league.claim(old)).startswith("this code claims nothing")
    assert league.claim(new).name == "Gleb"


def test_merge_and_split_are_records_and_give_back_the_links(league: LeaguePlayers) -> None:
    a = league.link(NORTH, "u-a", "Oleg")
    b = league.link(SOUTH, "u-b", "Oleg S.")
    before = league.roster()
    assert refused(lambda: league.merge(a, b, reason="")) == "a merge needs a reason"
    assert refused(lambda: league.merge(a, a, reason="x")) == (
        "a player cannot be merged into himself"
    )
    league.merge(a, b, reason="the same Oleg: he told both clubs")
    merged = league.roster()
    assert merged.links == {(NORTH, "u-a"): b, (SOUTH, "u-b"): b}
    assert merged.names == {b: "Oleg S."}
    assert league.player(a).merged_into == b
    assert refused(lambda: league.merge(a, b, reason="again")) == "Oleg was merged already"
    # A new club name looking like Oleg is checked against the merged player as one.
    assert league.link(SOUTH, "u-c", "OLEG", to=b) == b
    league.split(a, reason="two Olegs after all")
    assert refused(lambda: league.split(a, reason="x")) == "Oleg is not merged into another player"
    after = league.roster()
    assert after.links == {**before.links, (SOUTH, "u-c"): b}
    assert after.names == before.names
    assert [(r.kind, r.player, r.into) for r in league.history()] == [
        ("merge", a, b),
        ("split", a, b),
    ]
    assert league.history()[1].undoes == league.history()[0].id
    # The database refuses to change or delete a record.
    for sql in (
        "UPDATE league_merges SET reason = 'x'",
        "DELETE FROM league_merges",
        "DELETE FROM league_links",
        "UPDATE league_links SET league_player = 1",
    ):
        with pytest.raises(Exception):  # noqa: B017 - either driver's integrity error
            league.store.backend.execute(sql)
        league.store.backend.rollback()
    assert len(league.history()) == 2 and len(league.roster().links) == 3


def test_the_members_link(league: LeaguePlayers) -> None:
    token = league.issue_members_link()
    assert league.member(token) and not league.member(token[:-1] + "x")
    assert not league.member(None) and not league.member("")
    assert league.revoke_members_links() == 1
    assert not league.member(token)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pairs=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=8))
def test_merges_then_splits_in_reverse_give_back_the_roster(
    tmp_path_factory: pytest.TempPathFactory, pairs: list[tuple[int, int]]
) -> None:
    with Store(tmp_path_factory.mktemp("league") / "league.db") as store:
        league = LeaguePlayers(store)
        uids = [league.link(NORTH, f"u{i}", f"Player {chr(65 + i)}") for i in range(6)]
        before = league.roster()
        done = []
        for x, y in pairs:
            try:
                league.merge(uids[x], uids[y], reason="the same")
            except StoreError:
                continue  # merged already, or himself: refused, nothing written
            done.append(x)
        for x in reversed(done):
            league.split(uids[x], reason="not the same")
        assert league.roster() == before
