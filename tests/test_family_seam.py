"""Every family is one seam, the pulya too (issue 34, item 2): the engine's registry gives each
family's :class:`~scorepad.scoring.family.Family` by its name, loads an engine only when it is
asked for, and what it answers is what the family's own modules answer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.report import REPORTS, report_for
from scorepad.scoring.family import ENGINES, NAMES, Family, family
from scorepad.scoring.ledger.families import dump_family_session, settle_family
from scorepad.scoring.peek import FAMILIES, peek_family
from scorepad.scoring.pulya.convention import settings_for
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import Session, dump_session, parse_session
from scorepad.testing.generate import RandomChooser, random_family_session, random_session

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "scorepad" / "data"
DEMOS = sorted(DATA.glob("demo-*.json"))


def test_every_family_is_named_once_the_pulya_first() -> None:
    assert NAMES == ("pulya", *FAMILIES) == ("pulya", "bula", "kassa", "pot", "direct")
    assert set(ENGINES) == set(REPORTS) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_family_implements_the_protocol_under_its_own_name(name: str) -> None:
    engine = family(name)
    assert isinstance(engine, Family)
    assert engine.name == name
    assert engine.pool is (name == "pulya")  # only the pulya plays to a pool target
    assert engine.places_count_voided is (name != "pulya")


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_a_file_read_through_the_registry_is_what_its_family_reads(demo: Path) -> None:
    data = demo.read_bytes()
    engine = family(peek_family(data))
    session = engine.parse_session(data)
    if engine.name == "pulya":
        direct = replay(parse_session(data))
        assert engine.dump_session(session) == dump_session(parse_session(data))
        expected = report_for("pulya").to_json_text(direct, "en")
    else:
        direct_family = settle_family(data)
        assert engine.dump_session(session) == dump_family_session(direct_family.session)
        expected = report_for(engine.name).to_json_text(direct_family, "en")
    assert report_for(engine.name).to_json_text(engine.replay(session), "en") == expected
    assert json.loads(expected)["format"] == "scorepad-settlement/1"


def test_a_deal_of_another_family_is_none_of_this_familys_deal_types() -> None:
    pulya, bula = family("pulya"), family("bula")
    assert not set(pulya.deal_types()) & set(bula.deal_types())
    deal = json.loads((DATA / "demo-session.json").read_text(encoding="utf-8"))["deals"][0]
    assert type(pulya.deal_adapter().validate_python(deal)) in pulya.deal_types()
    assert type(pulya.parse_deal(deal, index=0)) in pulya.deal_types()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 25))
def test_a_pulya_replay_appended_deal_by_deal_is_the_whole_replay(seed: int, deals: int) -> None:
    """The store keeps a pulya's replay and writes an added deal onto it alone: the sheet is
    the one a replay of the whole session writes."""
    data = random_session(RandomChooser(seed), deals=deals)
    whole = replay(parse_session(data))
    engine = family("pulya")
    empty = Session.model_validate({**data, "deals": []})
    kept = engine.start(empty, settings_for(data["convention"]))
    for deal in whole.session.deals:
        assert kept.append(deal) == []
    assert kept.result().sheet == whole.sheet
    assert kept.result().session.deals == whole.session.deals


@pytest.mark.parametrize("convention", ["balkan", "prefa", "illustrated"])
def test_a_ledger_family_is_replayed_whole_after_each_deal(convention: str) -> None:
    data = random_family_session(RandomChooser(7), convention=convention, deals=6)
    engine = family(peek_family(data))
    session = engine.parse_session(data)
    kept = engine.start(session, None)
    assert kept.append(session.deals[0]) is None  # the store replays the session whole
    assert kept.result().results() == engine.replay(session).results()


@pytest.mark.parametrize(
    ("asked", "loaded", "not_loaded"),
    [
        (
            'family("pulya"); report_for("pulya")',
            ["scorepad.scoring.pulya.family"],  # (its report borrows the pulya's money lines)
            ["scorepad.scoring.ledger.families", "scorepad.report.ledger"],
        ),
        (
            'family("kassa"); report_for("kassa")',
            ["scorepad.scoring.ledger.family", "scorepad.report.ledger"],
            ["scorepad.scoring.pulya.family"],  # (its report borrows the pulya's money lines)
        ),
    ],
)
def test_the_registry_loads_an_engine_only_when_asked(
    asked: str, loaded: list[str], not_loaded: list[str]
) -> None:
    """What peek.py promises: a pulya file never loads the other families' engines (a fresh
    interpreter: this one has loaded every engine already)."""
    probe = (
        "import sys\nfrom scorepad.scoring.family import family\n"
        f"from scorepad.report import report_for\n{asked}\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('scorepad'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.split())
    assert [m for m in loaded if m not in modules] == []
    assert [m for m in not_loaded if m in modules] == []
