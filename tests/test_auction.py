"""The auction: the ladder, a pass is final, misère only first, the raspasy exit (§1.3, KOD §3.3)."""

from __future__ import annotations

import pytest

from scorepad.play.auction import (
    ALL_BIDS,
    MISERE,
    PASS,
    Auction,
    AuctionError,
    legal_bids,
    parse_bid,
    rank,
    str_bid,
    verify_declaration,
)
from scorepad.scoring.contract import Contract


def run(*bids: str, bidders: tuple[int, ...] = (1, 2, 0), exit_level: int | None = None) -> Auction:
    a = Auction(bidders, exit_level)
    for b in bids:
        a = a.bid(parse_bid(b))
    return a


def test_the_ladder() -> None:
    names = [str_bid(b) for b in ALL_BIDS]
    assert names[:6] == ["6♠", "6♣", "6♦", "6♥", "6NT", "7♠"]
    assert names[14:17] == ["8NT", "misère", "9♠"]
    assert names[-1] == "10NT" and len(names) == 26


def test_first_bids() -> None:
    assert [str_bid(b) for b in legal_bids(Auction((1, 2, 0)))][:3] == ["pass", "6♠", "6♣"]
    assert len(legal_bids(Auction((1, 2, 0)))) == 27


def test_all_pass_is_raspasy() -> None:
    a = run("pass", "pass", "pass")
    assert a.finished and a.winner is None and a.final_bid is None


def test_a_pass_is_final_and_the_last_bidder_wins() -> None:
    a = run("6S", "pass", "7S", "pass")
    assert a.finished and a.winner == 0 and a.final_bid == Contract.parse("7S")
    a = run("pass", "pass")
    assert not a.finished and a.to_speak == 0  # the third player still speaks
    assert run("pass", "pass", "6S").winner == 0


def test_bids_must_rise() -> None:
    with pytest.raises(AuctionError, match="is not higher than 7♠"):
        run("7S", "6H")
    with pytest.raises(AuctionError, match="is not higher than 7♠"):
        run("7S", "7S")


def test_misere_only_first_and_overcalled_by_a_nine() -> None:
    a = run("misere")
    assert [str_bid(b) for b in legal_bids(a)][:2] == ["pass", "9♠"]
    with pytest.raises(AuctionError, match="first bid"):
        run("6S", "pass", "7S", "misere")
    a = run("misere", "9S", "pass")
    assert a.to_speak == 1 and legal_bids(a) == [PASS]  # a misère stays a misère
    a = a.bid(PASS)
    assert a.winner == 2 and a.final_bid == Contract.parse("9S")
    assert run("misere", "pass", "pass").final_bid == MISERE


def test_raspasy_exit_sets_the_lowest_bid() -> None:
    a = Auction((1, 2, 0), exit_level=7)
    assert [str_bid(b) for b in legal_bids(a)][:2] == ["pass", "7♠"]
    with pytest.raises(AuctionError, match="lowest bid is 7♠"):
        a.bid(parse_bid("6NT"))
    assert MISERE not in legal_bids(Auction((1, 2, 0), exit_level=9))


def test_the_auction_is_over() -> None:
    with pytest.raises(AuctionError, match="over"):
        run("pass", "pass", "pass", "6S")


def test_declaration_after_the_talon() -> None:
    verify_declaration(Contract.parse("7S"), Contract.parse("7S"))
    verify_declaration(Contract.parse("7S"), Contract.parse("8D"))
    with pytest.raises(AuctionError, match="lower than the bid"):
        verify_declaration(Contract.parse("7H"), Contract.parse("7S"))
    with pytest.raises(AuctionError, match="misère"):
        verify_declaration(MISERE, Contract.parse("9S"))
    with pytest.raises(AuctionError, match="misère"):
        verify_declaration(Contract.parse("6S"), MISERE)


def test_parse_bid_notations() -> None:
    assert parse_bid("7♠") == parse_bid("7s") == Contract.parse("7S")
    assert parse_bid("6БК") == Contract.parse("6NT")
    assert parse_bid("мизер") == MISERE and parse_bid("пас") == PASS
    assert rank(Contract.parse("8NT")) < rank(MISERE) < rank(Contract.parse("9S"))
    with pytest.raises(AuctionError):
        parse_bid("5S")
