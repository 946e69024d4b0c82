"""Domain errors of clubs (ops.domain's shape). `message` is safe to show; none of
them half-writes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ops.domain import DomainError


class ClubError(DomainError):
    code = "club_error"
    default_message: Any = _("That cannot be done now.")


class ClubNotFound(ClubError):
    code = "club_not_found"
    default_message = _("There is no such club.")


class ClubClosed(ClubError):
    code = "club_closed"
    default_message = _("This club is closed.")


class NameTaken(ClubError):
    code = "club_name_taken"
    default_message = _("A club with this name, or one that looks like it, already exists.")


class InvalidClub(ClubError):
    """A name, description, language or admission the rules refuse (the message says
    which rule)."""

    code = "invalid_club"
    default_message = _("Check the club's details.")


class InvalidAnnouncement(ClubError):
    code = "invalid_announcement"
    default_message = _("Write an announcement of at most 500 characters, without links.")


class AlreadyMember(ClubError):
    code = "already_member"
    default_message = _("You are already a member of this club.")


class AlreadyRequested(ClubError):
    code = "club_already_requested"
    default_message = _("You have already asked to join this club.")


class NotMember(ClubError):
    code = "not_member"
    default_message = _("You are not a member of this club.")


class MemberNotFound(ClubError):
    code = "member_not_found"
    default_message = _("This player is not a member of the club.")


class RequestNotFound(ClubError):
    code = "club_request_not_found"
    default_message = _("There is no such request: it may have been answered already.")


class NotAdmin(ClubError):
    code = "not_club_admin"
    default_message = _("Only the club's admins may do this.")


class NotOwner(ClubError):
    code = "not_club_owner"
    default_message = _("Only the club's owner may do this.")


class OwnerStays(ClubError):
    code = "owner_stays"
    default_message = _("The club's owner cannot be removed or demoted.")


class AlreadyOwner(ClubError):
    code = "already_club_owner"
    default_message = _("You already own this club: choose another member.")


class CannotOwn(ClubError):
    code = "cannot_own_club"
    default_message = _("This member's account is suspended or closed: they cannot own the club.")


class Banned(ClubError):
    code = "club_banned"
    default_message = _("Your account is suspended: you cannot join or create clubs.")


class TooManyClubs(ClubError):
    code = "too_many_clubs"

    @property
    def message(self) -> str:
        limit = settings.CLUBS_PER_PLAYER_MAX
        return str(
            ngettext(
                "You cannot belong to more than %(limit)d club: leave one first.",
                "You cannot belong to more than %(limit)d clubs: leave one first.",
                limit,
            )
            % {"limit": limit}
        )
