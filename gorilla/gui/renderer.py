"""OpenGL 3.3 core drawing of a :class:`~gorilla.gui.scene.Scene`: VAOs, instanced stones, shaders.

Stones are ray-cast impostors: one 12-triangle box drawn with ``glDrawElementsInstanced``
for all stones (per-instance centre and colour), the ellipsoid found per pixel. Markers
are one instanced quad whose shape the fragment shader draws. Wood, grid lines and star
points are baked once per board size into a mipmapped texture (anti-aliased at any
angle); the control-map overlay is a size x size texture blended on the board's top face.
Needs a current GL context.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pyglet
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

from gorilla import asset_dirs
from gorilla.gui import meshes
from gorilla.gui.camera import Camera, board_to_world, gl_matrix
from gorilla.gui.scene import LIGHT_DIR, SHADOW_OFFSET, Scene
from gorilla.rules.coords import GTP_LETTERS

SHADER_DIRS = asset_dirs("shaders")
BACKGROUND = (0.105, 0.115, 0.125, 1.0)
GL_TEXTURE_MAX_ANISOTROPY = 0x84FE
SURFACE_TEXELS = 2048  # the baked playing surface: ~100 texels per grid spacing on 19x19
LINE_WIDTH = 0.045  # grid lines, in grid spacings
COORD_HEIGHT = 0.34  # a coordinate's height at its base size, in grid spacings
MIN_PIXELS = 15.0  # a coordinate grows until it is this high on screen (its digits about 11 pixels) ...
MAX_GROWTH = 2.3  # ... at most this many times its base size ...
MARGIN_ROOM = 0.72  # ... and no wider across the margin than this (in grid spacings): clear of the stones
ALONG_ROOM = 0.85  # ... nor along the edge (a grid spacing apart): clear of the next one


def shader_source(name: str) -> str:
    """The text of shader file name from the first of SHADER_DIRS holding it (else FileNotFoundError)."""
    for d in SHADER_DIRS:
        f = d / name
        if f.is_file():
            return f.read_text(encoding="utf-8")
    raise FileNotFoundError(f"shader {name} not found in {', '.join(str(d) for d in SHADER_DIRS)}")


def load_program(name: str) -> ShaderProgram:
    """The shader program of name.vert and name.frag."""
    return ShaderProgram(
        Shader(shader_source(f"{name}.vert"), "vertex"), Shader(shader_source(f"{name}.frag"), "fragment")
    )


def _new_buffer(target: int, data: np.ndarray, usage: int) -> gl.GLuint:
    buf = gl.GLuint()
    gl.glGenBuffers(1, ctypes.byref(buf))
    gl.glBindBuffer(target, buf)
    gl.glBufferData(target, data.nbytes, data.ctypes.data if data.size else None, usage)
    return buf


class Mesh:
    """A VAO with interleaved float32 vertices, uint32 indices and optionally one instance buffer."""

    def __init__(
        self,
        vertices: np.ndarray,
        indices: np.ndarray,
        layout: list[tuple[int, int]],
        instance_layout: list[tuple[int, int]] | None = None,
    ) -> None:
        vertices = np.ascontiguousarray(vertices, dtype=np.float32)
        indices = np.ascontiguousarray(indices, dtype=np.uint32)
        self.vao = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glBindVertexArray(self.vao)
        self.vbo = _new_buffer(gl.GL_ARRAY_BUFFER, vertices, gl.GL_STATIC_DRAW)
        self._attributes(layout, vertices.shape[1] * 4, divisor=0)
        self.ebo = _new_buffer(gl.GL_ELEMENT_ARRAY_BUFFER, indices, gl.GL_STATIC_DRAW)
        self.count = len(indices)
        self.instances = 0
        self.ibo = None
        self._capacity = 0
        if instance_layout:
            self.ibo = gl.GLuint()
            gl.glGenBuffers(1, ctypes.byref(self.ibo))
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.ibo)
            self.instance_width = sum(n for _, n in instance_layout)
            self._attributes(instance_layout, self.instance_width * 4, divisor=1)
        gl.glBindVertexArray(0)

    @staticmethod
    def _attributes(layout: list[tuple[int, int]], stride: int, divisor: int) -> None:
        offset = 0
        for loc, n in layout:
            gl.glEnableVertexAttribArray(loc)
            gl.glVertexAttribPointer(loc, n, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(offset))
            if divisor:
                gl.glVertexAttribDivisor(loc, divisor)
            offset += n * 4

    def set_instances(self, data: np.ndarray) -> None:
        """Upload the per-instance rows (one per stone or marker), growing the buffer as needed."""
        data = np.ascontiguousarray(data, dtype=np.float32).reshape(-1, self.instance_width)
        self.instances = len(data)
        if not len(data):
            return
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.ibo)
        if data.nbytes > self._capacity:
            self._capacity = max(data.nbytes, 2 * self._capacity)
            gl.glBufferData(gl.GL_ARRAY_BUFFER, self._capacity, None, gl.GL_DYNAMIC_DRAW)
        gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, data.nbytes, data.ctypes.data)

    def draw(self) -> None:
        """Draw the mesh, every instance of it (nothing for an instanced mesh without instances)."""
        if self.ibo is not None and not self.instances:
            return
        gl.glBindVertexArray(self.vao)
        if self.ibo is None:
            gl.glDrawElements(gl.GL_TRIANGLES, self.count, gl.GL_UNSIGNED_INT, None)
        else:
            gl.glDrawElementsInstanced(gl.GL_TRIANGLES, self.count, gl.GL_UNSIGNED_INT, None, self.instances)

    def delete(self) -> None:
        """Free its GL buffers and vertex array."""
        for b in (self.vbo, self.ebo, self.ibo):
            if b is not None:
                gl.glDeleteBuffers(1, ctypes.byref(b))
        gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))


def make_texture(
    rgb: np.ndarray, mipmap: bool = True, linear: bool = True, repeat: bool = False
) -> gl.GLuint:
    """Upload an (h, w, 3 or 4) uint8 image (row 0 = bottom) as a 2D texture."""
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    update_texture(tex, rgb)
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    wrap = gl.GL_REPEAT if repeat else gl.GL_CLAMP_TO_EDGE
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, wrap)
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, wrap)
    mag = gl.GL_LINEAR if linear else gl.GL_NEAREST
    gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, mag)
    if mipmap:
        gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
        if gl.gl_info.have_extension("GL_EXT_texture_filter_anisotropic"):
            gl.glTexParameterf(gl.GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, 8.0)
    else:
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, mag)
    return tex


def update_texture(tex: gl.GLuint, image: np.ndarray) -> None:
    """Replace texture tex's image with an (h, w, 1, 3 or 4) uint8 image, row 0 = bottom."""
    image = np.ascontiguousarray(image, dtype=np.uint8)
    h, w, c = image.shape
    fmt = {1: gl.GL_RED, 3: gl.GL_RGB, 4: gl.GL_RGBA}[c]
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, fmt, w, h, 0, fmt, gl.GL_UNSIGNED_BYTE, image.ctypes.data)


