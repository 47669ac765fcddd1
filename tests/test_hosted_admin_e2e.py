"""The operator's admin page of ``scorepad serve`` in a browser (issue #36): without a secret
``/admin`` is the stranger's front page; with one, a wrong secret is refused, the right one lists
every game with its state, and the operator deletes one (asked first) while the phones' link
opens nothing from then on.  Screenshots (360×740 and 1280×800, English and Russian) go to
``screenshots/hosted-admin-*.png``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import (
    browser,  # noqa: F401  (the fixture)
    has_text,
    new_session,
    semantics_on,
    shot,
    tap,
    text_of,
    type_text,
    visible,
)
from support.hosted_server import LAPTOP, PHONE, opened, serving

from scorepad.store import Store

SECRET = "the operator's own secret 42"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[[bool], tuple[str, str]]]:
    """Start ``scorepad serve`` on a SQLite file, with or without an admin secret."""
    numbers = itertools.count()
    with ExitStack() as servers:

        def start(with_secret: bool) -> tuple[str, str]:
            db = str(tmp_path / f"serve-{next(numbers)}.db")
            extra: list[str] = []
            if with_secret:
                secret = tmp_path / "admin-secret"
                secret.write_text(SECRET + "\n")
                extra = ["--admin-secret-file", str(secret)]
            return servers.enter_context(serving(db, tmp_path, *extra)), db

        yield start


def test_without_a_secret_admin_is_the_strangers_front_page(
    browser: Any,  # noqa: F811
    serve: Callable[[bool], tuple[str, str]],
) -> None:
    base, _ = serve(False)
    page = opened(browser, base + "/admin")
    visible(page, "tables-empty")
    assert page.locator('[flt-semantics-identifier="admin-secret"]').count() == 0


def test_the_operator_opens_admin_lists_and_deletes_a_game(
    browser: Any,  # noqa: F811
    serve: Callable[[bool], tuple[str, str]],
) -> None:
    base, db = serve(True)
    # A phone starts a game (it owns it) and shares it; a second phone joins with the link.
    owner = opened(browser, base + "/")
    new_session(owner, ["Anna", "Boris", "Vera", "Gleb"])
    tap(owner, "create-session")
    visible(owner, "share-table")
    with Store(db) as store:
        (sid,) = [s.id for s in store.sessions()]
    tap(owner, "share-table")
    link = re.sub(r"\s+", "", text_of(owner, "share-url-0"))
    tap(owner, "share-close")
    joined = opened(browser, link)
    visible(joined, "pin-open")
    # The table's owner has no admin page: /admin asks it for the secret like anyone.
    mine = owner.context.new_page()
    mine.goto(base + "/admin")
    semantics_on(mine)
    visible(mine, "admin-secret")
    assert mine.locator(f'[flt-semantics-identifier="admin-game-{sid}"]').count() == 0

    # The operator, on a laptop: a wrong secret is refused, counted down; the right one opens.
    operator = opened(browser, base + "/admin", LAPTOP)
    visible(operator, "admin-secret")
    shot(operator, "hosted-admin-secret-1280-en")
    type_text(operator, operator.get_by_label("Admin secret"), "not the operator's secret")
    tap(operator, "admin-open")
    has_text(operator, "message", "That is not the admin secret. Tries left on this device: 4.")
    shot(operator, "hosted-admin-wrong-1280-en")
    type_text(operator, operator.get_by_label("Admin secret"), SECRET)
    tap(operator, "admin-open")
    visible(operator, f"admin-game-{sid}")
    has_text(operator, f"admin-title-{sid}", f"Game {sid}: Anna, Boris, Vera, Gleb")
    assert text_of(operator, f"admin-state-{sid}").startswith("0 deals, in play · a phone owns it")
    shot(operator, "hosted-admin-list-1280-en")
    tap(operator, "language-ru")
    visible(operator, f"admin-game-{sid}")
    has_text(operator, f"admin-title-{sid}", f"Игра {sid}: Anna, Boris, Vera, Gleb")
    shot(operator, "hosted-admin-list-1280-ru")
    # The grant is kept in the browser: a new tab of it opens the list straight away.
    again = operator.context.new_page()
    again.set_viewport_size(PHONE)
    again.goto(base + "/admin")
    semantics_on(again)
    visible(again, f"admin-game-{sid}")
    shot(again, "hosted-admin-list-360-en")
    # Delete asks first; Cancel keeps the game.
    tap(again, f"admin-delete-{sid}")
    visible(again, "cancel-delete")
    shot(again, "hosted-admin-delete-360-en")
    tap(again, "cancel-delete")
    with Store(db) as store:
        assert sid in {s.id for s in store.sessions()}
    tap(again, f"admin-delete-{sid}")
    tap(again, "confirm-delete")
    visible(again, "admin-empty")
    with Store(db) as store:
        assert sid not in {s.id for s in store.sessions()}
        assert store.backend.query("SELECT session FROM table_owners") == []
    visible(joined, "join-missing")  # the phones' link opens nothing from then on
