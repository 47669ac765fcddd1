"""The registry at the door: check players in (from the roster or as new names; the roster's
look-alike check applies), their numbers, withdrawals between tours."""

from __future__ import annotations

import flet as ft

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
    name.on_submit = lambda e: check_in(name.value or "")

    def check_in(who: str) -> None:
        attempt(shell, lambda: store.check_in(nid, who))
        shell.show(registry_screen)

    def withdraw(number: int) -> None:
        # A withdrawal takes the player out of every tour drawn after this one: it asks first
        # (and "Bring back" takes it back).
        def confirmed() -> None:
            shell.page.pop_dialog()
            attempt(shell, lambda: store.withdraw(nid, number))
            shell.show(registry_screen)

        p = night.player(number)
        shell.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(
                    shell.t(N_("Withdraw #{number} {name}?"), number=p.number, name=p.name)
                ),
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
                        primary(shell.t(N_("Withdraw")), on_click=lambda: confirmed()),
                    ),
                    sem(
                        "cancel-withdraw",
                        ft.TextButton(
                            shell.t(N_("Cancel")), on_click=lambda: shell.page.pop_dialog()
                        ),
                    ),
                ],
            )
        )

    def come_back(number: int) -> None:
        attempt(shell, lambda: store.come_back(nid, number))
        shell.show(registry_screen)

    rows: list[ft.Control] = []
    for p in night.players:
        line = f"#{p.number} {p.name}"
        if p.first_tour > 1:
            line += " " + shell.t(N_("(from tour {tour})"), tour=p.first_tour)
        if p.last_tour is not None:
            line += " " + shell.t(N_("(withdrawn)"))
            rows.append(
                ft.Row(
                    [
                        sem(f"club-player-{p.number}", ft.Text(line)),
                        sem(
                            f"club-come-back-{p.number}",
                            quiet(
                                shell.t(N_("Bring back")),
                                on_click=lambda e, n=p.number: come_back(n),
                            ),
                        ),
                    ],
                    wrap=True,
                )
            )
            continue
        rows.append(
            ft.Row(
                [
                    sem(f"club-player-{p.number}", ft.Text(line)),
                    sem(
                        f"club-withdraw-{p.number}",
                        quiet(shell.t(N_("Withdraw")), on_click=lambda e, n=p.number: withdraw(n)),
                    ),
                ]
            )
        )
    return ft.Column(
        [
            back(shell, "club-director"),
            heading(shell.t(N_("Registry"))),
            sem("club-name", name),
            sem(
                "club-check-in",
                primary(shell.t(N_("Check in")), on_click=lambda: check_in(name.value or "")),
            ),
            ft.Row(
                [
                    sem(f"club-roster-{k}", quiet(n, on_click=lambda e, who=n: check_in(who)))
                    for k, n in enumerate(roster)
                ],
                wrap=True,
            ),
            *rows,
        ],
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
    )
