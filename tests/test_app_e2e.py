"""End to end, as a person would: start ``gorilla`` on an X display, click with xdotool,
read the autosaved SGF back.

Runs under Xvfb (pytest-xvfb gives the test session a display; CI installs xvfb and xdotool).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

from gorilla.app.files import game_from_sgf
from gorilla.rules.board import BLACK, PASS, WHITE
from gorilla.rules.coords import parse_vertex

pytestmark = pytest.mark.gui


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is required in CI (apt-get install -y {tool})")
        pytest.skip(f"{tool} not installed (apt-get install -y {tool})")
    return path


def _xdotool(*args: str, timeout: float = 10) -> str:
    r = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=timeout)
    return r.stdout.strip() if r.returncode == 0 else ""


def _wait_for(cond, timeout: float, what: str, proc: subprocess.Popen):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"gorilla exited with {proc.returncode} while waiting for {what}: {err[-2000:]}")
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def _moves(path) -> list[tuple[int, int]]:
    try:
        return [(m.color, m.point) for m in game_from_sgf(path.read_text()).moves]
    except (OSError, ValueError):
        return []


def test_click_d4_right_click_pass_and_read_the_autosave(tmp_path):
    _need("xdotool")
    if not os.environ.get("DISPLAY"):
        pytest.skip("no X display (run under Xvfb: pytest-xvfb or xvfb-run)")
    # pyglet is not imported here: this process opens no window of its own (an in-process
    # pyglet import followed by this test's GL client made later in-process windows fail
    # with GL_INVALID_OPERATION on Xvfb + llvmpipe)
    from gorilla.gui.camera import PANEL_WIDTH, Camera

    autosave = tmp_path / "autosave.sgf"
    env = dict(os.environ, GORILLA_AUTOSAVE=str(autosave))
    t_start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gorilla", "--size", "9"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        wid = _wait_for(
            lambda: _xdotool("search", "--onlyvisible", "--name", "^Gorilla$").split("\n")[0],
            60,
            "the window",
            proc,
        )
        geometry = _xdotool("getwindowgeometry", "--shell", wid)
        dims = dict(line.split("=") for line in geometry.splitlines() if "=" in line)
        w, h = int(dims["WIDTH"]), int(dims["HEIGHT"])
        cam = Camera(size=9, viewport=(0, 0, max(1, w - PANEL_WIDTH), h))
        cam.reset()
        d4 = parse_vertex("D4", 9)
        sx, sy = cam.point_to_screen(d4)
        x, y = round(sx), round(h - sy)  # X counts rows from the top, pyglet from the bottom

        t_window = time.monotonic()

        def click_d4():
            _xdotool("mousemove", "--window", wid, str(x), str(y))
            time.sleep(0.05)
            _xdotool("click", "1")
            time.sleep(0.5)
            return _moves(autosave)

        # click until the stone is there (the first click may come before the event loop runs;
        # a second click on D4 is refused as occupied, so retrying is safe)
        moves = _wait_for(click_d4, 60, "the stone at D4 in the autosave", proc)
        assert moves == [(BLACK, d4)]
        print(f"window after {t_window - t_start:.1f}s, stone after {time.monotonic() - t_start:.1f}s")

        _xdotool("click", "3")  # right click: White passes
        moves = _wait_for(lambda: len(_moves(autosave)) == 2 and _moves(autosave), 20, "the pass", proc)
        assert moves == [(BLACK, d4), (WHITE, PASS)]

        _xdotool("key", "--window", wid, "ctrl+q")
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            pytest.fail("gorilla did not quit on Ctrl+Q")
        assert proc.returncode == 0, proc.stderr.read()
        assert _moves(autosave) == [(BLACK, d4), (WHITE, PASS)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
