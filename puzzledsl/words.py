"""Counts in English: `count(5, "press")` is "5 presses", `count(1, "press")` "1 press".

The nouns counted are ours ("solution", "puzzle", "cell") or a rule file's action names
(`action press(...)`, `action jump(...)`), which are English verbs used as nouns; the regular
rules below get those right. A library (inflect) knows every irregular noun too, but takes
~1.7 s to import, for nouns we never print; see BENCHMARKS.md, "Hand-written parts replaced".
"""

from __future__ import annotations

_SIBILANT = ("s", "x", "z", "ch", "sh")
_IRREGULAR = {"child": "children", "foot": "feet", "man": "men", "mouse": "mice", "person": "people",
              "tooth": "teeth", "woman": "women"}


def plural(noun: str) -> str:
    """The regular English plural: press -> presses, copy -> copies, day -> days, jump -> jumps."""
    lower = noun.lower()
    if lower in _IRREGULAR:
        return noun[0] + _IRREGULAR[lower][1:]
    if lower.endswith(_SIBILANT):
        return noun + "es"
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def count(n: int, noun: str, many: str | None = None) -> str:
    """`n noun`, the noun in the plural unless n is 1 (`many` overrides the plural form)."""
    return f"{n} {noun if n == 1 else many or plural(noun)}"
