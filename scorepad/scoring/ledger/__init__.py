"""The ledger families beside the pulya (bula, kassa, pot, direct): one posting ledger, the
defence, each family's engine, and their presets, session files and replay (``families``)."""
