"""A new session: players in seating order, the first dealer, the convention with every setting
visible and changeable (then frozen, as on paper), pool target, whist price, currency."""

from __future__ import annotations

import json
from typing import Any

import flet as ft

from ..i18n import N_
from ..scoring.convention import Settings, presets
from .shell import Shell, sem


def new_session_screen(shell: Shell) -> ft.Control:
    if not shell.access.host:  # a viewer or a joined phone: not the host's other sessions
        from .table import locked_screen

        return locked_screen(shell)
    from .entry import entry_screen
    from .sessions import sessions_screen

    st = shell.state.setdefault(
        "new", {"players": 3, "convention": "sochi", "show_settings": False}
    )
    with shell.lock:
        roster = shell.store.players()
    count = st["players"]

    def all_named() -> bool:
        return all((st.get(f"name{i}") or "").strip() for i in range(count))

    # Enabled once every seat has a name; only this button is updated while typing (a redraw
    # would take the focus away from the field).
    start = ft.FilledButton(shell.t(N_("Start the session")), disabled=not all_named())

    def named(i: int, value: str) -> None:
        st[f"name{i}"] = value
        start.disabled = not all_named()

    names = [
        ft.TextField(
            label=shell.t(N_("Player {n}"), n=i + 1),
            value=st.get(f"name{i}", ""),
            dense=True,
            on_change=lambda e, i=i: named(i, e.control.value),
        )
        for i in range(count)
    ]
    preset = presets()[st["convention"]]
    settings = preset.settings

    def set_count(n: int) -> None:
        st["players"] = n
        shell.show(new_session_screen)

    def set_convention(e: ft.Event[ft.Dropdown]) -> None:
        st["convention"] = e.control.value or "sochi"
        st.pop("overrides", None)
        shell.show(new_session_screen)

    def toggle_settings() -> None:
        st["show_settings"] = not st["show_settings"]
        shell.show(new_session_screen)

    overrides_text: dict[str, str] = st.setdefault("overrides", {})
    setting_fields: list[ft.Control] = []
    if st["show_settings"]:
        for name, info in Settings.model_fields.items():
            value = overrides_text.get(
                name, json.dumps(getattr(settings, name), ensure_ascii=False)
            )
            # The description wraps above its field: a phone is too narrow for a helper line.
            setting_fields.append(
                ft.Text(shell.t(info.description or ""), size=12, color=ft.Colors.BLUE_GREY_800)
            )
            setting_fields.append(
                sem(
                    f"setting-{name}",
                    ft.TextField(
                        label=name,
                        value=value,
                        dense=True,
                        on_change=lambda e, name=name: overrides_text.__setitem__(
                            name, e.control.value
                        ),
                    ),
                )
            )

    def field(label: str, key: str, default: str, width: int) -> ft.TextField:
        return ft.TextField(
            label=shell.t(label),
            value=st.get(key, default),
            dense=True,
            width=width,
            on_change=lambda e: st.__setitem__(key, e.control.value),
        )

    target = field(N_("Pool target"), "target", "20", 150)
    price = field(N_("Whist price"), "price", "1.00", 150)
    currency = field(N_("Currency"), "currency", "RUB", 120)
    dealer = ft.Dropdown(
        label=shell.t(N_("First dealer")),
        value=str(st.get("dealer", 0)),
        dense=True,
        width=200,
        options=[
            ft.DropdownOption(key=str(i), text=shell.t(N_("Player {n}"), n=i + 1))
            for i in range(count)
        ],
        on_select=lambda e: st.__setitem__("dealer", int(e.control.value or 0)),
    )
    conventions = ft.Dropdown(
        label=shell.t(N_("Convention")),
        value=st["convention"],
        dense=True,
        width=260,
        options=[
            ft.DropdownOption(key=p.id, text=p.name_ru if shell.lang == "ru" else p.name)
            for p in presets().values()
        ],
        on_select=set_convention,
    )

    taken = {(st.get(f"name{i}") or "").strip().casefold() for i in range(count)}

    def pick(name: str) -> None:
        # The roster fills the first empty seat.
        for i in range(count):
            if not (st.get(f"name{i}") or "").strip():
                st[f"name{i}"] = name
                break
        shell.show(new_session_screen)

    available = [name for name in roster if name.casefold() not in taken]
    picks: list[ft.Control] = [
        sem(f"roster-{k}", ft.OutlinedButton(name, on_click=lambda e, name=name: pick(name)))
        for k, name in enumerate(available)
    ]

    def create() -> None:
        players = [(st.get(f"name{i}") or "").strip() for i in range(count)]
        overrides: dict[str, Any] = {}
        for name, text in overrides_text.items():
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                shell.message = shell.t(
                    N_("setting {name}: {value} is not a value"), name=name, value=text
                )
                shell.show(new_session_screen)
                return
            if value != json.loads(json.dumps(getattr(settings, name))):
                overrides[name] = value
        try:
            pool_target = int(st.get("target", "20"))
        except ValueError:
            shell.message = shell.t(N_("the pool target is a whole number"))
            shell.show(new_session_screen)
            return
        made: dict[str, int] = {}

        def action() -> None:
            made["sid"] = shell.store.create_session(
                players,
                convention=st["convention"],
                overrides=overrides,
                pool_target=pool_target,
                first_dealer=int(st.get("dealer", 0)),
                whist_price=st.get("price", "1.00"),
                currency=st.get("currency", "RUB"),
            )

        if shell.attempt(action):
            shell.state.pop("new", None)
            shell.sid = made["sid"]
            shell.new_form()
            shell.show(entry_screen)
        else:
            shell.show(new_session_screen)

    start.on_click = create
    return ft.Column(
        [
            ft.Text(shell.t(N_("New session")), size=22, weight=ft.FontWeight.BOLD),
            ft.Row(
                [
                    sem(
                        "players-3",
                        (ft.FilledButton if count == 3 else ft.OutlinedButton)(
                            shell.t(N_("3 players")), on_click=lambda: set_count(3)
                        ),
                    ),
                    sem(
                        "players-4",
                        (ft.FilledButton if count == 4 else ft.OutlinedButton)(
                            shell.t(N_("4 players")), on_click=lambda: set_count(4)
                        ),
                    ),
                ],
                wrap=True,
            ),
            ft.Text(shell.t(N_("Names in seating order, clockwise."))),
            *(sem(f"player-{i}", f) for i, f in enumerate(names)),
            *(
                [ft.Text(shell.t(N_("From the roster:"))), ft.Row(picks, wrap=True)]
                if picks
                else []
            ),
            sem("first-dealer", dealer),
            sem("convention", conventions),
            ft.Text(preset.summary_ru if shell.lang == "ru" else preset.summary, italic=True),
            ft.Row(
                [sem("pool-target", target), sem("whist-price", price), sem("currency", currency)],
                wrap=True,
            ),
            sem(
                "show-settings",
                ft.TextButton(
                    shell.t(N_("Hide the settings"))
                    if st["show_settings"]
                    else shell.t(N_("Show every setting")),
                    on_click=toggle_settings,
                ),
            ),
            *setting_fields,
            ft.Row(
                [
                    sem("create-session", start),
                    ft.TextButton(
                        shell.t(N_("Back")), on_click=lambda: shell.show(sessions_screen)
                    ),
                ],
                wrap=True,
            ),
        ],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        spacing=10,
    )
