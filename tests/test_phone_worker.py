"""The phone app's Python worker (``scorepad/phone/python_worker.js``) without a browser: the
app's archive unpacked by JavaScript, the snapshot of Python's memory named by the build and made
only of pure-Python modules.

Its start in the browser (the snapshot restored on a reload, the store working after it):
``test_phone_snapshot_e2e.py``.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

from scorepad.phone import build

WORKER = Path(build.__file__).with_name("python_worker.js")


def test_the_snapshot_preloads_no_module_with_a_compiled_part() -> None:
    """Pyodide restores no library of its own from a memory snapshot (pydantic-core, msgpack):
    every module imported before the snapshot imports without them."""
    code = (
        "import sys\n"
        "for name in ('pydantic_core', 'pydantic', 'msgpack', 'numpy'):\n"
        "    sys.modules[name] = None  # an import of it fails\n"
        f"for name in {list(build.PRELOAD)!r}:\n"
        "    __import__(name)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def _fake_build(folder: Path, archive: bytes) -> None:
    (folder / "pyodide").mkdir(parents=True)
    (folder / build.APP_ARCHIVE).write_bytes(archive)
    (folder / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (folder / "pyodide" / "python_stdlib.zip").write_bytes(b"PK")


def _snapshot_name(folder: Path) -> str:
    code = (folder / "python-worker.js").read_text(encoding="utf-8")
    line = next(s for s in code.splitlines() if s.startswith("const SNAPSHOT = "))
    return json.loads(line.split("=", 1)[1].split(";")[0])


def test_the_worker_names_its_snapshot_by_what_the_build_holds(tmp_path: Path) -> None:
    one, same, other = tmp_path / "one", tmp_path / "same", tmp_path / "other"
    _fake_build(one, b"the app")
    _fake_build(same, b"the app")
    _fake_build(other, b"the app, changed")
    for folder in (one, same, other):
        build._worker(folder)
    code = (one / "python-worker.js").read_text(encoding="utf-8")
    assert "__SNAPSHOT__" not in code and "__PRELOAD__" not in code
    assert f'const PRELOAD = "{", ".join(build.PRELOAD)}";' in code
    assert _snapshot_name(one).startswith("snapshot-")
    assert _snapshot_name(one) == _snapshot_name(same)  # a reload of the same build restores
    assert _snapshot_name(one) != _snapshot_name(other)  # a new build makes its own


def test_the_worker_unpacks_the_archive_as_python_would(tmp_path: Path) -> None:
    """The worker's own reading of the archive (the browser's gunzip, then the tar's entries)
    finds every file with its bytes: long names (GNU's "L" entries), folders, an empty file."""
    files = {
        "main.py": b"print('hi')\n",
        "__pypackages__/scorepad/__init__.py": b"",
        "__pypackages__/" + "/".join(["deep"] * 30) + "/long_name_module.py": b"x = 1\n" * 300,
        "__pypackages__/babel/locale-data/ru.dat": bytes(range(256)) * 9,
    }
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    archive = tmp_path / "app.tar.gz"
    archive.write_bytes(gzip.compress(raw.getvalue()))
    code = WORKER.read_text(encoding="utf-8")
    reader = code[code.index("async function archiveFiles") : code.index("function unpack(")]
    script = tmp_path / "read.mjs"
    script.write_text(
        "import { readFileSync } from 'node:fs';\n"
        "globalThis.fetch = async () => new Response(readFileSync(process.argv[2]));\n"
        f"{reader}\n"
        "const found = await archiveFiles('app.tar.gz');\n"
        "console.log(JSON.stringify(found.map(([n, d]) => [n, Buffer.from(d).toString('hex')])));\n",
        encoding="utf-8",
    )
    # As most hosts send it (the gzip's bytes), and as a host that says "Content-Encoding:
    # gzip" for a .gz file has the browser hand over (the tar itself).
    plain = tmp_path / "app.tar"
    plain.write_bytes(raw.getvalue())
    for sent in (archive, plain):
        done = subprocess.run(
            ["node", str(script), str(sent)], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        found = {name: bytes.fromhex(data) for name, data in json.loads(done.stdout)}
        assert found == files
