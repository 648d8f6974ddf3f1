"""Render benchmark: a full 19x19 board (361 stones) redrawn in the real window, the frames drawn
while an AI thinks, and launch time.

Prints ms/frame (median and 90th percentile of wall time with glFinish after each frame,
plus the process CPU time per frame: llvmpipe renders on this process's threads, so CPU
ms/frame is what the frame costs when the machine is not shared) and the time from
``python -m gorilla`` to its window being on screen. While an AI thinks (``--ai``, White's reply
to D4 on 9x9) the window keeps drawing at its thinking rate: the frames in the first
``--thinking`` seconds and the gaps between them (the largest is the longest the window froze;
tests/test_window.py only counts the frames). Run under Xvfb on Mesa llvmpipe:

    xvfb-run -a -s "-screen 0 1280x1024x24" python benchmarks/render.py

Numbers taken on a shared, loaded machine are pessimistic: the load average is printed.

``--ponder``: the same frames over a 19x19 middle game (120 seeded moves) with the analysis of
the position shown on (``v``): the net's search runs on its thread while the window redraws,
and the analysis's visits per second are printed beside the frame time (the same frames with
``v`` off first).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from common import middle_game, parser


def full_board_game(size: int = 19):
    """Every point a stone: Black and White in alternating 2-column stripes (colours only)."""
    from gorilla.rules.board import BLACK, COLOR, WHITE
    from gorilla.rules.coords import to_index
    from gorilla.rules.game import Game

    game = Game.new(size)
    start = game.positions[0]
    for x in range(size):
        for y in range(size):
            start.b[COLOR, to_index(x, y, size)] = BLACK if (x // 2) % 2 == 0 else WHITE
    return game


def frame_stats(draw, n: int) -> tuple[float, float, float]:
    walls, cpus = [], []
    for _ in range(n):
        w0, c0 = time.perf_counter(), time.process_time()
        draw()
        walls.append((time.perf_counter() - w0) * 1000.0)
        cpus.append((time.process_time() - c0) * 1000.0)
    walls.sort()
    return statistics.median(walls), walls[int(0.9 * (len(walls) - 1))], statistics.median(cpus)


def thinking_frames(window_kwargs: dict, ai: str, seconds: float) -> tuple[int, float, float, bool]:
    """Frames drawn in the first seconds of White's search after Black's D4 on 9x9: their
    number, the median and the largest gap between them (s), and whether the AI still thought."""
    import pyglet

    from gorilla.app.go.controller import Controller
    from gorilla.gui.window import GorillaWindow
    from gorilla.rules.coords import parse_vertex
    from gorilla.rules.game import Game

    controller = Controller(Game.new(9), "human", ai, autosave=None)
    window = GorillaWindow(controller, **window_kwargs)
    window.dispatch_events()
    window.tick(1 / 60)
    controller.click(parse_vertex("D4", 9))
    t0 = time.perf_counter()
    while time.perf_counter() < t0 + seconds:  # the event loop as pyglet.app.run runs it
        window.dispatch_events()
        pyglet.clock.tick()
        time.sleep(0.004)
    thinking = controller.thinking
    stamps = [t for t in window.frame_times if t >= t0]
    gaps = [b - a for a, b in zip([t0, *stamps], stamps, strict=False)]
    window.close()
    controller.close()
    pyglet.clock.unschedule(window.tick)
    if not gaps:
        return 0, float("nan"), float("nan"), thinking
    return len(stamps), statistics.median(gaps), max(gaps), thinking


def thread_ms(draw, n: int) -> float:
    """The median CPU milliseconds of the calling thread (the window's) per frame: what the
    frame costs Python, without other threads (llvmpipe's, the analysis's)."""
    out = []
    for _ in range(n):
        c0 = time.thread_time()
        draw()
        out.append((time.thread_time() - c0) * 1000.0)
    return statistics.median(out)


def launch_time(timeout: float = 30.0) -> float | None:
    """Seconds from starting ``python -m gorilla`` until xdotool sees its window mapped."""
    if not shutil.which("xdotool"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "gorilla", "--autosave", os.path.join(tmp, "a.sgf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while time.perf_counter() - t0 < timeout:
                r = subprocess.run(
                    ["xdotool", "search", "--onlyvisible", "--name", "^Gorilla"],
                    capture_output=True,
                    text=True,
                )
                if r.stdout.strip():
                    return time.perf_counter() - t0
                time.sleep(0.02)
            return None
        finally:
            proc.terminate()
            proc.wait(10)


def ponder_warm_up(controller, visits: int = 20, timeout: float = 120.0) -> None:
    """v on, polled until the analysis has published a snapshot of some visits."""
    controller.toggle_thinking()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        controller.poll()
        view = controller.ponder_view()
        if view is not None and view.visits >= visits:
            return
        time.sleep(0.02)
    raise SystemExit("the analysis of the position shown never started")


def live(window, controller, seconds: float) -> tuple[float, float, float, float]:
    """The window's own loop for a while (pyglet's clock calls its 60 Hz tick, which redraws when
    something changed: the analysis's snapshots): (frames drawn a second, median and p90 ms of
    a frame's drawing, the analysis's visits a second)."""
    import pyglet

    t0, v0, f0 = time.perf_counter(), ponder_visits(controller), window.frames
    ms = []
    while time.perf_counter() - t0 < seconds:
        seen = window.frames
        window.dispatch_events()
        pyglet.clock.tick()
        if window.frames != seen:
            ms.append(window.last_frame_ms)
        time.sleep(0.002)
    dt = time.perf_counter() - t0
    ms.sort()
    med = statistics.median(ms) if ms else 0.0
    p90 = ms[int(0.9 * (len(ms) - 1))] if ms else 0.0
    return (window.frames - f0) / dt, med, p90, (ponder_visits(controller) - v0) / dt


def ponder_visits(controller) -> int:
    """The visits in the analysis's tree of the position shown (0 without one)."""
    view = controller.ponder_view()
    return 0 if view is None else view.visits


