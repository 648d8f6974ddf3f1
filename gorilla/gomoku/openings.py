"""Gomoku openings files: one opening a line, ``dx,dy`` offsets from the centre, stones
alternating from Black (the Gomocup format); ``#`` starts a comment. The shipped file,
``assets/gomoku_openings.txt``, holds balanced openings (its header says how they were chosen)."""

from __future__ import annotations

import re
from pathlib import Path

from gorilla import asset_file

DEFAULT_OPENINGS = asset_file("gomoku_openings.txt")
_NUM = re.compile(r"-?\d+")


def parse_openings(text: str) -> list[list[tuple[int, int]]]:
    """Openings from the text of an openings file; ValueError (one line) for a bad line."""
    out: list[list[tuple[int, int]]] = []
    for k, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if re.search(r"[^-\d,\s]", line):
            raise ValueError(f"openings line {k}: {raw.strip()!r} is not dx,dy pairs")
        nums = [int(t) for t in _NUM.findall(line)]
        if len(nums) % 2:
            raise ValueError(f"openings line {k}: an odd number of coordinates")
        stones = list(zip(nums[::2], nums[1::2], strict=True))
        if len(set(stones)) != len(stones):
            raise ValueError(f"openings line {k}: a point given twice")
        out.append(stones)
    return out


def load_openings(path: str | Path) -> list[list[tuple[int, int]]]:
    """The openings of a file; ValueError (one line) when it cannot be read or holds none."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read openings file {path}: {e}") from None
    openings = parse_openings(text)
    if not openings:
        raise ValueError(f"openings file {path} holds no opening")
    return openings
