"""The screens every family shares: sessions, new game, history, cash-out, chart, players, the
convention's settings, the deal analysis and the shared table's PIN screen."""
