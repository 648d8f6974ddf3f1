"""The GTP version 2 protocol: parsing, dispatch, errors and streaming responses; no commands.

Protocol handling follows the GTP 2 draft: control characters other than HT
and LF are removed, everything from ``#`` on is a comment, HT becomes a
space, blank lines are ignored, an optional numeric id precedes the command
name (names are case-sensitive), and every response is ``=id text`` or
``?id message`` ended by an empty line.

This module knows no command: command sets (:mod:`gorilla.gtp.commands`,
:mod:`gorilla.gtp.analysis`) are registered by the wiring in
:mod:`gorilla.gtp.main`, and anyone may add more with :meth:`GtpEngine.register`.
A handler ``handler(engine, args) -> str`` returns the response text or raises
:class:`GtpError`; it may instead return :class:`Streaming`, whose
``run(stop, write)`` produces output while the engine keeps reading input
(``lz-analyze``): the engine writes ``=id``, runs it in a thread until the next
input line (or end of input) arrives, then sets ``stop``, writes what ``run``
returned and the empty line.
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from gorilla.ai.agent import Agent, Budget
from gorilla.rules.game import Game
from gorilla.rules.rulesets import Ruleset

MAX_LINE = 1 << 20  # longer input lines are refused (their rest is skipped)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_EOF = object()


class GtpError(Exception):
    """A command failed; str() is the one-line message sent after ``?``."""


@dataclass
class Streaming:
    """A response produced while the engine keeps reading input (see the module docstring)."""

    run: Callable[[threading.Event, Callable[[str], None]], str]


Handler = Callable[["GtpEngine", list[str]], "str | Streaming"]


def preprocess(line: str) -> str:
    """One input line as GTP's preprocessing leaves it (comments, control characters, tabs)."""
    line = line.split("#", 1)[0]
    line = _CONTROL.sub("", line.replace("\r", ""))
    return line.replace("\t", " ").strip()


def one_line(text: str) -> str:
    """An error message squeezed onto one line."""
    return " ".join(str(text).split()) or "failed"


def body(text: str) -> str:
    """A success response that cannot end the response early: no empty lines inside."""
    lines = [ln.rstrip() for ln in str(text).replace("\r", "").split("\n")]
    if not lines:
        return ""
    first, rest = lines[0], [ln for ln in lines[1:] if ln.strip()]
    return "\n".join([first, *rest]).rstrip("\n") if rest else first


