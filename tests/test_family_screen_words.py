"""Issue 38 item 10, whole: no code word reaches a player of the families, on any screen.

``test_family_words`` reads the catalog's sentences one by one; here what a player is shown is
rendered as he is shown it, in every language, and read for code words: the new-game screen of
every family preset with every setting shown (each description, each choice's words, each value
that is shown and not edited), each preset's name and summary, every refusal the validators give
to bad deals (pydantic's and the engines', through the form and through the store), and the
notices of what another device wrote.  A code word is a rule id of the digest ("(D4)", "B6",
"(§4.5 D12)", "(G8: 10)"), a snake_case identifier, a setting's value as the file writes it
("slovenia", "double_fall"), a field of the file or its path ("tricks:", "defence.1"), "null".
"""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from pydantic import ValidationError
from support.flet_fakes import by_id, find, fire, make_page, texts

from conftest import typed
from scorepad.app.families.settings import VALUE_LABELS, choices, kind_of
from scorepad.app.frame import screens  # noqa: F401  (the navigation's screens)
from scorepad.app.frame.live import changed_since
from scorepad.app.frame.screens import sessions_screen
from scorepad.app.frame.shell import Shell
from scorepad.core.i18n import LANGUAGES, catalog
from scorepad.scoring.ledger.bula import BulaSettings
from scorepad.scoring.ledger.families import family_deal_adapter, family_presets
from scorepad.scoring.ledger.kassa import KassaSettings
from scorepad.scoring.ledger.pot import PotSettings
from scorepad.scoring.pulya.session import Problem, pydantic_problem
from scorepad.store import InvalidEntry, Store

RULE_ID = re.compile(
    r"\((?:§[\d.]+ ?)?[A-G]-?(?:E|Q)?\d+\b[^)]*\)"  # (D4), (B-Q7), (§4.5 D12), (G8: 10)
    r"|§\s?\d"  # a section of the digest
    r"|\b[A-G]-?(?:E|Q)\d+\b|\b[A-G]\d{1,2}\b"  # B-Q1, A-E4, B6, D12
)
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
FIELDS = (
    "type|tricks|defence|declarer|dealer|contra|recontra|bid|hand|contract|suit|calls|players"
    "|note|second_round|four_aces|no_aces|kunstwerk|format|deals|by|level|premium"
)
#: A field of the file as a refusal's head ("tricks: …", "deal 3: defence.1: …") or a path.
FIELD_PATH = re.compile(rf"(?:^|[:,] )(?:{FIELDS})(?:\.\w+)*:|\b[a-z]+\.\d+\b")
NULL = re.compile(r"\bnull\b")

SETTINGS = (BulaSettings, PotSettings, KassaSettings)
RAW_VALUES = {
    str(v)
    for model in SETTINGS
    for name, f in model.model_fields.items()
    if kind_of(name, f) in ("choice", "shown") and name != "family"
    for v in choices(f)
    if len(str(v)) > 2 and str(v).isascii() and str(v).islower()
}


def raw_values(lang: str) -> re.Pattern[str]:
    """A setting's value as the file writes it, where it is no word of ``lang``: a value the
    language's own words for the settings' choices use ("refe" in "refe za sve") is a word."""
    words = " ".join(catalog(lang).gettext(label) for label in VALUE_LABELS.values())
    raw = sorted(v for v in RAW_VALUES if not re.search(rf"\b{re.escape(v)}\b", words))
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, raw))})\b")


def code_words(lang: str, text: str) -> list[str]:
    said = re.sub(r"\{[^}]*\}", "", text)
    found = []
    nothing = [NULL] if lang != "de" else []  # German's zero is "null"
    for pattern in (RULE_ID, SNAKE, FIELD_PATH, *nothing, raw_values(lang)):
        found += [m.group(0) for m in pattern.finditer(said)]
    return found


