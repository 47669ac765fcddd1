"""The registry at the door: check players in (from the roster or as new names; the roster's
look-alike check applies), their numbers, withdrawals between tours."""

from __future__ import annotations

import flet as ft

from ...club.night import Night, Player
from ...club.store import ClubStore
from ...core.i18n import N_
from ..frame.shell import Shell
from ..frame.theme import heading, primary, quiet, sem
from .common import attempt, back, club, night_id


def registry_screen(shell: Shell) -> ft.Control:
    nid = night_id(shell)
    store = club(shell)
    with shell.session.locked() as db:
        night = store.load(nid)
        roster = [n for n in db.players() if n not in {p.name for p in night.players}]
    name = ft.TextField(label=shell.t(N_("Name")), autofocus=True)
    # Enter in the name checks in, as the button does (issue #37).
    name.on_submit = lambda e: _check_in(shell, store, nid, name.value or "")
    return ft.Column(
        [
            back(shell, "club-director"),
            heading(shell.t(N_("Registry"))),
            sem("club-name", name),
            sem(
                "club-check-in",
                primary(
                    shell.t(N_("Check in")),
                    on_click=lambda: _check_in(shell, store, nid, name.value or ""),
                ),
            ),
            ft.Row(
                [
                    sem(
                        f"club-roster-{k}",
                        quiet(n, on_click=lambda e, who=n: _check_in(shell, store, nid, who)),
                    )
                    for k, n in enumerate(roster)
                ],
                wrap=True,
            ),
            *(_player_row(shell, store, nid, night, p) for p in night.players),
        ],
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
    )


def _player_row(shell: Shell, store: ClubStore, nid: int, night: Night, p: Player) -> ft.Control:
    """A checked-in player: withdrawn ones with Bring back, the others with Withdraw."""
    line = f"#{p.number} {p.name}"
    if p.first_tour > 1:
        line += " " + shell.t(N_("(from tour {tour})"), tour=p.first_tour)
    withdrawn = p.last_tour is not None
    if withdrawn:
        line += " " + shell.t(N_("(withdrawn)"))
        button = sem(
            f"club-come-back-{p.number}",
            quiet(
                shell.t(N_("Bring back")),
                on_click=lambda e, n=p.number: _come_back(shell, store, nid, n),
            ),
        )
    else:
        button = sem(
            f"club-withdraw-{p.number}",
            quiet(
                shell.t(N_("Withdraw")),
                on_click=lambda e, n=p.number: _withdraw(shell, store, nid, night, n),
            ),
        )
    return ft.Row([sem(f"club-player-{p.number}", ft.Text(line)), button], wrap=withdrawn)


def _check_in(shell: Shell, store: ClubStore, nid: int, who: str) -> None:
    attempt(shell, lambda: store.check_in(nid, who))
    shell.show(registry_screen)


def _come_back(shell: Shell, store: ClubStore, nid: int, number: int) -> None:
    attempt(shell, lambda: store.come_back(nid, number))
    shell.show(registry_screen)


def _withdraw(shell: Shell, store: ClubStore, nid: int, night: Night, number: int) -> None:
    """A withdrawal takes the player out of every tour drawn after this one: it asks first
    (and "Bring back" takes it back)."""
    p = night.player(number)
    shell.page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(shell.t(N_("Withdraw #{number} {name}?"), number=p.number, name=p.name)),
            content=sem(
                "withdraw-note",
                ft.Text(
                    shell.t(
                        N_(
                            "The player keeps the tours played and is not drawn after tour {tour}; the registry's Bring back undoes it."
                        ),
                        tour=night.next_tour - 1,
                    )
                ),
            ),
            actions=[
                sem(
                    "confirm-withdraw",
                    primary(
                        shell.t(N_("Withdraw")),
                        on_click=lambda: _confirmed_withdraw(shell, store, nid, number),
                    ),
                ),
                sem(
                    "cancel-withdraw",
                    ft.TextButton(shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()),
                ),
            ],
        )
    )


def _confirmed_withdraw(shell: Shell, store: ClubStore, nid: int, number: int) -> None:
    shell.page.pop_dialog()
    attempt(shell, lambda: store.withdraw(nid, number))
    shell.show(registry_screen)
