"""The session file, under its released name: see :mod:`scorepad.scoring.pulya.session`."""

from .scoring.pulya.session import FORMAT, Session, SessionInvalid, dump_session, parse_session

__all__ = ["FORMAT", "Session", "SessionInvalid", "dump_session", "parse_session"]
