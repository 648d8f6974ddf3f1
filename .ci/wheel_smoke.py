#!/usr/bin/env python3
"""Gorilla installed as users install it: the wheel built, checked and tried outside the checkout.

1. ``python -m build`` makes the sdist and the wheel (the wheel from the sdist) in a
   temporary folder.
2. The wheel must hold every module under ``gorilla/`` and every file under ``assets/``
   (both read from the checkout: git's list of files, or the folders without git), and
   every asset folder or file the code names (``asset_dirs("NAME")``,
   ``asset_file("NAME", ...)``).
3. A fresh virtual environment outside the checkout gets the wheel (pip may use its
   download cache), and from a folder outside the checkout, with an empty numba cache and
   config, autosave and cache folders of its own:

   * ``gorilla --help``;
   * the installed package imports from the environment and finds its assets there;
   * a short GTP game (both colours, a few moves each, then ``final_score``) with every Go
     AI in the installed registry (``gorilla.ai.agent.AGENTS``), small budgets on 7x7;
     the first one says on stderr that it compiles the engine;
   * ``gorilla predict`` on a small record, ``gorilla analyze`` on it with ``-o``;
   * ``gorilla pbrain`` answering START and TURN with a legal move;
   * the window: ``gorilla`` under Xvfb (``xvfb-run``, or the display there is) draws
     frames and is alive a few seconds later.

Exits 0 when every step passed, 1 otherwise; prints each step with its seconds, the wheel's
size and what it holds.

    python .ci/wheel_smoke.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERTEX = re.compile(r"^(pass|resign|[A-HJ-Z](1[0-9]|2[0-5]|[1-9]))$", re.IGNORECASE)
# small budgets per AI (7x7): the default for an AI not named here is its own spec and 0.5 s a move
BUDGETS: dict[str, list[str]] = {
    "random": ["--ai", "random"],
    "montecarlo": ["--ai", "montecarlo", "--games", "2", "--turns", "3"],
    "mcts": ["--ai", "mcts", "--playouts", "200"],
    "alphabeta": ["--ai", "alphabeta:time=0.2"],
    "minimax": ["--ai", "minimax:time=0.5"],
    "net": ["--ai", "net:visits=16"],
}
RECORD = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gc];W[cg];B[gg];W[dd];B[ec];W[dc];B[eg];W[cf])"


class Failed(Exception):
    """A smoke step failed; the message says what was expected and what came."""


def tracked(folder: str) -> list[str]:
    """The files under folder (relative to the checkout): git's list, or the folder's files."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", folder], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        files = [f for f in out.split("\0") if f]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    base = ROOT / folder
    return sorted(
        str(p.relative_to(ROOT))
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith((".pyc", ".nbi", ".nbc"))
    )


def named_assets() -> set[str]:
    """The asset folders and files the code names: asset_dirs("X") -> X, asset_file("a", "b") -> a/b."""
    names = set()
    for f in tracked("gorilla"):
        if not f.endswith(".py"):
            continue
        text = (ROOT / f).read_text(encoding="utf-8")
        names.update(re.findall(r"asset_dirs\(\s*\"([^\"]+)\"\s*\)", text))
        for args in re.findall(r"asset_file\(((?:\s*\"[^\"]+\"\s*,?)+)\)", text):
            names.add("/".join(re.findall(r"\"([^\"]+)\"", args)))
    return names


def expected_in_wheel() -> tuple[list[str], set[str]]:
    """(paths the wheel must hold, asset names the code uses): every module of the package and
    every asset file (assets/X installs as gorilla/assets/X)."""
    modules = [f for f in tracked("gorilla") if f.endswith(".py")]
    assets = ["gorilla/" + f for f in tracked("assets")]
    return modules + assets, named_assets()


