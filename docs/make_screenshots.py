"""The screenshots in docs/screenshots/, made by the real window on an X display.

Each picture opens the real :class:`gorilla.gui.window.GorillaWindow` in process over a
:class:`gorilla.app.go.controller.Controller`, sets up a position, sends the same key presses a
person would (``c``, ``e``, ``v``, arrow keys, scroll) through pyglet's event queue, runs frames
with the window's own tick, and saves the frame. Run it under Xvfb (Mesa llvmpipe is fine)::

    xvfb-run -a -s "-screen 0 1280x1024x24" python docs/make_screenshots.py
    python docs/make_screenshots.py control_map tilted_19x19   # only these

Every picture is made in its own process, so one that cannot be made (an AI module missing in
a partial checkout, a crash) is reported and the others are still made. With ImageMagick's
``convert`` on the PATH the PNGs are reduced to a 128-colour palette (under 100 KB each).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parent / "screenshots"
WIDTH, HEIGHT = 1024, 768

# a 9x9 opening (Black first)
OPENING_9 = ["E5", "C4", "G4", "E3", "C6", "F3", "G3", "D6", "D7"]
# a 19x19 opening
OPENING_19 = [
    "Q16", "D4", "Q3", "D16", "C14", "F17", "C17", "C16", "D17", "E17", "D15", "E16",
    "R5", "C10", "Q10", "K4", "O17", "P5", "P4", "O5", "O4", "N4", "N3", "M4", "M3",
    "F3", "L16", "R15", "R16", "Q15", "P15", "Q14", "P14", "R13",
]  # fmt: skip
# a finished 9x9 game: a wall down the middle, a dead White stone at B7 and a dead Black one at H3
END_BLACK = ["D1", "D2", "D3", "D4", "D5", "E5", "E6", "E7", "E8", "E9", "H3"]
END_WHITE = ["E1", "E2", "E3", "E4", "F4", "F5", "F6", "F7", "F8", "F9", "B7"]
END_DEAD = ["B7", "H3"]


class Shot:
    """One window over one controller, driven with real pyglet events."""

    def __init__(self, controller) -> None:
        from pyglet.window import key, mouse

        from gorilla.gui.window import GorillaWindow

        self.key, self.mouse = key, mouse
        self.c = controller
        self.w = GorillaWindow(controller, width=WIDTH, height=HEIGHT)
        self.frames(0.2)

    def frames(self, seconds: float) -> None:
        """Run the event loop by hand: deliver events, tick (poll the controller, draw if needed)."""
        end = time.monotonic() + seconds
        while True:
            self.w.dispatch_events()
            self.w.tick(1 / 60)
            if time.monotonic() >= end:
                return
            time.sleep(1 / 60)

    def press(self, symbol: int, times: int = 1, modifiers: int = 0) -> None:
        for _ in range(times):
            self.w.dispatch_event("on_key_press", symbol, modifiers)
            self.w.dispatch_event("on_key_release", symbol, modifiers)
        self.frames(0.05)

    def click(self, vertex: str, button: int | None = None) -> None:
        from gorilla.rules.coords import parse_vertex

        x, y = self.w.point_to_screen(parse_vertex(vertex, self.c.game.size))
        b = self.mouse.LEFT if button is None else button
        self.w.dispatch_event("on_mouse_press", x, y, b, 0)
        self.w.dispatch_event("on_mouse_release", x, y, b, 0)
        self.frames(0.05)

    def wait(self, cond: Callable[[], bool], timeout: float, what: str) -> None:
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise RuntimeError(f"timed out waiting for {what}")
            self.frames(0.1)

    def save(self, path: Path) -> None:
        self.w.dispatch_events()
        self.w.save_screenshot(str(path))

    def close(self) -> None:
        self.w.close()
        self.c.close()


def _game(size: int, moves: list[str], **kw):
    from gorilla.rules.coords import parse_vertex
    from gorilla.rules.game import Game

    game = Game.new(size, **kw)
    for v in moves:
        game.play(parse_vertex(v, size))
    return game


def _controller(game, black: str = "human", white: str = "human", **kw):
    from gorilla.app.go.controller import Controller

    return Controller(game, black, white, autosave=None, **kw)


def shot_control_map(path: Path) -> None:
    """A 9x9 opening against the MCTS with the control map on (key c)."""
    import gorilla.ai.control_map  # noqa: F401  (fail clearly when the module is missing)

    s = Shot(_controller(_game(9, OPENING_9[:8]), "human", "mcts"))
    s.press(s.key.C)
    s.wait(lambda: s.c.show_control, 5, "the control map")
    s.save(path)
    s.close()


def shot_evaluator(path: Path) -> None:
    """Key e on a 9x9 opening: every legal move coloured by the evaluator, the best ringed."""
    import gorilla.ai.evaluator  # noqa: F401

    s = Shot(_controller(_game(9, OPENING_9), eval_games=10, eval_turns=3))
    s.press(s.key.E)
    s.wait(lambda: s.c.evaluation is not None, 120, "the evaluation")
    s.frames(0.2)
    s.save(path)
    s.close()


def shot_mcts_thinking(path: Path) -> None:
    """Key v while the MCTS (White) thinks: candidates sized by visits, coloured by win rate."""
    # a long player label on purpose: the panel cuts it short with an ellipsis
    s = Shot(_controller(_game(9, OPENING_9), "human", "mcts:time=30,early_stop=false"))
    s.press(s.key.V)
    s.wait(lambda: s.c.thinking and s.c.progress is not None, 30, "the MCTS to think")
    s.frames(3.0)
    if not s.c.thinking:
        raise RuntimeError("the MCTS stopped thinking before the screenshot")
    s.save(path)
    s.close()


def shot_end_of_game(path: Path) -> None:
    """Two passes: a square of its owner's colour on each dead stone, territory marked, the score."""
    from gorilla.rules.board import PASS
    from gorilla.rules.coords import parse_vertex

    moves = [v for pair in zip(END_BLACK, END_WHITE, strict=True) for v in pair]
    game = _game(9, moves)
    game.play(PASS)
    game.play(PASS)
    s = Shot(_controller(game))
    s.wait(lambda: not s.c.estimating, 60, "the dead-stone estimate")
    for v in END_DEAD:  # mark what the estimate did not (a click toggles a group)
        if parse_vertex(v, 9) not in s.c.game.dead:
            s.click(v)
    s.wait(lambda: all(parse_vertex(v, 9) in s.c.game.dead for v in END_DEAD), 5, "the dead stones")
    s.c.message = ""  # the last click's "group dead" note: the panel shows the score instead
    s.c.version += 1
    s.frames(0.1)
    s.save(path)
    s.close()


