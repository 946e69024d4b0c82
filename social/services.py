"""The only writers of friends, requests, blocks and social settings.

Each function is one transaction that first locks the users' rows concerned, in
primary-key order (`_lock_users`): two players sending each other a request at the
same moment, or a block racing an accept, are serialised, and the block cap holds
under concurrency.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.services import user_notify
from notifications import kinds
from notifications.selectors import kind_on_among, recently_sent
from notifications.services import notification_send
from social import errors
from social.models import (
    Block,
    FriendRequest,
    Friendship,
    PartnerMark,
    PartnerMarkKind,
    PartnerRequest,
    Partnership,
    Privacy,
    Requests,
)
from social.selectors import (
    accepts_requests,
    are_friends,
    friends_of_many,
    player_named,
    tables_hidden,
)


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
    # Partners no more either: the standing pair is dissolved (its history stays).
    PartnerRequest.objects.filter(
        Q(from_user=user, to_user=other) | Q(from_user=other, to_user=user)
    ).delete()
    if Partnership.objects.filter(
        user_low_id=low, user_high_id=high, dissolved_at__isnull=True
    ).update(dissolved_at=timezone.now()):
        _tell_partners(other.pk)
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


# --- Partners (docs/social.md, "Partners") -----------------------------------------


def _tell_partners(user_id: int) -> None:
    """After commit, the user's open partners page and lobby reload their regions."""
    user_notify(user_id=user_id, what="partners")
    user_notify(user_id=user_id, what="invitations")


def _standing_count(user_id: int) -> int:
    return Partnership.objects.filter(
        Q(user_low_id=user_id) | Q(user_high_id=user_id), dissolved_at__isnull=True
    ).count()


def _partners_check(user: User, other: User) -> None:
    """What refuses two players a pair (their rows locked): a block (`user`'s own
    said as such, the other's not revealed), a standing pair already, either at
    SOCIAL_PARTNERS_MAX."""
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise errors.YouBlocked()
    if Block.objects.filter(blocker=other, blocked=user).exists():
        raise errors.PartnersRefused()
    low, high = _pair(user.pk, other.pk)
    if Partnership.objects.filter(
        user_low_id=low, user_high_id=high, dissolved_at__isnull=True
    ).exists():
        raise errors.AlreadyPartners()
    if _standing_count(user.pk) >= settings.SOCIAL_PARTNERS_MAX:
        raise errors.TooManyPartners()
    if _standing_count(other.pk) >= settings.SOCIAL_PARTNERS_MAX:
        raise errors.TooManyPartners(yours=False)


def _partnership_create(a: int, b: int) -> Partnership:
    low, high = _pair(a, b)
    PartnerRequest.objects.filter(
        Q(from_user_id=a, to_user_id=b) | Q(from_user_id=b, to_user_id=a)
    ).delete()
    _tell_partners(a)
    _tell_partners(b)
    return Partnership.objects.create(user_low_id=low, user_high_id=high, created_at=timezone.now())


@transaction.atomic
def partner_request_send(*, user: User, username: str) -> PartnerRequest | Partnership:
    """Asks a friend to be `user`'s partner. When they had already asked `user`
    (crossing requests), the pair is made at once and returned. Refused: an unknown
    name, yourself, a block either way, no friend, partners already, a request
    already sent, either player at SOCIAL_PARTNERS_MAX standing pairs."""
    other = _other(user, username)
    _lock_users(user.pk, other.pk)
    _partners_check(user, other)
    if not are_friends(user.pk, other.pk):
        raise errors.NotAFriend()
    if PartnerRequest.objects.filter(from_user=other, to_user=user).exists():
        return _partnership_create(user.pk, other.pk)
    if PartnerRequest.objects.filter(from_user=user, to_user=other).exists():
        raise errors.PartnerAlreadyRequested()
    _tell_partners(other.pk)
    return PartnerRequest.objects.create(from_user=user, to_user=other)


def _partner_request_locked(request_id: int, **who: User) -> PartnerRequest:
    found = PartnerRequest.objects.filter(pk=request_id, **who).first()
    if found is None:
        raise errors.PartnerRequestNotFound()
    _lock_users(found.from_user_id, found.to_user_id)
    request = (
        PartnerRequest.objects.select_for_update()
        .select_related("from_user", "to_user")
        .filter(pk=request_id, **who)
        .first()
    )
    if request is None:  # answered meanwhile
        raise errors.PartnerRequestNotFound()
    return request


