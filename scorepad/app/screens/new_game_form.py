"""The new-game form, without any widget: the fields, their choices, each field's check in the
catalogs' sentences, and the new game it asks the session for (app/session.NewGame).

What is typed lives in ``frame/state.NewSession`` (kept between two drawings of the screen);
:class:`NewGameForm` reads and changes it.  The Flet view (screens/new_game.py) draws it; the
tests drive it directly (tests/test_new_game_form.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from babel.numbers import is_currency
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from ...core.i18n import N_, Msg, msg
from ...core.numbers import parse_price
from ...scoring.ledger.families import (
    FamilyPreset,
    anticlockwise,
    family_of,
    family_presets,
    four_players,
)
from ...scoring.pulya.convention import Preset, Settings, presets
from ...scoring.pulya.session import MAX_NAME, FieldRefused, look_alike, player_name
from ..families.settings import number_refusal, number_value
from ..frame.state import NewSession
from ..session import NewGame

_PRICE = re.compile(r"\d{1,12}([.,]\d{1,6})?|\d{1,12}/\d{1,12}")  # "1/60": A12


def name_refusal(names: list[str], i: int) -> Msg | None:
    name = names[i].strip()
    if not name:
        return msg(N_("every player needs a name"))
    if len(name) > MAX_NAME:
        return msg(N_("a name is at most {n} characters"), n=MAX_NAME)
    if any(name.casefold() == other.strip().casefold() for other in names[:i]):
        return msg(N_("this name is already at the table"))
    # What the store would refuse, said at the field as it is typed (issue 38 item 8: hidden
    # and direction-control characters were caught only at the start, as "players.2").
    try:
        player_name(name)
    except FieldRefused:
        return msg(
            N_("a name must not contain hidden or direction-control characters: type it again")
        )
    for other in names[:i]:
        if other.strip() and look_alike(other.strip()) == look_alike(name):
            return msg(
                N_("this name looks like {other}, already at the table: use one spelling"),
                other=other.strip(),
            )
    return None


def target_refusal(text: str) -> Msg | None:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d{1,9}", text) or not 1 <= int(text) <= 10_000:
        return msg(N_("the pool target must be a whole number from 1 to 10000"))
    return None


def price_of(text: str) -> str | None:
    """The whist price as the store keeps it ("0,5" → "0.5", "1/60" stays), or None when it
    is not a price."""
    text = text.strip()
    if not _PRICE.fullmatch(text):
        return None
    price = text.replace(",", ".")
    try:
        return price if parse_price(price) > 0 else None
    except ValueError:
        return None


def family_seats_four(convention: str) -> bool:
    """Whether four may sit at this preset's game, the dealer sitting out (the bula, Prefa, the
    Austrian games and Illustrated; the engine's own rule)."""
    preset = family_presets().get(convention)
    return preset is not None and four_players(preset.resolve())


def price_refusal(text: str, family: str = "pulya") -> Msg | None:
    """The price refused in the game's own words (issue 38 item 11: a bula's is of a supa)."""
    if price_of(text) is not None:
        return None
    return msg(PRICE_REFUSALS.get(family, PRICE_REFUSALS["pulya"]))


PRICE_REFUSALS = {
    "pulya": N_("the whist price must be more than zero, such as 0.5 or 1"),
    "bula": N_("the price of a supa must be more than zero, such as 0.5 or 1"),
    "kassa": N_("the price of a kassa point must be more than zero, such as 0.5 or 1"),
    "pot": N_("the price of a point must be more than zero, such as 0.5 or 1"),
    "direct": N_("the price of a point must be more than zero, such as 0.5 or 1"),
}


def currency_refusal(text: str) -> Msg | None:
    if is_currency(text.strip().upper()):
        return None
    return msg(N_("a currency is a three-letter code, such as RUB, EUR or USD"))


#: The numbers a table agrees on before a game of a ledger family, asked on this screen (the
#: rest of the preset is shown, read-only; a session file may set any of them).
FAMILY_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "bula": ((N_("Starting bula"), "start_bula"), (N_("Refe limit (empty: none)"), "refe_limit")),
    "kassa": ((N_("Kassa"), "kassa"),),
    "pot": ((N_("Ante"), "ante"),),
    "direct": (),
}
PRICE_LABELS: dict[str, str] = {
    "pulya": N_("Whist price"),
    "bula": N_("Price of a supa"),
    "kassa": N_("Price of a kassa point"),
    "pot": N_("Price of a point"),
    "direct": N_("Price of a point"),
}


