"""The nightly collusion screen and the staff's decisions on flagged pairs
(docs/fairplay.md). The only writers of fair play's rows.

`screen_run` is the nightly run (the Celery task and `manage.py fairplay_screen`
call it). It is bounded whatever the site's size: the candidate pairs come from one
aggregation over the window; the costly analysis of lucky guesses takes at most
`pair_matches` matches of a pair and `night_matches` in all (and stops early past
`seconds`), and a match analysed once is stored and never analysed again; the other
evidence costs a few queries per thousand pairs. Run twice, it adds no flag twice:
a pair's flag is its row, whose evidence the later run updates.

Nothing here bans anyone or moves any coin: staff read the evidence and decide
(`flag_decide`), and that decision is logged in the admin log.
"""

from __future__ import annotations

import logging
import math
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from coach import selectors as coach_selectors
from cuatrola.bots import BotError
from cuatrola.engine import EngineError
from economy import selectors as economy_selectors
from fairplay import errors
from fairplay.lucky import MatchScreen, Thresholds, screen_match
from fairplay.models import (
    BaselineBand,
    CloseDecision,
    FlagMatch,
    FlagReason,
    FlagRole,
    FlagStatus,
    PairFlag,
    ScreenedMatch,
    ScreenPurpose,
    ScreenRun,
)
from fairplay.stats import binomial_z, coins_between
from games import selectors as games_selectors
from games.models import ActionSource, GameHand, Match, MatchAction, MatchSeat, MatchStatus, Mode
from games.modes import mode_policy
from history import selectors as history_selectors
from history.selectors import PairTogether, SharedMatch
from ratings import selectors as ratings_selectors
from ratings.skill import BOT_SKILLS, NEW, Skill, shown, win_chance

logger = logging.getLogger(__name__)

REVIEW_PERMISSION = "fairplay.review_pairflag"


@dataclass(frozen=True)
class Limits:
    """How much one run looks at and analyses (the FAIRPLAY_* settings by default)."""

    window_days: int
    min_together: int
    pair_matches: int
    night_matches: int
    baseline_matches: int
    seconds: float
    samples: int

    @classmethod
    def from_settings(cls, **overrides: Any) -> Limits:
        values = {
            "window_days": settings.FAIRPLAY_WINDOW_DAYS,
            "min_together": settings.FAIRPLAY_MIN_TOGETHER,
            "pair_matches": settings.FAIRPLAY_PAIR_MATCHES_PER_NIGHT,
            "night_matches": settings.FAIRPLAY_MATCHES_PER_NIGHT,
            "baseline_matches": settings.FAIRPLAY_BASELINE_MATCHES_PER_NIGHT,
            "seconds": settings.FAIRPLAY_NIGHT_SECONDS,
            "samples": settings.FAIRPLAY_SAMPLES,
        }
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def thresholds() -> Thresholds:
    return Thresholds(
        near_equal=settings.FAIRPLAY_NEAR_EQUAL,
        apart_points=settings.FAIRPLAY_APART_POINTS,
        apart_tricks=settings.FAIRPLAY_APART_TRICKS,
    )


def screened_modes() -> list[str]:
    """The modes whose matches are screened: the rated ones (online, stake), which are
    also the ones that award league points."""
    return [mode for mode in Mode.values if mode_policy(mode).rated]


