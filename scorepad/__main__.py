"""``python -m scorepad``: the ``scorepad`` command, as ``python -m scorepad.cli`` and the installed
script run it."""

import sys

from .cli import main

sys.exit(main())