def family_field(ledger: FamilyPreset, name: str) -> FieldInfo:
    return type(ledger.resolve()).model_fields[name]


def default_number(preset: FamilyPreset, name: str) -> str:
    """A family's number as its preset sets it, as the field shows it (empty: none)."""
    value = getattr(preset.resolve(), name)
    return "" if value is None else str(value)


def family_overrides(st: NewSession, ledger: FamilyPreset) -> dict[str, object]:
    """What the table changed on this screen, as overrides of the family's preset: the numbers
    typed (those refused left out: the screen says why) and the switches and choices."""
    fields = type(ledger.resolve()).model_fields
    out: dict[str, object] = {}
    for name, text in st.family_numbers.items():
        if name in fields and number_refusal(fields[name], text) is None:
            out[name] = number_value(text)
    out.update({k: v for k, v in st.overrides.items() if k in fields})
    return out


#: The text fields of the form every game has: its key (the field's testing id, and the key of
#: its refusal), the attribute of NewSession that holds it.
TEXTS = {"pool-target": "target", "whist-price": "price", "currency": "currency"}


@dataclass
class NewGameForm:
    """The form as typed so far (``st``): what each field offers and what a change does."""

    st: NewSession

    def __post_init__(self) -> None:
        if self.family != "pulya" and not family_seats_four(self.st.convention):
            self.st.players = 3  # the Swabian and American games are three-handed (§5.1, §6)

    # --- the game chosen -------------------------------------------------------------------

    @property
    def family(self) -> str:
        return family_of(self.st.convention)

    @property
    def ledger(self) -> FamilyPreset | None:
        """The chosen preset of a ledger family (bula, kassa, pot, direct); None: the pulya's."""
        return family_presets()[self.st.convention] if self.family != "pulya" else None

    @property
    def preset(self) -> Preset:
        """The pulya's preset (its settings are the form's); Sochi's under a ledger family."""
        return presets()[self.st.convention if self.ledger is None else "sochi"]

    @property
    def four_offered(self) -> bool:
        """Whether the table chooses three or four players (a three-handed game has no choice)."""
        return self.ledger is None or family_seats_four(self.st.convention)

    @property
    def clockwise(self) -> bool:
        """The game's own direction: a table seated as it says has its defenders right."""
        return not anticlockwise(self.st.convention)

    @property
    def count(self) -> int:
        return self.st.players

    @property
    def price_label(self) -> str:
        return PRICE_LABELS[self.family]

    @property
    def family_fields(self) -> tuple[tuple[str, str], ...]:
        """The family's numbers asked here: (label, setting)."""
        return FAMILY_FIELDS.get(self.family, ())

    def family_number(self, name: str) -> str:
        """A family's number as typed, else as its preset sets it."""
        assert self.ledger is not None
        return self.st.family_numbers.get(name, default_number(self.ledger, name))

    def choose_count(self, n: int) -> None:
        self.st.players = n
        self.st.dealer = min(self.st.dealer, n - 1)
        for k in range(n, 4):
            self.st.errors.pop(f"player-{k}", None)

    def choose_convention(self, convention: str) -> None:
        """Another game: its own settings from its preset (the changes to the last one go)."""
        self.st.convention = convention if convention in self.conventions() else "sochi"
        self.st.overrides.clear()
        self.st.family_numbers.clear()
        for key in [k for k in self.st.errors if k.startswith("setting-")]:
            del self.st.errors[key]
        self.__post_init__()

    @staticmethod
    def conventions() -> list[str]:
        """Every preset: the pulya's, then the other families' (Balkan bula, Prefa, pots)."""
        return [*presets(), *family_presets()]

    def choose_dealer(self, seat: object) -> None:
        """The first dealer; a client can send any value: only a seat of the table is taken."""
        if isinstance(seat, str) and seat.isdigit() and int(seat) < self.count:
            self.st.dealer = int(seat)

    def toggle_settings(self) -> None:
        self.st.show_settings = not self.st.show_settings

    # --- the players -----------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return self.st.names[: self.count]

    def seat_name(self, i: int) -> str | None:
        """A seat's name as the first dealer's choice names it: as typed (None: not yet)."""
        return self.st.names[i].strip() or None

    @property
    def may_start(self) -> bool:
        """Every seat has a name (the other checks run when Start is pressed)."""
        return all(n.strip() for n in self.names)

    def name(self, i: int, value: str) -> list[int]:
        """Seat ``i``'s name as typed; the seats whose refusal is checked again (a duplicate
        may be fixed by changing the other name).  An empty seat being typed into is not
        nagged about until it was refused once."""
        had = f"player-{i}" in self.st.errors
        self.st.names[i] = value
        checked = [
            k
            for k in range(self.count)
            if (k == i and (value.strip() or had)) or (k != i and f"player-{k}" in self.st.errors)
        ]
        for k in checked:
            self._refuse(f"player-{k}", name_refusal(self.names, k))
        return checked

    def seated(self) -> set[str]:
        return {n.strip().casefold() for n in self.names if n.strip()}

    def offered(self, roster: list[str]) -> list[bool]:
        """Which of the roster's players the form offers: those not seated yet."""
        seated = self.seated()
        return [name.casefold() not in seated for name in roster]

    def pick(self, name: str) -> None:
        """A player of the roster takes the first empty seat."""
        for i in range(self.count):
            if not self.st.names[i].strip():
                self.st.names[i] = name
                self.st.errors.pop(f"player-{i}", None)
                return

    # --- the numbers -----------------------------------------------------------------------

    def text(self, key: str) -> str:
        return str(getattr(self.st, TEXTS[key]))

    def type_text(self, key: str, text: str) -> Msg | None:
        """One of the form's text fields (``TEXTS``) as typed; its refusal, or None."""
        setattr(self.st, TEXTS[key], text)
        return self._refuse(key, self._check(key, text))

    def type_number(self, name: str, text: str) -> Msg | None:
        """A family's number (starting bula, kassa, ante, any number setting) as typed."""
        self.st.family_numbers[name] = text
        assert self.ledger is not None
        return self._refuse(
            f"setting-{name}", number_refusal(family_field(self.ledger, name), text)
        )

    def choose_setting(self, name: str, value: object) -> None:
        """A switch or a choice of the family's settings."""
        self.st.overrides[name] = value

    def _check(self, key: str, text: str) -> Msg | None:
        if key == "pool-target":
            return target_refusal(text)
        if key == "whist-price":
            return price_refusal(text, self.family)
        return currency_refusal(text)

    def _refuse(self, key: str, why: Msg | None) -> Msg | None:
        if why is None:
            self.st.errors.pop(key, None)
        else:
            self.st.errors[key] = why
        return why

    # --- what is refused, and the game asked for -------------------------------------------

    def refusal(self, key: str) -> Msg | None:
        return self.st.errors.get(key)

    def refusals(self) -> list[Msg]:
        """Every refusal, once each, a seat's with its field's name ("Player 3: …")."""
        said: list[Msg] = []
        for key, why in self.st.errors.items():
            if key.startswith("player-"):
                seat = msg(N_("Player {n}"), n=int(key.removeprefix("player-")) + 1)
                why = Msg(N_("{field}: {text}"), {"field": seat, "text": why})
            if why not in said:
                said.append(why)
        return said

    def overrides(self) -> dict[str, object]:
        return (
            dict(self.st.overrides)
            if self.ledger is None
            else family_overrides(self.st, self.ledger)
        )

    def game(self) -> NewGame | None:
        """Every field checked again; the new game, or None while a field is refused (each
        refusal kept under its field)."""
        st, ledger = self.st, self.ledger
        players = [n.strip() for n in self.names]
        for i in range(self.count):
            why = name_refusal(players, i)
            if why is not None:
                st.errors[f"player-{i}"] = why
        for key in TEXTS:
            why = self._check(key, self.text(key))
            if why is not None:
                st.errors[key] = why
        if ledger is not None:
            for _, name in FAMILY_FIELDS[self.family]:
                why = number_refusal(family_field(ledger, name), self.family_number(name))
                if why is not None:  # an untouched field holds the preset's number
                    st.errors[f"setting-{name}"] = why
            for name, text in st.family_numbers.items():
                why = number_refusal(family_field(ledger, name), text)
                if why is not None:
                    st.errors[f"setting-{name}"] = why
        if not st.errors:
            try:
                if ledger is not None:
                    ledger.resolve(family_overrides(st, ledger))
                else:
                    Settings.model_validate({**self.preset.settings.model_dump(), **st.overrides})
            except ValidationError:
                st.errors["settings"] = msg(N_("these settings do not go together"))
        if st.errors:
            return None
        return NewGame(
            players=tuple(players),
            convention=st.convention,
            overrides=self.overrides(),
            pool_target=int(st.target.strip()),
            first_dealer=st.dealer,
            whist_price=price_of(st.price) or "",
            currency=st.currency.strip().upper(),
        )
