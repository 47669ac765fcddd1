"""The golden outputs: `scorepad settle` of the demo and of generated sessions, kept as test data.

    python scripts/golden.py            # (re)write tests/golden/*.jsonl.gz from today's code
    python scripts/golden.py --numbers  # rewrite only the sentences-free numbers file
    python scripts/golden.py --families # rewrite only the other families' outputs

`tests/test_golden.py` compares today's output with these files byte for byte. Two files:
`numbers.jsonl.gz` holds every figure without the sentences (a refactor, a speed-up or a new
family must never change it; only a deliberate scoring fix may, named in its commit), and
`full.jsonl.gz` holds the whole `settle --json` (en) and `settle` text (ru) outputs (a
deliberate change of wording rewrites it).  `families.jsonl.gz` holds 15 seeded sessions of
every preset of the other families (bula, kassa, pot, direct) with their `settle --json` (en)
and `settle` (ru): a change in one family, or in the ledger under them all, must leave the
others' outputs as they were.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOLDEN = ROOT / "tests" / "golden"
PRESETS = ("sochi", "leningrad", "rostov", "kodex", "piter", "kazakhstan")


def sessions() -> list[tuple[str, str]]:
    """(name, session file text): the demo and 20 seeded sessions per preset and table size."""
    from scorepad.testing.generate import RandomChooser, random_session

    out = [("demo", (ROOT / "scorepad" / "data" / "demo-session.json").read_text("utf-8"))]
    for preset in PRESETS:
        for players in (3, 4):
            for k in range(20):
                seed = PRESETS.index(preset) * 1000 + players * 100 + k
                data = random_session(
                    RandomChooser(seed), convention=preset, players=players, deals=25
                )
                out.append(
                    (f"{preset}-{players}-{k}", json.dumps(data, ensure_ascii=False, indent=1))
                )
    return out


def family_sessions() -> list[tuple[str, str]]:
    """(name, session file text): 15 seeded sessions of every preset of the other families."""
    from scorepad.scoring.ledger.families import family_presets
    from scorepad.testing.generate import RandomChooser, random_family_session

    out = []
    for n, preset in enumerate(sorted(family_presets())):
        for k in range(15):
            data = random_family_session(
                RandomChooser(50_000 + n * 100 + k), convention=preset, deals=30
            )
            out.append((f"{preset}-{k}", json.dumps(data, ensure_ascii=False, indent=1)))
    return out


def redrawn(fam: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The kept sessions, each one the engine now refuses (a deal a rule newly forbids) drawn
    again from its seed, and named on stderr: a deliberate change, to explain in its commit."""
    from scorepad.scoring.ledger.families import settle_family
    from scorepad.scoring.pulya.session import SessionInvalid

    fresh: dict[str, str] | None = None
    out = []
    for name, text in fam:
        try:
            settle_family(text)
        except SessionInvalid as exc:
            fresh = fresh or dict(family_sessions())
            print(f"{name}: drawn again ({exc.render()})", file=sys.stderr)
            text = fresh[name]
        out.append((name, text))
    return out


def family_outputs(text: str) -> dict[str, str]:
    from scorepad.report.ledger import to_json_text, to_text_sheet
    from scorepad.scoring.ledger.families import settle_family

    scored = settle_family(text)
    return {"json_en": to_json_text(scored, "en"), "text_ru": to_text_sheet(scored, "ru")}


def outputs(text: str) -> dict[str, str]:
    from scorepad.report.pulya import to_json_text, to_text_sheet
    from scorepad.scoring.pulya.score import replay
    from scorepad.session import parse_session

    scored = replay(parse_session(text))
    full = to_json_text(scored, "en")
    data = json.loads(full)
    for deal in data["deals"]:
        deal.pop("explain")
    return {
        "numbers": json.dumps(data, ensure_ascii=False, sort_keys=True),
        "json_en": full,
        "text_ru": to_text_sheet(scored, "ru"),
    }


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        for row in rows:
            f.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode())


def read(path: Path) -> list[dict[str, str]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    if (GOLDEN / "sessions.jsonl.gz").exists():
        made = [(r["name"], r["session"]) for r in read(GOLDEN / "sessions.jsonl.gz")]
    else:
        made = sessions()
        write(GOLDEN / "sessions.jsonl.gz", [{"name": n, "session": s} for n, s in made])
    done = {name: outputs(text) for name, text in made}
    write(
        GOLDEN / "numbers.jsonl.gz", [{"name": n, "numbers": o["numbers"]} for n, o in done.items()]
    )
    if "--families" in sys.argv or not (GOLDEN / "families.jsonl.gz").exists():
        kept = GOLDEN / "families.jsonl.gz"
        fam = (
            [(r["name"], r["session"]) for r in read(kept)] if kept.exists() else family_sessions()
        )
        fam = redrawn(fam)
        write(kept, [{"name": n, "session": t, **family_outputs(t)} for n, t in fam])
        if "--families" in sys.argv:
            return 0
    if "--numbers" not in sys.argv:
        write(
            GOLDEN / "full.jsonl.gz",
            [
                {"name": n, "json_en": o["json_en"], "text_ru": o["text_ru"]}
                for n, o in done.items()
            ],
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
