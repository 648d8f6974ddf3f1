"""The inputs of a KataGo network (model version 8: 22 spatial and 19 global features,
KataGo's ``NNInputs::fillRowV7``) computed from Gorilla's game record.

:func:`encode` returns ``(spatial, global)`` for the side to move: ``spatial`` is float32
``(22, size, size)``, row 0 the top of the board (GTP's highest row, the first row
``kata-raw-nn`` prints), column 0 the left; ``global`` is float32 ``(19,)``.

The record is read as KataGo's GTP engine would have it after the same commands
(``boardsize``, ``komi``, ``kata-set-rules``, the setup or handicap stones as
``set_free_handicap``, then ``play`` for every move, then ``kata-raw-nn``): setup and handicap
stones are a start board without moves; a player moving twice in a row (or the side to
move being changed) starts the history again from that board with no ko point, as KataGo's
engine does; two passes end the game (area scoring) or the normal phase (territory scoring,
KataGo's engine preventing the clean-up phase), after which only the last move is shown.

Spatial planes: 0 on board; 1, 2 own and opponent stones; 3, 4, 5 stones of chains with 1,
2, 3 liberties; 6 the ko point and, under superko, the points superko forbids (KataGo's
``superKoBanned``); 7, 8 encore ko planes (zero: no encore); 9-13 the last five moves,
the latest first, while they alternate; 14 stones that can be captured in a ladder now,
15, 16 the same one and two moves ago; 17 the moves that ladder an opponent chain of two
liberties; 18, 19 own and opponent area (area scoring only: Benson pass-alive stones and
territory, big regions bordered by one colour, the other stones as they stand; with a
group tax only regions of independent life); 20, 21 second-encore stones (zero).

Global features: 0-4 which of the last five moves were passes; 5 the komi from the side to
move's view over 20 (with KataGo's territory-scoring adjustment of one point per stone
played and any handicap bonus of the rules, clipped at ``area + 20``); 6, 7 the ko rule
(simple 0/0, positional 1/0.5, situational 1/-0.5); 8 multi-stone suicide; 9 territory
scoring; 10, 11 the tax (seki 1/0, all 1/1); 12, 13 the encore phase (zero); 14 whether a
pass now would end the game or phase; 15, 16 playout doubling (zero unless
:func:`set_playout_doubling` sets them); 17 the button; 18
the komi parity wave under area scoring.

Gorilla's rulesets as KataGo rules (:meth:`NetRules.from_game`):

=============  =====  ==========  ====  =======  ===============
Gorilla        score  ko          tax   suicide  friendly pass
=============  =====  ==========  ====  =======  ===============
chinese        area   positional  none  no       yes
japanese       terr.  simple      seki  no       no
tromp-taylor   area   positional  none  yes      no
little-go      area   simple      all   no       yes
=============  =====  ==========  ====  =======  ===============

Gorilla enforces positional superko under its Chinese rules, so they map to KataGo's
``chinese-ogs`` rather than ``chinese`` (simple ko); Little-Go counts stones only, which is
closest to KataGo's stone scoring (area scoring taxed two points a group). The komi is the
game's; no handicap bonus is added (Gorilla's counts give none). No button.

The history is replayed once per game line and kept (up to 1024 lines, keyed by the
position objects a game and its copies share), so encoding a search's positions costs one
replayed move each. :func:`encode` may be called from several threads at once.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from gorilla.ai.net import features_kernels as FK
from gorilla.rules import board as K
from gorilla.rules.board import BLACK, PASS, RESIGN, WHITE

if TYPE_CHECKING:
    from gorilla.rules.game import Game
    from gorilla.rules.position import Position

NUM_SPATIAL = 22
NUM_GLOBAL = 19
KOMI_CLIP_RADIUS = 20.0

KO_RULES = ("simple", "positional", "situational")
SCORING_RULES = ("area", "territory")
TAX_RULES = ("none", "seki", "all")
HANDICAP_BONUS = ("0", "N", "N-1")


@dataclass(frozen=True)
class NetRules:
    """The rules as KataGo's features see them.

    ko: ``simple``, ``positional`` or ``situational`` (superko); scoring: ``area`` or
    ``territory``; tax: ``none``, ``seki`` or ``all``; suicide: multi-stone suicide legal;
    button: the button of AGA-button rules; komi: None for the game's; white_handicap_bonus:
    what White gets for handicap stones (``0``, ``N``, ``N-1``); friendly_pass_ok: a pass
    with dead stones on the board does not end the game (KataGo then hides the history
    when a pass would end it).
    """

    ko: str = "positional"
    scoring: str = "area"
    tax: str = "none"
    suicide: bool = False
    button: bool = False
    komi: float | None = None
    white_handicap_bonus: str = "0"
    friendly_pass_ok: bool = False

    def __post_init__(self) -> None:
        for value, known in (
            (self.ko, KO_RULES),
            (self.scoring, SCORING_RULES),
            (self.tax, TAX_RULES),
            (self.white_handicap_bonus, HANDICAP_BONUS),
        ):
            if value not in known:
                raise ValueError(f"unknown rule '{value}' (known: {', '.join(known)})")

    @classmethod
    def from_game(cls, game: Game) -> NetRules:
        """The nearest KataGo rules to the game's ruleset (see the module's table), its komi."""
        name = game.ruleset.name
        komi = float(game.komi if game.komi is not None else game.ruleset.komi)
        if name == "japanese" or game.ruleset.scoring == "territory":
            return cls("simple", "territory", "seki", False, komi=komi)
        if name == "little-go" or game.ruleset.scoring == "stones":
            return cls("simple", "area", "all", False, komi=komi, friendly_pass_ok=True)
        if name == "tromp-taylor":
            return cls("positional", "area", "none", True, komi=komi)
        ko = "positional" if game.ruleset.superko else "simple"
        return cls(ko, "area", "none", game.ruleset.suicide, komi=komi, friendly_pass_ok=True)

    @classmethod
    def katago(cls, name: str, komi: float | None = None) -> NetRules:
        """KataGo's named rules (``kata-set-rules NAME``): chinese, chinese-ogs (-kgs),
        japanese, korean, tromp-taylor, aga (bga, french), aga-button, new-zealand (nz),
        goe (ing), stone-scoring; komi None keeps the game's."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        table = {
            "chinese": cls("simple", "area", "none", False, False, komi, "N", True),
            "chinese-ogs": cls("positional", "area", "none", False, False, komi, "N", True),
            "chinese-kgs": cls("positional", "area", "none", False, False, komi, "N", True),
            "japanese": cls("simple", "territory", "seki", False, False, komi, "0", False),
            "korean": cls("simple", "territory", "seki", False, False, komi, "0", False),
            "tromp-taylor": cls("positional", "area", "none", True, False, komi, "0", False),
            "aga": cls("situational", "area", "none", False, False, komi, "N-1", True),
            "bga": cls("situational", "area", "none", False, False, komi, "N-1", True),
            "french": cls("situational", "area", "none", False, False, komi, "N-1", True),
            "goe": cls("positional", "area", "none", True, False, komi, "0", True),
            "ing": cls("positional", "area", "none", True, False, komi, "0", True),
            "aga-button": cls("situational", "area", "none", False, True, komi, "N-1", True),
            "new-zealand": cls("situational", "area", "none", True, False, komi, "0", True),
            "nz": cls("situational", "area", "none", True, False, komi, "0", True),
            "stone-scoring": cls("simple", "area", "all", False, False, komi, "0", True),
        }
        if key not in table:
            raise ValueError(f"unknown KataGo rules '{name}' (known: {', '.join(table)})")
        return table[key]

    def with_komi(self, komi: float | None) -> NetRules:
        """The same rules with another komi."""
        return replace(self, komi=komi)


