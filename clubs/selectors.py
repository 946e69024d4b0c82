"""Reads of clubs, shaped for the pages (a fixed number of queries whatever the
club's size: tests/clubs/test_queries.py). Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.core.paginator import Page, Paginator
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import (
    Announcement,
    Club,
    ClubMatch,
    ClubTable,
    JoinRequest,
    Membership,
    Role,
)
from games.fanout.presence import online_among
from games.hooks import link
from games.models import LIVE_STATUSES, MatchSeat, Mode, TableStatus
from games.selectors import live_tables_of
from ratings.selectors import NEW_VALUE

#: Members shown a page (the club page and the members' management page).
MEMBERS_PAGE = 50
#: Clubs listed a page.
CLUBS_PAGE = 30
#: The club page's leaderboard, recent matches and announcements.
BOARD_SIZE = 10
RECENT_MATCHES = 10
ANNOUNCEMENTS_SHOWN = 5

_ROLE_ORDER = Case(
    When(role=Role.OWNER, then=Value(0)),
    When(role=Role.ADMIN, then=Value(1)),
    default=Value(2),
    output_field=IntegerField(),
)


def _rating() -> Any:
    """A member's rating: a LEFT JOIN of ratings (one row a player at most), the
    starting rating for a player without a rated match."""
    return Coalesce(F("user__rating__value"), Value(NEW_VALUE))


def club_by_id(club_id: int | str | None) -> Club | None:
    """The club (open or closed), None for an id that names none (any junk)."""
    try:
        pk = int(club_id)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if not 0 < pk < 2**63:
        return None
    return Club.objects.filter(pk=pk).first()


def membership_of(club_id: int, user_id: int | None) -> Membership | None:
    if user_id is None:
        return None
    return Membership.objects.filter(club_id=club_id, user_id=user_id).first()


def is_admin(membership: Membership | None) -> bool:
    return membership is not None and membership.role in (Role.OWNER, Role.ADMIN)


def clubs_list(*, query: str = "", language: str = "") -> Any:
    """Open clubs whose name holds `query` (any letter case) in `language` (any when
    empty), the biggest first: a queryset for a paginator."""
    clubs = Club.objects.filter(closed_at__isnull=True)
    if query:
        clubs = clubs.filter(name__icontains=query)
    if language:
        clubs = clubs.filter(language=language)
    return clubs.order_by("-members_count", "name", "pk")


def clubs_of(user_id: int) -> list[Membership]:
    """A player's open clubs with their role, by name (one query)."""
    return list(
        Membership.objects.filter(user_id=user_id, club__closed_at__isnull=True)
        .select_related("club")
        .order_by("club__name", "club_id")
    )


def requested_by(user_id: int) -> set[int]:
    """The clubs this player asked to join (pending)."""
    return set(JoinRequest.objects.filter(user_id=user_id).values_list("club_id", flat=True))


def join_requests(club_id: int) -> list[JoinRequest]:
    return list(
        JoinRequest.objects.filter(club_id=club_id)
        .select_related("user")
        .order_by("created_at", "pk")
    )


def join_requests_count(club_id: int) -> int:
    return JoinRequest.objects.filter(club_id=club_id).count()


def pending_for_admin(user_id: int) -> list[tuple[Club, int]]:
    """The open clubs `user_id` administers that have requests waiting, with how many
    (for the lobby: two queries)."""
    clubs = {
        m.club_id: m.club
        for m in Membership.objects.filter(
            user_id=user_id, role__in=(Role.OWNER, Role.ADMIN), club__closed_at__isnull=True
        ).select_related("club")
    }
    if not clubs:
        return []
    counts: dict[int, int] = {}
    for club_id in JoinRequest.objects.filter(club_id__in=clubs).values_list("club_id", flat=True):
        counts[club_id] = counts.get(club_id, 0) + 1
    return [(clubs[club_id], n) for club_id, n in sorted(counts.items())]


# --- the club page ------------------------------------------------------------------


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    username: str
    url: str
    role: str
    role_label: str
    rating: int
    online: bool
    table_mode_label: str | None  # the kind of table they sit at now, if any


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    username: str
    url: str
    rating: int


@dataclass(frozen=True)
class RecentMatch:
    match_id: int
    finished_at: Any
    pair_a: list[str | None]  # seats 0 and 2; None for a bot
    pair_b: list[str | None]  # seats 1 and 3
    score_a: int
    score_b: int
    url: str | None


def _profile_urls() -> Any:
    """The address of a player's page, from one `reverse` (not one a row)."""
    head, _, tail = reverse("profile", args=["_"]).rpartition("_")
    return lambda username: head + quote(username) + tail


def members_page(club_id: int, number: int, *, count: int | None = None) -> Page[Any]:
    """One page of the club's members (owner, admins, then members by name), each a
    `MemberRow` with rating and online status: a fixed number of queries and one look
    at the open sockets, whatever the club's size. InvalidPage for a page the club
    has not (the view answers 404)."""
    rows: Any = (
        Membership.objects.filter(club_id=club_id)
        .annotate(order=_ROLE_ORDER, rating=_rating())
        .order_by("order", "user__username", "user_id")
        .values_list("user_id", "user__username", "role", "rating")
    )
    paginator = Paginator(rows, MEMBERS_PAGE)
    if count is not None:  # the club's own count (Club.members_count): no COUNT query
        paginator.count = count
    page = paginator.page(number)
    listed = list(page.object_list)
    ids = [row[0] for row in listed]
    online = online_among(ids)
    tables = live_tables_of(ids)
    roles = dict(Role.choices)
    modes = dict(Mode.choices)
    url = _profile_urls()
    page.object_list = [
        MemberRow(
            user_id=user_id,
            username=username,
            url=url(username),
            role=role,
            role_label=str(roles[role]),
            rating=rating,
            online=user_id in online or user_id in tables,
            table_mode_label=str(modes[tables[user_id]]) if user_id in tables else None,
        )
        for user_id, username, role, rating in listed
    ]
    return page


