"""The settings of a ledger family's preset on the new-game screen, as the engine's model has them:
a switch, a choice of the setting's own values (each explained in the setting's sentence) or a
whole number within the model's bounds.  What makes the preset what it is (its system, the bula
or pot form) and the prices by suit are shown, not edited: a session file may set them."""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Literal

from annotated_types import Ge, Le, MultipleOf
from pydantic.fields import FieldInfo

from ...core.i18n import N_, Msg, msg

#: What a preset is (another value is another preset), and what the family's form never asks.
FIXED = frozenset({"family", "system", "scoring"})

Kind = Literal["switch", "choice", "number", "shown"]

_POT = ("ante", "pot_refill", "pot_remainder")
_MODERN = (
    *_POT,
    *("win", "loss", "defender_loss", "trick_pay", "failed_declarer_collects", "trick_pay_rule"),
    *("concede_each", "concede_single", "premium_hearts_hand", "premium_four_aces"),
    *("premium_no_aces", "multiply_by_bid", "pot_mode", "dealer_ante", "pot_cap", "styrian_win"),
)
#: The pot family's settings each of its systems reads (the others mean nothing to it).
POT_SYSTEMS: dict[str, tuple[str, ...]] = {
    "1829": (*_POT, "trick_rate", "value_factor", "bete", "hand_multiplier", "short_pair"),
    "modern": _MODERN,
    "illustrated": (*_MODERN, "nonsuit_values", "nonsuit_hand_multiplier"),
    "swabian": ("kunstwerk",),
    "american": (*_POT, "payout_mode", "payout", "failure_penalty"),
}


#: Each value of a choice, as players say it (the setting's sentence explains them all).
VALUE_LABELS: dict[tuple[str, str], str] = {
    ("scoring", "bula"): N_("the bula sheet"),
    ("scoring", "pot"): N_("the pot form"),
    ("system", "1829"): N_("Vienna 1829"),
    ("system", "modern"): N_("modern Austrian"),
    ("system", "illustrated"): N_("Illustrated"),
    ("system", "swabian"): N_("Danube-Swabian"),
    ("system", "american"): N_("American"),
    ("pik_without_contra", "refe"): N_("refe for all"),
    ("pik_without_contra", "made"): N_("made without play"),
    ("pik_without_contra", "slovenia"): N_("the Slovenian way"),
    ("pik_without_contra", "play"): N_("played"),
    ("pik_refe_fallback_causes", "both"): N_("both causes"),
    ("pik_refe_fallback_causes", "limit_only"): N_("the refe limit only"),
    ("pik_refe_fallback_causes", "under_hat_only"): N_("a bula under the hat only"),
    ("last_game", "truncate"): N_("truncated"),
    ("last_game", "full"): N_("in full"),
    ("last_game", "double_fall"): N_("a failure doubled"),
    ("pot_refill", "before_short_deal"): N_("before a deal the pot cannot pay"),
    ("pot_refill", "when_empty"): N_("when the pot is empty"),
    ("pot_remainder", "split"): N_("shared equally"),
    ("pot_remainder", "carry"): N_("carried to the next game"),
    ("short_pair", "literal"): N_("each pays everyone's tricks"),
    ("short_pair", "split"): N_("they share the declarer's"),
    ("trick_pay_rule", "all"): N_("to every defender who played"),
    ("trick_pay_rule", "quota"): N_("only to those with 2 or more"),
    ("pot_mode", "fixed"): N_("fixed"),
    ("pot_mode", "unlimited"): N_("unlimited"),
    ("pot_mode", "limited"): N_("limited"),
    ("pot_mode", "styrian"): N_("Styrian"),
    ("payout_mode", "per_trick"): N_("per trick"),
    ("payout_mode", "per_contract"): N_("per contract"),
    ("ten_nt", "off"): N_("no 10NT"),
    ("ten_nt", "A"): N_("10NT worth 11"),
    ("ten_nt", "B"): N_("10NT worth 10"),
    ("four_aces", "off"): N_("not paid"),
    ("four_aces", "kassa"): N_("off the holder's kassa"),
    ("four_aces", "chips"): N_("in chips from each"),
    ("end", "all"): N_("every kassa empty"),
    ("end", "two"): N_("two kassas empty"),
}


