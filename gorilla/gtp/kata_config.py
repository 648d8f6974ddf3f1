"""KataGo's config files and the settings of Gorilla's analysis engine read from them.

A config is KataGo's: ``key = value`` lines, ``#`` starting a comment, ``@include FILE``
(relative to the including file); ``-override-config k1=v1,k2=v2`` replaces values. The
keys Gorilla's analysis engine uses (:data:`SEARCH_KEYS`, :data:`ENGINE_KEYS`) are read with
KataGo's ranges; the others (``nnCacheSizePowerOfTwo``, ``logDir``, ...) are returned to be
noted once on stderr. A query's ``overrideSettings`` go through the same table
(:func:`apply_settings`); a key Gorilla does not use there is a warning, as KataGo's.

:class:`Settings` holds what one search is run with: its limits (``maxVisits``,
``maxPlayouts``, ``maxTime``), the perspective of the answers
(``reportAnalysisWinratesAs``), KataGo's ``wideRootNoise``, ``playoutDoublingAdvantage``
and ``ignorePreRootHistory`` (their analysis defaults 0.04, 0, true), ``nnRandomize`` (false:
the net's symmetry 0 for every position, else one at random), the search threads,
and the search's constants by their KataGo names (``cpuctExploration``,
``staticScoreUtilityFactor``, ``lcbStdevs``, ...: :data:`PARAMS`), which keep Gorilla's own
values (:class:`gorilla.ai.puct.search.SearchParams`) unless given.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

from gorilla.ai.puct.search import SearchParams

DEFAULT_MAX_VISITS = 500  # analysis_example.cfg's (KataGo's own default is unbounded)
MAX_VISITS = 1 << 50
PERSPECTIVES = ("BLACK", "WHITE", "SIDETOMOVE")


class ConfigError(ValueError):
    """A config that cannot be used; str() is one line."""


def read_config(path: str | Path, seen: tuple[Path, ...] = ()) -> dict[str, str]:
    """The key = value pairs of a KataGo config file (its includes read in place)."""
    p = Path(path)
    if p.resolve() in seen:
        raise ConfigError(f"{p}: includes itself")
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise ConfigError(f"cannot read config {p}: {e.strerror or e}") from None
    out: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("@include"):
            name = line[len("@include") :].strip().strip('"')
            out.update(read_config(p.parent / name, (*seen, p.resolve())))
            continue
        key, eq, value = line.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"{p}:{n}: could not parse line: {raw.strip()}")
        key = key.strip()
        if key in out:
            raise ConfigError(f"{p}:{n}: key {key} was specified multiple times")
        out[key] = value.strip().strip('"')
    return out


def parse_overrides(text: str) -> dict[str, str]:
    """``-override-config k1=v1,k2=v2`` as pairs."""
    out: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"could not parse -override-config entry: {part.strip()}")
        out[key.strip()] = value.strip()
    return out


# KataGo's name -> (SearchParams field, low, high); the booleans that switch a refinement off below
PARAMS: dict[str, tuple[str, float, float]] = {
    "cpuctExploration": ("c_puct", 0.0, 10.0),
    "cpuctExplorationLog": ("c_puct_log", 0.0, 10.0),
    "cpuctExplorationBase": ("c_puct_base", 10.0, 100000.0),
    "fpuReductionMax": ("fpu", 0.0, 2.0),
    "rootFpuReductionMax": ("root_fpu", 0.0, 2.0),
    "staticScoreUtilityFactor": ("static_score", 0.0, 1.0),
    "dynamicScoreUtilityFactor": ("dynamic_score", 0.0, 1.0),
    "dynamicScoreCenterZeroWeight": ("centre_zero", 0.0, 1.0),
    "valueWeightExponent": ("value_weight", 0.0, 1.0),
    "noisePruneUtilityScale": ("noise_prune", 0.001, 10.0),
    "subtreeValueBiasFactor": ("subtree_bias", 0.0, 1.0),
    "lcbStdevs": ("lcb", 1.0, 12.0),
    "minVisitPropForLCB": ("lcb_min_prop", 0.0, 1.0),
    "cpuctUtilityStdevScale": ("stdev_scale", 0.0, 1.0),
    "cpuctUtilityStdevPrior": ("stdev_prior", 1e-8, 10.0),
    "cpuctUtilityStdevPriorWeight": ("stdev_prior_weight", 0.0, 100.0),
    "fpuParentWeightByVisitedPolicyPow": ("fpu_pow", 0.0, 5.0),
    "wideRootNoise": ("wide_root_noise", 0.0, 5.0),
}
SWITCHES = {"useNoisePruning": "noise_prune", "useLcbForSelection": "lcb"}  # false: the field 0
SEARCH_KEYS = (
    *PARAMS,
    *SWITCHES,
    "maxVisits",
    "maxPlayouts",
    "maxTime",
    "reportAnalysisWinratesAs",
    "playoutDoublingAdvantage",
    "ignorePreRootHistory",
    "nnRandomize",
    "numSearchThreads",
    "numSearchThreadsPerAnalysisThread",
)
ENGINE_KEYS = (
    "numAnalysisThreads",
    "analysisPVLen",
    "warnUnusedFields",
    "nnRandSeed",
    "nnCacheSizePowerOfTwo",
)


@dataclass(frozen=True)
class Settings:
    """What one search runs with (module docstring)."""

    max_visits: int = DEFAULT_MAX_VISITS
    max_time: float | None = None
    perspective: str = "SIDETOMOVE"
    pda: float = 0.0
    ignore_pre_root_history: bool = True
    threads: int = 1
    symmetry: int | None = None  # KataGo's nnRandomize false: the net's symmetry 0 always
    params: SearchParams = field(default_factory=lambda: SearchParams(wide_root_noise=0.04))


def _number(key: str, value: str, low: float, high: float) -> float:
    try:
        x = float(value)
    except ValueError:
        raise ConfigError(f"could not parse '{value}' as a number for key '{key}'") from None
    if not math.isfinite(x) or not low <= x <= high:
        raise ConfigError(f"value '{value}' for key '{key}' is outside [{low:g}, {high:g}]")
    return x


def _int(key: str, value: str, low: int, high: int) -> int:
    x = _number(key, value, low, high)
    if x != int(x):
        raise ConfigError(f"could not parse '{value}' as an integer for key '{key}'")
    return int(x)


def _bool(key: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("true", "1", "yes", "t", "y"):
        return True
    if v in ("false", "0", "no", "f", "n"):
        return False
    raise ConfigError(f"could not parse '{value}' as bool for key '{key}'")


def apply_settings(base: Settings, pairs: dict[str, str]) -> tuple[Settings, list[str]]:
    """base with the pairs that are search settings applied; the keys it does not use.

    ConfigError for a value out of KataGo's range (the settings then are not used at all)."""
    s = base
    params: dict[str, float] = {}
    unused = []
    for key, value in pairs.items():
        if key in PARAMS:
            name, low, high = PARAMS[key]
            params[name] = _number(key, value, low, high)
        elif key in SWITCHES:
            if not _bool(key, value):
                params[SWITCHES[key]] = 0.0
        elif key in ("maxVisits", "maxPlayouts"):
            s = replace(s, max_visits=_int(key, value, 1, MAX_VISITS))
        elif key == "maxTime":
            t = _number(key, value, 0.0, 1e20)
            s = replace(s, max_time=t if t < 1e20 else None)
        elif key == "reportAnalysisWinratesAs":
            if value not in PERSPECTIVES:
                raise ConfigError(f"key '{key}' must be one of {', '.join(PERSPECTIVES)} but was '{value}'")
            s = replace(s, perspective=value)
        elif key == "playoutDoublingAdvantage":
            s = replace(s, pda=_number(key, value, -3.0, 3.0))
        elif key == "ignorePreRootHistory":
            s = replace(s, ignore_pre_root_history=_bool(key, value))
        elif key == "nnRandomize":
            s = replace(s, symmetry=None if _bool(key, value) else 0)
        elif key in ("numSearchThreads", "numSearchThreadsPerAnalysisThread"):
            s = replace(s, threads=_int(key, value, 1, 4096))
        else:
            unused.append(key)
    if params:
        s = replace(s, params=replace(s.params, **params))
    return s, unused


