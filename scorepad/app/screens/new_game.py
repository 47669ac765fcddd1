"""A new pulka: players in seating order, the first dealer, the convention and every setting as
a form (then frozen, as on paper), pool target, whist price, currency.

Each field is checked as it is typed: a refusal is a sentence in the screen's language under its
field, and goes away once the field is fixed.  "Start" checks every field again and writes
nothing while one is refused.  The form itself, without a widget, is screens/new_game_form.py;
this module draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import flet as ft

from ...core.i18n import N_, Msg
from ...scoring.ledger.families import FamilyPreset, family_presets
from ...scoring.pulya.convention import presets
from ..families.settings import VALUE_LABELS, choices, kind_of, read_by, shown_value
from ..frame.shell import Shell
from ..frame.state import new_session_for
from ..frame.theme import choice, heading, primary, quiet, sem
from .new_game_form import (
    FAMILY_FIELDS,
    PRICE_LABELS,
    PRICE_REFUSALS,
    NewGameForm,
    currency_refusal,
    family_field,
    family_overrides,
    family_seats_four,
    name_refusal,
    price_of,
    price_refusal,
    target_refusal,
)
from .settings import SettingsForm
from .table import locked_screen


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


def new_session_screen(shell: Shell) -> ft.Control:
    if not shell.access.may_create:  # a viewer or a joined phone: not the host's sessions
        return locked_screen(shell)
    st = shell.state.new_session
    if st is None:
        st = shell.state.new_session = new_session_for(shell.lang)
    form = NewGameForm(st)
    view = _View(shell, form)
    # The roster is the host's: on the hosted server nobody is shown another's players.
    view.roster(shell.session.players() if shell.access.host else [])
    body: list[ft.Control] = [
        heading(shell.t(N_("New game"))),
        view.banner,
        *([_count_row(shell, form)] if form.four_offered else []),
        # Each game's own direction: a table that follows the hint has its defenders right.
        ft.Text(
            shell.t(N_("Names in seating order, clockwise."))
            if form.clockwise
            else shell.t(N_("Names in seating order, anticlockwise."))
        ),
        *(sem(f"player-{i}", f) for i, f in enumerate(view.fields)),
        view.roster_section,
        sem("first-dealer", view.dealer),
        sem("convention", convention_choice(shell, st.convention, view.choose_convention)),
        ft.Text((form.ledger or form.preset).summary_in(shell.lang), italic=True),
        view.numbers(),
        sem(
            "show-settings",
            quiet(
                shell.t(N_("Hide the settings"))
                if st.show_settings
                else shell.t(N_("Show every setting")),
                view.toggle_settings,
            ),
        ),
    ]
    if st.show_settings and form.ledger is not None:
        body.append(_family_settings(view, form.ledger))
    elif st.show_settings:
        body += SettingsForm(
            shell.t, form.preset.settings, st.overrides, st.errors, shell.render, changed=view.sync
        ).groups(lambda: shell.show(new_session_screen))
    return ft.Column(
        [
            ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12),
            ft.Row(
                [
                    ft.Container(sem("create-session", view.start), expand=True),
                    sem("back", quiet(shell.t(N_("Back")), lambda: shell.go("sessions"))),
                ]
            ),
        ],
        expand=True,
        spacing=8,
    )


def _count_row(shell: Shell, form: NewGameForm) -> ft.Control:
    def count(n: int) -> Callable[[], None]:
        def chosen() -> None:
            form.choose_count(n)
            shell.show(new_session_screen)

        return chosen

    return ft.Row(
        [
            sem(f"players-{n}", choice(form.count == n, shell.t(label), count(n)))
            for n, label in ((3, N_("3 players")), (4, N_("4 players")))
        ],
        wrap=True,
    )


@dataclass
class _View:
    """The form's widgets that change in place while a field is typed (a redraw would take the
    focus away from the field): the refusals under the fields and in the banner, Start, the
    first dealer's names, the roster's buttons."""

    shell: Shell
    form: NewGameForm
    fields: list[ft.TextField] = field(default_factory=list)
    roster_buttons: dict[str, ft.Control] = field(default_factory=dict)

    def __post_init__(self) -> None:
        shell, form = self.shell, self.form
        # Enabled once every seat has a name (the checks run when it is pressed).
        self.start = primary(
            shell.t(N_("Start the game")), self.create, disabled=not form.may_start
        )
        self.banner_text = ft.Text(color=ft.Colors.ON_ERROR_CONTAINER)
        self.banner = ft.Semantics(
            identifier="message",
            live_region=True,
            exclude_semantics=True,  # the label is the text: read once
            content=ft.Container(
                self.banner_text, bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=12
            ),
        )
        self.fields = [
            ft.TextField(
                label=shell.t(N_("Player {n}"), n=i + 1),
                value=form.st.names[i],
                error=self.error_text(f"player-{i}"),
                on_change=lambda e, i=i: self.named(i, e.control.value or ""),
            )
            for i in range(form.count)
        ]
        self.dealer = ft.Dropdown(
            label=shell.t(N_("First dealer")),
            value=str(form.st.dealer),
            width=220,
            options=[
                ft.DropdownOption(key=str(i), text=self.seat_name(i)) for i in range(form.count)
            ],
            on_select=lambda e: form.choose_dealer(e.control.value),
        )
        self.roster_list = ft.Column(spacing=6)
        self.roster_section = sem("roster-section", self.roster_list)  # hidden when empty
        self.narrow = (shell.page.width or 1000) < 600
        self.row_width = int((shell.page.width or 360) - 32)

    def seat_name(self, i: int) -> str:
        return self.form.seat_name(i) or self.shell.t(N_("Player {n}"), n=i + 1)

    def error_text(self, key: str) -> str | None:
        why = self.form.refusal(key)
        return self.shell.render(why) if why else None

    def sync(self) -> None:
        """The banner lists what is refused (read out by a screen reader), and goes when all
        is fixed."""
        refusals = list(dict.fromkeys(self.shell.render(m) for m in self.form.refusals()))
        self.banner_text.value = "\n".join(refusals)
        self.banner.label = self.banner_text.value
        self.banner.visible = bool(refusals)

    def refused(self, control: ft.TextField, why: Msg | None) -> None:
        """Show (or take away) the refusal under a field; only the field changes."""
        control.error = None if why is None else self.shell.render(why)
        self.sync()

    def named(self, i: int, value: str) -> None:
        for k in self.form.name(i, value):
            self.fields[k].error = self.error_text(f"player-{k}")
        self.start.disabled = not self.form.may_start
        self.dealer.options[i].text = self.seat_name(i)  # the first dealer is named as typed
        self.update_roster()
        self.sync()

    def roster(self, roster: list[str]) -> None:
        """The players of the roster not seated yet, a tap each (it fills the first empty seat)."""

        def pick(name: str) -> None:
            self.form.pick(name)
            self.shell.show(new_session_screen)

        for k, (name, shown) in enumerate(zip(roster, self.form.offered(roster), strict=True)):
            self.roster_buttons[name] = sem(
                f"roster-{k}",
                ft.OutlinedButton(
                    name, on_click=lambda e, name=name: pick(name), height=48, visible=shown
                ),
            )
        self.roster_list.controls = [
            ft.Text(self.shell.t(N_("From the roster:"))),
            sem("roster", ft.Row(list(self.roster_buttons.values()), wrap=True, spacing=6)),
        ]
        self.update_roster()
        self.sync()

    def update_roster(self) -> None:
        shown = self.form.offered(list(self.roster_buttons))
        for button, visible in zip(self.roster_buttons.values(), shown, strict=True):
            button.visible = visible
        # No heading over an empty roster.
        self.roster_section.visible = any(shown)

    def choose_convention(self, e: ft.Event[ft.Dropdown]) -> None:
        self.form.choose_convention(e.control.value or "sochi")
        self.shell.show(new_session_screen)

    def toggle_settings(self) -> None:
        self.form.toggle_settings()
        self.shell.show(new_session_screen)

    def text_field(
        self, label: str, key: str, value: str, typed: Callable[[str], Msg | None]
    ) -> ft.TextField:
        def changed(e: ft.Event[ft.TextField]) -> None:
            self.refused(e.control, typed(e.control.value or ""))

        return ft.TextField(
            label=self.shell.t(label),
            value=value,
            # On a phone each number takes the row: a long label or refusal in Serbian or Greek
            # ("paran broj od 2 do 100000") is read on one line, not wrapped in a narrow box.
            width=self.row_width if self.narrow else (130 if key == "currency" else 170),
            error=self.error_text(key),
            on_change=changed,
        )

    def numbers(self) -> ft.Control:
        """The pool target (the pulya's), the family's numbers, the price and the currency."""
        form = self.form

        def typed(key: str) -> Callable[[str], Msg | None]:
            return lambda text: form.type_text(key, text)

        def number(name: str) -> Callable[[str], Msg | None]:
            return lambda text: form.type_number(name, text)

        row: list[ft.Control] = []
        if form.ledger is None:
            target = self.text_field(
                N_("Pool target"), "pool-target", form.st.target, typed("pool-target")
            )
            row.append(sem("pool-target", target))
        for label, name in form.family_fields:
            key = f"setting-{name}"
            row.append(
                sem(key, self.text_field(label, key, form.family_number(name), number(name)))
            )
        price = self.text_field(
            form.price_label, "whist-price", form.st.price, typed("whist-price")
        )
        currency = self.text_field(N_("Currency"), "currency", form.st.currency, typed("currency"))
        row += [sem("whist-price", price), sem("currency", currency)]
        return ft.Row(row, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START)

    def create(self) -> None:
        game = self.form.game()
        shell = self.shell
        if game is None:
            shell.show(new_session_screen)
            return
        made = shell.session.new_game(game)
        if shell.told(made) and isinstance(made, int):
            shell.state.new_session = None
            shell.sid = made
            shell.go("entry")
        else:
            shell.show(new_session_screen)


def _family_settings(view: _View, ledger: FamilyPreset) -> ft.Control:
    """Every setting the preset's rules read: a switch, a choice or a number, each with its
    meaning; the preset's identity and its prices by suit shown."""
    shell, form = view.shell, view.form
    settings = ledger.resolve(form.overrides())
    asked = {name for _, name in form.family_fields}
    rows: list[ft.Control] = []
    for name, info in type(settings).model_fields.items():
        if name == "family" or name in asked or not read_by(settings, name):
            continue
        meaning = shell.t(info.description or "")
        value = getattr(settings, name)
        kind = kind_of(name, info)
        if kind == "switch":
            rows.append(_switch(form, name, value, meaning))
        elif kind == "choice":
            rows.append(_choice(view, name, list(choices(info)), value, meaning))
        elif kind == "number":
            rows.append(_number(view, name, value, meaning))
        else:
            said = shell.render(shown_value(name, value))
            rows.append(
                sem(
                    f"family-setting-{name}",
                    ft.Text(shell.t(N_("{value} — {meaning}"), meaning=meaning, value=said)),
                )
            )
    return ft.Column(rows, spacing=10)


def _switch(form: NewGameForm, name: str, value: object, meaning: str) -> ft.Control:
    def switched(e: ft.Event[ft.Switch]) -> None:
        form.choose_setting(name, bool(e.control.value))

    # The sentence beside the switch, not its label: a label is never wrapped.
    return ft.Row(
        [
            sem(f"setting-{name}", ft.Switch(value=bool(value), on_change=switched)),
            ft.Text(meaning, expand=True),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _choice(view: _View, name: str, values: list[str], value: object, meaning: str) -> ft.Control:
    def chosen(v: str) -> Callable[[], None]:
        def handler() -> None:
            view.form.choose_setting(name, v)
            view.shell.show(new_session_screen)

        return handler

    buttons = [
        sem(
            f"setting-{name}-{v}",
            choice(value == v, view.shell.t(VALUE_LABELS[name, v]), chosen(v)),
        )
        for v in values
    ]
    return ft.Column([ft.Text(meaning), ft.Row(buttons, wrap=True)], spacing=4)


def _number(view: _View, name: str, value: object, meaning: str) -> ft.Control:
    key = f"setting-{name}"

    def typed(e: ft.Event[ft.TextField]) -> None:
        view.refused(e.control, view.form.type_number(name, e.control.value or ""))

    shown = view.form.st.family_numbers.get(name, "" if value is None else str(value))
    field = ft.TextField(value=shown, width=170, error=view.error_text(key), on_change=typed)
    return ft.Column([ft.Text(meaning), sem(key, field)], spacing=4)


__all__ = [
    "FAMILY_FIELDS",
    "PRICE_LABELS",
    "PRICE_REFUSALS",
    "convention_choice",
    "currency_refusal",
    "family_field",
    "family_overrides",
    "family_seats_four",
    "name_refusal",
    "new_session_screen",
    "price_of",
    "price_refusal",
    "target_refusal",
]
