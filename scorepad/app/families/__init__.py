"""What the ledger families' screens share (bula, kassa, pot, direct): the registry each family
gives the shell, the deal form's base, the entry pieces, the paper columns, the new-game settings."""
