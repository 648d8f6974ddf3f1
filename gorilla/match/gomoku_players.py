"""Gomoku match players: a built-in Gomoku agent or an external Gomocup brain (``pbrain:CMD``).

A player is told a new game (``new_game``) and asked for a move (``genmove``) with the
time controls as the Gomocup protocol sends them: ``timeout_turn`` and ``timeout_match``
in milliseconds (0: no limit) and the player's ``time_left``. A brain gets them as INFO
lines, a built-in agent turns them into a budget with the same rule the brain uses
(:func:`gorilla.gomoku.search.time_budget`). A crash, a hang past the limits or an answer
that is not ``x,y`` raises :class:`gorilla.match.players.Forfeit`; the referee
(:mod:`gorilla.match.gomoku_games`) checks legality itself.
"""

from __future__ import annotations

import shlex
import shutil

from gorilla.gomoku import search as S
from gorilla.gomoku import swap2
from gorilla.gomoku.agents import GomokuAgent, make_agent, ready_engine
from gorilla.gomoku.game import GomokuGame
from gorilla.gomoku.referee import RULE_BITS, EngineError, PBrain
from gorilla.match.players import Forfeit, move_within, short_label

PBRAIN_PREFIX = "pbrain:"
START_TIMEOUT = 300.0  # seconds a brain may take to answer START (it compiles then, untimed)


def is_pbrain(spec: str) -> bool:
    """True when spec is an external Gomocup brain, ``pbrain:CMD``."""
    return spec.strip().startswith(PBRAIN_PREFIX)


def gomoku_label(spec: str) -> str:
    """A short name for a Gomoku player spec: a built-in as given, a brain's command without folders."""
    s = spec.strip()
    return "pbrain:" + short_label(s[len(PBRAIN_PREFIX) :].strip()) if is_pbrain(s) else s


class GomokuPlayer:
    """The interface the Gomoku referee plays through."""

    spec: str
    label: str

    def new_game(self, game: GomokuGame, timeout_turn: int, timeout_match: int) -> None:
        """A new game (the opening stones are on game's board); limits in milliseconds."""

    def set_game_seed(self, seed: int) -> None:  # noqa: B027 - an optional hook
        """A seeded built-in agent takes this seed for the next game; brains ignore it."""

    def settle(self) -> None:  # noqa: B027 - an optional hook
        """Return when the player can be asked (a brain: SETTLE after its last answer); the
        referee calls it before its clock starts, so the wait is not the player's time."""

    def genmove(self, game: GomokuGame, time_left: int | None, wait: float | None) -> tuple[int, int]:
        """The move (x, y) for the side to move; Forfeit after wait seconds or on a crash/garbage."""
        raise NotImplementedError

    def swap2(self, game: GomokuGame, wait: float | None) -> list[tuple[int, int]] | None:
        """Swap2 on game's opening stones (0, 3 or 5; White to move after 3 and 5): the stones
        the player puts down (3 on an empty board, B W B; after 3, one stone to play White or
        two more, W B; after 5, one stone to play White), or None for SWAP: it takes Black and
        the other player moves. Forfeit on a crash, a time-out or an answer that is none of these."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the player (end the brain's process)."""