# --- the record as KataGo's history ---------------------------------------------------------


class _Replay:
    """KataGo's history state since it last started again, moved on one move at a time.

    The record is replayed once per game line: the state after a game's last move is kept
    (keyed by that position object, which a game's copies share and nothing changes once
    it is on the record), so a search encoding a line one move longer replays one move."""

    __slots__ = (
        "start_pos",
        "start_pla",
        "start_ko",
        "start_black",
        "recent",
        "opening",
        "white_moved",
        "presumed",
        "valid",
        "passes",
        "finished",
        "past_end",
        "has_button",
        "button_bonus",
        "pass_hashes",
        "ko_hashes",
        "cycle",
        "ever",
    )

    def __init__(self, positions: list[Position], idx: int, pla: int, ko: int, rules: NetRules) -> None:
        """A history that starts at positions[idx] with pla to move (KataGo's clear)."""
        pos = positions[idx]
        colors = pos.b[K.COLOR]
        self.start_pos = idx
        self.start_pla = pla
        self.start_ko = ko
        nw = int(np.count_nonzero(colors == WHITE))
        self.start_black = int(np.count_nonzero(colors == BLACK)) if nw == 0 else -1
        self.recent: list[tuple[int, int, int]] = []  # the last five moves (index, point, colour)
        self.opening: list[tuple[int, int, int]] = []  # the moves before White's first stone
        self.white_moved = False
        self.presumed = pla
        self.valid = 0
        self.passes = 0
        self.finished = False
        self.past_end = False
        self.has_button = rules.button
        self.button_bonus = 0.0
        self.pass_hashes: dict[int, set[int]] = {BLACK: set(), WHITE: set()}
        first = _key(pos, pla, rules)
        self.ko_hashes: list[int] = [] if rules.ko == "simple" else [first]
        self.cycle: dict[int, int] = {first: 1} if rules.ko == "simple" else {}
        self.ever = (colors == BLACK) | (colors == WHITE)

    def copy(self) -> _Replay:
        new = _Replay.__new__(_Replay)
        for name in _Replay.__slots__:
            setattr(new, name, getattr(self, name))
        new.recent = list(self.recent)
        new.opening = self.opening if self.white_moved else list(self.opening)
        new.pass_hashes = {BLACK: set(self.pass_hashes[BLACK]), WHITE: set(self.pass_hashes[WHITE])}
        new.ko_hashes = list(self.ko_hashes)
        new.cycle = dict(self.cycle)
        new.ever = self.ever.copy()
        return new

    def play(self, positions: list[Position], i: int, p: int, c: int, rules: NetRules) -> _Replay:
        """The state after move i (point p by c); a new state when KataGo starts again."""
        st = self
        if c != st.presumed:
            # KataGo's engine: a player moving twice starts the history again, ko cleared
            st = _Replay(positions, i, c, 0, rules)
        simple = rules.ko == "simple"
        if st.finished or st.past_end:
            st.valid = min(st.valid, 1)
        st.finished = False
        st.past_end = False
        spight = False
        if p != PASS:
            st.passes = 0
            st.ever[p] = True
        elif st.has_button:
            st.has_button = False
            st.button_bonus += 0.5 if c == WHITE else -0.5
            st.passes = 0
            st.pass_hashes = {BLACK: set(), WHITE: set()}
            st.ko_hashes = []
            st.cycle = {}
        else:
            if simple:
                st.cycle = {}
            h = _key(positions[i], c, rules)
            st.passes += 1
            spight = simple and h in st.pass_hashes[c]
            st.pass_hashes[c].add(h)
        after = _key(positions[i + 1], 3 - c, rules)
        if simple:
            st.cycle[after] = st.cycle.get(after, 0) + 1
        else:
            st.ko_hashes.append(after)
        st.recent.append((i, p, c))
        if len(st.recent) > 5:
            del st.recent[0]
        if not st.white_moved:
            if c == WHITE and p != PASS:
                st.white_moved = True
            else:
                st.opening.append((i, p, c))
        st.presumed = 3 - c
        st.valid += 1
        if st.passes >= 2 or spight:
            if rules.scoring == "area":
                st.finished = True
            else:
                st.past_end = True
                st.valid = min(st.valid, 1)
        if p != PASS and simple and st.cycle[after] >= 3:
            st.finished = True  # a long cycle: no result
        return st


