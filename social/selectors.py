"""Reads of friends, requests and blocks, shaped for the pages (no N+1)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from accounts.lookalikes import normalize_username, username_key
from accounts.models import User
from accounts.selectors import active_users_named
from accounts.validators import USERNAME_MAX_LENGTH
from games import selectors as games
from games.fanout.presence import online_among
from games.models import Mode
from games.selectors import live_tables_of
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


def player_named(name: str) -> User | None:
    """The account a typed name means, or None.

    The name is NFKC-normalised (full-width letters become ASCII) and compared in any
    letter case; a name that is no account but looks like one (a Cyrillic "а" for a
    Latin "a", "0" for "O": the same `username_key`, accounts/lookalikes.py) means the
    account that had that look first — the real one, never a later look-alike."""
    name = normalize_username((name or "").strip())
    if not name or len(name) > USERNAME_MAX_LENGTH or "\x00" in name:
        return None  # no username is that long or holds a NUL (PostgreSQL refuses one)
    found = active_users_named(name).first()
    if found is not None:
        return found
    return (
        User.objects.filter(username_key=username_key(name), is_active=True)
        .order_by("date_joined", "pk")
        .first()
    )


def privacy_of(user_id: int) -> Privacy:
    """The player's settings (the defaults when they never saved any)."""
    return Privacy.objects.filter(user_id=user_id).first() or Privacy(user_id=user_id)


def accepts_requests(user_id: int) -> bool:
    return privacy_of(user_id).requests_from == Requests.EVERYONE


def friend_ids(user_id: int) -> set[int]:
    rows = Friendship.objects.filter(Q(user_low_id=user_id) | Q(user_high_id=user_id))
    return {
        high if low == user_id else low
        for low, high in rows.values_list("user_low_id", "user_high_id")
    }


def are_friends(a: int, b: int) -> bool:
    low, high = sorted((a, b))
    return Friendship.objects.filter(user_low_id=low, user_high_id=high).exists()


def blocked_ids(user_id: int) -> set[int]:
    """Whom this player blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_usernames(user_id: int) -> set[str]:
    """The usernames of the players this player blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked__username", flat=True))


