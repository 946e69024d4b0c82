"""A room's invitation between two players of whom one blocked the other is refused."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import errors, services
from games.models import Invitation
from social import services as social

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("who_blocks", ["invitee", "owner"])
def test_an_invitation_either_way_of_a_block_is_refused(player, opponent, who_blocks):
    if who_blocks == "invitee":
        social.block_add(user=opponent, username=player.username)
    else:
        social.block_add(user=player, username=opponent.username)
    table = services.table_create_friends(user=player)
    with pytest.raises(errors.InvalidInvitation) as raised:
        services.invitation_create(user=player, table_id=table.pk, username=opponent.username)
    with translation.override("en"):
        assert raised.value.message == "You cannot invite this player."
    assert not Invitation.objects.exists()


def test_an_invitation_sent_before_a_block_cannot_be_accepted_after_it(player, opponent):
    table = services.table_create_friends(user=player)
    invitation = services.invitation_create(
        user=player, table_id=table.pk, username=opponent.username
    )
    social.block_add(user=opponent, username=player.username)
    with pytest.raises(errors.InvalidInvitation):
        services.invitation_accept(user=opponent, invitation_id=invitation.pk)
    assert not table.seats.filter(user=opponent).exists()


def test_an_invitation_notifies_the_invitee_and_a_refused_one_does_not(player, opponent):
    from notifications.kinds import ROOM_INVITATION
    from notifications.models import Notification

    table = services.table_create_friends(user=player)
    services.invitation_create(user=player, table_id=table.pk, username=opponent.username)
    row = Notification.objects.get()
    assert (row.user, row.kind, row.params["name"]) == (opponent, ROOM_INVITATION, player.username)
    with pytest.raises(errors.InvalidInvitation):
        services.invitation_create(user=player, table_id=table.pk, username=opponent.username)
    assert Notification.objects.count() == 1
