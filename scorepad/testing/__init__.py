"""Random valid sessions and deal records, for property tests and benchmarks (:mod:`.generate`);
nothing in the app or the CLI imports it."""
