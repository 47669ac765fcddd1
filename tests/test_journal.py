"""The journal: actions add up to the current deals; undo and redo as in an editor."""

from __future__ import annotations

import pytest

from scorepad.scoring.pulya.session import Raspasy
from scorepad.store.journal import Action, JournalError, deal_numbers, replay_journal

T = "2026-11-29T20:00:00.000+00:00"


def deal(n: int) -> Raspasy:
    return Raspasy.model_validate({"type": "raspasy", "tricks": {"0": n, "1": 0, "2": 10 - n}})


def test_add_edit_void_keep_every_revision() -> None:
    j = replay_journal(
        [
            Action(1, "add", T, deal=deal(1)),
            Action(2, "add", T, deal=deal(2)),
            Action(3, "edit", T, 1, deal(3), "typo"),
            Action(4, "void", T, 2, reason="misdeal"),
        ]
    )
    assert j.deals == [deal(3)]
    assert [a.seq for a in j.entries[1].revisions] == [1, 3]
    assert j.entries[2].voided and [a.kind for a in j.entries[2].revisions] == ["add", "void"]
    assert j.revision == 4 and j.index_of(1) == 0


def test_undo_redo_and_a_new_action_forgets_redo() -> None:
    actions = [
        Action(1, "add", T, deal=deal(1)),
        Action(2, "add", T, deal=deal(2)),
        Action(3, "undo", T, target=2),
        Action(4, "undo", T, target=1),
    ]
    j = replay_journal(actions)
    assert j.deals == [] and j.can_redo() and not j.can_undo()
    j.apply(Action(5, "redo", T, target=1))
    assert j.deals == [deal(1)]
    j.apply(Action(6, "add", T, deal=deal(5)))
    assert j.deals == [deal(1), deal(5)] and not j.can_redo()


def test_undo_of_an_edit_restores_the_previous_revision() -> None:
    j = replay_journal(
        [
            Action(1, "add", T, deal=deal(1)),
            Action(2, "edit", T, 1, deal(4), "x"),
            Action(3, "undo", T, target=2),
        ]
    )
    assert j.deals == [deal(1)]


def test_refusals() -> None:
    j = replay_journal([Action(1, "add", T, deal=deal(1)), Action(2, "void", T, 1, reason="x")])
    with pytest.raises(JournalError, match="deal #1 is voided"):
        j.apply(Action(3, "edit", T, 1, deal(2), "y"))
    with pytest.raises(JournalError, match="there is no deal #7"):
        j.apply(Action(3, "void", T, 7, reason="y"))
    with pytest.raises(JournalError, match="out of order"):
        j.apply(Action(9, "add", T, deal=deal(1)))
    empty = replay_journal([])
    with pytest.raises(JournalError, match="nothing to undo"):
        empty.next_undo()
    with pytest.raises(JournalError, match="nothing to redo"):
        empty.next_redo()


def test_a_voided_deal_is_restored_in_its_place_and_the_restore_can_be_undone() -> None:
    actions = [
        Action(1, "add", T, deal=deal(1)),
        Action(2, "add", T, deal=deal(2)),
        Action(3, "add", T, deal=deal(3)),
        Action(4, "void", T, 2, reason="misdeal"),
        Action(5, "restore", T, 2),
    ]
    j = replay_journal(actions)
    assert j.deals == [deal(1), deal(2), deal(3)]  # back between 1 and 3, not at the end
    assert [a.kind for a in j.entries[2].revisions] == ["add", "void", "restore"]
    j.apply(Action(6, "undo", T, target=5))
    assert j.deals == [deal(1), deal(3)] and j.entries[2].voided
    with pytest.raises(JournalError, match="deal #1 is not voided"):
        j.apply(Action(7, "restore", T, 1))
    assert j.revision == 6  # the refused restore changed nothing


def test_deal_numbers_are_the_ones_the_player_saw() -> None:
    actions = [
        Action(1, "add", T, deal=deal(1)),
        Action(2, "add", T, deal=deal(2)),
        Action(3, "add", T, deal=deal(3)),
        Action(4, "void", T, 1, reason="misdeal"),  # deal 1 on screen
        Action(5, "edit", T, 3, deal(4), "typo"),  # still deal 3: a void renumbers nothing
        Action(6, "restore", T, 1),  # deal 1 again
        Action(7, "undo", T, target=6),
    ]
    assert deal_numbers(actions) == {1: 1, 2: 2, 3: 3, 4: 1, 5: 3, 6: 1}
