"""The store keeps sessions of every family: a bula, kassa or pot session is written, edited,
voided, undone, exported and imported exactly as a pulya one, and always scores as its file."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.uids import without_ids
from test_bula import bula_deal
from test_families_cli import D_E1, G_E15
from test_kassa import kassa_deal
from test_pot import pot_deals

from conftest import typed
from scorepad.report.ledger import to_json_text
from scorepad.scoring.ledger.families import settle_family
from scorepad.scoring.pulya.session import SessionInvalid
from scorepad.store import InvalidEntry, StaleRevision, Store, Stored, StoreError

GAME = {
    "type": "game",
    "declarer": 2,
    "bid": 3,
    "defence": {"0": "follow", "1": "follow"},
    "tricks": {"2": 6, "0": 2, "1": 2},
}


def balkan(store: Store, **kw: Any) -> int:
    return store.create_session(["A", "B", "C"], convention="balkan", **kw)


def file_of(store: Store, sid: int) -> str:
    return to_json_text(settle_family(store.export_session(sid)))


def test_a_family_session_is_created_with_its_family_and_frozen_settings(store: Store) -> None:
    sid = balkan(store, overrides={"start_bula": 30}, whist_price="0.10", currency="EUR")
    assert store.family(sid) == "bula"
    stored = store.load(sid)
    assert isinstance(stored, Stored) and stored.engine.name == "bula"
    assert stored.family == "bula" and stored.revision == 0
    assert stored.scored.table.bulas == [30, 30, 30]  # type: ignore[union-attr]
    assert json.loads(without_ids(store.export_session(sid))) == {
        "format": "scorepad-session/1",
        "players": ["A", "B", "C"],
        "convention": "balkan",
        "overrides": {"start_bula": 30},
        "whist_price": "0.10",
        "currency": "EUR",
        "deals": [],
    }
    # One load for every family: the pulya's session is the same view, carrying its family.
    pulya = store.create_session(["A", "B", "C"])
    assert store.family(pulya) == "pulya"
    other = store.load(pulya)
    assert type(other) is type(stored) and other.family == other.engine.name == "pulya"
    assert other.scored.next_dealer == stored.scored.next_dealer == 0


def test_deals_are_written_and_score_as_the_exported_file(store: Store) -> None:
    sid = balkan(store, overrides={"start_bula": 30})
    s1 = store.add_deal(sid, typed(store, sid, GAME), seen=0)
    assert isinstance(s1, Stored) and s1.family == "bula" and s1.revision == 1
    assert s1.scored.table.bulas == [30, 30, 24]  # type: ignore[union-attr]
    store.add_deal(sid, typed(store, sid, {"type": "allpass"}), seen=1)
    stored = store.load(sid)
    assert [type(e.deal).__name__ for e in stored.journal.live] == ["BulaGame", "BulaAllPass"]
    assert to_json_text(stored.scored) == file_of(store, sid)
    assert store.sessions()[0].deals == 2


def test_the_worked_example_d_e1_imports_and_exports_byte_identically(store: Store) -> None:
    text = json.dumps(D_E1)
    sid = store.import_session(text)
    assert store.family(sid) == "bula"
    exported = store.export_session(sid)
    again = store.import_session(exported)
    assert store.export_session(again) == exported
    assert file_of(store, sid) == to_json_text(settle_family(text))
    kassa = store.import_session(json.dumps(G_E15))
    assert store.family(kassa) == "kassa"
    assert file_of(store, kassa) == to_json_text(settle_family(json.dumps(G_E15)))


def test_a_refused_deal_names_the_deal_and_field_and_writes_nothing(store: Store) -> None:
    sid = balkan(store)
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    # A model copied past its checks (model_copy does not validate) is checked again.
    bad = typed(store, sid, GAME).model_copy(update={"bid": 9})
    with pytest.raises(InvalidEntry) as err:
        store.add_deal(sid, bad, seen=1)
    assert err.value.render("en") == ("the entry was refused:\ndeal 2: bid: at most 7")
    # The engine's refusal (tricks that do not add up) also names the deal, in both languages.
    with pytest.raises(InvalidEntry) as err:
        store.add_deal(sid, typed(store, sid, {**GAME, "tricks": {"2": 6, "0": 2, "1": 1}}), seen=1)
    assert err.value.render("en") == (
        "the entry was refused:\ndeal 2: tricks: tricks sum to 9: "
        "play stops before 10 only when the defence has 5"
    )
    assert err.value.render("ru") == (
        "запись отклонена:\nсдача 2: tricks: в сумме взяток 9: "
        "игра прекращается раньше 10 только когда у защиты 5"
    )
    assert store.load(sid).revision == 1
    assert [a.kind for a in store.history(sid)] == ["add"]


def test_a_stale_write_is_refused(store: Store) -> None:
    sid = balkan(store)
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    with pytest.raises(StaleRevision):
        store.add_deal(sid, typed(store, sid, GAME), seen=0)
    assert store.load(sid).revision == 1


def test_a_snapshot_keeps_its_revision(store: Store) -> None:
    sid = balkan(store)
    a = store.load(sid)
    store.add_deal(sid, typed(store, sid, GAME), seen=0)
    assert a.revision == 0 and len(a.journal.live) == 0


def session_file(store: Store, sid: int, deals: list[Any]) -> str:
    data = json.loads(store.export_session(sid))
    data["deals"] = deals
    return json.dumps(data)


def test_edit_void_undo_redo_restore_recompute_like_the_file(store: Store) -> None:
    sid = balkan(store, overrides={"start_bula": 30})
    other = {**GAME, "declarer": 0, "defence": {"1": "follow", "2": "follow"}}
    other["tricks"] = {"0": 7, "1": 2, "2": 1}
    rev = 0
    for d in (GAME, {"type": "allpass"}, other):
        rev = store.add_deal(sid, typed(store, sid, d), seen=rev).revision
    ids = [e.deal_id for e in store.load(sid).journal.live]
    edited = {**GAME, "bid": 4, "tricks": {"2": 5, "0": 3, "1": 2}}
    s = store.edit_deal(sid, ids[0], typed(store, sid, edited), reason="misheard", seen=rev)
    assert to_json_text(s.scored) == to_json_text(  # type: ignore[arg-type]
        settle_family(session_file(store, sid, [edited, {"type": "allpass"}, other]))
    )
    s = store.void_deal(sid, ids[1], reason="misdeal", seen=s.revision)
    after_void = to_json_text(s.scored)  # type: ignore[arg-type]
    assert after_void == to_json_text(settle_family(session_file(store, sid, [edited, other])))
    s = store.undo(sid, seen=s.revision)
    assert len(s.journal.live) == 3
    s = store.redo(sid, seen=s.revision)
    assert to_json_text(s.scored) == after_void  # type: ignore[arg-type]
    s = store.restore_deal(sid, ids[1], seen=s.revision)
    assert len(s.journal.live) == 3
    assert to_json_text(s.scored) == file_of(store, sid)  # type: ignore[arg-type]
    # A reopened store replays the journal from the file to the same sheet.
    with Store(store.path) as again:
        assert to_json_text(again.load(sid).scored) == to_json_text(s.scored)  # type: ignore[arg-type]


def test_an_edit_that_breaks_a_later_deal_is_refused_and_changes_nothing(store: Store) -> None:
    sid = store.create_session(["A", "B", "C"], convention="balkan", overrides={"start_bula": 10})
    closing = {**GAME, "bid": 5, "tricks": {"2": 6, "0": 2, "1": 2}}  # 10 − 10: the bula closes
    store.add_deal(sid, typed(store, sid, closing), seen=0)
    first = store.load(sid).journal.live[0].deal_id
    before = file_of(store, sid)
    with pytest.raises(InvalidEntry):
        bad = typed(store, sid, closing).model_copy(update={"bid": 9})  # past the model's checks
        store.edit_deal(sid, first, bad, reason="x", seen=1)
    assert file_of(store, sid) == before and store.load(sid).revision == 1


SESSIONS = {
    "balkan": st.lists(bula_deal(), max_size=12),
    "balkan-pot": st.lists(bula_deal(), max_size=12),
    "prefa": st.lists(kassa_deal(), max_size=12),
    "austrian": pot_deals(),
    "illustrated": pot_deals(),
    "austrian-1829": pot_deals(),
    "swabian": pot_deals(),
}


@st.composite
def family_session(draw: st.DrawFn) -> tuple[str, list[Any], list[int], int]:
    convention = draw(st.sampled_from(sorted(SESSIONS)))
    deals = draw(SESSIONS[convention])
    voids = draw(st.lists(st.integers(0, 20), max_size=3, unique=True))
    players = 3 if convention == "swabian" else draw(st.sampled_from([3, 4]))
    return convention, deals, voids, players


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(family_session())
def test_any_family_session_in_the_store_scores_as_its_file_and_is_zero_sum(
    tmp_path: Path, case: tuple[str, list[Any], list[int], int]
) -> None:
    from support.four import seated

    convention, deals, voids, n = case
    with Store(tmp_path / f"{abs(hash(json.dumps(case)))}.db") as store:
        sid = store.create_session(
            ["A", "B", "C", "D"][:n], convention=convention, whist_price="0.07", first_dealer=n - 1
        )
        rev = 0
        for d in deals:
            dealer = store.load(sid).scored.table.dealer
            d = seated(d, n, dealer)
            with contextlib.suppress(InvalidEntry, StoreError):
                rev = store.add_deal(
                    sid, typed(store, sid, {str(k): v for k, v in d.items()}), seen=rev
                ).revision
        live = store.load(sid).journal.live
        for v in voids:
            if v < len(live):
                with contextlib.suppress(InvalidEntry):
                    rev = store.void_deal(sid, live[v].deal_id, reason="x", seen=rev).revision
        stored = store.load(sid)
        assert sum(stored.scored.money_units()) == 0
        text = store.export_session(sid)
        try:
            from_file = settle_family(text)
        except SessionInvalid as exc:  # pragma: no cover - a failure names the problem
            raise AssertionError(exc.render("en")) from None
        assert to_json_text(stored.scored) == to_json_text(from_file)
        # Import → export is a fixed point.
        assert store.export_session(store.import_session(text)) == text


def test_the_cli_imports_exports_and_settles_a_stored_family_session(tmp_path: Path) -> None:
    from conftest import cli_out

    db, src = tmp_path / "cli.db", tmp_path / "e1.json"
    src.write_text(json.dumps(D_E1), encoding="utf-8")

    def cli(*args: str) -> str:
        return cli_out("--lang", "en", *args)

    sid = cli("import", str(src), "--db", str(db)).strip()
    assert cli("settle", sid, "--db", str(db), "--json") == cli("settle", str(src), "--json")
    out = tmp_path / "out.json"
    cli("export", sid, str(out), "--db", str(db))
    assert cli("settle", str(out)) == cli("settle", str(src))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([*sorted(SESSIONS), "american"]))
def test_a_generated_family_session_always_validates_and_is_zero_sum(
    seed: int, convention: str
) -> None:
    from scorepad.testing.generate import RandomChooser, random_family_session

    data = random_family_session(RandomChooser(seed), convention=convention, deals=20)
    assert len(data["deals"]) >= 1
    scored = settle_family(json.dumps(data))
    assert sum(scored.money_units()) == 0 and sum(scored.results()) == 0
    assert to_json_text(settle_family(json.dumps(data))) == to_json_text(scored)


def test_a_pot_redeal_and_its_dealer_are_kept_and_replayed(store: Store) -> None:
    # B10: an unlimited pot; every dealer's 10 goes in, an all-pass redeal's too.
    sid = store.create_session(
        ["Anton", "Brigitte", "Charlotte"],
        convention="austrian",
        overrides={"pot_mode": "unlimited", "failed_declarer_collects": True},
        whist_price="1/60",
        currency="EUR",
        first_dealer=1,
    )
    rev = store.add_deal(sid, typed(store, sid, {"type": "allpass", "dealer": 1}), seen=0).revision
    with pytest.raises(InvalidEntry) as err:
        store.add_deal(sid, typed(store, sid, {"type": "allpass", "dealer": 1}), seen=rev)
    assert "dealer: the dealer of this deal is Charlotte, by the rotation" in err.value.render("en")
    rev = store.add_deal(sid, typed(store, sid, {"type": "allpass"}), seen=rev).revision
    stored = store.load(sid)
    assert stored.scored.table.pot == 20 and stored.scored.table.dealer == 0  # type: ignore[union-attr]
    text = store.export_session(sid)
    assert json.loads(without_ids(text))["deals"] == [
        {"type": "allpass", "dealer": 1},
        {"type": "allpass"},
    ]
    assert json.loads(text)["whist_price"] == "1/60"
    assert to_json_text(settle_family(text)) == to_json_text(stored.scored)
    assert store.export_session(store.import_session(text)) == text
