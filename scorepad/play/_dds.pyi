# The compiled double-dummy search (_dds.c): the same questions as dds.PythonSearch.

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
