"""The browser tests' harness (``harness.py``); the browser test files stand beside the others in
``tests/``."""
