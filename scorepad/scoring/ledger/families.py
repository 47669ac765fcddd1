"""Scoring families beside the pulya: their presets, their session files and their replay.

A convention names its family (central-european §9.1).  The pulya family is the rest of this
package; the families here — ``bula`` (the Balkan game, :mod:`.bula`), ``kassa`` (Greek Prefa,
:mod:`.kassa`), ``pot`` and ``direct`` (the Austrian games, Illustrated, Swabian and American,
:mod:`.pot`) — keep their sheets in a posting ledger (:mod:`.ledger`).  Their presets
live in ``conventions/<family>/``; a session file of theirs is ``scorepad-session/1`` with the
family's deal types (docs/session-format.md, "Other families").
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ...core.i18n import N_, Msg, OwnWords, msg
from ...core.numbers import Number, parse_price
from ..peek import FAMILIES, conventions_dir
from ..peek import family_ids as family_ids  # (their home was here)
from ..peek import peek_family as peek_family
from ..pulya.convention import ConventionError
from ..pulya.session import (
    BOUNDS,
    FORMAT,
    MAX_DEALS,
    ConventionId,
    Currency,
    FieldRefused,
    PlayerName,
    Problem,
    SessionInvalid,
    Struck,
    Uid,
    check_deal_uids,
    check_overrides,
    check_player_uids,
    distinct_names,
    file_places,
    in_file_places,
    not_json,
    pydantic_problem,
    quote,
    relocate,
    strike_out,
    with_struck,
    with_uids,
)
from ..pulya.settlement import Payment, minor_digits, payments, to_money
from .bula import BulaAllPass, BulaDeal, BulaError, BulaGame, BulaSettings, BulaTable, PikNoContra
from .bula import results as bula_results
from .kassa import KassaDeal, KassaError, KassaGame, KassaRedeal, KassaSettings, KassaTable
from .kassa import results as kassa_results
from .ledger import Posting
from .pot import AnyPotDeal, PotDeal, PotError, PotSettings, PotTable
from .pot import results as pot_results

Family = Literal["bula", "kassa", "pot", "direct"]
FamilySettings = BulaSettings | KassaSettings | PotSettings
_SETTINGS: dict[str, type[BulaSettings] | type[KassaSettings] | type[PotSettings]] = {
    "bula": BulaSettings,
    "kassa": KassaSettings,
    "pot": PotSettings,
    "direct": PotSettings,
}


class FamilyPreset(OwnWords, BaseModel):
    """A preset file of a family: names, a summary in both languages, settings over the defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    family: Family
    name: str
    name_ru: str
    summary: str
    summary_ru: str
    names: dict[str, str] = Field(default_factory=dict)  # the other languages: {"de": …}
    summaries: dict[str, str] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)

    def resolve(self, overrides: dict[str, Any] | None = None) -> FamilySettings:
        """The complete settings: the family's defaults, this preset, then ``overrides``."""
        cls = _SETTINGS[self.family]
        extra = {"family": self.family} if cls is PotSettings else {}
        # Strict: "60", 60.0 or true is not the number 60 (a file's overrides say what they mean).
        return cls.model_validate(self.settings | extra | (overrides or {}), strict=True)


@cache
def family_presets() -> dict[str, FamilyPreset]:
    """Every shipped preset of the families here, by id; a bad file fails loudly."""
    found: dict[str, FamilyPreset] = {}
    for family in FAMILIES:
        for path in sorted((conventions_dir() / family).glob("*.toml")):
            try:
                p = FamilyPreset.model_validate(tomllib.loads(path.read_text(encoding="utf-8")))
                p.resolve()
            except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
                raise ConventionError(f"{family}/{path.name}: {exc}") from None
            if p.id != path.stem or p.family != family:
                raise ConventionError(f"{family}/{path.name}: id and family must match the path")
            found[p.id] = p
    return found


def family_of(convention: str) -> str:
    """``pulya`` unless ``convention`` is a preset of another family."""
    p = family_presets().get(convention)
    return p.family if p else "pulya"


