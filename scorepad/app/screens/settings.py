"""The convention's settings as a form: each a switch, a choice or a number with its translated
name and one-line meaning, in four groups (whisting, all-pass, pool, settlement).

The widgets hold Python values; ``checked`` validates the whole set through the engine's own
model, so the form can offer nothing the engine would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...scoring.pulya.convention import LEVELS, Settings
from ..frame.theme import TAP, choice, sem

# Kinds of widget.
SWITCH, CHOICE, NUMBER, TABLE, LEVELS_SET, SEQUENCE, TRICK_OR_NUMBER = range(7)
# Where a setting says "none" as a word next to a number ("concede": none or a number).
NONE_OR_NUMBER = 7


@dataclass(frozen=True, slots=True)
class SettingView:
    name: str
    label: str  # a msgid: the setting's name as a player says it
    kind: int
    minimum: int = 0


GROUPS: dict[str, str] = {
    "whisting": N_("Whisting"),
    "raspasy": N_("All-pass"),
    "pool": N_("Pool"),
    "settlement": N_("Settlement"),
}

CHOICE_LABELS: dict[str, str] = {
    "full": N_("full"),
    "half": N_("half"),
    "third": N_("a third"),
    "second": N_("the second whister"),
    "split": N_("split in half"),
    "both": N_("both"),
    "greedy": N_("greedy"),
    "gentleman": N_("gentleman"),
    "whisted": N_("whisted"),
    "checked": N_("checked"),
    "gora": N_("gora"),
    "whists": N_("whists"),
    "pool": N_("pulya"),
    "highest": N_("the highest open pulya"),
    "clockwise": N_("clockwise"),
    "none": N_("none"),
    "all_closed": N_("every pulya closed"),
    "total": N_("the total"),
    "players": N_("by players"),
    "others": N_("by opponents"),
    "passer": N_("the passer"),
    "whister": N_("the whister"),
    "open": N_("opened"),
    "closed": N_("closed"),
    "exact": N_("exact"),
    "kodex": N_("Kodex"),
    "shared": N_("shared"),
    "personal": N_("personal"),
    "lost": N_("lost"),
    "gora_ratio": N_("off the gora at the pulya/gora ratio"),
    "trick": N_("as a trick"),
    "all": N_("every player's"),
    "one": N_("one only"),
    "returner": N_("the returner"),
    "lapses": N_("lapses"),
    "one_trick": N_("one trick"),
    "two_tricks": N_("two tricks"),
    "rest": N_("every trick from the revoke on"),
}

LAYOUT: dict[str, list[SettingView]] = {
    "whisting": [
        SettingView("whist_obligation", N_("Tricks the defence must take"), TABLE),
        SettingView("whist_trick_factor", N_("Whists per defence trick"), NUMBER, 1),
        SettingView("whist_responsibility", N_("Whister's liability"), CHOICE),
        SettingView("responsible_whister", N_("Who answers for missing tricks"), CHOICE),
        SettingView("whist_quota", N_("Defence quota"), CHOICE),
        SettingView(
            "failed_whister_writes_tricks", N_("A failed whister still writes whists"), SWITCH
        ),
        SettingView("whist_style", N_("Whist style"), CHOICE),
        SettingView("passer_consolation", N_("Who writes the passer's consolation"), CHOICE),
        SettingView("consolation", N_("Consolation"), TRICK_OR_NUMBER),
        SettingView("consolation_to_dealer", N_("The dealer writes consolation too"), SWITCH),
        SettingView("half_whist", N_("Half-whist allowed on"), LEVELS_SET),
        SettingView("long_half_whist", N_("Whist–pass–half-whist"), SWITCH),
        SettingView("pass_pass_whist", N_("Whist after two passes"), SWITCH),
        SettingView("dealer_whist", N_("The dealer may whist"), SWITCH),
        SettingView("dealer_whist_liable", N_("A whisting dealer answers for tricks"), SWITCH),
        SettingView(
            "dealer_whist_consolation", N_("Consolation written by a whisting dealer"), CHOICE
        ),
        SettingView("returned_half_consolation", N_("Consolation after a returned whist"), CHOICE),
        SettingView("gentleman_on_made", N_("Gentleman whist on a made game too"), SWITCH),
        SettingView("ten", N_("The ten"), CHOICE),
        SettingView("ten_checked_whists", N_("A checked ten writes whists"), SWITCH),
        SettingView("stalingrad", N_("Stalingrad"), SWITCH),
        SettingView("concede", N_("Conceding"), NONE_OR_NUMBER, 1),
        SettingView("must_overtake", N_("Must beat the trick"), SWITCH),
        SettingView("revoke", N_("A revoke costs"), CHOICE),
    ],
    "raspasy": [
        SettingView("raspasy_scoring", N_("All-pass written as"), CHOICE),
        SettingView("raspasy_trick_price", N_("Price of a trick"), NUMBER, 1),
        SettingView("raspasy_progression", N_("Progression"), SEQUENCE, 1),
        SettingView("raspasy_exit", N_("Exit levels"), SEQUENCE, 6),
        SettingView("raspasy_amnesty", N_("Amnesty"), SWITCH),
        SettingView("raspasy_zero_pool", N_("No tricks taken"), TRICK_OR_NUMBER),
        SettingView("raspasy_zero_tricks", N_("No tricks: reward in tricks"), NUMBER, 1),
        SettingView("raspasy_zero_target", N_("No tricks: written to"), CHOICE),
        SettingView("raspasy_dealer_zero", N_("The dealer's zero counts"), SWITCH),
        SettingView("raspasy_talon", N_("The talon"), CHOICE),
        SettingView("raspasy_exit_by_failure", N_("A failed game ends the series"), SWITCH),
        SettingView("raspasy_exit_by_unwhisted", N_("An unwhisted game ends the series"), SWITCH),
        SettingView("raspasy_exit_by_misere", N_("A misère ends the series"), SWITCH),
    ],
    "pool": [
        SettingView("game_price", N_("Price of the games"), TABLE),
        SettingView("remiz_factor", N_("Gora per undertrick"), NUMBER, 1),
        SettingView("misere_trick_penalty", N_("Misère: gora per trick"), NUMBER, 1),
        SettingView("misere_share", N_("Shared misère"), CHOICE),
        SettingView("misere_bonus_whists", N_("Misère bonus"), NUMBER),
        SettingView("talon_bonus", N_("Talon tricks count"), SWITCH),
        SettingView("talon_bonus_three", N_("Talon premium with three players"), SWITCH),
        SettingView("pool_help", N_("Help past a closed pulya"), CHOICE),
        SettingView("help_whists", N_("Whists per point of help"), NUMBER),
        SettingView("help_overflow", N_("Help nobody can take"), CHOICE),
        SettingView("game_end", N_("End of the game"), CHOICE),
    ],
    "settlement": [
        SettingView("pool_point_whists", N_("Whists per pulya point"), NUMBER),
        SettingView("gora_point_whists", N_("Whists per gora point"), NUMBER, 1),
        SettingView("gora_divisor", N_("Gora shared"), CHOICE),
        SettingView("settlement_rounding", N_("Rounding"), CHOICE),
        SettingView("rounding_whists", N_("Kodex rounding: whists per point"), NUMBER, 1),
    ],
}

_REFERENCE = re.compile(r",?\s*(§[\d.]+|open question \d+|вопрос \d+)")


def meaning(text: str) -> str:
    """The one-line meaning without the rule book's section numbers."""
    text = _REFERENCE.sub("", text)
    text = re.sub(r"\(\s*,?\s*", "(", text)
    return re.sub(r"\s*\(\)", "", text).strip()