class GtpEngine:
    """A Go engine speaking GTP 2 around a :class:`Game` and an :class:`Agent`.

    It holds the state that handlers work on (game, agent, budget, time settings)
    and the command registry; it starts with no command registered.
    """

    def __init__(
        self,
        game: Game,
        agent: Agent,
        *,
        budget: Budget | None = None,
        name: str = "Gorilla",
    ) -> None:
        self.game = game
        self.agent = agent
        self.budget = budget
        self.name = name
        self.agent_spec = agent.name  # the spec the agent was made from (for compiling its kernels)
        self.commands: dict[str, Handler] = {}
        self.quit = False
        self.time_settings: tuple[float, float, int] | None = None
        self._write_lock = threading.Lock()
        self._out: BinaryIO | None = None
        self.reader: threading.Thread | None = None  # the input thread of run()

    # --- the game ------------------------------------------------------
    @property
    def size(self) -> int:
        """The board size of the game."""
        return self.game.size

    @property
    def ruleset(self) -> Ruleset:
        """The game's ruleset."""
        return self.game.ruleset

    @property
    def komi(self) -> float:
        """The game's komi (setting it sets the game's)."""
        return float(self.game.komi)

    @komi.setter
    def komi(self, value: float) -> None:
        """Set the game's komi."""
        self.game.komi = value

    def new_game(self, size: int | None = None) -> None:
        """Clear the board (optionally to a new size), keeping rules and komi; tells the agent."""
        info = self.game.info
        self.game = Game(size or self.game.size, self.game.ruleset, self.game.komi)
        self.game.info.black_name, self.game.info.white_name = info.black_name, info.white_name
        self.agent.new_game()

    # --- registry ------------------------------------------------------
    def register(self, name: str, handler: Handler) -> None:
        """Add (or replace) the command called name."""
        if not name or any(ch.isspace() for ch in name):
            raise ValueError(f"bad GTP command name {name!r}")
        self.commands[name] = handler

    # --- one command ---------------------------------------------------
    def parse(self, line: str) -> tuple[str, str, list[str]] | None:
        """(id, name, args) of a preprocessed line, or None for an empty one."""
        words = line.split()
        if not words:
            return None
        cid = ""
        if words[0].isdigit():
            cid = words[0]
            words = words[1:]
        if not words:
            return cid, "", []
        return cid, words[0], words[1:]

    def dispatch(self, name: str, args: list[str]) -> str | Streaming:
        """Run the handler for name; raises GtpError on failure."""
        handler = self.commands.get(name)
        if handler is None:
            raise GtpError("unknown command")
        try:
            return handler(self, args)
        except GtpError:
            raise
        except (ValueError, IndexError, KeyError) as e:  # a handler's unchecked bad input
            raise GtpError(one_line(str(e) or "syntax error")) from None

    def answer(self, line: str) -> str | tuple[str, Streaming] | None:
        """The response to one raw input line: None for a blank or comment line,
        the complete response text, or (id, Streaming) for a streaming command."""
        if isinstance(line, _TooLong):
            words = line.split()
            cid = words[0] if words and words[0].isdigit() else ""
            return f"?{cid} line too long\n\n"
        parsed = self.parse(preprocess(line))
        if parsed is None:
            return None
        cid, name, args = parsed
        try:
            if not name:
                raise GtpError("syntax error")
            result = self.dispatch(name, args)
        except GtpError as e:
            return f"?{cid} {one_line(str(e))}\n\n"
        except Exception as e:  # a bug in a handler must not kill the engine
            return f"?{cid} internal error: {one_line(f'{type(e).__name__}: {e}')}\n\n"
        if isinstance(result, Streaming):
            return cid, result
        text = body(result or "")
        return f"={cid} {text}\n\n" if text else f"={cid}\n\n"

    def execute(self, line: str) -> str | None:
        """The complete response to one raw input line (None for a blank or comment line).

        Streaming commands run to their own end here (there is no input to wait
        for): ``stop`` is set at once, as if the next command had arrived.
        """
        ans = self.answer(line)
        if not isinstance(ans, tuple):
            return ans
        cid, streaming = ans
        chunks: list[str] = []
        stop = threading.Event()
        stop.set()
        tail = _run_streaming(streaming, stop, chunks.append)
        return f"={cid}\n" + "".join(chunks) + tail + "\n"

    # --- the loop ------------------------------------------------------
    def write(self, text: str) -> None:
        """Write to the controller (thread-safe); used by streaming commands."""
        if self._out is None:
            return
        with self._write_lock:
            try:
                self._out.write(text.encode("utf-8", "replace"))
                self._out.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.quit = True

    def run(self, inp: BinaryIO, out: BinaryIO) -> int:
        """Serve GTP until ``quit`` or end of input; returns 0."""
        self._out = out
        lines: queue.Queue[object] = queue.Queue()
        reader = threading.Thread(target=_read_lines, args=(inp, lines), daemon=True, name="gtp-reader")
        self.reader = reader
        reader.start()
        pending: object | None = None
        while not self.quit:
            item = pending if pending is not None else lines.get()
            pending = None
            if item is _EOF:
                break
            assert isinstance(item, str)
            pending = self._serve(item, lines)
        self._out = None
        return 0

    def _serve(self, raw: str, lines: queue.Queue[object]) -> object | None:
        """Answer one line; returns a line read while streaming, to be served next."""
        ans = self.answer(raw)
        if ans is None:
            return None
        if isinstance(ans, str):
            self.write(ans)
            return None
        cid, streaming = ans
        self.write(f"={cid}\n")
        stop = threading.Event()
        box: dict[str, str] = {}

        def target() -> None:
            box["tail"] = _run_streaming(streaming, stop, self.write)

        worker = threading.Thread(target=target, daemon=True, name="gtp-streaming")
        worker.start()
        nxt = _wait_for_input(lines, worker)
        stop.set()
        worker.join()
        self.write(box.get("tail", "") + "\n")
        return nxt


def _run_streaming(streaming: Streaming, stop: threading.Event, write: Callable[[str], None]) -> str:
    """Run a streaming response; its returned text, ending in a newline when not empty."""
    try:
        tail = streaming.run(stop, write) or ""
    except Exception as e:  # report, never die
        tail = f"internal error: {one_line(f'{type(e).__name__}: {e}')}"
    tail = "\n".join(ln for ln in tail.replace("\r", "").split("\n") if ln.strip())
    return tail + "\n" if tail else ""


class _TooLong(str):
    """Marker type for an over-long input line (its first bytes are kept for the id)."""


def _wait_for_input(lines: queue.Queue[object], worker: threading.Thread | None = None) -> object | None:
    """Block until the next non-empty input line (or EOF) arrives, or until worker ends by itself
    (genmove_analyze: the response is complete then); None when the worker ended first."""
    while True:
        try:
            item = lines.get(timeout=0.01 if worker is not None else None)
        except queue.Empty:
            if worker is not None and not worker.is_alive():
                return None
            continue
        if item is _EOF or not isinstance(item, str) or isinstance(item, _TooLong):
            return item
        if preprocess(item):
            return item
        # blank and comment lines do not interrupt a streaming command


def _iter_lines(inp: BinaryIO) -> Iterator[str]:
    """Decoded input lines; an over-long line comes as a _TooLong holding its start."""
    while True:
        try:
            chunk = inp.readline(MAX_LINE + 1)
        except (OSError, ValueError):
            return
        if not chunk:
            return
        if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
            head = chunk[:32].decode("utf-8", "replace")
            while chunk and not chunk.endswith(b"\n"):  # skip the rest of the line
                try:
                    chunk = inp.readline(MAX_LINE)
                except (OSError, ValueError):
                    return
            yield _TooLong(head)
            continue
        yield chunk.decode("utf-8", "replace")


def _read_lines(inp: BinaryIO, lines: queue.Queue[object]) -> None:
    try:
        for line in _iter_lines(inp):
            lines.put(line)
    finally:
        lines.put(_EOF)
