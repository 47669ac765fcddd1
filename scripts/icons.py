"""Draw the app's icons (assets/icons/): a white spade on the card table's green (theme.SEED).

    python scripts/icons.py

The installable app (``scorepad build-app``) names them in its manifest: ``icon-N.png`` a
rounded square, ``icon-maskable-N.png`` full bleed with the spade inside the safe circle.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
GREEN = "#2E6B4F"


def icon(size: int, *, maskable: bool) -> Image.Image:
    scale = 4  # drawn large and scaled down: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=GREEN)
        glyph = int(big * 0.5)  # inside the safe zone (a circle of 80 % of the side)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=int(big * 0.2), fill=GREEN)
        glyph = int(big * 0.66)
    font = ImageFont.truetype(str(ROOT / "assets" / "fonts" / "DejaVuSans-Bold.ttf"), glyph)
    draw.text((big / 2, big / 2), "♠", font=font, fill="white", anchor="mm")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    out = ROOT / "assets" / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(out / f"icon-{size}.png", optimize=True)
        icon(size, maskable=True).save(out / f"icon-maskable-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
