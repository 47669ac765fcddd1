"""The session file (``scorepad-session/1``): pydantic models of the public contract.

This module checks the *shape* of a file: types, required and unknown fields, ranges that
need no context.  The rules that need context (the convention, the seating, the deals before)
are checked by :mod:`scorepad.scoring.score` as it replays the deals.  Both report
:class:`Problem` values that name the deal index and the field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal

from babel.numbers import is_currency
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    ValidationError,
    field_validator,
)

from ..contract import Contract
from ..i18n import N_, Msg, ScorepadError, msg
from ..numbers import Number, parse_rational, to_json
from .whist import Call, shortest

FORMAT = "scorepad-session/1"
MAX_NAME = 40


def _contract(value: Any) -> Contract:
    if isinstance(value, Contract):
        return value
    if not isinstance(value, str):
        raise ValueError("a contract is a string like '7S'")
    return Contract.parse(value)


def _rational(value: Any) -> Number:
    if isinstance(value, bool):
        raise ValueError("a number is an integer or a string like '-88/3'")
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        return parse_rational(value)
    raise ValueError("a number is an integer or a string like '-88/3'")


ContractField = Annotated[
    Contract, PlainValidator(_contract), PlainSerializer(lambda c: c.code, return_type=str)
]
Rational = Annotated[
    Number, PlainValidator(_rational), PlainSerializer(to_json, return_type=int | str)
]
Tricks = Annotated[int, Field(strict=True, ge=0, le=10)]
Seat = Annotated[int, Field(strict=True, ge=0, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Played(_Model):
    """Fields every played deal may carry."""

    dealer: Seat | None = None
    dealer_override: StrictBool = False
    note: str | None = None


class Game(_Played):
    """A contract of 6-10 tricks, with the defenders' whist calls and the tricks taken."""

    type: Literal["game"]
    declarer: Seat
    contract: ContractField
    calls: list[Call] | None = None
    open: StrictBool = False
    tricks: dict[int, Tricks] | None = None
    talon_bonus: Annotated[int, Field(strict=True, ge=0, le=3)] | None = None
    conceded: Annotated[int, Field(strict=True, ge=1, le=10)] | None = None

    @field_validator("calls")
    @classmethod
    def _shortest(cls, calls: list[Call] | None) -> list[Call] | None:
        # Passes at the end of a sequence change nothing; the shortest form is canonical.
        return None if calls is None else list(shortest(calls))


class Misere(_Played):
    """A misère: the declarer must take no trick."""

    type: Literal["misere"]
    declarer: Seat
    tricks: dict[int, Tricks]
    shared_with_dealer: StrictBool = False


class Raspasy(_Played):
    """All passed (распасы): everyone plays for the fewest tricks."""

    type: Literal["raspasy"]
    tricks: dict[int, Tricks]


class Correction(_Model):
    """A manual entry, as on paper, with a reason: ``whists`` are written BY ``seat`` ON others."""

    type: Literal["correction"]
    seat: Seat
    pool: Rational | None = None
    gora: Rational | None = None
    whists: dict[int, Rational] | None = None
    note: str = Field(min_length=1)


Deal = Annotated[Game | Misere | Raspasy | Correction, Field(discriminator="type")]
PlayedDeal = Game | Misere | Raspasy


