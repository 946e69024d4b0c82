"""Domain errors of tournaments. `message` is safe to show; none of them half-writes
(ops.domain: a stable `code`, JSON-ready `params`, a translated `message`)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import NotAllowed
from ops.domain import DomainError


class TournamentError(DomainError):
    code = "tournament_error"
    default_message = _("That cannot be done in this tournament now.")


class TournamentNotFound(TournamentError):
    code = "tournament_not_found"
    default_message = _("There is no such tournament.")


class RegistrationClosed(TournamentError):
    code = "registration_closed"
    default_message = _("Registration for this tournament is not open.")


class AlreadyRegistered(TournamentError):
    code = "already_registered"
    default_message = _("You are already registered in this tournament.")


class PartnerAlreadyRegistered(TournamentError):
    code = "partner_already_registered"
    default_message = _("Your partner is already registered in this tournament.")


class PartnerNotAllowed(TournamentError):
    # A block between the two, said without naming who blocked whom (docs/social.md).
    code = "partner_not_allowed"
    default_message = _("You cannot enter this tournament with that partner.")


class PartnerNotFriend(TournamentError):
    code = "partner_not_friend"
    default_message = _("Your partner must be one of your friends.")


class PartnerIsYou(TournamentError):
    code = "partner_is_you"
    default_message = _("Choose a partner other than yourself.")


class PartnerUnknown(TournamentError):
    code = "partner_unknown"
    default_message = _("There is no player of that name.")


class TournamentFull(TournamentError):
    code = "tournament_full"
    default_message = _("This tournament is full.")


class ShortOfCoins(TournamentError):
    code = "short_of_coins"
    default_message = _(
        "You do not have enough coins for the entry fees (yours, and your partner's when you "
        "enter as a pair). Nothing was charged."
    )


class NotRegistered(TournamentError):
    code = "not_registered"
    default_message = _("You are not registered in this tournament.")


class WithdrawAfterStart(TournamentError):
    code = "withdraw_after_start"
    default_message = _("The tournament has started: you can no longer withdraw.")


class RoundAlreadyStarted(TournamentError):
    code = "round_already_started"
    default_message = _("That round has already started.")


class RoundNotDue(TournamentError):
    code = "round_not_due"
    default_message = _("That round cannot start yet: the round before it is still being played.")


class TournamentNotCancellable(TournamentError):
    code = "tournament_not_cancellable"
    default_message = _("This tournament has already finished or was cancelled.")


class BadSchedule(TournamentError):
    code = "bad_schedule"
    default_message = _(
        "Registration must open before it closes, and close before the tournament starts."
    )


class UnsupportedFormat(TournamentError):
    code = "unsupported_format"
    default_message = _("This tournament format cannot be run yet.")


class TournamentTableLeave(NotAllowed):
    code = "tournament_table_leave"
    default_message = _("A tournament table cannot be left before its match.")


class TournamentTableRematch(NotAllowed):
    code = "tournament_table_rematch"
    default_message = _("The tournament seats your next game itself.")


class NotClubMember(TournamentError):
    code = "not_club_member"
    default_message = _("This tournament is for the members of its club only.")


class PartnerNotClubMember(TournamentError):
    code = "partner_not_club_member"
    default_message = _(
        "Your partner is not a member of this tournament's club: both players must be members."
    )


class NotClubAdmin(TournamentError):
    code = "not_club_admin"
    default_message = _("Only the club's owner and admins can schedule its tournaments.")


class TooManyClubTournaments(TournamentError):
    code = "too_many_club_tournaments"
    default_message = _(
        "This club already has as many tournaments to come as it may: wait until one is "
        "played or cancelled."
    )


class InvalidTournament(TournamentError):
    """A club tournament's field out of bounds (the form says it first; the service
    checks again). `params["field"]` names the field."""

    code = "invalid_tournament"
    default_message = _("Check the tournament's details.")