def polled(controller, draw):
    """draw after the frame's poll, as the window's tick does (new snapshots redraw)."""

    def frame() -> None:
        controller.poll()
        draw()

    return frame


def main(argv: list[str] | None = None) -> int:
    ap = parser(__doc__)
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--height", type=int, default=768)
    ap.add_argument("--samples", type=int, default=None, help="MSAA samples (default: the window's choice)")
    ap.add_argument("--no-launch", action="store_true", help="skip the python -m gorilla launch timing")
    ap.add_argument("--ai", default="alphabeta:time=2", help="the AI that thinks (default alphabeta:time=2)")
    ap.add_argument("--thinking", type=float, default=0.8, help="seconds of its thinking watched (0: skip)")
    ap.add_argument("--ponder", action="store_true", help="a middle game with the analysis (v) on")
    ap.add_argument(
        "--overlays",
        action="store_true",
        help="the control map (c) and the ownership (o) on, as a user turns them on",
    )
    args = ap.parse_args(argv)

    import pyglet
    from pyglet import gl

    from gorilla.app.go.controller import Controller
    from gorilla.gui.window import GorillaWindow, gl_config

    game = middle_game(19, 120) if args.ponder else full_board_game()
    controller = Controller(game, autosave=None)
    kwargs = {"width": args.width, "height": args.height}
    if args.samples is not None:
        kwargs["config"] = gl_config(args.samples)
    t0 = time.perf_counter()
    window = GorillaWindow(controller, **kwargs)
    window.dispatch_events()
    window.draw()
    gl.glFinish()
    first = time.perf_counter() - t0
    if args.overlays:
        controller.toggle_control()
        controller.toggle_ownership()
        window.draw()  # computes both maps once (cached for the position)
    stones = int((game.position.grid() != 0).sum())

    def redraw() -> None:
        controller.version += 1  # a real redraw, as after a move: scene rebuilt and uploaded
        window.draw()
        gl.glFinish()

    def orbit() -> None:
        window.camera.orbit(0.02, 0.004)
        window.draw()
        gl.glFinish()

    if args.ponder:
        for _ in range(5):
            redraw()
        off, off90, offcpu = frame_stats(redraw, args.frames)
        gui = thread_ms(redraw, args.frames)
        print(
            f"middle game, v off: median {off:.1f} ms/frame (p90 {off90:.1f}), CPU {offcpu:.1f} ms/frame,"
            f" the window's thread {gui:.1f} ms/frame"
        )
        ponder_warm_up(controller)
        redraw = polled(controller, redraw)
        orbit = polled(controller, orbit)
    for _ in range(5):
        redraw()
    t0, visits0 = time.perf_counter(), ponder_visits(controller)
    med, p90, cpu = frame_stats(redraw, args.frames)
    omed, op90, ocpu = frame_stats(orbit, args.frames // 2)
    if args.ponder:
        gui = thread_ms(redraw, args.frames)
        rate = (ponder_visits(controller) - visits0) / (time.perf_counter() - t0)
        print(
            f"analysis of the position shown (v) on: {rate:.1f} visits/s during the frames;"
            f" the window's thread {gui:.1f} ms/frame (CPU below counts the analysis's thread too)"
        )
        t1, v1 = time.perf_counter(), ponder_visits(controller)
        while time.perf_counter() - t1 < 8.0:  # polled, nothing drawn: the analysis alone
            controller.poll()
            time.sleep(0.02)
        alone = (ponder_visits(controller) - v1) / (time.perf_counter() - t1)
        print(f"the analysis alone (polled, no frame drawn), 8 s: {alone:.1f} visits/s")
        fps, lmed, lp90, lrate = live(window, controller, 8.0)
        print(
            f"the window's own loop, 8 s, v on: {fps:.1f} frames/s drawn, drawing median {lmed:.1f} ms"
            f" (p90 {lp90:.1f}, before the buffer swap), the analysis {lrate:.1f} visits/s"
        )
    print(
        f"renderer: {gl.gl_info.get_renderer()}; window {args.width}x{args.height},"
        f" samples={window.config.samples}"
    )
    print(f"stones: {stones} ({window.renderer.stone_triangles} triangles each, ray-cast per pixel)")
    if args.overlays:
        markers = window.renderer.under.instances + window.renderer.over.instances
        print(f"overlays: control map, ownership ({markers} markers)")
    print(f"full board redraw: median {med:.1f} ms/frame (p90 {p90:.1f}), CPU {cpu:.1f} ms/frame")
    print(f"orbiting camera:   median {omed:.1f} ms/frame (p90 {op90:.1f}), CPU {ocpu:.1f} ms/frame")
    print(f"window object to first frame: {first:.2f} s (GL setup, shaders, board bake)")
    window.close()
    controller.close()
    pyglet.clock.unschedule(window.tick)
    if args.thinking > 0:
        n, med_gap, max_gap, still = thinking_frames(kwargs, args.ai, args.thinking)
        print(
            f"while {args.ai} thinks: {n} frames in {args.thinking:g} s, gaps median {1000 * med_gap:.0f} ms,"
            f" largest {1000 * max_gap:.0f} ms" + ("" if still else " (the AI finished within the time)")
        )
    if not args.no_launch:
        t = launch_time()
        print(
            "python -m gorilla window appears after: "
            + (f"{t:.2f} s" if t is not None else "n/a (no xdotool)")
        )
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        " (shared machine: numbers are pessimistic)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
