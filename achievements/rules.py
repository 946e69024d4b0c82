"""The achievements as pure rules over a player's facts (no Django, no rows).

Each rule reads a player's settled matches in the order they finished (`MatchFacts`)
and the events of the apps above games (`EventFacts`: daily deals, league weeks,
tournaments), and answers the moment it was first earned, or None. The answer depends
on history alone, so the live path (after each settlement) and the recompute command
reach the same achievements with the same dates (docs/achievements.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from cuatrola.engine import EngineError
from cuatrola.engine import Match as EngineMatch

WON = "won"


@dataclass(frozen=True)
class MatchFacts:
    """One settled match of the player (history's line, and what the engine record
    tells beyond it)."""

    match_id: int
    finished_at: datetime
    day: date
    mode: str
    rules: str
    outcome: str
    own_score: int = 0
    other_score: int = 0
    partner_id: int | None = None
    hands: int = 0
    bids: int = 0
    solo_made: int = 0
    cuatrola_made: int = 0
    quintola_made: int = 0
    broken: int = 0
    declared_40: int = 0
    # From the engine record (False for a match stored without its hands).
    capote: bool = False
    cuatrola_last_trick: bool = False
    comeback: bool = False
    quintola_match_point: bool = False
    cuatrola_and_quintola: bool = False

    @property
    def won(self) -> bool:
        return self.outcome == WON


@dataclass(frozen=True)
class EventFacts:
    """Moments of the player's results outside a single match."""

    daily_top_tenth: tuple[datetime, ...] = ()
    daily_first: tuple[datetime, ...] = ()
    league_promotions: tuple[datetime, ...] = ()
    league_diamond: tuple[datetime, ...] = ()
    tournament_wins: tuple[datetime, ...] = ()
    tournament_podiums: tuple[datetime, ...] = ()


@dataclass(frozen=True)
class Earned:
    at: datetime
    match_id: int | None = None


Rule = Callable[[Sequence[MatchFacts], EventFacts], Earned | None]


@dataclass(frozen=True)
class Achievement:
    code: str
    rule: Rule
    rare: bool = False
    rules_set: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class MatchRule:
    """A rule over the settled matches, read as a fold: a small JSON-ready state
    (`start`), moved on by each match in the order they finished (`step`, which also
    says whether this match earns it). Called with the whole history it answers the
    moment of the first match that earns it (the recompute); `fold` below keeps the
    state between matches (the live path), so both reach the same answer."""

    def start(self) -> Any:
        raise NotImplementedError

    def step(self, state: Any, match: MatchFacts) -> tuple[Any, bool]:
        raise NotImplementedError

    def __call__(self, matches: Sequence[MatchFacts], events: EventFacts) -> Earned | None:
        state = self.start()
        for match in matches:
            state, done = self.step(state, match)
            if done:
                return Earned(match.finished_at, match.match_id)
        return None


# The rules' classes are named as they read in ACHIEVEMENTS: count(10, ...), streak(5, ...).
class count(MatchRule):
    """The match at which the running total of `test` reaches `n`."""

    def __init__(self, n: int, test: Callable[[MatchFacts], int | bool]) -> None:
        self.n, self.test = n, test

    def start(self) -> int:
        return 0

    def step(self, state: int, match: MatchFacts) -> tuple[int, bool]:
        total = state + int(self.test(match))
        return total, total >= self.n


class streak(MatchRule):
    """`n` matches in a row passing `test`."""

    def __init__(self, n: int, test: Callable[[MatchFacts], bool]) -> None:
        self.n, self.test = n, test

    def start(self) -> int:
        return 0

    def step(self, state: int, match: MatchFacts) -> tuple[int, bool]:
        run = state + 1 if self.test(match) else 0
        return run, run >= self.n


class partner_streak(MatchRule):
    """`n` wins in a row with the same (human) partner, counting only the matches
    played with that partner. State: {partner id (text): current run}."""

    def __init__(self, n: int) -> None:
        self.n = n

    def start(self) -> dict[str, int]:
        return {}

    def step(self, state: dict[str, int], match: MatchFacts) -> tuple[dict[str, int], bool]:
        if match.partner_id is None:
            return state, False
        key = str(match.partner_id)
        state = {**state, key: state.get(key, 0) + 1 if match.won else 0}
        return state, state[key] >= self.n


