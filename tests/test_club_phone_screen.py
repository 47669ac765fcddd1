"""Issue #37, item 9 (part): a club table's phone is at a club night.  No "Start the next
pulka" at a club table (the director draws the next tour), no placeholder pool target in the
sheet's centre for a night of fixed deals, and the director's Disputes say which deal."""

from __future__ import annotations

from pathlib import Path

import flet as ft
import flet.canvas as cv
from support.flet_fakes import by_id, find, fire, navigate
from test_app_club_tables import Night, ids, until

from scorepad.club.store import table_pin
from scorepad.core.numbers import signed, whist_figure

RASP = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}


async def test_a_club_phone_has_no_next_pulka_no_placeholder_target_and_disputes_name_the_deal(
    tmp_path: Path,
) -> None:
    n = Night(tmp_path, deals=4)
    sid, (first, second, _) = n.sid(1), n.seats(1)
    for _ in range(3):
        n.club.write_deal(n.nid, 1, 1, RASP, by=first, seen=n.store.load(sid).revision)
    d1, _, d3 = (e.deal_id for e in n.store.load(sid).journal.live)
    n.club.confirm(n.nid, 1, 1, d1, by=second)
    n.club.reject(n.nid, 1, 1, d3, by=second, reason="the tricks are wrong")
    phone, session = n.phone(1, "device-of-the-first-player-0001")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    phone.redraw()
    await navigate(session, phone.page, "nav-sheet")
    assert phone.access.may_write and "club-table" in ids(phone.page)
    assert "next-pulka-open" not in ids(phone.page)
    [paper] = find(phone.page, lambda c: isinstance(c, cv.Canvas))
    words = [s.value for s in paper.shapes if isinstance(s, cv.Text)]
    assert words and "10000" not in words

    host, _ = n.host()
    await until(lambda: "club-dispute-1" in ids(host.page))
    assert by_id(host.page, "club-dispute-1").value == (
        "Table 1: deal 3 rejected, to be checked and written again"
    )
    # Which deal and why: what it says, who wrote it and who rejected it.
    names = dict(zip(n.seats(1), n.store.load(sid).session.players, strict=True))
    assert by_id(host.page, "club-dispute-1-3").value == (
        f"Table 1, deal 3 (All pass): written by #{first} {names[first]}, "
        f"rejected by #{second} {names[second]}: the tricks are wrong"
    )
    n.store.close()


async def test_the_entry_says_which_deal_of_the_tour_and_what_waits(tmp_path: Path) -> None:
    n = Night(tmp_path, deals=2)
    sid, first = n.sid(1), n.seats(1)[0]
    phone, session = n.phone(1, "device-of-the-first-player-0001")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    phone.redraw()
    await navigate(session, phone.page, "nav-entry")
    assert by_id(phone.page, "club-entry-count").value == "Tour 1: this deal counts as 1 of 2"
    assert "club-entry-waiting" not in ids(phone.page)
    n.club.write_deal(n.nid, 1, 1, RASP, by=first, seen=0)
    phone.redraw()
    assert by_id(phone.page, "club-entry-count").value == "Tour 1: this deal counts as 2 of 2"
    assert by_id(phone.page, "club-entry-waiting").value == (
        "1 deal or change waits for a confirmation (on the Sheet)"
    )
    n.club.write_deal(n.nid, 1, 1, RASP, by=first, seen=1)
    phone.redraw()
    assert by_id(phone.page, "club-entry-done").value == (
        "Table 1 has played its 2 deals of tour 1: no deal is left to write."
    )
    assert "club-entry-count" not in ids(phone.page)
    # No deal is offered past the last: no "Deal 3" head, no declarers, no Write.
    shown = ids(phone.page)
    assert "deal-header" not in shown and "confirm-deal" not in shown
    assert not [i for i in shown if i.startswith(("declarer-", "contract-"))]
    assert by_id(phone.page, "club-entry-waiting").value == (
        "2 deals or changes wait for a confirmation (on the Sheet)"
    )
    n.store.close()