def player_name(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a player name is a string")
    name = value.strip()
    if not name:
        raise ValueError("a player name must not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a player name is at most {MAX_NAME} characters")
    return name


PlayerName = Annotated[str, PlainValidator(player_name)]
_PRICE = re.compile(r"\d{1,12}(\.\d{1,6})?")


class Session(_Model):
    """A whole session file: seating, convention, stakes and the deals in order."""

    format: Literal["scorepad-session/1"]
    players: list[PlayerName] = Field(min_length=3, max_length=4)
    convention: str
    overrides: dict[str, Any] = Field(default_factory=dict)
    pool_target: Annotated[int, Field(strict=True, ge=1, le=10_000)]
    first_dealer: Seat = 0
    whist_price: str = "1.00"
    currency: str = "RUB"
    deals: list[Deal] = Field(default_factory=list)

    @field_validator("players")
    @classmethod
    def _unique(cls, players: list[str]) -> list[str]:
        seen: dict[str, str] = {}
        for name in players:
            key = name.casefold()
            if key in seen:
                raise ValueError(f"the name {name!r} is used twice")
            seen[key] = name
        return players

    @field_validator("whist_price")
    @classmethod
    def _price(cls, price: str) -> str:
        if not _PRICE.fullmatch(price):
            raise ValueError("the whist price is a decimal string like '1.00'")
        return price

    @field_validator("currency")
    @classmethod
    def _currency(cls, code: str) -> str:
        if not is_currency(code):
            raise ValueError(f"{code!r} is not an ISO 4217 currency code")
        return code

    @property
    def price(self) -> Decimal:
        return Decimal(self.whist_price)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a session: where (deal index, field) and why (a sentence)."""

    deal: int | None
    field: str | None
    message: Msg

    def render(self, lang: str = "en") -> str:
        return self.sentence().render(lang)

    def sentence(self) -> Msg:
        """``deal 3: calls: …``: where, then why, as one message to render in any language."""
        args: dict[str, Any] = {"text": self.message}
        if self.field:
            args["field"] = self.field
        if self.deal is not None:
            # ``deal`` is the index in the file; a sentence counts deals from 1, as every screen.
            args["deal"] = msg(N_("deal {index}"), index=self.deal + 1)
        return Msg(": ".join(f"{{{k}}}" for k in ("deal", "field", "text") if k in args), args)


class SessionInvalid(ScorepadError):
    """The session file is not valid; ``problems`` says every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = {f"p{i}": p.sentence() for i, p in enumerate(problems)}
        super().__init__(Msg("\n".join(f"{{{k}}}" for k in lines), lines))

    def render(self, lang: str = "en") -> list[str]:
        return [p.render(lang) for p in self.problems]


_PYDANTIC_MESSAGES = {
    "missing": N_("this field is required"),
    "extra_forbidden": N_("unknown field"),
    "int_type": N_("must be a whole number"),
    "bool_type": N_("must be true or false"),
    "string_type": N_("must be a string"),
    "list_type": N_("must be a list"),
    "dict_type": N_("must be an object"),
    "union_tag_not_found": N_("a deal needs a 'type': game, misere, raspasy or correction"),
    "union_tag_invalid": N_("unknown deal type; use game, misere, raspasy or correction"),
    "json_invalid": N_("the file is not valid JSON ({detail})"),
    "model_type": N_("must be an object"),
    "model_attributes_type": N_("must be an object"),
}


def pydantic_problem(error: Any) -> Problem:
    loc = list(error["loc"])
    deal = None
    tag = None
    if len(loc) >= 2 and loc[0] == "deals" and isinstance(loc[1], int):
        deal = loc[1]
        if len(loc) > 2 and loc[2] in ("game", "misere", "raspasy", "correction"):
            tag, loc = loc[2], loc[3:]
        else:
            loc = loc[2:]
    fieldname = ".".join(str(p) for p in loc) or None
    kind = error["type"]
    if kind == "extra_forbidden" and tag == "misere" and fieldname == "calls":
        return Problem(deal, fieldname, msg(N_("a misère is not whisted: it has no calls")))
    if kind == "json_invalid":
        return Problem(None, None, msg(_PYDANTIC_MESSAGES[kind], detail=error["ctx"]["error"]))
    if fieldname == "format" or (not loc and kind in ("model_type", "dict_type")):
        return Problem(
            None,
            "format",
            msg(N_("this is not a Scorepad session (format must be '{format}')"), format=FORMAT),
        )
    if kind in _PYDANTIC_MESSAGES:
        return Problem(deal, fieldname, msg(_PYDANTIC_MESSAGES[kind]))
    # Pydantic's own sentence names the constraint exactly (a range, a pattern, a choice).
    text = error["msg"].removeprefix("Value error, ")
    return Problem(deal, fieldname, Msg("{detail}", {"detail": text}))


def parse_session(data: str | bytes | dict[str, Any]) -> Session:
    """Validate the shape of a session file (JSON text or an already parsed object).

    Raises :class:`SessionInvalid` with one :class:`Problem` per error.
    """
    try:
        if isinstance(data, dict):
            return Session.model_validate(data)
        return Session.model_validate_json(data)
    except ValidationError as exc:
        errors = exc.errors()
        # A file that is not a session gets one line, not one per missing field.
        wrong_format = [e for e in errors if tuple(e["loc"]) == ("format",) or not e["loc"]]
        chosen = wrong_format[:1] if wrong_format else errors
        raise SessionInvalid([pydantic_problem(e) for e in chosen]) from None


def deal_data(deal: Deal) -> dict[str, Any]:
    """A deal as the session file writes it: ``type`` first, defaults left out, calls shortest."""
    data: dict[str, Any] = deal.model_dump(mode="json", exclude_defaults=True)
    return {"type": data.pop("type"), **data}


def dump_session(session: Session) -> str:
    """The canonical JSON text of a session: defaults left out, calls in shortest form.

    Export → import → export is byte-identical because this form is a fixed point.
    """
    data = session.model_dump(mode="json", exclude_defaults=True)
    data["format"] = FORMAT
    ordered = {k: data[k] for k in Session.model_fields if k in data}
    ordered["deals"] = [deal_data(d) for d in session.deals]
    return json.dumps(ordered, ensure_ascii=False, indent=2) + "\n"
