"""The only writers of friends, requests, blocks and social settings.

Each function is one transaction that first locks the users' rows concerned, in
primary-key order (`_lock_users`): two players sending each other a request at the
same moment, or a block racing an accept, are serialised, and the block cap holds
under concurrency.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import User
from games.services import user_notify
from notifications import kinds
from notifications.services import notification_send
from social import errors
from social.models import Block, FriendRequest, Friendship, Privacy, Requests
from social.selectors import accepts_requests, are_friends, player_named


def _lock_users(*user_ids: int) -> None:
    list(User.objects.select_for_update().filter(pk__in=sorted(set(user_ids))).order_by("pk"))


def _other(user: User, username: str) -> User:
    other = player_named(username)
    if other is None:
        raise errors.UnknownPlayer()
    if other.pk == user.pk:
        raise errors.NotYourself()
    return other


def _tell(user_id: int) -> None:
    """After commit, the user's open friends page reloads its region (lobby socket)."""
    user_notify(user_id=user_id, what="friends")


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@transaction.atomic
def friend_request_send(*, user: User, username: str) -> FriendRequest:
    """Asks the player `username` means (look-alikes resolve to the real account) to
    be friends. Refused: an unknown name, yourself, a friend already, a request
    already sent either way, a player you blocked, and a player who blocked you or
    takes no requests (one message for both: a block is not revealed)."""
    other = _other(user, username)
    _lock_users(user.pk, other.pk)
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise errors.YouBlocked()
    if are_friends(user.pk, other.pk):
        raise errors.AlreadyFriends()
    if FriendRequest.objects.filter(from_user=user, to_user=other).exists():
        raise errors.AlreadyRequested()
    if FriendRequest.objects.filter(from_user=other, to_user=user).exists():
        raise errors.RequestedYou()
    if Block.objects.filter(blocker=other, blocked=user).exists() or not accepts_requests(other.pk):
        raise errors.RequestsRefused()
    _tell(other.pk)
    request = FriendRequest.objects.create(from_user=user, to_user=other)
    notification_send(
        user=other,
        kind=kinds.FRIEND_REQUEST,
        params={"name": user.username},
        link=reverse("social:friends"),
        dedup_key=f"friend-request:{request.pk}",
    )
    return request


def _request_locked(request_id: int, **who: User) -> FriendRequest:
    found = FriendRequest.objects.filter(pk=request_id, **who).first()
    if found is None:
        raise errors.RequestNotFound()
    _lock_users(found.from_user_id, found.to_user_id)
    request = FriendRequest.objects.select_for_update().filter(pk=request_id, **who).first()
    if request is None:  # answered meanwhile
        raise errors.RequestNotFound()
    return request


@transaction.atomic
def friend_request_accept(*, user: User, request_id: int) -> Friendship:
    """The request sent to `user` becomes a friendship (any request back is dropped)."""
    request = _request_locked(request_id, to_user=user)
    low, high = _pair(request.from_user_id, user.pk)
    FriendRequest.objects.filter(
        Q(from_user_id=request.from_user_id, to_user=user)
        | Q(from_user=user, to_user_id=request.from_user_id)
    ).delete()
    friendship, _ = Friendship.objects.get_or_create(user_low_id=low, user_high_id=high)
    _tell(request.from_user_id)
    notification_send(
        user=request.from_user_id,
        kind=kinds.FRIEND_ACCEPTED,
        params={"name": user.username},
        link=reverse("profile", kwargs={"username": user.username}),
        dedup_key=f"friend-accepted:{friendship.pk}:{user.pk}",
    )
    return friendship


@transaction.atomic
def friend_request_decline(*, user: User, request_id: int) -> None:
    _request_locked(request_id, to_user=user).delete()


@transaction.atomic
def friend_request_cancel(*, user: User, request_id: int) -> None:
    _request_locked(request_id, from_user=user).delete()


@transaction.atomic
def friend_remove(*, user: User, username: str) -> None:
    other = _other(user, username)
    _lock_users(user.pk, other.pk)
    low, high = _pair(user.pk, other.pk)
    deleted, _ = Friendship.objects.filter(user_low_id=low, user_high_id=high).delete()
    if not deleted:
        raise errors.NotFriends()


@transaction.atomic
def block_add(*, user: User, username: str) -> Block:
    """Blocks the player: a friendship and requests between the two end, and the
    blocked player can no longer ask, invite, talk to or be seated with `user`.
    At most SOCIAL_BLOCKS_MAX blocks a player."""
    other = _other(user, username)
    _lock_users(user.pk, other.pk)
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise errors.AlreadyBlocked()
    if Block.objects.filter(blocker=user).count() >= settings.SOCIAL_BLOCKS_MAX:
        raise errors.TooManyBlocks()
    low, high = _pair(user.pk, other.pk)
    Friendship.objects.filter(user_low_id=low, user_high_id=high).delete()
    FriendRequest.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    ).delete()
    return Block.objects.create(blocker=user, blocked=other)


@transaction.atomic
def block_remove(*, user: User, username: str) -> None:
    other = _other(user, username)
    _lock_users(user.pk, other.pk)
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    if not deleted:
        raise errors.NotBlocked()


@transaction.atomic
def privacy_update(
    *, user: User, requests_from: str, show_table: bool, talk_hidden: bool
) -> Privacy:
    if requests_from not in Requests.values:
        raise errors.SocialError()
    _lock_users(user.pk)
    privacy, _ = Privacy.objects.update_or_create(
        user=user,
        defaults={
            "requests_from": requests_from,
            "show_table": show_table,
            "talk_hidden": talk_hidden,
        },
    )
    return privacy
