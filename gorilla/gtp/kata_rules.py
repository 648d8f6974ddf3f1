"""KataGo's rules: its names, its short form and its JSON (``cpp/game/rules.cpp``), and the GTP
commands ``kata-get-rules``, ``kata-set-rules``, ``kata-set-rule`` and ``kgs-rules``.

:func:`parse_rules` reads what KataGo's ``Rules::parseRules`` reads, with its defaults and its
error messages:

- a name (any case): ``chinese`` (simple ko!), ``chinese-ogs`` / ``chinese-kgs`` (positional
  superko), ``japanese``, ``korean``, ``tromp-taylor``, ``aga`` / ``bga`` / ``french``,
  ``aga-button``, ``new-zealand`` / ``nz``, ``goe`` / ``ing``, ``stone-scoring`` /
  ``ancient-area``, ``ancient-territory`` (``-``, ``_``, a space or nothing between the words);
- the JSON of ``kata-get-rules``: ``{"ko":"SIMPLE","scoring":"AREA","tax":"NONE",
  "suicide":false,"hasButton":false,"whiteHandicapBonus":"N","friendlyPassOk":true}``
  (missing keys: Tromp-Taylor's; ``komi`` where a komi is allowed);
- the short form that KataGo writes in its logs, e.g. ``koPOSITIONALscoreAREAtaxNONEsui0``
  (``ko``, ``score`` or ``scoring``, ``tax``, ``sui``, ``button``, ``whb``, ``fpok``, ``komi``).

A tax left unsaid is SEKI under territory scoring, else NONE; a komi left unsaid is 7.5, 6.5
under territory scoring and 7 with the button.

:class:`KataRules` goes two ways: :meth:`KataRules.net_rules` (what the net is told, as KataGo's
``getSupportedRules`` leaves it for a net of model version 7 and later: Spight's ko becomes
situational, a button under territory scoring goes) and :meth:`KataRules.ruleset` (Gorilla's
rules engine for the moves: simple ko or positional superko, the suicide rule, the counting).
Gorilla's rules engine knows no situational superko: it enforces positional superko there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace

from gorilla.ai.net.inputs import NetRules
from gorilla.rules.rulesets import CHINESE, JAPANESE, Ruleset

KO = ("SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT")
SCORING = ("AREA", "TERRITORY")
TAX = ("NONE", "SEKI", "ALL")
WHB = ("0", "N", "N-1")
MIN_KOMI, MAX_KOMI = -400.0, 400.0  # KataGo's MIN_USER_KOMI, MAX_USER_KOMI
FLAGS = {"suicide": "suicide", "hasButton": "button", "friendlyPassOk": "fpok"}  # JSON key -> field


class RulesError(ValueError):
    """Rules KataGo would not parse; str() is KataGo's message."""


@dataclass(frozen=True)
class KataRules:
    """KataGo's ``Rules``: ko, scoring, tax, multi-stone suicide, button, White's handicap
    bonus, friendly pass, komi. The default is KataGo's (Tromp-Taylor's)."""

    ko: str = "POSITIONAL"
    scoring: str = "AREA"
    tax: str = "NONE"
    suicide: bool = True
    button: bool = False
    whb: str = "0"
    fpok: bool = False
    komi: float = 7.5

    def short(self, with_komi: bool = True) -> str:
        """KataGo's ``toString`` (``koSIMPLEscoreAREAtaxNONEsui0whbNfpok1komi7.5``)."""
        text = f"ko{self.ko}score{self.scoring}tax{self.tax}sui{int(self.suicide)}"
        if self.button:
            text += "button1"
        if self.whb != "0":
            text += f"whb{self.whb}"
        if self.fpok:
            text += "fpok1"
        return text + (f"komi{self.komi:g}" if with_komi else "")

    def as_json(self, with_komi: bool = False) -> dict:
        """KataGo's ``toJson`` (``toJsonNoKomi`` without the komi)."""
        out: dict = {
            "friendlyPassOk": self.fpok,
            "hasButton": self.button,
            "ko": self.ko,
            "scoring": self.scoring,
            "suicide": self.suicide,
            "tax": self.tax,
            "whiteHandicapBonus": self.whb,
        }
        if with_komi:
            out["komi"] = float(self.komi)
        return out

    def json_text(self, with_komi: bool = False) -> str:
        """The JSON as KataGo writes it: keys sorted, no spaces (``kata-get-rules``)."""
        return json.dumps(self.as_json(with_komi), sort_keys=True, separators=(",", ":"))

    def nice(self) -> str:
        """KataGo's ``toStringNoKomiMaybeNice``: a name where the rules are one, else the short form."""
        for name, label in NICE:
            if _same_but_komi(self, parse_rules(name, allow_komi=False)):
                return label
        return self.short(with_komi=False)

    def net_rules(self) -> tuple[NetRules, str | None]:
        """The rules the net is told (komi None: the game's) and, where they differ from these,
        KataGo's warning: ``Rules ... not supported by neural net, using ... instead``."""
        supported = self
        if self.ko == "SPIGHT":
            supported = replace(supported, ko="SITUATIONAL")
        if supported.button and supported.scoring != "AREA":
            supported = replace(supported, button=False)
        rules = NetRules(
            ko=supported.ko.lower(),
            scoring=supported.scoring.lower(),
            tax=supported.tax.lower(),
            suicide=supported.suicide,
            button=supported.button,
            komi=None,
            white_handicap_bonus=supported.whb,
            friendly_pass_ok=supported.fpok,
        )
        if supported == self:
            return rules, None
        return rules, f"Rules {self.short()} not supported by neural net, using {supported.short()} instead"

    def ruleset(self) -> Ruleset:
        """Gorilla's ruleset that plays the moves under these rules (see the module docstring)."""
        base = CHINESE if self.scoring == "AREA" else JAPANESE
        name = self.nice().lower()
        return replace(
            base, name=name, superko=self.ko != "SIMPLE", suicide=self.suicide, sgf_name=self.nice()
        )


