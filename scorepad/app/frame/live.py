"""One live sheet on every device: what another device wrote, shown within a moment.

Every write is announced on Flet's PubSub (one hub per server, across the browser sessions);
each page showing that session draws it again from the store.  A deal being entered is rebased
on the new state with the player's choices kept where they still make sense, and the player is
told in words what changed.  A write still made on an outdated basis is refused by the store
(every form sends the revision it was built from) and handled the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import flet as ft

from ...core.i18n import N_, Msg, msg
from ...store import AnyDeal, AnyStored, StoreError
from ...store.journal import Action, Entry, number_of
from . import registry
from .family import EntryForm, ui_of
from .theme import sem

if TYPE_CHECKING:
    from .shell import Shell

TOPIC = "scorepad-written"
LINKS = "scorepad-link-renewed"  # the host made a new join link for a session
# Screens with a half-typed form that shows nothing of the session: not redrawn under the typing.
QUIET = frozenset({"pin_screen", "new_session_screen"})
# Screens drawn whole from the store, whose controls are never changed in place once shown:
# redrawn live as a diff against what is on screen (Shell.show(diffed=True)), which is several
# times cheaper than a new frame.  Flet freezes a diffed frame: a screen that changes a control
# in place (entry's edit reason, the new pulka's form) must not be listed, nor is a family's own
# sheet (registered by its app package, app/frame/family.py), which its module draws.
DIFFED = frozenset({"history_screen", "sheet_screen", "settle_screen", "chart_screen"})
log = logging.getLogger(__name__)


def publish(shell: Shell, sid: int, revision: int) -> None:
    """Tell every other page of this server that session ``sid`` is now at ``revision``."""
    try:
        shell.page.pubsub.send_others_on_topic(TOPIC, (sid, revision))
    except RuntimeError:  # a page with no server behind it (no event loop): nobody to tell
        log.debug("no pubsub loop; session %s revision %s not announced", sid, revision)


# The pages that follow writes (subscribe): a writer's page asks whether others show its session.
_FOLLOWING: weakref.WeakSet[Shell] = weakref.WeakSet()
# The pages waiting for their turn to be redrawn for a write (listener), and how many times a
# writer's own fresh form lets them go first (after_others).
_WAITING = [0]
_YIELDS = 200
# A task nobody holds may be collected before it runs.
_PENDING: set[asyncio.Task[None]] = set()


def subscribe(shell: Shell) -> None:
    """Follow the writes of every page; a page that reconnects draws the session as it stands."""
    _FOLLOWING.add(shell)
    shell.page.pubsub.subscribe_topic(TOPIC, listener(shell))
    shell.page.pubsub.subscribe_topic(LINKS, link_listener(shell))
    shell.page.on_connect = lambda e: refresh(shell)


def link_renewed(shell: Shell, sid: int) -> None:
    """Tell every other page that session ``sid``'s join link changed (the old one is shut)."""
    try:
        shell.page.pubsub.send_others_on_topic(LINKS, sid)
    except RuntimeError:  # a page with no server behind it: nobody to tell
        log.debug("no pubsub loop; the new link of session %s not announced", sid)


def table_moved(shell: Shell, old: int, new: int) -> None:
    """Tell every other page that the table of session ``old`` plays on in ``new`` (its link
    moved there, grants.py): the phones that joined ``old`` follow."""
    try:
        shell.page.pubsub.send_others_on_topic(LINKS, (old, new))
    except RuntimeError:  # a page with no server behind it: nobody to tell
        log.debug("no pubsub loop; the move of session %s's table not announced", old)


def link_listener(shell: Shell) -> Callable[[str, Any], Awaitable[None]]:
    async def on_renewed(topic: str, sid: Any) -> None:
        if isinstance(sid, tuple):  # the table moved to its next pulka
            old, new = sid
            if shell.access.scope == old:
                follow(shell, new)
        elif shell.access.scope == sid and not shell.access.link_open:
            _shut(shell)

    return on_renewed


def follow(shell: Shell, new: int) -> None:
    """This page's link opens session ``new`` now (the next pulka at its table): show it."""
    shell.access.scope = new
    if not shell.access.link_open:  # the page held another link (an old one): nothing
        _shut(shell)
        return
    close_notice(shell)
    shell.sid = new
    shell.message = None
    try:
        shell.new_form()
    except StoreError as exc:
        shell.message = exc.render(shell.lang)
    shell.show(registry.screen("sheet"))


