"""Scorepad: scorekeeping and settlement for Preferans.

Two engines, pure (no store, no screen), and the parts that use them::

    app/  cli/  report/  store/ (journal)      the app, the CLI, output, the SQLite store
      |     |     |        |
      +-----+-----+--------+---> testing/ (random valid sessions)
      v                             v
    play/   cards  auction  play  solver  record      the card-play engine
      v
    scoring/  legal  session  score  whist  game  misere  raspasy  pulya  sheet  settlement
              convention  table  contract             the scoring engine
      v
    core/  i18n  numbers  cyrillic                    the shared vocabulary

Imports go down only: the scoring engine imports neither the card-play engine nor anything
above it; the card-play engine imports the scoring engine's rules, never the store or the app
(``tests/test_api.py`` checks both).

The public Python API (kept under these names whatever moves inside):

- ``scorepad.session.parse_session`` / ``scorepad.session.dump_session``: read and write a
  session file (``scorepad-session/1``); ``Session`` and ``SessionInvalid`` beside them.
- ``scorepad.record.parse_record`` / ``scorepad.record.audit``: read a deal record
  (``scorepad-deal/1``) and replay it card by card; ``RecordInvalid`` says the first illegal step.
- ``scorepad.store.Store``: every session and every action in SQLite.
- ``scorepad.cli.main``: the command line (``python -m scorepad.cli``).
- ``scorepad.scoring.pulya.legal``: what the next deal may be at a table, and why not (``kinds``,
  ``declarers``, ``levels``, ``call_options``, ``trick_cap``, ``verify_deal``).
- ``scorepad.scoring.pulya.score.replay``: a session's deals checked and written onto the sheet;
  ``scorepad.scoring.pulya.settlement`` turns the sheet into balances, money and payments.

Every refusal subclasses ``scorepad.i18n.ScorepadError`` (a ``ValueError``) and carries the
sentence in ``message``, rendered in the player's language with ``message.render(lang)``.
"""

__version__ = "0.1.0"
