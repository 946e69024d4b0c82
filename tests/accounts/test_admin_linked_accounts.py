"""Staff see an account's linked accounts on its admin page: which, how (device or
network) and when, with links; never an address (docs/moderation.md)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.links import device_key, network_key
from accounts.services import sign_in_record

pytestmark = pytest.mark.django_db

HOME = "198.51.100.7"


def page_of(client, user, staff):
    client.force_login(staff)
    response = client.get(f"/admin/accounts/user/{user.pk}/change/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def linked_table(html):
    found = re.search(r'<table class="linked-accounts".*?</table>', html, re.S)
    return found.group(0) if found else None


@pytest.fixture
def alt_and_roommate(make_user, player):
    alt, roommate = make_user("ana2"), make_user("olga")
    now = timezone.now()
    sign_in_record(user_id=player.pk, address=HOME, device_id="P" * 32, at=now)
    sign_in_record(user_id=alt.pk, address=None, device_id="P" * 32, at=now - timedelta(days=2))
    sign_in_record(user_id=roommate.pk, address=HOME, device_id="R" * 32, at=now)
    return alt, roommate


def test_a_moderator_sees_the_linked_accounts_with_how_when_and_links(
    client, moderator, player, alt_and_roommate
):
    alt, roommate = alt_and_roommate
    html = page_of(client, player, moderator)
    table = linked_table(html)
    assert table is not None and "Linked accounts" in html
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", table)
    by_name = {re.sub(r"<[^>]+>", "", name): (device, network) for name, device, network in rows}
    assert set(by_name) == {"ana2", "olga"}
    assert by_name["ana2"][0] != "—" and by_name["ana2"][1] == "—"  # same device only
    assert by_name["olga"][0] == "—" and by_name["olga"][1] != "—"  # same network only
    assert f'href="/admin/accounts/user/{alt.pk}/change/"' in table
    assert f'href="/admin/accounts/user/{roommate.pk}/change/"' in table


def test_the_page_never_shows_an_address_nor_a_hash(client, moderator, player, alt_and_roommate):
    html = page_of(client, player, moderator)
    for secret in (HOME, network_key(HOME), "P" * 32, device_key("P" * 32)):
        assert secret not in html


def test_an_account_without_links_says_so(client, moderator, player):
    html = page_of(client, player, moderator)
    assert "No linked account." in html


def test_finance_staff_do_not_see_linked_accounts(client, finance_user, player, alt_and_roommate):
    html = page_of(client, player, finance_user)
    assert linked_table(html) is None and "Linked accounts" not in html


def test_a_superuser_sees_them_on_the_editable_page(client, staff_user, player, alt_and_roommate):
    assert linked_table(page_of(client, player, staff_user)) is not None
    response = client.get("/admin/accounts/user/add/")  # the add page has nothing to link
    assert response.status_code == 200 and "linked-accounts" not in response.content.decode()


def test_moderators_hold_the_permission_and_finance_does_not(moderator, finance_user):
    assert moderator.has_perm("accounts.view_signin")
    assert not finance_user.has_perm("accounts.view_signin")
