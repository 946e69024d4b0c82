"""Offline practice: one match against three bots, played inside the browser.

Pure Python like `cuatrola.engine` and `cuatrola.bots` (no Django, no I/O): the
browser's web worker loads them into Pyodide with the frame builder and the game
words (games/offline.py ships them), and the tests import this module in CPython
to check that both give the same moves. Frames are built by the live table's own
builder (games/frames/builder.py), so they have the live frames' shape (docs/protocol.md)
and the same renderer draws them; the table fields that come from the database
online (ids, owner, deadlines) are `None` here. Refusals are worded from the game
words the page hands over (games/words/catalogue.py, in the page's language), as the server
words its own.
"""

from __future__ import annotations

import json
import time
from typing import Any, Final

from cuatrola.bots import LEVELS, BotError, choose_action
from cuatrola.engine import RULE_SETS, EngineError, Match, NotYourTurn, seat_view
from games.frames import builder
from games.words import catalogue

#: Thinking budget per move (ms) of each level in the browser. Easy and medium
#: keep the server's; hard gets less than the server's 400 ms because
#: WebAssembly runs the search about twice as slowly, and a search stops at
#: 1.25 times its budget (docs/offline.md has the figures).
BROWSER_BUDGET_MS: Final = {"easy": 0, "medium": 50, "hard": 250}

#: The player's seat: at the bottom of the screen, partner (a bot) on top.
PLAYER_SEAT: Final = 0


def bot_seed(match_seed: int, version: int) -> int:
    """The seed of the bot move made at state `version` of the match.

    Not `hash()`: Pyodide is a 32-bit build, where hashes differ from the
    server's, and the same seeds must give the same moves on both.
    """
    return (match_seed * 1_000_003 + version) & 0x7FFFFFFF