class _Session(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["scorepad-session/1"]
    # The session's stable id (optional: a file from before issue #36 has none).
    uid: Uid | None = None
    # Three, or four with the dealer sitting out (§1.1, §2.1, §4.1, §7.1; seats.py).
    players: list[PlayerName] = Field(min_length=3, max_length=4)
    # Each seat's player's stable id, in the order of ``players`` (optional).
    player_uids: list[Uid] | None = None
    convention: ConventionId
    overrides: dict[str, Any] = Field(default_factory=dict)
    first_dealer: Annotated[int, Field(strict=True, ge=0, le=3)] = 0
    whist_price: str = "1.00"
    currency: Currency = "RUB"

    @model_validator(mode="before")
    @classmethod
    def _strike(cls, data: Any) -> Any:
        return strike_out(data)  # a voided deal keeps its place (docs/session-format.md)

    @field_validator("player_uids")
    @classmethod
    def _player_uids(cls, uids: list[str] | None, info: ValidationInfo) -> list[str] | None:
        return check_player_uids(uids, info.data.get("players"))

    @field_validator("deal_uids", check_fields=False)
    @classmethod
    def _deal_uids(cls, uids: tuple[str | None, ...]) -> tuple[str | None, ...]:
        return check_deal_uids(uids)

    @property
    def places(self) -> list[int]:
        """Each live deal's place in the file (its number, counted from 0)."""
        struck: tuple[Struck[Any], ...] = getattr(self, "struck", ())
        return file_places(len(getattr(self, "deals", ())), (s.place for s in struck))

    @field_validator("players")
    @classmethod
    def _unique(cls, players: list[str]) -> list[str]:
        return distinct_names(players)

    @field_validator("overrides")
    @classmethod
    def _names(cls, overrides: dict[str, Any]) -> dict[str, Any]:
        return check_overrides(overrides)  # the names, and numbers of at most 10,000

    @field_validator("whist_price")
    @classmethod
    def _price(cls, price: str) -> str:
        try:
            value = parse_price(price)
        except ValueError:
            value = Fraction(0)
        if value <= 0:  # a decimal like '0.10' or an exact fraction like '1/60' (A12, A-E6)
            raise FieldRefused(
                msg(
                    N_(
                        "the price is a decimal string more than zero, like '1.00', or a fraction like '1/60'"
                    )
                )
            )
        return price

    @property
    def price(self) -> Fraction:
        return parse_price(self.whist_price)


class BulaSession(_Session):
    deals: list[BulaDeal] = Field(default_factory=list, max_length=MAX_DEALS)
    struck: tuple[Struck[BulaDeal], ...] = Field(default=(), exclude=True)
    deal_uids: tuple[Uid | None, ...] = Field(default=(), exclude=True)


class KassaSession(_Session):
    deals: list[KassaDeal] = Field(default_factory=list, max_length=MAX_DEALS)
    struck: tuple[Struck[KassaDeal], ...] = Field(default=(), exclude=True)
    deal_uids: tuple[Uid | None, ...] = Field(default=(), exclude=True)


class PotSession(_Session):
    deals: list[PotDeal] = Field(default_factory=list, max_length=MAX_DEALS)
    struck: tuple[Struck[PotDeal], ...] = Field(default=(), exclude=True)
    deal_uids: tuple[Uid | None, ...] = Field(default=(), exclude=True)


AnySession = BulaSession | KassaSession | PotSession
_MODELS: dict[str, TypeAdapter[Any]] = {
    "bula": TypeAdapter(BulaSession),
    "kassa": TypeAdapter(KassaSession),
    "pot": TypeAdapter(PotSession),
    "direct": TypeAdapter(PotSession),
}


@dataclass(frozen=True, slots=True)
class FamilyDeal:
    """What deal ``index`` posted."""

    index: int
    postings: tuple[Posting, ...]


@dataclass(frozen=True, slots=True)
class FamilyScored:
    """A replayed session of a ledger family: its table, each deal's postings, and results."""

    session: AnySession
    family: str
    settings: FamilySettings
    table: BulaTable | KassaTable | PotTable
    deals: tuple[FamilyDeal, ...]

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def next_dealer(self) -> int:
        """Who deals the next deal (the seat the pulya's ``Scored.next_dealer`` names too)."""
        return int(self.table.dealer)

    def results(self) -> tuple[Number, ...]:
        """Each player's result in supe (bula) or chips (kassa), zero-sum, exact."""
        return _results(self.table)

    def results_over_deals(self) -> list[tuple[Number, ...]]:
        """Each player's result after each deal (the chart), from a second replay."""
        table = start_table(self.settings, self.session)
        out = []
        for place, deal in zip(self.session.places, self.session.deals, strict=True):
            play_in_place(table, self.session, place, deal)
            out.append(_results(table))
        return out

    @property
    def numbers(self) -> list[int]:
        """Each live deal's number as said at the table (a voided deal keeps its number)."""
        return [p + 1 for p in self.session.places]

    @property
    def next_number(self) -> int:
        """The number the next deal written will have (voided deals counted)."""
        return len(self.session.deals) + len(self.session.struck) + 1

    @property
    def unit_price(self) -> Fraction:
        """The price of one unit of :meth:`results` (a supa, a unit, a chip)."""
        price = self.session.price
        if isinstance(self.settings, KassaSettings):
            price = price / self.settings.chips_per_point  # the price is of a kassa point
        return price

    def money_units(self) -> tuple[int, ...]:
        """Results × price in the currency's minor units, rounded once (largest remainder)."""
        return to_money(self.results(), self.unit_price, minor_digits(self.session.currency))

    def payments(self) -> tuple[Payment, ...]:
        return payments(self.money_units())


def parse_family_session(data: str | bytes | dict[str, Any]) -> AnySession:
    """Validate a session file of a ledger family (by its convention's preset)."""
    from pydantic_core import from_json  # bounded depth: a file nested 1,000 deep is refused

    try:
        raw = data if isinstance(data, dict) else from_json(data)
    except ValueError as exc:
        raise SessionInvalid(
            [
                Problem(
                    None,
                    None,
                    not_json(str(exc)),
                )
            ]
        ) from None
    if not isinstance(raw, dict) or not isinstance(raw.get("convention"), str):
        raise SessionInvalid([Problem(None, "convention", msg(N_("this field is required")))])
    family = family_of(raw["convention"])
    if family == "pulya":
        raise SessionInvalid(
            [
                Problem(
                    None,
                    "convention",
                    msg(N_("not a convention of the bula, kassa, pot or direct family")),
                )
            ]
        )
    try:
        session: AnySession = _MODELS[family].validate_python(raw)
    except ValidationError as exc:
        raise SessionInvalid([_problem(relocate(e, raw), family) for e in exc.errors()]) from None
    return session


_DEALS: dict[str, TypeAdapter[Any]] = {
    "bula": TypeAdapter(BulaDeal),
    "kassa": TypeAdapter(KassaDeal),
    "pot": TypeAdapter(PotDeal),
    "direct": TypeAdapter(PotDeal),
}


def parse_family_deal(family: str, data: Any, *, index: int) -> Any:
    """One deal of ``family`` checked alone (the store's entries); problems name deal ``index``."""
    try:
        return _DEALS[family].validate_python(data)
    except ValidationError as exc:
        raise SessionInvalid(
            [_problem({**e, "loc": ("deals", index, *e["loc"])}, family) for e in exc.errors()]
        ) from None


#: A deal of a ledger family, as its engine reads it (the store takes these, never a dict).
AnyFamilyDeal = BulaGame | BulaAllPass | PikNoContra | KassaGame | KassaRedeal | AnyPotDeal
_DEAL_TYPES: dict[str, tuple[type[BaseModel], ...]] = {
    "bula": get_args(get_args(BulaDeal)[0]),
    "kassa": get_args(get_args(KassaDeal)[0]),
    "pot": get_args(get_args(PotDeal)[0]),
    "direct": get_args(get_args(PotDeal)[0]),
}


def family_deal_types(family: str) -> tuple[type[BaseModel], ...]:
    """The model classes of one deal of ``family`` (a deal of another family is not one)."""
    return _DEAL_TYPES[family]


def family_deal_adapter(family: str) -> TypeAdapter[Any]:
    """The validator of one deal of ``family`` (the store reads its journal with it)."""
    return _DEALS[family]


def dump_family_session(session: AnySession) -> str:
    """The canonical JSON text of a session of a ledger family (as :func:`~scorepad.scoring.pulya.session.dump_session`)."""
    data = session.model_dump(mode="json", exclude_defaults=True)
    data["format"] = FORMAT
    ordered = {k: data[k] for k in type(session).model_fields if k in data}
    ordered["deals"] = with_uids(
        with_struck([_deal_data(d) for d in session.deals], session.struck, _deal_data),
        session.deal_uids,
    )
    return json.dumps(ordered, ensure_ascii=False, indent=2) + "\n"


def _deal_data(deal: BaseModel) -> dict[str, Any]:
    data: dict[str, Any] = deal.model_dump(mode="json", exclude_defaults=True)
    return {"type": data.pop("type"), **data}


_TAGS = ("game", "allpass", "pik_no_contra", "nonsuit", "swabian", "concede", "bete", "redeal")
#: Pydantic's refusals in the catalogs' words (its own sentences are English only).
_TYPES = {
    "int_type": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "bool_type": N_("must be true or false"),
    "bool_parsing": N_("must be true or false"),
    "string_type": N_("must be a string"),
}


def _problem(error: Any, family: str | None = None) -> Problem:
    """One refusal, in the catalogs' words, naming the family's own choices (its deal types,
    its settings, a setting's values)."""
    loc = list(error["loc"])
    if len(loc) >= 3 and loc[0] == "deals" and isinstance(loc[1], int) and loc[2] in _TAGS:
        error = {**error, "loc": (loc[0], loc[1], *loc[3:])}
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in ("union_tag_invalid", "union_tag_not_found") and family is not None:
        return _with(
            error,
            msg(
                N_("unknown deal type {type}: a deal of this game is {choices}"),
                type=quote(str(ctx.get("tag", ""))),
                choices=_choices(t.model_fields["type"].annotation for t in _DEAL_TYPES[family]),
            ),
        )
    if kind == "extra_forbidden" and loc[:1] == ["overrides"] and family is not None:
        names = [f for f in _SETTINGS[family].model_fields if f != "family"]
        return _with(
            {**error, "loc": ("overrides",)},
            msg(
                N_("unknown setting {name}; the settings of this game are {choices}"),
                name=quote(str(loc[-1])),
                choices=", ".join(names),
            ),
        )
    if kind in BOUNDS:
        text, key = BOUNDS[kind]
        return _with(error, msg(text, limit=ctx.get(key)))
    if kind in _TYPES:
        return _with(error, msg(_TYPES[kind]))
    return pydantic_problem(error)


def _with(error: Any, message: Msg) -> Problem:
    """The problem at the error's place (its deal and field, as pydantic_problem names them)."""
    where = pydantic_problem({**error, "type": "missing"})
    return Problem(where.deal, where.field, message)


def _choices(literals: Any) -> str:
    return ", ".join(a for lit in literals for a in get_args(lit))


def replay_family(session: AnySession) -> FamilyScored:
    """Check and write every deal in order; any problem refuses the whole session."""
    preset = family_presets()[session.convention]
    try:
        settings = preset.resolve(session.overrides)
    except ValidationError as exc:
        raise SessionInvalid(
            [_problem({**e, "loc": ("overrides", *e["loc"])}, preset.family) for e in exc.errors()]
        ) from None
    if len(session.players) == 4 and not four_players(settings):
        raise SessionInvalid(
            [Problem(None, "players", msg(N_("this game is played by three players")))]
        )
    if session.first_dealer >= len(session.players):
        raise SessionInvalid(
            [Problem(None, "first_dealer", msg(N_("the first dealer is a seat of the session")))]
        )
    table = start_table(settings, session)
    done: list[FamilyDeal] = []
    places = session.places
    for index, deal in enumerate(session.deals):
        try:
            postings = play_in_place(table, session, places[index], deal)
        except (BulaError, KassaError, PotError) as exc:
            problem = Problem(index, exc.field, exc.message)
            raise SessionInvalid(in_file_places([problem], places)) from None
        done.append(FamilyDeal(index, tuple(postings)))
    table.dealer = dealer_of(session, len(session.deals) + len(session.struck))
    return FamilyScored(session, preset.family, settings, table, tuple(done))


def dealer_of(session: AnySession, place: int) -> int:
    """The dealer of the deal at ``place`` in the file (its number less one): the rotation from
    ``first_dealer``, one seat on a deal.  A voided deal keeps its dealer as it keeps its number:
    its cards were dealt, so the deal had passed on (an all-pass redeal passes it on too), and
    the deals written after it keep the dealers and the sitters they were played with (issue 38
    item 2: a void in the middle of a four-player evening changes no later deal's sitter)."""
    return (session.first_dealer + place) % len(session.players)


def play_in_place(
    table: BulaTable | KassaTable | PotTable, session: AnySession, place: int, deal: Any
) -> list[Posting]:
    """Write ``deal`` onto ``table``, dealt by the dealer of its ``place`` in the file."""
    table.dealer = dealer_of(session, place)
    return table.play(deal)


def session_before(session: AnySession, index: int) -> AnySession:
    """The session as it stood before live deal ``index`` was written: the live deals before it
    and the voided ones before its place (its dealer and its number are its own)."""
    place = session.places[index] if index < len(session.deals) else None
    struck = tuple(s for s in session.struck if place is None or s.place < place)
    return session.model_copy(update={"deals": session.deals[:index], "struck": struck})


def anticlockwise(convention: str) -> bool:
    """Whether the players of ``convention`` are listed anticlockwise (the next seat is the one
    on the right): Prefa's turn order is anticlockwise (§7.1, docs/session-format.md) and the
    Balkan deal goes anticlockwise (§4.1: Serbia, SRWIKI, PKLUB; the presets are the Serbian
    clubs'), the pot form of the Balkan game alike; the Austrian, Illustrated, Swabian and
    American games and the pulya go clockwise (§1.1, §2.1, §5, §6)."""
    return family_of(convention) in ("bula", "kassa")


def four_players(settings: FamilySettings) -> bool:
    """Whether four may sit at this game, the dealer sitting out: the bula (§4.1), Prefa (§7.1;
    not with the two-kassa end, a rule for three), the Austrian games and Illustrated (§1.1,
    §2.1, B11); not the Swabian game nor the American (§5.1, §6: three)."""
    if isinstance(settings, KassaSettings):
        return settings.end == "all"
    if isinstance(settings, PotSettings):
        return settings.system in ("1829", "modern", "illustrated")
    return True


def start_table(settings: FamilySettings, session: AnySession) -> BulaTable | KassaTable | PotTable:
    first = session.first_dealer
    if isinstance(settings, BulaSettings):
        return BulaTable.start(settings, session.players, first_dealer=first)
    if isinstance(settings, PotSettings):
        return PotTable.start(settings, session.players, first_dealer=first)
    return KassaTable.start(settings, session.players, first_dealer=first)


def _results(table: BulaTable | KassaTable | PotTable) -> tuple[Number, ...]:
    if isinstance(table, BulaTable):
        return bula_results(table)
    if isinstance(table, PotTable):
        return pot_results(table)
    return kassa_results(table)


def settle_family(data: str | bytes | dict[str, Any]) -> FamilyScored:
    """Parse and replay a session file of a ledger family."""
    return replay_family(parse_family_session(data))


FORMAT_SESSION = FORMAT