class BuiltinGomokuPlayer(GomokuPlayer):
    """A built-in Gomoku agent (``random``, ``threat1``, ``pvs``, ``pvs+vct``, ``mcts``) on a thread."""

    _warm: set[str] = set()  # the specs whose kernels this process has made ready

    def __init__(self, spec: str, seed: int | None = None) -> None:
        self.spec = spec.strip()
        self.label = self.spec
        self.seed = seed
        self.agent: GomokuAgent = make_agent(self.spec, seed)
        self.timeout_turn = 0
        self.timeout_match = 0
        self.game_seed = 0 if seed is None else seed

    def set_game_seed(self, seed: int) -> None:
        """Reseed an agent that draws random numbers (random, mcts) for the next game."""
        self.game_seed = seed
        rng = getattr(self.agent, "rng", None)
        if rng is not None:
            rng.seed(seed)

    def new_game(self, game: GomokuGame, timeout_turn: int, timeout_match: int) -> None:
        """Compile the kernels once (untimed), forget what the agent kept, note the limits."""
        if self.spec not in BuiltinGomokuPlayer._warm:
            ready_engine([self.spec])  # this agent's kernels only
            BuiltinGomokuPlayer._warm.add(self.spec)
        self.agent.new_game()
        self.timeout_turn, self.timeout_match = timeout_turn, timeout_match

    def genmove(self, game: GomokuGame, time_left: int | None, wait: float | None) -> tuple[int, int]:
        """The agent's move within its budget; Forfeit 'timeout' past wait, 'crash' if it raises."""
        turn = self.timeout_turn if self.timeout_turn > 0 else None
        left = time_left if self.timeout_match > 0 else None
        seconds = S.time_budget(turn, left, len(game.moves), game.size * game.size)
        snapshot = game.copy()
        move = move_within(lambda: self.agent.select(snapshot, seconds).move, wait, f"gomoku-{self.spec}")
        if not isinstance(move, int) or move < 0:
            raise Forfeit("garbage", f"agent returned {move!r}, not a move")
        return game.xy(move)

    def swap2(self, game: GomokuGame, wait: float | None) -> list[tuple[int, int]] | None:
        """The agent's Swap2 (:mod:`gorilla.gomoku.swap2`): on an empty board the candidate
        opening its search finds nearest even, after 3 or 5 stones White's move or SWAP
        (None) when its search finds White behind; within the move's budget."""
        turn = self.timeout_turn if self.timeout_turn > 0 else None
        seconds = S.time_budget(turn, None, len(game.moves), game.size * game.size)
        snapshot, seed = game.copy(), self.game_seed

        def think() -> list[tuple[int, int]] | None:
            if not snapshot.moves:
                return swap2.place_three(self.agent, snapshot, seconds, seed)
            move = swap2.choose(self.agent, snapshot, seconds)
            return None if move is None else [move]

        answer = move_within(think, wait, f"gomoku-{self.spec}")
        if answer is not None and not isinstance(answer, list):
            raise Forfeit("garbage", f"agent returned {answer!r} for Swap2")
        return answer


