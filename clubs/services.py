"""The only writers of clubs (docs/clubs.md).

Each public function is one transaction, keyword-only. Lock order, always: the
club's row first (every change to a club queues behind it: two accepts of one
request, a leave racing a removal), then the users' rows concerned in primary-key
order (a player's count of clubs holds under concurrency). Lobby notices go out on
commit (games' `user_notify`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from accounts.selectors import ban_in_force
from clubs import errors, validators
from clubs.models import (
    Admission,
    Announcement,
    Club,
    ClubTable,
    JoinRequest,
    Membership,
    Role,
)
from games import services as games
from games.models import RuleSetName, Table
from social.selectors import player_named

ADMINS = (Role.OWNER, Role.ADMIN)


def _lock_users(*user_ids: int) -> None:
    list(User.objects.select_for_update().filter(pk__in=sorted(set(user_ids))).order_by("pk"))


def _lock_club(club_id: Any, *, open_only: bool = True) -> Club:
    try:
        pk = int(club_id)
    except (TypeError, ValueError):
        raise errors.ClubNotFound() from None
    if not 0 < pk < 2**63:
        raise errors.ClubNotFound()
    club = Club.objects.select_for_update().filter(pk=pk).first()
    if club is None:
        raise errors.ClubNotFound()
    if open_only and club.closed_at is not None:
        raise errors.ClubClosed()
    return club


def _may_take_part(user: User) -> None:
    if not user.is_active or ban_in_force(user.pk) is not None:
        raise errors.Banned()


def _check_cap(user_id: int) -> None:
    held = Membership.objects.filter(user_id=user_id, club__closed_at__isnull=True).count()
    if held >= settings.CLUBS_PER_PLAYER_MAX:
        raise errors.TooManyClubs()


def _member(club: Club, user_id: int) -> Membership | None:
    return Membership.objects.select_for_update().filter(club=club, user_id=user_id).first()


def _admin(club: Club, user: User) -> Membership:
    membership = _member(club, user.pk)
    if membership is None or membership.role not in ADMINS:
        raise errors.NotAdmin()
    return membership


def club_admin_lock(*, club_id: Any, user: User) -> Club:
    """For the apps above that act for a club (a club tournament): the open club's row
    locked until the caller's transaction ends, the club's lock order first, and the
    user's membership checked as owner or admin. ClubNotFound, ClubClosed, NotAdmin."""
    club = _lock_club(club_id)
    _admin(club, user)
    return club


def _checked(clean: Any, value: Any, error: type[errors.ClubError]) -> Any:
    try:
        return clean(value)
    except ValidationError as refusal:
        raise error(" ".join(str(m) for m in refusal.messages)) from None


def _settings(language: str, admission: str) -> None:
    if language not in dict(settings.LANGUAGES):
        raise errors.InvalidClub()
    if admission not in Admission.values:
        raise errors.InvalidClub()


def _tell_admins(club: Club) -> None:
    """After commit, the admins' open club pages and lobbies reload their region."""
    for user_id in Membership.objects.filter(club=club, role__in=ADMINS).values_list(
        "user_id", flat=True
    ):
        games.user_notify(user_id=user_id, what="clubs")


def _add_member(club: Club, user_id: int, role: str = Role.MEMBER) -> Membership:
    membership = Membership.objects.create(club=club, user_id=user_id, role=role)
    club.members_count = Membership.objects.filter(club=club).count()
    club.save(update_fields=["members_count"])
    return membership


def _drop_member(club: Club, membership: Membership) -> None:
    membership.delete()
    club.members_count = Membership.objects.filter(club=club).count()
    club.save(update_fields=["members_count"])


# --- creating, settings, closing ----------------------------------------------------


@transaction.atomic
def club_create(*, user: User, name: str, description: str, language: str, admission: str) -> Club:
    """A new open club with `user` its owner. Refused: a suspended player, a name or
    description the rules refuse (validators), a name taken or looking like an open
    club's (also when two create it at once: the constraint on `name_key`), a
    player at their CLUBS_PER_PLAYER_MAX."""
    _may_take_part(user)
    name = _checked(validators.clean_club_name, name, errors.InvalidClub)
    description = _checked(validators.clean_description, description, errors.InvalidClub)
    _settings(language, admission)
    key = validators.club_name_key(name)
    _lock_users(user.pk)
    _check_cap(user.pk)
    if Club.objects.filter(name_key=key, closed_at__isnull=True).exists():
        raise errors.NameTaken()
    try:
        with transaction.atomic():  # a savepoint: the race's loser gets NameTaken
            club = Club.objects.create(
                name=name,
                name_key=key,
                description=description,
                language=language,
                admission=admission,
                created_by=user,
            )
    except IntegrityError:
        raise errors.NameTaken() from None
    _add_member(club, user.pk, Role.OWNER)
    return club