# the side to move's part of a ko hash (as KataGo's ZOBRIST_PLAYER_HASH)
PLAYER_KEY = (0, 0x5D5A_0C6B_1E9F_3A27, -0x2B8E_61F4_07C3_D915)


def _key(pos: Position, pla: int, rules: NetRules) -> int:
    """KataGo's ko hash: the stones, and the side to move unless under positional superko."""
    h = int(pos.st[K.S_HASH])
    return h if rules.ko == "positional" else h ^ PLAYER_KEY[pla]


_CACHE: OrderedDict[tuple[int, int, tuple[str, str, bool]], tuple[Position, _Replay]] = OrderedDict()
_CACHE_SIZE = 1024
_CACHE_LOCK = threading.Lock()


def _replay(game: Game, rules: NetRules) -> _Replay:
    """The history state after the game's last move, resumed from the longest cached line."""
    positions = game.positions
    moves = game.moves
    rkey = (rules.ko, rules.scoring, rules.button)
    state = None
    k = len(moves)
    with _CACHE_LOCK:
        while k >= 0:
            hit = _CACHE.get((id(positions[k]), k, rkey))
            if hit is not None and hit[0] is positions[k]:
                _CACHE.move_to_end((id(positions[k]), k, rkey))
                state = hit[1]
                break
            k -= 1
    if state is None:
        first = positions[0]
        state = _Replay(positions, 0, first.to_move, first.ko, rules)
        k = 0
    elif k == len(moves):
        return state
    state = state.copy()
    for i in range(k, len(moves)):
        m = moves[i]
        if m.point != RESIGN:
            state = state.play(positions, i, m.point, m.color, rules)
    key = (id(positions[-1]), len(moves), rkey)
    with _CACHE_LOCK:
        _CACHE[key] = (positions[-1], state)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return state


