"""Whist call sequences per convention and contract (§4.3-4.5, §11, §12)."""

from __future__ import annotations

import pytest

from scorepad.scoring.contract import Contract
from scorepad.scoring.pulya.convention import Settings, settings_for
from scorepad.scoring.pulya.legal import WhistError, legal_sequences, whisting
from scorepad.scoring.pulya.whist import Kind, Whisting

SOCHI = settings_for("sochi")


def calls(said: list[str], contract: str, s: Settings = SOCHI) -> Whisting:
    """The outcome of ``said`` by the defenders 1 and 2 of a 3-player table."""
    return whisting(said, Contract.parse(contract), first=1, second=2, dealer=None, settings=s)


def seqs(level: int, dealer: int | None = None, **overrides: object) -> set[tuple[str, ...]]:
    s = settings_for("sochi", dict(overrides)) if overrides else SOCHI
    return set(legal_sequences(level, 1, 2, dealer=dealer, settings=s))


def test_three_players_six_and_seven() -> None:
    expected = {
        ("whist", "whist"),
        ("whist",),
        ("pass", "whist"),
        (),
        ("pass", "half"),
        ("pass", "half", "whist"),
    }
    assert seqs(6) == seqs(7) == expected


def test_three_players_eight_and_up_have_no_half() -> None:
    assert seqs(8) == seqs(9) == {("whist", "whist"), ("whist",), ("pass", "whist"), ()}


def test_four_players_dealer_may_return_or_whist_on_eight() -> None:
    assert ("pass", "half", "pass", "whist") in seqs(6, dealer=0)
    assert ("pass", "pass", "whist") in seqs(8, dealer=0)
    assert ("pass", "pass", "whist") not in seqs(7, dealer=0)
    assert ("pass", "pass", "whist") not in seqs(8, dealer=0, dealer_whist=False)


def test_pass_pass_whist_three_players_by_agreement() -> None:
    assert ("pass", "pass", "whist") not in seqs(8)
    w = calls(["pass", "pass", "whist"], "8S", settings_for("sochi", {"pass_pass_whist": True}))
    assert (w.kind, w.whisters, w.passers) == (Kind.ONE, (1,), (2,))


def test_long_half_whist() -> None:
    assert ("whist", "pass", "half") in seqs(6, long_half_whist=True)
    assert ("whist", "pass", "half") not in seqs(6)


def test_stalingrad_six_spades_needs_both() -> None:
    s = settings_for("sochi", {"stalingrad": True})
    with pytest.raises(WhistError, match="Stalingrad"):
        calls(["whist"], "6S", s)
    assert calls(["whist"], "6C", s).kind is Kind.ONE
    assert calls(["whist", "whist"], "6S", s).kind is Kind.TWO


def test_roles() -> None:
    w = calls(["pass", "half", "whist"], "7D")
    assert (w.kind, w.whisters, w.half_whister) == (Kind.RETURNED, (1,), 2)
    w = calls([], "9H")
    assert (w.kind, w.played) == (Kind.ALL_PASSED, False)


def test_illegal_sequence_names_the_legal_ones() -> None:
    with pytest.raises(WhistError) as exc:
        calls(["whist", "half"], "6S")
    assert "is not a legal call sequence on a 6-game" in str(exc.value)
