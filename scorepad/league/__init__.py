"""A league of clubs (issue #39): every club's ended nights in one season, one rating across clubs.

The league lives on a Scorepad server's database (PostgreSQL, or SQLite for one machine); each
club keeps its own store and publishes to it.  One module per idea: :mod:`.nights` (what a club
publishes, the contract between the two sides), the league's store of clubs and nights, the
club's outbox, the league's players and links, the season's standings and ratings.
"""
