"""Issue #37, item 7: a player cannot confirm his own deal by saying he is someone else.  Who a
phone is at a table is chosen once (held by its device); a number another phone holds is not
offered, a phone that chose cannot choose again until the director frees it, and the table
and the director see who each phone is and what the director freed."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.flet_fakes import by_id, fire, navigate, texts
from test_app_club_tables import Night, ids, until, write_raspasy

from scorepad.club.errors import ClubError
from scorepad.club.store import table_pin
from scorepad.core.i18n import catalog


def _said(exc: pytest.ExceptionInfo[ClubError], lang: str = "en") -> str:
    return catalog(lang).render(exc.value.message)


async def test_a_phone_is_one_player_at_its_table_until_the_director_frees_it(
    tmp_path: Path,
) -> None:
    n = Night(tmp_path, deals=3)
    sid, (first, second, third) = n.sid(1), n.seats(1)
    names = dict(zip(n.seats(1), n.store.load(sid).session.players, strict=True))
    pin = table_pin(n.store, sid)
    assert pin is not None
    a, sa = n.phone(1, "device-of-the-first-player-0001")
    b, sb = n.phone(1, "device-of-the-second-player-002")
    for shell in (a, b):
        assert shell.access.enter(pin) is None
        shell.redraw()
    host, sh = n.host()

    await fire(sa, by_id(a.page, f"club-me-{first}"))
    assert by_id(a.page, "club-me").value == f"You are #{first} {names[first]}"
    assert "club-me-change" not in ids(a.page)  # no "Not me"
    assert await write_raspasy(a, sa) is None
    # The writer is not offered a Confirm for his own deal.
    assert "club-confirm-1" not in ids(a.page)
    assert by_id(a.page, "club-waiting-1").value == "Waiting for another player to confirm it."

    # B is offered the numbers no phone holds; A's number is not one of them.
    await until(lambda: "club-phones" in ids(b.page))
    assert f"club-me-{first}" not in ids(b.page)
    assert {f"club-me-{second}", f"club-me-{third}"} <= ids(b.page)
    # The same phone cannot become another player, nor another phone take A's number.
    with pytest.raises(ClubError) as exc:
        n.club.claim_phone(n.nid, 1, 1, second, device="device-of-the-first-player-0001")
    assert _said(exc) == (
        f"this phone is #{first} at this table; to choose again, ask the director to free it"
    )
    with pytest.raises(ClubError) as exc:
        n.club.claim_phone(n.nid, 1, 1, first, device="device-of-the-second-player-002")
    assert _said(exc) == (
        f"#{first} is chosen on another phone at this table; if that was a mistake, the director frees it"
    )
    assert _said(exc, "ru") != _said(exc)
    # So the writer's own phone cannot confirm his deal under another name.
    assert n.club.phone_number(sid, "device-of-the-first-player-0001") == first

    await fire(sb, by_id(b.page, f"club-me-{second}"))
    await until(lambda: f"#{second} {names[second]}" in by_id(a.page, "club-phones").value)
    assert by_id(b.page, "club-phones").value == (
        "Phones at this table: " + ", ".join(f"#{k} {names[k]}" for k in sorted((first, second)))
    )
    await fire(sb, by_id(b.page, "club-confirm-1"))
    assert (n.club.marks(sid)[0].state, n.club.marks(sid)[0].decided_by) == ("confirmed", second)

    # The director sees who each phone is and frees A's choice; the table sees it was freed.
    host.redraw()
    assert by_id(host.page, "club-phones-1").value == (
        "Phones: " + ", ".join(f"#{k} {names[k]}" for k in sorted((first, second)))
    )
    assert by_id(host.page, "club-phones-2").value == "Phones: none chosen yet"
    await fire(sh, by_id(host.page, f"club-free-1-{first}"))
    assert n.club.phone_number(sid, "device-of-the-first-player-0001") is None
    await until(lambda: "club-freed-0" in ids(b.page))
    assert by_id(b.page, "club-freed-0").value == (
        f"The director freed #{first} {names[first]}: a phone may choose that number again"
    )
    await until(lambda: f"club-me-{first}" in ids(a.page))
    # Freed, A's phone writes nothing until it chooses again.
    await navigate(sa, a.page, "nav-sheet")
    assert await write_raspasy(a, sa) == "Choose who you are at table 1 first (on the sheet)."
    assert "Phones at this table" in " ".join(texts(a.page))
    n.store.close()