def choices_of(name: str) -> list[Any]:
    annotation = Settings.model_fields[name].annotation
    args = getattr(annotation, "__args__", ())
    return [a for a in args if isinstance(a, str)]


def int_text(text: str, minimum: int) -> int | None:
    text = text.strip()
    if not re.fullmatch(r"\d{1,6}", text):
        return None
    value = int(text)
    return value if value >= minimum else None


def seq_text(text: str, minimum: int) -> list[int] | None:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    values = [int_text(p, minimum) for p in parts]
    if not values or any(v is None for v in values):
        return None
    return [v for v in values if v is not None]


def number_refusal(minimum: int) -> Msg:
    return msg(N_("a whole number, {min} or more"), min=minimum)


class SettingsForm:
    """The form's widgets over ``values`` (the preset's settings with the changes)."""

    def __init__(
        self,
        t: Callable[..., str],
        settings: Settings,
        changes: dict[str, object],
        errors: dict[str, Msg],
        render: Callable[[Msg], str],
        changed: Callable[[], None] = lambda: None,
    ) -> None:
        self.changed = changed  # after a refusal appears or goes
        self.t = t
        self.render = render
        self.base = settings
        self.changes = changes
        self.errors = errors

    def value(self, name: str) -> Any:
        if name in self.changes:
            return self.changes[name]
        return getattr(self.base, name)

    def _set(self, name: str, value: Any) -> None:
        self.errors.pop(f"setting-{name}", None)
        if value == getattr(self.base, name):
            self.changes.pop(name, None)
        else:
            self.changes[name] = value

    def _chooser(self, name: str, value: Any, redraw: Callable[[], None]) -> Callable[[], None]:
        def chosen() -> None:
            self._set(name, value)
            redraw()

        return chosen

    def groups(self, redraw: Callable[[], None]) -> list[ft.Control]:
        out: list[ft.Control] = []
        for group, items in LAYOUT.items():
            rows: list[ft.Control] = [
                ft.Text(
                    self.t(GROUPS[group]),
                    size=18,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.PRIMARY,
                )
            ]
            for view in items:
                rows.append(sem(f"setting-{view.name}", self._setting(view, redraw)))
            out.append(
                sem(
                    f"settings-{group}",
                    ft.Card(ft.Container(ft.Column(rows, spacing=12), padding=12), margin=0),
                )
            )
        return out

    def _setting(self, view: SettingView, redraw: Callable[[], None]) -> ft.Control:
        name = view.name
        label = self.t(view.label)
        about = ft.Text(
            meaning(self.t(Settings.model_fields[name].description or "")),
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        if view.kind == SWITCH:
            return self._switch(name, label, about)
        title = ft.Text(label, weight=ft.FontWeight.W_500)
        if view.kind == CHOICE:
            value = self.value(name)
            buttons = [
                choice(
                    value == option,
                    self.t(CHOICE_LABELS[option]),
                    self._chooser(name, option, redraw),
                )
                for option in choices_of(name)
            ]
            return ft.Column([title, about, ft.Row(buttons, wrap=True, spacing=4)], spacing=4)
        if view.kind == LEVELS_SET:
            return ft.Column([title, about, self._levels(name, redraw)], spacing=4)
        if view.kind == TABLE:
            return ft.Column([title, about, self._price_table(name)], spacing=4)
        return ft.Column([title, about, *self._number(view, redraw)], spacing=4)

    def _switch(self, name: str, label: str, about: ft.Control) -> ft.Control:
        def switched(e: ft.Event[ft.Switch]) -> None:
            self._set(name, bool(e.control.value))

        # The name as a text that wraps, the switch at the end of its row: a switch's own
        # label never wraps and was pressed against the card's edge.
        switch = ft.Switch(value=bool(self.value(name)), on_change=switched, height=TAP)
        return ft.Column(
            [
                ft.Row(
                    [
                        ft.Text(label, weight=ft.FontWeight.W_500, expand=True),
                        ft.Semantics(label=label, content=switch),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    spacing=12,
                ),
                about,
            ],
            spacing=2,
        )

    def _levels(self, name: str, redraw: Callable[[], None]) -> ft.Control:
        """A set of levels (6 to 10), each toggled by a tap."""
        chosen = set(self.value(name))

        def toggle(level: int) -> None:
            now = chosen ^ {level}
            self._set(name, sorted(now))
            redraw()

        buttons = [
            choice(lv in chosen, str(lv), lambda lv=lv: toggle(lv), width=TAP)
            for lv in (6, 7, 8, 9, 10)
        ]
        return ft.Row(buttons, wrap=True, spacing=4)

    def _price_table(self, name: str) -> ft.Control:
        """A price a level (and the misère's, of the game's prices), each typed."""
        table: dict[str, int] = dict(self.value(name))
        fields: list[ft.Control] = []
        keys = [*LEVELS, "misere"] if name == "game_price" else list(LEVELS)
        for key in keys:

            def typed(e: ft.Event[ft.TextField], key: str = key) -> None:
                number = int_text(e.control.value or "", 0)
                if number is None:
                    self.errors[f"setting-{name}"] = number_refusal(0)
                    e.control.error = self.render(number_refusal(0))
                    self.changed()
                    return
                e.control.error = None
                table[key] = number
                self._set(name, dict(table))
                self.changed()

            fields.append(
                ft.TextField(
                    label=self.t(N_("misère")) if key == "misere" else key,
                    value=str(table[key]),
                    width=72 if key != "misere" else 96,
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=typed,
                )
            )
        return ft.Row(fields, wrap=True, spacing=6)

    def _number(self, view: SettingView, redraw: Callable[[], None]) -> list[ft.Control]:
        """A number, a sequence of numbers, or a number that may also be a word."""
        name, value = view.name, self.value(view.name)
        word = "trick" if view.kind == TRICK_OR_NUMBER else "none"
        parts: list[ft.Control] = []
        if view.kind in (TRICK_OR_NUMBER, NONE_OR_NUMBER):
            as_word = value == word

            def to_word(flag: bool) -> None:
                self._set(name, word if flag else view.minimum)
                redraw()

            parts.append(
                ft.Row(
                    [
                        choice(as_word, self.t(CHOICE_LABELS[word]), lambda: to_word(True)),
                        choice(not as_word, self.t(N_("a number")), lambda: to_word(False)),
                    ],
                    wrap=True,
                    spacing=4,
                )
            )
            if as_word:
                return parts
        error = self.errors.get(f"setting-{name}")
        text = ", ".join(map(str, value)) if view.kind == SEQUENCE else str(value)
        field = ft.TextField(
            value=text,
            width=160 if view.kind == SEQUENCE else 110,
            keyboard_type=ft.KeyboardType.TEXT if view.kind == SEQUENCE else ft.KeyboardType.NUMBER,
            error=self.render(error) if error else None,
            on_change=partial(self._typed_number, view),
        )
        return [*parts, field]

    def _typed_number(self, view: SettingView, e: ft.Event[ft.TextField]) -> None:
        name, raw = view.name, e.control.value or ""
        parsed: Any = (
            seq_text(raw, view.minimum) if view.kind == SEQUENCE else int_text(raw, view.minimum)
        )
        if parsed is None or (name == "raspasy_exit" and any(v > 10 for v in parsed)):
            refusal = (
                msg(N_("numbers from 6 to 10, separated by commas"))
                if name == "raspasy_exit"
                else msg(N_("whole numbers, {min} or more, separated by commas"), min=view.minimum)
                if view.kind == SEQUENCE
                else number_refusal(view.minimum)
            )
            self.errors[f"setting-{name}"] = refusal
            e.control.error = self.render(refusal)
            self.changed()
            return
        e.control.error = None
        self._set(name, parsed)
        self.changed()


def every_setting_placed() -> bool:
    """Each setting in the form once, and each of its choices with a label."""
    placed = [v.name for items in LAYOUT.values() for v in items]
    labelled = all(
        option in CHOICE_LABELS
        for items in LAYOUT.values()
        for v in items
        if v.kind == CHOICE
        for option in choices_of(v.name)
    )
    return (
        labelled
        and sorted(placed) == sorted(Settings.model_fields)
        and len(placed) == len(set(placed))
    )
