"""``scorepad build-app DIR``: Scorepad as a static web app whose Python runs on the phone.

Nothing is fetched: the build needs no network, and neither does the app it makes.

- The Flutter client and the Pyodide runtime (Python 3.14 in WebAssembly, its standard library
  with ``sqlite3``) are the ones the installed ``flet_web`` package ships (``flet_web/web``).
  ``flet publish --no-cdn`` would download its own Pyodide (and a build manifest) first; this
  build takes the bundled copy instead.
- Python packages: the pure-Python ones are copied from this Python's own installation (the
  versions the tests run against), the few with compiled parts from the wheels built for
  Pyodide kept in ``scorepad/phone/wheels`` (``wheels.json`` names them with their SHA-256).
  They go unpacked into the app's archive (``__pypackages__``), so the phone installs nothing.
- Scorepad's own manifest (name, icon, colours) and a service worker that keeps every file of
  the build, so that after the first visit the app starts with no network at all.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata as metadata
import io
import json
import re
import shutil
import subprocess
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..core.i18n import N_, ScorepadError, msg

HERE = Path(__file__).resolve().parent
WHEELS = HERE / "wheels"
PACKAGE = HERE.parent  # scorepad/

NAME = "Scorepad"
DESCRIPTION = "Scorekeeping and settlement for Preferans and the other Préférence families"
THEME_COLOR = "#2E6B4F"  # theme.SEED: the green of a card table
BACKGROUND_COLOR = "#FFFFFF"

#: Not on the phone: the LAN share (psutil), the PDF of a club night (fpdf2 and its fonttools),
#: the picture of the cash-out (Pillow); Flet's web server and desktop client (the phone is its
#: own client). The app hides what needs them (``scorepad.phone.ON_PHONE``).
LEFT_OUT = {
    "psutil",
    "pillow",
    "fpdf2",
    "fonttools",
    "defusedxml",
    "flet-web",
    "flet-desktop",
    "flet-cli",
    "fastapi",
    "uvicorn",
    "starlette",
    "pip",  # sqlite-utils's `install` command
}

#: Babel's locale data: only the app's languages (and the root they inherit from).
LOCALES = {"root", "en", "ru", "de", "sr", "sr_Latn", "sr_Cyrl", "el", "sr_Latn_RS", "sr_Cyrl_RS"}

#: Files of the Flet web client the app never asks for (the Pyodide command line, typings).
CLIENT_LEFT_OUT = {
    "pyodide/python",
    "pyodide/python.bat",
    "pyodide/python.exe",
    "pyodide/python_cli_entry.mjs",
    "pyodide/ffi.d.ts",
    "pyodide/pyodide.d.ts",
    "pyodide/package.json",
    "flutter_service_worker.js",
    "flutter.js.map",
}

#: ... and those of the renderer it does not use (the app draws with CanvasKit, dart2js: see
#: _index), debugging symbols, and the fonts and player no screen of Scorepad uses.
CLIENT_LEFT_OUT_PREFIXES = (
    "canvaskit/skwasm",
    "canvaskit/wimp",
    "canvaskit/experimental_webparagraph/",
    "main.dart.wasm",
    "main.dart.mjs",
    "assets/packages/flutter_math_fork/",
    "assets/packages/cupertino_icons/",
    "assets/packages/media_kit/",
)

SERVICE_WORKER = "scorepad-sw.js"
APP_ARCHIVE = "app.tar.gz"

ENTRY = '''"""Scorepad on the phone: started by Flet's Pyodide worker."""
from scorepad.phone.app import start

