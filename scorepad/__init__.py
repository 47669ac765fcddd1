"""Scorepad: scorekeeping and settlement for Preferans.

The scoring engine is pure: :mod:`scorepad.scoring.session` validates a session file,
:mod:`scorepad.scoring.score` replays its deals into a sheet, :mod:`scorepad.scoring.settlement`
turns the sheet into balances, money and payments.  The CLI and the app only call them.
"""

__version__ = "0.1.0"