@dataclass(frozen=True)
class EngineConfig:
    """The engine's own settings from the config: threads, PV length, warnings, the seed."""

    analysis_threads: int = 1
    pv_len: int = 15
    warn_unused_fields: bool = True
    seed: int | None = None
    cache_size: int = 1 << 13  # evaluations kept (nnCacheSizePowerOfTwo, at most 2**14: about 6 kB each)
    settings: Settings = field(default_factory=Settings)
    ignored: tuple[str, ...] = ()  # the config's keys Gorilla does not use


def engine_config(pairs: dict[str, str]) -> EngineConfig:
    """The engine's config from a config file's pairs (overrides applied); ConfigError if bad."""
    settings, rest = apply_settings(Settings(), pairs)
    cfg = EngineConfig(settings=settings)
    ignored = []
    for key in rest:
        value = pairs[key]
        if key == "numAnalysisThreads":
            cfg = replace(cfg, analysis_threads=_int(key, value, 1, 16384))
        elif key == "analysisPVLen":
            cfg = replace(cfg, pv_len=_int(key, value, 1, 100))
        elif key == "warnUnusedFields":
            cfg = replace(cfg, warn_unused_fields=_bool(key, value))
        elif key == "nnCacheSizePowerOfTwo":
            cfg = replace(cfg, cache_size=1 << min(14, _int(key, value, 0, 48)))
        elif key == "nnRandSeed":
            cfg = replace(cfg, seed=zlib.crc32(value.encode()))
        else:
            ignored.append(key)
    return replace(cfg, ignored=tuple(ignored))
