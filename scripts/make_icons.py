"""Render the web app's PNG icons and favicon.ico from its one drawn icon, ``icons/icon.svg``.

Run from the repository root after changing the SVG, then commit the files it writes:

    .venv/bin/python scripts/make_icons.py

Chromium draws the SVG (Debian's /usr/bin/chromium through Playwright, as the browser tests use
it; no image library is needed): the page paints it on a canvas and hands back the pixels. They
are written as palette PNGs of at most 256 colours, chosen by a few rounds of k-means, which
keeps the 512 px icons near 20 KB instead of 50 KB (the colours that merge are only those of
anti-aliased edge pixels). Files written, under ``src/doushouqi/server/static/``:

- ``icons/icon-192.png``, ``icons/icon-512.png``: the token on a transparent background, the
  manifest's ordinary ("any") icons;
- ``icons/icon-maskable-512.png``: the token, smaller, on the header's green filling the whole
  square, for Android launchers that cut icons to their own shape (the token stays inside the
  central circle of 80 % that every mask keeps);
- ``apple-touch-icon.png`` (180 px): the same full-square design, since iOS shows transparency
  as black; at the root, where iOS also looks for it without a link;
- ``favicon.ico``: 16, 32 and 48 px PNGs in an ICO container, for clients that ask for
  /favicon.ico instead of reading the page's icon links.

The same Chromium gives the same pixels and the rest is deterministic, so re-running it without
changing the SVG changes no file.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections import Counter
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src/doushouqi/server/static"
SOURCE = STATIC / "icons/icon.svg"
CHROMIUM = "/usr/bin/chromium"
GREEN = "#2f5d34"  # the header's colour and the manifest's theme_color

# (file under static/, size in px, share of the square the token fills, background)
PNGS = [
    ("icons/icon-192.png", 192, 1.0, None),
    ("icons/icon-512.png", 512, 1.0, None),
    ("icons/icon-maskable-512.png", 512, 0.72, GREEN),
    ("apple-touch-icon.png", 180, 0.78, GREEN),
]
FAVICON_SIZES = (16, 32, 48)

Pixel = tuple[int, int, int, int]

# Paints the SVG centred on a square canvas and returns its RGBA bytes, base64-encoded.
PAINT_JS = """async ([svg, size, share, background]) => {
  const image = new Image();
  image.src = 'data:image/svg+xml,' + encodeURIComponent(svg);
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const ctx = canvas.getContext('2d');
  if (background) { ctx.fillStyle = background; ctx.fillRect(0, 0, size, size); }
  const side = size * share;
  ctx.drawImage(image, (size - side) / 2, (size - side) / 2, side, side);
  const bytes = ctx.getImageData(0, 0, size, size).data;
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}"""


def paint(page: Page, svg: str, size: int, share: float, background: str | None) -> list[Pixel]:
    """The SVG drawn in a ``size`` px square, over ``background`` or transparent; row by row."""
    data = base64.b64decode(page.evaluate(PAINT_JS, [svg, size, share, background]))
    return [(data[i], data[i + 1], data[i + 2], data[i + 3]) for i in range(0, len(data), 4)]


def distance(a: Pixel, b: Pixel) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def palette(pixels: list[Pixel], rounds: int = 8) -> tuple[list[Pixel], dict[Pixel, int]]:
    """At most 256 colours for the pixels and each colour's index: weighted k-means, started
    from the most common colours (the flat areas keep their exact colours)."""
    counts = Counter(pixels)
    colours = [colour for colour, _ in counts.most_common(256)]
    if len(counts) <= 256:
        return colours, {colour: i for i, colour in enumerate(colours)}
    index: dict[Pixel, int] = {}
    for _ in range(rounds):
        sums = [[0] * 5 for _ in colours]
        for colour, n in counts.items():
            i = min(range(len(colours)), key=lambda k: distance(colour, colours[k]))
            index[colour] = i
            for channel in range(4):
                sums[i][channel] += colour[channel] * n
            sums[i][4] += n
        colours = [
            (round(s[0] / s[4]), round(s[1] / s[4]), round(s[2] / s[4]), round(s[3] / s[4]))
            if s[4]
            else old
            for s, old in zip(sums, colours, strict=True)
        ]
    return colours, index


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(pixels: list[Pixel], size: int) -> bytes:
    """A palette PNG (colour type 3) of a square image, with alpha in tRNS when it has any."""
    colours, index = palette(pixels)
    rows = b"".join(
        b"\0" + bytes(index[p] for p in pixels[y * size : (y + 1) * size]) for y in range(size)
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 3, 0, 0, 0)  # 8-bit indices, no interlace
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    out += chunk(b"PLTE", b"".join(bytes(c[:3]) for c in colours))
    if any(c[3] < 255 for c in colours):
        out += chunk(b"tRNS", bytes(c[3] for c in colours))
    return out + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def ico(pngs: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding PNG images (a form every browser reads)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))  # reserved, type 1 = icon, image count
    offset = len(header) + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, data in pngs:
        # width, height (0 means 256), colours in palette, reserved, planes, bits per pixel,
        # bytes of image data, where they start
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return header + entries + blobs


def main() -> None:
    svg = SOURCE.read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        for name, size, share, background in PNGS:
            data = png(paint(page, svg, size, share, background), size)
            (STATIC / name).write_bytes(data)
            print(f"{name}: {size} px, {len(data)} bytes")
        favicon = ico([(s, png(paint(page, svg, s, 1.0, None), s)) for s in FAVICON_SIZES])
        (STATIC / "favicon.ico").write_bytes(favicon)
        print(f"favicon.ico: {', '.join(map(str, FAVICON_SIZES))} px, {len(favicon)} bytes")
        browser.close()


if __name__ == "__main__":
    main()