def _shut(shell: Shell) -> None:
    close_notice(shell)
    shell.page.pop_dialog()
    link_closed(shell)


def link_closed(shell: Shell) -> None:
    """The page's join link opens nothing (never did, or the host made a new one): nothing of
    the session stays on it."""
    shell.message = shell.t(N_("This link opens nothing: ask the host for the table's link."))
    shell.sid = None
    shell.form = None
    shell.editing = None
    shell.show(nothing_screen)


def nothing_screen(shell: Shell) -> ft.Control:
    return sem("join-missing", ft.Text(shell.t(N_("Nothing to show."))))


def listener(shell: Shell) -> Callable[[str, Any], Awaitable[None]]:
    # Async: the hub runs it on the server's event loop, where page updates belong.
    async def on_written(topic: str, message: Any) -> None:
        sid, revision = message
        if _left(shell):
            return  # drawn again when it reconnects (on_connect), freed when its session ends
        if shell.sid == sid and shell.basis != revision:
            # One page at a time, each page's update sent before the next page is drawn: the
            # first pages show the write while the last ones are still being drawn.
            entered = False
            _WAITING[0] += 1
            try:
                async with turn():
                    entered = True
                    _WAITING[0] -= 1
                    refresh(shell)
                    await asyncio.sleep(0)
            finally:
                if not entered:
                    _WAITING[0] -= 1

    return on_written


def _left(shell: Shell) -> bool:
    """The page's browser went away (closed, asleep): nobody would see a redraw."""
    try:
        return shell.page.session.connection is None
    except RuntimeError:  # a page with no session behind it
        return False


_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def turn() -> asyncio.Lock:
    """The pages' turn to be redrawn, one lock per event loop (a server has one)."""
    loop = asyncio.get_running_loop()
    lock = _TURNS.get(loop)
    if lock is None:
        lock = _TURNS[loop] = asyncio.Lock()
    return lock


def after_others(shell: Shell, draw: Callable[[], None]) -> bool:
    """Draw the writer's own page once the other pages of its session have the write.

    A table's other phones learn of a write only from the server; the writer knows what he
    wrote.  When other pages show this session (a shared table), ``draw`` waits for its turn
    behind theirs (turn: the pages announced first), instead of building the writer's new entry
    frame, the costliest drawing of a write, before any of them is drawn.  Says whether it
    waits; when nobody else shows the session (or no server loop runs), the caller draws now.
    """
    sid = shell.sid
    if sid is None or not any(
        other is not shell
        and other.session.store is shell.session.store
        and other.sid == sid
        and not _left(other)
        for other in _FOLLOWING
    ):
        return False
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return False

    async def later() -> None:
        # The other pages' redraws are scheduled by the pub-sub hub after this handler returns:
        # one step back lets them queue first.  Then every page waiting to be redrawn goes
        # first (a burst of the night's tables: every table's phones, then the writers' own
        # forms), a bounded number of times, so a stream of writes never starves this one.
        await asyncio.sleep(0)
        for _ in range(_YIELDS):
            async with turn():
                if not _WAITING[0]:
                    _draw_unless_left(shell, draw)
                    return
            await asyncio.sleep(0)
        async with turn():
            _draw_unless_left(shell, draw)

    task = loop.create_task(later())
    _PENDING.add(task)
    task.add_done_callback(_PENDING.discard)
    return True


def _draw_unless_left(shell: Shell, draw: Callable[[], None]) -> None:
    """``draw``, unless the page went away meanwhile (its phone closed just after the write)."""
    if _left(shell):
        return
    with contextlib.suppress(RuntimeError):  # the page's session ended as it was drawn
        draw()


def refresh(shell: Shell) -> None:
    """Draw the open session as it stands now; a deal being entered is rebased and kept."""
    if shell.sid is None or shell.screen is None:
        return
    with shell.drawing():  # what is read here is what the page is drawn from
        _refresh(shell)


