"""``python -m scorepad.cli``: the ``scorepad`` command."""

import sys

from . import main

sys.exit(main())