class BrainPlayer(GomokuPlayer):
    """An external engine speaking the Gomocup protocol; restarted after a crash or a time-out."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        self.label = gomoku_label(self.spec)
        self.argv = shlex.split(self.spec[len(PBRAIN_PREFIX) :])
        self.brain: PBrain | None = None
        self.started = False  # START answered: the next game begins with RESTART
        self.sent = 0  # stones of the current game the brain knows
        self.timeout_match = 0

    def _fail(self, err: EngineError) -> Forfeit:
        self._kill()
        kind = err.reason if err.reason in ("crash", "timeout") else "garbage"
        return Forfeit(kind, str(err))

    def _kill(self) -> None:
        if self.brain is not None:
            self.brain.close()
        self.brain, self.started = None, False

    def settle(self) -> None:
        """Wait out the brain's SETTLE after its last answer (:meth:`PBrain.settle`)."""
        if self.brain is not None:
            self.brain.settle()

    def _ask(self, line: str, timeout: float) -> str:
        assert self.brain is not None
        self.brain.send(line)
        return self.brain.answer(timeout)

    def new_game(self, game: GomokuGame, timeout_turn: int, timeout_match: int) -> None:
        """START (or RESTART) the brain, then the rule and the limits as INFO lines."""
        try:
            if self.brain is None or self.brain.proc.poll() is not None:
                self._kill()
                try:
                    self.brain = PBrain(self.argv)
                except OSError as e:
                    raise Forfeit("crash", f"cannot start {self.label}: {e}") from None
            ok = "?"
            if self.started:
                ok = self._ask("RESTART", START_TIMEOUT)
            if ok.upper() != "OK":
                ok = self._ask(f"START {game.size}", START_TIMEOUT)
            if ok.upper() != "OK":
                raise EngineError("garbage", f"START answered {ok!r}")
            self.started = True
            for key, value in (
                ("rule", RULE_BITS[game.rule]),
                ("timeout_turn", timeout_turn),
                ("timeout_match", timeout_match),
                ("game_type", 1),
            ):
                self.brain.send(f"INFO {key} {value}")
        except EngineError as e:
            raise self._fail(e) from None
        self.sent = 0
        self.timeout_match = timeout_match

    def genmove(self, game: GomokuGame, time_left: int | None, wait: float | None) -> tuple[int, int]:
        """BEGIN, TURN or BOARD..DONE, then the brain's answer ``x,y``; Forfeit on anything else."""
        if self.brain is None:
            raise Forfeit("crash", f"{self.label} is not running")
        limit = 1e9 if wait is None else wait
        try:
            if self.timeout_match > 0 and time_left is not None:
                self.brain.send(f"INFO time_left {max(0, time_left)}")
            n = len(game.moves)
            if n == 0:
                reply = self._ask("BEGIN", limit)
            elif self.sent > 0 and n == self.sent + 1:
                x, y = game.xy(game.moves[-1][0])
                reply = self._ask(f"TURN {x},{y}", limit)
            else:
                me = game.to_move
                self.brain.send("BOARD")
                for p, c in game.moves:
                    x, y = game.xy(p)
                    self.brain.send(f"{x},{y},{1 if c == me else 2}")
                reply = self._ask("DONE", limit)
        except EngineError as e:
            raise self._fail(e) from None
        parts = [t.strip() for t in reply.split(",")]
        if len(parts) != 2 or not all(t.lstrip("-").isdigit() for t in parts):
            self._kill()
            raise Forfeit("garbage", f"answered {reply[:80]!r}, not x,y")
        self.sent = n + 1
        return int(parts[0]), int(parts[1])

    def swap2(self, game: GomokuGame, wait: float | None) -> list[tuple[int, int]] | None:
        """``SWAP2BOARD``, the opening's stones as ``x,y,field`` (1: the side to move's), ``DONE``;
        the answer ``SWAP`` or stones ``x,y`` separated by spaces."""
        if self.brain is None:
            raise Forfeit("crash", f"{self.label} is not running")
        n = len(game.moves)
        try:
            self.brain.send("SWAP2BOARD")
            for p, c in game.moves:
                x, y = game.xy(p)
                self.brain.send(f"{x},{y},{1 if c == game.to_move else 2}")
            reply = self._ask("DONE", 1e9 if wait is None else wait)
        except EngineError as e:
            raise self._fail(e) from None
        self.sent = 0  # the next move sends the whole board
        words = reply.split()
        if n and [w.upper() for w in words] == ["SWAP"]:
            return None
        stones = [w.split(",") for w in words]
        want = {0: (3,), 3: (1, 2), 5: (1,)}.get(n, ())
        if len(stones) not in want or not all(
            len(t) == 2 and all(v.strip().lstrip("-").isdigit() for v in t) for t in stones
        ):
            self._kill()
            what = " or ".join(str(k) for k in want) + " stones x,y" + (" or SWAP" if n else "")
            raise Forfeit("garbage", f"answered {reply[:80]!r} to SWAP2BOARD with {n} stones, not {what}")
        return [(int(t[0]), int(t[1])) for t in stones]

    def close(self) -> None:
        """END the brain (killed if it does not exit)."""
        self._kill()


def make_gomoku_player(spec: str, seed: int | None = None) -> GomokuPlayer:
    """A built-in Gomoku agent by name, or an external brain for ``pbrain:CMD``."""
    return BrainPlayer(spec) if is_pbrain(spec) else BuiltinGomokuPlayer(spec, seed)


def check_gomoku_spec(spec: str) -> str | None:
    """None when spec can make a Gomoku player, else a one-line reason (brains are not started)."""
    s = spec.strip()
    if is_pbrain(s):
        try:
            argv = shlex.split(s[len(PBRAIN_PREFIX) :])
        except ValueError as e:
            return f"player '{spec}': {e}"
        if not argv:
            return f"player '{spec}': no command"
        if shutil.which(argv[0]) is None:
            return f"player '{spec}': program '{argv[0]}' not found"
        return None
    try:
        make_agent(s)
    except ValueError as e:
        return f"player '{spec}': {e}; or pbrain:CMD for an external engine"
    return None
