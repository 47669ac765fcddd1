# The compiled double-dummy search (_dds.c): the same questions as dds.PythonSearch.

from typing import Any

class Search:
    def __init__(
        self,
        trump: int,
        overtake: bool,
        decl: int,
        more: bool,
        first: int,
        talon: tuple[int, ...],
        owned: bool,
        total: int,
    ) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def positions(self) -> int: ...
    def node(
        self, h0: int, h1: int, h2: int, leader: int, extra: int, alpha: int, beta: int, /
    ) -> int: ...
    def trick_from(
        self,
        h0: int,
        h1: int,
        h2: int,
        leader: int,
        played: list[tuple[int, int]],
        extra: int,
        j: int,
        /,
    ) -> int: ...

def play_tricks(
    hands: list[int],
    order: tuple[int, ...],
    trump: int,
    overtake: bool,
    first: int,
    leader: int,
    talon: tuple[int, ...],
    owner: int,
    done: int,
    tricks: list[list[int]],
    pairs: tuple[tuple[int, int], ...],
    /,
) -> tuple[list[int], list[list[tuple[int, int]]], list[int], int] | None: ...
def trick_cards(texts: list[str], index: dict[str, int], /) -> list[list[int]] | None: ...
def hand_mask(text: str, masks: dict[str, tuple[int, int]], /) -> int | None: ...
def accounts(
    cls: type[tuple[object, ...]],
    played: list[list[tuple[int, int]]],
    start: int,
    winners: list[int],
    pairs: tuple[tuple[int, object], ...],
    talon: tuple[object, ...],
    /,
) -> list[Any]: ...
