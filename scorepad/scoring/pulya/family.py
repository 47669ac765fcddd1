"""The pulya as a :class:`~scorepad.scoring.family.Family`: its session file, its deal model and its
replay, the incremental one the store keeps (an added deal is written onto it alone)."""

from __future__ import annotations

from typing import Any, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError

from .convention import Settings, settings_for
from .score import Replay, Scored, batch, replay
from .session import (
    Deal,
    Session,
    SessionInvalid,
    Struck,
    dump_session,
    parse_session,
    pydantic_problem,
)

#: The validator of one pulya deal, as the store keeps it.
DEAL: TypeAdapter[Any] = TypeAdapter(Deal)
DEAL_TYPES: tuple[type[BaseModel], ...] = get_args(get_args(Deal)[0])


class Pulya:
    name = "pulya"
    places_count_voided = False
    pool = True
    cards = True

    def parse_session(self, data: str | bytes | dict[str, Any]) -> Session:
        return parse_session(data)

    def dump_session(self, session: Session) -> str:
        return dump_session(session)

    def deal_types(self) -> tuple[type[BaseModel], ...]:
        return DEAL_TYPES

    def deal_adapter(self) -> TypeAdapter[Any]:
        return DEAL

    def parse_deal(self, data: Any, *, index: int | None) -> Any:
        try:
            return DEAL.validate_python(data)
        except ValidationError as exc:
            raise SessionInvalid([pydantic_problem(e) for e in exc.errors()]) from None

    def preset_settings(self, convention: str) -> dict[str, Any] | None:
        return settings_for(convention).model_dump(mode="json")

    def replay(self, session: Session) -> Scored:
        return replay(session)

    def stored_session(
        self,
        data: dict[str, Any],
        frozen_settings: str,
        deals: list[Any],
        struck: tuple[Struck[Any], ...],
    ) -> tuple[Session, Settings]:
        # The journal keeps the voided deals; the pulya's sheet is written from the live ones.
        settings = Settings.model_validate_json(frozen_settings)
        return Session.model_validate({**data, "deals": deals}), settings

    def start(self, session: Session, settings: Settings) -> Replay:
        r = Replay(session, settings)
        with batch():
            for index, deal in enumerate(session.deals):
                r.add(index, deal)
        if r.problems:
            raise SessionInvalid(r.problems)
        return r


PULYA = Pulya()


def family(name: str) -> Pulya:
    assert name == PULYA.name
    return PULYA
