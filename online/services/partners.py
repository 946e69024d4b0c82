"""Queueing with a registered partner (docs/online.md, "Partners in the queue"): a
player invites one of their standing partners (social's pairs), the partner accepts
from the lobby (the lobby socket tells them at once), and both join the queue as one
pair that the matchmaker seats together.

Every refusal is checked at the invitation and again at the answer, the two players'
user rows locked in primary-key order first: a partner who meanwhile sat at a table,
queued alone, was banned, started a wait for abandoning, blocked the other, or whose
pair was dissolved, is refused then.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import User
from accounts.selectors import ban_in_force, linked_pairs
from games.services import user_notify
from notifications import kinds
from notifications.services import notification_send
from online import errors as err
from online import quitting
from online.models import QueueEntry, QueueInvitation
from online.services.seating import already_at_table, at_live_table, now_or
from social.selectors import blocked_between, player_named, standing_partnership


def _lock_users(*user_ids: int) -> None:
    list(User.objects.select_for_update().filter(pk__in=sorted(set(user_ids))).order_by("pk"))


def _tell(user_id: int) -> None:
    """After commit, the user's lobby reloads its invitations (lobby socket)."""
    user_notify(user_id=user_id, what="invitations")


def _own_check(user: User, now: datetime) -> None:
    if at_live_table(user.pk):
        raise already_at_table()
    quitting.wait_check(user=user, now=now)
    if QueueEntry.objects.filter(user=user).exists():
        raise err.AlreadyQueued()


def _partner_check(user: User, partner: User, now: datetime) -> None:
    """Refused as one message (which it is is the partner's business)."""
    if standing_partnership(user.pk, partner.pk) is None:
        raise err.NotYourPartner()
    if (
        not partner.is_active
        or blocked_between(user.pk, partner.pk)
        or linked_pairs([user.pk, partner.pk], now=now)
        or ban_in_force(partner.pk, now)
        or at_live_table(partner.pk)
        or QueueEntry.objects.filter(user=partner).exists()
    ):
        raise err.PartnerUnavailable()
    try:
        quitting.wait_check(user=partner, now=now)
    except err.QueueWait:
        raise err.PartnerUnavailable() from None


@transaction.atomic
def queue_partner_invite(
    *, user: User, username: str, now: datetime | None = None
) -> QueueInvitation:
    """Invites the standing partner `username` names to queue together (replacing the
    user's earlier invitation, if any)."""
    now = now_or(now)
    partner = player_named(username)
    if partner is None or partner.pk == user.pk:
        raise err.NotYourPartner()
    _lock_users(user.pk, partner.pk)
    _own_check(user, now)
    _partner_check(user, partner, now)
    earlier = QueueInvitation.objects.filter(from_user=user).first()
    if earlier is not None:
        earlier.delete()
        if earlier.to_user_id != partner.pk:
            _tell(earlier.to_user_id)
    _tell(partner.pk)
    invitation = QueueInvitation.objects.create(from_user=user, to_user=partner, created_at=now)
    # The bell (and a push): once an invitation. Asking the same partner again while
    # the first is still waiting replaces the row, not the news.
    if earlier is None or earlier.to_user_id != partner.pk:
        notification_send(
            user=partner,
            kind=kinds.PARTNER_INVITATION,
            params={"name": user.username},
            link=reverse("games:lobby"),
            dedup_key=f"queue-invitation:{invitation.pk}",
        )
    return invitation


def _invitation_locked(invitation_id: int, **who: User) -> QueueInvitation:
    found = QueueInvitation.objects.filter(pk=invitation_id, **who).first()
    if found is None:
        raise err.QueueInvitationNotFound()
    _lock_users(found.from_user_id, found.to_user_id)
    invitation = (
        QueueInvitation.objects.select_for_update()
        .select_related("from_user", "to_user")
        .filter(pk=invitation_id, **who)
        .first()
    )
    if invitation is None:  # answered meanwhile
        raise err.QueueInvitationNotFound()
    return invitation


@transaction.atomic
def queue_partner_accept(
    *, user: User, invitation_id: int, now: datetime | None = None
) -> QueueEntry:
    """The invited partner accepts: both join the queue as a pair, now (each row
    naming the other), every invitation either had is dropped, and a matchmaking
    pass runs after commit. Returns `user`'s entry."""
    from online.services.queue import match_after_commit

    now = now_or(now)
    invitation = _invitation_locked(invitation_id, to_user=user)
    inviter = invitation.from_user
    _own_check(user, now)
    try:
        _own_check(inviter, now)
        _partner_check(user, inviter, now)
    except (err.AlreadyAtTable, err.QueueWait, err.AlreadyQueued):
        raise err.PartnerUnavailable() from None
    QueueInvitation.objects.filter(
        Q(from_user__in=[user, inviter]) | Q(to_user__in=[user, inviter])
    ).delete()
    try:
        with transaction.atomic():  # a savepoint: a join racing this one is a refusal
            QueueEntry.objects.create(user=inviter, partner=user, joined_at=now)
            entry = QueueEntry.objects.create(user=user, partner=inviter, joined_at=now)
    except IntegrityError:  # one of them joined alone meanwhile (UNIQUE user)
        raise err.PartnerUnavailable() from None
    _tell(inviter.pk)
    transaction.on_commit(match_after_commit)
    return entry


@transaction.atomic
def queue_partner_decline(*, user: User, invitation_id: int) -> None:
    invitation = _invitation_locked(invitation_id, to_user=user)
    invitation.delete()
    _tell(invitation.from_user_id)


@transaction.atomic
def queue_partner_cancel(*, user: User, invitation_id: int) -> None:
    invitation = _invitation_locked(invitation_id, from_user=user)
    invitation.delete()
    _tell(invitation.to_user_id)
