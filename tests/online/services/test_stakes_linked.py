"""A stake table still filling names the linked accounts sitting there, to everyone
who opens it (docs/moderation.md, "Linked accounts")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.services import sign_in_record
from online import services

pytestmark = pytest.mark.django_db


def open_page(client, user, table):
    client.force_login(user)
    response = client.get(reverse("online:stake_table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def test_the_stake_table_page_marks_the_linked_accounts_sitting_there(client, players, clock):
    ana, bea, carla = players(3)
    for user in (ana, carla):
        sign_in_record(user_id=user.pk, address="198.51.100.7", device_id=f"{user.pk:032d}")
    table = services.stake_table_open(user=ana, stake=100, now=clock())
    services.stake_table_sit(user=carla, table_id=table.pk, now=clock())
    for viewer in (ana, bea):  # a player there, and one deciding whether to sit
        html = open_page(client, viewer, table)
        assert "Linked accounts: p00 and p02" in html or "Linked accounts: p02 and p00" in html


def test_no_marker_where_nobody_is_linked(client, players, clock):
    ana, bea = players(2)
    table = services.stake_table_open(user=ana, stake=100, now=clock())
    services.stake_table_sit(user=bea, table_id=table.pk, now=clock())
    assert 'data-testid="linked-accounts"' not in open_page(client, ana, table)
