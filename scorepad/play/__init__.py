"""The card-play engine: cards, the auction, trick play, the solver, the deal record and its audit.

Pure: no module here imports the store, the report, the CLI or the app.
"""
