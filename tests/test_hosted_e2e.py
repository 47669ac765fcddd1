"""The hosted server in a browser (issue #36): four phones alone start and play a pulka on
``scorepad serve`` with two workers over PostgreSQL (the phones on both, as their WebSocket
handshakes say); a phone of another table can neither see nor write it; the
owner hands the table over, and the new owner deletes it (asked first).

Every phone is its own browser context (its own storage: its own device) on this computer's
127.0.0.1, which on the hosted server gives no rights at all.  Screenshots (360×740 and
1280×800, English and Russian) go to ``screenshots/hosted-*.png``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import (
    Table,
    browser,  # noqa: F401  (the fixture)
    has_text,
    new_session,
    shot,
    tap,
    text_of,
    type_text,
    visible,
)
from playwright.sync_api import expect
from support.hosted_server import LAPTOP, hand_over_code, phones, serving, tab, worker
from support.hosted_server import opened as phone

from scorepad.app.server.grants import Grants
from scorepad.store import Store


@pytest.fixture
def hosted(postgres_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``scorepad serve --workers 2`` on a new PostgreSQL database: its address and the
    database's.  The phones' pages are spread by the kernel over the two workers, which hear
    each other's writes through PostgreSQL (LISTEN/NOTIFY)."""
    with serving(postgres_url, tmp_path, "--workers", "2") as url:
        yield url, postgres_url


def joined(page: Any, pin: str, lang: str = "en") -> None:
    """A phone that opened the join link types the table's PIN (in ``lang``, switched to on
    the PIN screen)."""
    visible(page, "pin-open")
    tap(page, "pin-open")
    label = "Table PIN"
    if lang == "ru":
        tap(page, "language-ru")
        label = "PIN стола"
        page.get_by_label(label).wait_for(state="attached", timeout=15000)
        shot(page, "hosted-pin-360-ru")
    type_text(page, page.get_by_label(label), pin)
    tap(page, "pin-submit")
    visible(page, "nav-entry")


def test_four_phones_alone_play_a_pulka_hand_it_over_and_delete_it(
    browser: Any,  # noqa: F811
    hosted: tuple[str, str],
) -> None:
    base, db = hosted
    # The first phone: the front page lists nothing of anybody's; New game makes it the owner.
    owner = phone(browser, base + "/")
    visible(owner, "tables-empty")
    shot(owner, "hosted-front-360-en")
    new_session(owner, ["Anna", "Boris", "Vera", "Gleb"])
    tap(owner, "create-session")
    visible(owner, "deal-header")
    visible(owner, "share-table")
    with Store(db) as store:
        (sid,) = [s.id for s in store.sessions()]
    tap(owner, "share-table")
    visible(owner, "share-dialog")
    link = re.sub(r"\s+", "", text_of(owner, "share-url-0"))
    pin = re.search(r"(\d{6})", text_of(owner, "share-pin"))[1]  # type: ignore[index]
    assert link.startswith(f"{base}/join/{sid}/") and len(link.rsplit("/", 1)[1]) >= 22
    shot(owner, "hosted-share-360-en")
    tap(owner, "share-close")

    # Three more phones join with the link and the table's PIN.
    boris, vera, gleb = phones(browser, link, 3)
    joined(boris, pin)
    joined(vera, pin)
    joined(gleb, pin, "ru")
    # The phones are spread over both workers: each page's handshake names its worker; while
    # one worker holds them all, two more phones join at once (the kernel chooses for each).
    table_phones = [owner, boris, vera, gleb]
    while len({worker(p) for p in table_phones}) < 2:
        assert len(table_phones) < 12, "every phone reached one worker"
        for extra in phones(browser, link, 2):
            joined(extra, pin)
            table_phones.append(extra)
    assert {worker(p) for p in table_phones} == {"1", "2"}
    # The table plays: the owner writes the first deal, a joined phone the second; every phone
    # sees both.
    table = Table(owner, 4)
    table.game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})
    tap(boris, "nav-entry")
    at_boris = Table(boris, 4)
    at_boris.number = 2
    visible(boris, "deal-header")
    assert text_of(boris, "deal-header").startswith("Deal 2:")
    try:
        at_boris.game(2, "6H", ["whist", "pass"], {2: 6, 3: 3})
    except AssertionError:
        shot(boris, "failed-hosted-joined-write")
        raise
    for p in (owner, vera, gleb, *table_phones[4:]):  # on both workers: each sees both deals
        tap(p, "nav-history")
        expect(p.get_by_text(re.compile(r"^(Deal|Сдача) 2 · ")).first).to_be_visible(timeout=15000)
    shot(gleb, "hosted-history-360-ru")
    with Store(db) as store:
        assert store.load(sid).revision == 2

    # A phone of another table: its own game, its own front page; this table is not there,
    # and a link of this table without its token, or with its own table's, opens nothing.
    stranger = phone(browser, base + "/", LAPTOP)
    new_session(stranger, ["Dmitri", "Elena", "Fyodor"])
    tap(stranger, "create-session")
    visible(stranger, "share-table")
    with Store(db) as store:
        (theirs,) = [s.id for s in store.sessions() if s.id != sid]
    tap(stranger, "nav-sessions")
    visible(stranger, f"table-{theirs}")
    assert stranger.locator(f'[flt-semantics-identifier="table-{sid}"]').count() == 0
    tap(stranger, "language-ru")
    has_text(stranger, f"table-open-{theirs}", "Продолжить")
    shot(stranger, "hosted-front-1280-ru")
    with Store(db) as store:
        their_token = Grants(store, threading.RLock()).link(theirs)
    for wrong in (f"/join/{sid}", f"/join/{sid}/{their_token}", f"/join/{sid}/{'A' * 22}"):
        visible(tab(stranger, base + wrong), "join-missing")
    with Store(db) as store:
        assert store.load(sid).revision == 2  # nothing written by it

    # The owner hands the table to Boris's phone: Boris owns it, the first phone no longer.
    tap(owner, "nav-sheet")
    take = hand_over_code(owner, "hand-over", "hosted-hand-over-360-en")
    assert take.startswith(f"{base}/take/{sid}/")
    boris = tab(boris, take)
    visible(boris, "share-table")
    visible(tab(owner, base + "/"), "tables-empty")
    # The new owner deletes it, asked first; the other phones' link opens nothing from then on.
    tap(boris, "table-delete")
    visible(boris, "confirm-delete")
    shot(boris, "hosted-delete-360-en")
    tap(boris, "confirm-delete")
    visible(boris, "tables-empty")
    visible(vera, "join-missing")
    with Store(db) as store:
        assert sid not in {s.id for s in store.sessions()}
        assert store.backend.query("SELECT session FROM table_owners") == [{"session": theirs}]