def blocked_between(a: int, b: int) -> bool:
    """True when either player blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def blocked_by_any(user_id: int, player_ids: list[int]) -> bool:
    """Whether any of these players blocked `user_id` (one query)."""
    return Block.objects.filter(blocked_id=user_id, blocker_id__in=player_ids).exists()


def talk_hidden_from(sender_id: int, reader_ids: list[int]) -> set[int]:
    """Of these readers, those who never see the sender's talk: a block either way,
    or all talk hidden in their settings (two queries)."""
    readers = [r for r in reader_ids if r != sender_id]
    if not readers:
        return set()
    hidden = set(
        Privacy.objects.filter(user_id__in=readers, talk_hidden=True).values_list(
            "user_id", flat=True
        )
    )
    for blocker, blocked in Block.objects.filter(
        Q(blocker_id=sender_id, blocked_id__in=readers)
        | Q(blocked_id=sender_id, blocker_id__in=readers)
    ).values_list("blocker_id", "blocked_id"):
        hidden.add(blocked if blocker == sender_id else blocker)
    return hidden


def watcher_talk_filter(user_id: int) -> tuple[frozenset[int], bool]:
    """For a watcher's socket (read once when it opens): the players blocked by or
    blocking `user_id`, whose talk it does not show, and whether `user_id` hides all
    table talk (two queries)."""
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list(
        "blocker_id", "blocked_id"
    )
    blocked = frozenset(blocked if blocker == user_id else blocker for blocker, blocked in pairs)
    hidden = Privacy.objects.filter(user_id=user_id, talk_hidden=True).exists()
    return blocked, hidden


def blocked_pairs(user_ids: Iterable[int]) -> frozenset[frozenset[int]]:
    """Every pair among these players where one blocked the other (one query)."""
    ids = list(set(user_ids))
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
        "blocker_id", "blocked_id"
    )
    return frozenset(frozenset(row) for row in rows)


def blocked_list(user_id: int) -> list[Block]:
    return list(
        Block.objects.filter(blocker_id=user_id)
        .select_related("blocked")
        .order_by("blocked__username")
    )


def incoming_requests(user_id: int) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(to_user_id=user_id)
        .select_related("from_user")
        .order_by("-created_at", "-pk")
    )


def outgoing_requests(user_id: int) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(from_user_id=user_id)
        .select_related("to_user")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class Friend:
    """A friend as the friends page shows them: `online` (a page of the site open),
    and the kind of table they sit at (`table_mode`, None when not at one or when
    they keep it to themselves)."""

    user: Any
    online: bool
    table_mode: str | None
    table_mode_label: str | None


def friends_with_presence(user_id: int) -> list[Friend]:
    """The player's friends by name, with who is online and at which kind of table
    (three queries, plus one look at the open sockets)."""
    ids = friend_ids(user_id)
    users = sorted(
        User.objects.filter(pk__in=ids, is_active=True), key=lambda u: u.username.lower()
    )
    hidden = set(
        Privacy.objects.filter(user_id__in=ids, show_table=False).values_list("user_id", flat=True)
    )
    tables = live_tables_of([u.pk for u in users if u.pk not in hidden])
    online = online_among([u.pk for u in users])
    labels = dict(Mode.choices)
    return [
        Friend(
            user=u,
            online=u.pk in online or u.pk in tables,
            table_mode=tables.get(u.pk),
            table_mode_label=str(labels[tables[u.pk]]) if u.pk in tables else None,
        )
        for u in users
    ]


# --- Following a friend to their table (docs/watching.md, "Pages") -----------------


def may_watch(user: Any, table_id: int) -> bool:
    """Whether `user` may watch the table now, not being seated there: the table is
    open to them (`table_access`) and no rule refuses them (`watch_refusal`)."""
    access = games.table_access(user=user, table_id=table_id)
    if access is None or access.position is not None:
        return False
    return games.watch_refusal(user=user, table=access.table) is None


def friends_to_watch(user: Any, friends: list[Friend]) -> set[int]:
    """Of these friends (`friends_with_presence`, who already leaves out the table of
    a friend keeping it to themselves), the ids of those at a table `user` may watch
    now. A few queries for each friend at a table, none for the others."""
    at_tables = games.live_table_ids_of(
        [friend.user.pk for friend in friends if friend.table_mode is not None]
    )
    return {user_id for user_id, table_id in at_tables.items() if may_watch(user, table_id)}


@dataclass(frozen=True)
class FollowTarget:
    """Where following `name` leads `user`: the table to watch (`table_id`), or why
    not (`reason`): "not_friend" (also an unknown or malformed name), "hidden" (they
    keep their table to themselves), "not_playing", "closed" (a table nobody may
    watch: practice, the daily deal, a private room), "forbidden" (its players
    forbade watchers), "playing_elsewhere" (the user plays a match of their own).
    `seated`: the user sits at that table themselves."""

    name: str
    table_id: int | None = None
    reason: str | None = None
    seated: bool = False


def follow_target(*, user: Any, username: str) -> FollowTarget:
    friend = player_named(username)
    if friend is None or friend.pk == user.pk or not are_friends(user.pk, friend.pk):
        return FollowTarget(name=username, reason="not_friend")
    name = friend.username
    if not privacy_of(friend.pk).show_table:
        return FollowTarget(name=name, reason="hidden")
    table_id = games.live_table_ids_of([friend.pk]).get(friend.pk)
    if table_id is None:
        return FollowTarget(name=name, reason="not_playing")
    access = games.table_access(user=user, table_id=table_id)
    if access is None:
        return FollowTarget(name=name, reason="closed")
    if access.position is not None:
        return FollowTarget(name=name, table_id=table_id, seated=True)
    refusal = games.watch_refusal(user=user, table=access.table)
    if refusal is not None:
        return FollowTarget(name=name, reason=refusal)
    return FollowTarget(name=name, table_id=table_id)


# --- Partners (docs/social.md, "Partners") -----------------------------------------


def _of(user_id: int) -> Q:
    return Q(user_low_id=user_id) | Q(user_high_id=user_id)


def standing_partnership(a: int, b: int) -> Partnership | None:
    """The standing (not dissolved) pair of these two players, if any."""
    low, high = sorted((a, b))
    return Partnership.objects.filter(
        user_low_id=low, user_high_id=high, dissolved_at__isnull=True
    ).first()


def partner_ids(user_id: int) -> set[int]:
    """The player's partners in standing pairs."""
    rows = Partnership.objects.filter(_of(user_id), dissolved_at__isnull=True)
    return {row.other_id(user_id) for row in rows.only("user_low_id", "user_high_id")}


