"""Geometry as numpy arrays (no OpenGL): the board slab, the stone proxy box, the marker quad, wood.

Units as in :mod:`gorilla.gui.camera`: one grid spacing = 1, the playing surface
is y = 0. Vertex arrays are float32, index arrays uint32.
"""

from __future__ import annotations

import numpy as np

STONE_RADIUS = 0.475  # of a grid spacing: neighbouring stones almost touch, as on a real board
STONE_HALF_HEIGHT = 0.19
BOARD_MARGIN = 1.35  # wood beyond the outer lines, room for the coordinates
BOARD_THICKNESS = 1.1
COORD_OFFSET = (STONE_RADIUS + BOARD_MARGIN) / 2  # the coordinates: the middle of the margin the stones leave


def star_points(size: int) -> list[tuple[int, int]]:
    """Hoshi as (column, row) pairs: the usual 9 on 19x19, 5 on 13x13 and 9x9, none on tiny boards."""
    if size < 7:
        return []
    edge = 3 if size >= 13 else 2
    lo, hi, mid = edge, size - 1 - edge, size // 2
    pts = [(lo, lo), (lo, hi), (hi, lo), (hi, hi)]
    if size % 2 == 1:
        pts.append((mid, mid))
        if size >= 19:
            pts += [(lo, mid), (hi, mid), (mid, lo), (mid, hi)]
    return pts


def unit_box() -> tuple[np.ndarray, np.ndarray]:
    """The cube [-1, 1]^3 (positions only, outward CCW faces): the proxy of a ray-cast stone."""
    v = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float32)
    # corner index = 4*(x>0) + 2*(y>0) + (z>0)
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    idx = []
    for a, b, c, d in faces:
        idx += [a, b, c, a, c, d]
    return v, np.array(idx, dtype=np.uint32)


