"""The pulya in the app: its deal form (``form``), its entry screen (``entry``), its sheet
(``sheet``) and the paper drawing of the pulya, gora and whists (``paper``)."""
