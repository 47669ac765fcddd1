"""Update the gettext catalogs from the source (run after adding or changing a sentence).

    python scripts/catalogs.py          # rewrite scorepad/locale/{en,ru}/LC_MESSAGES/scorepad.po
    python scripts/catalogs.py --check  # exit 1 if a catalog is out of date or ru is incomplete

English msgstrs mirror the msgids; Russian translations are kept, new sentences are added
untranslated (and make --check fail until they are translated).
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
KEYWORDS = {"N_": None, "nmsg": (1, 2), "_": None}


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


def build(lang: str, source: Catalog) -> bytes:
    old = None
    if path(lang).exists() and path(lang).stat().st_size:
        with path(lang).open("rb") as f:
            old = read_po(f, locale=lang)
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
            string = (
                prev.string
                if prev is not None
                else (("", "", "") if isinstance(m.id, tuple) else "")
            )
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
    with path(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    out = []
    for m in cat:
        if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string))):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def main() -> int:
    check = "--check" in sys.argv
    source = extracted()
    status = 0
    for lang in ("en", "ru"):
        data = build(lang, source)
        if check:
            if not path(lang).exists() or path(lang).read_bytes() != data:
                print(
                    f"{path(lang).relative_to(ROOT)} is out of date: run python scripts/catalogs.py"
                )
                status = 1
        else:
            path(lang).write_bytes(data)
    for text in missing("ru"):
        print(f"untranslated (ru): {text}")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
