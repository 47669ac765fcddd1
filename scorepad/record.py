"""The deal record, under its released name: see :mod:`scorepad.play.record`."""

from .play.record import RecordInvalid, audit, audit_json, parse_record

__all__ = ["RecordInvalid", "audit", "audit_json", "parse_record"]
