"""Update the gettext catalogs from the source (run after adding or changing a sentence).

    python scripts/catalogs.py          # rewrite scorepad/locale/<lang>/LC_MESSAGES/scorepad.po
    python scripts/catalogs.py --check  # exit 1 if a catalog is out of date or incomplete

One catalog per language of :data:`scorepad.core.i18n.LANGUAGES`.  English msgstrs mirror the msgids;
every other language's translations are kept, new sentences are added untranslated (and make
--check fail until they are translated).  Serbian Cyrillic (sr_Cyrl) is not translated by hand:
it is the Latin catalog (sr_Latn) transliterated, letter for letter.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scorepad.core.cyrillic import to_cyrillic  # noqa: E402

KEYWORDS = {"N_": None, "nmsg": (1, 2), "_": None}
TRANSLITERATED = {"sr_Cyrl": "sr_Latn"}  # a catalog made from another by transliteration


def extracted() -> Catalog:
    from scorepad.scoring.pulya.convention import Settings  # setting descriptions are sentences too

    cat = Catalog(project="scorepad", domain="scorepad")
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(ROOT / "scorepad"), keywords=KEYWORDS, comment_tags=(), strip_comment_tags=True
    ):
        cat.add(message, locations=[(f"scorepad/{filename}", lineno)])
    for name, info in Settings.model_fields.items():
        if info.description:
            cat.add(
                info.description,
                locations=[("scorepad/scoring/pulya/convention.py", 0)],
                auto_comments=[f"setting {name}"],
            )
    return cat


def path(lang: str) -> Path:
    return ROOT / "scorepad" / "locale" / lang / "LC_MESSAGES" / "scorepad.po"


def transliterated(string: str | tuple[str, ...]) -> str | tuple[str, ...]:
    if isinstance(string, tuple):
        return tuple(to_cyrillic(s) for s in string)
    return to_cyrillic(string)


def read(lang: str) -> Catalog | None:
    if not path(lang).exists() or not path(lang).stat().st_size:
        return None
    with path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def build(lang: str, source: Catalog) -> bytes:
    origin = TRANSLITERATED.get(lang)
    old = read(origin or lang)
    cat = Catalog(locale=lang, project="scorepad", domain="scorepad", fuzzy=False)
    cat.revision_date = cat.creation_date = source.creation_date.replace(
        year=2026, month=11, day=29, hour=0, minute=0, second=0
    )
    for m in source:
        if not m.id:
            continue
        if lang == "en":
            string = m.id
        else:
            prev = old.get(m.id) if old is not None else None
            if prev is not None and isinstance(m.id, tuple) != isinstance(
                prev.string, list | tuple
            ):
                prev = None  # the sentence became plural (or singular): translated again
            string = (
                prev.string
                if prev is not None
                else (("",) * cat.num_plurals if isinstance(m.id, tuple) else "")
            )
            if origin is not None:
                string = transliterated(string)
        cat.add(
            m.id,
            string,
            locations=[(loc, 0) for loc, _ in m.locations],
            auto_comments=m.auto_comments,
        )
    buf = io.BytesIO()
    write_po(buf, cat, width=0, omit_header=False, sort_output=True, include_lineno=False)
    # The Babel version in the header would make the check depend on the machine.
    return b"".join(
        line for line in buf.getvalue().splitlines(keepends=True) if b"Generated-By" not in line
    )


def missing(lang: str) -> list[str]:
    cat = read(lang)
    if cat is None:
        return ["(no catalog)"]
    out = []
    for m in cat:
        if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string))):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def main() -> int:
    from scorepad.core.i18n import LANGUAGES

    check = "--check" in sys.argv
    source = extracted()
    status = 0
    # A transliterated catalog is built after the one it is made from.
    for lang in sorted(LANGUAGES, key=lambda code: code in TRANSLITERATED):
        data = build(lang, source)
        if check:
            if not path(lang).exists() or path(lang).read_bytes() != data:
                print(
                    f"{path(lang).relative_to(ROOT)} is out of date: run python scripts/catalogs.py"
                )
                status = 1
        else:
            path(lang).parent.mkdir(parents=True, exist_ok=True)
            path(lang).write_bytes(data)
    for lang in LANGUAGES:
        for text in missing(lang):
            print(f"untranslated ({lang}): {text}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
