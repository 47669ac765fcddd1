"""The session file (``scorepad-session/1``): pydantic models of the public contract.

This module checks the *shape* of a file: types, required and unknown fields, ranges that
need no context.  The rules that need context (the convention, the seating, the deals before)
are checked by :mod:`scorepad.scoring.pulya.score` as it replays the deals.  Both report
:class:`Problem` values that name the deal index and the field.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Annotated, Any, Generic, Literal, TypeVar

from babel.numbers import is_currency
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ...core.i18n import N_, Msg, ScorepadError, msg
from ...core.numbers import PRICE, Number, parse_price, parse_rational, to_json
from ..contract import Contract
from ..lookalike import skeleton
from .whist import Call, shortest

FORMAT = "scorepad-session/1"
MAX_NAME = 40
MAX_NOTE = 1000
#: A void's or an edit's reason: the same limit in a file (``"voided"``), a club file's changes
#: and the store, so that what a file holds is what the store keeps.
MAX_REASON = 200
#: Deals in one session: a long evening has a few hundred; this bounds memory and time.
MAX_DEALS = 10_000
#: The largest amount one correction may write (pool, gora or whists): far beyond any sheet.
MAX_ENTRY = 1_000_000
#: A sheet's fractions are halves, thirds, quarters, sixths: a correction's denominator is 1-12.
MAX_DENOMINATOR = 12
#: The largest number a convention setting may hold (prices, factors, whists per point).
MAX_SETTING = 10_000
#: How much of a refused value an error line quotes.
QUOTE = 24

# Characters that forge lines, clear screens or reorder a sentence (bidi overrides, isolates,
# marks), and invisible ones that make two names look the same.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = frozenset("\u200b\u2060\ufeff\u00ad")
_ZERO_WIDTH = _INVISIBLE | frozenset("\u200c\u200d")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Joiners that Persian, the Indic scripts and emoji need: the only format characters allowed.
_JOINERS = frozenset("\u200c\u200d")
#: Default-ignorable code points that are not format characters (Unicode's
#: DerivedCoreProperties), and the blank Braille pattern: each draws nothing.
_BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u2800") | frozenset(
    chr(c) for c in [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0000, 0xE1000)]
)


def _refused_char(ch: str) -> bool:
    """A control, bidi, invisible or default-ignorable character: it forges or hides text."""
    category = unicodedata.category(ch)
    if category == "Cf":
        return ch not in _JOINERS
    return ch in _BLANK or category in _REFUSED_CATEGORIES


class FieldRefused(ValueError):
    """A value the format refuses, with a sentence to translate (pydantic carries it through)."""

    def __init__(self, message: Msg) -> None:
        self.message = message
        super().__init__(message.render())


_TEXT = {
    "name": (
        N_("a player name must not contain the character {char}"),
        N_("a player name is at most {limit} characters"),
    ),
    "note": (
        N_("a note must not contain the character {char}"),
        N_("a note is at most {limit} characters"),
    ),
    "reason": (
        N_("a reason must not contain the character {char}"),
        N_("a reason is at most {limit} characters"),
    ),
    "season": (
        N_("a season name must not contain the character {char}"),
        N_("a season name is at most {limit} characters"),
    ),
    "announcement": (
        N_("an announcement must not contain the character {char}"),
        N_("an announcement has at most {limit} characters"),
    ),
}
TextKind = Literal["name", "note", "reason", "season", "announcement"]


def shown(text: str) -> str:
    """Text kept before the checks (an older Scorepad's row) as a line shows it: a control,
    bidi or hidden character escaped, so that it never drives the terminal.

    >>> shown("Fr\\x1b[2Jidays")
    'Fr\\\\x1b[2Jidays'
    """
    if all(ch.isprintable() and ch not in _BIDI and not _refused_char(ch) for ch in text):
        return text
    return "".join(
        ch
        if ch.isprintable() and ch not in _BIDI and not _refused_char(ch)
        else repr(ch)[1:-1]
        if ch.isascii()
        else f"\\u{ord(ch):04x}"
        for ch in text
    )


def quote(value: str, limit: int = QUOTE) -> str:
    """A refused value as an error line shows it: a short, escaped prefix, never the whole.

    >>> quote("x" * 30)
    "'xxxxxxxxxxxxxxxxxxxxxxxx…'"
    >>> quote("7S\\n")
    "'7S\\\\n'"
    """
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit] + "…")


def clean_text(value: str, what: TextKind, *, limit: int) -> str:
    """Text a player reads (a name, a note): NFC, no control, bidi or invisible characters.

    >>> clean_text("Anna\\u202e", "name", limit=40)
    Traceback (most recent call last):
    ...
    scorepad.scoring.pulya.session.FieldRefused: a player name must not contain the character U+202E
    """
    bad_char, too_long = _TEXT[what]
    if len(value) > 4 * limit:  # before normalising a huge string
        raise FieldRefused(msg(too_long, limit=limit))
    text = unicodedata.normalize("NFC", value)
    for ch in text:
        if ch in _BIDI or ch in _INVISIBLE or _refused_char(ch):
            raise FieldRefused(msg(bad_char, char=f"U+{ord(ch):04X}"))
    if len(text) > limit:
        raise FieldRefused(msg(too_long, limit=limit))
    return text


def look_alike(name: str) -> str:
    """The key under which two names look the same: case folded, zero-width dropped, then the
    TR39 skeleton (:mod:`..lookalike`: a Cyrillic ``А`` or a Greek ``ο`` in a Latin name).

    >>> look_alike("\\uff21nna") == look_alike("anna\\u200b") == look_alike("\\u0410nna")
    True
    >>> look_alike("Gleb") == look_alike("GIeb") and look_alike("Oleg") == look_alike("0leg")
    True
    """
    text = "".join(ch for ch in name if ch not in _ZERO_WIDTH)
    key = skeleton(text)
    if any(unicodedata.name(ch, "").startswith("LATIN") for ch in text):
        # TR39 keeps I (folded to i), l and 1 apart, and O and 0: in a Latin name they are the
        # same stroke and the same ring (Gleb and GIeb, Ilya and lIya, Oleg and 0leg).
        key = key.translate(_LATIN_FOLD)
    return key


#: What a Latin name's skeleton folds on top of TR39's: 1 (the class of l, L and |) to i (of
#: I and i), 0 to o (of O and o).
_LATIN_FOLD = str.maketrans({"1": "i", "0": "o"})


def parse_contract(value: Any) -> Contract:
    """A contract code of a file (``7S``), or a sentence in the catalogs' words."""
    if isinstance(value, Contract):
        return value
    if not isinstance(value, str):
        raise FieldRefused(msg(N_("a contract is a string like '7S'")))
    if len(value) > len("10NT"):
        raise FieldRefused(
            msg(
                N_("{value} is not a contract: level 6-10 and S, C, D, H or NT, like '7S'"),
                value=quote(value),
            )
        )
    try:
        return Contract.parse(value)
    except ValueError:  # the contract's own sentence is English only: the catalogs' one
        raise FieldRefused(
            msg(
                N_("{value} is not a contract: level 6-10 and S, C, D, H or NT, like '7S'"),
                value=quote(value),
            )
        ) from None


def _bounded(value: Number) -> Number:
    if isinstance(value, Fraction) and value.denominator > MAX_DENOMINATOR:
        raise FieldRefused(
            msg(
                N_("a fraction on a sheet has a denominator of at most {limit}"),
                limit=MAX_DENOMINATOR,
            )
        )
    if not -MAX_ENTRY <= value <= MAX_ENTRY:
        raise FieldRefused(msg(N_("a sheet entry is at most {limit} either way"), limit=MAX_ENTRY))
    return value


_NUMBER = msg(N_("a number is an integer or a string like '-88/3'"))


def _rational(value: Any) -> Number:
    if isinstance(value, bool):
        raise FieldRefused(_NUMBER)
    if isinstance(value, int | Fraction):
        return _bounded(value)
    if isinstance(value, str):
        if len(value) > QUOTE:
            raise FieldRefused(
                msg(N_("a sheet entry is at most {limit} either way"), limit=MAX_ENTRY)
            )
        try:
            return _bounded(parse_rational(value))
        except FieldRefused:
            raise
        except ValueError:
            if "/" in value and value.rpartition("/")[2].strip("0") == "":
                raise FieldRefused(
                    msg(N_("{value} has a zero denominator"), value=quote(value))
                ) from None
            raise
    raise FieldRefused(_NUMBER)


def _seat_key(value: Any, last: int = 3) -> int:
    # A key of a map by seat: "0" to "3" (JSON keys are strings), nothing else: not " 2",
    # "+2", "2.0" or "01", which int() would take.
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= last:
        return value
    if isinstance(value, str) and len(value) == 1 and "0" <= value <= str(last):
        return int(value)
    shown = quote(value) if isinstance(value, str) else repr(value)[:QUOTE]
    if last == 2:
        raise FieldRefused(msg(N_("{value} is not a seat: seats are 0 to 2"), value=shown))
    raise FieldRefused(msg(N_("{value} is not a seat: seats are 0 to 3"), value=shown))


def _note(value: str) -> str:
    return clean_text(value, "note", limit=MAX_NOTE)


ContractField = Annotated[
    Contract, PlainValidator(parse_contract), PlainSerializer(lambda c: c.code, return_type=str)
]
Rational = Annotated[
    Number, PlainValidator(_rational), PlainSerializer(to_json, return_type=int | str)
]
Tricks = Annotated[int, Field(strict=True, ge=0, le=10)]
Seat = Annotated[int, Field(strict=True, ge=0, le=3)]
SeatKey = Annotated[int, PlainValidator(_seat_key)]
Note = Annotated[str, AfterValidator(_note)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


DEAL_RECORD = "scorepad-deal/1"
MAX_RECORD = 20_000  # a whole record is about 1,500 characters


def _deal_record(value: Any) -> dict[str, Any]:
    """A deal's card record: a ``scorepad-deal/1`` object of a bounded size.

    The engine's layer does not read cards: the record is read by :mod:`scorepad.play.record`
    when it is opened (the app's deal check), and a record that breaks a rule there still
    belongs to its deal (it may be the revoke the dispute was about)."""
    if not isinstance(value, dict) or value.get("format") != DEAL_RECORD:
        raise FieldRefused(msg(N_("a deal's record is a {format} object"), format=DEAL_RECORD))
    if len(json.dumps(value, ensure_ascii=False)) > MAX_RECORD:
        raise FieldRefused(
            msg(N_("a deal's record is at most {limit} characters"), limit=MAX_RECORD)
        )
    return value


DealRecordField = Annotated[dict[str, Any], PlainValidator(_deal_record)]


class _Played(_Model):
    """Fields every played deal may carry."""

    dealer: Seat | None = None
    dealer_override: StrictBool = False
    note: Note | None = None
    # The cards of the deal, entered at the table to settle a dispute (play/record.py).
    record: DealRecordField | None = None


class Game(_Played):
    """A contract of 6-10 tricks, with the defenders' whist calls and the tricks taken."""

    type: Literal["game"]
    declarer: Seat
    contract: ContractField
    calls: list[Call] | None = None
    open: StrictBool = False
    tricks: dict[SeatKey, Tricks] | None = None
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
    tricks: dict[SeatKey, Tricks]
    shared_with_dealer: StrictBool = False


class Raspasy(_Played):
    """All passed (распасы): everyone plays for the fewest tricks."""

    type: Literal["raspasy"]
    tricks: dict[SeatKey, Tricks]


class Correction(_Model):
    """A manual entry, as on paper, with a reason: ``whists`` are written BY ``seat`` ON others."""

    type: Literal["correction"]
    seat: Seat
    pool: Rational | None = None
    gora: Rational | None = None
    whists: dict[SeatKey, Rational] | None = None
    note: Annotated[Note, Field(min_length=1)]


Deal = Annotated[Game | Misere | Raspasy | Correction, Field(discriminator="type")]
PlayedDeal = Game | Misere | Raspasy


def player_name(value: Any) -> str:
    if not isinstance(value, str):
        raise FieldRefused(msg(N_("must be a string")))
    found = _NAMES.get(value)  # the same few names, file after file: checked once
    if found is not None:
        return found
    name = clean_text(value.strip(), "name", limit=MAX_NAME)
    if not "".join(ch for ch in name if ch not in _ZERO_WIDTH).strip():
        raise FieldRefused(msg(N_("a player name must not be empty")))
    if len(_NAMES) < 4096:
        _NAMES[value] = name
    return name


_NAMES: dict[str, str] = {}  # accepted names as written → as kept


def distinct_names(players: list[str]) -> list[str]:
    """The players of a session, each once: a name twice, or one that looks like another
    (another case, a wide letter, a Cyrillic or Greek look-alike), is refused (every family)."""
    seen: dict[str, str] = {}
    for name in players:
        key = look_alike(name)
        if key in seen:
            if seen[key].casefold() == name.casefold():
                raise FieldRefused(msg(N_("the name {name} is used twice"), name=repr(name)))
            raise FieldRefused(
                msg(
                    N_("the name {name} looks like {other}: use one spelling"),
                    name=repr(name),
                    other=repr(seen[key]),
                )
            )
        seen[key] = name
    return players


def convention_id(value: Any) -> str:
    if not isinstance(value, str):
        raise FieldRefused(msg(N_("a convention is the id of a preset, like 'sochi'")))
    if not _CONVENTION.fullmatch(value):
        raise FieldRefused(
            msg(
                N_(
                    "{value} is not a convention id: letters, digits, '-' and '_', at most {limit} characters, like 'sochi'"
                ),
                value=quote(value),
                limit=MAX_NAME,
            )
        )
    return value


def currency_code(code: str) -> str:
    """An ISO 4217 code, checked without echoing a long refused value."""
    if not _CURRENCY.fullmatch(code) or not is_currency(code):
        raise FieldRefused(msg(N_("{code} is not an ISO 4217 currency code"), code=quote(code)))
    return code


def check_setting_names(overrides: dict[str, Any]) -> dict[str, Any]:
    """Names that could be settings: a long or odd one is refused, quoted short."""
    for name in overrides:
        if not _SETTING.fullmatch(name):
            raise FieldRefused(msg(N_("unknown setting {name}"), name=quote(name)))
    return overrides


def check_overrides(overrides: dict[str, Any]) -> dict[str, Any]:
    """Setting names that could be settings, numbers a sheet can hold (the convention checks
    the rest, naming the setting)."""
    check_setting_names(overrides)
    for name, value in overrides.items():
        if any(abs(n) > MAX_SETTING for n in _numbers(value)):
            raise FieldRefused(
                msg(
                    N_("{name}: a setting's numbers are at most {limit}"),
                    name=name,
                    limit=MAX_SETTING,
                )
            )
    return overrides


PlayerName = Annotated[str, PlainValidator(player_name)]
ConventionId = Annotated[str, PlainValidator(convention_id)]
Overrides = Annotated[dict[str, Any], AfterValidator(check_overrides)]
Currency = Annotated[str, AfterValidator(currency_code)]
#: The whist price: a decimal string like "1.00" (at most 12 digits and 6 decimals) or an
#: exact fraction like "1/60" (scorepad.core.numbers.PRICE).
_PRICE = PRICE
_CONVENTION = re.compile(r"[A-Za-z0-9_-]{1,40}")
_CURRENCY = re.compile(r"[A-Z]{3}")
_SETTING = re.compile(r"[a-z0-9_]{1,40}")


def _numbers(value: Any) -> Iterator[int]:
    """Every integer inside an override's value (lists and tables included)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)


# --- stable ids: a session, each player and each deal keeps its own across stores (issue #36) --

#: The field of the session, and of each deal in the file, that holds its stable id.
UID = "uid"
#: Where a parsed session keeps its deals' ids, by place (the file writes each on its deal).
DEAL_UIDS = "deal_uids"
_UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
#: What an id looks like, as the refusal shows it.
UID_EXAMPLE = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"


def _uid(value: Any) -> str:
    """A stable id: a UUID's text (a random 128-bit id), kept in lower case."""
    if not isinstance(value, str) or not _UID.fullmatch(value):
        raise FieldRefused(msg(N_("must be an id like {example}"), example=UID_EXAMPLE))
    return value.lower()


Uid = Annotated[str, PlainValidator(_uid)]


def take_uids(data: Any) -> Any:
    """Before a session is validated: each deal's ``"uid"`` leaves the deal for ``deal_uids``
    (by the deal's place in the file), so that every family's deal models read the deal alone."""
    if not isinstance(data, dict):
        return data
    if DEAL_UIDS in data:  # only the parser fills it: a file says "uid" on the deal itself
        raise FieldRefused(msg(N_("unknown field")))
    deals = data.get("deals")
    if (
        not isinstance(deals, list)
        or len(deals) > MAX_DEALS
        or not any(isinstance(d, dict) and UID in d for d in deals)
    ):
        return data
    uids = [d.get(UID) if isinstance(d, dict) else None for d in deals]
    rest = [{k: v for k, v in d.items() if k != UID} if isinstance(d, dict) else d for d in deals]
    return {**data, "deals": rest, DEAL_UIDS: uids}


def check_player_uids(uids: list[str] | None, players: list[str] | None) -> list[str] | None:
    """One id for each player, each once."""
    if uids is None:
        return None
    if players is not None and len(uids) != len(players):
        raise FieldRefused(msg(N_("one id for each player, in the order of the players")))
    return _once(uids)


def check_deal_uids(uids: tuple[str | None, ...]) -> tuple[str | None, ...]:
    _once([u for u in uids if u is not None])
    return uids


def _once(uids: list[str]) -> list[str]:
    seen: set[str] = set()
    for u in uids:
        if u in seen:
            raise FieldRefused(msg(N_("the id {uid} is given twice"), uid=u))
        seen.add(u)
    return uids


def with_uids(deals: list[Any], uids: Iterable[str | None]) -> list[Any]:
    """The file's deals (voided ones in their places), each with its id where it has one."""
    out = list(deals)
    for place, uid in enumerate(uids):
        if uid is not None and place < len(out):
            out[place] = {**out[place], UID: uid}
    return out


# --- voided deals: kept in their place, so that every deal keeps its number (issue #21) ---------

#: The field of a deal in the file that says it was voided, and why.
VOIDED = "voided"
#: Where a parsed session keeps its voided deals (never a field of the file itself).
STRUCK = "struck"
D = TypeVar("D")


class Struck(BaseModel, Generic[D]):
    """A voided deal, kept where it was written: it scores nothing, but it keeps its number and
    the deals after it keep theirs ("deal 14" stays deal 14 after deal 9 is voided)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    place: int  # its index among all the deals of the file
    reason: Annotated[str, PlainValidator(_void_reason)]
    deal: D


def _void_reason(value: Any) -> str:
    """Why a deal was voided: a text, as a note, never empty (the app asks for it too)."""
    if not isinstance(value, str):
        raise FieldRefused(msg(N_("must be a string")))
    text = reason_text(value)
    if not text:
        raise FieldRefused(msg(N_("an edit or a void needs a reason")))
    return text


def reason_text(value: str) -> str:
    """A reason as every reader keeps it: stripped, checked as a name is, at most
    :data:`MAX_REASON` characters (a file's void, a club file's change, the store's action)."""
    return clean_text(value.strip(), "reason", limit=MAX_REASON)


def strike_out(data: Any) -> Any:
    """Before a session is validated: each deal with ``"voided"`` leaves ``deals`` for
    ``struck`` (with its place), so that the scorer, the sheet and every report read the live
    deals alone, as they read a stored session's."""
    data = take_uids(data)
    if not isinstance(data, dict):
        return data
    if STRUCK in data:  # only the parser fills it: a file says "voided" on the deal itself
        raise FieldRefused(msg(N_("unknown field")))
    deals = data.get("deals")
    if (
        not isinstance(deals, list)
        or len(deals) > MAX_DEALS  # refused whole by the deals' bound (voided ones count too)
        or not any(isinstance(d, dict) and VOIDED in d for d in deals)
    ):
        return data
    live, struck = [], []
    for place, deal in enumerate(deals):
        if isinstance(deal, dict) and VOIDED in deal:
            rest = {k: v for k, v in deal.items() if k != VOIDED}
            struck.append({"place": place, "reason": deal[VOIDED], "deal": rest})
        else:
            live.append(deal)
    return {**data, "deals": live, STRUCK: struck}


def file_places(total: int, struck: Iterable[int]) -> list[int]:
    """The place in the file of each live deal (its number is the place + 1)."""
    gone = set(struck)
    return [p for p in range(total + len(gone)) if p not in gone]


def relocate(error: Any, data: Any) -> Any:
    """A pydantic error of a session that had voided deals, at the deal's place in the file
    (``deals.7.tricks``, ``deals.9.voided``), as the player counts the deals."""
    loc = list(error["loc"])
    if loc[:1] == [DEAL_UIDS] and len(loc) == 1:  # an id given twice: the deals' field
        return {**error, "loc": ("deals",)}
    if not isinstance(data, dict) or not isinstance(data.get("deals"), list) or len(loc) < 2:
        return error
    if loc[0] == DEAL_UIDS and isinstance(loc[1], int):  # already by place in the file
        return {**error, "loc": ("deals", loc[1], UID, *loc[2:])}
    deals = data["deals"]
    voided = [p for p, d in enumerate(deals) if isinstance(d, dict) and VOIDED in d]
    if not voided or not isinstance(loc[1], int):
        return error
    if loc[0] == "deals":
        live = file_places(len(deals) - len(voided), voided)
        if loc[1] < len(live):
            loc[1] = live[loc[1]]
    elif loc[0] == STRUCK and loc[1] < len(voided):
        rest = loc[2:]
        if rest and rest[0] == "reason":
            rest = [VOIDED, *rest[1:]]
        elif rest and rest[0] == "deal":
            rest = rest[1:]
        loc = ["deals", voided[loc[1]], *rest]
    return {**error, "loc": tuple(loc)}


def in_file_places(problems: list[Problem], places: list[int]) -> list[Problem]:
    """The scorer's problems (by live deal) at their deal's place in the file."""
    return [
        replace(p, deal=places[p.deal]) if p.deal is not None and 0 <= p.deal < len(places) else p
        for p in problems
    ]


def struck_deal_data(struck: Struck[Any], data: dict[str, Any]) -> dict[str, Any]:
    """A voided deal as the file writes it: the deal, then why it was voided."""
    return {**data, VOIDED: struck.reason}


def with_struck(live: list[dict[str, Any]], struck: Iterable[Struck[Any]], dump: Any) -> list[Any]:
    """The file's deals: the live ones with each voided one back in its place."""
    out = list(live)
    for s in sorted(struck, key=lambda s: s.place):
        out.insert(s.place, struck_deal_data(s, dump(s.deal)))
    return out


class Session(_Model):
    """A whole session file: seating, convention, stakes and the deals in order."""

    format: Literal["scorepad-session/1"]
    # The session's stable id (optional: a file from before issue #36 has none).
    uid: Uid | None = None
    players: list[PlayerName] = Field(min_length=3, max_length=4)
    # Each seat's player's stable id, in the order of ``players`` (optional).
    player_uids: list[Uid] | None = None
    convention: ConventionId
    overrides: Overrides = Field(default_factory=dict)
    pool_target: Annotated[int, Field(strict=True, ge=1, le=10_000)]
    first_dealer: Seat = 0
    whist_price: str = "1.00"
    currency: str = "RUB"
    deals: list[Deal] = Field(default_factory=list, max_length=MAX_DEALS)
    # The voided deals, each in its place (the file writes them among the deals, "voided").
    struck: tuple[Struck[Deal], ...] = Field(default=(), exclude=True)
    # Each deal's stable id by its place in the file (the file writes it on the deal, "uid").
    deal_uids: tuple[Uid | None, ...] = Field(default=(), exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _strike(cls, data: Any) -> Any:
        return strike_out(data)

    @field_validator("player_uids")
    @classmethod
    def _player_uids(cls, uids: list[str] | None, info: ValidationInfo) -> list[str] | None:
        return check_player_uids(uids, info.data.get("players"))

    @field_validator("deal_uids")
    @classmethod
    def _deal_uids(cls, uids: tuple[str | None, ...]) -> tuple[str | None, ...]:
        return check_deal_uids(uids)

    @property
    def places(self) -> list[int]:
        """Each live deal's place in the file (its number, counted from 0)."""
        return file_places(len(self.deals), (s.place for s in self.struck))

    @field_validator("players")
    @classmethod
    def _unique(cls, players: list[str]) -> list[str]:
        return distinct_names(players)

    @field_validator("whist_price")
    @classmethod
    def _price(cls, price: str) -> str:
        try:
            parse_price(price)
        except ValueError:
            raise FieldRefused(
                msg(N_("the whist price is a decimal string like '1.00' or a fraction like '1/60'"))
            ) from None
        return price

    @field_validator("currency")
    @classmethod
    def _currency(cls, code: str) -> str:
        return currency_code(code)

    @property
    def price(self) -> Fraction:
        return parse_price(self.whist_price)


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

    def said(self) -> Msg:
        """The refusal as a player reads it: the deal by its number and the field in words
        ("deal 10, the declarer: …"), never the file's field name; a field without words of
        its own is left out (the sentence says what is wrong)."""
        head = (self.field or "").split(".")[0]
        word = FIELD_WORDS.get(head)
        if self.message.text in _FILE_WORDS:  # a list of the file's values: not a player's
            return replace(self, message=msg(_FILE_WORDS[self.message.text])).said()
        if self.deal is None:
            if word is None:
                return self.message
            return Msg(N_("{field}: {text}"), {"field": msg(word), "text": self.message})
        deal = msg(N_("deal {index}"), index=self.deal + 1)
        if word is None:
            return Msg(N_("{deal}: {text}"), {"deal": deal, "text": self.message})
        args = {"deal": deal, "field": msg(word), "text": self.message}
        return Msg(N_("{deal}, {field}: {text}"), args)


#: The kinds of deal of the ledger families, as pydantic's path names them.
_FAMILY_TAGS = ("allpass", "pik_no_contra", "nonsuit", "swabian", "concede", "bete", "redeal")

#: Refusals that list the file's own values, as a player reads them (the command line and an
#: import keep the list: a file's author writes those values).
_FILE_WORDS = {
    "must be one of {choices}": N_("this value is not valid here"),
    "a deal needs a 'type': game, misere, raspasy or correction": N_("unknown kind of deal"),
    "unknown deal type; use game, misere, raspasy or correction": N_("unknown kind of deal"),
}

#: A deal's fields in the players' words (the refusals of a write in the app: issue 38 item 2).
FIELD_WORDS = {
    "type": N_("the kind of deal"),
    "declarer": N_("the declarer"),
    "defence": N_("the defence"),
    "tricks": N_("the tricks"),
    "dealer": N_("the dealer"),
    "contra": N_("the contra"),
    "recontra": N_("the recontra"),
    "bid": N_("the bid"),
    "hand": N_("the bid"),
    "contract": N_("the contract"),
    "suit": N_("the suit"),
    "calls": N_("the whists"),
    "four_aces": N_("four aces"),
    "no_aces": N_("no ace"),
    "second_round": N_("the second round"),
    "kunstwerk": N_("the Kunstwerk"),
    "note": N_("the note"),
}


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
    "model_type": N_("must be an object"),
    "model_attributes_type": N_("must be an object"),
}


#: How deep the JSON parser (pydantic_core's) lets a file nest: deeper is refused, not recursed.
MAX_DEPTH = 201
TOO_DEEP = re.compile(r"recursion limit exceeded at line (\d+) column (\d+)")


def not_json(detail: str) -> Msg:
    """Why a file is not JSON: its nesting said in the catalogs' words, else the parser's."""
    deep = TOO_DEEP.fullmatch(detail)
    if deep is not None:
        return msg(
            N_("the file nests deeper than {limit} levels (line {line}, column {column})"),
            limit=MAX_DEPTH,
            line=int(deep[1]),
            column=int(deep[2]),
        )
    return msg(N_("the file is not valid JSON ({detail})"), detail=detail[:80])


def too_many_deals() -> Msg:
    return msg(N_("a session holds at most {limit} deals"), limit=MAX_DEALS)


#: Pydantic's bounds in the catalogs' words (its own sentences are English only).
BOUNDS = {
    "less_than_equal": (N_("at most {limit}"), "le"),
    "greater_than_equal": (N_("at least {limit}"), "ge"),
    "multiple_of": (N_("must be a multiple of {limit}"), "multiple_of"),
}


def _place(part: Any) -> str:
    """A step of a field's path as a line shows it: a key of the file is text the file chose,
    so an odd one is quoted short and escaped, as a refused value (no ESC or bidi override)."""
    text = str(part)
    if text.isprintable() and len(text) <= QUOTE:
        return text
    return quote(text)


def pydantic_problem(error: Any) -> Problem:
    loc = [_place(p) if isinstance(p, str) else p for p in error["loc"]]
    deal = None
    tag = None
    if loc and loc[0] in ("game", "misere", "raspasy", "correction"):
        tag, loc = loc[0], loc[1:]  # one deal checked alone (the store's entries)
    elif len(loc) > 1 and loc[0] in _FAMILY_TAGS:
        tag, loc = loc[0], loc[1:]  # one deal of a ledger family (its form's, its store's)
    if len(loc) >= 2 and loc[0] == "deals" and isinstance(loc[1], int):
        deal = loc[1]
        if len(loc) > 2 and loc[2] in ("game", "misere", "raspasy", "correction"):
            tag, loc = loc[2], loc[3:]
        else:
            loc = loc[2:]
    fieldname = ".".join(str(p) for p in loc) or None
    if loc and loc[-1] == "[key]":
        loc = loc[:-2]  # a refused key of a map by seat: name the map
    fieldname = ".".join(str(p) for p in loc) or None
    refused = (error.get("ctx") or {}).get("error")
    if isinstance(refused, FieldRefused):
        return Problem(deal, fieldname, refused.message)
    kind = error["type"]
    if kind == "extra_forbidden" and tag == "misere" and fieldname == "calls":
        return Problem(deal, fieldname, msg(N_("a misère is not whisted: it has no calls")))
    if kind == "json_invalid":
        return Problem(None, None, not_json(str(error["ctx"]["error"])))
    if fieldname == "format" or (not loc and kind in ("model_type", "dict_type")):
        return Problem(
            None,
            "format",
            msg(N_("this is not a Scorepad session (format must be '{format}')"), format=FORMAT),
        )
    if kind == "too_long" and fieldname == "deals":
        return Problem(None, fieldname, too_many_deals())
    if kind == "string_too_long":
        limit = error["ctx"]["max_length"]
        return Problem(deal, fieldname, msg(N_("at most {limit} characters"), limit=limit))
    if kind in _PYDANTIC_MESSAGES:
        return Problem(deal, fieldname, msg(_PYDANTIC_MESSAGES[kind]))
    ctx = error.get("ctx") or {}
    if kind in BOUNDS:
        text, key = BOUNDS[kind]
        return Problem(deal, fieldname, msg(text, limit=ctx.get(key)))
    if kind in ("too_short", "too_long") and fieldname == "players":
        n = ctx.get("actual_length")
        return Problem(deal, fieldname, msg(N_("a table has 3 or 4 players, not {n}"), n=n))
    if kind in ("too_short", "too_long"):
        limit = ctx.get("min_length" if kind == "too_short" else "max_length")
        text = N_("at least {limit}") if kind == "too_short" else N_("at most {limit}")
        return Problem(deal, fieldname, msg(text, limit=limit))
    if kind in ("literal_error", "enum"):
        # Pydantic's list ends "'a' or 'b'": in the catalogs' words, a plain list.
        choices = str(ctx.get("expected", "")).replace(" or ", ", ")
        return Problem(deal, fieldname, msg(N_("must be one of {choices}"), choices=choices))
    if kind == "string_too_short":
        limit = ctx.get("min_length")
        return Problem(deal, fieldname, msg(N_("at least {limit} characters"), limit=limit))
    if kind in _STRICT_BOUNDS:
        text, key = _STRICT_BOUNDS[kind]
        return Problem(deal, fieldname, msg(text, limit=ctx.get(key)))
    # Every other kind in the catalogs' words too (pydantic's sentence is English only): what
    # the value should be, where the kind says it, else that it is not valid here.
    for prefix, text in _KINDS:
        if kind.startswith(prefix):
            return Problem(deal, fieldname, msg(text))
    return Problem(deal, fieldname, msg(N_("this value is not valid here")))


_STRICT_BOUNDS = {
    "less_than": (N_("less than {limit}"), "lt"),
    "greater_than": (N_("more than {limit}"), "gt"),
}
#: Pydantic's error kinds by their prefix, each with the catalogs' sentence.
_KINDS = (
    ("int_", N_("must be a whole number")),
    ("float_", N_("must be a number")),
    ("decimal_", N_("must be a number")),
    ("bool_", N_("must be true or false")),
    ("string_pattern", N_("is not in the form this field takes")),
    ("string_", N_("must be a string")),
    ("date", N_("must be a date like 2026-12-01")),
    ("list_", N_("must be a list")),
    ("tuple_", N_("must be a list")),
    ("set_", N_("must be a list")),
    ("dict_", N_("must be an object")),
    ("model_", N_("must be an object")),
)


def unknown_convention(data: str | bytes | dict[str, Any]) -> Problem | None:
    """The problem of a file whose convention is no preset of any family (None: it is one, or
    the file names none)."""
    from ..peek import convention_of, known_conventions

    name = convention_of(data)
    known = known_conventions()
    if name is None or name in known or not _CONVENTION.fullmatch(name):
        return None  # not an id at all: the field's own check says so
    return Problem(
        None,
        "convention",
        msg(
            N_("unknown convention {name} (known: {known})"),
            name=quote(name),
            known=", ".join(known),
        ),
    )


def parse_session(data: str | bytes | dict[str, Any]) -> Session:
    """Validate the shape of a session file (JSON text or an already parsed object).

    Raises :class:`SessionInvalid` with one :class:`Problem` per error.
    """
    try:
        if isinstance(data, dict):
            return Session.model_validate(data)
        return Session.model_validate_json(data)
    except ValidationError as exc:
        unknown = unknown_convention(data)
        if unknown is not None:  # a misspelled convention, of any family: say that alone
            raise SessionInvalid([unknown]) from None
        errors = exc.errors()
        # A file that is not a session gets one line, not one per missing field.
        wrong_format = [e for e in errors if tuple(e["loc"]) == ("format",) or not e["loc"]]
        chosen = wrong_format[:1] if wrong_format else errors
        raw = data if isinstance(data, dict) else _raw(data)
        raise SessionInvalid([pydantic_problem(relocate(e, raw)) for e in chosen]) from None


def _raw(data: str | bytes) -> Any:
    """The file as JSON, to name a refused deal by its place (None: it is no JSON)."""
    from pydantic_core import from_json

    try:
        return from_json(data)
    except ValueError:
        return None


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
    ordered["deals"] = with_uids(
        with_struck([deal_data(d) for d in session.deals], session.struck, deal_data),
        session.deal_uids,
    )
    return json.dumps(ordered, ensure_ascii=False, indent=2) + "\n"