@transaction.atomic
def club_update(
    *, user: User, club_id: Any, description: str, language: str, admission: str
) -> Club:
    """An admin changes the description, language or admission. Turning a club open
    leaves its pending requests for the admins to answer."""
    club = _lock_club(club_id)
    _admin(club, user)
    club.description = _checked(validators.clean_description, description, errors.InvalidClub)
    _settings(language, admission)
    club.language, club.admission = language, admission
    club.save(update_fields=["description", "language", "admission"])
    return club


def _close(club: Club) -> None:
    club.closed_at = timezone.now()
    club.save(update_fields=["closed_at"])
    JoinRequest.objects.filter(club=club).delete()


@transaction.atomic
def club_close(*, user: User, club_id: Any) -> Club:
    """The owner (or staff) closes the club: its name is free again, its requests
    dropped; memberships and history stay for staff to read."""
    club = _lock_club(club_id)
    if not user.is_staff:
        membership = _member(club, user.pk)
        if membership is None or membership.role != Role.OWNER:
            raise errors.NotOwner()
    _close(club)
    return club


# --- joining ------------------------------------------------------------------------


@transaction.atomic
def club_join(*, user: User, club_id: Any) -> Membership | JoinRequest:
    """Joins an open club (a Membership) or asks to join one by request (a
    JoinRequest the admins answer). Refused: a closed or unknown club, a member
    already, a request already sent, a suspended player, a player at their cap."""
    _may_take_part(user)
    club = _lock_club(club_id)
    _lock_users(user.pk)
    if _member(club, user.pk) is not None:
        raise errors.AlreadyMember()
    _check_cap(user.pk)
    if club.admission == Admission.OPEN:
        JoinRequest.objects.filter(club=club, user=user).delete()
        return _add_member(club, user.pk)
    if JoinRequest.objects.filter(club=club, user=user).exists():
        raise errors.AlreadyRequested()
    _tell_admins(club)
    return JoinRequest.objects.create(club=club, user=user)


@transaction.atomic
def request_cancel(*, user: User, club_id: Any) -> None:
    club = _lock_club(club_id, open_only=False)
    deleted, _ = JoinRequest.objects.filter(club=club, user=user).delete()
    if not deleted:
        raise errors.RequestNotFound()
    _tell_admins(club)


def _request_locked(user: User, request_id: Any) -> tuple[Club, Membership, JoinRequest]:
    try:
        pk = int(request_id)
    except (TypeError, ValueError):
        raise errors.RequestNotFound() from None
    club_id = JoinRequest.objects.filter(pk=pk).values_list("club_id", flat=True).first()
    if club_id is None:
        raise errors.RequestNotFound()
    club = _lock_club(club_id)
    admin = _admin(club, user)
    request = JoinRequest.objects.select_for_update().filter(pk=pk, club=club).first()
    if request is None:  # answered meanwhile
        raise errors.RequestNotFound()
    return club, admin, request


@transaction.atomic
def request_accept(*, user: User, request_id: Any) -> Membership:
    """An admin accepts a request: the player becomes a member. Accepted twice (two
    admins at once), the second finds the request gone (RequestNotFound)."""
    club, _, request = _request_locked(user, request_id)
    _lock_users(request.user_id)
    request.delete()
    if _member(club, request.user_id) is not None:
        raise errors.AlreadyMember()
    _check_cap(request.user_id)
    membership = _add_member(club, request.user_id)
    games.user_notify(user_id=request.user_id, what="clubs")
    _tell_admins(club)
    return membership


@transaction.atomic
def request_decline(*, user: User, request_id: Any) -> None:
    club, _, request = _request_locked(user, request_id)
    request.delete()
    _tell_admins(club)


# --- leaving, removing, roles -------------------------------------------------------


def _successor(club: Club) -> Membership | None:
    """Who owns the club when its owner leaves: the oldest admin, else the oldest
    member (by the day they joined, then who joined first)."""
    return (
        Membership.objects.select_for_update()
        .filter(club=club)
        .exclude(role=Role.OWNER)
        .order_by(
            # admins first
            "role",
            "joined_at",
            "pk",
        )
        .first()
    )


@transaction.atomic
def club_leave(*, user: User, club_id: Any) -> Club:
    """Leaves the club. The owner leaving passes ownership to the oldest admin, else
    the oldest member; the last member leaving closes the club. (`role` orders
    "admin" before "member": the successor query relies on it.)"""
    club = _lock_club(club_id)
    membership = _member(club, user.pk)
    if membership is None:
        raise errors.NotMember()
    was_owner = membership.role == Role.OWNER
    _drop_member(club, membership)
    if was_owner:
        successor = _successor(club)
        if successor is None:
            _close(club)
        else:
            successor.role = Role.OWNER
            successor.save(update_fields=["role"])
            games.user_notify(user_id=successor.user_id, what="clubs")
    return club


def _target(club: Club, username: str) -> Membership:
    player = player_named(username)
    membership = _member(club, player.pk) if player is not None else None
    if membership is None:
        raise errors.MemberNotFound()
    return membership


