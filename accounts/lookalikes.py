"""Look-alike usernames: Unicode TR39 confusable skeletons and single-script names.

Two names that a reader cannot tell apart ("admin" and "аdmin" with a Cyrillic а,
"ａｄｍｉｎ" in full width, "spd7csib" and "ѕрd7csib", "Admin" and "admin") have
the same `username_key`: the name NFKC-normalised, case-folded, then reduced to its
TR39 skeleton (every character replaced by its confusable prototype, between two
NFD passes), folded and reduced once more.

A name must also be written in one script (TR39's "single script": characters of
Common and Inherited, such as digits, "_" and ".", go with any script; Han goes
with Hiragana and Katakana as Japanese, with Hangul as Korean and with Bopomofo).

The data are Unicode's own files, vendored in accounts/unicode/ (README there).
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "unicode"

# TR39 augmented script sets: a script stands for the writing systems it is part of.
_AUGMENTED = {
    "Han": {"Han", "Japanese", "Korean", "Han with Bopomofo"},
    "Hiragana": {"Hiragana", "Japanese"},
    "Katakana": {"Katakana", "Japanese"},
    "Hangul": {"Hangul", "Korean"},
    "Bopomofo": {"Bopomofo", "Han with Bopomofo"},
}
_ANY_SCRIPT = {"Common", "Inherited"}


def _data_lines(name: str) -> Iterator[list[str]]:
    with open(DATA / name, encoding="utf-8-sig") as source:
        for line in source:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


@cache
def _prototypes() -> dict[str, str]:
    return {
        chr(int(fields[0], 16)): "".join(chr(int(cp, 16)) for cp in fields[1].split())
        for fields in _data_lines("confusables.txt")
    }


@cache
def _script_ranges() -> tuple[list[int], list[int], list[str]]:
    ranges = []
    for codes, script in _data_lines("Scripts.txt"):
        first, _, last = codes.partition("..")
        ranges.append((int(first, 16), int(last or first, 16), script))
    ranges.sort()
    return [r[0] for r in ranges], [r[1] for r in ranges], [r[2] for r in ranges]


def script_of(character: str) -> str:
    starts, ends, scripts = _script_ranges()
    index = bisect.bisect_right(starts, ord(character)) - 1
    if index >= 0 and ord(character) <= ends[index]:
        return scripts[index].replace("_", " ")
    return "Unknown"


def skeleton(text: str) -> str:
    """TR39 skeleton(X): NFD, each character to its prototype, NFD again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(c, c) for c in decomposed))


def normalize_username(name: str) -> str:
    """The form a username is stored in: NFKC (full-width letters become ASCII)."""
    return unicodedata.normalize("NFKC", name)


def username_key(name: str) -> str:
    """Equal for two names a reader could mistake for each other (any letter case)."""
    # Folded again after the skeleton: a prototype may be a capital ("0" becomes "O").
    return skeleton(skeleton(normalize_username(name).casefold()).casefold())


def scripts_in(name: str) -> set[str]:
    """The scripts of a name's letters (Common and Inherited characters left out)."""
    return {script_of(c) for c in normalize_username(name)} - _ANY_SCRIPT


def is_single_script(name: str) -> bool:
    """True when every letter of the name belongs to one writing system."""
    sets = [_AUGMENTED.get(script, {script}) for script in scripts_in(name)]
    return not sets or bool(set.intersection(*sets))
