"""Every screen of the app, registered by name: the one module that imports them all.

The screens import only the shell, the navigation and the theme; they reach each other by name
(``shell.go("entry")``), so no two screens import each other.
"""

from __future__ import annotations

import flet as ft

from ...core.i18n import N_
from .. import bula, kassa, pot, pulya  # noqa: F401  (each registers its family)
from ..club.checkin import registry_screen
from ..club.director import director_screen
from ..club.nights import nights_screen
from ..club.seating import seating_screen
from ..club.standings import standings_screen
from ..club.tables import table_panel  # noqa: F401  (registers a club table's panel)
from ..dispute import screen as dispute  # noqa: F401  (registers the deal check)
from ..screens.cashout import settle_screen
from ..screens.chart import chart_screen
from ..screens.history import history_screen
from ..screens.new_game import new_session_screen
from ..screens.next_pulka import next_pulka_screen
from ..screens.players import players_screen
from ..screens.sessions import sessions_screen
from ..screens.table import table_bar  # noqa: F401  (registers the bar above the screens)
from .family import entry_screen, sheet_screen
from .nav import register

register("sessions", sessions_screen)
register("new-session", new_session_screen)
register("next-pulka", next_pulka_screen)  # a phone's, when the host lets it (next_pulka.py)
register("players", players_screen)  # every pulka: reached from the list
# A club night (reached from the list): the director's view and what it opens.
register("club", nights_screen)
register("club-director", director_screen)
register("club-registry", registry_screen)
register("club-seating", seating_screen)
register("club-standings", standings_screen)
# The navigation of an open pulka, in this order.
register(
    "entry",
    entry_screen,
    label=N_("Deal"),
    icon=ft.Icons.EDIT_NOTE_OUTLINED,
)
register(
    "sheet",
    sheet_screen,
    label=N_("Sheet"),
    icon=ft.Icons.GRID_ON_OUTLINED,
)
register(
    "history",
    history_screen,
    label=N_("History"),
    icon=ft.Icons.HISTORY_OUTLINED,
)
register(
    "settle",
    settle_screen,
    label=N_("Cash-out"),
    icon=ft.Icons.PAYMENTS_OUTLINED,
)
register(
    "chart",
    chart_screen,
    label=N_("Chart"),
    icon=ft.Icons.SHOW_CHART_OUTLINED,
)

__all__ = ["entry_screen", "new_session_screen", "sessions_screen"]