def check_wheel(wheel: Path) -> str:
    """Raise Failed when the wheel lacks a module or an asset; returns a summary of its contents."""
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        infos = z.infolist()
    want, used = expected_in_wheel()
    missing = [f for f in want if f not in names]
    for name in sorted(used):
        prefix = f"gorilla/assets/{name}"
        if prefix not in names and not any(n.startswith(prefix + "/") for n in names):
            missing.append(f"{prefix} (named by the code)")
    if not any(f.startswith("gorilla/") and f.endswith("__init__.py") for f in want):
        raise Failed("found no package under gorilla/ in the checkout")
    if missing:
        raise Failed("the wheel lacks:\n  " + "\n  ".join(missing))
    groups: dict[str, list[int]] = {}
    for i in infos:
        if i.is_dir():
            continue
        parts = i.filename.split("/")
        if parts[0] != "gorilla":
            key = parts[0]  # the dist-info
        elif parts[1] != "assets":
            key = "gorilla/ (modules)"
        else:
            key = "gorilla/assets/" + (parts[2] + "/" if len(parts) > 3 else " (files)")
        g = groups.setdefault(key, [0, 0])
        g[0] += 1
        g[1] += i.file_size
    lines = [f"{wheel.name}: {wheel.stat().st_size / 1024:.0f} KiB, {len(infos)} files"]
    lines += [f"  {k}: {n} files, {size / 1024:.0f} KiB unpacked" for k, (n, size) in sorted(groups.items())]
    lines.append(f"  asset names the code uses: {', '.join(sorted(used))}")
    return "\n".join(lines)


