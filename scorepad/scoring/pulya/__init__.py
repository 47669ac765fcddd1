"""The pulya family (преферанс with pulya, gora and whists): legality, the session file, the
replay, what each deal writes, the sheet, whisting, the seating, the convention and the settlement."""
