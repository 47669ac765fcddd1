"""Convention presets as data: every setting present, described in English and Russian, validated."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from scorepad.core.i18n import catalog
from scorepad.scoring.pulya import convention as conv
from scorepad.scoring.pulya.convention import (
    SETTING_NAMES,
    ConventionError,
    load_preset_file,
    presets,
    settings_for,
)

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "spec" / "convention-settings.md"

# The public table of convention-settings.md, as it stands there (the spec may not be at hand).
PUBLIC = [
    "game_price",
    "whist_trick_factor",
    "remiz_factor",
    "misere_trick_penalty",
    "whist_obligation",
    "whist_responsibility",
    "responsible_whister",
    "whist_style",
    "consolation",
    "consolation_to_dealer",
    "half_whist",
    "ten",
    "raspasy_scoring",
    "raspasy_trick_price",
    "raspasy_progression",
    "raspasy_amnesty",
    "raspasy_zero_pool",
    "raspasy_exit",
    "pool_help",
    "help_whists",
    "game_end",
    "pool_point_whists",
    "gora_point_whists",
    "gora_divisor",
    "stalingrad",
    "concede",
    "talon_bonus",
]


def test_the_required_presets_ship() -> None:
    assert {"sochi", "leningrad", "rostov", "kodex", "piter", "piter-home", "fspr"} <= set(
        presets()
    )
    assert len(presets()) >= 8


def test_every_public_setting_exists() -> None:
    assert set(PUBLIC) <= set(SETTING_NAMES)
    if SPEC.exists():
        names = set(re.findall(r"^\| `(\w+)` \|", SPEC.read_text(encoding="utf-8"), re.M))
        assert names == set(PUBLIC)


def test_spec_table_values_for_the_three_main_presets() -> None:
    s, len_, r = (presets()[k].settings for k in ("sochi", "leningrad", "rostov"))
    assert (s.whist_trick_factor, len_.whist_trick_factor, r.whist_trick_factor) == (1, 2, 1)
    assert (s.misere_trick_penalty, len_.misere_trick_penalty, r.misere_trick_penalty) == (
        10,
        20,
        10,
    )
    assert (s.whist_style, len_.whist_style, r.whist_style) == ("greedy", "gentleman", "gentleman")
    assert (s.consolation, len_.consolation, r.consolation) == ("trick", "trick", 10)
    assert (s.ten, len_.ten, r.ten) == ("checked", "whisted", "whisted")
    assert (s.raspasy_scoring, r.raspasy_scoring, r.raspasy_trick_price) == ("gora", "whists", 5)
    assert (s.pool_help, len_.pool_help, len_.game_end, len_.pool_point_whists) == (
        "highest",
        "none",
        "total",
        20,
    )


def test_piter_is_leningrad_home_rules() -> None:
    p = presets()["piter"].settings
    assert (p.raspasy_trick_price, p.raspasy_progression, p.raspasy_exit) == (2, [1, 2, 3], [7])
    assert (p.responsible_whister, p.ten, p.raspasy_exit_by_failure) == ("split", "checked", False)


def test_every_setting_is_described_in_english_and_russian() -> None:
    ru = catalog("ru")
    for name, info in conv.Settings.model_fields.items():
        assert info.description, name
        assert info.description in ru.messages, f"{name} has no Russian description"


def test_the_base_names_every_setting_and_presets_only_what_differs() -> None:
    import tomllib

    bases = {}
    for path in sorted(conv.conventions_dir().glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        bases[path.stem] = data.get("base")
        if data.get("base") is None:
            assert set(data["settings"]) == set(SETTING_NAMES), path.name
            continue
        # A small override: every setting it names differs from what its base resolves to.
        base = presets()[data["base"]].settings
        same = [k for k, v in data["settings"].items() if getattr(base, k) == v]
        assert same == [], path.name
    assert [k for k, b in bases.items() if b is None] == ["kodex"]  # one base


def test_a_preset_resolves_through_its_bases() -> None:
    piter_home = presets()["piter-home"]
    assert (piter_home.base, presets()["piter"].base) == ("piter", "leningrad")
    s = piter_home.settings
    assert s.help_overflow == "gora_ratio" and s.pool_help == "highest"  # its own
    assert s.raspasy_exit == [7] and s.ten == "checked"  # from piter
    assert s.whist_trick_factor == 2 and s.whist_style == "gentleman"  # from leningrad
    assert s.half_whist == [6, 7] and s.rounding_whists == 3  # from the Kodex


def test_a_bad_base_is_named(tmp_path: Path) -> None:
    folder = _copy_dir(tmp_path)
    loop = folder / "kodex.toml"
    loop.write_text(
        loop.read_text(encoding="utf-8").replace('id = "kodex"', 'id = "kodex"\nbase = "sochi"'),
        encoding="utf-8",
    )
    with pytest.raises(ConventionError) as exc:
        load_preset_file(folder / "sochi.toml")
    assert str(exc.value) == "kodex.toml: base 'sochi' leads back to itself"
    missing = folder / "rostov.toml"
    missing.write_text(
        missing.read_text(encoding="utf-8").replace('base = "kodex"', 'base = "moscow"'),
        encoding="utf-8",
    )
    with pytest.raises(ConventionError) as exc:
        load_preset_file(missing)
    assert str(exc.value) == "rostov.toml: base 'moscow' has no file moscow.toml"


def _copy_dir(tmp_path: Path) -> Path:
    out = tmp_path / "conventions"
    shutil.copytree(conv.conventions_dir(), out)
    return out


def test_a_bad_preset_fails_loudly_naming_file_and_setting(tmp_path: Path) -> None:
    folder = _copy_dir(tmp_path)
    path = folder / "sochi.toml"
    path.write_text(
        path.read_text(encoding="utf-8") + 'whist_style = "polite"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConventionError) as exc:
        load_preset_file(path)
    assert str(exc.value).startswith(
        "sochi.toml: settings.whist_style: Input should be 'greedy' or 'gentleman'"
    )


def test_a_preset_missing_a_setting_or_with_a_typo(tmp_path: Path) -> None:
    folder = _copy_dir(tmp_path)
    path = folder / "kodex.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("stalingrad = false", "stalingard = false"),
        encoding="utf-8",
    )
    with pytest.raises(ConventionError) as exc:
        load_preset_file(folder / "rostov.toml")  # the base's fault is named as the base's
    lines = str(exc.value).splitlines()
    assert "kodex.toml: settings.stalingrad: Field required" in lines
    assert "kodex.toml: unknown setting 'settings.stalingard' (did you mean 'stalingrad'?)" in lines
    rostov = folder / "rostov.toml"
    rostov.write_text(
        rostov.read_text(encoding="utf-8") + "raspasy_amnestie = true\n", encoding="utf-8"
    )
    path.write_text(
        path.read_text(encoding="utf-8").replace("stalingard = false", "stalingrad = false"),
        encoding="utf-8",
    )
    with pytest.raises(ConventionError) as exc:
        load_preset_file(rostov)
    assert str(exc.value) == (
        "rostov.toml: unknown setting 'settings.raspasy_amnestie' (did you mean 'raspasy_amnesty'?)"
    )


def test_overrides_replace_the_whole_value_and_are_type_checked() -> None:
    assert settings_for("sochi", {"half_whist": [6]}).half_whist == [6]
    with pytest.raises(ConventionError, match=r"whist_trick_factor: must be a whole number"):
        settings_for("sochi", {"whist_trick_factor": "2"})
    with pytest.raises(ConventionError, match=r"game_price: needs exactly the keys") as exc:
        settings_for("sochi", {"game_price": {"6": 2}})
    assert exc.value.message.render("ru") == (
        "overrides: game_price: нужны ровно ключи 6, 7, 8, 9, 10, misere; "
        "не хватает 7, 8, 9, 10, misere"
    )


def test_a_session_freezes_its_settings() -> None:
    s = settings_for("sochi")
    with pytest.raises(ValidationError, match="frozen"):
        s.whist_style = "gentleman"  # type: ignore[misc]


def test_the_readme_lists_every_preset() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("| preset | what it is |", 1)[1].split("\n\n", 1)[0]
    assert sorted(re.findall(r"^\| `([\w-]+)` \|", table, re.M)) == sorted(presets())