def _refresh(shell: Shell) -> None:
    if not shell.access.link_open:  # a page that comes back with a link the host replaced
        _shut(shell)
        return
    try:
        stored = shell.stored()
    except StoreError:
        return
    if shell.basis == stored.revision:
        return
    name = getattr(shell.screen, "__name__", "")
    if name in QUIET:
        return
    if name == "entry_screen" and shell.form is not None:
        if shell.editing is not None or _dirty(shell.form, stored):
            # A deal half entered stays as it is, on its basis: redrawn, a tap meant for the old
            # "Write" could land on a new one.  The player is told now; his confirm is refused
            # (it names the old revision), and only then is the form rebased.
            seen = shell.basis if shell.basis is not None else stored.revision
            notice(shell, say(shell, changed_since(shell, stored, seen)))
            return
        rebase_form(shell, stored)
    close_notice(shell)
    shell.basis = stored.revision
    shell.redraw(diffed=name in DIFFED and (name != "sheet_screen" or shell.family == "pulya"))


def notice(shell: Shell, text: str) -> None:
    """A note that does not redraw the screen under the player's finger.

    A banner at the top, never over the write button at the bottom; it stays until the player
    closes it, his refusal replaces it, or he goes to another screen (Shell.show closes it).
    """
    close_notice(shell)
    banner = ft.Banner(
        content=sem("live-notice", ft.Text(text)),
        actions=[
            sem(
                "live-notice-close",
                ft.TextButton(shell.t(N_("OK")), on_click=lambda: close_notice(shell)),
            )
        ],
        leading=ft.Icon(ft.Icons.INFO_OUTLINE),
    )
    shell.state.live_notice = banner
    shell.page.show_dialog(banner)


def close_notice(shell: Shell) -> None:
    """The note has served once the refusal (or the new state) is on the screen."""
    banner = cast("Any", shell.state.live_notice)
    shell.state.live_notice = None
    if banner is not None and banner.open:
        banner.open = False
        shell.page_touched = True  # the banner is the page's, not the root view's


def guarded(
    shell: Shell, ident: str, seen: int, make: Callable[[int], ft.Control]
) -> list[ft.Control]:
    """A write control drawn on revision ``seen``: ``make(seen)``, whose write names ``seen``.

    The same control drawn on the revisions this page showed just before stays too, hidden, under
    the same key: a tap the player made before a live redraw reached his screen (a diffed frame
    keeps the ids of the controls it keeps) lands on the control he saw, whose write names the
    revision he saw and is refused with what changed, never applied to a state he did not see.
    """

    # The control drawn on a revision stays the very object the player saw, hidden then, from
    # one live redraw to the next (Shell.reuse: Flet's diff skips it).
    def control(r: int) -> ft.Control:
        return shell.reuse(f"guarded-control-{ident}@{r}", (shell.sid, r), lambda: make(r))

    kept: list[ft.Control] = [
        shell.reuse(
            f"guarded-{ident}@{r}",
            (sid, r),
            lambda r=r: ft.Semantics(key=f"{ident}@{r}", content=control(r), visible=False),
        )
        for sid, r in shell.drawn
        if sid == shell.sid and r < seen
    ]
    return [*kept, ft.Semantics(key=f"{ident}@{seen}", identifier=ident, content=control(seen))]


def stale_told(shell: Shell, seen: int) -> None:
    """A write was refused as stale: say what changed, and rebase the form on the new state."""
    close_notice(shell)
    stored = shell.stored()
    told = changed_since(shell, stored, seen)
    if shell.form is not None:
        rebase_form(shell, stored, quiet=True)
    shell.basis = stored.revision
    shell.message = say(shell, told)


def say(shell: Shell, told: list[Msg]) -> str:
    return " ".join(shell.render(m) for m in told)


def rebase_form(shell: Shell, stored: AnyStored, *, quiet: bool = False) -> list[Msg]:
    """Put the open form on ``stored``, keeping the player's choices; what to tell him, if any."""
    old = shell.form
    assert old is not None
    seen = shell.basis if shell.basis is not None else stored.revision
    if shell.editing is not None:
        deal_id = shell.editing[0]
        live_ids = [e.deal_id for e in stored.journal.live]
        if deal_id not in live_ids:
            shell.new_form()
            shell.screen = _history()
            return changed_since(shell, stored, seen)
        reason = shell.state.edit_reason
        shell.edit_form(deal_id, live_ids.index(deal_id))
        shell.state.edit_reason = reason
        assert shell.form is not None
        shell.form = ui_of(shell.family).carry_edit(old, shell.form)
    else:
        shell.form = ui_of(stored.family).carry(old, stored)
        shell.editing = None
    shell.basis = stored.revision
    if quiet or not _dirty(old, stored):
        return []
    return changed_since(shell, stored, seen)