start()
'''


class BuildError(ScorepadError):
    """The build cannot be made: ``message`` says why (the folder is left as it was)."""


@dataclass(frozen=True, slots=True)
class Built:
    folder: Path
    files: int
    size: int  # bytes, every file of the folder
    packages: tuple[str, ...]  # "name version" of every Python distribution inside
    compiled: bool  # the Python inside compiled to bytecode (Node.js was at hand)


def _name(req: str) -> str:
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
    assert found, req  # a requirement of an installed distribution always starts with its name
    return re.sub(r"[-_.]+", "-", found[1]).lower()


#: Pyodide's platform, for the requirements' markers (``colorama; platform_system == "Windows"``).
PHONE = {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "extra": "",
}


def _wanted(req: str) -> bool:
    """A requirement the app needs on the phone: its marker holds there, and it is no extra's."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip always carries it
        from pip._vendor.packaging.requirements import Requirement  # type: ignore[assignment]
    marker = Requirement(req).marker
    return marker is None or bool(marker.evaluate(PHONE))


def _vendored() -> dict[str, Path]:
    """The wheels built for Pyodide, checked against ``wheels.json``."""
    listed = json.loads((WHEELS / "wheels.json").read_text(encoding="utf-8"))
    found: dict[str, Path] = {}
    for entry in listed["wheels"]:
        path = WHEELS / entry["file"]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            raise BuildError(
                msg(
                    N_("{file} is not the wheel the build expects (its SHA-256 differs)"),
                    file=str(path),
                )
            )
        found[_name(entry["name"])] = path
    return found


def distributions() -> tuple[dict[str, metadata.Distribution], dict[str, Path]]:
    """Every distribution the app imports on the phone: from this installation (pure Python)
    and from the vendored wheels (compiled for Pyodide, or a version matching those)."""
    wheels = _vendored()
    installed: dict[str, metadata.Distribution] = {}
    todo = [r for r in (metadata.requires("scorepad") or []) if _wanted(r)]
    for path in wheels.values():  # a vendored wheel's own requirements come from here too
        with zipfile.ZipFile(path) as zf:
            meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
            text = zf.read(meta).decode()
        todo += [
            line.split(":", 1)[1].strip()
            for line in text.splitlines()
            if line.startswith("Requires-Dist:") and _wanted(line.split(":", 1)[1])
        ]
    while todo:
        req = todo.pop()
        name = _name(req)
        if name in LEFT_OUT or name in wheels or name in installed:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise BuildError(
                msg(N_("{name} is needed by the app but is not installed here"), name=name)
            ) from None
        installed[name] = dist
        todo += [r for r in (dist.requires or []) if _wanted(r)]
    return installed, wheels


def _keep(rel: PurePosixPath) -> bool:
    parts = rel.parts
    if "__pycache__" in parts or rel.suffix in {".pyc", ".so", ".pyd", ".c", ".h"}:
        return False
    if parts[0].endswith((".dist-info", ".data")) or parts[0] in {"..", "bin"}:
        return False
    if parts[:2] == ("babel", "locale-data") and rel.suffix == ".dat":
        return rel.stem in LOCALES
    return True


def _put(tree: Path, name: str, data: bytes) -> None:
    path = tree / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0  # the same sources make the same archive
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def _add_installed(tree: Path, dist: metadata.Distribution) -> None:
    for file in sorted(dist.files or [], key=str):
        rel = PurePosixPath(str(file))
        if not _keep(rel):
            continue
        path = Path(str(dist.locate_file(file)))
        if path.is_file():
            _put(tree, f"__pypackages__/{rel}", path.read_bytes())


def _add_wheel(tree: Path, wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        for name in sorted(zf.namelist()):
            rel = PurePosixPath(name)
            if name.endswith("/") or rel.parts[0].endswith((".dist-info", ".data")):
                continue
            _put(tree, f"__pypackages__/{name}", zf.read(name))


def _add_scorepad(tree: Path) -> None:
    """The package, with its presets and fonts where an installed wheel has them."""
    trees = [(PACKAGE, "scorepad")]
    for name, checkout in (("_conventions", "conventions"), ("_assets", "assets")):
        inside = PACKAGE / name
        trees.append((inside if inside.is_dir() else PACKAGE.parent / checkout, f"scorepad/{name}"))
    for root, prefix in trees:
        for path in sorted(root.rglob("*")):
            rel = PurePosixPath(path.relative_to(root).as_posix())
            if not path.is_file() or not _keep(rel) or rel.parts[0] in {"wheels", "_conventions"}:
                continue
            if rel.parts[:2] == ("phone", "wheels"):  # unpacked below: the wheels themselves
                continue  # were a second copy, 2 MB of the archive the phone unpacks each start
            if root == PACKAGE and rel.parts[0] == "_assets":
                continue
            _put(tree, f"__pypackages__/{prefix}/{rel}", path.read_bytes())


def _pyodide_python() -> Path:
    import flet_web  # type: ignore[import-untyped]

    return Path(flet_web.get_package_web_dir()) / "pyodide" / "python"


def compiled(tree: Path) -> bool:
    """The app's modules compiled to bytecode by the Python the phone runs (Pyodide's, under
    Node.js): on the phone they are then only loaded, not compiled at every start (in a test,
    the imports took a third of the time). Without Node.js (18 or later) the build goes on, and
    the phone compiles them."""
    node, python = shutil.which("node"), _pyodide_python()
    if node is None or not python.is_file():
        return False
    command = ("bash", str(python), "-m", "compileall", "-q", "--invalidation-mode")
    subprocess.run(
        [*command, "unchecked-hash", str(tree / "__pypackages__")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    # A module that does not compile (a Python 2 file some package ships) is left as source.
    return any(tree.rglob("*.cpython-314.pyc"))


def app_archive(dest: Path) -> tuple[tuple[str, ...], bool]:
    """``app.tar.gz``: the entry module and ``__pypackages__`` (Flet's worker puts it on
    ``sys.path``), compiled where Node.js is at hand; no requirements file, so the worker
    installs nothing. Returns what is inside and whether it is compiled."""
    installed, wheels = distributions()
    tree = dest.with_name("app-python")
    _put(tree, "main.py", ENTRY.encode())
    _add_scorepad(tree)
    for name in sorted(installed):
        _add_installed(tree, installed[name])
    for name in sorted(wheels):
        _add_wheel(tree, wheels[name])
    bytecode = compiled(tree)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for path in sorted(tree.rglob("*")):
            if path.is_file():
                _add_bytes(tar, path.relative_to(tree).as_posix(), path.read_bytes())
    shutil.rmtree(tree)
    dest.write_bytes(gzip.compress(raw.getvalue(), compresslevel=6, mtime=0))
    listed = [f"{d.metadata['Name']} {d.version}" for d in installed.values()]
    listed += [" ".join(p.name.split("-")[:2]) for p in wheels.values()]
    return tuple(sorted(listed, key=str.lower)), bytecode


def _client(dest: Path) -> None:
    import flet_web

    web = Path(flet_web.get_package_web_dir())
    for path in sorted(web.rglob("*")):
        rel = path.relative_to(web).as_posix()
        if (
            path.is_dir()
            or rel in CLIENT_LEFT_OUT
            or rel.startswith(("icons/", *CLIENT_LEFT_OUT_PREFIXES))
            or rel.endswith(".symbols")
        ):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    # The client's Rive runtime asked of its own host, not of a CDN (installable.py).
    from ..app.server.installable import without_cdn

    script = dest / "main.dart.js"
    script.write_bytes(without_cdn(script.read_bytes()))


def _assets(dest: Path) -> None:
    from ..app.frame.theme import assets_dir

    assets = assets_dir()
    for path in sorted(assets.rglob("*")):
        if path.is_file():
            target = dest / path.relative_to(assets)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    # The Flutter client looks for its favicon and icons where Flet's template had them.
    shutil.copyfile(assets / "icons" / "icon-192.png", dest / "favicon.png")
    shutil.copyfile(assets / "icons" / "icon-512.png", dest / "icons" / "loading-animation.png")


def _early_worker(dest: Path) -> None:
    """Flet's ``jsConnect`` replaced by one whose Python worker was started with the page."""
    python = dest / "python.js"
    code = python.read_text(encoding="utf-8")
    start = code.index("globalThis.jsConnect = async function")
    end = code.index("// Called from Dart on backend.send")
    ours = (HERE / "python_early.js").read_text(encoding="utf-8")
    python.write_text(code[:start] + ours + code[end:], encoding="utf-8")


#: What the phone's first start imports before it keeps its snapshot of Python's memory
#: (python_worker.js): the pure-Python part of what the first screen needs. Not a module with a
#: compiled part (pydantic-core, msgpack): Pyodide loads those as libraries of their own, whose
#: functions a memory snapshot does not restore (the next start fails with "table index is out
#: of bounds"), so the worker makes no snapshot where one of them was loaded.
PRELOAD = (
    "flet",
    "flet.controls.page",
    "flet_charts",
    "sqlite_utils",
    "babel.numbers",
    "babel.dates",
    "scorepad.i18n",
    "scorepad.app.frame.theme",
    "scorepad.app.frame.flet_diff",
    "scorepad.app.frame.nav",
    "scorepad.app.frame.registry",
    "argparse",
    "calendar",
    "csv",
    "decimal",
    "difflib",
    "email.message",
    "fractions",
    "importlib.metadata",
    "json",
    "statistics",
    "uuid",
    "zoneinfo",
)


def _worker(dest: Path) -> None:
    """Scorepad's Python worker in place of Flet's: the archive unpacked by the browser, and a
    snapshot of Python's memory after the first start, named by what it was made of."""
    digest = hashlib.sha256(", ".join(PRELOAD).encode())
    for name in (APP_ARCHIVE, "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        digest.update((dest / name).read_bytes())
    code = (HERE / "python_worker.js").read_text(encoding="utf-8")
    code = code.replace("__SNAPSHOT__", f"snapshot-{digest.hexdigest()[:16]}")
    code = code.replace("__PRELOAD__", ", ".join(PRELOAD))
    (dest / "python-worker.js").write_text(code, encoding="utf-8")


def _index(dest: Path, base: str) -> None:
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web import patch_font_manifest_json, patch_index_html

    from ..app.frame.theme import FONTS
    from ..app.server.serve import font_manifest, without_service_worker

    index = dest / "index.html"
    patch_index_html(
        index_path=str(index),
        base_href=base,
        app_name=NAME,
        app_description=DESCRIPTION,
        pyodide=True,
        pyodide_script_path="main.py",
        pyodide_version=_pyodide_version(dest),
        app_package_url=APP_ARCHIVE,
        # CanvasKit, as `flet publish` chooses: skwasm's typed-data boundary is a tax on an app
        # whose every frame crosses from the Python worker.
        web_renderer=WebRenderer.CANVAS_KIT,
        route_url_strategy=RouteUrlStrategy.HASH,
        no_cdn=True,
    )
    html = index.read_text(encoding="utf-8")
    html = html.replace('content="black"', 'content="default"')
    html = html.replace("background: #ffffff;", f"background: {BACKGROUND_COLOR};")
    html = html.replace(
        "</head>",
        f'  <meta name="theme-color" content="{THEME_COLOR}">\n'
        "  <script>\n"
        "    // The store lives in this origin's storage: ask that the browser keep it (the app\n"
        "    // says what it means when refused), and keep every file for a start with no network.\n"
        "    if (navigator.storage && navigator.storage.persist) {\n"
        "      window.scorepadPersisted = navigator.storage.persist().catch(() => false);\n"
        "    }\n"
        "    if ('serviceWorker' in navigator) {\n"
        f"      navigator.serviceWorker.register('{SERVICE_WORKER}');\n"
        "    }\n"
        "  </script>\n"
        "</head>",
        1,
    )
    # Flet's index names the runtime "pyodide/pyodide.mjs", which the worker's import() reads as
    # a package name and refuses ("Failed to resolve module specifier"): a path it must be.
    html = html.replace(
        'flet.pyodideUrl="pyodide/pyodide.mjs"', 'flet.pyodideUrl="./pyodide/pyodide.mjs"'
    )
    index.write_text(html, encoding="utf-8")
    fonts = dest / "assets" / "FontManifest.json"
    patch_font_manifest_json(str(fonts))
    # The app's DejaVu loaded with the engine, the unused fonts left out (as the server does).
    fonts.write_bytes(font_manifest(FONTS)(fonts.read_bytes()))
    bootstrap = dest / "flutter_bootstrap.js"
    code = without_service_worker(bootstrap.read_bytes())  # ours keeps the files (below)
    code = re.sub(rb'\{"compileTarget":"dart2wasm"[^{}]*\},', b"", code, count=1)
    bootstrap.write_bytes(code)


def _pyodide_version(dest: Path) -> str:
    lock = json.loads((dest / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return str(lock["info"].get("version") or lock["info"]["python"])


def manifest() -> dict[str, object]:
    """Scorepad's web app manifest: its name, icons and colours (the phone app's, and the
    server's own web app's: app/server/installable.py)."""
    return {
        "name": NAME,
        "short_name": NAME,
        "description": DESCRIPTION,
        "start_url": ".",
        "scope": ".",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "orientation": "portrait",
        "prefer_related_applications": False,
        "icons": [
            {"src": f"icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png"}
            for n in (192, 512)
        ]
        + [
            {
                "src": f"icons/icon-maskable-{n}.png",
                "sizes": f"{n}x{n}",
                "type": "image/png",
                "purpose": "maskable",
            }
            for n in (192, 512)
        ],
    }


def _manifest(dest: Path) -> None:
    (dest / "manifest.json").write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(dest / "icons" / "icon-192.png", dest / "icons" / "apple-touch-icon-192.png")


def _service_worker(dest: Path) -> None:
    """Every file of the build, under a cache named by their digest: a new build is a new cache,
    and the old one is dropped once the new one is complete."""
    files = sorted(
        p.relative_to(dest).as_posix()
        for p in dest.rglob("*")
        if p.is_file() and p.name != SERVICE_WORKER
    )
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (dest / rel).read_bytes())
    script = (HERE / "service_worker.js").read_text(encoding="utf-8")
    script = script.replace("__CACHE__", f"scorepad-{digest.hexdigest()[:16]}")
    script = script.replace("__FILES__", json.dumps(["./", *files], indent=1))
    (dest / SERVICE_WORKER).write_text(script, encoding="utf-8")


def build(dest: Path, base: str = "/") -> Built:
    """Make the static app in ``dest`` (a new or empty folder, or an earlier build's), to be
    served at the path ``base`` of its host (``/scorepad/`` for https://example.org/scorepad/)."""
    dest = dest.resolve()
    if dest.exists() and not dest.is_dir():
        raise BuildError(msg(N_("{path} is a file, not a folder"), path=str(dest)))
    if dest.is_dir() and any(dest.iterdir()) and not (dest / SERVICE_WORKER).is_file():
        raise BuildError(
            msg(N_("{path} is not empty and holds no earlier build of the app"), path=str(dest))
        )
    work = dest.with_name(dest.name + ".building")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        _client(work)
        _assets(work)
        packages, bytecode = app_archive(work / APP_ARCHIVE)
        _index(work, base)
        _early_worker(work)
        _worker(work)
        _manifest(work)
        _service_worker(work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    # The finished build takes the folder's place whole: a failed build leaves the old one.
    old = dest.with_name(dest.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        dest.rename(old)
    work.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
    files = [p for p in dest.rglob("*") if p.is_file()]
    return Built(dest, len(files), sum(p.stat().st_size for p in files), packages, bytecode)
