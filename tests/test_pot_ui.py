"""The pot and direct families' entry and sheet on a real Flet Page (no browser), through the real
shell and store: taps write deals, the preview and sheet show the engine's words and figures,
editing, a stale write rebased, both languages."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from support.family_app import in_order
from support.flet_fakes import by_id, fire, make_page, texts, type_into

from conftest import typed
from scorepad.app.frame import nav
from scorepad.app.frame.screens import sessions_screen
from scorepad.app.frame.shell import Shell
from scorepad.app.pot.form import PotForm
from scorepad.store import Store

NAMES = ["Anton", "Brigitte", "Charlotte"]


def open_session(
    store: Store, convention: str, *, lang: str = "en", width: int = 360
) -> tuple[Shell, Any, int]:
    page, session, _conn = make_page(width, 740)
    shell = Shell(page, store, lang, threading.RLock())
    shell.show(sessions_screen)
    sid = store.create_session(NAMES, convention=convention)
    shell.sid = sid
    shell.go("entry")
    return shell, session, sid


async def tap(shell: Shell, session: Any, *idents: str) -> None:
    for ident in idents:
        await fire(session, by_id(shell.page, ident))


def preview(shell: Shell) -> list[str]:
    out, k = [], 0
    while True:
        try:
            out.append(by_id(shell.page, f"preview-{k}").value)
        except AssertionError:
            return out
        k += 1


async def test_a_modern_deal_tapped_in_is_written_and_shown_on_the_sheet(store: Store) -> None:
    shell, session, sid = open_session(store, "austrian")
    assert by_id(shell.page, "deal-header").value == "Deal 1: Anton deals."
    assert by_id(shell.page, "entry-pot").value == "In the pot: 150"
    assert by_id(shell.page, "confirm-deal").disabled  # nothing chosen yet
    assert "choose the declarer" in texts(shell.page)
    await tap(shell, session, "declarer-0", "suit-D", "tricks-0-7", "tricks-1-2")
    assert by_id(shell.page, "tricks-2").value == "1"  # the rest
    assert preview(shell) == [
        "Anton: diamonds, 7 tricks",
        "Anton takes 10 from the pot",
        "Anton pays Brigitte 2 for tricks",
        "Anton pays Charlotte 1 for tricks",
        "Charlotte defended short: pays 10 into the pot",
    ]
    await tap(shell, session, "confirm-deal")
    assert by_id(shell.page, "deal-header").value == "Deal 2: Brigitte deals."
    stored = store.load(sid)
    assert stored.session.deals[0].model_dump(mode="json", exclude_defaults=True) == {
        "type": "game",
        "declarer": 0,
        "suit": "D",
        "defence": {"1": "play", "2": "play"},
        "tricks": {"0": 7, "1": 2, "2": 1},
    }
    shell.go("sheet")
    assert by_id(shell.page, "sheet-pot").value == "In the pot: 150"
    assert [by_id(shell.page, f"cash-{p}").value for p in range(3)] == ["−43", "−48", "−59"]
    assert [by_id(shell.page, f"standing-{p}").value for p in range(3)] == ["7", "2", "−9"]
    assert by_id(shell.page, "deal-1-cash-2").value == "−9 → −59"
    assert by_id(shell.page, "deal-1-pot").value == "0 → 150"
    assert by_id(shell.page, "standing-rule").value == (
        "Standing: the cash and an equal share of the pot, 50 each."
    )
    assert "1. Anton: diamonds, 7 tricks" in texts(shell.page)
    assert "everyone antes 50" in texts(shell.page)
    shell.go("history")
    assert "Deal 1 · Anton: diamonds, 7 tricks" in texts(shell.page)


async def test_a_refused_choice_is_never_offered(store: Store) -> None:
    shell, session, _sid = open_session(store, "austrian-1829")
    await tap(shell, session, "declarer-1", "suit-H", "defender-2")
    by_id(shell.page, "role-2-drop")  # his calls, shown by a tap on what he said
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "role-2-invite")  # 1829 has no invitation
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "premium-four_aces")
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "kind-bete")  # the trump chosen folds the kinds away
    await tap(shell, session, "contract-chosen", "kind-bete")  # the trump's cell: back to them
    assert preview(shell) == [
        "Anton: Bete",
        "Anton declines the talon: Bete of 10 into the pot",
    ]


def label(shell: Shell, ident: str) -> str:
    """A cell's label (drawn in coloured pieces)."""
    return "".join(sp.text or "" for sp in by_id(shell.page, ident).content.spans or [])


async def test_the_defenders_said_in_one_row_a_tap_shows_his_calls(store: Store) -> None:
    """Each defender plays unless he says otherwise: what each said, side by side in one row (a
    phone is short); a tap on one shows his calls, and the call chosen folds them again."""
    shell, session, sid = open_session(store, "austrian")
    await tap(shell, session, "declarer-1", "suit-S")
    assert [label(shell, f"defender-{s}") for s in (2, 0)] == ["Charlotte: plays", "Anton: plays"]
    for s in (0, 2):
        with pytest.raises(AssertionError, match="got 0"):
            by_id(shell.page, f"role-{s}-drop")
    await tap(shell, session, "defender-0")
    by_id(shell.page, "role-0-invite")
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "defender-0")  # his row instead of his cell
    await tap(shell, session, "role-0-drop")
    assert label(shell, "defender-0") == "Anton: drops"
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "role-0-play")
    await tap(shell, session, "tricks-1-6", "confirm-deal")
    deal = store.load(sid).session.deals[0]
    assert deal.model_dump(mode="json", exclude_defaults=True)["defence"] == {
        "2": "play",
        "0": "drop",
    }