def test_the_reader_finds_each_kind_of_code_word() -> None:
    """The patterns catch what the issue saw (the test cannot pass by reading nothing)."""
    seen = [
        "Pik with the talon and no contra (D9): made, slovenia, play",
        "Modern: a declarer who makes it takes this from the pot (B6).",
        "Bula sheet (bula) or the seed's pot form (pot) (§4.5 D12).",
        "Chips to one kassa point in money (G8: 10).",
        "deljenje 10: declarer: Ljubica deli",
        "deal 3: tricks.2: at most 10",
        "off, kassa (by four_aces_value)",
        "the refe limit (null: no limit)",
        "truncate or double_fall",
    ]
    for text in seen:
        assert code_words("en", text), text
    assert code_words("de", "Pik ohne Kontra: made (ohne Spiel gewonnen)")
    clean = "Deal 4, the tricks: Anna: karo prošao, bula −6 (refe for all)"
    assert code_words("en", clean) == []
    assert code_words("sr_Latn", "Pik bez kontre se ne igra: refe za sve") == []


# --- the new-game screen of every preset, every setting shown ---------------------------------


@pytest.fixture(params=LANGUAGES)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Shell, Any, str]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, request.param, threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, request.param


async def _choose(session: Any, control: ft.Dropdown, value: str) -> None:
    session.apply_patch(control._i, {"value": value})
    await fire(session, control, "select", value)


async def test_every_presets_settings_are_said_in_the_players_words(
    app: tuple[Shell, Any, str],
) -> None:
    shell, session, lang = app
    cat = catalog(lang)
    await fire(session, by_id(shell.page, "session-new"))
    read = 0
    for pid, preset in family_presets().items():
        await _choose(session, by_id(shell.page, "convention"), pid)
        if by_id(shell.page, "show-settings").content == cat.gettext("Show every setting"):
            await fire(session, by_id(shell.page, "show-settings"))
        shown = words(shell.page)
        assert preset.summary_in(lang) in shown
        settings = preset.resolve()
        for name, field in type(settings).model_fields.items():
            if kind_of(name, field) != "choice":
                continue
            for v in choices(field):
                button = by_id_or_none(shell.page, f"setting-{name}-{v}")
                if button is not None:  # the preset's rules read it: its value in words
                    assert words(button) == [cat.gettext(VALUE_LABELS[name, v])]
        bad = {t: code_words(lang, t) for t in shown if code_words(lang, t)}
        assert bad == {}, pid
        read += len(shown)
    assert read > 300  # every preset's screen was read, settings and all


def words(root: Any) -> list[str]:
    """Every word the player can read under ``root``: texts, and a button's, a field's label, its
    hint and its error, a list's options (``texts`` reads the texts only)."""
    out = list(texts(root))
    for c in find(root, lambda c: True):
        for attr in ("content", "label", "hint_text", "error", "helper", "tooltip", "text"):
            v = getattr(c, attr, None)
            if isinstance(v, str) and v:
                out.append(v)
        if isinstance(c, ft.dropdown.Option) and c.text:
            out.append(c.text)
    return out


def by_id_or_none(root: Any, identifier: str) -> Any:
    try:
        return by_id(root, identifier)
    except AssertionError:
        return None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_setting_and_value_has_its_sentence_in_every_language(lang: str) -> None:
    """Each family setting's description and each choice's value is a sentence of the catalog,
    translated, and free of code words (the command line's listing prints them too)."""
    cat = catalog(lang)
    for model in SETTINGS:
        for name, field in model.model_fields.items():
            if name == "family":
                continue
            assert field.description, name
            said = cat.gettext(field.description)
            assert lang == "en" or said != field.description, (lang, name)
            assert code_words(lang, said) == [], (name, said)
            if kind_of(name, field) == "choice" or name in ("scoring", "system"):
                for v in choices(field):
                    label = cat.gettext(VALUE_LABELS[name, v])
                    assert code_words(lang, label) == [], (name, v, label)
                    assert lang == "en" or label != VALUE_LABELS[name, v], (lang, name, v)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_presets_name_and_summary(lang: str) -> None:
    for pid, preset in family_presets().items():
        for text in (preset.name_in(lang), preset.summary_in(lang)):
            assert code_words(lang, text) == [], (pid, text)