def band_of(rating: int) -> int:
    """The lower bound of the rating band `rating` falls in."""
    width = settings.FAIRPLAY_BAND_WIDTH
    return (rating // width) * width


# --- one match ---------------------------------------------------------------------


def match_screen(
    *,
    match_id: int,
    purpose: str = ScreenPurpose.PAIR,
    samples: int | None = None,
    now: datetime | None = None,
) -> ScreenedMatch | None:
    """Analyse a finished match's close decisions once and store them; None when it
    was screened before (it is never analysed again) or is not a finished match.

    Only the people's own cards count: a seat a bot held, and a card a bot or the
    clock played for an absent player, are left out. A match the engine or the
    searches refuse is stored with the reason, and not tried again.
    """
    if ScreenedMatch.objects.filter(match_id=match_id).exists():
        return None
    found = games_selectors.finished_match(match_id)
    if found is None:
        return None
    started = time.process_time()
    people = {seat.position: seat.user_id for seat in found.seats if seat.user_id is not None}
    own = set(
        MatchAction.objects.filter(match_id=match_id, source=ActionSource.PLAYER).values_list(
            "number", flat=True
        )
    )
    judged = coach_selectors.match_coaching(match_id).decisions
    knowledge = {number: decision.values for number, decision in judged.items()}
    error = ""
    result = MatchScreen()
    if not found.record.get("hands"):
        error = "no deal stored"
    else:
        try:
            result = screen_match(
                found.record,
                screened=lambda number, seat: seat in people and number in own,
                thresholds=thresholds(),
                samples=settings.FAIRPLAY_SAMPLES if samples is None else samples,
                knowledge=knowledge,
            )
        except (BotError, EngineError) as refused:
            logger.warning("fair play: match %s not screened: %s", match_id, refused)
            error = str(refused)[:300]
    bands = _bands(match_id, list(people.values()))
    with transaction.atomic():
        screened, created = ScreenedMatch.objects.get_or_create(
            match_id=match_id,
            defaults={
                "purpose": purpose,
                "screened_at": now or timezone.now(),
                "decisions": result.decisions,
                "judged": result.judged,
                "close": len(result.calls),
                "seconds": round(time.process_time() - started, 3),
                "error": error,
            },
        )
        if not created:
            return None  # another run stored it meanwhile: the same analysis
        CloseDecision.objects.bulk_create(
            [
                CloseDecision(
                    match_id=match_id,
                    number=call.number,
                    hand_no=call.hand_no,
                    seat=call.seat,
                    user_id=people[call.seat],
                    band=bands[people[call.seat]],
                    baseline=purpose == ScreenPurpose.BASELINE,
                    chosen=call.chosen,
                    near={card: list(values) for card, values in call.near.items()},
                    unit=call.unit,
                    hit=call.hit,
                )
                for call in result.calls
            ]
        )
    return screened


def _bands(match_id: int, user_ids: list[int]) -> dict[int, int]:
    """Each person's rating band when they played the match (their rating before it;
    their rating now when the match changed no rating)."""
    before = ratings_selectors.skills_before([match_id])
    now = ratings_selectors.skills_now([u for u in user_ids if (match_id, u) not in before])
    return {
        user_id: band_of(shown((before.get((match_id, user_id)) or now[user_id]).mu))
        for user_id in user_ids
    }


# --- the nightly run -------------------------------------------------------------------


@dataclass
class _Pair:
    together: PairTogether
    matches: list[SharedMatch]
    played_a: int
    played_b: int

    @property
    def key(self) -> tuple[int, int]:
        return (self.together.a, self.together.b)

    @property
    def partner_ids(self) -> list[int]:
        return [m.match_id for m in self.matches if m.partners]


def screen_run(
    *, now: datetime | None = None, limits: Limits | None = None, log: Any = None
) -> ScreenRun:
    """The nightly screen over the window that ends at `now` (docs/fairplay.md).

    1. Candidate pairs: people who sat together (partners or opponents) at
       `min_together` or more rated matches in the window.
    2. Lucky guesses: `baseline_matches` sampled from the window's other matches for
       the baseline by rating band (refreshed after), then the candidates' matches as
       partners not screened yet, at most `pair_matches` a pair (the pairs with the
       least analysed first) and `night_matches` in all.
    3. Each candidate's evidence (lucky guesses, coins moved at stake tables, results
       against their ratings, share of their matches together): a flag for a pair
       past a threshold, the evidence of a flagged pair updated.
    """
    limits = limits or Limits.from_settings()
    started = timezone.now()
    clock = time.monotonic()
    now = now or started
    since = now - timedelta(days=limits.window_days)
    modes = screened_modes()
    run = ScreenRun.objects.create(started_at=started, until=now)

    def say(message: str) -> None:
        if log is not None:
            log(f"{message} ({time.monotonic() - clock:.1f} s)")

    candidates = history_selectors.pairs_together(
        since=since, until=now, modes=modes, minimum=limits.min_together
    )
    say(f"{len(candidates)} candidate pairs")
    shared = history_selectors.shared_matches(
        pairs=[(p.a, p.b) for p in candidates], since=since, until=now, modes=modes
    )
    played = history_selectors.matches_played(
        user_ids={u for p in candidates for u in (p.a, p.b)}, since=since, until=now, modes=modes
    )
    pairs = [
        _Pair(p, shared.get((p.a, p.b), []), played.get(p.a, 0), played.get(p.b, 0))
        for p in candidates
    ]
    deadline = clock + limits.seconds
    # The baseline first (a few matches): without it no lucky guess is scored.
    baseline = 0
    for match_id in _baseline_sample(pairs, since, now, modes, limits.baseline_matches):
        if time.monotonic() > deadline:
            break
        screened = match_screen(
            match_id=match_id, purpose=ScreenPurpose.BASELINE, samples=limits.samples, now=now
        )
        baseline += screened is not None
    say(f"{baseline} baseline matches screened")
    done = 0
    for match_id in _pair_matches_to_screen(pairs, limits):
        if time.monotonic() > deadline:
            break
        if match_screen(match_id=match_id, samples=limits.samples, now=now) is not None:
            done += 1
    say(f"{done} pairs' matches screened")
    baseline_refresh(now=now)
    new, updated = _flags_update(pairs, limits, now)
    say(f"{new} pairs flagged, {updated} flags updated")
    run.finished_at = timezone.now()
    run.candidates = len(pairs)
    run.pair_matches = done
    run.baseline_matches = baseline
    run.flags_new = new
    run.flags_updated = updated
    run.seconds = round(time.monotonic() - clock, 3)
    run.save()
    return run


def _pair_matches_to_screen(pairs: list[_Pair], limits: Limits) -> list[int]:
    """The matches to analyse tonight: each pair's newest matches as partners not
    screened yet, at most `pair_matches` a pair and `night_matches` in all; the pairs
    with the fewest matches analysed go first, so every candidate gets its turn."""
    partner_ids = {match_id for pair in pairs for match_id in pair.partner_ids}
    screened = _screened_among(partner_ids)
    queue = sorted(
        pairs,
        key=lambda p: (
            sum(m in screened for m in p.partner_ids),
            -p.together.together,
            p.key,
        ),
    )
    chosen: list[int] = []
    taken: set[int] = set()
    for pair in queue:
        mine = [m for m in pair.partner_ids if m not in screened]
        # A match another pair of the same table took tonight counts for this one too.
        got = sum(m in taken for m in mine)
        for match_id in mine:
            if got >= limits.pair_matches:
                break
            if match_id in taken:
                continue
            if len(chosen) >= limits.night_matches:
                return chosen
            chosen.append(match_id)
            taken.add(match_id)
            got += 1
    return chosen


def _screened_among(match_ids: Iterable[int]) -> set[int]:
    ids = sorted(set(match_ids))
    found: set[int] = set()
    for start in range(0, len(ids), 5000):
        found.update(
            ScreenedMatch.objects.filter(match_id__in=ids[start : start + 5000]).values_list(
                "match_id", flat=True
            )
        )
    return found


def _baseline_sample(
    pairs: list[_Pair], since: datetime, until: datetime, modes: list[str], count: int
) -> list[int]:
    """Up to `count` finished matches of the window, drawn at random among those not
    screened yet (with their deals stored), where no candidate pair sat together."""
    if count <= 0:
        return []
    candidate_matches = {m.match_id for pair in pairs for m in pair.matches}
    drawn = (
        Match.objects.filter(
            status=MatchStatus.FINISHED,
            finished_at__gte=since,
            finished_at__lt=until,
            table__mode__in=modes,
        )
        .filter(Exists(GameHand.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(ScreenedMatch.objects.filter(match=OuterRef("pk"))))
        .order_by("?")
        .values_list("pk", flat=True)[: count * 2 + len(candidate_matches)]
    )
    return [m for m in drawn if m not in candidate_matches][:count]


def baseline_refresh(*, now: datetime | None = None) -> list[BaselineBand]:
    """The baseline rate of each rating band, from the close decisions of the matches
    sampled for it over the last FAIRPLAY_BASELINE_DAYS (their players' decisions)."""
    now = now or timezone.now()
    since = now - timedelta(days=settings.FAIRPLAY_BASELINE_DAYS)
    sampled = ScreenedMatch.objects.filter(
        purpose=ScreenPurpose.BASELINE, screened_at__gte=since
    ).values("match_id")
    rows = (
        CloseDecision.objects.filter(baseline=True, match_id__in=sampled)
        .values("band")
        .annotate(n=Count("pk"), hits=Count("pk", filter=Q(hit=True)))
        .order_by("band")
    )
    bands = []
    with transaction.atomic():
        BaselineBand.objects.all().delete()
        bands = BaselineBand.objects.bulk_create(
            [
                BaselineBand(
                    band=row["band"], decisions=row["n"], hits=row["hits"], refreshed_at=now
                )
                for row in rows
            ]
        )
    return bands


def baseline_rates() -> tuple[dict[int, float], float | None]:
    """The rate of each band with enough decisions, and the rate of all bands pooled
    (None without enough decisions: then lucky guesses are not scored)."""
    least = settings.FAIRPLAY_BASELINE_MIN_DECISIONS
    rows = list(BaselineBand.objects.values_list("band", "decisions", "hits"))
    total = sum(n for _b, n, _h in rows)
    pooled = sum(h for _b, _n, h in rows) / total if total >= least else None
    rates = {band: hits / n for band, n, hits in rows if n >= least}
    return rates, pooled


# --- evidence and flags ----------------------------------------------------------------


@dataclass
class Evidence:
    together: int = 0
    as_partners: int = 0
    as_opponents: int = 0
    share_together: float = 0.0
    close_decisions: int = 0
    lucky_hits: int = 0
    lucky_expected: float = 0.0
    lucky_z: float | None = None
    lucky_z_a: float | None = None
    lucky_z_b: float | None = None
    stake_tables: int = 0
    coins_a_to_b: int = 0
    one_sided: float | None = None
    dump_z: float | None = None
    partner_wins: int = 0
    partner_expected: float = 0.0
    partner_z: float | None = None
    versus_a_wins: int = 0
    versus_expected: float = 0.0
    versus_z: float | None = None

    def reasons(self) -> list[str]:
        found = []
        if self._lucky_strength() is not None:
            found.append(FlagReason.LUCKY.value)
        if (
            self.stake_tables >= settings.FAIRPLAY_DUMP_MIN_TABLES
            and abs(self.coins_a_to_b) >= settings.FAIRPLAY_DUMP_MIN_COINS
            and (self.one_sided or 0) >= settings.FAIRPLAY_DUMP_ONE_SIDED
        ):
            found.append(FlagReason.DUMPING.value)
        if self._wins_strength() >= settings.FAIRPLAY_WINS_Z:
            found.append(FlagReason.WINS.value)
        return found

    def _lucky_strength(self) -> float | None:
        z = [v for v in (self.lucky_z, self.lucky_z_a, self.lucky_z_b) if v is not None]
        best = max(z, default=None)
        return best if best is not None and best >= settings.FAIRPLAY_LUCKY_Z else None

    def _wins_strength(self) -> float:
        least = settings.FAIRPLAY_MIN_TOGETHER
        z = []
        if self.as_partners >= least and self.partner_z is not None:
            z.append(self.partner_z)
        if self.as_opponents >= least and self.versus_z is not None:
            z.append(abs(self.versus_z))  # either beating the other far too often
        return max(z, default=0.0)

    def strength(self) -> float:
        """The largest of the pair's z-scores: lucky guesses, coins one way, results."""
        z = [v for v in (self.lucky_z, self.lucky_z_a, self.lucky_z_b, self.dump_z) if v]
        z.append(self._wins_strength())
        return round(max(0.0, *z), 3)


@dataclass(frozen=True)
class _Seat:
    user_id: int | None
    skill: Skill


def _flags_update(pairs: list[_Pair], limits: Limits, now: datetime) -> tuple[int, int]:
    """Each candidate's evidence; a flag for a pair past a threshold, the evidence of a
    pair flagged before updated. (new flags, flags updated)."""
    match_ids = sorted({m.match_id for pair in pairs for m in pair.matches})
    seats = _seats(match_ids)
    closes = _close_decisions([m for pair in pairs for m in pair.partner_ids])
    rates, pooled = baseline_rates()
    stake = {
        m.match_id
        for pair in pairs
        for m in pair.matches
        if m.mode == Mode.STAKE and not m.partners
    }
    tables = (
        dict(Match.objects.filter(pk__in=sorted(stake)).values_list("pk", "table_id"))
        if stake
        else {}
    )
    nets = economy_selectors.stake_nets(table_ids=list(tables.values()))
    flagged = {
        (a, b): pk for pk, a, b in PairFlag.objects.values_list("pk", "user_a_id", "user_b_id")
    }
    new = updated = 0
    for pair in pairs:
        evidence = _evidence(pair, seats, closes, rates, pooled, tables, nets)
        reasons = evidence.reasons()
        if not reasons and pair.key not in flagged:
            continue
        created = _flag_store(pair, evidence, reasons, closes, tables, nets, limits, now)
        new += created
        updated += not created
    return new, updated


def _seats(match_ids: list[int]) -> dict[int, list[_Seat]]:
    """Each match's four seats with the skill each had before it (a bot its level's)."""
    before = ratings_selectors.skills_before(match_ids)
    rows: list[tuple[int, int, int | None, bool, str]] = []
    for start in range(0, len(match_ids), 5000):
        rows.extend(
            MatchSeat.objects.filter(match_id__in=match_ids[start : start + 5000])
            .order_by("match_id", "position")
            .values_list("match_id", "position", "user_id", "is_bot", "match__table__bot_level")
        )
    unrated = {u for m, _p, u, _b, _l in rows if u is not None and (m, u) not in before}
    current = ratings_selectors.skills_now(sorted(unrated))
    seats: dict[int, list[_Seat]] = defaultdict(lambda: [_Seat(None, NEW)] * 4)
    for match_id, position, user_id, is_bot, level in rows:
        if user_id is not None:
            skill = before.get((match_id, user_id)) or current.get(user_id, NEW)
        else:
            skill = BOT_SKILLS.get(level, NEW) if is_bot else NEW
        seats[match_id][position] = _Seat(user_id, skill)
    return seats


def _close_decisions(match_ids: list[int]) -> dict[int, list[tuple[int, int, bool]]]:
    """(user, band, hit) of each close decision of these matches, by match."""
    ids = sorted(set(match_ids))
    found: dict[int, list[tuple[int, int, bool]]] = defaultdict(list)
    for start in range(0, len(ids), 5000):
        for match_id, user_id, band, hit in CloseDecision.objects.filter(
            match_id__in=ids[start : start + 5000]
        ).values_list("match_id", "user_id", "band", "hit"):
            found[match_id].append((user_id, band, hit))
    return found


def _evidence(
    pair: _Pair,
    seats: dict[int, list[_Seat]],
    closes: dict[int, list[tuple[int, int, bool]]],
    rates: dict[int, float],
    pooled: float | None,
    tables: dict[int, int],
    nets: dict[int, dict[int, int]],
) -> Evidence:
    a, b = pair.key
    ev = Evidence(
        together=pair.together.together,
        as_partners=pair.together.partners,
        as_opponents=pair.together.opponents,
        share_together=round(pair.together.together / max(1, min(pair.played_a, pair.played_b)), 3),
    )
    # Lucky guesses: both players' close decisions in their matches as partners.
    chances: dict[int, list[float]] = {a: [], b: []}
    hits = {a: 0, b: 0}
    if pooled is not None:
        for match_id in pair.partner_ids:
            for user_id, band, hit in closes.get(match_id, ()):
                if user_id in chances:
                    chances[user_id].append(rates.get(band, pooled))
                    hits[user_id] += hit
    least = settings.FAIRPLAY_LUCKY_MIN_DECISIONS
    both = chances[a] + chances[b]
    ev.close_decisions = len(both)
    ev.lucky_hits = hits[a] + hits[b]
    ev.lucky_expected = round(sum(both), 3)
    ev.lucky_z = _rounded(binomial_z(ev.lucky_hits, both)) if len(both) >= least else None
    ev.lucky_z_a = _rounded(binomial_z(hits[a], chances[a])) if len(chances[a]) >= least else None
    ev.lucky_z_b = _rounded(binomial_z(hits[b], chances[b])) if len(chances[b]) >= least else None
    # Results against what their ratings before each match expected.
    partner_chances, versus_chances = [], []
    for shared in pair.matches:
        four = seats.get(shared.match_id)
        if four is None:
            continue
        where = {seat.user_id: position for position, seat in enumerate(four)}
        if a not in where:
            continue
        mine = where[a] % 2
        ours = [four[mine].skill, four[mine + 2].skill]
        theirs = [four[1 - mine].skill, four[3 - mine].skill]
        chance = win_chance(ours, theirs)
        if shared.partners:
            partner_chances.append(chance)
            ev.partner_wins += shared.a_won
        else:
            versus_chances.append(chance)
            ev.versus_a_wins += shared.a_won
    ev.partner_expected = round(sum(partner_chances), 3)
    ev.partner_z = _rounded(binomial_z(ev.partner_wins, partner_chances))
    ev.versus_expected = round(sum(versus_chances), 3)
    ev.versus_z = _rounded(binomial_z(ev.versus_a_wins, versus_chances))
    # Coins moved between them through the pots of stake tables where they were opponents.
    shared_tables = [
        nets.get(tables[m.match_id], {})
        for m in pair.matches
        if not m.partners and m.match_id in tables
    ]
    coins = coins_between(a, b, shared_tables)
    ev.stake_tables = coins.tables
    ev.coins_a_to_b = coins.a_to_b
    ev.one_sided = _rounded(coins.one_sided)
    ev.dump_z = _rounded(coins.z)
    return ev


def _rounded(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 3)


def _flag_store(
    pair: _Pair,
    evidence: Evidence,
    reasons: list[str],
    closes: dict[int, list[tuple[int, int, bool]]],
    tables: dict[int, int],
    nets: dict[int, dict[int, int]],
    limits: Limits,
    now: datetime,
) -> bool:
    """The pair's flag created (True) or its evidence updated (False), with the
    matches shown beside it; a dismissed flag whose strength grew past the one it
    was dismissed at by FAIRPLAY_REOPEN_STRENGTH is open again."""
    a, b = pair.key
    strength = evidence.strength()
    fields = asdict(evidence)  # every evidence field is a column of the flag
    with transaction.atomic():
        flag = PairFlag.objects.select_for_update().filter(user_a_id=a, user_b_id=b).first()
        created = flag is None
        if flag is None:
            flag = PairFlag(user_a_id=a, user_b_id=b, created_at=now)
        for name, value in fields.items():
            setattr(flag, name, value)
        flag.reasons = reasons
        flag.strength = strength
        flag.updated_at = now
        flag.window_days = limits.window_days
        if (
            flag.status == FlagStatus.DISMISSED
            and reasons
            and flag.decided_strength is not None
            and strength >= flag.decided_strength + settings.FAIRPLAY_REOPEN_STRENGTH
        ):
            flag.status = FlagStatus.OPEN
        flag.save()
        FlagMatch.objects.filter(flag=flag).delete()
        FlagMatch.objects.bulk_create(_flag_matches(flag, pair, closes, tables, nets))
    return created


def _flag_matches(
    flag: PairFlag,
    pair: _Pair,
    closes: dict[int, list[tuple[int, int, bool]]],
    tables: dict[int, int],
    nets: dict[int, dict[int, int]],
) -> list[FlagMatch]:
    """The newest of the pair's matches (the partners' first), FAIRPLAY_FLAG_MATCHES."""
    a, b = pair.key
    ordered = sorted(pair.matches, key=lambda m: (not m.partners, -m.finished_at.timestamp()))
    rows = []
    for shared in ordered[: settings.FAIRPLAY_FLAG_MATCHES]:
        mine = [hit for user_id, _band, hit in closes.get(shared.match_id, ()) if user_id in (a, b)]
        coins = 0
        if not shared.partners and shared.match_id in tables:
            coins = coins_between(a, b, [nets.get(tables[shared.match_id], {})]).a_to_b
        rows.append(
            FlagMatch(
                flag=flag,
                match_id=shared.match_id,
                role=FlagRole.PARTNERS if shared.partners else FlagRole.OPPONENTS,
                mode=shared.mode,
                finished_at=shared.finished_at,
                a_won=shared.a_won,
                close=len(mine) if shared.partners else 0,
                hits=sum(mine) if shared.partners else 0,
                coins_a_to_b=coins,
            )
        )
    return rows


# --- staff ------------------------------------------------------------------------------


def flag_decide(*, staff_user: User, flag_id: int, decision: str, note: str) -> PairFlag:
    """Staff dismiss or confirm an open flag, with a note (kept on the flag and in the
    admin log). Confirming bans nobody: staff act on the accounts themselves."""
    note = (note or "").strip()
    if not staff_user.has_perm(REVIEW_PERMISSION):
        raise errors.NotAllowed()
    if decision not in (FlagStatus.DISMISSED, FlagStatus.CONFIRMED):
        raise errors.UnknownDecision()
    if not note:
        raise errors.NoteRequired()
    with transaction.atomic():
        flag = PairFlag.objects.select_for_update().get(pk=flag_id)
        if flag.status != FlagStatus.OPEN:
            raise errors.AlreadyDecided()
        flag.status = decision
        flag.reviewed_by = staff_user
        flag.reviewed_at = timezone.now()
        flag.note = note
        flag.decided_strength = flag.strength
        flag.save(
            update_fields=["status", "reviewed_by", "reviewed_at", "note", "decided_strength"]
        )
        message = (
            _("Flag dismissed. Note: %(note)s")
            if decision == FlagStatus.DISMISSED
            else _("Flag confirmed. Note: %(note)s")
        )
        _log(staff_user, flag, message % {"note": note})
    return flag


def flag_reopen(*, staff_user: User, flag_id: int, note: str) -> PairFlag:
    """Staff open a decided flag again, with a note (kept in the admin log)."""
    note = (note or "").strip()
    if not staff_user.has_perm(REVIEW_PERMISSION):
        raise errors.NotAllowed()
    if not note:
        raise errors.NoteRequired()
    with transaction.atomic():
        flag = PairFlag.objects.select_for_update().get(pk=flag_id)
        if flag.status == FlagStatus.OPEN:
            raise errors.NotDecided()
        flag.status = FlagStatus.OPEN
        flag.reviewed_by = staff_user
        flag.reviewed_at = timezone.now()
        flag.note = note
        flag.save(update_fields=["status", "reviewed_by", "reviewed_at", "note"])
        _log(staff_user, flag, _("Flag opened again. Note: %(note)s") % {"note": note})
    return flag


def _log(staff_user: User, flag: PairFlag, message: str) -> None:
    LogEntry.objects.log_actions(
        user_id=staff_user.pk, queryset=[flag], action_flag=CHANGE, change_message=message
    )
