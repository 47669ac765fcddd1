"""What a tab of the app remembers between two drawings, typed (the store holds everything else)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...core.i18n import Msg

SheetView = Literal["drawing", "table"]


@dataclass
class NewSession:
    """The new-pulka form as typed so far: text exactly as entered, checked when it changes."""

    players: int = 3
    names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    dealer: int = 0
    convention: str = "sochi"
    target: str = "20"
    price: str = "1.00"
    currency: str = "RUB"
    # Settings changed from the preset, by name, as the form's widgets hold them.
    overrides: dict[str, object] = field(default_factory=dict)
    # A ledger family's numbers as typed (starting bula, refe limit, kassa, ante), by setting.
    family_numbers: dict[str, str] = field(default_factory=dict)
    show_settings: bool = False
    errors: dict[str, Msg] = field(default_factory=dict)  # field → why it is refused


#: A new game's price and currency as each language's table would have them (issue 38 item 12):
#: the decimal comma where the language writes one, the Serbian dinar, the euro in German and
#: Greek; the rouble otherwise, as before.
MONEY_DEFAULTS = {
    "ru": ("1,00", "RUB"),
    "de": ("1,00", "EUR"),
    "sr_Latn": ("1,00", "RSD"),
    "sr_Cyrl": ("1,00", "RSD"),
    "el": ("1,00", "EUR"),
}


def new_session_for(lang: str) -> NewSession:
    """The new-game form with the price and currency of ``lang``'s tables."""
    price, currency = MONEY_DEFAULTS.get(lang, ("1.00", "RUB"))
    return NewSession(price=price, currency=currency)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Another device wrote deal ``number`` first: its words and this page's entry, side by side."""

    sid: int
    number: int
    theirs: tuple[str, ...]
    mine: tuple[str, ...]
    same: bool


@dataclass
class AppState:
    new_session: NewSession | None = None
    edit_reason: str = ""
    sheet_view: SheetView = "drawing"
    # Pulkas (by id) whose players chose to go on after every pool closed, in this tab.
    playing_on: set[int] = field(default_factory=set)
    # The shared table (table.py, live.py): the screen to return to once the PIN is given, and
    # the note on screen about a write another device made first.
    after_pin: object | None = None
    history_shown: dict[int, int] = field(default_factory=dict)  # pulka → entries shown
    player: str | None = None  # the Players screen's chosen player
    player_family: str | None = None  # … and the family whose record it shows
    player_season: int | None = None  # … and the season (its period and group), or every evening
    night: int | None = None  # the club night the director's screens show (app/club)
    seats: dict[int, int] = field(default_factory=dict)  # club table → this phone's number
    live_notice: object | None = None
    dispute: object | None = None  # the deal being checked by its cards (app/dispute)
    # A write refused because another device wrote the deal first, until the player chose what
    # to do with his entry (frame/writing.py).
    conflict: Conflict | None = None
    # The first dealer chosen for the next pulka at a shared table (screens/next_pulka.py).
    next_dealer: int | None = None
