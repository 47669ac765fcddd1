"""The pot and direct families in the app: the deal form (``form``), the entry (``entry``) and
the sheet's figures (``sheet``)."""