class Smoke:
    """The installed environment and the steps run in it."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.venv = tmp / "venv"
        self.work = tmp / "work"  # the current folder of every command: outside the checkout
        self.work.mkdir()
        home = tmp / "home"
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR", "VIRTUAL_ENV")
        }
        self.env.update(
            PATH=f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}{os.pathsep}/usr/games",
            XDG_CACHE_HOME=str(home / "cache"),  # an empty numba cache, as after a fresh install
            GORILLA_CONFIG_DIR=str(home / "config"),
            GORILLA_AUTOSAVE=str(home / "autosave.sgf"),
            GORILLA_AUDIO="silent",
            PYTHONUNBUFFERED="1",
        )
        self.results: list[tuple[str, float, str]] = []

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def run(self, args: list[str], *, stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess:
        """Run a command in the work folder; Failed on a non-zero exit."""
        p = subprocess.run(
            args, cwd=self.work, env=self.env, input=stdin, capture_output=True, text=True, timeout=timeout
        )
        if p.returncode != 0:
            what = f"{' '.join(args)} exited {p.returncode}"
            raise Failed(f"{what}\nstdout: {p.stdout[-2000:]}\nstderr: {p.stderr[-3000:]}")
        return p

    def step(self, name: str, fn: Callable[[], str]) -> bool:
        t = time.perf_counter()
        try:
            note = fn() or ""
            ok = True
        except (Failed, subprocess.TimeoutExpired, OSError) as e:
            note, ok = f"FAILED: {e}", False
        secs = time.perf_counter() - t
        self.results.append((name, secs, "ok" if ok else "FAILED"))
        print(f"[{'ok' if ok else 'FAILED'}] {name} ({secs:.1f} s){': ' + note if note else ''}", flush=True)
        return ok

    # --- the steps --------------------------------------------------------------------------
    def install(self, wheel: Path) -> str:
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True, capture_output=True)
        self.run(
            [self.bin("python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)]
        )
        return str(self.venv)

    def help(self) -> str:
        out = self.run([self.bin("gorilla"), "--help"]).stdout
        if "usage" not in out.lower() or "gorilla" not in out:
            raise Failed(f"gorilla --help printed no usage:\n{out[:500]}")
        return f"{len(out.splitlines())} lines"

    def installed(self) -> str:
        code = (
            "import sys, gorilla\n"
            "from pathlib import Path\n"
            "from gorilla import asset_dirs, asset_file\n"
            "from gorilla.ai.agent import AGENTS\n"
            "from gorilla.ai.policy.model import DEFAULT_MODEL\n"
            "pkg = Path(gorilla.__file__).resolve().parent\n"
            "assert pkg.is_relative_to(Path(sys.prefix).resolve()), pkg\n"
            f"for name in {sorted(named_assets())!r}:\n"
            "    found = [asset_file(*name.split('/'))] if '/' in name else [\n"
            "        d for d in asset_dirs(name) if d.exists()]\n"
            "    assert found and found[0].exists() and found[0].is_relative_to(pkg), (name, found)\n"
            "assert DEFAULT_MODEL.is_file(), DEFAULT_MODEL\n"
            "print(' '.join(AGENTS))\n"
        )
        self.agents = self.run([self.bin("python"), "-c", code]).stdout.split()
        return f"assets found in the installed package; AIs: {' '.join(self.agents)}"

    def gtp_game(self, name: str, first: bool) -> str:
        flags = BUDGETS.get(name, ["--ai", name, "--time", "0.5"])
        cmds = ["1 boardsize 7", "2 clear_board", "3 komi 6.5"]
        cmds += [f"{10 + i} genmove {'bw'[i % 2]}" for i in range(6)]
        cmds += ["20 final_score", "21 quit"]
        # (no --seed: not every AI takes one, and gorilla gtp passes it to any)
        p = self.run([self.bin("gorilla"), "gtp", *flags], stdin="\n".join(cmds) + "\n")
        answers = [ln for ln in p.stdout.splitlines() if ln.startswith(("=", "?"))]
        if len(answers) != len(cmds) or any(a.startswith("?") for a in answers):
            raise Failed(f"GTP answers {answers} to {cmds}\nstderr: {p.stderr[-2000:]}")
        moves = [a.split(maxsplit=1)[1] if " " in a else "" for a in answers[3:9]]
        if not all(VERTEX.match(m) for m in moves):
            raise Failed(f"not moves: {moves}")
        if first and "compiling the engine" not in p.stderr:
            raise Failed(f"a cold start said nothing about compiling on stderr: {p.stderr[-1000:]!r}")
        return f"{' '.join(moves)}; {answers[-2].split(maxsplit=1)[-1]}"

    def predict(self) -> str:
        sgf = self.work / "game.sgf"
        sgf.write_text(RECORD)
        out = self.run([self.bin("gorilla"), "predict", str(sgf)]).stdout
        if "1 games" not in out:
            raise Failed(f"gorilla predict reported no game:\n{out}")
        return out.splitlines()[1] if len(out.splitlines()) > 1 else out

    def analyze(self) -> str:
        sgf = self.work / "game.sgf"
        sgf.write_text(RECORD)
        out = self.work / "analyzed.sgf"
        self.run(
            [self.bin("gorilla"), "analyze", str(sgf), "--playouts", "16", "--seed", "1", "-o", str(out)]
        )
        code = (
            "import sys\nfrom sgfmill import sgf\n"
            "g = sgf.Sgf_game.from_bytes(open(sys.argv[1], 'rb').read())\n"
            "print(len([n for n in g.get_main_sequence() if n.get_move()[0]]))\n"
        )
        if not out.exists():
            raise Failed("gorilla analyze -o wrote no file")
        n = int(self.run([self.bin("python"), "-c", code, str(out)]).stdout)
        if n != RECORD.count(";") - 1:
            raise Failed(f"the analysed record has {n} moves, the game {RECORD.count(';') - 1}")
        return f"{out.stat().st_size} bytes, {n} moves"

    def pbrain(self) -> str:
        # one command at a time, each after the answer to the one before: END ends the brain at
        # once, even before it has answered
        proc = subprocess.Popen(
            [self.bin("gorilla"), "pbrain"], cwd=self.work, env=self.env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        timer = threading.Timer(600, proc.kill)
        timer.start()
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None and stdout is not None

        def ask(line: str) -> str:
            stdin.write(line + "\n")
            stdin.flush()
            while True:
                reply = stdout.readline()
                if not reply:
                    err = proc.stderr.read()[-1000:] if proc.stderr else ""
                    raise Failed(f"pbrain ended after {line!r} (exit {proc.wait()}): {err}")
                if not reply.startswith(("MESSAGE", "DEBUG")):
                    return reply.strip()

        try:
            started = ask("START 15")
            stdin.write("INFO timeout_turn 500\n")
            move = ask("TURN 7,7")
            stdin.write("END\n")
            stdin.flush()
            proc.wait(60)
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
        if started != "OK" or not re.fullmatch(r"\d+,\d+", move):
            raise Failed(f"pbrain answered {started!r} to START and {move!r} to TURN")
        x, y = (int(v) for v in move.split(","))
        if not (0 <= x < 15 and 0 <= y < 15) or (x, y) == (7, 7):
            raise Failed(f"pbrain played {x},{y}: off the board or on the stone at 7,7")
        return f"TURN 7,7 -> {x},{y}"

    def window(self) -> str:
        prefix: list[str] = []
        if not os.environ.get("DISPLAY"):
            if not shutil.which("xvfb-run"):
                if os.environ.get("CI"):
                    raise Failed("no display and no xvfb-run (apt-get install -y xvfb xauth)")
                return "skipped: no display and no xvfb-run"
            prefix = ["xvfb-run", "-a", "-s", "-screen 0 1280x900x24"]
        frames = self.tmp / "frames.txt"
        env = {**self.env, "GORILLA_FRAME_LOG": str(frames)}
        proc = subprocess.Popen(
            [*prefix, self.bin("gorilla"), "--size", "9"], cwd=self.work, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )  # fmt: skip
        t0 = time.perf_counter()
        try:
            first = None
            while time.perf_counter() - t0 < 120 and proc.poll() is None:
                if frames.exists() and frames.read_text().strip():
                    first = time.perf_counter() - t0
                    break
                time.sleep(0.2)
            if first is None:
                raise Failed(f"no frame drawn (exit {proc.poll()})")
            time.sleep(3)
            if proc.poll() is not None:
                raise Failed(f"the window closed by itself (exit {proc.returncode})")
            n = len(frames.read_text().split())
            return f"first frame after {first:.1f} s, {n} frames, alive 3 s later"
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                out, _ = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, _ = proc.communicate()
            if out.strip() and proc.returncode not in (0, -signal.SIGTERM, 143):
                print(out[-2000:], flush=True)


def source_copy(dest: Path) -> Path:
    """A copy of the checkout's files (git's tracked and untracked-but-not-ignored ones, or the
    whole folder without git): the build writes nothing into the checkout, where ``pip install
    -e`` may be running at the same time, and sees no stray file."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        files = [f for f in out.split("\0") if f and (ROOT / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = []
    if not files:
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".git", "build", "dist", "*.egg-info"))
        return dest
    for f in files:
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dest / f)
    return dest


