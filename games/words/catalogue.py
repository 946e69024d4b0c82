"""Every game word, defined once: bids (and so contracts), suits, ranks and their
corner marks, card names and the refusals, keyed by the engine's codes (bid words,
suit letters, rank numbers, `EngineError.code`). The engine itself names nothing: its
codes are the keys here.

Pure Python like `cuatrola.engine` (no Django): offline practice ships it to the
browser with the engine (games/offline.py). Here each word is its English source
text, marked for makemessages (`N_`, `NC_` with a context: the project's
makemessages command, cuatrola_site/management/commands/makemessages.py, knows
both). `games.words.translated.game_words()` translates the whole catalogue into the
reader's language as one JSON-ready dict, and every reader takes its words from
that dict:

- the server (errors, the board, card and bid labels: games/words/translated.py);
- the JavaScript (the table renderer, static/js/table-view.js, receives it as
  `words` in games/frames/renderer_texts.py);
- offline practice's worker (games/frames/offline_practice.py, in Pyodide), which the
  page hands the same dict, so its refusals read exactly as the server's.

In the translated dict a placeholder is `{name}` (`fill`, here and in
table-view.js); the source texts keep gettext's `%(name)s`, as translators know it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, NamedTuple


class Word(NamedTuple):
    """A source text and its gettext context (None: none)."""

    text: str
    context: str | None = None


def N_(text: str) -> Word:
    """Marks `text` for makemessages; translated when the catalogue is read."""
    return Word(text)


def NC_(context: str, text: str) -> Word:
    """Marks `text`, in `context`, for makemessages."""
    return Word(text, context)


#: The bid words of the engine (cuatrola/engine/rules.py `BIDS`, in its order); a contract
#: is named by the bid that won it.
BID_WORDS: Final[dict[str, Word]] = {
    "pass": N_("Pass"),
    "solo": N_("Solo"),
    "cuatrola": N_("Cuatrola"),
    "quintola": N_("Quintola"),
}

#: Suits by the engine's letter.
SUIT_WORDS: Final[dict[str, Word]] = {
    "o": NC_("suit", "coins"),
    "c": NC_("suit", "cups"),
    "e": NC_("suit", "swords"),
    "b": NC_("suit", "clubs"),
}

#: Ranks by the number of the card code.
RANK_WORDS: Final[dict[str, Word]] = {
    "1": NC_("rank", "ace"),
    "3": NC_("rank", "three"),
    "12": NC_("rank", "king"),
    "11": NC_("rank", "knight"),
    "10": NC_("rank", "jack"),
}

#: The mark of a rank in a card's corner, where the table draws a card without the
#: deck's drawings (the Spanish deck's own letters, each language its own).
RANK_MARKS: Final[dict[str, Word]] = {
    "1": NC_("rank mark", "A"),
    "3": NC_("rank mark", "3"),
    "12": NC_("rank mark", "K"),
    "11": NC_("rank mark", "Kn"),
    "10": NC_("rank mark", "J"),
}

#: A card's name, one pattern per suit so a language can elide or inflect
#: ("roi d'épées", "금화 잭").
CARD_WORDS: Final[dict[str, Word]] = {
    "o": NC_("card name", "%(rank)s of coins"),
    "c": NC_("card name", "%(rank)s of cups"),
    "e": NC_("card name", "%(rank)s of swords"),
    "b": NC_("card name", "%(rank)s of clubs"),
}

_PHASE: Final = N_("That cannot be played at this point of the hand.")

#: What a player is told when the engine refuses a move or a card, by the engine's
#: code (cuatrola/engine/errors.py): the websocket's error frames, the board's and the
#: renderer's reasons on a card that cannot be played, offline practice's refusals.
#: `%(suit)s` is the suit of the refusal's `suit` param.
REFUSAL_WORDS: Final[dict[str, Word]] = {
    "malformed_action": N_("That is not a card or a bid."),
    "wrong_phase": _PHASE,
    "bidding_over": _PHASE,
    "bidding_not_over": N_("Bidding is not over"),
    "hand_over": _PHASE,
    "match_over": _PHASE,
    "not_your_turn": N_("It is not your turn."),
    "card_not_held": N_("You do not hold that card."),
    "bid_too_low": N_("A bid must be higher than the highest bid so far."),
    "bid_over_cap": N_("That bid would take your pair past the match target."),
    "must_follow": N_("You must follow suit (%(suit)s)"),
    "must_overtake": N_("You must beat the winning card if you can"),
    "must_trump": N_("You must play a trump (%(suit)s)"),
    "must_overtrump": N_("You must overtrump if you can"),
}

#: Any other refusal (codes a player's move cannot meet: a bad deal, record or rule set).
REFUSAL_DEFAULT: Final = N_("That move is not allowed.")

#: Engine codes that never answer a player's move (they have REFUSAL_DEFAULT).
INTERNAL_CODES: Final = frozenset(
    {"engine_error", "unknown_rule_set", "invalid_deal", "view_not_allowed", "invalid_record"}
)

_PERCENT_NAME = re.compile(r"%\((\w+)\)s")
_BRACE_NAME = re.compile(r"\{(\w+)\}")


def texts(translate: Any) -> dict[str, Any]:
    """The whole catalogue as a JSON-ready dict, each text passed through
    `translate(word) -> str` (games.words.translated gives Django's gettext), with `{name}`
    placeholders."""

    def each(words: Mapping[str, Word]) -> dict[str, str]:
        return {key: _PERCENT_NAME.sub(r"{\1}", translate(word)) for key, word in words.items()}

    return {
        "bids": each(BID_WORDS),
        "suits": each(SUIT_WORDS),
        "ranks": each(RANK_WORDS),
        "rank_marks": each(RANK_MARKS),
        "card_names": each(CARD_WORDS),
        "refusals": each(REFUSAL_WORDS),
        "refusal_default": _PERCENT_NAME.sub(r"{\1}", translate(REFUSAL_DEFAULT)),
    }


def source_texts() -> dict[str, Any]:
    """The catalogue in its source language (English), with nothing translated."""
    return texts(lambda word: word.text)


def fill(template: str, values: Mapping[str, Any]) -> str:
    """`{name}` replaced by `values[name]` (unknown names are left as they are), as
    the table renderer's `fill` does."""
    return _BRACE_NAME.sub(
        lambda found: str(values[found[1]]) if found[1] in values else found[0], template
    )


def bid_text(words: Mapping[str, Any], word: str) -> str:
    """A bid (or contract) word; an unknown word passes through."""
    return str(words["bids"].get(word, word))


def suit_text(words: Mapping[str, Any], letter: str) -> str:
    return str(words["suits"][letter])


def card_text(words: Mapping[str, Any], code: str) -> str:
    """``card_text(words, "12e")``: "rey de espadas", "king of swords"…"""
    return fill(words["card_names"][code[-1]], {"rank": words["ranks"][code[:-1]]})


def refusal_text(words: Mapping[str, Any], code: str, params: Mapping[str, Any]) -> str:
    """An engine refusal (its code and params) in the catalogue's language."""
    template = words["refusals"].get(code)
    if template is None:
        return str(words["refusal_default"])
    suit = params.get("suit")
    return fill(template, {"suit": suit_text(words, suit) if suit else ""})
