"""Cards: the pack, the notations, hands and layouts."""

from __future__ import annotations

import pytest

from scorepad.play.cards import ALL_CARDS, Card, CardError, Hand, check_layout


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("A♠", "A♠"),
        ("10♥", "10♥"),
        ("AS", "A♠"),
        ("TH", "10♥"),
        ("th", "10♥"),
        ("Т♠", "A♠"),
        ("К♦", "K♦"),
        ("Д♣", "Q♣"),
        ("В♥", "J♥"),
        ("ТТ", "A♣"),
        ("7Ч", "7♥"),
        ("ДП", "Q♠"),
        ("9Б", "9♦"),
    ],
)
def test_notations(text: str, card: str) -> None:
    assert str(Card.parse(text)) == card


@pytest.mark.parametrize("text", ["1S", "6♠", "XS", "A", "", "11♥", "A♠♠"])
def test_not_cards(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_the_pack_is_32_cards_each_printed_three_ways() -> None:
    assert (
        len({str(c) for c in ALL_CARDS})
        == len({c.code for c in ALL_CARDS})
        == len({c.ru() for c in ALL_CARDS})
        == 32
    )
    for c in ALL_CARDS:
        assert Card.parse(str(c)) == Card.parse(c.code) == Card.parse(c.ru()) == c


def test_hands_grouped_or_card_by_card() -> None:
    grouped = Hand.parse("♠AK ♥AKQ10 ♦A ♣QJ10")
    assert (
        grouped
        == Hand.parse("A♠ K♠ A♥ K♥ Q♥ 10♥ A♦ Q♣ J♣ 10♣")
        == Hand.parse("AS KS AH KH QH TH AD QC JC TC")
    )
    assert len(grouped) == 10 and Card.parse("Q♥") in grouped and Card.parse("J♥") not in grouped
    assert str(grouped) == "♠AK ♣QJ10 ♦A ♥AKQ10"
    with pytest.raises(CardError, match="written twice"):
        Hand.parse("A♠ AS")


def test_layout_rules() -> None:
    names = ["Anna", "Boris", "Vera"]
    a = Hand.parse("♠AKQJ1098 ♣AK ♥9")
    b = Hand.parse("♠7 ♣QJ1098 ♦AKQJ")
    c = Hand.parse("♣7 ♦10987 ♥AKQJ10")
    talon = Hand.parse("8♥ 7♥")
    assert check_layout({0: a, 1: b, 2: c}, talon, names) == []
    problems = check_layout({0: a, 1: b, 2: Hand.parse("♣7 ♦10987 ♥AKQJ")}, talon, names)
    assert [p.render() for p in problems] == ["Vera has 9 cards, must have 10"]
    clash = check_layout({0: a, 1: b, 2: Hand.parse("♠A ♦10987 ♥AKQJ10")}, talon, names)
    assert [p.render() for p in clash] == ["A♠ is in both Anna's and Vera's hand"]
    assert [p.render() for p in check_layout({0: a, 1: b, 2: c}, Hand.parse("8♥"), names)] == [
        "the talon has 1 cards, must have 2"
    ]
