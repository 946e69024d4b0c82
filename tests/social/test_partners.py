"""Registered pairs and partner marks through social.services: the life cycle, every
refusal with its code, and the races (crossing requests, dissolving twice)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import translation

from social import errors, selectors, services
from social.models import PartnerMark, PartnerRequest, Partnership
from tests.social.conftest import befriend

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def friends(player, friend):
    befriend(player, friend)
    return player, friend


def pair_of(a, b):
    request = services.partner_request_send(user=a, username=b.username)
    return services.partner_request_accept(user=b, request_id=request.pk)


def test_a_partner_request_accepted_makes_a_standing_pair(friends):
    player, friend = friends
    request = services.partner_request_send(user=player, username="Pablo")
    assert isinstance(request, PartnerRequest)
    assert [r.pk for r in selectors.incoming_partner_requests(friend.pk)] == [request.pk]
    assert [r.pk for r in selectors.outgoing_partner_requests(player.pk)] == [request.pk]
    pair = services.partner_request_accept(user=friend, request_id=request.pk)
    assert pair.standing and selectors.partner_ids(player.pk) == {friend.pk}
    assert selectors.standing_partnership(friend.pk, player.pk) == pair
    assert not PartnerRequest.objects.exists()


def test_declined_or_cancelled_requests_make_no_pair(friends, other):
    player, friend = friends
    befriend(player, other)
    first = services.partner_request_send(user=player, username="pablo")
    services.partner_request_decline(user=friend, request_id=first.pk)
    second = services.partner_request_send(user=player, username="olga")
    services.partner_request_cancel(user=player, request_id=second.pk)
    assert not PartnerRequest.objects.exists() and not Partnership.objects.exists()


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("nadie", errors.UnknownPlayer),
        ("", errors.UnknownPlayer),
        ("ana", errors.NotYourself),
        ("x" * 400, errors.UnknownPlayer),
        ("pa\x00blo", errors.UnknownPlayer),
    ],
)
def test_a_request_to_nobody_or_to_yourself_is_refused(friends, name, error):
    player, _ = friends
    with pytest.raises(error) as raised:
        services.partner_request_send(user=player, username=name)
    assert raised.value.code and raised.value.message
    assert not PartnerRequest.objects.exists()


def test_only_a_friend_may_be_asked(player, friend):
    with pytest.raises(errors.NotAFriend):
        services.partner_request_send(user=player, username="pablo")


def test_a_block_either_way_refuses_the_request_without_revealing_it(friends):
    player, friend = friends
    services.block_add(user=friend, username="ana")
    with pytest.raises(errors.PartnersRefused):
        services.partner_request_send(user=player, username="pablo")
    with pytest.raises(errors.YouBlocked):
        services.partner_request_send(user=friend, username="ana")


def test_a_block_dissolves_the_pair_and_drops_requests_its_history_stays(friends):
    player, friend = friends
    pair = pair_of(player, friend)
    services.block_add(user=player, username="pablo")
    pair.refresh_from_db()
    assert not pair.standing and selectors.partner_ids(player.pk) == set()


def test_a_second_request_or_a_second_pair_is_refused(friends):
    player, friend = friends
    services.partner_request_send(user=player, username="pablo")
    with pytest.raises(errors.PartnerAlreadyRequested):
        services.partner_request_send(user=player, username="pablo")
    services.partner_request_accept(user=friend, request_id=PartnerRequest.objects.get().pk)
    with pytest.raises(errors.AlreadyPartners):
        services.partner_request_send(user=friend, username="ana")


def test_crossing_requests_make_one_pair(friends):
    player, friend = friends
    services.partner_request_send(user=player, username="pablo")
    made = services.partner_request_send(user=friend, username="ana")
    assert isinstance(made, Partnership)
    assert Partnership.objects.count() == 1 and not PartnerRequest.objects.exists()


def test_crossing_requests_at_the_same_moment_make_one_pair(friends):
    player, friend = friends
    barrier = threading.Barrier(2)
    results = []

    def send(user, name):
        try:
            barrier.wait()
            results.append(services.partner_request_send(user=user, username=name))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(player, "pablo")),
        threading.Thread(target=send, args=(friend, "ana")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2
    assert Partnership.objects.filter(dissolved_at__isnull=True).count() == 1
    assert not PartnerRequest.objects.exists()


def test_the_limit_of_pairs_holds_for_both_players(friends, make_user, settings):
    settings.SOCIAL_PARTNERS_MAX = 1
    player, friend = friends
    pair_of(player, friend)
    third = make_user("tere")
    befriend(player, third)
    befriend(friend, third)
    with pytest.raises(errors.TooManyPartners) as mine:
        services.partner_request_send(user=player, username="tere")
    with pytest.raises(errors.TooManyPartners) as theirs:
        services.partner_request_send(user=third, username="ana")
    with translation.override("en"):
        assert "1 partner" in mine.value.message and mine.value.message != theirs.value.message


def test_the_limit_is_checked_again_when_a_request_is_accepted(friends, make_user, settings):
    settings.SOCIAL_PARTNERS_MAX = 1
    player, friend = friends
    third = make_user("tere")
    befriend(player, third)
    request = services.partner_request_send(user=third, username="ana")
    pair_of(player, friend)
    with pytest.raises(errors.TooManyPartners):
        services.partner_request_accept(user=player, request_id=request.pk)


def test_dissolving_keeps_the_row_and_twice_is_refused(friends, other):
    player, friend = friends
    pair = pair_of(player, friend)
    with pytest.raises(errors.NotPartners):
        services.partnership_dissolve(user=other, pair_id=pair.pk)
    services.partnership_dissolve(user=friend, pair_id=pair.pk)
    with pytest.raises(errors.NotPartners):
        services.partnership_dissolve(user=player, pair_id=pair.pk)
    with pytest.raises(errors.NotPartners):
        services.partnership_dissolve(user=player, pair_id=999_999)
    assert [p.pk for p in selectors.partnerships_of(player.pk)] == [pair.pk]
    assert selectors.partnerships_of(player.pk, standing=True) == []
    again = pair_of(player, friend)  # a new pair of the same two: a new row
    assert again.pk != pair.pk


def test_answering_a_request_that_is_gone_or_not_yours_is_refused(friends, other):
    player, friend = friends
    request = services.partner_request_send(user=player, username="pablo")
    with pytest.raises(errors.PartnerRequestNotFound):
        services.partner_request_accept(user=other, request_id=request.pk)
    with pytest.raises(errors.PartnerRequestNotFound):
        services.partner_request_cancel(user=friend, request_id=request.pk)
    services.partner_request_decline(user=friend, request_id=request.pk)
    with pytest.raises(errors.PartnerRequestNotFound):
        services.partner_request_accept(user=friend, request_id=request.pk)


def test_marks_are_set_changed_removed_and_capped(player, friend, other, settings):
    services.partner_mark_set(user=player, username="pablo", kind="prefer")
    services.partner_mark_set(user=player, username="pablo", kind="avoid")
    assert PartnerMark.objects.get().kind == "avoid"
    marks = selectors.partner_marks_among([player.pk, friend.pk, other.pk])
    assert marks.avoid == {(player.pk, friend.pk)} and not marks.prefer
    settings.SOCIAL_PARTNER_MARKS_MAX = 1
    with pytest.raises(errors.TooManyMarks) as raised:
        services.partner_mark_set(user=player, username="olga", kind="prefer")
    with translation.override("en"):
        assert "1 player" in raised.value.message
    services.partner_mark_remove(user=player, username="pablo")
    with pytest.raises(errors.NotMarked):
        services.partner_mark_remove(user=player, username="pablo")


@pytest.mark.parametrize("kind", ["", "block", "PREFER", None])
def test_a_mark_of_no_kind_is_refused(player, friend, kind):
    with pytest.raises(errors.SocialError):
        services.partner_mark_set(user=player, username="pablo", kind=kind)
    assert not PartnerMark.objects.exists()


def test_marking_yourself_or_nobody_is_refused(player):
    with pytest.raises(errors.NotYourself):
        services.partner_mark_set(user=player, username="ana", kind="prefer")
    with pytest.raises(errors.UnknownPlayer):
        services.partner_mark_set(user=player, username="nadie", kind="avoid")