def board_mesh(size: int, top_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The wooden slab: the top face at y = 0 (top_only) or its four sides (the bottom is never seen).

    Returns (vertices (n, 8) = position, normal, wood uv; indices).
    """
    h = (size - 1) / 2.0 + BOARD_MARGIN
    t = BOARD_THICKNESS
    s = 1.0 / (2 * h)  # wood texture spans the whole top once
    verts: list[tuple[float, ...]] = []
    idx: list[int] = []

    def quad(corners: list[tuple[float, float, float]], normal: tuple[float, float, float], uvs) -> None:
        base = len(verts)
        for c, uv in zip(corners, uvs, strict=True):
            verts.append((*c, *normal, *uv))
        idx.extend([base, base + 1, base + 2, base, base + 2, base + 3])

    top = [(-h, 0.0, h), (h, 0.0, h), (h, 0.0, -h), (-h, 0.0, -h)]
    quad(top, (0.0, 1.0, 0.0), [((x + h) * s, (h - z) * s) for x, _, z in top])
    if top_only:
        return np.array(verts, dtype=np.float32), np.array(idx, dtype=np.uint32)
    verts.clear()
    idx.clear()
    side_v = t * s
    # front (+Z), right (+X), back (-Z), left (-X); end grain rows of the texture look like sawn sides
    quad(
        [(-h, -t, h), (h, -t, h), (h, 0, h), (-h, 0, h)],
        (0, 0, 1),
        [(0, 0), (1, 0), (1, side_v), (0, side_v)],
    )
    quad(
        [(h, -t, h), (h, -t, -h), (h, 0, -h), (h, 0, h)],
        (1, 0, 0),
        [(0, 0), (1, 0), (1, side_v), (0, side_v)],
    )
    quad(
        [(h, -t, -h), (-h, -t, -h), (-h, 0, -h), (h, 0, -h)],
        (0, 0, -1),
        [(0, 0), (1, 0), (1, side_v), (0, side_v)],
    )
    quad(
        [(-h, -t, -h), (-h, -t, h), (-h, 0, h), (-h, 0, -h)],
        (-1, 0, 0),
        [(0, 0), (1, 0), (1, side_v), (0, side_v)],
    )
    return np.array(verts, dtype=np.float32), np.array(idx, dtype=np.uint32)


def marker_quad() -> tuple[np.ndarray, np.ndarray]:
    """A unit quad corner list ([-1, 1]^2); markers lie flat, their shape is drawn in the shader."""
    v = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=np.float32)
    return v, np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def _interp_matrix(n: int, cells: int) -> np.ndarray:
    """(n, cells + 1) weights that smoothly interpolate cells + 1 lattice values at n samples."""
    t = np.arange(n, dtype=np.float32) * cells / n
    i = t.astype(int)
    f = t - i
    f = f * f * (3 - 2 * f)
    m = np.zeros((n, cells + 1), dtype=np.float32)
    m[np.arange(n), i] = 1 - f
    m[np.arange(n), i + 1] = f
    return m


def smooth_noise(rng: np.random.Generator, n: int, cells_v: int, cells_u: int) -> np.ndarray:
    """Value noise on an n x n grid (rows = v, columns = u) as two small matrix products."""
    g = rng.standard_normal((cells_v + 1, cells_u + 1)).astype(np.float32)
    return _interp_matrix(n, cells_v) @ g @ _interp_matrix(n, cells_u).T


def wood_texture(n: int = 1024, seed: int = 7) -> np.ndarray:
    """A procedural kaya-like wood texture, (n, n, 3) uint8 (row 0 = bottom).

    Straight grain along the rows' direction (v), gently wavy, with fine fibres and a few
    slow colour variations: what a slab of light board wood looks like from above.
    """
    rng = np.random.default_rng(seed)
    u = np.arange(n, dtype=np.float32)[None, :] / n
    warp = 0.012 * smooth_noise(rng, n, 3, 2) + 0.004 * smooth_noise(rng, n, 8, 6)
    phase = (u + warp) * 23.0 + 0.3 * smooth_noise(rng, n, 2, 9)
    bands = 0.5 + 0.5 * np.cos(2 * np.pi * phase)
    bands = bands**3  # thin dark late-wood lines on light early wood
    fibres = smooth_noise(rng, n, 6, n // 4) * 0.6 + smooth_noise(rng, n, 3, n // 2) * 0.4
    slow = smooth_noise(rng, n, 2, 2)
    light = np.array([0.90, 0.74, 0.49], dtype=np.float32)
    dark = np.array([0.76, 0.55, 0.31], dtype=np.float32)
    t = np.clip(0.55 * bands + 0.06 * fibres + 0.10 * slow + 0.12, 0, 1)[..., None]
    rgb = light * (1 - t) + dark * t
    rgb = rgb * (1.0 + 0.03 * fibres)[..., None]
    return (np.clip(rgb, 0, 1) * 255).astype(np.uint8)


def colour_field(values: np.ndarray, negative: tuple, positive: tuple,
                 max_alpha: float | tuple[float, float] = 0.7) -> np.ndarray:  # fmt: skip
    """A (size, size, 4) uint8 RGBA field for values in [-1, 1], row 0 = the BOTTOM row (texture order).

    values come in Position.grid() orientation (row 0 = top); -1 takes the negative
    colour, +1 the positive one, 0 is transparent; max_alpha: the opacity at -1 and +1 (one
    for both, or (negative, positive)).
    """
    v = np.clip(np.asarray(values, dtype=np.float32)[::-1], -1.0, 1.0)
    neg, pos = np.array(negative, dtype=np.float32), np.array(positive, dtype=np.float32)
    a_neg, a_pos = max_alpha if isinstance(max_alpha, tuple) else (max_alpha, max_alpha)
    rgb = np.where((v < 0)[..., None], neg, pos)
    alpha = np.sqrt(np.abs(v)) * np.where(v < 0, a_neg, a_pos)  # weak control (1/16) still shows
    out = np.concatenate([rgb, alpha[..., None]], axis=-1)
    return (np.clip(out, 0, 1) * 255).astype(np.uint8)
