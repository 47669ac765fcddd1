"""Invariants under random values of every convention setting, old and new (hypothesis).

Each session draws a value for every setting (not only the presets' combinations): balances and
money still sum to zero, and a session replays byte for byte, through its file form as well.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import Draw

from scorepad.report.pulya import settlement_of, to_json_text
from scorepad.scoring.pulya.convention import LEVELS, PRICED, SETTING_NAMES
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import dump_session, parse_session
from scorepad.testing.generate import random_session

LEVEL = st.sampled_from([6, 7, 8, 9, 10])


def _ints(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


def _words(*words: str) -> st.SearchStrategy[str]:
    return st.sampled_from(words)


FLAG = st.booleans()

# One strategy per setting; the test below fails when a setting is added without one.
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "game_price": st.fixed_dictionaries({k: _ints(0, 12) for k in PRICED}),
    "whist_trick_factor": _ints(1, 3),
    "remiz_factor": _ints(1, 3),
    "misere_trick_penalty": _ints(1, 40),
    "whist_obligation": st.fixed_dictionaries({k: _ints(0, 5) for k in LEVELS}),
    "whist_responsibility": _words("full", "half"),
    "responsible_whister": _words("second", "split", "both"),
    "whist_style": _words("greedy", "gentleman"),
    "consolation": st.one_of(st.just("trick"), _ints(0, 15)),
    "consolation_to_dealer": FLAG,
    "half_whist": st.lists(LEVEL, unique=True),
    "ten": _words("whisted", "checked"),
    "raspasy_scoring": _words("gora", "whists"),
    "raspasy_trick_price": _ints(1, 10),
    "raspasy_progression": st.lists(_ints(1, 8), min_size=1, max_size=4),
    "raspasy_amnesty": FLAG,
    "raspasy_zero_pool": st.one_of(st.just("trick"), _ints(0, 3)),
    "raspasy_exit": st.lists(LEVEL, min_size=1, max_size=3),
    "pool_help": _words("highest", "clockwise", "none"),
    "help_whists": _ints(0, 20),
    "game_end": _words("all_closed", "total"),
    "pool_point_whists": _ints(0, 20),
    "gora_point_whists": _ints(1, 20),
    "gora_divisor": _words("players", "others", "none"),
    "stalingrad": FLAG,
    "concede": st.one_of(st.just("none"), _ints(1, 5)),
    "talon_bonus": FLAG,
    "failed_whister_writes_tricks": FLAG,
    "whist_quota": _words("shared", "personal"),
    "passer_consolation": _words("passer", "whister", "none"),
    "long_half_whist": FLAG,
    "pass_pass_whist": FLAG,
    "dealer_whist": FLAG,
    "misere_share": _words("half", "third"),
    "misere_bonus_whists": _ints(0, 50),
    "raspasy_talon": _words("open", "closed"),
    "raspasy_zero_target": _words("pool", "gora"),
    "raspasy_dealer_zero": FLAG,
    "raspasy_exit_by_failure": FLAG,
    "raspasy_exit_by_unwhisted": FLAG,
    "raspasy_exit_by_misere": FLAG,
    "help_overflow": _words("gora", "lost", "gora_ratio"),
    "settlement_rounding": _words("exact", "kodex"),
    "must_overtake": FLAG,
    "rounding_whists": _ints(1, 5),
    "ten_checked_whists": FLAG,
    "gentleman_on_made": FLAG,
    "talon_bonus_three": FLAG,
    "dealer_whist_liable": FLAG,
    "dealer_whist_consolation": _words("all", "one"),
    "returned_half_consolation": _words("returner", "lapses"),
    "raspasy_zero_tricks": _ints(1, 4),
    "revoke": _words("one_trick", "two_tricks", "rest"),
}


def test_every_setting_has_a_strategy() -> None:
    assert set(VALUES) == set(SETTING_NAMES)


def draw_any_session(data: st.DataObject) -> dict[str, Any]:
    overrides = data.draw(st.fixed_dictionaries(VALUES), label="overrides")
    return random_session(
        Draw(data),
        convention="kodex",
        players=data.draw(st.sampled_from([3, 4]), label="players"),
        deals=data.draw(st.integers(0, 25), label="deals"),
        overrides=overrides,
        pool_target=data.draw(st.sampled_from([4, 10, 20])),
    )


PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(st.data())
def test_any_settings_keep_balances_and_money_zero_sum(data: st.DataObject) -> None:
    scored = replay(parse_session(draw_any_session(data)))
    result = settlement_of(scored)
    assert sum(result.balance) == 0
    assert sum(result.money) == 0
    n = scored.players
    for i in range(n):
        assert scored.sheet.gora[i] == sum(r.writing.gora[i] for r in scored.deals)


@PROPS
@given(st.data())
def test_any_settings_replay_byte_identically(data: st.DataObject) -> None:
    raw = draw_any_session(data)
    first = to_json_text(replay(parse_session(json.dumps(raw))))
    again = to_json_text(replay(parse_session(json.dumps(raw))))
    through_file = to_json_text(replay(parse_session(dump_session(parse_session(raw)))))
    assert first == again == through_file