def read_by(settings: Any, name: str) -> bool:
    """Whether the preset's own rules read setting ``name`` (the pot's systems share a model)."""
    system = getattr(settings, "system", None)
    if system is None or name in FIXED:
        return True
    return name in POT_SYSTEMS[system]


def kind_of(name: str, field: FieldInfo) -> Kind:
    """How the new-game screen offers a setting."""
    if name in FIXED:
        return "shown"
    ann = field.annotation
    if ann is bool:
        return "switch"
    if typing.get_origin(ann) is Literal:
        return "choice"
    if _int(ann):
        return "number"
    return "shown"


def choices(field: FieldInfo) -> tuple[str, ...]:
    return tuple(str(v) for v in typing.get_args(field.annotation))


def optional(field: FieldInfo) -> bool:
    """``None`` is one of its values (an empty field: "no limit", "the default payout")."""
    return type(None) in typing.get_args(field.annotation)


def bounds(field: FieldInfo) -> tuple[int, int, int]:
    """(lowest, highest, step) of a whole-number setting, read from the model's constraints."""
    lo, hi, step = 0, 10**6, 1
    found = list(field.metadata)
    for arg in typing.get_args(field.annotation):  # int | None written as Optional[Annotated]
        found += list(getattr(arg, "__metadata__", ()))
    for m in found:
        if isinstance(m, Ge):
            lo = int(m.ge)  # type: ignore[call-overload]
        elif isinstance(m, Le):
            hi = int(m.le)  # type: ignore[call-overload]
        elif isinstance(m, MultipleOf):
            step = int(m.multiple_of)  # type: ignore[call-overload]
    return lo, hi, step


def number_refusal(field: FieldInfo, text: str) -> Msg | None:
    """Why ``text`` is not a value of this setting, or None."""
    text = text.strip()
    if not text and optional(field):
        return None
    lo, hi, step = bounds(field)
    ok = re.fullmatch(r"\d{1,7}", text) is not None and lo <= int(text) <= hi
    if ok and int(text) % step == 0:
        return None
    if step == 2:
        return msg(N_("an even number from {lo} to {hi}"), lo=lo, hi=hi)
    return msg(N_("a whole number from {lo} to {hi}"), lo=lo, hi=hi)


def number_value(text: str) -> int | None:
    """The number typed; empty is None (an optional setting's "none")."""
    text = text.strip()
    return int(text) if text else None


def _int(ann: Any) -> bool:
    if ann is int:
        return True
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        return len(args) == 1 and _int(
            typing.get_args(args[0])[0] if _annotated(args[0]) else args[0]
        )
    return _annotated(ann) and typing.get_args(ann)[0] is int


def _annotated(ann: Any) -> bool:
    return typing.get_origin(ann) is typing.Annotated


#: A price by trump, shown by the suit's sign (the file's keys C, S, D, H are no player's words).
SUIT_SIGNS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}


def shown_value(name: str, value: Any) -> Msg:
    """A setting that is shown, not edited, as players say it: a choice by its words, prices by
    trump with the suit's sign ("♣ 1, ♠ 2, ♦ 3, ♥ 4"), the Illustrated games by their names,
    two amounts side by side; never a key or a value as the file writes it."""
    from ...core.numbers import to_text
    from ...scoring.ledger.pot import NONSUIT_NAMES

    if isinstance(value, str) and (name, value) in VALUE_LABELS:
        return msg(VALUE_LABELS[name, value])
    if isinstance(value, dict):
        parts: dict[str, Msg | str] = {}
        for i, (key, amount) in enumerate(value.items()):
            if key in SUIT_SIGNS:
                parts[f"p{i}"] = f"{SUIT_SIGNS[key]} {to_text(amount)}"
            else:
                game = msg(NONSUIT_NAMES[key])
                parts[f"p{i}"] = Msg("{name} {amount}", {"name": game, "amount": to_text(amount)})
        return Msg(", ".join(f"{{{k}}}" for k in parts), parts)
    if isinstance(value, tuple | list):
        places = {f"p{i}": to_text(v) for i, v in enumerate(value)}
        return Msg(", ".join(f"{{{k}}}" for k in places), places)
    if value is None:
        return Msg("—", {})
    if isinstance(value, bool):
        return Msg("✓" if value else "✗", {})
    return Msg("{v}", {"v": to_text(value) if isinstance(value, int) else str(value)})
