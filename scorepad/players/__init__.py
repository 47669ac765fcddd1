"""Players across every night and every family: the directory, each player's record, a rating
per family and a season's standings and debts.

Everything is counted from what the store keeps for each session (its players by their directory
entry, and a record of each seat that the store writes beside the journal with every action), so
that a statistics screen over a thousand evenings reads rows instead of replaying deals.
"""
