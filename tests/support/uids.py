"""Session files with their stable ids left out (issue #36): an export now writes the ids of
the session, its players and its deals; a test that compares an export with the file it came
from (which had none) compares the rest, and checks the ids apart."""

from __future__ import annotations

import json
from typing import Any


def without_ids(text: str) -> str:
    """The session file ``text`` as it would be written with no stable ids."""
    data: dict[str, Any] = json.loads(text)
    data.pop("uid", None)
    data.pop("player_uids", None)
    data["deals"] = [{k: v for k, v in d.items() if k != "uid"} for d in data["deals"]]
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
