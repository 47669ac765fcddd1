"""Starting the app: a desktop window where a display and the desktop client exist, otherwise
the web app on 127.0.0.1; always offline (``no_cdn``), with its fonts bundled."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import flet as ft

from ..store import Store
from . import theme
from .screens import sessions_screen
from .serve import StaticTuning, prewarm, tuning_wanted
from .shell import Shell


def assets_dir() -> Path:
    """``assets/`` beside the package (a checkout), or inside it (an installed wheel)."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_assets", package.parent / "assets"):
        if (candidate / "fonts").is_dir():
            return candidate
    raise FileNotFoundError(f"no assets folder with fonts next to {package}")


def make_main(db: Path, lang: str):  # type: ignore[no-untyped-def]
    store = Store(db, check_same_thread=False)
    lock = threading.RLock()

    def main(page: ft.Page) -> None:
        page.title = "Scorepad"
        theme.apply(page)
        shell = Shell(page, store, lang, lock)
        shell.show(sessions_screen)

    return main


def desktop_available() -> bool:
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        import flet_desktop  # noqa: F401
    except ImportError:
        return False
    return True


def run(
    db: Path, lang: str, *, web: bool = False, host: str = "127.0.0.1", port: int = 8550
) -> None:
    main = make_main(db, lang)
    if not web and desktop_available():
        ft.run(main, view=ft.AppView.FLET_APP, assets_dir=str(assets_dir()))
        return
    print(f"Scorepad: http://{host}:{port}/", flush=True)
    if not tuning_wanted():
        ft.run(
            main,
            view=ft.AppView.WEB_BROWSER,
            host=host,
            port=port,
            assets_dir=str(assets_dir()),
            no_cdn=True,
        )
        return
    import uvicorn

    app = ft.run(main, export_asgi_app=True, assets_dir=str(assets_dir()), no_cdn=True)
    prewarm(f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}")
    uvicorn.run(
        StaticTuning(app), host=host, port=port, log_level="warning", ws="websockets-sansio"
    )
