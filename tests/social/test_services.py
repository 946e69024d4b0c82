"""Friends, requests, blocks and settings through social.services: the life cycle and
every refusal, with its code."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from accounts.models import User
from social import errors, selectors, services
from social.models import Block, FriendRequest, Friendship
from tests.social.conftest import befriend

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_request_accepted_makes_two_friends_and_leaves_no_request(player, friend):
    request = services.friend_request_send(user=player, username="PABLO")
    assert request.to_user == friend
    assert [r.pk for r in selectors.incoming_requests(friend.pk)] == [request.pk]
    assert [r.pk for r in selectors.outgoing_requests(player.pk)] == [request.pk]
    services.friend_request_accept(user=friend, request_id=request.pk)
    assert selectors.friend_ids(player.pk) == {friend.pk}
    assert selectors.friend_ids(friend.pk) == {player.pk}
    assert not FriendRequest.objects.exists()


def test_a_request_declined_or_cancelled_leaves_no_friendship(player, friend, other):
    first = services.friend_request_send(user=player, username="pablo")
    services.friend_request_decline(user=friend, request_id=first.pk)
    second = services.friend_request_send(user=player, username="olga")
    services.friend_request_cancel(user=player, request_id=second.pk)
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()


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
def test_a_request_to_nobody_or_to_yourself_is_refused(player, friend, name, error):
    with pytest.raises(error) as raised:
        services.friend_request_send(user=player, username=name)
    assert raised.value.code and raised.value.message
    assert not FriendRequest.objects.exists()


def test_a_second_request_is_refused_either_way(player, friend):
    services.friend_request_send(user=player, username="pablo")
    with pytest.raises(errors.AlreadyRequested):
        services.friend_request_send(user=player, username="pablo")
    with pytest.raises(errors.RequestedYou):
        services.friend_request_send(user=friend, username="ana")
    assert FriendRequest.objects.count() == 1


def test_a_request_to_a_friend_is_refused(player, friend):
    befriend(player, friend)
    with pytest.raises(errors.AlreadyFriends):
        services.friend_request_send(user=friend, username="ana")


def test_a_blocked_player_cannot_send_a_request_and_is_not_told_why(player, friend):
    services.block_add(user=friend, username="ana")
    with pytest.raises(errors.RequestsRefused) as raised:
        services.friend_request_send(user=player, username="pablo")
    assert "block" not in raised.value.message.lower()
    with pytest.raises(errors.YouBlocked):
        services.friend_request_send(user=friend, username="ana")


def test_a_player_who_takes_no_requests_gets_none(player, friend):
    services.privacy_update(user=friend, requests_from="nobody", show_table=True, talk_hidden=False)
    with pytest.raises(errors.RequestsRefused):
        services.friend_request_send(user=player, username="pablo")
    with pytest.raises(errors.SocialError):
        services.privacy_update(
            user=friend, requests_from="some", show_table=True, talk_hidden=False
        )
    assert selectors.privacy_of(friend.pk).requests_from == "nobody"


def test_answering_a_request_that_is_not_yours_or_gone_is_refused(player, friend, other):
    request = services.friend_request_send(user=player, username="pablo")
    with pytest.raises(errors.RequestNotFound):
        services.friend_request_accept(user=other, request_id=request.pk)
    with pytest.raises(errors.RequestNotFound):
        services.friend_request_accept(user=player, request_id=request.pk)  # the sender
    with pytest.raises(errors.RequestNotFound):
        services.friend_request_cancel(user=friend, request_id=request.pk)  # the receiver
    services.friend_request_decline(user=friend, request_id=request.pk)
    with pytest.raises(errors.RequestNotFound):
        services.friend_request_accept(user=friend, request_id=request.pk)
    with pytest.raises(errors.RequestNotFound):
        services.friend_request_accept(user=friend, request_id=10**11)


def test_removing_a_friend_ends_it_for_both_and_twice_is_refused(player, friend):
    befriend(player, friend)
    services.friend_remove(user=friend, username="ANA")
    assert selectors.friend_ids(player.pk) == set()
    with pytest.raises(errors.NotFriends):
        services.friend_remove(user=player, username="pablo")


def test_a_look_alike_name_means_the_real_account_only(player, friend):
    # "раblo" with Cyrillic р and а looks like "pablo": it means pablo.
    assert selectors.player_named("раblo") == friend
    assert selectors.player_named("ＰＡＢＬＯ") == friend  # full width
    assert selectors.player_named("pab1o") == friend  # a one for an l
    assert selectors.player_named("pablos") is None
    # An older look-alike account registered before the rule: typed exactly, it is
    # itself; typed as a third spelling, the oldest account of that look.
    impostor = User(username="раblо", email="imp@example.com")
    impostor.set_password("x")
    impostor.save()
    assert selectors.player_named("раblо") == impostor
    assert selectors.player_named("pаblo") == friend
    request = services.friend_request_send(user=player, username="раblo")
    assert request.to_user == friend


def test_blocking_ends_a_friendship_and_the_requests_between_the_two(player, friend):
    befriend(player, friend)
    services.block_add(user=player, username="pablo")
    assert selectors.friend_ids(player.pk) == set()
    assert selectors.blocked_between(friend.pk, player.pk)
    assert selectors.blocked_ids(player.pk) == {friend.pk}
    with pytest.raises(errors.AlreadyBlocked):
        services.block_add(user=player, username="pablo")
    services.block_remove(user=player, username="pablo")
    assert not selectors.blocked_between(friend.pk, player.pk)
    with pytest.raises(errors.NotBlocked):
        services.block_remove(user=player, username="pablo")
    with pytest.raises(errors.NotYourself):
        services.block_add(user=player, username="ana")
    with pytest.raises(errors.UnknownPlayer):
        services.block_add(user=player, username="nobody-here")


def test_blocking_a_player_who_sent_a_request_drops_it(player, friend):
    services.friend_request_send(user=friend, username="ana")
    services.block_add(user=player, username="pablo")
    assert not FriendRequest.objects.exists()


def test_the_fifty_first_block_is_refused_with_the_limit_in_the_message(player, make_user):
    for n in range(50):
        services.block_add(user=player, username=make_user(f"b{n}").username)
    extra = make_user("b50")
    with pytest.raises(errors.TooManyBlocks) as raised:
        services.block_add(user=player, username=extra.username)
    assert "50" in raised.value.message
    assert Block.objects.filter(blocker=player).count() == 50
    services.block_remove(user=player, username="b0")
    services.block_add(user=player, username="b50")


def test_the_database_refuses_a_request_to_yourself_and_a_friendship_out_of_order(player, friend):
    with pytest.raises(IntegrityError):
        FriendRequest.objects.create(from_user=player, to_user=player)


def test_blocked_pairs_are_found_among_many_in_one_query(
    player, friend, other, django_assert_num_queries
):
    services.block_add(user=other, username="ana")
    with django_assert_num_queries(1):
        pairs = selectors.blocked_pairs([player.pk, friend.pk, other.pk])
    assert pairs == frozenset({frozenset((player.pk, other.pk))})
