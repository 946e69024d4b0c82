"""Who gets a kind among many players (their switch, else its default), and what was
sent to them lately: the reads social's "a friend started playing" is built on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications import kinds, selectors, services

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def switch(user, on):
    services.settings_update(
        user=user,
        kinds_on=on,
        quiet_start=None,
        quiet_end=None,
        timezone_name="Europe/Madrid",
        push_per_hour=6,
    )


def test_a_kind_off_by_default_reaches_only_those_who_switched_it_on(make_user):
    ana, bea, cruz = make_user("ana"), make_user("bea"), make_user("cruz")
    switch(ana, [kinds.FRIEND_PLAYING])
    switch(bea, [kinds.FRIEND_REQUEST])  # a row, with this kind off
    ids = [ana.pk, bea.pk, cruz.pk]
    assert selectors.kind_on_among(ids, kinds.FRIEND_PLAYING) == {ana.pk}
    ana.is_active = False
    ana.save(update_fields=["is_active"])
    assert selectors.kind_on_among(ids, kinds.FRIEND_PLAYING) == set()


def test_a_kind_on_by_default_reaches_all_but_those_who_switched_it_off(make_user):
    ana, bea, cruz = make_user("ana"), make_user("bea"), make_user("cruz")
    switch(bea, [kinds.FRIEND_PLAYING])  # every other kind off
    cruz.is_active = False
    cruz.save(update_fields=["is_active"])
    ids = [ana.pk, bea.pk, cruz.pk]
    assert selectors.kind_on_among(ids, kinds.FRIEND_REQUEST) == {ana.pk}
    assert selectors.kind_on_among([], kinds.FRIEND_REQUEST) == set()
    assert selectors.kind_on_among(ids, "retired") == set()


def test_recently_sent_reads_the_parameter_of_the_kinds_rows_since_a_moment(player):
    switch(player, [kinds.FRIEND_PLAYING])  # off by default
    services.notification_send(
        user=player,
        kind=kinds.FRIEND_PLAYING,
        params={"name": "pablo", "friend": 7},
        link="/",
        dedup_key="a",
    )
    now = timezone.now()
    got = selectors.recently_sent(
        [player.pk], kinds.FRIEND_PLAYING, now - timedelta(hours=1), "friend"
    )
    assert got == {(player.pk, 7)}
    assert (
        selectors.recently_sent(
            [player.pk], kinds.FRIEND_PLAYING, now + timedelta(seconds=1), "friend"
        )
        == set()
    )
    assert (
        selectors.recently_sent(
            [player.pk], kinds.FRIEND_REQUEST, now - timedelta(hours=1), "friend"
        )
        == set()
    )
