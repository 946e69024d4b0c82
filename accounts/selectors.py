from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import (
    BooleanField,
    Count,
    DateTimeField,
    ExpressionWrapper,
    Max,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Lower
from django.utils import timezone
from psycopg.types.numeric import Int8

from accounts.models import Ban, SignIn, User
from ops.sql import run_prepared


def active_users_named(username: str) -> QuerySet[User]:
    """The active user with this username in any letter case (none or one): compared
    as LOWER(username), so the case-insensitive unique index finds it (`iexact`
    compares UPPER() and scans the whole table)."""
    return User.objects.alias(username_lower=Lower("username")).filter(
        username_lower=username.lower(), is_active=True
    )


def active_user_named(username: str) -> User | None:
    """The active user with this username in any letter case, or None (the view
    answers 404)."""
    return active_users_named(username).first()


def ban_in_force(user_id: int, at: datetime | None = None) -> Ban | None:
    """The ban keeping this user out right now, if any (the services keep at most one).

    Asked on every logged-in request (BannedUserMiddleware): almost always there is
    none, so a plain SQL probe (the same conditions) comes first and the ban is only
    loaded when one is in force."""
    at = at or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {Ban._meta.db_table} WHERE user_id = %s AND lifted_at IS NULL "
            'AND ("until" IS NULL OR "until" > %s) LIMIT 1',
            [user_id, connection.ops.adapt_datetimefield_value(at)],
        )
        if cursor.fetchone() is None:
            return None
    return Ban.objects.active(at).filter(user_id=user_id).order_by("-created_at", "-pk").first()


# --- linked accounts (docs/moderation.md, "Linked accounts") ---------------------------


def _link_cutoffs(now: datetime | None) -> tuple[datetime, datetime]:
    """The oldest sign-in kept (SIGN_IN_KEEP_DAYS; the nightly prune may not have run
    yet) and the oldest whose network still links (LINKED_NETWORK_DAYS)."""
    now = now or timezone.now()
    return (
        now - timedelta(days=settings.SIGN_IN_KEEP_DAYS),
        now - timedelta(days=settings.LINKED_NETWORK_DAYS),
    )


def _sign_in_keys(sign_ins: QuerySet[SignIn], recent: datetime) -> list[tuple[int, str, str, bool]]:
    """The sign-ins' distinct (user, device, network, whether it is `recent`)."""
    rows = (
        sign_ins.annotate(recent=ExpressionWrapper(Q(at__gte=recent), output_field=BooleanField()))
        .order_by()
        .values_list("user_id", "device", "network", "recent")
        .distinct()
    )
    return [(user_id, device, network, bool(fresh)) for user_id, device, network, fresh in rows]


def _shared(sign_ins: QuerySet[SignIn], key: str) -> QuerySet[SignIn]:
    """The values of `key` (device or network) that two or more users' sign-ins share."""
    return (
        sign_ins.order_by()
        .values(key)
        .annotate(users=Count("user_id", distinct=True))
        .filter(users__gt=1)
        .values(key)
    )


def linked_pairs(
    user_ids: Iterable[int], *, now: datetime | None = None
) -> frozenset[frozenset[int]]:
    """Every pair of the given users whose accounts are linked: signed in on the same
    device (any sign-in kept), or both from the same network within the last
    LINKED_NETWORK_DAYS. The queue asks it for its waiting list (up to 400 players)
    and a table for its players. One query: the devices and recent networks two of
    them share are found in the database, and only the sign-ins on those come back,
    each distinct (user, device, network, recent) once (bench/linked_bench.py)."""
    wanted = sorted(set(user_ids))
    if len(wanted) < 2:
        return frozenset()
    kept, recent = _link_cutoffs(now)
    if connection.vendor == "postgresql":
        rows = _shared_sign_ins_prepared(wanted, kept, recent)
    else:
        rows = _shared_sign_ins(wanted, kept, recent)
    by_key: dict[tuple[str, str], set[int]] = defaultdict(set)
    for user_id, device, network, is_recent in rows:
        by_key["device", device].add(user_id)
        if network and is_recent:
            by_key["network", network].add(user_id)
    pairs: set[frozenset[int]] = set()
    for users in by_key.values():
        ordered = sorted(users)
        pairs.update(frozenset((a, b)) for i, a in enumerate(ordered) for b in ordered[i + 1 :])
    return frozenset(pairs)


