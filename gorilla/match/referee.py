"""Referee two GTP engines against each other on random games: boards, legality and scores.

Used by the differential test against GNU Go and ``benchmarks/gnugo_referee.py``.
A seeded random game is played move by move on both engines through
``play``. Most moves are random *reasonable* moves (legal, not filling one's
own eye) from an in-process :class:`Game` mirror; the rest are attempts that
are often illegal: occupied points, the ko point, the opponent's eyes
(suicide) and random points. After every attempt both engines must agree on
whether it was legal; after every move both boards (``list_stones``), the
legal moves of the side to move (``all_legal``) and the mirror must agree.
At the end the area score of both boards is compared, as is each engine's
``final_score`` when neither engine marks dead stones.
"""

from __future__ import annotations

import dataclasses
import os
import random
import tempfile
from dataclasses import dataclass, field

from gorilla.match.gtp_client import GtpClient
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, EMPTY, PASS, WHITE
from gorilla.rules.coords import GTP_LETTERS, format_vertex
from gorilla.rules.game import Game
from gorilla.rules.position import opponent
from gorilla.rules.rulesets import CHINESE
from gorilla.rules.scoring import result_string

NAMES = {BLACK: "black", WHITE: "white"}


@dataclass
class GameReport:
    """What one refereed game found."""

    size: int
    seed: int
    moves: int = 0
    attempts: int = 0
    refused: int = 0
    result: str = ""
    scored: bool = False  # final_score compared (neither engine marked dead stones)
    differences: list[str] = field(default_factory=list)


def vertex_set(text: str) -> set[str]:
    """The vertices of a GTP vertex list, upper-cased, as a set."""
    return {v.upper() for v in text.split()}


def area_score(black: set[str], white: set[str], size: int, komi: float) -> float:
    """Tromp-Taylor area score (Black minus White, komi included) of a board given as vertex sets."""
    grid = [[EMPTY] * size for _ in range(size)]
    for vs, c in ((black, BLACK), (white, WHITE)):
        for v in vs:
            x, y = GTP_LETTERS.index(v[0]), int(v[1:]) - 1
            grid[y][x] = c
    score = float(len(black) - len(white)) - komi
    seen = [[False] * size for _ in range(size)]
    for y0 in range(size):
        for x0 in range(size):
            if grid[y0][x0] != EMPTY or seen[y0][x0]:
                continue
            stack, region, reach = [(x0, y0)], 0, set()
            seen[y0][x0] = True
            while stack:
                x, y = stack.pop()
                region += 1
                for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if 0 <= nx < size and 0 <= ny < size:
                        c = grid[ny][nx]
                        if c == EMPTY and not seen[ny][nx]:
                            seen[ny][nx] = True
                            stack.append((nx, ny))
                        elif c != EMPTY:
                            reach.add(c)
            if reach == {BLACK}:
                score += region
            elif reach == {WHITE}:
                score -= region
    return score


def _attempt(game: Game, rng: random.Random, color: int) -> int:
    """A move that is often illegal: occupied, ko retake, opponent's eye, or any point."""
    pos = game.position
    points = list(pos.points())
    kind = rng.random()
    if kind < 0.3:
        stones = pos.stones(BLACK) + pos.stones(WHITE)
        if stones:
            return rng.choice(stones)
    if kind < 0.5 and pos.st[K.S_KOCOL] == color and pos.st[K.S_KO]:  # the ko point color may not retake
        return int(pos.st[K.S_KO])
    if kind < 0.8:
        w = pos.size + 2
        opp = opponent(color)
        eyes = [
            p
            for p in points
            if pos.color_at(p) == EMPTY
            and all(pos.color_at(q) in (opp, 3) for q in (p - 1, p + 1, p - w, p + w))
        ]
        if eyes:
            return rng.choice(eyes)
    return rng.choice(points)