def shot_tilted_19x19(path: Path) -> None:
    """A 19x19 opening seen from a low angle: orbit with the arrow keys, zoom out with the wheel."""
    s = Shot(_controller(_game(19, OPENING_19), "human", "mcts"))
    s.press(s.key.RIGHT, 6, s.key.MOD_ALT)  # orbit 30 degrees (Alt+arrows; plain ones walk the record)
    s.press(s.key.DOWN, 4, s.key.MOD_ALT)  # tilt down 20 degrees
    vw, vh = s.w.camera.viewport[2:]
    s.w.dispatch_event("on_mouse_scroll", vw // 2, vh // 2, 0, -2)  # zoom out: the corners fit
    s.frames(0.1)
    s.save(path)
    s.close()


SHOTS: dict[str, Callable[[Path], None]] = {
    "control_map": shot_control_map,
    "evaluator": shot_evaluator,
    "mcts_thinking": shot_mcts_thinking,
    "end_of_game": shot_end_of_game,
    "tilted_19x19": shot_tilted_19x19,
}


def shrink(path: Path) -> None:
    """A 128-colour palette PNG through ImageMagick, if it is installed (else the file stays)."""
    convert = shutil.which("convert")
    if convert is None:
        return
    tmp = path.with_suffix(".tmp.png")
    r = subprocess.run(
        [convert, str(path), "-dither", "None", "-colors", "128", "-strip", f"PNG8:{tmp}"],
        capture_output=True,
    )
    if r.returncode == 0 and tmp.is_file() and 0 < tmp.stat().st_size < path.stat().st_size:
        os.replace(tmp, path)
    elif tmp.exists():
        tmp.unlink()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help=f"screenshots to make (default all: {', '.join(SHOTS)})")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--raw", action="store_true", help="keep full-colour PNGs (no palette)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: make this one in this process
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.one:
        path = args.out / f"{args.one}.png"
        SHOTS[args.one](path)
        if not args.raw:
            shrink(path)
        return 0
    if not os.environ.get("DISPLAY"):
        print("no X display: run under Xvfb (xvfb-run -a python docs/make_screenshots.py)", file=sys.stderr)
        return 1
    names = args.names or list(SHOTS)
    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"unknown screenshot(s): {', '.join(unknown)} (known: {', '.join(SHOTS)})", file=sys.stderr)
        return 2
    failed = []
    for name in names:
        t0 = time.monotonic()
        cmd = [sys.executable, __file__, "--out", str(args.out), "--one", name]
        r = subprocess.run(
            cmd + (["--raw"] if args.raw else []),
            capture_output=True,
            text=True,
        )
        path = args.out / f"{name}.png"
        if r.returncode == 0 and path.is_file():
            print(f"{path}: {path.stat().st_size // 1024} KB ({time.monotonic() - t0:.1f} s)")
        else:
            last = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
            print(f"{name}: not made: {last}", file=sys.stderr)
            failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
