"""The history page's listing (history/selectors/listing.py) against PostgreSQL: pages
and filters compared with Django's paginator and a count made by hand."""

from datetime import timedelta

import pytest

from history import selectors
from history.selectors import HistoryFilters
from tests.history.conftest import store_finished
from tests.history.selectors.conftest import NOW

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def _listed(user, **filters):
    page, rows = selectors.history_page(user, filters=HistoryFilters(**filters), number=1)
    return [row.match for row in rows], page.paginator.count


@pytest.mark.parametrize("asked", [1, 2, 3, 4, 0, -1, 10**30])
def test_history_pages_are_numbered_as_django_paginator_numbers_them(cast, settings, asked):
    from django.core.paginator import EmptyPage, Paginator

    settings.HISTORY_PAGE_SIZE = 2
    ana, bea, *_ = cast
    store_finished([ana, bea, None, None], 5)
    everything = selectors.filtered_player_matches(ana, HistoryFilters())
    try:
        expected = Paginator(everything, 2).page(asked)
    except EmptyPage:
        with pytest.raises(EmptyPage):
            selectors.history_page(ana, filters=HistoryFilters(), number=asked)
        return
    page, rows = selectors.history_page(ana, filters=HistoryFilters(), number=asked)
    assert (page.number, page.paginator.count, page.paginator.num_pages) == (
        expected.number,
        5,
        3,
    )
    assert [row.match.pk for row in rows] == [line.match_id for line in expected]
    assert (page.has_previous(), page.has_next()) == (expected.has_previous(), expected.has_next())


def test_each_history_filter_keeps_exactly_the_matches_counted_by_hand(cast, settings):
    settings.HISTORY_PAGE_SIZE = 100
    ana, bea, carlos, dani = cast
    with_bea = store_finished([ana, carlos, bea, dani], 3, mode="online")  # bea partner
    against_bea = store_finished([ana, bea, None, None], 2, mode="friends", winner=1)
    classic = store_finished([None, ana, bea, None], 1, mode="friends", rules="classic")
    gone = store_finished(
        [ana, None, None, None],
        2,
        mode="practice",
        abandoned=(0,),
        finished_at=NOW - timedelta(days=40),
    )
    assert _listed(ana)[1] == 8
    assert set(_listed(ana, mode="friends")[0]) == {*against_bea, *classic}
    assert _listed(ana, rules="classic")[0] == classic
    assert set(_listed(ana, result="won")[0]) == set(with_bea)
    assert set(_listed(ana, result="lost")[0]) == {*against_bea, *classic}
    assert set(_listed(ana, result="abandoned")[0]) == set(gone)
    assert set(_listed(ana, with_user=bea.pk)[0]) == {*with_bea, *against_bea, *classic}
    assert set(_listed(ana, with_user=bea.pk, role="partner")[0]) == set(with_bea)
    assert set(_listed(ana, with_user=bea.pk, role="opponent")[0]) == {*against_bea, *classic}
    assert set(_listed(ana, with_user=carlos.pk, role="partner")[0]) == set()
    day = (NOW - timedelta(days=40)).date()
    assert set(_listed(ana, since=day, until=day)[0]) == set(gone)
    assert _listed(ana, until=day - timedelta(days=1)) == ([], 0)
    # bea's own history holds none of ana's practice matches.
    assert not set(_listed(bea)[0]) & set(gone)