class Referee:
    """Two GTP engines (``a`` is Gorilla, ``b`` the reference) and the games played between them."""

    def __init__(self, a: GtpClient, b: GtpClient, *, check_legal: bool = True) -> None:
        self.a, self.b = a, b
        self.check_legal = check_legal

    def both(self, command: str) -> tuple[tuple[bool, str], tuple[bool, str]]:
        """Ask both engines the same command: ((ok, text) from a, (ok, text) from b)."""
        return self.a.ask(command), self.b.ask(command)

    def setup(self, size: int, komi: float) -> None:
        """Give both engines an empty size x size board and komi; RuntimeError when either refuses."""
        for cmd in (f"boardsize {size}", "clear_board", f"komi {komi}"):
            ra, rb = self.both(cmd)
            if not (ra[0] and rb[0]):
                raise RuntimeError(f"'{cmd}' failed: {ra} / {rb}")

    def compare_boards(self, game: Game, report: GameReport, when: str) -> bool:
        """True when both engines' stones match the mirror's and (check_legal) their all_legal lists agree.

        Otherwise the first difference goes into report, labelled with when, and the answer is False.
        """
        size = game.size
        for color in (BLACK, WHITE):
            cmd = f"list_stones {NAMES[color]}"
            (oka, ta), (okb, tb) = self.both(cmd)
            mine = {format_vertex(p, size).upper() for p in game.position.stones(color)}
            if not (oka and okb) or vertex_set(ta) != vertex_set(tb) or vertex_set(ta) != mine:
                report.differences.append(
                    f"{when}: {NAMES[color]} stones differ: gorilla={sorted(vertex_set(ta))} "
                    f"reference={sorted(vertex_set(tb))} mirror={sorted(mine)}"
                )
                return False
        if self.check_legal:
            color = game.to_move
            (oka, ta), (okb, tb) = self.both(f"all_legal {NAMES[color]}")
            if not (oka and okb) or vertex_set(ta) != vertex_set(tb):
                only_a = sorted(vertex_set(ta) - vertex_set(tb))
                only_b = sorted(vertex_set(tb) - vertex_set(ta))
                report.differences.append(
                    f"{when}: all_legal {NAMES[color]} differs: only gorilla={only_a} only reference={only_b}"
                )
                return False
        return True

    def play_game(
        self,
        size: int,
        seed: int,
        *,
        komi: float = 7.5,
        p_attempt: float = 0.25,
        p_same_color: float = 0.03,
        max_moves: int | None = None,
    ) -> tuple[GameReport, Game]:
        """One seeded random game; returns its report and the mirror game."""
        rng = random.Random(seed)
        report = GameReport(size, seed)
        # the reference (GNU Go) uses simple ko: so does the mirror
        game = Game(size, dataclasses.replace(CHINESE, superko=False), komi)
        self.setup(size, komi)
        limit = max_moves or 3 * size * size
        color = BLACK
        while len(game.moves) < limit:
            if rng.random() < p_same_color:
                color = opponent(color)  # the same colour plays twice in a row (GTP allows it)
            if rng.random() < p_attempt:
                p = _attempt(game, rng, color)
                report.attempts += 1
                vtx = format_vertex(p, size)
                (oka, ta), (okb, tb) = self.both(f"play {NAMES[color]} {vtx}")
                mirror_ok = game.check(p, color) is None
                if oka != okb or oka != mirror_ok:
                    report.differences.append(
                        f"move {len(game.moves) + 1}: play {NAMES[color]} {vtx}: "
                        f"gorilla {'accepted' if oka else 'refused: ' + ta}, "
                        f"reference {'accepted' if okb else 'refused: ' + tb}, mirror legal={mirror_ok}"
                    )
                    return report, game
                if not oka:
                    report.refused += 1
                    continue
                game.play(p, color)
            else:
                legal = game.legal_moves(color, reasonable=True)
                p = rng.choice(legal) if legal else PASS
                vtx = format_vertex(p, size)
                (oka, ta), (okb, tb) = self.both(f"play {NAMES[color]} {vtx}")
                if not (oka and okb):
                    report.differences.append(
                        f"move {len(game.moves) + 1}: legal play {NAMES[color]} {vtx} refused: "
                        f"gorilla={oka} {ta!r} reference={okb} {tb!r}"
                    )
                    return report, game
                game.play(p, color)
            report.moves += 1
            if not self.compare_boards(game, report, f"after move {len(game.moves)} ({NAMES[color]} {vtx})"):
                return report, game
            color = opponent(color)
            if game.over:
                break
        self.compare_end(game, report)
        return report, game

    def compare_end(self, game: Game, report: GameReport) -> None:
        """At the end: sets report.result (the mirror's area count) and records what differs.

        Compared: both engines' area counts with the mirror's, their captures, and, when neither
        marks dead stones, their final_score (report.scored is then True).
        """
        size, komi = game.size, float(game.komi)
        (oka, ta), (okb, tb) = self.both("list_stones black")
        (oka2, ta2), (okb2, tb2) = self.both("list_stones white")
        area_a = area_score(vertex_set(ta), vertex_set(ta2), size, komi)
        area_b = area_score(vertex_set(tb), vertex_set(tb2), size, komi)
        mirror = game.score(dead=()).margin
        report.result = result_string(mirror)
        if not (area_a == area_b == mirror):
            report.differences.append(
                f"end: area scores differ: gorilla={area_a} reference={area_b} mirror={mirror}"
            )
        for color in (BLACK, WHITE):
            (oka, ta), (okb, tb) = self.both(f"captures {NAMES[color]}")
            if ta.strip() != tb.strip() or int(ta) != game.captures(color):
                report.differences.append(f"end: captures {NAMES[color]}: gorilla={ta} reference={tb}")
        (oka, da), (okb, db) = self.both("final_status_list dead")
        if oka and okb and not da.strip() and not db.strip():
            (oka, sa), (okb, sb) = self.both("final_score")
            report.scored = True
            if not (oka and okb) or sa.strip().upper() != sb.strip().upper() or sa.strip() != report.result:
                report.differences.append(
                    f"end: final_score gorilla={sa!r} reference={sb!r} mirror={report.result}"
                )

    def sgf_round_trip(self, game: Game, report: GameReport) -> None:
        """Gorilla's printsgf, loaded by the reference with loadsgf, gives the same board."""
        fd, path = tempfile.mkstemp(suffix=".sgf", prefix="gorilla-referee-")
        os.close(fd)
        try:
            ok, text = self.a.ask(f"printsgf {path}")
            if not ok:
                report.differences.append(f"sgf: printsgf failed: {text}")
                return
            ok, text = self.b.ask(f"loadsgf {path}")
            if not ok:
                report.differences.append(f"sgf: reference cannot load Gorilla's SGF: {text}")
                return
            for color in (BLACK, WHITE):
                ok, tb = self.b.ask(f"list_stones {NAMES[color]}")
                mine = {format_vertex(p, game.size).upper() for p in game.position.stones(color)}
                if vertex_set(tb) != mine:
                    report.differences.append(
                        f"sgf: {NAMES[color]} stones after loadsgf: reference={sorted(vertex_set(tb))} "
                        f"gorilla={sorted(mine)}"
                    )
        finally:
            os.unlink(path)


def gorilla_command(python: str, *extra: str) -> list[str]:
    """argv of ``python -m gorilla gtp`` with GNU Go's rules (area counting, simple ko, no suicide)."""
    return [python, "-m", "gorilla", "gtp", "--rules", "chinese", "--ko", "simple", *extra]


def gnugo_command(path: str) -> list[str]:
    """argv of GNU Go at path in GTP mode with Chinese rules, at level 0."""
    return [path, "--mode", "gtp", "--chinese-rules", "--level", "0"]


__all__ = ["GameReport", "Referee", "area_score", "gnugo_command", "gorilla_command"]