class OfflinePractice:
    """One practice match: the player at seat 0, bots at the others.

    A past day's daily deal is replayed (unranked) by giving its seed, its dealer
    (`first_dealer`) and `last_hand=1`: the very deal the server dealt that day.
    """

    def __init__(
        self,
        *,
        rules: str,
        level: str,
        seed: int,
        budget_ms: int | None = None,
        player_name: str = "You",
        game_words: dict[str, Any] | None = None,
        first_dealer: int | None = None,
        last_hand: int | None = None,
    ) -> None:
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rule set {rules!r}")
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        # Up to 2**63: a daily deal's seed (62 bits) comes as a decimal string, which
        # JavaScript numbers (exact to 2**53) would round.
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ValueError(f"a seed is an integer from 0 to 2**63, not {seed!r}")
        if first_dealer is not None and first_dealer not in range(4):
            raise ValueError(f"the first dealer is a seat from 0 to 3, not {first_dealer!r}")
        self.rules = rules
        self.level = level
        self.seed = seed
        self.budget_ms = BROWSER_BUDGET_MS[level] if budget_ms is None else budget_ms
        self.match = Match.new(
            rules, seed=seed, first_dealer_seat=first_dealer, last_hand=last_hand
        )
        self.version = 0
        self.seq = 0
        self.actions: list[dict[str, Any]] = []
        #: The game words in the player's language (the page's), else the source texts.
        self.words = game_words if game_words is not None else catalogue.source_texts()
        #: The player's seat is named for them; the bots as online (`builder.player_names`).
        self.names = builder.player_names(
            seed=seed, people={PLAYER_SEAT: player_name}, bots=(1, 2, 3)
        )

    # ------------------------------------------------------------------ frames

    def table_info(self) -> dict[str, Any]:
        return builder.table_fields(
            id=None,
            mode="practice",
            offline=True,
            rules=self.rules,
            stake=None,
            pot=None,
            status="finished" if self.match.is_over else "playing",
            owner=None,
            bot_level=self.level,
            match=None,
            deadline=None,
            seats=[
                builder.seat_fields(
                    position=position,
                    kind="human" if position == PLAYER_SEAT else "bot",
                    name=self.names[position],
                    level=None if position == PLAYER_SEAT else self.level,
                    connected=position == PLAYER_SEAT,
                    absent=False,
                    abandoned=False,
                    reliability=None,
                    on_time=None,
                    self_named=position == PLAYER_SEAT,
                )
                for position in range(4)
            ],
        )

    def frame(
        self, kind: str = "state", events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """The player's frame, as the live table builds a seat's (games/frames/builder.py)."""
        return builder.frame(
            kind=kind,
            seq=self.seq,
            version=self.version,
            seat=PLAYER_SEAT,
            table=self.table_info(),
            view=seat_view(self.match, PLAYER_SEAT),
            shared=builder.shared_parts(self.match),
            result=builder.result_for(builder.unpaid_outcome(self.match), PLAYER_SEAT, None),
            events=events,
        )

    def refusal(self, error: EngineError) -> str:
        """The engine's refusal in the player's language, worded as the server words it."""
        return catalogue.refusal_text(self.words, error.code, error.params)

    # ------------------------------------------------------------------ moves

    def bot_to_play(self) -> bool:
        return not self.match.is_over and self.match.to_play != PLAYER_SEAT

    def _apply(self, action: str, seat: int, source: str) -> list[dict[str, Any]]:
        self.match, events = self.match.apply(action, seat=seat)
        self.version += 1
        self.seq += 1
        self.actions.append(
            {"number": self.version, "seat": seat, "action": action, "source": source}
        )
        return [event.to_dict() for event in events]

    def play(self, action: Any) -> dict[str, Any]:
        """The player's bid or card: an `update` frame, or an `error` frame (nothing changed)."""
        if not isinstance(action, str):
            return {"type": "error", "code": "malformed", "message": "an action is a string"}
        if self.match.is_over:
            return {"type": "error", "code": "match_not_live", "message": "the match is over"}
        try:
            events = self._apply(action, PLAYER_SEAT, "human")
        except NotYourTurn as error:
            return {"type": "error", "code": "not_your_turn", "message": self.refusal(error)}
        except EngineError as error:  # the engine's code and facts, as the server sends them
            return {
                "type": "error",
                "code": "illegal_action",
                "params": {"reason": error.code, **error.params},
                "message": self.refusal(error),
            }
        return self.frame("update", events)

    def bot_play(self) -> dict[str, Any]:
        """The next bot's move as an `update` frame, with how long it thought (`bot.ms`)."""
        if not self.bot_to_play():
            return {"type": "error", "code": "not_your_turn", "message": "no bot is to play"}
        seat = self.match.to_play
        assert seat is not None
        view = seat_view(self.match, seat)
        started = time.perf_counter()
        try:
            action = choose_action(
                view,
                level=self.level,
                seed=bot_seed(self.seed, self.version),
                time_budget_ms=self.budget_ms,
            )
        except BotError as error:  # never expected: the engine's view is always valid
            return {"type": "error", "code": "bot_failed", "message": str(error)}
        thought_ms = (time.perf_counter() - started) * 1000
        frame = self.frame("update", self._apply(action, seat, "bot"))
        frame["bot"] = {"seat": seat, "action": action, "ms": round(thought_ms, 2)}
        return frame

    def record(self) -> dict[str, Any]:
        """What the server would need to re-check this match: choices, seed and action log."""
        return {
            "rules": self.rules,
            "stake": None,
            "pot": None,
            "bot_level": self.level,
            "seed": self.seed,
            "actions": list(self.actions),
            "scores": list(self.match.scores),
            "winner": self.match.winner,
        }


# ---------------------------------------------------------------------- worker API
# The web worker calls these with plain values and gets JSON text back, so no
# Python object outlives a call on the JavaScript side.

_current: OfflinePractice | None = None


def _reply(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"))


def start(
    rules: str,
    level: str,
    seed: int | str,
    player_name: str | None = None,
    game_words: str | None = None,
    first_dealer: int | None = None,
    last_hand: int | None = None,
) -> str:
    """A new match. `player_name` and `game_words` (JSON text of the translated
    catalogue, games/words/translated.py) come from the page, in its language; without
    them (None, "") the player is "You" and the words are the source texts. A past
    daily deal also gives its `first_dealer` and `last_hand` (1), and its 62-bit
    seed as a decimal string (a JavaScript number would round it)."""
    global _current
    try:
        found = json.loads(game_words) if game_words else None
        if found is not None and not _is_catalogue(found):
            raise ValueError("the game words are not a catalogue of games/words/catalogue.py")
        _current = OfflinePractice(
            rules=rules,
            level=level,
            seed=int(seed),
            player_name=player_name if isinstance(player_name, str) and player_name else "You",
            game_words=found,
            first_dealer=None if first_dealer is None else int(first_dealer),
            last_hand=None if last_hand is None else int(last_hand),
        )
    except (ValueError, TypeError, EngineError) as error:
        return _reply({"type": "error", "code": "bad_choice", "message": str(error)})
    return _reply(_current.frame("state"))


def _is_catalogue(found: Any) -> bool:
    """`found` has the parts and keys `catalogue.texts` gives, every text a string."""

    def texts_like(value: Any, source: Any) -> bool:
        if isinstance(source, str):
            return isinstance(value, str)
        return (
            isinstance(value, dict)
            and set(value) == set(source)
            and all(texts_like(value[key], source[key]) for key in source)
        )

    return texts_like(found, catalogue.source_texts())


def play(action: str) -> str:
    if _current is None:
        return _reply({"type": "error", "code": "match_not_live", "message": "no match"})
    return _reply(_current.play(action))


def bot_play() -> str:
    if _current is None:
        return _reply({"type": "error", "code": "match_not_live", "message": "no match"})
    return _reply(_current.bot_play())


def record() -> str:
    if _current is None:
        return _reply({"type": "error", "code": "match_not_live", "message": "no match"})
    return _reply(_current.record())
