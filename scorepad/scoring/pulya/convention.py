"""Convention settings (конвенция): the public vocabulary of ``convention-settings.md``.

A convention is data: a preset file in ``conventions/`` names a value for every setting, a
session may override some, and the engine reads settings, never a convention's name.
Settings beyond the public table are the rules of ``rules-research.md`` that needed a switch
(each DISAGREEMENT there is two values of one setting).
"""

from __future__ import annotations

import difflib
import tomllib
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ...core.i18n import N_, Msg, OwnWords, ScorepadError, msg
from ..peek import conventions_dir, family_ids
from .session import FieldRefused, pydantic_problem, quote

LEVELS = ("6", "7", "8", "9", "10")
PRICED = (*LEVELS, "misere")


def _table(keys: tuple[str, ...]) -> Any:
    def check(table: dict[str, int]) -> dict[str, int]:
        missing = [k for k in keys if k not in table]
        extra = [k for k in table if k not in keys]
        if missing:
            raise FieldRefused(
                msg(
                    N_("needs exactly the keys {keys}; missing {missing}"),
                    keys=", ".join(keys),
                    missing=", ".join(missing),
                )
            )
        if extra:
            raise FieldRefused(
                msg(
                    N_("needs exactly the keys {keys}; unknown {unknown}"),
                    keys=", ".join(keys),
                    unknown=", ".join(quote(k) for k in extra),
                )
            )
        if any(v < 0 for v in table.values()):
            raise FieldRefused(msg(N_("values must not be negative")))
        return table

    return check


NonNegative = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]


