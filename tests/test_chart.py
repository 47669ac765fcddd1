"""The chart's deal axis: labels never closer than a two-digit number needs, at any width."""

from __future__ import annotations

from itertools import pairwise

import pytest

from scorepad.app.screens.chart import axis_labels, deal_label_step

GAP = 28  # px: "13" and "14" at 12 px take about 16 px each; half of each plus a space


@pytest.mark.parametrize("width", [300, 336, 600, 900])
def test_deal_labels_stay_apart(width: int) -> None:
    left = 52  # the value axis
    plot = width - left
    for deals in range(2, 121):
        every = deal_label_step(deals, plot)
        values = [label.value for label in axis_labels(deals, every)]
        assert values, (deals, width)
        x = [(v - 1) / (deals - 1) * plot for v in values]
        gaps = [b - a for a, b in pairwise(x)]
        assert all(g >= GAP for g in gaps), (deals, width, values)
        assert max(values) > deals - 2 * every  # the labels reach the last deals


def test_fourteen_deals_on_a_phone() -> None:
    every = deal_label_step(14, 336 - 52)
    assert [label.value for label in axis_labels(14, every)] == [2, 4, 6, 8, 10, 12, 14]
