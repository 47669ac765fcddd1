"""A club night: many tables of one night, the draw tour by tour, tournament scoring, standings.

The engine here is pure (no Flet, no SQLite): :mod:`.night` holds the night's models and the
registry, :mod:`.draw` seats the players, :mod:`.scoring` turns a table's whists into tour
points, :mod:`.standings` adds them up, :mod:`.file` reads and writes ``scorepad-club/1``.
The store (:mod:`.store`) keeps a night in the Scorepad database, each table a pulya session.
"""
