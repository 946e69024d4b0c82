"""Queueing with a registered partner through the services (docs/online.md,
"Partners in the queue"): the invitation, its answer, the pair seated together, and
every refusal (not a partner, blocked, linked, already queued, seated, banned,
waiting after abandonments), checked again when the invitation is answered."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import sign_in_record
from games.models import Seat
from online import errors as err
from online import services
from online.models import QueueEntry, QueueInvitation, QuitStanding
from social import services as social
from social.models import Partnership
from tests.online.services.test_queue import join  # noqa: F401 (a fixture)
from tests.online.services.test_queue_blocks import tables_of

pytestmark = pytest.mark.django_db


def partners(a, b):
    request = social.friend_request_send(user=a, username=b.username)
    social.friend_request_accept(user=b, request_id=request.pk)
    asked = social.partner_request_send(user=a, username=b.username)
    return social.partner_request_accept(user=b, request_id=asked.pk)


@pytest.fixture
def accept(django_capture_on_commit_callbacks, clock):
    def run(user, invitation):
        with django_capture_on_commit_callbacks(execute=True):
            return services.queue_partner_accept(
                user=user, invitation_id=invitation.pk, now=clock()
            )

    return run


@pytest.fixture
def pair(players):
    a, b = players(2, prefix="duo")
    partners(a, b)
    return a, b


def test_an_accepted_invitation_queues_both_naming_each_other(pair, clock, accept):
    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    assert invitation.to_user == b
    entry = accept(b, invitation)
    assert entry.partner == a
    assert QueueEntry.objects.get(user=a).partner == b
    assert not QueueInvitation.objects.exists()


def test_a_queued_pair_faces_another_queued_pair_as_partners(players, clock, accept):
    a, b, c, d = players(4)
    partners(a, b)
    partners(c, d)
    accept(b, services.queue_partner_invite(user=a, username=b.username, now=clock()))
    accept(d, services.queue_partner_invite(user=c, username=d.username, now=clock()))
    seated = tables_of([a, b, c, d])
    assert len(set(seated.values())) == 1 and None not in seated.values()
    seat = {s.user_id: s.position for s in Seat.objects.filter(live=True)}
    assert seat[a.pk] % 2 == seat[b.pk] % 2 and seat[c.pk] % 2 == seat[d.pk] % 2
    assert seat[a.pk] % 2 != seat[c.pk] % 2


def test_a_queued_pair_alone_sits_against_bots_after_the_fill_time(pair, clock, accept):
    a, b = pair
    accept(b, services.queue_partner_invite(user=a, username=b.username, now=clock()))
    assert set(tables_of([a, b]).values()) == {None}
    clock.advance(20)
    services.queue_match(now=clock())
    seat = {s.user_id: s.position for s in Seat.objects.filter(live=True, user__isnull=False)}
    assert seat[a.pk] % 2 == seat[b.pk] % 2


def test_leaving_the_queue_takes_the_partner_out_too(pair, clock, accept):
    a, b = pair
    accept(b, services.queue_partner_invite(user=a, username=b.username, now=clock()))
    services.queue_leave(user=a)
    assert not QueueEntry.objects.exists()
    with pytest.raises(err.NotQueued):
        services.queue_leave(user=b)


@pytest.mark.parametrize("name", ["nadie", "", "duo00", "x" * 300, "a\x00b"])
def test_an_unknown_name_or_yourself_is_no_partner(pair, clock, name):
    with pytest.raises(err.NotYourPartner):
        services.queue_partner_invite(user=pair[0], username=name, now=clock())


def test_a_friend_who_is_no_registered_partner_is_refused(players, clock):
    a, b = players(2)
    request = social.friend_request_send(user=a, username=b.username)
    social.friend_request_accept(user=b, request_id=request.pk)
    with pytest.raises(err.NotYourPartner):
        services.queue_partner_invite(user=a, username=b.username, now=clock())


def test_a_dissolved_pair_cannot_queue_together(pair, clock):
    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    social.partnership_dissolve(user=b, pair_id=Partnership.objects.get().pk)
    with pytest.raises(err.NotYourPartner):
        services.queue_partner_accept(user=b, invitation_id=invitation.pk, now=clock())
    assert not QueueEntry.objects.exists()


def test_linked_accounts_cannot_queue_together(pair, clock):
    a, b = pair
    for user in pair:
        sign_in_record(user_id=user.pk, address=None, device_id="L" * 32)
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())


def test_a_partner_already_queued_or_seated_is_unavailable(pair, players, clock, join):  # noqa: F811
    a, b = pair
    services.queue_join(user=b, now=clock())
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())
    services.queue_leave(user=b)
    for other in players(3, prefix="o"):
        join(other)
    join(b)  # four: seated
    assert tables_of([b])["duo01"] is not None
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())


def test_you_already_queued_or_seated_cannot_invite(pair, clock):
    a, b = pair
    services.queue_join(user=a, now=clock())
    with pytest.raises(err.AlreadyQueued):
        services.queue_partner_invite(user=a, username=b.username, now=clock())


def test_a_banned_partner_is_unavailable_and_a_ban_voids_invitations(
    pair, staff_user, clock, django_capture_on_commit_callbacks
):
    from accounts.services import user_ban

    a, b = pair
    services.queue_partner_invite(user=a, username=b.username, now=clock())
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(staff_user=staff_user, user=b, reason="cheating")
    assert not QueueInvitation.objects.exists()
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())


def test_a_partner_with_a_quit_wait_is_unavailable_and_your_own_wait_is_said(pair, clock):
    a, b = pair
    later = timezone.now() + timezone.timedelta(hours=1)
    QuitStanding.objects.create(user=b, step=1, wait_until=later)
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())
    with pytest.raises(err.QueueWait):
        services.queue_partner_invite(user=b, username=a.username, now=clock())


def test_the_inviter_who_meanwhile_queued_alone_makes_the_answer_refused(pair, clock):
    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    services.queue_join(user=a, now=clock())  # queued alone: the invitation is void
    with pytest.raises(err.QueueInvitationNotFound):
        services.queue_partner_accept(user=b, invitation_id=invitation.pk, now=clock())


def test_the_partner_blocked_meanwhile_makes_the_answer_refused(pair, clock):
    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    social.block_add(user=a, username=b.username)  # dissolves the pair too
    with pytest.raises(err.NotYourPartner):
        services.queue_partner_accept(user=b, invitation_id=invitation.pk, now=clock())
    assert not QueueEntry.objects.exists()


def test_a_new_invitation_replaces_the_last_and_answers_are_checked(pair, players, clock):
    a, b = pair
    (c,) = players(1, prefix="c")
    partners(a, c)
    first = services.queue_partner_invite(user=a, username=b.username, now=clock())
    second = services.queue_partner_invite(user=a, username=c.username, now=clock())
    assert list(QueueInvitation.objects.values_list("pk", flat=True)) == [second.pk]
    with pytest.raises(err.QueueInvitationNotFound):
        services.queue_partner_accept(user=b, invitation_id=first.pk, now=clock())
    with pytest.raises(err.QueueInvitationNotFound):
        services.queue_partner_decline(user=b, invitation_id=second.pk)
    with pytest.raises(err.QueueInvitationNotFound):
        services.queue_partner_cancel(user=c, invitation_id=second.pk)
    services.queue_partner_decline(user=c, invitation_id=second.pk)
    assert not QueueInvitation.objects.exists()
    third = services.queue_partner_invite(user=a, username=c.username, now=clock())
    services.queue_partner_cancel(user=a, invitation_id=third.pk)
    assert not QueueInvitation.objects.exists()


def test_marks_reach_the_queue_avoided_partners_never_sit_together(players, clock, join):  # noqa: F811
    people = players(4)
    for other in people[1:]:
        social.partner_mark_set(user=people[0], username=other.username, kind="avoid")
    for person in people:
        join(person)
    assert set(tables_of(people).values()) == {None}  # every split pairs p00 with one avoided
    clock.advance(20)
    services.queue_match(now=clock())
    seat = {s.user_id: (s.table_id, s.position) for s in Seat.objects.filter(live=True)}
    mine = seat[people[0].pk]
    for other in people[1:]:
        theirs = seat[other.pk]
        assert not (theirs[0] == mine[0] and theirs[1] % 2 == mine[1] % 2)


def test_a_preferred_partner_is_seated_beside_the_player(players, clock, join):  # noqa: F811
    people = players(4)
    social.partner_mark_set(user=people[0], username=people[1].username, kind="prefer")
    for person in people:
        join(person)
    seat = {s.user_id: s.position for s in Seat.objects.filter(live=True)}
    assert seat[people[0].pk] % 2 == seat[people[1].pk] % 2


def test_a_join_racing_the_answer_is_a_refusal_not_an_error(pair, clock, monkeypatch):
    """The inviter joined alone between the answer's checks and its writes (the
    UNIQUE user of the queue): refused, nothing half-written."""
    from online.services import partners as module

    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    checks = module._own_check

    def check_then_join(user, now):
        checks(user, now)
        if user == a:
            QueueEntry.objects.create(user=a, joined_at=now)

    monkeypatch.setattr(module, "_own_check", check_then_join)
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_accept(user=b, invitation_id=invitation.pk, now=clock())
    assert list(QueueEntry.objects.values_list("user_id", "partner_id")) == []


# --- the invitee's bell (docs/notifications.md, `partner_invitation`) -----------------


def _invitations_to(user):
    from notifications.kinds import PARTNER_INVITATION
    from notifications.models import Notification

    return list(Notification.objects.filter(user=user, kind=PARTNER_INVITATION))


def test_an_invitation_notifies_the_partner_once_with_a_link_to_the_lobby(pair, clock):
    a, b = pair
    services.queue_partner_invite(user=a, username=b.username, now=clock())
    [row] = _invitations_to(b)
    assert row.params == {"name": a.username} and row.link == reverse("games:lobby")
    # Asked again while the first still waits: the same news, nothing more.
    services.queue_partner_invite(user=a, username=b.username, now=clock())
    assert len(_invitations_to(b)) == 1 and not _invitations_to(a)


def test_a_refused_invitation_notifies_nobody(pair, players, clock, join):  # noqa: F811
    a, b = pair
    join(b)
    with pytest.raises(err.PartnerUnavailable):
        services.queue_partner_invite(user=a, username=b.username, now=clock())
    (stranger,) = players(1, prefix="lone")
    with pytest.raises(err.NotYourPartner):
        services.queue_partner_invite(user=a, username=stranger.username, now=clock())
    assert not _invitations_to(b) and not _invitations_to(stranger)


def test_answering_an_invitation_notifies_nobody_more(pair, clock, accept):
    a, b = pair
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    accept(b, invitation)
    assert len(_invitations_to(b)) == 1 and not _invitations_to(a)


def test_the_partner_who_switched_invitations_off_is_not_notified(pair, clock):
    from notifications import services as notifications

    a, b = pair
    notifications.settings_update(
        user=b,
        kinds_on=[],
        quiet_start=None,
        quiet_end=None,
        timezone_name="Europe/Madrid",
        push_per_hour=6,
    )
    invitation = services.queue_partner_invite(user=a, username=b.username, now=clock())
    assert invitation.to_user == b and not _invitations_to(b)