def _same_but_komi(a: KataRules, b: KataRules) -> bool:
    return replace(a, komi=0.0) == replace(b, komi=0.0)


def _words(*names: str) -> tuple[str, ...]:
    """A name's spellings: joined, and with '-', '_' or ' ' between its words."""
    out = []
    for n in names:
        parts = n.split()
        out += ["".join(parts), "-".join(parts), "_".join(parts), " ".join(parts)]
    return tuple(dict.fromkeys(out))


_R = KataRules
# (spellings, rules) as rules.cpp's parseRulesHelper; komi its default for the name
_NAMED: list[tuple[tuple[str, ...], KataRules]] = [
    (("japanese", "korean"), _R("SIMPLE", "TERRITORY", "SEKI", False, False, "0", False, 6.5)),
    (("chinese",), _R("SIMPLE", "AREA", "NONE", False, False, "N", True, 7.5)),
    (_words("chinese ogs", "chinese kgs"), _R("POSITIONAL", "AREA", "NONE", False, False, "N", True, 7.5)),
    (_words("ancient area", "stone scoring"), _R("SIMPLE", "AREA", "ALL", False, False, "0", True, 7.5)),
    (_words("ancient territory"), _R("SIMPLE", "TERRITORY", "ALL", False, False, "0", False, 6.5)),
    (_words("aga button"), _R("SITUATIONAL", "AREA", "NONE", False, True, "N-1", True, 7.0)),
    (("aga", "bga", "french"), _R("SITUATIONAL", "AREA", "NONE", False, False, "N-1", True, 7.5)),
    (("nz", *_words("new zealand")), _R("SITUATIONAL", "AREA", "NONE", True, False, "0", True, 7.0)),
    (_words("tromp taylor"), _R("POSITIONAL", "AREA", "NONE", True, False, "0", False, 7.5)),
    (("goe", "ing"), _R("POSITIONAL", "AREA", "NONE", True, False, "0", True, 7.5)),
]
NAMES: dict[str, KataRules] = {spelling: rules for spellings, rules in _NAMED for spelling in spellings}
NICE = (
    ("tromptaylor", "TrompTaylor"),
    ("japanese", "Japanese"),
    ("chinese", "Chinese"),
    ("chinese-ogs", "Chinese-OGS"),
    ("aga", "AGA"),
    ("stonescoring", "StoneScoring"),
    ("newzealand", "NewZealand"),
)


def parse_rules(text: str, allow_komi: bool = True) -> KataRules:
    """KataGo's rules from a name, JSON or the short form (module docstring); RulesError
    with KataGo's message when it cannot be read."""
    key = text.strip().lower()
    if key in NAMES:
        return NAMES[key]
    if text[:1] == "{":
        return _defaults(*_parse_json(text, allow_komi))
    return _defaults(*_parse_short(text, allow_komi))


def _defaults(rules: KataRules, tax_given: bool, komi_given: bool) -> KataRules:
    """KataGo's defaults for what the JSON or short form left unsaid: the tax and the komi."""
    if not tax_given:
        rules = replace(rules, tax="SEKI" if rules.scoring == "TERRITORY" else "NONE")
    if not komi_given:
        if rules.scoring == "TERRITORY":
            rules = replace(rules, komi=6.5)
        elif rules.button:
            rules = replace(rules, komi=7.0)
    return rules


