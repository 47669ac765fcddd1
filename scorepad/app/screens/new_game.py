"""A new pulka: players in seating order, the first dealer, the convention and every setting as
a form (then frozen, as on paper), pool target, whist price, currency.

Each field is checked as it is typed: a refusal is a sentence in the screen's language under its
field, and goes away once the field is fixed.  "Start" checks every field again and writes
nothing while one is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import flet as ft
from babel.numbers import is_currency
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from ...i18n import N_, Msg, msg
from ...numbers import parse_price
from ...scoring.ledger.families import (
    FamilyPreset,
    anticlockwise,
    family_of,
    family_presets,
    four_players,
)
from ...scoring.pulya.convention import Settings, presets
from ...scoring.pulya.session import MAX_NAME, FieldRefused, look_alike, player_name
from ..families.settings import (
    VALUE_LABELS,
    choices,
    kind_of,
    number_refusal,
    number_value,
    read_by,
    shown_value,
)
from ..frame.shell import Shell
from ..frame.state import NewSession, new_session_for
from ..frame.theme import choice, heading, primary, quiet, sem
from .settings import SettingsForm
from .table import locked_screen

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


def convention_choice(
    shell: Shell, value: str, on_select: Callable[[ft.Event[ft.Dropdown]], None]
) -> ft.Dropdown:
    """Every preset: the pulya's, then the other families' (Balkan bula, Prefa, the pot games)."""
    options = [ft.DropdownOption(key=p.id, text=p.name_in(shell.lang)) for p in presets().values()]
    options += [
        ft.DropdownOption(key=p.id, text=p.name_in(shell.lang)) for p in family_presets().values()
    ]
    return ft.Dropdown(
        label=shell.t(N_("Convention")),
        value=value,
        width=280,
        options=options,
        on_select=on_select,
    )


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


def new_session_screen(shell: Shell) -> ft.Control:
    if not shell.access.may_create:  # a viewer or a joined phone: not the host's sessions
        return locked_screen(shell)
    st = shell.state.new_session
    if st is None:
        st = shell.state.new_session = new_session_for(shell.lang)
    with shell.lock:
        # The roster is the host's: on the hosted server nobody is shown another's players.
        roster = shell.store.players() if shell.access.host else []
    if family_of(st.convention) != "pulya" and not family_seats_four(st.convention):
        st.players = 3  # the Swabian and American games are three-handed (§5.1, §6)
    count = st.players
    names = st.names

    # Enabled once every seat has a name (the checks run when it is pressed).
    start = primary(
        shell.t(N_("Start the game")),
        None,
        disabled=not all(n.strip() for n in names[:count]),
    )
    banner_text = ft.Text(color=ft.Colors.ON_ERROR_CONTAINER)
    banner = ft.Semantics(
        identifier="message",
        live_region=True,
        exclude_semantics=True,  # the label is the text: read once
        content=ft.Container(
            banner_text, bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=12
        ),
    )

    def sync() -> None:
        """The banner lists what is refused (read out by a screen reader), and goes when all
        is fixed."""
        refusals = list(dict.fromkeys(said(key, m) for key, m in st.errors.items()))
        banner_text.value = "\n".join(refusals)
        banner.label = banner_text.value
        banner.visible = bool(refusals)

    def said(key: str, why: Msg) -> str:
        """A refusal in the banner, a seat's with its field's name ("Player 3: …")."""
        if key.startswith("player-"):
            seat = msg(N_("Player {n}"), n=int(key.removeprefix("player-")) + 1)
            return shell.render(Msg(N_("{field}: {text}"), {"field": seat, "text": why}))
        return shell.render(why)

    def refused(key: str, control: ft.TextField, why: Msg | None) -> None:
        """Show (or take away) the refusal under a field; only the field changes while typing,
        because a redraw would take the focus away from it."""
        if why is None:
            st.errors.pop(key, None)
            control.error = None
        else:
            st.errors[key] = why
            control.error = shell.render(why)

    def error_text(key: str) -> str | None:
        why = st.errors.get(key)
        return shell.render(why) if why else None

    roster_buttons: dict[str, ft.Control] = {}
    roster_list = ft.Column(spacing=6)
    roster_section = sem("roster-section", roster_list)  # hidden as a whole when empty

    def update_roster() -> None:
        seated = {n.strip().casefold() for n in names[:count] if n.strip()}
        for name, button in roster_buttons.items():
            button.visible = name.casefold() not in seated
        # No heading over an empty roster.
        roster_section.visible = any(b.visible for b in roster_buttons.values())

    fields: list[ft.TextField] = []

    def named(i: int, value: str) -> None:
        had = f"player-{i}" in st.errors
        names[i] = value
        for k in range(count):
            # A duplicate may be fixed by changing the other name: check the refused seats too.
            # An empty seat being typed into is not nagged about until it was refused once.
            if (k == i and (value.strip() or had)) or (k != i and f"player-{k}" in st.errors):
                refused(f"player-{k}", fields[k], name_refusal(names[:count], k))
        start.disabled = not all(n.strip() for n in names[:count])
        dealer.options[i].text = seat_name(i)  # the first dealer is named as typed
        update_roster()
        sync()

    def seat_name(i: int) -> str:
        return names[i].strip() or shell.t(N_("Player {n}"), n=i + 1)

    for i in range(count):
        fields.append(
            ft.TextField(
                label=shell.t(N_("Player {n}"), n=i + 1),
                value=names[i],
                error=error_text(f"player-{i}"),
                on_change=lambda e, i=i: named(i, e.control.value or ""),
            )
        )

    def pick(name: str) -> None:
        # The roster fills the first empty seat.
        for i in range(count):
            if not names[i].strip():
                names[i] = name
                st.errors.pop(f"player-{i}", None)
                break
        shell.show(new_session_screen)

    seated = {n.strip().casefold() for n in names[:count] if n.strip()}
    for k, name in enumerate(roster):
        roster_buttons[name] = sem(
            f"roster-{k}",
            ft.OutlinedButton(
                name,
                on_click=lambda e, name=name: pick(name),
                height=48,
                visible=name.casefold() not in seated,
            ),
        )

    family = family_of(st.convention)
    ledger = family_presets()[st.convention] if family != "pulya" else None
    preset = presets()[st.convention if ledger is None else "sochi"]

    def set_count(n: int) -> None:
        st.players = n
        st.dealer = min(st.dealer, n - 1)
        for k in range(n, 4):
            st.errors.pop(f"player-{k}", None)
        shell.show(new_session_screen)

    def set_convention(e: ft.Event[ft.Dropdown]) -> None:
        st.convention = e.control.value or "sochi"
        st.overrides.clear()
        st.family_numbers.clear()
        for key in [k for k in st.errors if k.startswith("setting-")]:
            del st.errors[key]
        shell.show(new_session_screen)

    def toggle_settings() -> None:
        st.show_settings = not st.show_settings
        shell.show(new_session_screen)

    narrow = (shell.page.width or 1000) < 600
    row_width = int((shell.page.width or 360) - 32)

    def text_field(
        label: str,
        key: str,
        value: str,
        width: int,
        check: object,
        store: str,
        *,
        numbers: bool = False,
    ) -> ft.TextField:
        def changed(e: ft.Event[ft.TextField]) -> None:
            text = e.control.value or ""
            if numbers:
                st.family_numbers[store] = text
            else:
                setattr(st, store, text)
            refused(key, e.control, check(text))  # type: ignore[operator]
            sync()

        return ft.TextField(
            label=shell.t(label),
            value=value,
            # On a phone each number takes the row: a long label or refusal in Serbian or Greek
            # ("paran broj od 2 do 100000") is read on one line, not wrapped in a narrow box.
            width=row_width if narrow else width,
            error=error_text(key),
            on_change=changed,
        )

    target = text_field(N_("Pool target"), "pool-target", st.target, 170, target_refusal, "target")
    price = text_field(
        PRICE_LABELS[family],
        "whist-price",
        st.price,
        170,
        lambda t: price_refusal(t, family),
        "price",
    )
    currency = text_field(
        N_("Currency"), "currency", st.currency, 130, currency_refusal, "currency"
    )
    dealer = ft.Dropdown(
        label=shell.t(N_("First dealer")),
        value=str(st.dealer),
        width=220,
        options=[ft.DropdownOption(key=str(i), text=seat_name(i)) for i in range(count)],
        on_select=lambda e: setattr(st, "dealer", int(e.control.value or 0)),
    )
    conventions = convention_choice(shell, st.convention, set_convention)
    form = SettingsForm(
        shell.t, preset.settings, st.overrides, st.errors, shell.render, changed=lambda: sync()
    )

    def create() -> None:
        players = [n.strip() for n in names[:count]]
        for i in range(count):
            why = name_refusal(players, i)
            if why is not None:
                st.errors[f"player-{i}"] = why
        for key, check, text in (
            ("pool-target", target_refusal, st.target),
            ("whist-price", lambda t: price_refusal(t, family), st.price),
            ("currency", currency_refusal, st.currency),
        ):
            why = check(text)
            if why is not None:
                st.errors[key] = why
        if ledger is not None:
            for _, name in FAMILY_FIELDS[family]:
                why = number_refusal(  # an untouched field holds the preset's number
                    family_field(ledger, name), st.family_numbers.get(name, _default(ledger, name))
                )
                if why is not None:
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
                    Settings.model_validate({**preset.settings.model_dump(), **st.overrides})
            except ValidationError:
                st.errors["settings"] = msg(N_("these settings do not go together"))
        if st.errors:
            shell.show(new_session_screen)
            return
        made: dict[str, int] = {}

        def action() -> None:
            made["sid"] = shell.store.create_session(
                players,
                convention=st.convention,
                overrides=dict(st.overrides) if ledger is None else family_overrides(st, ledger),
                pool_target=int(st.target.strip()),
                first_dealer=st.dealer,
                whist_price=price_of(st.price) or "",
                currency=st.currency.strip().upper(),
            )
            shell.access.made(made["sid"])  # the hosted server's owner (Access.made)

        if shell.attempt(action, create=True):
            shell.state.new_session = None
            shell.sid = made["sid"]
            shell.go("entry")
        else:
            shell.show(new_session_screen)

    def back() -> None:
        shell.go("sessions")

    start.on_click = create
    players_row = ft.Row(
        [
            sem("players-3", choice(count == 3, shell.t(N_("3 players")), lambda: set_count(3))),
            sem("players-4", choice(count == 4, shell.t(N_("4 players")), lambda: set_count(4))),
        ],
        wrap=True,
    )
    roster_list.controls = [
        ft.Text(shell.t(N_("From the roster:"))),
        sem("roster", ft.Row(list(roster_buttons.values()), wrap=True, spacing=6)),
    ]
    update_roster()
    sync()

    def family_settings(ledger: FamilyPreset) -> ft.Control:
        """Every setting the preset's rules read: a switch, a choice or a number, each with its
        meaning; the preset's identity and its prices by suit shown."""
        settings = ledger.resolve(family_overrides(st, ledger))
        asked = {name for _, name in FAMILY_FIELDS[family]}
        rows: list[ft.Control] = []
        for name, field in type(settings).model_fields.items():
            if name == "family" or name in asked or not read_by(settings, name):
                continue
            meaning = shell.t(field.description or "")
            value = getattr(settings, name)
            kind = kind_of(name, field)
            if kind == "switch":

                def switched(e: ft.Event[ft.Switch], name: str = name) -> None:
                    st.overrides[name] = bool(e.control.value)

                # The sentence beside the switch, not its label: a label is never wrapped.
                rows.append(
                    ft.Row(
                        [
                            sem(f"setting-{name}", ft.Switch(value=value, on_change=switched)),
                            ft.Text(meaning, expand=True),
                        ],
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    )
                )
            elif kind == "choice":

                def chosen(name: str, v: str) -> Callable[[], None]:
                    def handler() -> None:
                        st.overrides[name] = v
                        shell.show(new_session_screen)

                    return handler

                rows.append(
                    ft.Column(
                        [
                            ft.Text(meaning),
                            ft.Row(
                                [
                                    sem(
                                        f"setting-{name}-{v}",
                                        choice(
                                            value == v,
                                            shell.t(VALUE_LABELS[name, v]),
                                            chosen(name, v),
                                        ),
                                    )
                                    for v in choices(field)
                                ],
                                wrap=True,
                            ),
                        ],
                        spacing=4,
                    )
                )
            elif kind == "number":
                key = f"setting-{name}"

                def typed(e: ft.Event[ft.TextField], name: str = name, key: str = key) -> None:
                    text = e.control.value or ""
                    st.family_numbers[name] = text
                    refused(key, e.control, number_refusal(type(settings).model_fields[name], text))
                    sync()

                shown = st.family_numbers.get(name, "" if value is None else str(value))
                rows.append(
                    ft.Column(
                        [
                            ft.Text(meaning),
                            sem(
                                key,
                                ft.TextField(
                                    value=shown, width=170, error=error_text(key), on_change=typed
                                ),
                            ),
                        ],
                        spacing=4,
                    )
                )
            else:
                rows.append(
                    sem(
                        f"family-setting-{name}",
                        ft.Text(
                            shell.t(
                                N_("{value} — {meaning}"),
                                meaning=meaning,
                                value=shell.render(shown_value(name, value)),
                            )
                        ),
                    )
                )
        return ft.Column(rows, spacing=10)

    numbers: list[ft.Control] = []
    if ledger is not None:
        for label, name in FAMILY_FIELDS[family]:
            numbers.append(
                sem(
                    f"setting-{name}",
                    text_field(
                        label,
                        f"setting-{name}",
                        st.family_numbers.get(name, _default(ledger, name)),
                        170,
                        lambda t, name=name: number_refusal(family_field(ledger, name), t),
                        name,
                        numbers=True,
                    ),
                )
            )
    body: list[ft.Control] = [
        heading(shell.t(N_("New game"))),
        banner,
        *([players_row] if ledger is None or family_seats_four(st.convention) else []),
        # Each game's own direction: a table that follows the hint has its defenders right.
        ft.Text(
            shell.t(N_("Names in seating order, anticlockwise."))
            if anticlockwise(st.convention)
            else shell.t(N_("Names in seating order, clockwise."))
        ),
        *(sem(f"player-{i}", f) for i, f in enumerate(fields)),
    ]
    body.append(roster_section)
    body += [
        sem("first-dealer", dealer),
        sem("convention", conventions),
        ft.Text(
            (ledger or preset).summary_in(shell.lang),
            italic=True,
        ),
        ft.Row(
            [
                *([sem("pool-target", target)] if ledger is None else []),
                *numbers,
                sem("whist-price", price),
                sem("currency", currency),
            ],
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        sem(
            "show-settings",
            quiet(
                shell.t(N_("Hide the settings"))
                if st.show_settings
                else shell.t(N_("Show every setting")),
                toggle_settings,
            ),
        ),
    ]
    if st.show_settings and ledger is not None:
        body.append(family_settings(ledger))
    elif st.show_settings:
        body += form.groups(lambda: shell.show(new_session_screen))
    return ft.Column(
        [
            ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12),
            ft.Row(
                [
                    ft.Container(sem("create-session", start), expand=True),
                    sem("back", quiet(shell.t(N_("Back")), back)),
                ]
            ),
        ],
        expand=True,
        spacing=8,
    )


def _default(preset: FamilyPreset, name: str) -> str:
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
