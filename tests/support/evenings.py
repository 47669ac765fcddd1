"""A Balkan evening and a Prefa evening, deal by deal as a table plays them (for the screens)."""

from __future__ import annotations

from typing import Any

BALKAN_PLAYERS = ["Ana", "Boris", "Vera"]
BALKAN_START = 30


def _game(
    declarer: int,
    bid: int,
    defence: dict[int, str],
    tricks: dict[int, int] | None = None,
    **more: Any,
) -> dict[str, Any]:
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": declarer,
        "bid": bid,
        "hand": more.pop("hand", False),
        "defence": {str(s): r for s, r in defence.items()},
    }
    deal |= more
    if tricks is not None:
        deal["tricks"] = {str(s): n for s, n in tricks.items()}
    return deal


# Twelve deals from 30 each: a contra, a failed betl, two all passes (the second under the hat),
# games on refe, and the last game that closes the bula (truncated to what is left).
BALKAN = [
    _game(2, 3, {0: "follow", 1: "follow"}, {2: 6, 0: 2, 1: 2}),
    _game(1, 5, {2: "follow", 0: "pass"}, {1: 7, 2: 3}),
    _game(0, 4, {1: "follow", 2: "pass"}, {0: 6, 1: 3, 2: 1}, contra={"by": 1, "level": 1}),
    _game(2, 6, {0: "follow", 1: "follow"}, {2: 1, 0: 4, 1: 5}),
    {"type": "allpass"},
    _game(0, 5, {1: "pass", 2: "follow"}, {0: 7, 2: 3}),
    {"type": "allpass"},
    _game(1, 7, {2: "follow", 0: "follow"}, {1: 6, 2: 2, 0: 2}),
    _game(2, 4, {0: "pass", 1: "pass"}),
    _game(1, 3, {2: "pass", 0: "pass"}, hand=True),
    _game(2, 2, {0: "follow", 1: "pass"}, {2: 6, 0: 4}, hand=True),
    _game(2, 5, {0: "follow", 1: "follow"}, {2: 6, 0: 2, 1: 2}),
]

PREFA_PLAYERS = ["Nikos", "Eleni", "Giorgos"]
PREFA = [
    {
        "type": "game",
        "declarer": 1,
        "contract": "6S",
        "defence": {"2": "whist", "0": "whist"},
        "tricks": {"1": 6, "2": 2, "0": 2},
    },
    {
        "type": "game",
        "declarer": 0,
        "contract": "7H",
        "defence": {"1": "whist", "2": "whist"},
        "tricks": {"0": 8, "1": 2, "2": 0},
    },
    {
        "type": "game",
        "declarer": 2,
        "contract": "8NT",
        "defence": {"0": "pass", "1": "pass"},
    },
    {
        "type": "game",
        "declarer": 1,
        "contract": "7D",
        "defence": {"2": "invite", "0": "invited"},
        "tricks": {"1": 6, "2": 3, "0": 1},
    },
]

# A Balkan evening of four (§4.1: the dealer sits out), the dealer from Ana (seat 0) on: a karo
# made, a tref with a lone follower, an all pass (a refe for all four), a herc on the refe, a
# failed betl on a refe, a sans made on a refe, and a hand pik nobody follows.
BALKAN_FOUR_PLAYERS = ["Ana", "Boris", "Vera", "Dima"]
BALKAN_FOUR = [
    _game(2, 3, {3: "follow", 1: "follow"}, {2: 6, 3: 2, 1: 2}),  # Ana deals
    _game(0, 5, {2: "follow", 3: "pass"}, {0: 7, 2: 3}),  # Boris deals
    {"type": "allpass"},  # Vera deals
    _game(1, 4, {2: "pass", 0: "follow"}, {1: 6, 0: 4}),  # Dima deals
    _game(3, 6, {1: "follow", 2: "follow"}, {3: 1, 1: 5, 2: 4}),  # Ana deals
    _game(2, 7, {3: "follow", 0: "follow"}, {2: 6, 3: 2, 0: 2}),  # Boris deals
    _game(0, 2, {1: "pass", 3: "pass"}, hand=True),  # Vera deals
]


def import_evening(
    store: Any,
    names: list[str],
    convention: str,
    overrides: dict[str, Any],
    deals: list[dict[str, Any]] | tuple[()] = (),
) -> int:
    """An evening of ``convention`` imported into ``store`` (at 0.10 EUR a point, as the screens'
    tests show their money): its session's id."""
    import json

    data = {
        "format": "scorepad-session/1",
        "players": names,
        "convention": convention,
        "overrides": overrides,
        "whist_price": "0.10",
        "currency": "EUR",
        "deals": list(deals),
    }
    return int(store.import_session(json.dumps(data)))
