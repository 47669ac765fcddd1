"""The scoring engine: a session's deals written onto the pulya, gora and whists, and settled.

Pure: no module here imports the store, the report, the CLI or the app.
"""
