"""The table app (Flet): views over the engine and the store; no rule lives here."""
