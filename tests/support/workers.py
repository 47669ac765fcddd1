"""Child processes for the crash and concurrency tests: ``python tests/support/workers.py KIND DB SESSION ...``.

Each prints one line per action whose call returned, flushed at once, so the parent knows
exactly what the store promised before it was killed.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scorepad.scoring.pulya.session import Raspasy
from scorepad.store import StaleRevision, Store


def raspasy(note: str) -> Raspasy:
    return Raspasy.model_validate(
        {"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}, "note": note}
    )


def crash(db: str, sid: int, tag: str) -> None:
    """Add deals in a loop until killed."""
    with Store(db) as store:
        revision = store.load(sid).revision
        print("ready", flush=True)
        n = 0
        while True:
            note = f"{tag}-{n}"
            revision = store.add_deal(sid, raspasy(note), seen=revision).revision
            print(note, flush=True)
            n += 1


def race(db: str, sid: int, tag: str, count: int, go: str) -> None:
    """Add and edit deals against another process; report each success and each refusal."""
    rng = random.Random(tag)
    with Store(db) as store:
        while not Path(go).exists():  # a start line, so both begin at revision 0
            time.sleep(0.001)
        seen = 0
        done = 0
        while done < count:
            note = f"{tag}-{done}"
            try:
                live = store.load(sid).journal.live if seen else []
                if live and rng.random() < 0.3:
                    target = rng.choice(live).deal_id
                    stored = store.edit_deal(sid, target, raspasy(note), reason=note, seen=seen)
                    print("edit", note, stored.revision, flush=True)
                else:
                    stored = store.add_deal(sid, raspasy(note), seen=seen)
                    print("add", note, stored.revision, flush=True)
                done += 1
                seen = stored.revision
            except StaleRevision as exc:
                assert "changed since you looked" in str(exc)
                print("stale", note, flush=True)
                seen = store.load(sid).revision
            time.sleep(rng.random() * 0.002)


if __name__ == "__main__":
    kind, db, sid, *rest = sys.argv[1:]
    if kind == "crash":
        crash(db, int(sid), rest[0])
    else:
        race(db, int(sid), rest[0], int(rest[1]), rest[2])
