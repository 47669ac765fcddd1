"""The Balkan bula in the app: its deal form (``form``) and its entry and sheet (``entry``)."""