@transaction.atomic
def member_remove(*, user: User, club_id: Any, username: str) -> None:
    """An admin removes a member; only the owner removes an admin; nobody removes the
    owner (OwnerStays). Yourself: leave instead (NotAdmin is not said then)."""
    club = _lock_club(club_id)
    admin = _admin(club, user)
    target = _target(club, username)
    if target.role == Role.OWNER:
        raise errors.OwnerStays()
    if target.user_id == user.pk:
        raise errors.ClubError()
    if target.role == Role.ADMIN and admin.role != Role.OWNER:
        raise errors.NotOwner()
    _drop_member(club, target)
    games.user_notify(user_id=target.user_id, what="clubs")


@transaction.atomic
def member_set_role(*, user: User, club_id: Any, username: str, role: str) -> Membership:
    """The owner makes a member an admin or an admin a member again."""
    if role not in (Role.ADMIN, Role.MEMBER):
        raise errors.ClubError()
    club = _lock_club(club_id)
    owner = _member(club, user.pk)
    if owner is None or owner.role != Role.OWNER:
        raise errors.NotOwner()
    target = _target(club, username)
    if target.role == Role.OWNER:
        raise errors.OwnerStays()
    target.role = role
    target.save(update_fields=["role"])
    return target


def _heir(club: Club, username: str) -> Membership:
    """The member `username` names, locked: an active player (social's `player_named`),
    or else a member under exactly that name whose account is closed (said as such,
    CannotOwn, rather than as no member)."""
    player = player_named(username)
    if player is not None:
        membership = _member(club, player.pk)
    else:
        name = (username or "").strip()[:150]
        membership = (
            Membership.objects.select_for_update(of=("self",))
            .filter(club=club, user__username__iexact=name)
            .first()
            if name and "\x00" not in name
            else None
        )
        if membership is not None:
            raise errors.CannotOwn()
    if membership is None:
        raise errors.MemberNotFound()
    return membership


@transaction.atomic
def club_transfer(*, user: User, club_id: Any, username: str) -> Membership:
    """The owner hands the club to a member of their choice, who becomes its owner;
    the old owner stays as an admin. Under the club's lock, so the member must still
    be one at the moment of the write (a leave or a removal racing it is either
    before, and the transfer is refused, or after). Refused: not the owner
    (NotOwner), yourself (AlreadyOwner), a player who is not a member
    (MemberNotFound), a member whose account is suspended or closed (CannotOwn)."""
    club = _lock_club(club_id)
    owner = _member(club, user.pk)
    if owner is None or owner.role != Role.OWNER:
        raise errors.NotOwner()
    heir = _heir(club, username)
    if heir.user_id == user.pk:
        raise errors.AlreadyOwner()
    _lock_users(heir.user_id)
    if not User.objects.filter(pk=heir.user_id, is_active=True).exists() or (
        ban_in_force(heir.user_id) is not None
    ):
        raise errors.CannotOwn()
    # One owner a club (a constraint checked at each statement): the old owner first.
    owner.role = Role.ADMIN
    owner.save(update_fields=["role"])
    heir.role = Role.OWNER
    heir.save(update_fields=["role"])
    games.user_notify(user_id=heir.user_id, what="clubs")
    _tell_admins(club)
    return heir


# --- announcements ------------------------------------------------------------------


@transaction.atomic
def announcement_post(*, user: User, club_id: Any, text: str) -> Announcement:
    club = _lock_club(club_id)
    _admin(club, user)
    text = _checked(validators.clean_announcement, text, errors.InvalidAnnouncement)
    return Announcement.objects.create(club=club, author=user, text=text)


@transaction.atomic
def announcement_delete(*, user: User, announcement_id: Any) -> None:
    try:
        pk = int(announcement_id)
    except (TypeError, ValueError):
        raise errors.ClubError() from None
    club_id = Announcement.objects.filter(pk=pk).values_list("club_id", flat=True).first()
    if club_id is None:
        raise errors.ClubError()
    club = _lock_club(club_id, open_only=False)
    if not user.is_staff:
        _admin(club, user)
    Announcement.objects.filter(pk=pk).delete()


# --- club tables --------------------------------------------------------------------


@transaction.atomic
def club_table_open(*, user: User, club_id: Any, rules: str = RuleSetName.ONLINE) -> Table:
    """An admin opens a club table: a friends room (games) with the admin in seat 0,
    to which only the club's members may be invited (the games hook
    `invitation_refusal`, clubs.selectors). Games' refusals pass through (the admin
    at another table: AlreadyAtTable; an unknown rule set: InvalidChoice)."""
    club = _lock_club(club_id)
    _admin(club, user)
    table = games.table_create_friends(user=user, rules=rules)
    ClubTable.objects.create(club=club, table=table, opened_by=user)
    return table


@transaction.atomic
def club_table_invite(*, user: User, club_id: Any, table_id: Any, username: str) -> Any:
    """Invites a member to the club table the admin opened (games' invitation)."""
    club = _lock_club(club_id)
    _admin(club, user)
    target = _target(club, username)
    if not ClubTable.objects.filter(club=club, table_id=table_id, opened_by=user).exists():
        raise errors.ClubError()
    return games.invitation_create(user=user, table_id=int(table_id), username=target.user.username)
