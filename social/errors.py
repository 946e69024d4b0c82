"""Domain errors of friends and blocks. `message` is safe to show; none of them
half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ops.domain import DomainError


class SocialError(DomainError):
    code = "social_error"
    default_message: Any = _("That cannot be done now.")


class UnknownPlayer(SocialError):
    code = "unknown_player"
    default_message = _("There is no player with that name.")


class NotYourself(SocialError):
    code = "not_yourself"
    default_message = _("That is you.")


class AlreadyFriends(SocialError):
    code = "already_friends"
    default_message = _("You are already friends.")


class AlreadyRequested(SocialError):
    code = "already_requested"
    default_message = _("You have already sent this player a friend request.")


class RequestedYou(SocialError):
    code = "requested_you"
    default_message = _("This player has already sent you a friend request: accept it below.")


class RequestsRefused(SocialError):
    """The player takes no requests from you: their setting, or a block (not said which)."""

    code = "requests_refused"
    default_message = _("This player does not accept friend requests from you.")


class YouBlocked(SocialError):
    code = "you_blocked"
    default_message = _("You have blocked this player: unblock them first.")


class RequestNotFound(SocialError):
    code = "request_not_found"
    default_message = _("There is no such friend request.")


class NotFriends(SocialError):
    code = "not_friends"
    default_message = _("You are not friends with this player.")


class NoRoom(SocialError):
    code = "no_room"
    default_message = _("Create a room with friends first, then invite them from here.")


class AlreadyBlocked(SocialError):
    code = "already_blocked"
    default_message = _("You have already blocked this player.")


class NotBlocked(SocialError):
    code = "not_blocked"
    default_message = _("You have not blocked this player.")


class TooManyBlocks(SocialError):
    code = "too_many_blocks"

    @property
    def message(self) -> str:
        limit = settings.SOCIAL_BLOCKS_MAX
        return str(
            ngettext(
                "You cannot block more than %(limit)d player: unblock someone first.",
                "You cannot block more than %(limit)d players: unblock someone first.",
                limit,
            )
            % {"limit": limit}
        )


# --- Partners (docs/social.md, "Partners") -----------------------------------------


class NotAFriend(SocialError):
    code = "partner_not_friend"
    default_message = _("You may ask only a friend to be your partner.")


class AlreadyPartners(SocialError):
    code = "already_partners"
    default_message = _("You are already partners.")


class PartnerAlreadyRequested(SocialError):
    code = "partner_already_requested"
    default_message = _("You have already asked this player to be your partner.")


class PartnerRequestNotFound(SocialError):
    code = "partner_request_not_found"
    default_message = _("There is no such partner request.")


class PartnersRefused(SocialError):
    """A block either way (not said which)."""

    code = "partners_refused"
    default_message = _("This player cannot be your partner.")


class NotPartners(SocialError):
    code = "not_partners"
    default_message = _("You are not partners with this player.")


class TooManyPartners(SocialError):
    code = "too_many_partners"

    @property
    def message(self) -> str:
        """`yours=False` in the params: the other player is the one at the limit."""
        limit = settings.SOCIAL_PARTNERS_MAX
        if self.params.get("yours", True):
            text = ngettext(
                "You cannot have more than %(limit)d partner: dissolve a pair first.",
                "You cannot have more than %(limit)d partners: dissolve a pair first.",
                limit,
            )
        else:
            text = ngettext(
                "This player already has %(limit)d partner, the most one may have.",
                "This player already has %(limit)d partners, the most one may have.",
                limit,
            )
        return str(text % {"limit": limit})


class TooManyMarks(SocialError):
    code = "too_many_partner_marks"

    @property
    def message(self) -> str:
        limit = settings.SOCIAL_PARTNER_MARKS_MAX
        return str(
            ngettext(
                "You cannot mark more than %(limit)d player: remove a mark first.",
                "You cannot mark more than %(limit)d players: remove a mark first.",
                limit,
            )
            % {"limit": limit}
        )


class NotMarked(SocialError):
    code = "not_marked"
    default_message = _("You have not marked this player.")
