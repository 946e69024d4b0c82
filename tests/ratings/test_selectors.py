"""Ratings read for the fair-play screen: each person's estimate before a rated match,
and now."""

import pytest

from ratings.models import Rating
from ratings.selectors import skills_before, skills_now
from ratings.skill import NEW, Skill

pytestmark = pytest.mark.django_db


def test_the_estimate_before_a_match_is_the_one_its_rating_change_recorded(make_user):
    from django.utils import timezone

    from games.models import Match, Table
    from ratings.models import RatingChange

    ana, bea = make_user("ana"), make_user("bea")
    table = Table.objects.create(mode="online", owner=ana)
    match = Match.objects.create(table=table, rules="online", seed=1, first_dealer=0)
    RatingChange.objects.create(
        match=match,
        user=ana,
        position=0,
        at=timezone.now(),
        mu_before=27.0,
        sigma_before=3.0,
        mu_after=28.0,
        sigma_after=2.9,
        before=1640,
        after=1710,
        matches=12,
    )
    assert skills_before([match.pk, 999]) == {(match.pk, ana.pk): Skill(27.0, 3.0)}
    Rating.objects.create(user=ana, mu=28.0, sigma=2.9, value=1710, matches=12)
    assert skills_now([ana.pk, bea.pk]) == {ana.pk: Skill(28.0, 2.9), bea.pk: NEW}