def _choice(value: object, known: tuple[str, ...], what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(what)
    if value not in known:
        raise RulesError(f"Rules::parse{what}Rule: Invalid {what[0].lower() + what[1:]} rule: {value}")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("bool")
    return value


def _parse_json(text: str, allow_komi: bool) -> tuple[KataRules, bool, bool]:
    fields: dict = {}
    tax_given = komi_given = False
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("object")
        for key, value in data.items():
            if key == "ko":
                fields["ko"] = _choice(value, KO, "Ko")
            elif key in ("score", "scoring"):
                fields["scoring"] = _choice(value, SCORING, "Scoring")
            elif key == "tax":
                fields["tax"], tax_given = _choice(value, TAX, "Tax"), True
            elif key in FLAGS:
                fields[FLAGS[key]] = _bool(value)
            elif key == "whiteHandicapBonus":
                fields["whb"] = _choice(value, WHB, "WhiteHandicapBonus")
            elif key == "komi" and allow_komi:
                fields["komi"], komi_given = _komi(value), True
            else:
                raise RulesError(f"Unknown rules option: {key}")
    except (ValueError, TypeError) as e:
        if isinstance(e, RulesError):
            raise
        raise RulesError(f"Could not parse rules: {text}") from None
    return KataRules(**fields), tax_given, komi_given


def _komi(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("komi")
    komi = float(value)
    if not (MIN_KOMI <= komi <= MAX_KOMI) or komi * 2 != int(komi * 2):
        raise RulesError("Komi value is not a half-integer or is too extreme")
    return komi


# the short form's keys: (prefix, field, {word: value}) in the order rules.cpp tries them
_SHORT = (
    ("ko", "ko", {k: k for k in KO}),
    ("scoring", "scoring", {s: s for s in SCORING}),
    ("score", "scoring", {s: s for s in SCORING}),
    ("tax", "tax", {t: t for t in TAX}),
    ("sui", "suicide", {"1": True, "0": False}),
    ("button", "button", {"1": True, "0": False}),
    ("whb", "whb", {"0": "0", "N-1": "N-1", "N": "N"}),
    ("fpok", "fpok", {"1": True, "0": False}),
)


def _parse_short(text: str, allow_komi: bool) -> tuple[KataRules, bool, bool]:
    fail = RulesError(f"Could not parse rules: {text}")
    s = text.strip()
    if not s:
        raise fail
    fields: dict = {}
    tax_given = komi_given = False
    while s:
        if s.startswith("komi"):
            if not allow_komi:
                raise fail
            s = s[4:].strip()
            end = 0
            while end < len(s) and not s[end].isalpha() and not s[end].isspace():
                end += 1
            try:
                komi = float(s[:end])
            except ValueError:
                raise fail from None
            if not math.isfinite(komi) or abs(komi) > 1e5:
                raise fail
            fields["komi"], komi_given = komi, True
            s = s[end:].strip()
            continue
        for prefix, field, words in _SHORT:
            if s.startswith(prefix):
                s = s[len(prefix) :].strip()
                word = next((w for w in words if s.startswith(w)), None)
                if word is None:
                    raise fail
                fields[field] = words[word]
                tax_given = tax_given or field == "tax"
                s = s[len(word) :].strip()
                break
        else:
            raise fail
    return KataRules(**fields), tax_given, komi_given


def update_rule(rules: KataRules, key: str, value: str) -> KataRules:
    """KataGo's ``Rules::updateRules``: one field set (``kata-set-rule ko SIMPLE``)."""
    k, v = key.strip(), value.strip().upper()
    if k == "ko":
        return replace(rules, ko=_choice(v, KO, "Ko"))
    if k in ("score", "scoring"):
        return replace(rules, scoring=_choice(v, SCORING, "Scoring"))
    if k == "tax":
        return replace(rules, tax=_choice(v, TAX, "Tax"))
    if k == "whiteHandicapBonus":
        return replace(rules, whb=_choice(v, WHB, "WhiteHandicapBonus"))
    if k in FLAGS:
        if v not in ("TRUE", "FALSE", "1", "0"):
            raise RulesError(f"Could not parse '{value}' as bool")
        return replace(rules, **{FLAGS[k]: v in ("TRUE", "1")})
    raise RulesError(f"Unknown rules option: {k}")


def from_net_rules(rules: NetRules, komi: float) -> KataRules:
    """The KataGo rules that a NetRules stands for (``kata-get-rules`` of a game set up otherwise)."""
    return KataRules(
        ko=rules.ko.upper(),
        scoring=rules.scoring.upper(),
        tax=rules.tax.upper(),
        suicide=rules.suicide,
        button=rules.button,
        whb=rules.white_handicap_bonus,
        fpok=rules.friendly_pass_ok,
        komi=komi,
    )