def build(dist: Path) -> tuple[Path, Path]:
    """(wheel, sdist) of the checkout, built with ``python -m build`` from a copy of it."""
    src = source_copy(dist.parent / "src")
    p = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(src)], capture_output=True, text=True
    )
    if p.returncode != 0:
        raise Failed(f"python -m build failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        raise Failed(f"expected one wheel and one sdist in {dist}: {sorted(os.listdir(dist))}")
    return wheels[0], sdists[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    load = os.getloadavg()[0]
    print(f"wheel smoke test: {os.cpu_count()} cores, load {load:.1f}", flush=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        tmp_ctx = None
        tmp = args.keep.resolve()
    else:
        tmp_ctx = tempfile.TemporaryDirectory(prefix="gorilla-wheel-")
        tmp = Path(tmp_ctx.name)
    if tmp.is_relative_to(ROOT):
        print("the work folder must lie outside the checkout", file=sys.stderr)
        return 2
    try:
        s = Smoke(tmp)
        made: dict[str, Path] = {}

        def do_build() -> str:
            made["wheel"], made["sdist"] = build(tmp / "dist")
            return (
                f"{made['wheel'].name}, {made['sdist'].name} ({made['sdist'].stat().st_size / 1024:.0f} KiB)"
            )

        ok = s.step("build the sdist and the wheel", do_build)
        ok = ok and s.step(
            "the wheel holds every module and asset", lambda: "\n" + check_wheel(made["wheel"])
        )
        ok = ok and s.step(
            "install the wheel in a fresh virtual environment", lambda: s.install(made["wheel"])
        )
        ok = ok and s.step("the installed package and its assets", s.installed)
        if ok:
            s.step("gorilla --help", s.help)
            for i, name in enumerate(s.agents):
                s.step(f"a GTP game: {name}", lambda name=name, i=i: s.gtp_game(name, i == 0))
            s.step("gorilla predict", s.predict)
            s.step("gorilla analyze -o", s.analyze)
            s.step("gorilla pbrain", s.pbrain)
            s.step("the window under X", s.window)
        failed = [n for n, _, r in s.results if r != "ok"]
        print(
            f"wheel smoke test: {len(s.results) - len(failed)} of {len(s.results)} steps passed in "
            f"{time.perf_counter() - started:.0f} s (load {load:.1f} at the start, "
            f"{os.getloadavg()[0]:.1f} at the end)",
            flush=True,
        )
        if failed or not ok:
            print("failed: " + "; ".join(failed), flush=True)
            return 1
        return 0
    finally:
        if tmp_ctx is not None:
            tmp_ctx.cleanup()


if __name__ == "__main__":
    raise SystemExit(main())
