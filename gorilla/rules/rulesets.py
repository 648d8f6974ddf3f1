"""Rulesets as data: each is a small frozen dataclass, looked up by name."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Ruleset:
    """How a game is played and counted.

    scoring: ``area`` (stones + surrounded empty points, Tromp-Taylor
    counting), ``territory`` (surrounded empty points + prisoners, dead stones
    removed) or ``stones`` (Little-Go's "partial area": stones on the board).
    """

    name: str
    scoring: str
    komi: float
    superko: bool
    suicide: bool
    default_size: int = 19
    move_cap: bool = False  # game ends after size*size - 1 moves
    sgf_name: str = ""

    def with_komi(self, komi: float) -> Ruleset:
        """The same ruleset with another komi."""
        return replace(self, komi=komi)


CHINESE = Ruleset("chinese", "area", 7.5, superko=True, suicide=False, sgf_name="Chinese")
JAPANESE = Ruleset("japanese", "territory", 6.5, superko=False, suicide=False, sgf_name="Japanese")
TROMP_TAYLOR = Ruleset("tromp-taylor", "area", 7.5, superko=True, suicide=True, sgf_name="Tromp-Taylor")
LITTLE_GO = Ruleset(
    "little-go",
    "stones",
    2.5,
    superko=False,
    suicide=False,
    default_size=5,
    move_cap=True,
    sgf_name="Little-Go",
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (CHINESE, JAPANESE, TROMP_TAYLOR, LITTLE_GO)}

_ALIASES = {
    "cn": "chinese",
    "jp": "japanese",
    "tt": "tromp-taylor",
    "trompt-taylor": "tromp-taylor",
    "littlego": "little-go",
}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called name (case-insensitive; also SGF RU values)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    if key not in RULESETS:
        raise ValueError(f"unknown rules '{name}' (known: {', '.join(RULESETS)})")
    return RULESETS[key]
