"""Closing the pulya and help (помощь), end of the game (§10.1)."""

from __future__ import annotations

from conftest import explain, one, scored


def corr(seat: int, **kw: object) -> dict[str, object]:
    return {"type": "correction", "seat": seat, "note": "carried over", **kw}


def six(declarer: int) -> dict[str, object]:
    return {"type": "game", "declarer": declarer, "contract": "6S", "calls": []}


def eight(declarer: int) -> dict[str, object]:
    return {"type": "game", "declarer": declarer, "contract": "8S", "calls": []}


def test_help_the_highest_pool_with_ten_whists_a_point() -> None:
    s = scored([corr(0, pool=20), corr(1, pool=10), corr(2, pool=12), six(0)])
    w = s.deals[-1].writing
    assert w.pool == [0, 0, 2] and w.whists[0][2] == 20
    assert explain(w) == [
        "Nobody whisted: the deal was not played, Anna counts it made.",
        "Anna's pulya is closed: 2 points help Vera, 20 whists on Vera.",
    ]


def test_help_tie_goes_to_the_left() -> None:
    w = scored([corr(0, pool=20), corr(1, pool=10), corr(2, pool=10), six(0)]).deals[-1].writing
    assert w.pool == [0, 2, 0] and w.whists[0][1] == 20


def test_partial_fit_then_help_then_the_remaining_player() -> None:
    w = scored([corr(0, pool=17), corr(1, pool=19), corr(2, pool=18), eight(0)]).deals[-1].writing
    assert w.pool == [3, 1, 2]  # 3 fit, 1 to Boris (highest), the rest to Vera
    assert (w.whists[0][1], w.whists[0][2]) == (10, 20)


def test_nobody_left_to_help_off_own_gora() -> None:
    s = scored([corr(0, pool=20), corr(1, pool=20), corr(2, pool=20), six(0)])
    assert s.deals[-1].writing.gora == [-2, 0, 0]
    assert s.finished


def test_nobody_left_points_lost_variant() -> None:
    s = scored(
        [corr(0, pool=20), corr(1, pool=20), corr(2, pool=20), six(0)],
        overrides={"help_overflow": "lost"},
    )
    assert s.deals[-1].writing.gora == [0, 0, 0]


def test_clockwise_help() -> None:
    w = (
        scored(
            [corr(0, pool=20), corr(1, pool=5), corr(2, pool=15), six(0)],
            overrides={"pool_help": "clockwise"},
        )
        .deals[-1]
        .writing
    )
    assert w.pool == [0, 2, 0]


def test_leningrad_has_no_help_and_ends_on_the_total() -> None:
    s = scored(
        [corr(0, pool=48), corr(1, pool=48), corr(2, pool=48), eight(0)],
        convention="leningrad",
        pool_target=50,
    )
    assert s.sheet.pool == [54, 48, 48] and s.finished


def test_zero_trick_reward_helps_too() -> None:
    w = (
        scored(
            [
                corr(0, pool=20),
                corr(1, pool=3),
                {"type": "raspasy", "tricks": {"0": 0, "1": 4, "2": 6}},
            ]
        )
        .deals[-1]
        .writing
    )
    assert w.pool == [0, 1, 0] and w.whists[0][1] == 10


def test_game_end_all_closed() -> None:
    assert not scored([corr(0, pool=20), corr(1, pool=20), corr(2, pool=19)]).finished
    assert scored([corr(0, pool=20), corr(1, pool=20), corr(2, pool=20)]).finished


def test_misere_made_goes_into_the_pool_and_help() -> None:
    w = one({"type": "misere", "declarer": 1, "tricks": {"1": 0}})
    assert w.pool == [0, 10, 0]
    w2 = (
        scored([corr(1, pool=15), {"type": "misere", "declarer": 1, "tricks": {"1": 0}}])
        .deals[-1]
        .writing
    )
    assert w2.pool == [0, 5, 5] and w2.whists[1][2] == 50  # a tie: the one on his left


def test_help_six_points_is_sixty_whists() -> None:
    # «на записавшего 6 очков он напишет 60 вистов» (HIST): an eight played past a closed pool.
    w = scored([corr(0, pool=20), corr(1, pool=4), eight(0)]).deals[-1].writing
    assert w.pool == [0, 6, 0] and w.whists[0][1] == 60


def test_kazakhstan_six_as_help_is_eight_points_and_eighty_whists() -> None:
    w = (
        scored([corr(0, pool=40), six(0)], convention="kazakhstan", pool_target=40)
        .deals[-1]
        .writing
    )
    assert w.pool == [0, 8, 0] and w.whists[0][1] == 80  # a tie at 0: Boris, on Anna's left