@transaction.atomic
def partner_request_accept(*, user: User, request_id: int) -> Partnership:
    """The request sent to `user` becomes a pair (the refusals of a request are
    checked again: a block or the limit reached meanwhile)."""
    request = _partner_request_locked(request_id, to_user=user)
    _partners_check(user, request.from_user)
    return _partnership_create(request.from_user_id, user.pk)


@transaction.atomic
def partner_request_decline(*, user: User, request_id: int) -> None:
    request = _partner_request_locked(request_id, to_user=user)
    request.delete()
    _tell_partners(request.from_user_id)


@transaction.atomic
def partner_request_cancel(*, user: User, request_id: int) -> None:
    request = _partner_request_locked(request_id, from_user=user)
    request.delete()
    _tell_partners(request.to_user_id)


@transaction.atomic
def partnership_dissolve(*, user: User, pair_id: int) -> Partnership:
    """Either partner (or staff, from the admin) ends their standing pair; the row
    stays (its page, its matches). NotPartners: not theirs, or dissolved already."""
    found = (
        Partnership.objects.filter(pk=pair_id).values_list("user_low_id", "user_high_id").first()
    )
    if found is None or (user.pk not in found and not user.is_staff):
        raise errors.NotPartners()
    _lock_users(*found)
    pair = Partnership.objects.select_for_update().get(pk=pair_id)
    if pair.dissolved_at is not None:
        raise errors.NotPartners()
    pair.dissolved_at = timezone.now()
    pair.save(update_fields=["dissolved_at"])
    for partner_id in found:
        if partner_id != user.pk:
            _tell_partners(partner_id)
    return pair


@transaction.atomic
def partner_mark_set(*, user: User, username: str, kind: str) -> PartnerMark:
    """Marks a player "prefer" or "avoid" as partner (a mark again changes it). At
    most SOCIAL_PARTNER_MARKS_MAX marks a player."""
    if kind not in PartnerMarkKind.values:
        raise errors.SocialError()
    other = _other(user, username)
    _lock_users(user.pk)
    mark = PartnerMark.objects.filter(user=user, other=other).first()
    if mark is None:
        if PartnerMark.objects.filter(user=user).count() >= settings.SOCIAL_PARTNER_MARKS_MAX:
            raise errors.TooManyMarks()
        return PartnerMark.objects.create(user=user, other=other, kind=kind)
    mark.kind = kind
    mark.save(update_fields=["kind"])
    return mark


@transaction.atomic
def partner_mark_remove(*, user: User, username: str) -> None:
    other = _other(user, username)
    _lock_users(user.pk)
    deleted, _ = PartnerMark.objects.filter(user=user, other=other).delete()
    if not deleted:
        raise errors.NotMarked()


# --- A friend started playing (docs/notifications.md, `friend_playing`) -------------


@transaction.atomic
def friends_playing_notify(*, user_ids: list[int], now: datetime | None = None) -> int:
    """The players of a match that just started: each friend who switched
    `friend_playing` on (it is off by default) is told, at most once a friend every
    NOTIFICATIONS_FRIEND_PLAYING_HOURS. Never about a player who hides where they play
    from friends (privacy: "friends see where you are playing" off), never to a
    friend seated in the same match. Returns how many were told. Typically two
    queries (the friendships, the friends who want it), none when nobody does."""
    now = now or timezone.now()
    players = set(user_ids) - tables_hidden(user_ids)
    if not players:
        return 0
    friends = friends_of_many(players)
    wanting = kind_on_among(
        {f for ids in friends.values() for f in ids} - set(user_ids), kinds.FRIEND_PLAYING
    )
    if not wanting:
        return 0
    hours = settings.NOTIFICATIONS_FRIEND_PLAYING_HOURS
    told_lately = recently_sent(
        wanting, kinds.FRIEND_PLAYING, now - timedelta(hours=hours), about="friend"
    )
    names = dict(User.objects.filter(pk__in=players).values_list("pk", "username"))
    window = int(now.timestamp()) // (hours * 3600)
    sent = 0
    for player_id in sorted(players):
        name = names.get(player_id)
        if name is None:
            continue
        for friend_id in sorted(friends[player_id] & wanting):
            if (friend_id, player_id) in told_lately:
                continue
            # The window in the key: two starts at the same instant still tell once.
            if notification_send(
                user=friend_id,
                kind=kinds.FRIEND_PLAYING,
                params={"name": name, "friend": player_id},
                link=reverse("social:follow", kwargs={"username": name}),
                dedup_key=f"friend-playing:{player_id}:{window}",
            ):
                sent += 1
    return sent