class CoordinateLabels:
    """Column letters and row numbers lying on the board margin, drawn from pyglet's glyph atlas.

    Each vertex keeps its label's anchor (the label's centre) and its offset from it: the vertex
    shader grows a label about its anchor until it is at least ``MIN_PIXELS`` high on screen (the
    far edge of a tilted board is foreshortened and far), in each direction as far as the margin
    has room for it (a row number grows taller than wide).
    """

    def __init__(self, size: int, letters: str = GTP_LETTERS) -> None:
        self.font = pyglet.font.load(["DejaVu Sans", "Arial", "Helvetica"], 36, weight="bold")
        chars = "".join(sorted(set(letters[:size] + "0123456789")))
        glyphs, _ = self.font.get_glyphs(chars)
        self.glyph = dict(zip(chars, glyphs, strict=True))
        self.scale = COORD_HEIGHT / max(1, self.font.ascent)
        quads: dict[int, list] = {}
        h = (size - 1) / 2.0
        off = h + meshes.COORD_OFFSET
        for i in range(size):
            wx, _ = board_to_world(i, 0, size)
            _, wz = board_to_world(0, i, size)
            for cz in (off, -off):  # a letter's height is across the margin, its width along the edge
                grow = (ALONG_ROOM / self._width(letters[i]), MARGIN_ROOM / COORD_HEIGHT)
                self._add(quads, letters[i], wx, cz, grow)
            for cx in (-off, off):  # a number's width is across the margin (taller, it narrows)
                grow = (MARGIN_ROOM / self._width(str(i + 1)), ALONG_ROOM / COORD_HEIGHT)
                self._add(quads, str(i + 1), cx, wz, grow)
        self.meshes = []
        for tex_id, rows in quads.items():
            v = np.asarray(rows, dtype=np.float32).reshape(-1, 10)
            n = len(v) // 4
            idx = (
                np.arange(n, dtype=np.uint32)[:, None] * 4 + np.array([0, 1, 2, 0, 2, 3], np.uint32)
            ).ravel()
            self.meshes.append((tex_id, Mesh(v, idx, [(0, 3), (2, 3), (1, 2), (3, 2)])))
            gl.glBindTexture(gl.GL_TEXTURE_2D, tex_id)
            gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
            gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)

    def _width(self, text: str) -> float:
        """A label's width at its base size, in grid spacings."""
        return sum(self.glyph[ch].advance for ch in text) * self.scale

    def _add(self, quads: dict, text: str, cx: float, cz: float, most: tuple[float, float]) -> None:
        """The glyph quads of a label centred on (cx, cz); most: how many times it may grow in
        width and in height (the room it has each way)."""
        s = self.scale
        x = -self._width(text) / 2
        base = -self.font.ascent * s * 0.5  # centre the cap height on cz
        grow = tuple(min(MAX_GROWTH, m) for m in most)
        for ch in text:
            g = self.glyph[ch]
            x0, y0, x1, y1 = g.vertices
            tc = g.tex_coords
            corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            rows = quads.setdefault(g.id, [])
            for k, (gx, gy) in enumerate(corners):
                offset = (x + gx * s, 0.0, -(base + gy * s))
                rows.append((cx, 0.002, cz, *offset, tc[3 * k], tc[3 * k + 1], *grow))
            x += g.advance * s

    def delete(self) -> None:
        """Free the labels' meshes."""
        for _, m in self.meshes:
            m.delete()


