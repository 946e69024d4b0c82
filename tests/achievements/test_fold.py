"""The incremental reading (achievements.rules.fold) reaches what the rules reach over
the whole history at once, over random histories cut into random pieces stored as
JSON between them; and both equal the rules as they were written before the fold
(a reference copied below), so the fold changed no achievement."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from achievements.rules import (
    ACHIEVEMENTS,
    MATCH_ACHIEVEMENTS,
    Earned,
    EventFacts,
    MatchFacts,
    earned,
    fold,
    found_in,
)

START = datetime(2026, 11, 2, 9, tzinfo=UTC)


# --- the rules as written before the fold (the reference) ------------------------------


def _nth(matches, n, test):
    total = 0
    for match in matches:
        total += test(match)
        if total >= n:
            return Earned(match.finished_at, match.match_id)
    return None


def _streak(matches, n, test):
    run = 0
    for match in matches:
        run = run + 1 if test(match) else 0
        if run >= n:
            return Earned(match.finished_at, match.match_id)
    return None


def _partner_streak(matches, n):
    runs: dict[int, int] = {}
    for match in matches:
        if match.partner_id is None:
            continue
        runs[match.partner_id] = runs.get(match.partner_id, 0) + 1 if match.won else 0
        if runs[match.partner_id] >= n:
            return Earned(match.finished_at, match.match_id)
    return None


def _partners(matches, n):
    seen: set[int] = set()
    for match in matches:
        if match.won and match.partner_id is not None:
            seen.add(match.partner_id)
            if len(seen) >= n:
                return Earned(match.finished_at, match.match_id)
    return None


def _every_day(matches, n):
    run, last = 0, None
    for match in matches:
        if last is not None and match.day == last:
            continue
        run = run + 1 if last is not None and match.day == last + timedelta(days=1) else 1
        last = match.day
        if run >= n:
            return Earned(match.finished_at, match.match_id)
    return None


def _both(matches):
    seen: set[str] = set()
    for match in matches:
        if match.won:
            seen.add(match.rules)
            if len(seen) >= 2:
                return Earned(match.finished_at, match.match_id)
    return None


def _stake(m):
    return m.mode == "stake" and m.won


REFERENCE = {
    "first_win": lambda ms: _nth(ms, 1, lambda m: m.won),
    "wins_50": lambda ms: _nth(ms, 50, lambda m: m.won),
    "wins_250": lambda ms: _nth(ms, 250, lambda m: m.won),
    "matches_10": lambda ms: _nth(ms, 10, lambda m: True),
    "matches_100": lambda ms: _nth(ms, 100, lambda m: True),
    "matches_500": lambda ms: _nth(ms, 500, lambda m: True),
    "streak_5": lambda ms: _streak(ms, 5, lambda m: m.won),
    "streak_10": lambda ms: _streak(ms, 10, lambda m: m.won),
    "quintola_made": lambda ms: _nth(ms, 1, lambda m: m.quintola_made),
    "quintolas_5": lambda ms: _nth(ms, 5, lambda m: m.quintola_made),
    "cuatrola_made": lambda ms: _nth(ms, 1, lambda m: m.cuatrola_made),
    "cuatrola_last_trick": lambda ms: _nth(ms, 1, lambda m: m.cuatrola_last_trick),
    "capote": lambda ms: _nth(ms, 1, lambda m: m.capote),
    "solos_25": lambda ms: _nth(ms, 25, lambda m: m.solo_made),
    "bids_100": lambda ms: _nth(ms, 100, lambda m: m.bids),
    "breaker_10": lambda ms: _nth(ms, 10, lambda m: m.broken),
    "forty": lambda ms: _nth(ms, 1, lambda m: m.declared_40),
    "comeback": lambda ms: _nth(ms, 1, lambda m: m.won and m.comeback),
    "shutout": lambda ms: _nth(ms, 1, lambda m: m.won and m.other_score == 0 and m.own_score > 0),
    "marathon": lambda ms: _nth(ms, 1, lambda m: m.hands >= 15),
    "partner_streak_5": lambda ms: _partner_streak(ms, 5),
    "partners_10": lambda ms: _partners(ms, 10),
    "every_day_7": lambda ms: _every_day(ms, 7),
    "both_rule_sets": _both,
    "stake_pot": lambda ms: _nth(ms, 1, _stake),
    "stake_pots_10": lambda ms: _nth(ms, 10, _stake),
    "online_quintola_finish": lambda ms: _nth(
        ms, 1, lambda m: m.rules == "online" and m.won and m.quintola_match_point
    ),
    "classic_double": lambda ms: _nth(
        ms, 1, lambda m: m.rules == "classic" and m.cuatrola_and_quintola
    ),
}


def reference(matches: Sequence[MatchFacts]) -> dict[str, Earned]:
    found = {code: rule(matches) for code, rule in REFERENCE.items()}
    return {code: moment for code, moment in found.items() if moment is not None}


# --- random histories -------------------------------------------------------------------

small = st.integers(min_value=0, max_value=3)
match_steps = st.fixed_dictionaries(
    {
        "gap": st.sampled_from([timedelta(minutes=20), timedelta(hours=5), timedelta(days=1)]),
        "outcome": st.sampled_from(["won", "won", "lost", "abandoned"]),
        "mode": st.sampled_from(["online", "stake", "practice"]),
        "rules": st.sampled_from(["online", "classic"]),
        "partner_id": st.one_of(st.none(), st.integers(min_value=1, max_value=14)),
        "own_score": st.integers(min_value=0, max_value=21),
        "other_score": st.sampled_from([0, 5, 21]),
        "hands": st.integers(min_value=1, max_value=18),
        "bids": small,
        "solo_made": small,
        "cuatrola_made": st.integers(min_value=0, max_value=1),
        "quintola_made": st.integers(min_value=0, max_value=1),
        "broken": small,
        "declared_40": st.integers(min_value=0, max_value=1),
        "capote": st.booleans(),
        "cuatrola_last_trick": st.booleans(),
        "comeback": st.booleans(),
        "quintola_match_point": st.booleans(),
        "cuatrola_and_quintola": st.booleans(),
    }
)


def history(steps) -> list[MatchFacts]:
    moment, matches = START, []
    for index, step in enumerate(steps):
        moment += step.pop("gap")
        matches.append(
            MatchFacts(match_id=index + 1, finished_at=moment, day=moment.date(), **step)
        )
    return matches


@settings(max_examples=150, deadline=None)
@given(st.lists(match_steps, max_size=140), st.lists(st.integers(min_value=0, max_value=140)))
def test_folding_in_pieces_stored_as_json_equals_the_whole_history(steps, cuts):
    matches = history(steps)
    whole = earned(matches, EventFacts())
    progress = None
    start = 0
    for cut in [*sorted({min(c, len(matches)) for c in cuts}), len(matches)]:
        progress = json.loads(json.dumps(fold(progress, matches[start:cut])))
        start = cut
    assert found_in(progress) == whole == reference(matches)


def test_every_rule_read_from_matches_is_folded_and_the_reference_covers_them():
    assert {a.code for a in MATCH_ACHIEVEMENTS} == set(REFERENCE)
    assert len(MATCH_ACHIEVEMENTS) + 6 == len(ACHIEVEMENTS)  # six read from events


def test_a_long_history_folds_one_match_at_a_time_like_at_once():
    matches = history(
        [
            {
                "gap": timedelta(hours=13),
                "outcome": "won" if i % 7 else "lost",
                "mode": "stake" if i % 3 == 0 else "online",
                "rules": "classic" if i % 11 == 0 else "online",
                "partner_id": i % 12 + 1,
                "own_score": 21,
                "other_score": 0 if i % 17 == 0 else 9,
                "hands": 8 + i % 9,
                "bids": 1,
                "solo_made": i % 2,
                "cuatrola_made": 0,
                "quintola_made": int(i % 50 == 0),
                "broken": i % 2,
                "declared_40": 0,
                "capote": False,
                "cuatrola_last_trick": False,
                "comeback": False,
                "quintola_match_point": False,
                "cuatrola_and_quintola": False,
            }
            for i in range(600)
        ]
    )
    progress = None
    for match in matches:
        progress = json.loads(json.dumps(fold(progress, [match])))
    assert found_in(progress) == reference(matches)
    assert {"matches_500", "wins_250", "every_day_7", "both_rule_sets"} <= set(found_in(progress))
    # Once found, an achievement is no longer followed: the state stays small.
    assert len(json.dumps(progress)) < 3000
    assert date.fromisoformat(progress["found"]["every_day_7"][0][:10]) >= START.date()