class Settings(BaseModel):
    """Every setting of a convention.  Frozen: a session freezes its settings at the start.

    A setting added after a release must have a default equal to the rule before it existed:
    sessions stored earlier hold their settings without it (see tests/fixtures/schema-1.db).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    # --- the public vocabulary (convention-settings.md) -----------------------------------
    game_price: dict[str, int] = Field(
        description="Pool points for a made 6, 7, 8, 9, 10 and misère."
    )
    whist_trick_factor: Positive = Field(
        description="Whists a defender writes per trick: the contract price times this."
    )
    remiz_factor: Positive = Field(
        description="The declarer's gora per undertrick: the contract price times this."
    )
    misere_trick_penalty: Positive = Field(description="Gora per trick the misère player takes.")
    whist_obligation: dict[str, int] = Field(
        description="Tricks the defence must take on a 6, 7, 8, 9 and 10."
    )
    whist_responsibility: Literal["full", "half"] = Field(
        description="A whister's gora per missing trick: the full price or half of it."
    )
    responsible_whister: Literal["second", "split", "both"] = Field(
        description="On 8, 9 and 10 with two whisters: who answers for the missing tricks."
    )
    whist_style: Literal["greedy", "gentleman"] = Field(
        description="One defender whists, the other passes, the declarer fails: greedy whist, or gentleman whist (the whists split in half)."
    )
    consolation: Literal["trick"] | NonNegative = Field(
        description="Whists each defender writes per undertrick: as many as per trick, or a fixed number."
    )
    consolation_to_dealer: bool = Field(
        description="With 4 players the dealer, who sits out, writes consolation too."
    )
    half_whist: list[Literal[6, 7, 8, 9, 10]] = Field(
        description="Contracts on which a half-whist is allowed."
    )
    ten: Literal["whisted", "checked"] = Field(
        description="A ten is whisted, or checked with all hands open."
    )
    raspasy_scoring: Literal["gora", "whists"] = Field(
        description="All-pass tricks go into the gora, or are paid in whists by the player with the fewest."
    )
    raspasy_trick_price: Positive = Field(
        description="Gora (or whists) per trick on the first all-pass."
    )
    raspasy_progression: list[Positive] = Field(
        min_length=1,
        description="Multipliers for the 1st, 2nd, 3rd… all-pass in a row; the last one repeats.",
    )
    raspasy_amnesty: bool = Field(
        description="On all-pass the smallest trick count is subtracted from everyone's."
    )
    raspasy_zero_pool: Literal["trick"] | NonNegative = Field(
        description="The reward for taking no trick on all-pass: one trick at the current price, or a fixed number."
    )
    raspasy_exit: list[Literal[6, 7, 8, 9, 10]] = Field(
        min_length=1,
        description="The lowest contract that ends an all-pass series after the 1st, 2nd… all-pass; the last one repeats.",
    )
    pool_help: Literal["highest", "clockwise", "none"] = Field(
        description="Where points past a closed pulya go: to the highest open pulya, clockwise, or nowhere."
    )
    help_whists: NonNegative = Field(
        description="Whists written on the helped player per point of help."
    )
    game_end: Literal["all_closed", "total"] = Field(
        description="The game ends when every pulya is closed, or when the pulyas add up to their size times the number of players."
    )
    pool_point_whists: NonNegative = Field(
        description="Whists one pulya point is worth at the settlement."
    )
    gora_point_whists: Positive = Field(
        description="Whists one gora point is worth at the settlement."
    )
    gora_divisor: Literal["players", "others", "none"] = Field(
        description="A gora is shared among all players, among the others, or compared pair by pair."
    )
    stalingrad: bool = Field(description="A 6♠ must be whisted by both defenders.")
    concede: Literal["none"] | Positive = Field(
        description="The declarer may give up before the whists for this many undertricks, or not at all."
    )
    talon_bonus: bool = Field(
        description="With 4 players the dealer writes whists on the declarer for the talon's tricks."
    )

    # --- further rules of rules-research.md -------------------------------------------------
    failed_whister_writes_tricks: bool = Field(
        description="A whister who fell short still writes whists for the tricks taken."
    )
    whist_quota: Literal["shared", "personal"] = Field(
        description="The defence's tricks are owed together, or each whister owes half of them."
    )
    passer_consolation: Literal["passer", "whister", "none"] = Field(
        description="Greedy whist: the passer's consolation is written by the passer, by the whister, or by nobody."
    )
    long_half_whist: bool = Field(
        description="The first defender may say half-whist after the partner's pass: whist, pass, half-whist."
    )
    pass_pass_whist: bool = Field(
        description="With 3 players, on 8 and higher the first defender may whist after two passes."
    )
    dealer_whist: bool = Field(
        description="With 4 players the dealer may return a half-whist, or whist on 8 and higher after two passes."
    )
    misere_share: Literal["half", "third"] = Field(
        description="A misère shared with the dealer of a 4-player table: each writes half, or a third."
    )
    misere_bonus_whists: NonNegative = Field(
        description="Whists a made misère writes on each other player, besides the pulya."
    )
    raspasy_talon: Literal["open", "closed"] = Field(
        description="On all-pass the talon is opened (with 4 players the dealer plays its cards), or never opened."
    )
    raspasy_zero_target: Literal["pool", "gora"] = Field(
        description="The reward for no tricks on all-pass goes into the pulya, or comes off the gora, even below zero."
    )
    raspasy_dealer_zero: bool = Field(
        description="With 4 players a dealer whose talon took no trick gets the no-trick reward too; off: the dealer never does."
    )
    raspasy_exit_by_failure: bool = Field(description="A failed contract ends an all-pass series.")
    raspasy_exit_by_unwhisted: bool = Field(
        description="A game nobody whisted, or a checked ten, ends an all-pass series."
    )
    raspasy_exit_by_misere: bool = Field(description="A misère ends an all-pass series.")
    help_overflow: Literal["gora", "lost", "gora_ratio"] = Field(
        description="Points nobody can take as help come off the player's own gora point for point, are lost, or come off it at the rate of a pulya point to a gora point."
    )
    settlement_rounding: Literal["exact", "kodex"] = Field(
        description="Settle in exact fractions, or round the goras to whole whists as the Kodex does."
    )
    # Added after the first release: the default is the behaviour before the setting existed,
    # so a session frozen earlier still scores the same (preset files name it all the same).
    must_overtake: bool = Field(
        default=False,
        description="In play a player who follows suit or trumps must beat the winning card where possible (not a Russian rule).",
    )
    rounding_whists: Positive = Field(
        description="Rounding as in the Kodex: whists each other player writes per gora point moved."
    )
    # House rules of issue 9, added later still: each default is the rule before it existed.
    ten_checked_whists: bool = Field(
        default=True,
        description="On a checked ten the defenders write whists for their tricks and consolation; off: a failed checked ten writes only the declarer's gora.",
    )
    gentleman_on_made: bool = Field(
        default=False,
        description="Gentleman whist also on a made contract: the whister and the passer split the defence's whists in half.",
    )
    talon_bonus_three: bool = Field(
        default=False,
        description="With 3 players the talon premium is written too: each opponent writes half of it on the declarer, besides the whists for tricks.",
    )
    dealer_whist_liable: bool = Field(
        default=True,
        description="A dealer who sits out and whists answers for the defence's missing tricks; off: the dealer does not.",
    )
    dealer_whist_consolation: Literal["all", "one"] = Field(
        default="all",
        description="A dealer who sits out and whists writes every player's consolation, or one consolation only.",
    )
    returned_half_consolation: Literal["returner", "lapses"] = Field(
        default="returner",
        description="A returned whist and a failed declarer: the half-whister's consolation is written by the player who returned the whist, or lapses.",
    )
    raspasy_zero_tricks: Positive = Field(
        default=1,
        description="When the no-trick reward is a trick: how many tricks at the current all-pass price it is worth, into the pulya or off the gora.",
    )
    # The revoke rule (issue 37), added later still: the Kodex's own penalty is the default.
    revoke: Literal["one_trick", "two_tricks", "rest"] = Field(
        default="one_trick",
        description="A revoke found after its trick: the offender's side gives the other side one trick, two tricks, or every trick from the revoke's trick on.",
    )

    @field_validator("game_price")
    @classmethod
    def _game_price(cls, v: dict[str, int]) -> dict[str, int]:
        return _table(PRICED)(v)  # type: ignore[no-any-return]

    @field_validator("whist_obligation")
    @classmethod
    def _obligation(cls, v: dict[str, int]) -> dict[str, int]:
        return _table(LEVELS)(v)  # type: ignore[no-any-return]

    # --- derived values the rules use -------------------------------------------------------
    def price(self, level: int) -> int:
        """Pool points for a made contract of this level."""
        return self.game_price[_KEY[level]]

    @property
    def price_misere(self) -> int:
        return self.game_price["misere"]

    def trick_whists(self, level: int) -> int:
        """Whists per defence trick (§4.1)."""
        return self.game_price[_KEY[level]] * self.whist_trick_factor

    def remiz(self, level: int) -> int:
        """Declarer's gora per undertrick (§5.1)."""
        return self.game_price[_KEY[level]] * self.remiz_factor

    def consolation_whists(self, level: int) -> int:
        """Whists each defender writes per undertrick (§5.2)."""
        return self.trick_whists(level) if self.consolation == "trick" else self.consolation

    def obligation(self, level: int) -> int:
        return self.whist_obligation[_KEY[level]]


