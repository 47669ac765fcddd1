"""Issue #37, item 11: the card grid marks each hand and the talon distinctly ("Ta" was both
Tanya and the talon)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorepad.app.dispute.screen import short_marks


def test_tanya_and_the_talon_have_their_own_marks() -> None:
    assert short_marks(["Anna", "Tanya", "Boris", "Talon"]) == ["An", "Tan", "Bo", "Tal"]
    assert short_marks(["Таня", "Тамара", "Прикуп"]) == ["Тан", "Там", "Пр"]
    # Names alike to the third letter are told apart by a digit.
    assert short_marks(["Tanya", "Tanja", "Talon"]) == ["Ta1", "Ta2", "Tal"]


@given(
    st.lists(st.text(alphabet="abcT", min_size=1, max_size=5), min_size=2, max_size=5, unique=True)
)
def test_every_mark_is_short_and_the_distinct_names_marks_differ(names: list[str]) -> None:
    marks = short_marks(names)
    assert all(1 <= len(m) <= 3 for m in marks)
    assert len(set(marks)) == len(marks)
