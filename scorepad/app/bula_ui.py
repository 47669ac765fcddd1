"""The bula family in the app: its deal form and its sheet (registered in family_ui)."""
