"""The rules engine: board kernels, positions, rulesets, game record, scoring, SGF."""

from gorilla.rules.board import BLACK, EMPTY, PASS, RESIGN, WHITE
from gorilla.rules.game import Game, GameInfo, Move, fixed_handicap_points
from gorilla.rules.position import IllegalMove, Position, opponent, parse_color
from gorilla.rules.rulesets import RULESETS, Ruleset, get_ruleset
from gorilla.rules.scoring import Score, score

__all__ = [
    "BLACK",
    "EMPTY",
    "PASS",
    "RESIGN",
    "WHITE",
    "Game",
    "GameInfo",
    "Move",
    "fixed_handicap_points",
    "IllegalMove",
    "Position",
    "opponent",
    "parse_color",
    "RULESETS",
    "Ruleset",
    "get_ruleset",
    "Score",
    "score",
]
