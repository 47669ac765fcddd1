"""Scorepad as an installable app that runs on the phone itself (Python in the browser, Pyodide).

``build.py`` makes the static folder (``scorepad build-app DIR``); ``app.py`` is what runs in the
browser: the store in the browser's persistent storage, the screens, nothing served.
"""

from __future__ import annotations

import sys

#: True inside the browser (Pyodide): the parts that need the laptop (the LAN share, the
#: cash-out's picture) are not offered there.
ON_PHONE = sys.platform == "emscripten"
