"""The orbit camera (pure numpy): picking round trips and the whole board in view at any angle."""

from __future__ import annotations

import math

import pytest

from gorilla.gui.camera import Camera, board_to_world
from gorilla.rules.coords import to_index


def _corners_on_screen(cam: Camera) -> list[tuple[float, float]]:
    n = cam.size
    margin = 1.6  # the wooden rim beyond the outer lines, as in default_distance
    h = (n - 1) / 2.0 + margin
    return [cam.world_to_screen((sx * h, 0.0, sz * h)) for sx in (-1, 1) for sz in (-1, 1)]


@pytest.mark.parametrize("size", [9, 19])
@pytest.mark.parametrize("yaw_deg", [0, 30, 45, 60, 135, 200, 315])
@pytest.mark.parametrize("pitch_deg", [-30, 0, 20])
def test_the_whole_board_stays_in_view_while_orbiting(size: int, yaw_deg: float, pitch_deg: float) -> None:
    cam = Camera(size=size, viewport=(0, 0, 900, 768))
    cam.orbit(math.radians(yaw_deg), math.radians(pitch_deg))
    for x, y in _corners_on_screen(cam):
        assert 0 <= x <= 900 and 0 <= y <= 768, (x, y)


def test_orbiting_keeps_the_zoom_relative_to_the_fit() -> None:
    cam = Camera(size=19, viewport=(0, 0, 900, 768))
    cam.zoom(0.5)
    ratio = cam.distance / cam.default_distance()
    cam.orbit(math.radians(45), 0.0)
    assert cam.distance / cam.default_distance() == pytest.approx(ratio)
    cam.orbit(math.radians(-45), 0.0)
    assert cam.distance / cam.default_distance() == pytest.approx(ratio)


@pytest.mark.parametrize("yaw_deg,pitch_deg", [(0, 0), (37, -20), (180, 15), (290, -40)])
def test_picking_finds_the_point_under_its_own_projection(yaw_deg: float, pitch_deg: float) -> None:
    cam = Camera(size=19, viewport=(0, 0, 900, 768))
    cam.orbit(math.radians(yaw_deg), math.radians(pitch_deg))
    for x, y in [(0, 0), (3, 3), (9, 9), (18, 0), (15, 16), (18, 18)]:
        p = to_index(x, y, 19)
        sx, sy = cam.point_to_screen(p)
        assert cam.screen_to_point(sx, sy) == p
    wx, wz = board_to_world(-3, -3, 19)  # well off the board
    assert cam.screen_to_point(*cam.world_to_screen((wx, 0.0, wz))) is None