_KEY = {int(k): k for k in LEVELS}

SETTING_NAMES: tuple[str, ...] = tuple(Settings.model_fields)


class ConventionError(ScorepadError):
    """A preset file or an override is not a valid convention; the message names the setting.

    Raised with the text (pydantic's own words name the constraint exactly); ``message`` carries it.
    """

    def __init__(self, text: str | Msg) -> None:
        super().__init__(text if isinstance(text, Msg) else Msg("{detail}", {"detail": text}))


class OverridesRefused(ConventionError):
    """A session's overrides are refused: ``reasons`` says why, one line each, in the catalogs'
    words (a session file's reader shows them in the player's language)."""

    def __init__(self, reasons: list[Msg]) -> None:
        self.reasons = reasons
        lines = {f"p{i}": r for i, r in enumerate(reasons)}
        super().__init__(Msg("\n".join(f"overrides: {{{k}}}" for k in lines), lines))


class Preset(OwnWords, BaseModel):
    """A convention preset: who it is, and every setting (its base's, with its own on top)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    name_ru: str
    summary: str
    summary_ru: str
    names: dict[str, str] = Field(default_factory=dict)  # the other languages: {"de": …}
    summaries: dict[str, str] = Field(default_factory=dict)
    base: str | None = None
    settings: Settings


def _refused_overrides(error: ValidationError) -> list[Msg]:
    """Why a session's overrides are refused, each as a sentence of the catalogs."""
    reasons = []
    for e in error.errors():
        loc = [p for p in e["loc"] if not str(p).startswith(("literal[", "function-"))]
        if e["type"] != "extra_forbidden":
            reasons.append(pydantic_problem({**e, "loc": tuple(loc)}).sentence())
            continue
        name = str(loc[-1])
        close = difflib.get_close_matches(name, SETTING_NAMES, n=1)
        if close:
            reasons.append(
                msg(
                    N_("unknown setting {name} (did you mean {close}?)"),
                    name=quote(name),
                    close=quote(close[0]),
                )
            )
        else:
            reasons.append(msg(N_("unknown setting {name}"), name=quote(name)))
    return reasons