async def test_the_phone_hears_the_tour_end_and_its_players_next_table(tmp_path: Path) -> None:
    n = Night(tmp_path, deals=1)
    sid, first = n.sid(1), n.seats(1)[0]
    phone, session = n.phone(1, "device-of-the-first-player-0001")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    phone.redraw()
    await navigate(session, phone.page, "nav-sheet")
    n.club.claim_phone(n.nid, 1, 1, first, device="device-of-the-first-player-0001")
    for table in (1, 2):
        a, b, _ = n.seats(table)
        n.club.write_deal(n.nid, 1, table, RASP, by=a, seen=0)
        deal = n.store.load(n.sid(table)).journal.live[0].deal_id
        n.club.confirm(n.nid, 1, table, deal, by=b)
    phone.redraw()
    assert "club-tour-ended" not in ids(phone.page)
    host, sh = n.host()
    await fire(sh, by_id(host.page, "club-end-tour"))
    dialog = [d for d in host.page._dialogs.controls if d.open][-1]
    await fire(sh, by_id(dialog, "confirm-end-tour"))
    await until(lambda: "club-tour-ended" in ids(phone.page))
    assert by_id(phone.page, "club-tour-ended").value == (
        "Tour 1 has ended; the director draws tour 2."
    )
    await fire(sh, by_id(host.page, "club-draw"))
    night = n.club.load(n.nid)
    [mine] = [t for t in night.tour(2).tables if first in t.players]
    players = ", ".join(f"#{k} {night.name_of(k)}" for k in mine.players)
    await until(lambda: "you play at table" in by_id(phone.page, "club-tour-ended").value)
    assert by_id(phone.page, "club-tour-ended").value == (
        f"Tour 1 has ended. In tour 2 you play at table {mine.number}: {players}."
    )
    n.store.close()


async def test_the_cash_out_at_a_club_table_shows_points_and_places(tmp_path: Path) -> None:
    # Whists scoring (Night's default): a table's points are its whists; the places by them.
    n = Night(tmp_path, deals=2)
    sid, (a, b, c) = n.sid(1), n.seats(1)
    six = {
        "type": "game",
        "declarer": 1,
        "contract": "6S",
        "calls": ["whist"],
        "tricks": {"1": 6, "2": 3, "0": 1},
    }
    n.club.write_deal(n.nid, 1, 1, six, by=a, seen=0)
    phone, session = n.phone(1, "device-of-the-first-player-0001")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    phone.redraw()
    await navigate(session, phone.page, "nav-settle")
    night = n.club.load(n.nid)
    whists = night.tour(1).table(1).whists
    assert whists is not None
    order = sorted((a, b, c), key=lambda k: (-whists[k], k))
    assert by_id(phone.page, "club-points-head").value == (
        "What the night counts at this table (tour 1):"
    )
    for place, k in enumerate(order, start=1):  # whists scoring: the points are the whists
        assert by_id(phone.page, f"club-points-{k}").value == (
            f"{place}. #{k} {night.name_of(k)}: {whist_figure(whists[k])} points "
            f"({signed(whists[k])} whists)"
        )
    assert whists[order[0]] > 0
    # Points and places, not roubles: no money column, balance lines in money or payments.
    shown = ids(phone.page)
    assert "club-points-head" in shown and "settle-table" in shown
    assert not [i for i in shown if i.endswith("-money") or i.startswith(("balance-", "payment-"))]
    texts = [c.value for c in find(phone.page, lambda c: isinstance(c, ft.Text))]
    assert not [t for t in texts if isinstance(t, str) and ("₽" in t or "Money" in t)]
    n.store.close()


async def test_a_deal_written_again_comes_up_with_its_reason(tmp_path: Path) -> None:
    n = Night(tmp_path, deals=2)
    sid, (first, second, _) = n.sid(1), n.seats(1)
    n.club.write_deal(n.nid, 1, 1, RASP, by=first, seen=0)
    deal = n.store.load(sid).journal.live[0].deal_id
    n.club.reject(n.nid, 1, 1, deal, by=second, reason="the tricks are wrong")
    again = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}
    n.club.rewrite_deal(n.nid, 1, 1, deal, again, by=first, reason="the cards: 4, 3, 3", seen=1)
    phone, session = n.phone(1, "device-of-the-second-player-002")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    phone.redraw()
    await navigate(session, phone.page, "nav-sheet")
    names = dict(zip(n.seats(1), n.store.load(sid).session.players, strict=True))
    assert by_id(phone.page, "club-deal-1").value == (
        f"Deal 1 (All pass), written again by #{first} {names[first]} (the cards: 4, 3, 3): "
        "to confirm"
    )
    n.store.close()