def partnerships_of(user_id: int, *, standing: bool | None = None) -> list[Partnership]:
    """The player's pairs (standing ones first, newest first), both players loaded;
    `standing` True or False keeps only those."""
    rows = Partnership.objects.filter(_of(user_id)).select_related("user_low", "user_high")
    if standing is not None:
        rows = rows.filter(dissolved_at__isnull=standing)
    return sorted(
        rows, key=lambda p: (p.dissolved_at is not None, -p.created_at.timestamp(), -p.pk)
    )


def partnership(pair_id: int) -> Partnership | None:
    return Partnership.objects.select_related("user_low", "user_high").filter(pk=pair_id).first()


def incoming_partner_requests(user_id: int) -> list[PartnerRequest]:
    return list(
        PartnerRequest.objects.filter(to_user_id=user_id)
        .select_related("from_user")
        .order_by("-created_at", "-pk")
    )


def outgoing_partner_requests(user_id: int) -> list[PartnerRequest]:
    return list(
        PartnerRequest.objects.filter(from_user_id=user_id)
        .select_related("to_user")
        .order_by("-created_at", "-pk")
    )


def partner_marks_of(user_id: int) -> list[PartnerMark]:
    """The player's marks by the marked player's name."""
    return list(
        PartnerMark.objects.filter(user_id=user_id)
        .select_related("other")
        .order_by("kind", "other__username")
    )


@dataclass(frozen=True)
class PartnerMarks:
    """The marks among a set of players, as the queue reads them: (marker, marked)."""

    prefer: frozenset[tuple[int, int]]
    avoid: frozenset[tuple[int, int]]


def partner_marks_among(user_ids: Iterable[int]) -> PartnerMarks:
    """Every mark one of these players made on another of them (one query)."""
    ids = list(set(user_ids))
    prefer: set[tuple[int, int]] = set()
    avoid: set[tuple[int, int]] = set()
    rows = PartnerMark.objects.filter(user_id__in=ids, other_id__in=ids).values_list(
        "user_id", "other_id", "kind"
    )
    for user_id, other_id, kind in rows:
        (prefer if kind == PartnerMarkKind.PREFER else avoid).add((user_id, other_id))
    return PartnerMarks(prefer=frozenset(prefer), avoid=frozenset(avoid))


def standing_partnerships() -> list[Partnership]:
    """Every standing pair, both players loaded (the pair leaderboard ranks them)."""
    return list(
        Partnership.objects.filter(
            dissolved_at__isnull=True, user_low__is_active=True, user_high__is_active=True
        ).select_related("user_low", "user_high")
    )


def friends_to_ask(user_id: int) -> list[str]:
    """The usernames of the player's friends not already their partner, by name (the
    partners page's choice)."""
    names = User.objects.filter(pk__in=friend_ids(user_id), is_active=True).exclude(
        pk__in=partner_ids(user_id)
    )
    return sorted(names.values_list("username", flat=True), key=str.lower)


def friends_of_many(user_ids: Iterable[int]) -> dict[int, set[int]]:
    """Each of `user_ids` with their friends' ids (one query)."""
    ids = set(user_ids)
    found: dict[int, set[int]] = {user_id: set() for user_id in ids}
    for low, high in Friendship.objects.filter(
        Q(user_low_id__in=ids) | Q(user_high_id__in=ids)
    ).values_list("user_low_id", "user_high_id"):
        if low in ids:
            found[low].add(high)
        if high in ids:
            found[high].add(low)
    return found


def tables_hidden(user_ids: Iterable[int]) -> set[int]:
    """Those of `user_ids` who turned off "friends see where you are playing"."""
    return set(
        Privacy.objects.filter(user_id__in=set(user_ids), show_table=False).values_list(
            "user_id", flat=True
        )
    )