def _history() -> registry.Screen:
    return registry.screen("history")


def _dirty(form: EntryForm, stored: AnyStored) -> bool:
    return ui_of(stored.family).dirty(form)


def deal_name(stored: AnyStored, deal: AnyDeal) -> Msg:
    """A deal's name as the history titles it (``Anna: 6♠``, ``All pass``)."""
    return ui_of(stored.family).title(deal, list(stored.session.players))


def changed_since(shell: Shell, stored: AnyStored, seen: int) -> list[Msg]:
    """What other devices wrote after revision ``seen``, in words, and what to do now."""
    history = shell.session.history(stored.id)
    actions = [a for a in history if a.seq > seen]
    by_seq = {b.seq: b for b in history}  # an undo's target may be older than ``seen``
    told = [_describe(a, stored, by_seq) for a in actions[-3:]]
    if len(actions) > 3:
        told.insert(0, msg(N_("Several changes were just written on another device.")))
    if not told:
        told = [msg(N_("The game was just changed on another device."))]
    return [*told, msg(N_("Check your entry and confirm again."))]


def _describe(a: Action, stored: AnyStored, by_seq: dict[int, Action] | None = None) -> Msg:
    live = {e.deal_id: e for e in stored.journal.live}
    if a.kind in ("undo", "redo") and a.target is not None:
        said = _undo_redo(a, stored, live, by_seq or {})
        if said is not None:
            return said
    deal_id = a.seq if a.kind == "add" else a.deal_id
    if a.kind in ("add", "edit") and deal_id in live:
        # The deal by its number and its name ("Deal 17: Anna: 6♠"), as said at the table.
        n = number_of(stored.journal, deal_id)
        what = deal_name(stored, live[deal_id].deal)
        if a.kind == "add":
            return msg(N_("Deal {n} was just written on another device: {what}."), n=n, what=what)
        return msg(N_("Deal {n} was just changed on another device: {what}."), n=n, what=what)
    if a.kind == "void" and deal_id in stored.journal.entries:
        return msg(
            N_("Deal {n} was just voided on another device ({reason})."),
            n=number_of(stored.journal, deal_id),
            reason=a.reason,
        )
    if a.kind == "void":
        return msg(N_("A deal was just voided on another device ({reason})."), reason=a.reason)
    if a.kind == "undo":
        return msg(N_("An action was just undone on another device."))
    if a.kind == "redo":
        return msg(N_("An action was just redone on another device."))
    return msg(N_("The game was just changed on another device."))


def _undo_redo(
    a: Action, stored: AnyStored, live: dict[int, Entry], by_seq: dict[int, Action]
) -> Msg | None:
    """An undo or redo named by the deal it changed ("The change to deal 7 was just undone …")."""
    target = by_seq.get(a.target or -1)
    if target is None:
        return None
    deal_id = target.seq if target.kind == "add" else target.deal_id
    if deal_id is None:
        return None
    entries = stored.journal.entries
    number = number_of(stored.journal, deal_id) if deal_id in entries else None
    what = deal_name(stored, live[deal_id].deal) if deal_id in live else None
    if a.kind == "undo":
        if target.kind == "add" and target.deal is not None:
            return msg(
                N_("The deal just written was taken back on another device (undo): {what}."),
                what=deal_name(stored, target.deal),
            )
        if target.kind == "edit" and number is not None and what is not None:
            return msg(
                N_("The change to deal {n} was just undone on another device: {what}."),
                n=number,
                what=what,
            )
        if target.kind == "void" and number is not None and what is not None:
            return msg(
                N_("Deal {n} is back: its void was just undone on another device: {what}."),
                n=number,
                what=what,
            )
        return None
    if number is None:
        return None
    if target.kind == "add" and what is not None:
        return msg(
            N_("Deal {n} was just written again on another device (redo): {what}."),
            n=number,
            what=what,
        )
    if target.kind == "edit" and what is not None:
        return msg(
            N_("Deal {n} was just changed again on another device (redo): {what}."),
            n=number,
            what=what,
        )
    if target.kind == "void":
        return msg(N_("Deal {n} was just voided again on another device (redo)."), n=number)
    return None