class partners(MatchRule):
    """Wins with `n` different partners. State: the partners' ids, sorted."""

    def __init__(self, n: int) -> None:
        self.n = n

    def start(self) -> list[int]:
        return []

    def step(self, state: list[int], match: MatchFacts) -> tuple[list[int], bool]:
        if match.won and match.partner_id is not None and match.partner_id not in state:
            state = sorted([*state, match.partner_id])
        return state, len(state) >= self.n


class every_day(MatchRule):
    """A settled match on each of `n` consecutive days. State: [run, last day]."""

    def __init__(self, n: int) -> None:
        self.n = n

    def start(self) -> list[Any]:
        return [0, None]

    def step(self, state: list[Any], match: MatchFacts) -> tuple[list[Any], bool]:
        run, last_text = state
        last = date.fromisoformat(last_text) if last_text else None
        if last is not None and match.day == last:
            return state, False
        run = run + 1 if last is not None and match.day == last + timedelta(days=1) else 1
        return [run, match.day.isoformat()], run >= self.n


class BothRuleSets(MatchRule):
    """A match won in each rule set. State: the rule sets won in, sorted."""

    def start(self) -> list[str]:
        return []

    def step(self, state: list[str], match: MatchFacts) -> tuple[list[str], bool]:
        if match.won and match.rules not in state:
            state = sorted([*state, match.rules])
        return state, len(state) >= 2


both_rule_sets = BothRuleSets()


def event(name: str) -> Rule:
    def rule(matches: Sequence[MatchFacts], events: EventFacts) -> Earned | None:
        moments = getattr(events, name)
        return Earned(min(moments)) if moments else None

    return rule


def _stake_won(m: MatchFacts) -> bool:
    return m.mode == "stake" and m.won


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", count(1, lambda m: m.won)),
    Achievement("wins_50", count(50, lambda m: m.won)),
    Achievement("wins_250", count(250, lambda m: m.won)),
    Achievement("matches_10", count(10, lambda m: True)),
    Achievement("matches_100", count(100, lambda m: True)),
    Achievement("matches_500", count(500, lambda m: True)),
    Achievement("streak_5", streak(5, lambda m: m.won)),
    Achievement("streak_10", streak(10, lambda m: m.won)),
    Achievement("quintola_made", count(1, lambda m: m.quintola_made)),
    Achievement("quintolas_5", count(5, lambda m: m.quintola_made)),
    Achievement("cuatrola_made", count(1, lambda m: m.cuatrola_made)),
    Achievement("cuatrola_last_trick", count(1, lambda m: m.cuatrola_last_trick)),
    Achievement("capote", count(1, lambda m: m.capote)),
    Achievement("solos_25", count(25, lambda m: m.solo_made)),
    Achievement("bids_100", count(100, lambda m: m.bids)),
    Achievement("breaker_10", count(10, lambda m: m.broken)),
    Achievement("forty", count(1, lambda m: m.declared_40)),
    Achievement("comeback", count(1, lambda m: m.won and m.comeback)),
    Achievement("shutout", count(1, lambda m: m.won and m.other_score == 0 and m.own_score > 0)),
    Achievement("marathon", count(1, lambda m: m.hands >= 15)),
    Achievement("partner_streak_5", partner_streak(5)),
    Achievement("partners_10", partners(10)),
    Achievement("every_day_7", every_day(7)),
    Achievement("both_rule_sets", both_rule_sets),
    Achievement("stake_pot", count(1, _stake_won)),
    Achievement("stake_pots_10", count(10, _stake_won)),
    Achievement("daily_top_tenth", event("daily_top_tenth")),
    Achievement("daily_first", event("daily_first")),
    Achievement("league_promotion", event("league_promotions")),
    Achievement("league_diamond", event("league_diamond")),
    Achievement("tournament_won", event("tournament_wins")),
    Achievement("tournament_podium", event("tournament_podiums")),
    Achievement(
        "online_quintola_finish",
        count(1, lambda m: m.rules == "online" and m.won and m.quintola_match_point),
        rare=True,
        rules_set="online",
    ),
    Achievement(
        "classic_double",
        count(1, lambda m: m.rules == "classic" and m.cuatrola_and_quintola),
        rare=True,
        rules_set="classic",
    ),
)

CODES: tuple[str, ...] = tuple(a.code for a in ACHIEVEMENTS)
BY_CODE: dict[str, Achievement] = {a.code: a for a in ACHIEVEMENTS}


