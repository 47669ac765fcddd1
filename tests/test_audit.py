"""The audit's second question (what was makeable, which card cost it), batches, and the
small points: claims per defender, the sitting-out dealer, the wrong player's card, the
talon's lead."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from scorepad.play.analysis import analyse
from scorepad.play.record import RecordInvalid, audit, parse_record
from scorepad.testing.generate import RandomChooser, random_record

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"


def load(name: str) -> dict[str, Any]:
    return json.loads((DEALS / name).read_text(encoding="utf-8"))


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(RecordInvalid) as exc:
        audit(parse_record(data))
    return exc.value.render()


def test_analyse_names_the_card_that_lost_a_makeable_contract() -> None:
    # Boris plays 7♠ and could make it; his K♠ in trick 5 lets the defence in: he takes 3.
    done = run_cli("--lang", "en", "audit", str(DEALS / "lost-seven.json"), "--analyse")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-7:] == [
        "7♠ (played): the declarer took 3 tricks, down 4; with best play 7 tricks, made",
        "7♣: 7 tricks, made",
        "7♦: 0 tricks, down 7",
        "7♥: 0 tricks, down 7",
        "7NT: 0 tricks, down 7",
        "misère: caught for 2",
        "trick 5, Boris's K♠ instead of 8♣: the declarer could have taken 7, now 3",
    ]
    assert lines[-8] == (
        'Entry: {"type": "game", "declarer": 1, "contract": "7S", '
        '"calls": ["pass", "half", "whist"], "tricks": {"0": 3, "1": 3, "2": 4}}'
    )
    ru = run_cli("--lang", "ru", "audit", str(DEALS / "lost-seven.json"), "--analyse")
    assert ru.stdout.splitlines()[-1] == (
        "взятка 5, Boris — К♠ вместо 8♣: разыгрывающий мог взять 7, теперь 3"
    )
    assert ru.stdout.splitlines()[-7] == (
        "7♠ (играли): разыгрывающий взял 3 взятки, без 4; при лучшей игре 7 взяток, сыграно"
    )
    # The trick list says the cards in Russian too (В Д К Т beside the suit).
    assert "Взятка 1: Vera 9♠, Anna 8♠, Boris В♠ — берёт Boris." in ru.stdout.splitlines()


def test_analyse_as_json_has_every_card_before_and_after() -> None:
    done = run_cli("--lang", "en", "audit", str(DEALS / "lost-seven.json"), "--analyse", "--json")
    doc = json.loads(done.stdout)
    an = doc["analysis"]
    assert an["kind"] == "game" and an["declarer"] == 1
    assert [(c["contract"], c["tricks"], c["played"]) for c in an["contracts"]] == [
        ("7S", 7, True),
        ("C", 7, False),
        ("D", 0, False),
        ("H", 0, False),
        ("NT", 0, False),
        ("misere", 2, False),
    ]
    assert len(an["cards"]) == 30
    costly = [c for c in an["cards"] if c["costly"]]
    assert costly == [
        {
            "trick": 5,
            "seat": 1,
            "card": "K♠",
            "side": "declarer",
            "before": 7,
            "after": 3,
            "costly": True,
            "better": "8♣",
            "sentence": "trick 5, Boris's K♠ instead of 8♣: the declarer could have taken 7, now 3",
        }
    ]
    # Before each card the side's best is what the previous card left: the values chain.
    for prev, nxt in zip(an["cards"], an["cards"][1:], strict=False):
        declarer_after = prev["after"] if prev["side"] == "declarer" else 10 - prev["after"]
        declarer_before = nxt["before"] if nxt["side"] == "declarer" else 10 - nxt["before"]
        assert declarer_after == declarer_before


def test_kovalevskaya_the_lead_decides() -> None:
    base = {
        "format": "scorepad-deal/1",
        "players": ["Anna", "Boris", "Vera"],
        "hands": {"0": "♠10987 ♥98 ♦987 ♣8", "1": "♠AK ♥AKQ10 ♦A ♣QJ10", "2": "♠QJ ♥J7 ♦KQJ10 ♣97"},
        "talon": "A♣ K♣",
        "discard": "A♣ K♣",
    }
    for dealer, caught in ((1, 1), (2, 0)):  # Vera (Y) leads: caught once; Anna leads: clean
        first = (dealer + 1) % 3
        auction = ["misere" if (first + k) % 3 == 0 else "pass" for k in range(3)]
        record = {
            **base,
            "dealer": dealer,
            "auction": auction,
            "claim": {"by": 0, "tricks": {"0": caught, "1": 5, "2": 5 - caught}},
        }
        a = audit(parse_record(record))
        an = analyse(a)
        assert [(c.code, c.tricks) for c in an.contracts if c.played] == [("misere", caught)]


def test_a_claim_is_checked_for_each_defender() -> None:
    d = load("eight-spades.json")
    d["play"] = d["play"][:6]
    d["claim"] = {"by": 0, "tricks": {"0": 3, "1": 1, "2": 0}}
    assert audit(parse_record(d)).taken == {0: 9, 1: 1, 2: 0}
    d["claim"] = {"by": 0, "tricks": {"0": 3, "1": 0, "2": 1}}  # Boris's A♥ given to Vera
    assert refused(d) == (
        "claim: Anna cannot claim that: Boris takes 1 of the last 4 whatever the others do"
    )


def test_the_sitting_out_dealer_cannot_claim() -> None:
    r = random_record(RandomChooser(2), players=4, claim=True)
    assert r["dealer"] == 0 and "claim" in r
    audit(parse_record(r))
    r["claim"]["by"] = 0
    assert refused(r) == "claim: Anna sits out this deal and cannot claim"


def test_the_wrong_players_card_and_the_talons_lead() -> None:
    r = random_record(RandomChooser(0), players=3)  # an all-pass; the talon 8♠ 9♥ leads
    assert "contract" not in r and r["talon"] == "8♠ 9♥"
    good = copy.deepcopy(r)
    r["play"][0] = "9♣ J♠ K♠"  # Vera keeps her 9♠ under the talon's spade
    r["play"][7] = "Q♥ A♣ 9♠"
    assert (
        refused(r) == "trick 1: the talon's 8♠ leads: Vera played 9♣ while holding a spade — revoke"
    )
    path_text = run_cli("--lang", "en", "audit", "-", stdin=json.dumps(good, ensure_ascii=False))
    assert path_text.stdout.splitlines()[1] == (
        "Trick 1: the talon's 8♠ leads; Vera 9♠, Anna J♠, Boris K♠ — Boris takes it."
    )


def test_batch_of_files_and_json_lines(tmp_path: Path) -> None:
    good = load("eight-spades.json")
    bad = copy.deepcopy(good)
    bad["play"][1] = "K♠ 10♣ 7♣"
    night = tmp_path / "night.jsonl"
    night.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in (good, bad, good)) + "\n",
        encoding="utf-8",
    )
    one = tmp_path / "one.json"
    one.write_text(json.dumps(good, ensure_ascii=False, indent=1), encoding="utf-8")
    done = run_cli("--lang", "en", "audit", str(night), str(one))
    entry = json.dumps(audit(parse_record(good)).entry, ensure_ascii=False)
    assert done.returncode == 2
    assert done.stdout.splitlines() == [
        f"{night}:1: every step is legal; entry {entry}",
        f"{night}:2: trick 2: Boris played 10♣ while holding a spade — revoke",
        f"{night}:3: every step is legal; entry {entry}",
        f"{one}: every step is legal; entry {entry}",
    ]
    as_json = run_cli("--lang", "en", "audit", str(night), "--json")
    verdicts = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert as_json.returncode == 2
    assert [(v["source"], v["verdict"]) for v in verdicts] == [
        (f"{night}:1", "legal"),
        (f"{night}:2", "illegal"),
        (f"{night}:3", "legal"),
    ]
    assert verdicts[1]["step"] == "trick 2"
    assert verdicts[1]["reason"] == "Boris played 10♣ while holding a spade — revoke"


def test_json_verdict_for_an_illegal_record(tmp_path: Path) -> None:
    bad = load("eight-spades.json")
    bad["play"][1] = "K♠ 10♣ 7♣"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    done = run_cli("--lang", "ru", "audit", str(path), "--json")
    assert done.returncode == 2
    assert done.stderr == "взятка 2: Boris: ход 10♣ при наличии пик — ренонс\n"
    assert json.loads(done.stdout) == {
        "format": "scorepad-audit/1",
        "verdict": "illegal",
        "step": "взятка 2",
        "reason": "Boris: ход 10♣ при наличии пик — ренонс",
        "message": "взятка 2: Boris: ход 10♣ при наличии пик — ренонс",
    }
    missing = run_cli("--lang", "en", "audit", str(tmp_path / "none.json"), "--json")
    assert missing.returncode == 2
    doc = json.loads(missing.stdout)
    assert doc["verdict"] == "illegal" and doc["step"] is None
    assert doc["message"] == f"cannot read {tmp_path / 'none.json'}: No such file or directory"