class Renderer:
    """Owns every GL object of the 3D view; ``upload(scene)`` then ``draw(camera)`` renders a frame."""

    def __init__(self, size: int) -> None:
        self.board_prog = load_program("board")
        self.bake_prog = ShaderProgram(
            Shader(shader_source("board.vert"), "vertex"), Shader(shader_source("bake.frag"), "fragment")
        )
        self.stone_prog = load_program("stone")
        self.marker_prog = load_program("marker")
        self.text_prog = load_program("text")
        sv, si = meshes.unit_box()
        self.stone_triangles = len(si) // 3
        self.stones = Mesh(sv, si, [(0, 3)], [(2, 3), (3, 4)])
        self.ghosts = Mesh(sv, si, [(0, 3)], [(2, 3), (3, 4)])
        qv, qi = meshes.marker_quad()
        marker_layout = [(1, 4), (2, 4), (3, 1)]
        self.under = Mesh(qv, qi, [(0, 2)], marker_layout)
        self.over = Mesh(qv, qi, [(0, 2)], marker_layout)
        self.wood = make_texture(meshes.wood_texture(), repeat=True)
        self.surface: gl.GLuint | None = None
        self.overlay_tex = make_texture(np.zeros((2, 2, 4), np.uint8), mipmap=False)
        self.overlay_on = False
        self.stones_tex = make_texture(np.zeros((2, 2, 1), np.uint8), mipmap=False)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_BORDER)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_BORDER)
        self._overlay_key: object = None
        self.size = 0
        self.letters = GTP_LETTERS
        self.board = self.sides = self.labels = None
        self.show_coordinates = True  # the letters and numbers along the edges
        self.set_size(size)

    def set_size(self, size: int, letters: str = GTP_LETTERS) -> None:
        """Rebuild the board, its sides, the labels and the baked surface for a new board size
        (only the labels for new column letters: Go's skip I, Gomoku's do not)."""
        if size == self.size and letters == self.letters:
            return
        if size == self.size:
            self.labels.delete()
            self.letters = letters
            self.labels = CoordinateLabels(size, letters)
            return
        for m in (self.board, self.sides, self.labels):
            if m is not None:
                m.delete()
        self.size = size
        layout = [(0, 3), (1, 3), (2, 2)]
        self.board = Mesh(*meshes.board_mesh(size, top_only=True), layout)
        self.sides = Mesh(*meshes.board_mesh(size), layout)
        self.letters = letters
        self.labels = CoordinateLabels(size, letters)
        self.board_prog.use()
        self.board_prog["u_size"] = float(size)
        self._bake(size)

    def _bake(self, size: int, n: int = SURFACE_TEXELS) -> None:
        """Render wood + grid + star points of the playing surface once into a mipmapped texture."""
        if self.surface is not None:
            gl.glDeleteTextures(1, ctypes.byref(self.surface))
        tex = gl.GLuint()
        gl.glGenTextures(1, ctypes.byref(tex))
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, n, n, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, None)
        fbo = gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(fbo))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, tex, 0)
        gl.glViewport(0, 0, n, n)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glDisable(gl.GL_BLEND)
        gl.glDisable(gl.GL_CULL_FACE)
        h = (size - 1) / 2.0 + meshes.BOARD_MARGIN
        ortho = np.array([[1 / h, 0, 0, 0], [0, 0, -1 / h, 0], [0, 0, 0, 0], [0, 0, 0, 1]], dtype=float)
        stars = meshes.star_points(size)
        bp = self.bake_prog
        bp.use()
        bp["u_view_proj"] = gl_matrix(ortho)
        bp["u_stars"] = [(float(x), float(y)) for x, y in stars] + [(0.0, 0.0)] * (9 - len(stars))
        bp["u_nstars"] = len(stars)
        bp["u_size"] = float(size)
        bp["u_line"] = LINE_WIDTH
        bp["u_wood"] = 0
        bp["u_wood_scale"] = 1.0
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.wood)
        self.board.draw()
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        gl.glDeleteFramebuffers(1, ctypes.byref(fbo))
        gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
        gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
        gl.glTexParameteri(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR_MIPMAP_LINEAR)
        # trilinear with a slight sharpening bias: anisotropic filtering would double the
        # frame cost on a software renderer for a small gain at grazing angles
        gl.glTexParameterf(gl.GL_TEXTURE_2D, gl.GL_TEXTURE_LOD_BIAS, -0.4)
        self.surface = tex

    def upload(self, scene: Scene) -> None:
        """Send a scene's instance data (and overlay texture) to the GPU."""
        self.set_size(scene.size, scene.letters)
        self.stones.set_instances(scene.stones)
        self.ghosts.set_instances(scene.ghosts)
        self.under.set_instances(scene.under)
        self.over.set_instances(scene.over)
        update_texture(self.stones_tex, scene.occupancy[..., None])
        self.overlay_on = scene.overlay is not None
        if scene.overlay is not None:
            key = scene.overlay.tobytes()
            if key != self._overlay_key:
                self._overlay_key = key
                update_texture(self.overlay_tex, scene.overlay)

    def draw(self, camera: Camera, framebuffer_scale: float = 1.0) -> None:
        """Draw the uploaded scene from camera; framebuffer_scale: framebuffer pixels per window pixel."""
        vx, vy, vw, vh = camera.viewport
        s = framebuffer_scale
        gl.glViewport(int(vx * s), int(vy * s), int(vw * s), int(vh * s))
        gl.glEnable(gl.GL_DEPTH_TEST)
        gl.glDepthFunc(gl.GL_LEQUAL)
        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_BLEND)
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glCullFace(gl.GL_BACK)
        gl.glFrontFace(gl.GL_CCW)
        vp = gl_matrix(camera.view_projection())
        eye = tuple(float(v) for v in camera.eye)

        bp = self.board_prog
        bp.use()
        bp["u_view_proj"] = vp
        bp["u_light"] = LIGHT_DIR
        bp["u_eye"] = eye
        bp["u_surface"] = 0
        bp["u_overlay"] = 1
        bp["u_overlay_on"] = 1.0 if self.overlay_on else 0.0
        bp["u_stones"] = 2
        bp["u_shadow"] = SHADOW_OFFSET
        gl.glActiveTexture(gl.GL_TEXTURE2)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.stones_tex)
        gl.glActiveTexture(gl.GL_TEXTURE1)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.overlay_tex)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.surface)
        bp["u_side"] = 0.0
        self.board.draw()
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.wood)
        bp["u_side"] = 1.0
        self.sides.draw()

        # flat things on the wood: coordinates, shadows, heat map, ko mark
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFuncSeparate(
            gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA
        )
        gl.glDepthMask(gl.GL_FALSE)
        gl.glDisable(gl.GL_CULL_FACE)
        self._draw_coordinates(vp, vw, vh)
        mp = self.marker_prog
        mp.use()
        mp["u_view_proj"] = vp
        self.under.draw()

        # stones: opaque first, then the translucent ones (the hover preview, the line under the pointer);
        # blending stays on for the anti-aliased silhouettes
        gl.glEnable(gl.GL_CULL_FACE)
        gl.glDepthMask(gl.GL_TRUE)
        sp = self.stone_prog
        sp.use()
        sp["u_view_proj"] = vp
        sp["u_light"] = LIGHT_DIR
        sp["u_eye"] = eye
        sp["u_radii"] = (meshes.STONE_RADIUS, meshes.STONE_HALF_HEIGHT, meshes.STONE_RADIUS)
        self.stones.draw()
        self.ghosts.draw()

        gl.glDisable(gl.GL_CULL_FACE)
        gl.glDepthMask(gl.GL_FALSE)
        mp.use()
        self.over.draw()

        gl.glDepthMask(gl.GL_TRUE)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glBindVertexArray(0)
        gl.glUseProgram(0)

    def _draw_coordinates(self, vp: tuple[float, ...], vw: int, vh: int) -> None:
        """The letters and numbers on the margin (when shown), each at least MIN_PIXELS high on a
        view vw x vh pixels where the margin has room."""
        tp = self.text_prog
        tp.use()
        tp["u_view_proj"] = vp
        tp["u_glyphs"] = 0
        tp["u_color"] = (0.16, 0.10, 0.05, 0.85)
        tp["u_viewport"] = (float(vw), float(vh))
        tp["u_min_px"] = MIN_PIXELS
        tp["u_height"] = COORD_HEIGHT
        for tex_id, mesh in self.labels.meshes if self.show_coordinates else ():
            gl.glBindTexture(gl.GL_TEXTURE_2D, tex_id)
            mesh.draw()

    def delete(self) -> None:
        """Free every GL object it owns."""
        for m in (self.stones, self.ghosts, self.under, self.over, self.board, self.sides):
            m.delete()
        self.labels.delete()
        gl.glDeleteTextures(1, ctypes.byref(self.wood))
        gl.glDeleteTextures(1, ctypes.byref(self.overlay_tex))
        gl.glDeleteTextures(1, ctypes.byref(self.stones_tex))
        if self.surface is not None:
            gl.glDeleteTextures(1, ctypes.byref(self.surface))
