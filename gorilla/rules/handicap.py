"""Where handicap stones go: GTP's fixed placement and a free placement for any number."""

from __future__ import annotations

from gorilla.rules.coords import to_index, to_xy


def fixed_handicap_points(size: int, n: int) -> list[int]:
    """The GTP fixed_handicap placement of n stones on a size x size board.

    Raises ValueError when n stones cannot be placed that way (as GTP says:
    2..9 on odd boards from 9x9 up, 2..4 on even boards and on 7x7/8x8,
    none below 7x7).
    """
    if n < 2:
        raise ValueError("invalid number of stones")
    if size < 7:
        raise ValueError(f"no fixed handicap on a {size}x{size} board")
    limit = 9 if size % 2 == 1 and size >= 9 else 4
    if n > limit:
        raise ValueError(f"invalid number of stones: at most {limit} on {size}x{size}")
    edge = 3 if size >= 12 else 2  # as GNU Go 3.8: 4-4 points from 12x12 up, 3-3 below
    lo, hi, mid = edge, size - 1 - edge, size // 2
    pts = [(lo, lo), (hi, hi)]  # D4 and Q16 on 19x19
    if n >= 3:
        pts.append((lo, hi))  # D16 (GNU Go's third stone)
    if n >= 4:
        pts.append((hi, lo))  # Q4
    if n in (5, 7, 9):
        pts.append((mid, mid))
    if n >= 6:
        pts += [(lo, mid), (hi, mid)]
    if n >= 8:
        pts += [(mid, lo), (mid, hi)]
    return [to_index(x, y, size) for x, y in pts]


def free_handicap_points(size: int, n: int) -> list[int]:
    """n handicap points: the fixed placement as far as it goes, then points far from the others."""
    points: list[int] = []
    for k in range(min(n, 9), 1, -1):
        try:
            points = fixed_handicap_points(size, k)
            break
        except ValueError:
            continue
    edge = 3 if size >= 13 else 2 if size >= 7 else 1 if size >= 4 else 0
    cells = [(x, y) for y in range(size) for x in range(size)]
    taken = {to_xy(p, size) for p in points}
    while len(points) < n:
        best, best_key = None, None
        for x, y in cells:
            if (x, y) in taken:
                continue
            near = min((max(abs(x - a), abs(y - b)) for a, b in taken), default=size)
            line = min(x, y, size - 1 - x, size - 1 - y)
            key = (near if line >= edge else 0, -abs(line - edge), -y, -x)
            if best_key is None or key > best_key:
                best, best_key = (x, y), key
        assert best is not None
        taken.add(best)
        points.append(to_index(best[0], best[1], size))
    return points