def test_a_shown_value_is_said_with_signs_and_names() -> None:
    """Prices by trump and the Illustrated games were printed as the file's keys ("C: 1")."""
    from scorepad.app.families.settings import shown_value

    pot = PotSettings()
    assert shown_value("trick_rate", pot.trick_rate).render("de") == "♣ 1, ♠ 2, ♦ 3, ♥ 4"
    assert shown_value("nonsuit_values", pot.nonsuit_values).render("ru") == (
        "Беттель 10, Дурхмарш 20, Плаудерер 30, открытый дурхмарш 40"
    )
    assert shown_value("sitting_out_chips", KassaSettings().sitting_out_chips).render() == (
        "25, 50"
    )
    assert shown_value("system", "swabian").render("de") == "Donauschwäbisch"


# --- every refusal of a bad deal --------------------------------------------------------------

NAMES = ["Ana", "Boris", "Vesna"]
#: A good deal of each family (3 players, the first dealer the last seat); bad ones are made from
#: it field by field, and a few are bad by the rules, not by their form.
GOOD: dict[str, list[dict[str, Any]]] = {
    "balkan": [
        {
            "type": "game",
            "declarer": 0,
            "bid": 3,
            "defence": {"1": "follow", "2": "follow"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
        {"type": "allpass"},
        {"type": "pik_no_contra", "declarer": 1},
        {
            "type": "game",
            "declarer": 0,
            "bid": 2,
            "defence": {"1": "follow", "2": "pass"},
            "contra": {"by": 1, "level": 1},
            "tricks": {"0": 6, "1": 4},
        },
    ],
    "prefa": [
        {
            "type": "game",
            "declarer": 0,
            "contract": "6D",
            "defence": {"1": "whist", "2": "whist"},
            "tricks": {"0": 5, "1": 3, "2": 2},
        },
        {"type": "redeal"},
    ],
    "austrian": [
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 7, "1": 2, "2": 1},
        },
        {"type": "allpass"},
        {"type": "concede", "declarer": 0, "suit": "S", "defence": {"1": "pass", "2": "pass"}},
    ],
    "illustrated": [
        {
            "type": "nonsuit",
            "declarer": 1,
            "contract": "bettel",
            "contra": {"0": True},
            "tricks": 0,
        },
    ],
}
#: Deals of a good form that the rules refuse.
AGAINST_THE_RULES: dict[str, list[dict[str, Any]]] = {
    "balkan": [
        {**GOOD["balkan"][0], "tricks": {"0": 6, "1": 2, "2": 1}},
        {**GOOD["balkan"][0], "contra": {"by": 0, "level": 1}},
        {**GOOD["balkan"][0], "defence": {"1": "pass", "2": "pass"}},
        {**GOOD["balkan"][0], "defence": {"1": "invite", "2": "follow"}},
        {**GOOD["balkan"][0], "tricks": {"0": 6, "1": 4}},
    ],
    "prefa": [
        {**GOOD["prefa"][0], "contract": "10NT"},
        {**GOOD["prefa"][0], "four_aces": 0},
        {**GOOD["prefa"][0], "defence": {"1": "counter", "2": "invite"}},
        {**GOOD["prefa"][0], "tricks": {"0": 5, "1": 3, "2": 3}},
        {**GOOD["prefa"][0], "defence": {"1": "pass", "2": "pass"}},
    ],
    "austrian": [
        {**GOOD["austrian"][0], "tricks": {"0": 7, "1": 2, "2": 2}},
        {**GOOD["austrian"][0], "tricks": {"0": 7, "1": 3}},
        {**GOOD["austrian"][1], "dealer": 0},
        {**GOOD["illustrated"][0], "declarer": 0},
    ],
}
BAD_VALUES: list[Any] = ["x", 99, -1, None, {"9": 1}, [1], True]