def _describe(error: ValidationError, prefix: str) -> list[str]:
    lines = []
    for e in error.errors():
        loc = [str(p) for p in e["loc"] if not str(p).startswith(("literal[", "function-"))]
        name = ".".join(loc)
        if e["type"] == "extra_forbidden":
            close = difflib.get_close_matches(loc[-1], SETTING_NAMES, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            lines.append(f"{prefix}unknown setting '{name}'{hint}")
        else:
            lines.append(f"{prefix}{name}: {e['msg']}")
    return lines


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConventionError(f"{path.name}: {exc}") from None


def load_preset_file(path: Path, *, _seen: tuple[str, ...] = ()) -> Preset:
    """Read and validate one preset file, on top of its base; a bad file fails naming the file
    and the setting (a bad base fails naming the base).

    A preset states only what differs from its ``base`` (as python-chess's variants subclass
    the standard board); the base names every setting, with the comments.
    """
    data = _read(path)
    own = data.get("settings")
    if not isinstance(own, dict):
        raise ConventionError(f"{path.name}: a [settings] table is required")
    base = data.get("base")
    settings = own
    if base is not None:
        if not isinstance(base, str):
            raise ConventionError(f"{path.name}: base must be the id of another preset")
        if base == path.stem or base in _seen:
            raise ConventionError(f"{path.name}: base '{base}' leads back to itself")
        base_path = path.with_name(f"{base}.toml")
        if not base_path.is_file():
            raise ConventionError(f"{path.name}: base '{base}' has no file {base_path.name}")
        inherited = load_preset_file(base_path, _seen=(*_seen, path.stem)).settings
        settings = inherited.model_dump() | own
    try:
        preset = Preset.model_validate({**data, "settings": settings})
    except ValidationError as exc:
        raise ConventionError("\n".join(_describe(exc, f"{path.name}: "))) from None
    if preset.id != path.stem:
        raise ConventionError(f"{path.name}: id '{preset.id}' must match the file name")
    return preset


@cache
def _preset_files() -> dict[str, Path]:
    found = {p.stem: p for p in sorted(conventions_dir().glob("*.toml"))}
    if not found:
        raise ConventionError(f"no preset files in {conventions_dir()}")
    return found


@cache
def presets() -> dict[str, Preset]:
    """Every shipped preset by id, validated; one bad file fails them all, loudly."""
    return {stem: preset(stem) for stem in _preset_files()}


@cache
def preset(convention_id: str) -> Preset:
    """A shipped preset, resolved through its bases; read on first use (a session needs only
    its own).

    >>> p = preset("piter-home")
    >>> p.base, preset(p.base).base, p.settings.help_overflow, p.settings.whist_trick_factor
    ('piter', 'leningrad', 'gora_ratio', 2)
    """
    files = _preset_files()
    if convention_id not in files:
        known = ", ".join([*files, *family_ids()])
        raise ConventionError(f"unknown convention '{convention_id}' (known: {known})")
    return load_preset_file(files[convention_id])


def settings_for(convention_id: str, overrides: dict[str, Any] | None = None) -> Settings:
    """The frozen settings of a session: the preset with ``overrides`` applied.

    An override replaces the whole value of its setting; an unknown name or a value of the
    wrong type is an error, never ignored.

    >>> settings_for("sochi", {"whist_style": "gentleman"}).whist_style
    'gentleman'
    """
    base = preset(convention_id).settings
    if not overrides:
        return base
    merged = base.model_dump() | overrides
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        raise OverridesRefused(_refused_overrides(exc)) from None
