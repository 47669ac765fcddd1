"""Cut the bundled DejaVu fonts down to the scripts a Preferans table writes (a smaller first
download of the web app: 1.47 MB → about 0.58 MB).

    pip install fonttools
    python scripts/fonts.py SOURCE_DIR      # the full DejaVuSans*.ttf (Debian: fonts-dejavu-core)

Kept: Latin, Cyrillic, Greek, combining marks, punctuation, super/subscripts, currency signs
(₽ €), letterlike symbols and number forms (⅓ ⅔), arrows, mathematical operators (− × ≥),
technical symbols, enclosed numbers, box drawing and shapes, miscellaneous symbols (♠ ♣ ♦ ♥),
dingbats (✓ ✗).
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset

ROOT = Path(__file__).resolve().parent.parent
RANGES = (
    "U+0020-024F,U+0300-036F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+2070-209F,U+20A0-20CF,"
    "U+2100-218F,U+2190-21FF,U+2200-22FF,U+2300-23FF,U+2460-24FF,U+2500-25FF,U+2600-26FF,"
    "U+2700-27BF,U+FFFD"
)


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/fonts/truetype/dejavu")
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        subset.main(
            [
                str(source / name),
                f"--unicodes={RANGES}",
                "--layout-features=*",
                f"--output-file={ROOT / 'assets' / 'fonts' / name}",
            ]
        )
        print(name, (ROOT / "assets" / "fonts" / name).stat().st_size, "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