class _History:
    """What KataGo's BoardHistory holds that the features read, for a Game."""

    def __init__(self, game: Game, rules: NetRules) -> None:
        self.rules = rules
        positions = game.positions
        self.positions = positions
        self.simple = rules.ko == "simple"
        self.situational = rules.ko == "situational"
        st = _replay(game, rules)
        self.pla = positions[-1].to_move
        if self.pla != st.presumed:
            # kata-raw-nn for the other side: the history starts again from here, ko cleared
            st = _Replay(positions, len(positions) - 1, self.pla, 0, rules)
            handicap_moves = False
        else:
            handicap_moves = True
        seq = st.recent
        self.moves = [(p, c) for _, p, c in seq]  # the last five: the history planes
        boards = [(st.start_pos, st.start_ko)] + [
            (i + 1, int(positions[i + 1].st[K.S_KO]) if p != PASS else 0) for i, p, _ in seq[-3:]
        ]
        self.boards = boards[-3:]
        self.board = positions[self.boards[-1][0]]
        self.ever = st.ever
        self.handicap = self._handicap_stones(st.start_black, st.opening, handicap_moves)
        self.valid_turns = st.valid
        self.passes = st.passes
        self.finished = st.finished
        self.past_end = st.past_end
        self.has_button = st.has_button
        self.button_bonus = st.button_bonus
        self.pass_hashes = st.pass_hashes
        self.ko_hashes = st.ko_hashes

    def _handicap_stones(
        self,
        start_black: int,
        opening: list[tuple[int, int, int]],
        moves_count: bool,
    ) -> int:
        """KataGo's computeNumHandicapStones as it stands after the last black move before
        White's first stone: the black stones of the start board (none if it has white
        ones) and, as its engine assumes, the black moves that open the game."""
        if start_black < 0 or self.rules.white_handicap_bonus == "0":
            return 0
        moves = [(p, c) for _, p, c in opening]
        last_black = max((k for k in range(len(moves)) if moves[k][1] == BLACK), default=-1)
        moves = moves[: last_black + 1] if moves_count else []
        extra = 0
        for k, (p, c) in enumerate(moves):
            if c != BLACK:
                if k + 1 < len(moves) and moves[k + 1][1] != BLACK:
                    extra = 0
                    break
                if p == PASS:
                    continue
                break
            if p != PASS:
                extra += 1
        advantage = start_black + extra
        return advantage if advantage > 1 else 0

    # --- what the features read ---

    def ko_point(self) -> int:
        """The board's ko point (0: none)."""
        return self.boards[-1][1]

    def superko_points(self) -> list[int]:
        """The points superko forbids the side to move (KataGo's superKoBanned)."""
        if self.simple or not self.moves or self.pla != 3 - self.moves[-1][1]:
            return []
        pos = self.board
        salt = PLAYER_KEY[3 - self.pla] if self.situational else 0
        seen = np.array(self.ko_hashes, dtype=np.int64)
        out = np.empty(pos.b.shape[1], dtype=np.int64)
        suicide = self.rules.suicide
        k = FK.superko_banned(
            pos.b, pos.st, K.ZOBRIST, self.pla, self.ko_point(), suicide, self.ever, seen, salt, out
        )
        return [int(x) for x in out[:k]]

    def pass_ends_phase(self) -> bool:
        """KataGo's passWouldEndPhase for the side to move."""
        return self.passes + 1 >= 2 or self.spight_pass()

    def spight_pass(self) -> bool:
        return self.simple and (self.board.hash ^ PLAYER_KEY[self.pla]) in self.pass_hashes[self.pla]

    def self_komi(self, komi: float) -> np.float32:
        """KataGo's currentSelfKomi: the komi with the territory chill, the button and the
        handicap bonus, from the side to move's view."""
        bonus = np.float32(self.button_bonus)
        if self.rules.scoring == "territory":
            pos = self.board
            colors = pos.b[K.COLOR]
            chill = (
                int(np.count_nonzero(colors == BLACK))
                - int(np.count_nonzero(colors == WHITE))
                + pos.captures(WHITE)
                - pos.captures(BLACK)
            )
            bonus = np.float32(bonus + np.float32(chill))
        whb = self.handicap
        if self.rules.white_handicap_bonus == "N-1":
            whb = whb - 1 if whb > 1 else 0
        elif self.rules.white_handicap_bonus == "0":
            whb = 0
        white = np.float32(np.float32(bonus + np.float32(whb)) + np.float32(komi))
        return white if self.pla == WHITE else np.float32(-white)


