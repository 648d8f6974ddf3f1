"""A small raster canvas written as PNG with numpy and zlib (no plotting library needed).

Enough for the match report: filled bands, polylines, axes, grid lines and
labels in a 5x7 bitmap font.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

Color = tuple[int, int, int]

# 5x7 glyphs, one string of five '#'/'.' per row
_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": (".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."),
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "G": (".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."),
    "I": (".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "L": ("#....", "#....", "#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"),
    "N": ("#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "R": ("####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"),
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "W": ("#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "D": ("####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."),
    "F": ("#####", "#....", "#....", "####.", "#....", "#....", "#...."),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "J": ("..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"),
    "P": ("####.", "#...#", "#...#", "####.", "#....", "#....", "#...."),
    "Q": (".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"),
    "U": ("#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "X": ("#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"),
    "Y": ("#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."),
    "Z": ("#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"),
    "(": ("...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."),
    ")": (".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."),
    ",": (".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."),
    "=": (".....", ".....", "#####", ".....", "#####", ".....", "....."),
    "/": ("....#", "....#", "...#.", "..#..", ".#...", "#....", "#...."),
    "_": (".....", ".....", ".....", ".....", ".....", ".....", "#####"),
    "-": (".....", ".....", ".....", "#####", ".....", ".....", "....."),
    "+": (".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."),
    "%": ("##..#", "##..#", "...#.", "..#..", ".#...", "#..##", "#..##"),
    ".": (".....", ".....", ".....", ".....", ".....", ".##..", ".##.."),
    ":": (".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."),
    " ": (".....",) * 7,
}


class Canvas:
    """An RGB image with drawing in pixel coordinates (x right, y down)."""

    def __init__(self, width: int, height: int, background: Color = (255, 255, 255)) -> None:
        self.width, self.height = width, height
        self.pixels = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:, :] = background

    def rect(self, x0: int, y0: int, x1: int, y1: int, color: Color) -> None:
        """Fill the rectangle with corners (x0, y0) and (x1, y1), both included, clipped to the image."""
        xa, xb = sorted((int(x0), int(x1)))
        ya, yb = sorted((int(y0), int(y1)))
        xa, ya = max(xa, 0), max(ya, 0)
        self.pixels[ya : min(yb + 1, self.height), xa : min(xb + 1, self.width)] = color

    def hline(self, x0: int, x1: int, y: int, color: Color, dashed: bool = False) -> None:
        """A horizontal line on row y from x0 to x1 (dashed: 4 pixels on, 4 off)."""
        if not 0 <= y < self.height:
            return
        xs = np.arange(max(0, min(x0, x1)), min(self.width, max(x0, x1) + 1))
        if dashed:
            xs = xs[(xs // 4) % 2 == 0]
        self.pixels[int(y), xs] = color

    def vline(self, x: int, y0: int, y1: int, color: Color) -> None:
        """A vertical line on column x from y0 to y1."""
        if 0 <= x < self.width:
            self.pixels[max(0, min(y0, y1)) : min(self.height, max(y0, y1) + 1), int(x)] = color

    def line(self, x0: float, y0: float, x1: float, y1: float, color: Color, width: int = 2) -> None:
        """A straight line from (x0, y0) to (x1, y1), width pixels thick."""
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        xs = np.rint(np.linspace(x0, x1, n)).astype(int)
        ys = np.rint(np.linspace(y0, y1, n)).astype(int)
        half = width // 2
        for dx in range(-half, width - half):
            for dy in range(-half, width - half):
                x, y = xs + dx, ys + dy
                ok = (x >= 0) & (x < self.width) & (y >= 0) & (y < self.height)
                self.pixels[y[ok], x[ok]] = color

    def polyline(self, pts: list[tuple[float, float]], color: Color, width: int = 2) -> None:
        """Lines through pts in order (a single point is drawn as a small square)."""
        if len(pts) == 1:
            x, y = pts[0]
            self.rect(int(x) - 2, int(y) - 2, int(x) + 2, int(y) + 2, color)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            self.line(x0, y0, x1, y1, color, width)

    def band(self, xs: list[float], lo: list[float], hi: list[float], color: Color) -> None:
        """Fill between two curves given at the same x positions (linear in between)."""
        if not xs:
            return
        if len(xs) == 1:
            self.rect(int(xs[0]) - 2, int(lo[0]), int(xs[0]) + 2, int(hi[0]), color)
            return
        grid = np.arange(int(np.ceil(xs[0])), int(np.floor(xs[-1])) + 1)
        ylo = np.interp(grid, xs, lo)
        yhi = np.interp(grid, xs, hi)
        for x, a, b in zip(grid, ylo, yhi, strict=True):
            self.vline(int(x), int(round(a)), int(round(b)), color)

    def text(self, x: int, y: int, s: str, color: Color = (0, 0, 0), scale: int = 2) -> int:
        """Draw s upper-cased (unknown characters blank), top-left at (x, y); returns its width."""
        cx = x
        for ch in s.upper():
            rows = _GLYPHS.get(ch, _GLYPHS[" "])
            for r, row in enumerate(rows):
                for c, bit in enumerate(row):
                    if bit == "#":
                        x0, y0 = cx + c * scale, y + r * scale
                        self.rect(x0, y0, x0 + scale - 1, y0 + scale - 1, color)
            cx += 6 * scale
        return cx - x

    @staticmethod
    def text_width(s: str, scale: int = 2) -> int:
        """The width in pixels of s drawn by :meth:`text` at scale."""
        return 6 * scale * len(s)

    def png(self) -> bytes:
        """The image as PNG bytes (8-bit RGB, no interlace)."""
        raw = b"".join(b"\x00" + self.pixels[r].tobytes() for r in range(self.height))

        def chunk(kind: bytes, data: bytes) -> bytes:
            crc = zlib.crc32(kind + data) & 0xFFFFFFFF
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        body = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
        return b"\x89PNG\r\n\x1a\n" + body

    def save(self, path: str | Path) -> None:
        """Write the image to path as a PNG file."""
        Path(path).write_bytes(self.png())


def read_png(data: bytes) -> np.ndarray:
    """Decode an 8-bit RGB PNG written by Canvas.png (filter type 0 only) — for tests and checks."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])[0]
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError(f"bad CRC in {kind!r}")
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + 3 * width)
    if np.any(raw[:, 0] != 0):
        raise ValueError("unsupported PNG filter")
    return raw[:, 1:].reshape(height, width, 3)
