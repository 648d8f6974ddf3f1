"""Synthesise Gorilla's sounds into assets/sounds/ (16-bit mono WAV, 22 050 Hz).

Every sound is made here from sine waves and seeded noise, so the files have a
known origin and can be rebuilt: ``python assets/make_sounds.py``. The output is
deterministic (same bytes on every run).
"""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "assets" / "sounds"


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def stone(variant: int) -> np.ndarray:
    """A stone on a wooden board: a sharp click and a few damped wood resonances."""
    rng = np.random.default_rng(100 + variant)
    t = _t(0.16)
    click = rng.standard_normal(t.size) * np.exp(-t * 900)
    body = np.zeros_like(t)
    base = (520.0, 610.0, 470.0, 560.0)[variant % 4]
    for k, (mult, amp, decay) in enumerate(((1.0, 0.6, 45), (2.31, 0.35, 70), (3.9, 0.2, 110))):
        phase = rng.uniform(0, 2 * np.pi)
        body += amp * np.sin(2 * np.pi * base * mult * (1 + 0.01 * k) * t + phase) * np.exp(-t * decay)
    return 0.55 * click + body


def capture() -> np.ndarray:
    """Stones taken off the board: a short rattle of small clicks."""
    rng = np.random.default_rng(7)
    t = _t(0.35)
    out = np.zeros_like(t)
    for start in (0.0, 0.05, 0.11, 0.16, 0.24):
        i = int(start * RATE)
        n = t.size - i
        tt = t[:n]
        f = rng.uniform(1500, 2600)
        out[i:] += (0.5 * rng.standard_normal(n) * np.exp(-tt * 600) + np.sin(2 * np.pi * f * tt)) * np.exp(
            -tt * 60
        )
    return out


def pass_() -> np.ndarray:
    """A pass: two soft descending tones."""
    t = _t(0.18)
    a = np.sin(2 * np.pi * 660 * t) * np.exp(-t * 18)
    b = np.sin(2 * np.pi * 495 * t) * np.exp(-t * 18)
    return 0.5 * np.concatenate([a, b])


def illegal() -> np.ndarray:
    """An illegal move: a short low buzz."""
    t = _t(0.22)
    saw = 2 * ((110 * t) % 1.0) - 1
    return 0.45 * saw * np.minimum(1.0, t * 200) * np.exp(-t * 8)


def game_end() -> np.ndarray:
    """The end of a game: a rising major arpeggio that rings out."""
    parts = []
    for f in (523.25, 659.25, 783.99):
        t = _t(0.16)
        parts.append(np.sin(2 * np.pi * f * t) * np.exp(-t * 6))
    t = _t(0.7)
    chord = sum(np.sin(2 * np.pi * f * t) for f in (523.25, 659.25, 783.99, 1046.5)) / 4 * np.exp(-t * 4)
    return 0.6 * np.concatenate([*parts, chord])


def countdown(last: bool = False) -> np.ndarray:
    """A byo-yomi count: a short beep, higher for the last seconds."""
    t = _t(0.12)
    f = 1320.0 if last else 880.0
    return 0.5 * np.sin(2 * np.pi * f * t) * np.minimum(1.0, t * 400) * np.exp(-t * 25)


SOUNDS = {
    **{f"stone{i}": (lambda i=i: stone(i)) for i in range(4)},
    "capture": capture,
    "pass": pass_,
    "illegal": illegal,
    "game_end": game_end,
    "countdown": countdown,
    "countdown_last": lambda: countdown(True),
}


def write_wav(path: Path, samples: np.ndarray) -> None:
    """Normalise to 90% of full scale and write 16-bit mono PCM."""
    peak = float(np.max(np.abs(samples))) or 1.0
    pcm = np.round(samples / peak * 0.9 * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())


def main(out: Path = OUT) -> int:
    """Write every sound into out."""
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        write_wav(out / f"{name}.wav", make())
    print(f"wrote {len(SOUNDS)} sounds to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
