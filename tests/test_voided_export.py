"""A voided deal keeps its number in the session file (issue #21, item 11): the export writes it
in its place with ``"voided": reason``, `settle` skips it for the score and counts it for the
numbering, and an import replays it as an add and a void, so that after export → import every
deal has the number it had at the table: in `scorepad history`, `scorepad settle` and the app.

Every family, through the real CLI and a real SQLite file."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.uids import without_ids

from conftest import cli_out, run_cli, typed
from scorepad.scoring.pulya.session import dump_session, parse_session
from scorepad.store import Store
from scorepad.store.journal import live_numbers, number_of

# Per convention: three deals; the second one is voided at the table.  Each is legal in its
# place whether or not the second one counts (nothing here depends on the deal before).
CASES: dict[str, list[dict[str, Any]]] = {
    "sochi": [
        {"type": "raspasy", "tricks": {"0": 2, "1": 5, "2": 3}},
        {
            "type": "game",
            "declarer": 1,
            "contract": "7S",
            "calls": ["whist"],  # the shortest form, as the export writes it
            "tricks": {"1": 7, "2": 3, "0": 0},
        },
        {"type": "game", "declarer": 0, "contract": "6H", "calls": ["pass", "pass"]},
    ],
    "balkan": [
        {
            "type": "game",
            "declarer": 2,
            "bid": 3,
            "defence": {"0": "follow", "1": "follow"},
            "tricks": {"2": 6, "0": 2, "1": 2},
        },
        {"type": "allpass"},
        {
            "type": "game",
            "declarer": 0,
            "bid": 3,
            "defence": {"1": "follow", "2": "follow"},
            "tricks": {"0": 7, "1": 2, "2": 1},
        },
    ],
    "prefa": [
        {"type": "game", "declarer": 0, "contract": "6S", "defence": {"1": "pass", "2": "pass"}},
        {"type": "game", "declarer": 1, "contract": "7H", "defence": {"0": "pass", "2": "pass"}},
        {"type": "game", "declarer": 2, "contract": "6D", "defence": {"0": "pass", "1": "pass"}},
    ],
    "austrian": [
        {"type": "game", "declarer": 0, "suit": "D", "defence": {"1": "drop", "2": "drop"}},
        {"type": "allpass"},
        {"type": "game", "declarer": 1, "suit": "H", "defence": {"0": "drop", "2": "drop"}},
    ],
    "swabian": [
        {"type": "swabian", "declarer": 0, "bid": 4, "tricks": 7, "dealer": 2},
        {"type": "swabian", "declarer": 1, "bid": 4, "tricks": 3, "dealer": 0},
        {"type": "swabian", "declarer": 2, "bid": 4, "tricks": 8, "dealer": 1},
    ],
}
REASON = "misdeal: Boris had 11 cards"


def cli(*args: str) -> str:
    return cli_out("--lang", "en", *args)


def history_numbers(db: Path, sid: str) -> list[str]:
    """What `scorepad history` says of each action, without its time and its seq."""
    return [
        re.sub(r"^\s*\d+\s+\S+ \S+\s+", "", line)
        for line in cli("history", sid, "--db", str(db)).splitlines()
    ]


def table_session(db: Path, convention: str) -> int:
    """Three deals written at the table, the second voided."""
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"], convention=convention)
        rev = 0
        for deal in CASES[convention]:
            rev = store.add_deal(sid, typed(store, sid, deal), seen=rev).revision
        second = store.load(sid).journal.live[1].deal_id
        store.void_deal(sid, second, reason=REASON, seen=rev)
        return sid


@pytest.mark.parametrize("convention", sorted(CASES))
def test_export_keeps_a_voided_deal_in_its_place_and_import_keeps_every_number(
    tmp_path: Path, convention: str
) -> None:
    first, second, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "out.json"
    sid = str(table_session(first, convention))
    cli("export", sid, str(out), "--db", str(first))

    data = json.loads(without_ids(out.read_text(encoding="utf-8")))
    assert len(data["deals"]) == 3
    assert data["deals"][1] == {**CASES[convention][1], "voided": REASON}
    assert [("voided" in d) for d in data["deals"]] == [False, True, False]

    # `settle FILE`: the voided deal scores nothing, but deal 3 is still deal 3.
    settled = json.loads(cli("settle", str(out), "--json"))
    assert [d["index"] for d in settled["deals"]] == [0, 2]
    text = cli("settle", str(out))
    assert "Deal 3" in text and "Deal 2" not in text
    live_only = {**data, "deals": [data["deals"][0], data["deals"][2]]}
    (tmp_path / "live.json").write_text(json.dumps(live_only), encoding="utf-8")
    without = json.loads(cli("settle", str(tmp_path / "live.json"), "--json"))
    assert settled["balance"] == without["balance"] and settled["money"] == without["money"]

    # Import: the same numbers in `history` and `settle`, the reason kept.
    new = cli("import", str(out), "--db", str(second)).strip()
    # (the import writes the voided deal and voids it in its place, before deal 3)
    assert [line.split("  ")[0] for line in history_numbers(second, new)] == [
        "deal 1 was written",
        "deal 2 was written",
        f"deal 2 was voided ({REASON})",
        "deal 3 was written",
    ]
    # At the table it was voided after deal 3 was written: the same numbers.
    assert [line.split("  ")[0] for line in history_numbers(first, sid)] == [
        "deal 1 was written",
        "deal 2 was written",
        "deal 3 was written",
        f"deal 2 was voided ({REASON})",
    ]
    assert cli("settle", new, "--db", str(second)) == cli("settle", sid, "--db", str(first))
    assert cli("settle", new, "--db", str(second), "--json") == cli(
        "settle", sid, "--db", str(first), "--json"
    )
    assert json.loads(cli("settle", new, "--db", str(second), "--json")) == settled
    # The app numbers deals from the journal: the same numbers, deal 2 struck through.
    with Store(second) as store:
        journal = store.load(int(new)).journal
        assert live_numbers(journal) == [1, 3]
        voided = [e for e in journal.entries.values() if e.voided]
        assert [number_of(journal, e.deal_id) for e in voided] == [2]
        # Export → import → export is a fixed point.
        assert store.export_session(int(new)) == out.read_text(encoding="utf-8")


def test_a_file_without_voided_deals_reads_as_before(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    deals = [CASES["sochi"][0], CASES["sochi"][2]]
    session = {
        "format": "scorepad-session/1",
        "players": ["Anna", "Boris", "Vera"],
        "convention": "sochi",
        "pool_target": 10,
        "deals": deals,
    }
    path.write_text(json.dumps(session), encoding="utf-8")
    assert [d["index"] for d in json.loads(cli("settle", str(path), "--json"))["deals"]] == [0, 1]
    db = tmp_path / "p.db"
    sid = cli("import", str(path), "--db", str(db)).strip()
    assert "voided" not in cli("history", sid, "--db", str(db))
    exported = cli("export", sid, "-", "--db", str(db))
    assert without_ids(exported) == dump_session(parse_session(path.read_text(encoding="utf-8")))
    assert "voided" not in exported


def test_a_bad_voided_deal_is_named_by_its_place_and_nothing_is_written(tmp_path: Path) -> None:
    deals = [dict(d) for d in CASES["sochi"]]
    deals[1]["voided"] = 7  # the reason is a sentence
    deals[2]["tricks"] = {"0": 11}  # and deal 3 is refused as deal 3, not as the second live one
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "format": "scorepad-session/1",
                "players": ["Anna", "Boris", "Vera"],
                "convention": "sochi",
                "pool_target": 10,
                "deals": deals,
            }
        ),
        encoding="utf-8",
    )
    db = tmp_path / "bad.db"
    done = run_cli("--lang", "en", "import", str(path), "--db", str(db))
    assert done.returncode == 2 and done.stdout == ""
    assert "deal 2: voided: must be a string" in done.stderr
    assert "deal 3: tricks" in done.stderr
    # A rule broken by the deal after a voided one is named by that deal's own number.
    deals[1]["voided"] = REASON
    deals[2] = {"type": "game", "declarer": 0, "contract": "6H", "calls": ["pass", "half"]}
    deals[2]["tricks"] = {"0": 6, "1": 2, "2": 2}
    path.write_text(json.dumps({**json.loads(path.read_text()), "deals": deals}), encoding="utf-8")
    refused = run_cli("--lang", "en", "settle", str(path))
    assert refused.returncode == 2 and refused.stderr.startswith("deal 3: "), refused.stderr
