"""Each family's entry form builds its family's typed deal (the pydantic model) from the choices
(issue #34, round three): no JSON dict is assembled and then validated.  A choice still missing
is refused by the model itself, in the same sentence naming the field as the dict's validation
gave before; the guard keeps the forms from building dicts again."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

import scorepad
from conftest import scored
from scorepad.app.bula.form import BulaForm
from scorepad.app.kassa.form import KassaForm
from scorepad.app.pot.form import PotForm
from scorepad.app.pulya.form import DealForm
from scorepad.core.i18n import Msg
from scorepad.scoring.contract import Trump
from scorepad.scoring.ledger.bula import BulaAllPass, BulaDeal, BulaGame, PikNoContra
from scorepad.scoring.ledger.families import FamilyScored, parse_family_session, replay_family
from scorepad.scoring.ledger.kassa import KassaDeal, KassaGame, KassaRedeal
from scorepad.scoring.ledger.pot import Concede, PotAllPass, PotDeal, PotGame
from scorepad.scoring.pulya.session import Deal, Game, Misere, Raspasy, pydantic_problem

NAMES = ["Ana", "Boris", "Vera"]


def ledger(convention: str) -> FamilyScored:
    return replay_family(
        parse_family_session(
            {"format": "scorepad-session/1", "players": NAMES, "convention": convention}
        )
    )


def refusal(make: Any) -> Msg:
    """The sentence a player reads for the first field the deal refuses."""
    with pytest.raises(ValidationError) as exc:
        make()
    return pydantic_problem(exc.value.errors()[0]).said()


def said_before(model: Any, data: dict[str, Any]) -> Msg:
    """The sentence the dict the form built before gave, validated into the model."""
    return refusal(lambda: TypeAdapter(model).validate_python(data))


def same(a: Msg, b: Msg) -> bool:
    return all(a.render(lang) == b.render(lang) for lang in ("en", "ru", "de", "sr_Latn", "el"))


def test_the_pulya_form_builds_its_deal_models() -> None:
    f = DealForm(scored([]))
    f.choose_declarer(1)
    f.choose_contract(7, Trump.SPADES)
    f.say("whist")
    f.say("pass")
    f.set_tricks(1, 7)
    f.set_tricks(2, 3)
    game = f.deal()
    assert type(game) is Game
    assert (game.declarer, game.contract.code, game.tricks) == (1, "7S", {1: 7, 2: 3, 0: 0})
    f.choose_kind("misere")
    f.choose_declarer(0)
    f.set_tricks(0, 0)
    assert type(f.deal()) is Misere and f.deal().declarer == 0
    f.choose_kind("raspasy")
    assert type(f.deal()) is Raspasy


def test_the_ledger_forms_build_their_deal_models() -> None:
    bula = BulaForm(ledger("balkan"))
    bula.choose_kind("allpass")
    assert type(bula.deal()) is BulaAllPass
    bula.choose_kind("pik_no_contra")
    bula.choose_declarer(1)
    assert bula.deal() == PikNoContra(type="pik_no_contra", declarer=1)
    kassa = KassaForm(ledger("prefa"))
    kassa.choose_redeal()
    assert type(kassa.deal()) is KassaRedeal
    pot = PotForm(ledger("austrian"))
    pot.choose_kind("allpass")
    assert pot.deal() == PotAllPass(type="allpass", dealer=0)
    pot.choose_kind("concede")
    pot.choose_declarer(2)
    assert type(pot.deal()) is Concede and pot.deal().declarer == 2


def test_a_choice_still_missing_is_refused_in_the_same_words_as_before() -> None:
    """The model built from the form names the field as the dict the form built before did
    (its old shape, validated the old way, is the oracle)."""
    pulya = DealForm(scored([]))
    pulya.choose_declarer(1)
    assert same(
        refusal(pulya.deal),
        said_before(Deal, {"type": "game", "declarer": 1, "contract": None, "calls": []}),
    )
    bula = BulaForm(ledger("balkan"))
    bula.choose_declarer(1)
    assert bula.bid is None
    old = {"type": "game", "declarer": 1, "bid": None, "hand": False, "defence": {}}
    assert same(refusal(bula.deal), said_before(BulaDeal, old))
    # The field in the player's words, never its name in the file.
    assert refusal(bula.deal).render("en") == "the bid: must be a whole number"
    assert refusal(bula.deal).render("ru") == "заявка: должно быть целым числом"
    kassa = KassaForm(ledger("prefa"))
    kassa.choose_declarer(1)
    old = {"type": "game", "declarer": 1, "contract": None, "defence": {}}
    assert same(refusal(kassa.deal), said_before(KassaDeal, old))
    pot = PotForm(ledger("austrian"))
    pot.choose_declarer(1)
    old = {"type": "game", "declarer": 1, "suit": None}
    assert same(refusal(pot.deal), said_before(PotDeal, old))


def test_a_complete_form_s_deal_is_what_its_dict_was() -> None:
    """The typed deal equals the deal the old dict validated into (the store keeps the same)."""
    f = BulaForm(ledger("balkan"))
    f.choose_declarer(2)
    f.choose_bid(3, False)
    for seat in f.defenders():
        f.say(seat, "follow")
    f.choose_contra(0)
    for seat in f.trick_seats()[:-1]:
        f.set_tricks(seat, f.trick_choices(seat)[0])
    old = {
        "type": "game",
        "declarer": 2,
        "bid": 3,
        "hand": False,
        "defence": {str(s): "follow" for s in f.defenders()},
        "tricks": {str(s): n for s, n in f.tricks.items()},
    }
    assert f.deal() == TypeAdapter(BulaDeal).validate_python(old)
    assert type(f.deal()) is BulaGame
    k = KassaForm(ledger("prefa"))
    k.choose_declarer(0)
    k.choose_contract(k.contracts(6)[0])
    for seat in k.defenders():
        k.say(seat, "pass")
    old = {
        "type": "game",
        "declarer": 0,
        "contract": k.contracts(6)[0].code,
        "defence": {str(s): "pass" for s in k.defenders()},
    }
    assert k.deal() == TypeAdapter(KassaDeal).validate_python(old)
    assert type(k.deal()) is KassaGame
    p = PotForm(ledger("austrian"))
    p.choose_declarer(0)
    p.choose_suit("S")
    assert type(p.deal()) is PotGame


# --- the guard ---------------------------------------------------------------------------------

FORMS = [
    Path(scorepad.__file__).parent / "app" / name / "form.py"
    for name in ("pulya", "bula", "kassa", "pot", "families")
]


def _validates_a_built_dict(tree: ast.AST) -> list[int]:
    """Lines where a deal is validated from what the form itself built (``to_deal``, ``_game``):
    ``X.validate_python(self.to_deal())``, ``self._parse(self._game(...))``."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in ("validate_python", "model_validate", "_parse"):
            continue
        for arg in node.args:
            if (
                isinstance(arg, ast.Call)
                and isinstance(arg.func, ast.Attribute)
                and isinstance(arg.func.value, ast.Name)
                and arg.func.value.id == "self"
            ):
                found.append(node.lineno)
    return found


def test_the_guard_sees_a_dict_deal_validated() -> None:
    before = """
def deal(self):
    return _DEAL.validate_python(self.to_deal())
def _in_play(self):
    return BulaGame.model_validate(self._game(defence, contra, None, bid))
def _accepts(self, deal):
    self.table.verify(self._parse(deal))
"""
    assert _validates_a_built_dict(ast.parse(before)) == [3, 5]


@pytest.mark.parametrize("path", FORMS, ids=lambda p: p.parent.name)
def test_no_form_validates_a_deal_it_built_as_a_dict(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _validates_a_built_dict(tree) == []
    # Its JSON form, where it has one, is its typed deal's (never built beside it).
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "to_deal":
            calls = [
                c
                for c in ast.walk(node)
                if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Attribute)
                and c.func.attr == "deal"
            ]
            assert calls, f"{path.name}: to_deal builds a dict of its own"
