"""A small simulated population through the whole screen: a pair whose players see
each other's hands (the hard bot with its partner's real hand in every world it
samples) against an honest pair, and honest matches among eight others for the
baseline. The screen must tell the peeking pair from the honest one.

Everything is seeded and the bots think by work, not time (and pass every bid, so
each hand is played for points, where the judged card play is), so the figures are
the same on any machine, loaded or not. At this size (144 hands of the pairs, 72 of
the baseline) the peeking pair's z-score is about 3.8 and the honest pair's about
0.2; the test's threshold sits between them. The full-size measure, with the site's
thresholds, is bench/fairplay_bench.py."""

from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay.models import BaselineBand, CloseDecision, PairFlag
from fairplay.services import Limits, screen_run
from fairplay.stats import binomial_z
from tests.fairplay.simulation import play_match
from tests.history.conftest import store_record

pytestmark = pytest.mark.django_db

MATCHES = 48
BASELINE_MATCHES = 24
HANDS = 3  # each match stops after three hands
BUDGET_MS = 8
THRESHOLD = 2.0


@pytest.fixture
def population(make_user, settings):
    settings.FAIRPLAY_MIN_TOGETHER = 20
    settings.FAIRPLAY_SAMPLES = 40
    settings.FAIRPLAY_LUCKY_MIN_DECISIONS = 30
    settings.FAIRPLAY_BASELINE_MIN_DECISIONS = 30
    settings.FAIRPLAY_LUCKY_Z = THRESHOLD
    now = timezone.now()

    def played(peeks, seed, seats):
        record = play_match(peeks, seed=seed, budget_ms=BUDGET_MS, last_hand=HANDS, passing=True)
        store_record(seats, record, mode="online", finished_at=now - timedelta(hours=seed % 500))

    peeking = [make_user("peek1"), make_user("peek2")]
    honest = [make_user("fair1"), make_user("fair2")]
    for n in range(MATCHES):
        played([True, False, True, False], 1000 + n, [peeking[0], honest[0], peeking[1], honest[1]])
    # Eight others in ever-changing foursomes: no two of them sit together 20 times.
    others = [make_user(f"other{n}") for n in range(8)]
    for n in range(BASELINE_MATCHES):
        seats = [others[(n + k * (1 + n % 3)) % 8] for k in range(4)]
        if len(set(seats)) < 4:
            seats = [others[(n + k) % 8] for k in range(4)]
        played([False] * 4, 2000 + n, seats)
    return peeking, honest


def test_the_screen_flags_the_peeking_pair_and_not_the_honest_one(population):
    peeking, honest = population
    run = screen_run(
        limits=Limits.from_settings(
            pair_matches=MATCHES, night_matches=2 * MATCHES, baseline_matches=BASELINE_MATCHES
        )
    )
    assert (run.pair_matches, run.baseline_matches) == (MATCHES, BASELINE_MATCHES)
    flagged = PairFlag.objects.get(user_a=peeking[0], user_b=peeking[1])
    assert "lucky" in flagged.reasons
    assert flagged.lucky_hits > flagged.lucky_expected
    fair = PairFlag.objects.filter(user_a=honest[0], user_b=honest[1]).first()
    assert fair is None or "lucky" not in fair.reasons
    # A clear gap between the two pairs (the same baseline for both).
    assert flagged.lucky_z - lucky_z(honest) >= 2.5


def lucky_z(pair):
    """The pair's z-score as the screen computes it, flagged or not."""
    rate = BaselineBand.objects.get().rate
    hits = list(CloseDecision.objects.filter(user__in=pair).values_list("hit", flat=True))
    assert len(hits) >= 30
    return binomial_z(sum(hits), [rate] * len(hits))
