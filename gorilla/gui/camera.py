"""The orbit camera and ray picking: pure numpy, no OpenGL, so it is testable anywhere.

World space: y is up, the board's playing surface is the plane y = 0, one unit is
one grid spacing and the board's centre is the origin. Column x (0 = A) grows
along +X and row y (0 = row 1) grows along -Z, so with the default camera (on the
+Z side, looking down at the board) the board reads as on paper: A1 bottom left.
Screen coordinates are pyglet's: pixels, origin at the bottom left of the window.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from gorilla.rules.coords import to_index, to_xy

PANEL_WIDTH = 330  # the side panel on the right: the 3D view is the window less this
MIN_PITCH = math.radians(12.0)
MAX_PITCH = math.radians(89.5)


def perspective(fov_y_deg: float, aspect: float, near: float, far: float) -> np.ndarray:
    """An OpenGL perspective projection matrix (vertical field of view in degrees)."""
    f = 1.0 / math.tan(math.radians(fov_y_deg) / 2.0)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) / (near - far)
    m[2, 3] = 2.0 * far * near / (near - far)
    m[3, 2] = -1.0
    return m


def look_at(eye: np.ndarray, target: np.ndarray, up: np.ndarray) -> np.ndarray:
    """The view matrix of a camera at eye looking at target, up being the vertical direction."""
    f = target - eye
    f = f / np.linalg.norm(f)
    s = np.cross(f, up)
    s = s / np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def gl_matrix(m: np.ndarray) -> tuple[float, ...]:
    """A numpy 4x4 (row-major maths) as the column-major sequence OpenGL expects."""
    return tuple(float(v) for v in m.T.ravel())


def board_to_world(x: float, y: float, size: int) -> tuple[float, float]:
    """Grid coordinates (column, row from the bottom) to world (X, Z) on the board plane."""
    h = (size - 1) / 2.0
    return x - h, h - y


def world_to_board(wx: float, wz: float, size: int) -> tuple[float, float]:
    """World (X, Z) on the board plane to grid coordinates (column, row from the bottom)."""
    h = (size - 1) / 2.0
    return wx + h, h - wz


@dataclass
class Camera:
    """An orbit camera around a target point on the board plane.

    yaw: rotation about the vertical axis (0 = looking from the +Z side, i.e. from
    below row 1); pitch: elevation above the board plane (pi/2 = straight down).
    viewport: (x, y, width, height) in window pixels of the 3D view.
    """

    size: int = 19
    yaw: float = 0.0
    pitch: float = math.radians(62.0)
    distance: float = 0.0
    fov: float = 35.0
    target_x: float = 0.0
    target_z: float = 0.0
    viewport: tuple[int, int, int, int] = (0, 0, 800, 600)
    # (state, view_projection()): the matrix of the last state (a frame projects many points)
    _vp: tuple = field(default=((), None), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.distance <= 0:
            self.distance = self.default_distance()

    # --- state -------------------------------------------------------------
    def default_distance(self) -> float:
        """Far enough that the whole board (with its margin) fits the view at the current yaw.

        Turned by the yaw, the square board's half-width across the view grows from
        extent (edge on) to extent * sqrt(2) (corner on)."""
        extent = ((self.size - 1) / 2.0 + 1.6) * (abs(math.cos(self.yaw)) + abs(math.sin(self.yaw)))
        half_fov = math.radians(self.fov) / 2.0
        vx, vy, vw, vh = self.viewport
        aspect = max(vw, 1) / max(vh, 1)
        fit = extent / math.tan(half_fov) / min(1.0, aspect)
        return fit * 1.12 + 1.0

    def reset(self) -> None:
        """The default view: from below row 1, 62 degrees above the board, centred, fitting it."""
        self.yaw, self.pitch = 0.0, math.radians(62.0)
        self.target_x = self.target_z = 0.0
        self.distance = self.default_distance()

    def orbit(self, d_yaw: float, d_pitch: float) -> None:
        """Turn and tilt; the zoom stays the same relative to the fit, so corners never leave the view."""
        fit = self.default_distance()
        self.yaw = (self.yaw + d_yaw) % (2 * math.pi)
        self.pitch = min(MAX_PITCH, max(MIN_PITCH, self.pitch + d_pitch))
        self.distance *= self.default_distance() / fit

    def zoom(self, factor: float) -> None:
        """Scale the distance by factor (below 1 zooms in), within 0.25..3 times the fitting distance."""
        base = self.default_distance()
        self.distance = min(base * 3.0, max(base * 0.25, self.distance * factor))

    def pan(self, dx_pixels: float, dy_pixels: float) -> None:
        """Move the target so the board follows the mouse (drag right: board moves right)."""
        vh = max(self.viewport[3], 1)
        units_per_pixel = 2.0 * self.distance * math.tan(math.radians(self.fov) / 2.0) / vh
        # camera right and the forward direction projected on the board plane
        rx, rz = math.cos(self.yaw), -math.sin(self.yaw)
        fx, fz = -math.sin(self.yaw), -math.cos(self.yaw)
        sy = max(math.sin(self.pitch), 0.3)
        self.target_x -= (dx_pixels * rx + dy_pixels / sy * fx) * units_per_pixel
        self.target_z -= (dx_pixels * rz + dy_pixels / sy * fz) * units_per_pixel
        limit = self.size / 2.0 + 2.0
        self.target_x = min(limit, max(-limit, self.target_x))
        self.target_z = min(limit, max(-limit, self.target_z))

    def state(self) -> tuple:
        """Everything that decides the view, as a tuple (compared to know when to redraw)."""
        return (self.yaw, self.pitch, self.distance, self.target_x, self.target_z, self.viewport, self.size)

    # --- matrices ------------------------------------------------------------
    @property
    def eye(self) -> np.ndarray:
        """The camera's position in world space."""
        cp = math.cos(self.pitch)
        return np.array(
            [
                self.target_x + self.distance * cp * math.sin(self.yaw),
                self.distance * math.sin(self.pitch),
                self.target_z + self.distance * cp * math.cos(self.yaw),
            ]
        )

    def view(self) -> np.ndarray:
        """The view matrix: world to camera space."""
        target = np.array([self.target_x, 0.0, self.target_z])
        return look_at(self.eye, target, np.array([0.0, 1.0, 0.0]))

    def projection(self) -> np.ndarray:
        """The perspective projection matrix for the viewport's aspect ratio."""
        _, _, vw, vh = self.viewport
        near = max(0.05, self.distance * 0.05)
        return perspective(self.fov, max(vw, 1) / max(vh, 1), near, self.distance * 4.0 + 40.0)

    def view_projection(self) -> np.ndarray:
        """projection @ view: world to clip space (kept while the camera's state and field of view
        stay the same)."""
        key = (*self.state(), self.fov)
        if self._vp[0] != key:
            m = self.projection() @ self.view()
            m.flags.writeable = False  # shared by every projection until the camera moves
            self._vp = (key, m)
        return self._vp[1]

    # --- projections ----------------------------------------------------------
    def world_to_screen(self, world: tuple[float, float, float]) -> tuple[float, float]:
        """The window pixel (x, y) where a world point appears."""
        clip = self.view_projection() @ np.array([*world, 1.0])
        ndc = clip[:3] / clip[3]
        vx, vy, vw, vh = self.viewport
        return vx + (ndc[0] + 1.0) * 0.5 * vw, vy + (ndc[1] + 1.0) * 0.5 * vh

    def screen_ray(self, sx: float, sy: float) -> tuple[np.ndarray, np.ndarray]:
        """Origin and unit direction of the ray through window pixel (sx, sy)."""
        vx, vy, vw, vh = self.viewport
        nx = 2.0 * (sx - vx) / max(vw, 1) - 1.0
        ny = 2.0 * (sy - vy) / max(vh, 1) - 1.0
        inv = np.linalg.inv(self.view_projection())
        a = inv @ np.array([nx, ny, -1.0, 1.0])
        b = inv @ np.array([nx, ny, 1.0, 1.0])
        a, b = a[:3] / a[3], b[:3] / b[3]
        d = b - a
        return a, d / np.linalg.norm(d)

    def screen_to_plane(self, sx: float, sy: float, height: float = 0.0) -> tuple[float, float] | None:
        """World (X, Z) where the ray through (sx, sy) meets the plane y = height, or None."""
        o, d = self.screen_ray(sx, sy)
        if abs(d[1]) < 1e-9:
            return None
        t = (height - o[1]) / d[1]
        if t <= 0:
            return None
        hit = o + t * d
        return float(hit[0]), float(hit[2])

    def screen_to_point(self, sx: float, sy: float) -> int | None:
        """The intersection nearest to where the mouse ray meets the board, or None off the board."""
        hit = self.screen_to_plane(sx, sy)
        if hit is None:
            return None
        bx, by = world_to_board(hit[0], hit[1], self.size)
        x, y = round(bx), round(by)
        if not (0 <= x < self.size and 0 <= y < self.size):
            return None
        if abs(bx - x) > 0.5 or abs(by - y) > 0.5:
            return None
        return to_index(x, y, self.size)

    def point_to_screen(self, point: int, height: float = 0.0) -> tuple[float, float]:
        """The window pixel (x, y) of a board point, height above the playing surface."""
        x, y = to_xy(point, self.size)
        wx, wz = board_to_world(x, y, self.size)
        return self.world_to_screen((wx, height, wz))