# --- the features ------------------------------------------------------------------------------


def encode(game: Game, rules: NetRules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The network inputs for the side to move: ``(spatial (22, n, n), global (19,))``, float32.

    rules default to :meth:`NetRules.from_game`; a rules' komi of None means the game's."""
    n = game.size
    spatial = np.zeros((NUM_SPATIAL, n, n), dtype=np.float32)
    glob = np.zeros(NUM_GLOBAL, dtype=np.float32)
    encode_into(game, rules, spatial, glob)
    return spatial, glob


def encode_into(game: Game, rules: NetRules | None, spatial: np.ndarray, glob: np.ndarray) -> None:
    """:func:`encode` written into spatial (22, n, n) and glob (19,) float32 arrays (a row of
    a batch); both are overwritten."""
    if rules is None:
        rules = NetRules.from_game(game)
    komi = float(rules.komi if rules.komi is not None else game.komi)
    n = game.size
    spatial[...] = 0.0
    glob[...] = 0.0
    hist = _History(game, rules)
    pla = hist.pla
    opp = 3 - pla
    pos = hist.board

    # history: hidden when a pass would end the game and KataGo's friendly-pass rule holds
    area_scoring = rules.scoring == "area"
    pass_ends = hist.pass_ends_phase()
    suppress = (
        pass_ends
        and area_scoring
        and rules.friendly_pass_ok
        and hist.passes + 1 == 2
        and not hist.spight_pass()
    )
    if suppress:
        max_turns = 0
    elif hist.finished or hist.past_end:
        max_turns = 1
    else:
        max_turns = 5
    turns = min(max_turns, hist.valid_turns)
    included = 0
    moves = hist.moves
    for k in range(turns):
        p, c = moves[len(moves) - 1 - k]
        if c != (opp if k % 2 == 0 else pla):
            break
        included = k + 1
        if p == PASS:
            glob[k] = 1.0
        else:
            r, col = divmod(p, n + 2)
            spatial[9 + k, r - 1, col - 1] = 1.0

    # the boards the ladder planes read: now, one and two moves ago
    boards = hist.boards
    cur_idx, ko = boards[-1]
    prev1_idx, ko1 = boards[-2] if included >= 1 else (cur_idx, ko)
    prev2_idx, ko2 = boards[-3] if included >= 2 else (prev1_idx, ko1)
    if rules.scoring == "area":
        area_mode = FK.AREA_PLAIN if rules.tax == "none" else FK.AREA_KEEP_STONES
    else:
        area_mode = FK.AREA_NONE
    FK.board_planes(
        pos.b[K.COLOR],
        hist.positions[prev1_idx].b[K.COLOR],
        hist.positions[prev2_idx].b[K.COLOR],
        n,
        ko,
        ko1,
        ko2,
        pla,
        area_mode,
        rules.suicide,
        spatial,
    )

    # ko and superko
    for p in ([ko] if ko else []) + hist.superko_points():
        r, col = divmod(p, n + 2)
        spatial[6, r - 1, col - 1] = 1.0

    # globals
    self_komi = hist.self_komi(komi)
    board_area = np.float32(n * n)
    self_komi = np.float32(min(max(self_komi, -board_area - KOMI_CLIP_RADIUS), board_area + KOMI_CLIP_RADIUS))
    glob[5] = np.float32(self_komi / np.float32(20.0))
    if rules.ko == "positional":
        glob[6] = 1.0
        glob[7] = 0.5
    elif rules.ko == "situational":
        glob[6] = 1.0
        glob[7] = -0.5
    if rules.suicide:
        glob[8] = 1.0
    if rules.scoring == "territory":
        glob[9] = 1.0
    if rules.tax in ("seki", "all"):
        glob[10] = 1.0
    if rules.tax == "all":
        glob[11] = 1.0
    glob[14] = 1.0 if (pass_ends and not suppress) else 0.0
    if hist.has_button:
        glob[17] = 1.0
    if area_scoring:
        glob[18] = komi_wave(self_komi, n * n)


def set_playout_doubling(glob: np.ndarray, advantage: float) -> None:
    """KataGo's playout doubling advantage features (15, 16) in a row of global inputs, in
    place: ``advantage`` is the side to move's (fillRowV7: 1 and ``0.5 * advantage``; nothing
    for 0)."""
    if advantage != 0:
        glob[15] = 1.0
        glob[16] = np.float32(0.5 * advantage)


def komi_wave(self_komi: float, board_area: int) -> np.float32:
    """KataGo's komi parity feature: a triangle wave of period 2 around the komis that can
    draw on a board of this area (even komis on an even area, odd ones on an odd area).

    In doubles: every step is exact or a single rounding of an exact value, as KataGo's
    float steps are, so the float32 result is KataGo's."""
    k = float(self_komi)
    # the drawable komi at or below k: even on an even area, odd on an odd one
    floor = math.floor(k / 2.0) * 2.0 if board_area % 2 == 0 else math.floor((k - 1.0) / 2.0) * 2.0 + 1.0
    delta = min(max(float(np.float32(k - floor)), 0.0), 2.0)
    if delta < 0.5:
        return np.float32(delta)
    if delta < 1.5:
        return np.float32(1.0 - delta)
    return np.float32(delta - 2.0)


__all__ = [
    "NUM_GLOBAL",
    "NUM_SPATIAL",
    "NetRules",
    "encode",
    "encode_into",
    "komi_wave",
    "set_playout_doubling",
]