#: The achievements read from the settled matches (a fold each), and the others,
#: read from the results outside a match (EventFacts).
MATCH_ACHIEVEMENTS: tuple[Achievement, ...] = tuple(
    a for a in ACHIEVEMENTS if isinstance(a.rule, MatchRule)
)
EVENT_ACHIEVEMENTS: tuple[Achievement, ...] = tuple(
    a for a in ACHIEVEMENTS if not isinstance(a.rule, MatchRule)
)


def earned(matches: Sequence[MatchFacts], events: EventFacts) -> dict[str, Earned]:
    """Every achievement the facts hold, with the moment it was first earned."""
    found = {}
    for achievement in ACHIEVEMENTS:
        moment = achievement.rule(matches, events)
        if moment is not None:
            found[achievement.code] = moment
    return found


def earned_from_events(events: EventFacts) -> dict[str, Earned]:
    """The achievements of the results outside a match only."""
    found = {}
    for achievement in EVENT_ACHIEVEMENTS:
        moment = achievement.rule((), events)
        if moment is not None:
            found[achievement.code] = moment
    return found


# --- the incremental reading (docs/achievements.md, "Cost") -------------------------


def fold(progress: dict[str, Any] | None, matches: Sequence[MatchFacts]) -> dict[str, Any]:
    """A player's progress after `matches` (settled after those already folded into
    `progress`, in the order they finished; None: from nothing). JSON-ready:
    {"found": {code: [moment (ISO), match id]}, "state": {code: the rule's state}}; an
    achievement found is no longer followed. Folding the history in any number of
    pieces, stored as JSON between them, reaches what the rules reach over the whole
    history at once (tests/achievements/test_rules.py)."""
    found: dict[str, Any] = dict((progress or {}).get("found") or {})
    state: dict[str, Any] = dict((progress or {}).get("state") or {})
    for match in matches:
        for achievement in MATCH_ACHIEVEMENTS:
            code = achievement.code
            if code in found:
                continue
            rule = achievement.rule
            assert isinstance(rule, MatchRule)
            now, done = rule.step(state[code] if code in state else rule.start(), match)
            if done:
                found[code] = [match.finished_at.isoformat(), match.match_id]
                state.pop(code, None)
            else:
                state[code] = now
    return {"found": found, "state": state}


def found_in(progress: dict[str, Any] | None) -> dict[str, Earned]:
    """The achievements a progress (of `fold`) holds, with their moments."""
    return {
        code: Earned(datetime.fromisoformat(moment), match_id)
        for code, (moment, match_id) in ((progress or {}).get("found") or {}).items()
    }


def record_facts(record: dict[str, Any], position: int) -> dict[str, bool]:
    """What an engine record (docs/engine.md) tells of one seat beyond history's
    figures: a capote (the seat's pair took all five tricks of a pass hand), a
    cuatrola made on the last trick (the seat declared it and the outcome was decided
    only by the fifth trick), a comeback (the pair trailed by half the target or
    more), the match won by a quintola made as its last hand, and a cuatrola and a
    quintola both made by the seat in one match."""
    facts = {
        "capote": False,
        "cuatrola_last_trick": False,
        "comeback": False,
        "quintola_match_point": False,
        "cuatrola_and_quintola": False,
    }
    if not record or not record.get("hands"):
        return facts
    try:
        engine = EngineMatch.from_dict(record)
    except (EngineError, KeyError, TypeError):
        # A record the engine cannot replay tells nothing more (history's figures
        # still count): one bad record never holds the other matches back.
        return facts
    pair = position % 2
    target = engine.rules.target
    made: set[str] = set()
    last_result = None
    for hand in engine.hands:
        scores = hand.scores
        if scores[1 - pair] - scores[pair] >= (target + 1) // 2:
            facts["comeback"] = True
        result = hand.result
        if result is None:
            continue
        last_result = result
        tricks = result.tricks_per_seat
        if (
            result.kind == "pass"
            and result.tricks_played == 5
            and tricks[pair] + tricks[pair + 2] == 5
        ):
            facts["capote"] = True
        if result.kind == "contract" and result.made and result.declarer == position:
            made.add(result.contract or "")
            if result.contract == "cuatrola" and result.tricks_played == 5:
                facts["cuatrola_last_trick"] = True
    if (
        last_result is not None
        and last_result.contract == "quintola"
        and last_result.made
        and last_result.declarer is not None
        and last_result.declarer % 2 == pair
    ):
        facts["quintola_match_point"] = True
    facts["cuatrola_and_quintola"] = {"cuatrola", "quintola"} <= made
    facts["comeback"] = facts["comeback"] and engine.winner == pair
    return facts
