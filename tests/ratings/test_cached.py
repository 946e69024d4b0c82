"""The number of ranked players kept in the cache (ratings/cached.py): counted once a
minute, whatever the number of leaderboard pages read meanwhile."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings import cached, selectors
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def test_the_number_ranked_is_counted_once_then_read_from_the_cache(make_user):
    cache.clear()
    Rating.objects.create(
        user=make_user("ana"), value=1600, matches=20, last_rated_at=timezone.now()
    )
    assert cached.ranked_count() == 1
    Rating.objects.create(
        user=make_user("bea"), value=1700, matches=20, last_rated_at=timezone.now()
    )
    with CaptureQueriesContext(connection) as queries:
        assert cached.ranked_count() == 1  # kept: not counted again yet
    assert len(queries.captured_queries) == 0
    assert selectors.ranked_count() == 2  # the selector itself always counts
    cache.clear()
    assert cached.ranked_count() == 2


def test_the_leaderboard_counts_the_ranked_itself_unless_told(make_user):
    Rating.objects.create(
        user=make_user("ana"),
        value=1600,
        matches=20,
        last_rated_at=timezone.now() - timedelta(days=1),
    )
    assert selectors.leaderboard(user_id=None).players == 1
    assert selectors.leaderboard(user_id=None, players=41).players == 41
