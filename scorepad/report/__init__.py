"""The output of ``scorepad settle``, one module per family group: :mod:`.pulya` (the pulya's
``scorepad-settlement/1`` and readable sheet) and :mod:`.ledger` (the ledger families': bula,
kassa, pot).  Only formatting lives here; the numbers come from the engines."""