def _bad_deals(good: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield {**good, "extra": 1}
    for key in good:
        yield {k: v for k, v in good.items() if k != key}
        for bad in BAD_VALUES:
            yield {**good, key: bad}
        if isinstance(good[key], dict):
            for inner in good[key]:
                for bad in ("x", 11, -1):
                    yield {**good, key: {**good[key], inner: bad}}
                yield {**good, key: {k: v for k, v in good[key].items() if k != inner}}
    yield {**good, "dealer": 1}  # not the rotation's dealer


def _refusals(tmp_path: Path) -> list[tuple[str, Problem]]:
    """Every refusal the bad deals meet: pydantic's (as the forms say it) and the engines' (as
    the store's write says it)."""
    out: list[tuple[str, Problem]] = []
    with Store(tmp_path / "bad.db") as store:
        for convention, goods in GOOD.items():
            sid = store.create_session(NAMES, convention=convention, first_dealer=2)
            family = store.family(sid)
            adapter = family_deal_adapter(family)
            bad_deals = [d for good in goods for d in _bad_deals(copy.deepcopy(good))]
            for bad in [*bad_deals, *AGAINST_THE_RULES.get(convention, [])]:
                try:
                    deal = adapter.validate_python(bad)
                except ValidationError as exc:
                    out.append((convention, pydantic_problem(exc.errors()[0])))
                    continue
                try:
                    store.add_deal(sid, deal, seen=store.load(sid).revision)
                except InvalidEntry as exc:
                    out += [(convention, p) for p in exc.problems]
                    continue
                store.undo(sid, seen=store.load(sid).revision)
    return out


@pytest.fixture(scope="module")
def refusals(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Problem]]:
    return _refusals(tmp_path_factory.mktemp("refusals"))


def test_bad_deals_meet_many_refusals(refusals: list[tuple[str, Problem]]) -> None:
    said = {p.said().render("en") for _, p in refusals}
    assert len(said) > 40, sorted(said)
    for convention in GOOD:
        assert any(c == convention for c, p in refusals if p.deal is not None), convention


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_of_a_bad_deal_is_said_in_words(
    refusals: list[tuple[str, Problem]], lang: str
) -> None:
    bad = {}
    for convention, problem in refusals:
        said = problem.said().render(lang)
        found = code_words(lang, said)
        if found:
            bad[said] = (convention, problem.field, found)
    assert bad == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pot_forms_preview_names_no_field(lang: str) -> None:
    """The pot's preview wrote the engine's refusal as "tricks: …" (the file's name)."""
    from scorepad.app.pot.form import PotForm
    from scorepad.scoring.ledger.families import PotSession, replay_family

    s = PotSession.model_validate(
        {"format": "scorepad-session/1", "players": NAMES, "convention": "austrian"}
    )
    f = PotForm(replay_family(s))
    f.load(
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 7, "1": 2, "2": 2},  # eleven tricks
        }
    )
    lines, why = f.preview(lang)
    assert lines == [] and why is not None
    assert code_words(lang, why) == [], why
    assert why.startswith(catalog(lang).gettext("the tricks")), why


# --- the notices of what another device wrote -------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_notices_of_another_devices_writes(tmp_path: Path, lang: str) -> None:
    page, _session, _conn = make_page()
    with Store(tmp_path / "n.db", check_same_thread=False) as store:
        shell = Shell(page, store, lang, threading.RLock())
        for convention, goods in GOOD.items():
            sid = store.create_session(NAMES, convention=convention, first_dealer=2)
            rev = store.load(sid).revision
            for good in goods[:2]:
                rev = store.add_deal(sid, typed(store, sid, good), seen=rev).revision
            first = store.load(sid).journal.live[0].deal_id
            rev = store.void_deal(sid, first, reason="misdeal", seen=rev).revision
            rev = store.undo(sid, seen=rev).revision
            rev = store.redo(sid, seen=rev).revision
            stored = store.load(sid)
            for seen in range(rev):
                for m in changed_since(shell, stored, seen):
                    said = shell.render(m)
                    assert code_words(lang, said) == [], said
