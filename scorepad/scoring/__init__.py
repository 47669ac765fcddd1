"""The scoring engine: a session's deals checked, written onto the pulya, gora and whists, and settled.

:mod:`~scorepad.scoring.pulya.legal` says what the next deal may be and why not; everything that
checks or offers a deal asks it.  Pure: no module here imports the store, the report, the CLI,
the app or the card-play engine.
"""