def leaderboard(club_id: int, size: int = BOARD_SIZE) -> list[BoardRow]:
    """The club's members by rating (a player without a rated match at the starting
    rating); equal ratings share a rank. One query."""
    rows = list(
        Membership.objects.filter(club_id=club_id)
        .annotate(rating=_rating())
        .order_by("-rating", "user__username", "user_id")
        .values_list("user_id", "user__username", "rating")[:size]
    )
    board: list[BoardRow] = []
    url = _profile_urls()
    for index, (user_id, username, rating) in enumerate(rows):
        rank = board[-1].rank if board and board[-1].rating == rating else index + 1
        board.append(BoardRow(rank, user_id, username, url(username), rating))
    return board


def recent_matches(club_id: int, size: int = RECENT_MATCHES) -> list[RecentMatch]:
    """The latest finished matches two members or more played together (two
    queries)."""
    found = list(
        ClubMatch.objects.filter(club_id=club_id)
        .order_by("-finished_at", "-match_id")
        .values_list("match_id", "finished_at", "match__score_a", "match__score_b")[:size]
    )
    if not found:
        return []
    ids = [row[0] for row in found]
    seats: dict[int, list[str | None]] = {match_id: [None] * 4 for match_id in ids}
    for match_id, position, username in MatchSeat.objects.filter(match_id__in=ids).values_list(
        "match_id", "position", "user__username"
    ):
        if 0 <= position < 4:
            seats[match_id][position] = username
    return [
        RecentMatch(
            match_id=match_id,
            finished_at=finished_at,
            pair_a=seats[match_id][0::2],
            pair_b=seats[match_id][1::2],
            score_a=score_a,
            score_b=score_b,
            url=link("match_page", match_id),
        )
        for match_id, finished_at, score_a, score_b in found
    ]


def announcements(club_id: int, size: int = ANNOUNCEMENTS_SHOWN) -> list[Announcement]:
    return list(
        Announcement.objects.filter(club_id=club_id)
        .select_related("author")
        .order_by("-created_at", "-pk")[:size]
    )


def open_tables(club_id: int) -> list[ClubTable]:
    """The club's tables still filling or in play, newest first."""
    return list(
        ClubTable.objects.filter(club_id=club_id, table__status__in=LIVE_STATUSES)
        .select_related("table", "opened_by")
        .order_by("-created_at")
    )


# --- games asks (games.hooks.register_invitation_rule) ------------------------------


def invitation_refusal(table_id: int, user_id: int) -> Any:
    """A club's table takes its members only (one query for any room)."""
    row = (
        ClubTable.objects.filter(table_id=table_id)
        .values_list("club_id", "club__closed_at")
        .first()
    )
    if row is None:
        return None
    club_id, closed_at = row
    if closed_at is not None:
        return _("This club is closed.")
    if not Membership.objects.filter(club_id=club_id, user_id=user_id).exists():
        return _("Only the club's members may sit at a club table.")
    return None


def open_club_table_of(user_id: int) -> ClubTable | None:
    """The club table this player opened and is still filling, if any."""
    return (
        ClubTable.objects.filter(opened_by_id=user_id, table__status=TableStatus.OPEN)
        .select_related("table", "club")
        .first()
    )


def member_ids_among(club_id: int, user_ids: list[int]) -> set[int]:
    return set(
        Membership.objects.filter(club_id=club_id, user_id__in=user_ids).values_list(
            "user_id", flat=True
        )
    )


def clubs_with_members(user_ids: list[int]) -> list[int]:
    """The open clubs two or more of these players belong to (one query)."""
    seen: dict[int, int] = {}
    for club_id in Membership.objects.filter(
        Q(user_id__in=user_ids), club__closed_at__isnull=True
    ).values_list("club_id", flat=True):
        seen[club_id] = seen.get(club_id, 0) + 1
    return sorted(club_id for club_id, n in seen.items() if n >= 2)


def heirs(club_id: int) -> list[tuple[str, str]]:
    """Whom the owner may hand the club to: every other member of an active account,
    (username, role), the admins first, then by name (one query; the transfer form's
    list)."""
    return list(
        Membership.objects.filter(club_id=club_id, user__is_active=True)
        .exclude(role=Role.OWNER)
        .annotate(order=_ROLE_ORDER)
        .order_by("order", "user__username", "user_id")
        .values_list("user__username", "role")
    )


def membership_named(club_id: int, username: str) -> Membership | None:
    """The club's membership of the player named exactly `username` (any letter case),
    with its user (the transfer's confirmation)."""
    name = (username or "").strip()
    if not name or len(name) > 150 or "\x00" in name:
        return None
    return (
        Membership.objects.filter(club_id=club_id, user__username__iexact=name)
        .select_related("user")
        .first()
    )