async def test_an_invitation_and_a_premium(store: Store) -> None:
    shell, session, sid = open_session(store, "austrian")
    await tap(shell, session, "declarer-2", "suit-C", "defender-0", "role-0-invite")
    assert by_id(shell.page, "role-1-invited").value == "invited: plays along, cannot refuse"
    await tap(shell, session, "premium-no_aces", "tricks-2-6", "tricks-0-3")
    assert by_id(shell.page, "tricks-1").value == "1"
    assert preview(shell) == [
        "Charlotte: clubs, 6 tricks",
        "Charlotte takes 10 from the pot",
        "Charlotte pays Anton 4 for tricks",
        "Anton pays Charlotte 10: no ace",
        "Brigitte pays Charlotte 10: no ace",
    ]
    await tap(shell, session, "confirm-deal")
    assert store.load(sid).scored.table.cash == [-50 + 4 - 10, -50 - 10, -50 + 10 - 4 + 20]  # type: ignore[union-attr]


async def test_editing_a_deal_needs_a_reason_and_returns_to_the_history(store: Store) -> None:
    shell, session, sid = open_session(store, "austrian")
    stored = store.load(sid)
    for deal in (
        {"type": "game", "declarer": 0, "suit": "S", "defence": {"1": "drop", "2": "drop"}},
        {"type": "concede", "declarer": 1, "defence": {"2": "play", "0": "play"}},
    ):
        stored = store.add_deal(sid, typed(store, sid, deal), seen=stored.revision)
    shell.edit_form(stored.journal.live[0].deal_id, 0)
    shell.show(nav.screen("entry"))
    assert by_id(shell.page, "editing").value == (
        "Editing deal 1: the later deals are checked again."
    )
    assert by_id(shell.page, "deal-header").value == "Deal 1: Anton deals."
    await tap(shell, session, "defender-2", "role-2-play")
    assert by_id(shell.page, "confirm-deal").disabled  # no reason yet, no count
    await type_into(session, by_id(shell.page, "edit-reason"), "Charlotte played")
    # Charlotte now plays: the counts are tapped again, none taken for granted (issue #21).
    assert by_id(shell.page, "confirm-deal").disabled
    assert "Anton: how many tricks?" in texts(shell.page)
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 2)] == ["—", "—"]
    await tap(shell, session, "tricks-0-8")
    assert by_id(shell.page, "tricks-2").value == "2"  # the rest
    await type_into(session, by_id(shell.page, "edit-reason"), "Charlotte played")
    assert not by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    after = store.load(sid)
    assert after.session.deals[0].model_dump(mode="json", exclude_defaults=True) == {
        "type": "game",
        "declarer": 0,
        "suit": "S",
        "defence": {"1": "drop", "2": "play"},
        "tricks": {"0": 8, "2": 2},
    }
    assert len(after.session.deals) == 2
    assert shell.screen is nav.screen("history")


async def test_a_stale_write_is_refused_and_the_choices_carried(store: Store) -> None:
    shell, session, sid = open_session(store, "illustrated")
    await tap(
        shell, session, "kind-nonsuit", "declarer-1", "contract-bettel", "contra-2", "tricks-1-0"
    )
    other = store.load(sid)  # another device writes first
    conceded = {"type": "concede", "declarer": 0, "defence": {"1": "play", "2": "play"}}
    store.add_deal(sid, typed(store, sid, conceded), seen=other.revision)
    await tap(shell, session, "confirm-deal")
    assert len(store.load(sid).session.deals) == 1  # nothing written over it
    f = shell.form
    assert isinstance(f, PotForm)
    assert len(f.scored.deals) == 1  # rebased on the newer state
    assert (f.kind, f.declarer, f.contract, f.contra) == ("nonsuit", 1, "bettel", {2: True})
    assert f.tricks == {1: 0}  # the count tapped is carried too
    # shown the deal written first beside this entry; writing it next is a choice of its own
    await tap(shell, session, "conflict-write-next")
    await tap(shell, session, "confirm-deal")
    assert len(store.load(sid).session.deals) == 2


async def test_russian_entry_and_sheet(store: Store) -> None:
    shell, session, _sid = open_session(store, "swabian", lang="ru")
    assert by_id(shell.page, "deal-header").value == "Сдача 1: сдаёт Anton."
    await tap(shell, session, "declarer-1", "bid-5", "tricks-1-4")
    assert preview(shell)[0] == "Brigitte: жёлуди, 4 взятки"
    await tap(shell, session, "confirm-deal")
    shell.go("sheet")
    assert [by_id(shell.page, f"cash-{p}").value for p in range(3)] == ["7", "−14", "7"]
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "sheet-pot")  # the direct family has no pot
    assert "1. Brigitte: жёлуди, 4 взятки" in texts(shell.page)