def _shared_sign_ins(
    wanted: list[int], kept: datetime, recent: datetime
) -> list[tuple[int, str, str, bool]]:
    """The distinct (user, device, network, recent) of the wanted users' kept sign-ins
    on a device, or from a recent network, that two of them share (the ORM's query)."""
    theirs = SignIn.objects.filter(user_id__in=wanted, at__gte=kept)
    recent_networks = theirs.filter(at__gte=recent).exclude(network="")
    shared_devices = _shared(theirs, "device")
    shared_networks = _shared(recent_networks, "network")
    return _sign_in_keys(
        theirs.filter(Q(device__in=shared_devices) | Q(network__in=shared_networks)), recent
    )


# The same query as one prepared statement, for PostgreSQL: every table in play asks
# for its seated players about once a minute (games/frames/live.py), and building the
# ORM's query cost a web process more CPU than running it (a tenth of its time at 500
# tables: docs/benchmarks.md, "Issue 45").
_SHARED_SIGN_INS_SQL = f"""
WITH theirs AS (
    SELECT user_id, device, network, at FROM {SignIn._meta.db_table}
    WHERE user_id = ANY($1) AND at >= $2
)
SELECT DISTINCT user_id, device, network, at >= $3
FROM theirs
WHERE device IN (
        SELECT device FROM theirs GROUP BY device HAVING COUNT(DISTINCT user_id) > 1
    )
    OR network IN (
        SELECT network FROM theirs WHERE at >= $3 AND network <> ''
        GROUP BY network HAVING COUNT(DISTINCT user_id) > 1
    )
"""


def _shared_sign_ins_prepared(
    wanted: list[int], kept: datetime, recent: datetime
) -> list[tuple[int, str, str, bool]]:
    # Plain tuples, `recent` already a boolean: the rows as `_shared_sign_ins` gives them.
    wanted_ids = [Int8(user_id) for user_id in wanted]
    return run_prepared(_SHARED_SIGN_INS_SQL, (wanted_ids, kept, recent)).fetchall()


def accounts_linked(a: int, b: int, *, now: datetime | None = None) -> bool:
    """Whether the accounts of users `a` and `b` are linked (as `linked_pairs` says)."""
    return a != b and frozenset((a, b)) in linked_pairs((a, b), now=now)


@dataclass(frozen=True)
class Link:
    """Another account linked to a user's: the latest sign-in of that account on a
    device the user signed in on (`device_at`), and from a network the user signed in
    from, both within the last LINKED_NETWORK_DAYS (`network_at`); None where they
    share none."""

    user_id: int
    username: str
    device_at: datetime | None
    network_at: datetime | None


def linked_accounts(user_id: int, *, now: datetime | None = None) -> list[Link]:
    """The accounts linked to `user_id`'s, the latest link first. Two queries: the
    user's own devices and recent networks, then the other accounts' sign-ins there
    (the device and network indexes)."""
    kept, recent = _link_cutoffs(now)
    devices: set[str] = set()
    networks: set[str] = set()
    for _user, device, network, is_recent in _sign_in_keys(
        SignIn.objects.filter(user_id=user_id, at__gte=kept), recent
    ):
        devices.add(device)
        if network and is_recent:
            networks.add(network)
    if not devices:
        return []
    on_device = Q(device__in=devices)
    on_network = Q(network__in=networks, at__gte=recent)
    others = (
        SignIn.objects.filter(on_device | on_network if networks else on_device)
        .filter(at__gte=kept)
        .exclude(user_id=user_id)
        .values_list("user_id", "user__username")
        .annotate(
            device_at=Max("at", filter=on_device),
            # No recent network of the user's: none shared (an empty IN is not sent).
            network_at=Max("at", filter=on_network)
            if networks
            else Value(None, output_field=DateTimeField()),
        )
    )
    links = [
        Link(other, username, device_at, network_at)
        for other, username, device_at, network_at in others
    ]
    return sorted(links, key=lambda link: _latest(link), reverse=True)


def _latest(link: Link) -> datetime:
    return max(at for at in (link.device_at, link.network_at) if at is not None)
