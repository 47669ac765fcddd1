"""Helpers the tests share (imported as ``support.…``: the tests folder is on the path)."""