async def test_american_second_round_chips(store: Store) -> None:
    shell, session, sid = open_session(store, "american", width=1280)
    await tap(shell, session, "declarer-0", "suit-H", "chips-1-more", "chips-1-more")
    assert by_id(shell.page, "chips-1").value == "2"
    await tap(shell, session, "chips-1-less", "tricks-0-7", "confirm-deal")
    deal = store.load(sid).session.deals[0]
    assert deal.model_dump(mode="json", exclude_defaults=True) == {
        "type": "game",
        "declarer": 0,
        "suit": "H",
        "tricks": {"0": 7},
        "second_round": {"1": 1},
    }


@pytest.mark.parametrize(
    ("lang", "label", "header"),
    [
        ("en", "All pass, redeal", "Deal 2: Brigitte deals."),
        ("de", "Alle passen, neu geben", "Runde 2: Brigitte gibt."),
        ("ru", "Все пас, пересдача", "Сдача 2: сдаёт Brigitte."),
    ],
)
async def test_an_all_pass_redeal_is_named_so_and_passes_the_deal_on(
    store: Store, lang: str, label: str, header: str
) -> None:
    # B-Q7 (pagat: all pass → redeal by the next dealer): not the pulya's raspasy, whose words
    # («Распасы», a deal played) the button once borrowed; one tap writes it and the next
    # player deals.
    shell, session, sid = open_session(store, "austrian", lang=lang)
    assert in_order(by_id(shell.page, "kind-allpass")) == [label]
    await tap(shell, session, "kind-allpass", "confirm-deal")
    assert by_id(shell.page, "deal-header").value == header
    assert store.export_session(sid).count('"type": "allpass"') == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "4 is not possible: Anton has 7"), ("ru", "4 не получится: Anton — уже 7")],
)
async def test_a_count_that_cannot_be_says_why_when_tapped(
    store: Store, lang: str, said: str
) -> None:
    """A greyed count still answers a tap, with the pulya's sentence in the player's language,
    and changes nothing; raising the declarer's count lowers the last seat's (issue #27)."""
    from support.flet_fakes import find

    shell, session, _sid = open_session(store, "austrian", lang=lang)
    await tap(shell, session, "declarer-0", "suit-D")
    # No count starts chosen (issue #21): each is tapped, the last one filled in after them.
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["—", "—", "—"]
    await tap(shell, session, "tricks-0-7")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["7", "—", "—"]
    assert by_id(shell.page, "tricks-1-4").disabled is not True  # greyed, still tappable
    await tap(shell, session, "tricks-1-4")
    message = by_id(shell.page, "message")
    assert message.content.value == said
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["7", "—", "—"]
    await tap(shell, session, "tricks-1-2")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["7", "2", "1"]
    await tap(shell, session, "tricks-0-8")  # one more for Anton: the last seat gives way
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["8", "2", "0"]
    await tap(shell, session, "tricks-0-7")
    await tap(shell, session, "tricks-1-3")
    assert find(shell.page, lambda c: getattr(c, "identifier", None) == "message") == []
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["7", "3", "0"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Anton: how many tricks?"), ("ru", "Anton: сколько взяток?")],
)
async def test_a_deal_with_a_count_nobody_tapped_is_not_written(
    store: Store, lang: str, said: str
) -> None:
    """Issue #21: Write stays disabled until every count is tapped, and a tap reaching the
    handler anyway (forged, or racing the redraw) is refused with the sentence, nothing written."""
    shell, session, sid = open_session(store, "austrian", lang=lang)
    await tap(shell, session, "declarer-0", "suit-D")
    assert by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")  # the handler asks the form again
    assert by_id(shell.page, "message").content.value == said
    assert store.load(sid).session.deals == []
    await tap(shell, session, "tricks-0-6")  # Brigitte's count is still to choose
    assert by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    assert by_id(shell.page, "message").content.value == said.replace("Anton", "Brigitte")
    assert store.load(sid).session.deals == []
    await tap(shell, session, "tricks-1-3")
    assert not by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    written = store.load(sid).session.deals
    assert [d.model_dump(mode="json")["tricks"] for d in written] == [{"0": 6, "1": 3, "2": 1}]


async def test_a_bettel_count_is_tapped_before_it_is_written(store: Store) -> None:
    shell, session, sid = open_session(store, "illustrated")
    await tap(shell, session, "kind-nonsuit", "declarer-1", "contract-bettel")
    assert by_id(shell.page, "tricks-1").value == "—"
    assert by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    assert by_id(shell.page, "message").content.value == "Brigitte: how many tricks?"
    assert store.load(sid).session.deals == []
    await tap(shell, session, "tricks-1-0", "confirm-deal")
    written = store.load(sid).session.deals
    assert [
        (d.model_dump(mode="json")["type"], d.model_dump(mode="json")["tricks"]) for d in written
    ] == [("nonsuit", 0)]
