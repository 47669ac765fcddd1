"""The ledger families (bula, kassa, pot, direct) as :class:`~scorepad.scoring.family.Family`
engines: one object a family over :mod:`.families` (their presets, session files and replay).
A session of theirs is short, so the store replays it whole after each action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, TypeAdapter

from ..peek import FAMILIES
from ..pulya.session import Problem, Struck
from .families import (
    AnySession,
    FamilyScored,
    dump_family_session,
    family_deal_adapter,
    family_deal_types,
    family_presets,
    parse_family_deal,
    parse_family_session,
    replay_family,
)


@dataclass(frozen=True, slots=True)
class Whole:
    """A ledger family's session replayed: kept as it is, replayed whole after the next deal."""

    scored: FamilyScored

    def result(self) -> FamilyScored:
        return self.scored

    def append(self, deal: Any) -> list[Problem] | None:
        return None


@dataclass(frozen=True, slots=True)
class Ledger:
    name: str
    places_count_voided: bool = True
    pool: bool = False
    cards: bool = False

    def parse_session(self, data: str | bytes | dict[str, Any]) -> AnySession:
        return parse_family_session(data)

    def dump_session(self, session: AnySession) -> str:
        return dump_family_session(session)

    def deal_types(self) -> tuple[type[BaseModel], ...]:
        return family_deal_types(self.name)

    def deal_adapter(self) -> TypeAdapter[Any]:
        return family_deal_adapter(self.name)

    def parse_deal(self, data: Any, *, index: int | None) -> Any:
        return parse_family_deal(self.name, data, index=index or 0)

    def preset_settings(self, convention: str) -> dict[str, Any] | None:
        found = family_presets().get(convention)
        return None if found is None else found.resolve().model_dump(mode="json")

    def replay(self, session: AnySession) -> FamilyScored:
        return replay_family(session)

    def stored_session(
        self,
        data: dict[str, Any],
        frozen_settings: str,
        deals: list[Any],
        struck: tuple[Struck[Any], ...],
    ) -> tuple[AnySession, None]:
        # The file's form: the live deals, each voided one in its place (its number and its
        # dealer are the file's: docs/session-format.md, "Voided deals"); the settings are the
        # frozen ones, written as overrides in ``data``.
        file = {k: v for k, v in data.items() if k != "pool_target"}
        file["deals"] = [d.model_dump(mode="json", exclude_defaults=True) for d in deals]
        session = parse_family_session(file)
        return (session.model_copy(update={"struck": struck}) if struck else session), None

    def start(self, session: AnySession, settings: None) -> Whole:
        return Whole(replay_family(session))


LEDGERS = {name: Ledger(name) for name in FAMILIES}


def family(name: str) -> Ledger:
    return LEDGERS[name]
