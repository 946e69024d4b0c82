from __future__ import annotations

import pytest

from social import services


@pytest.fixture
def friend(make_user):
    return make_user("pablo")


@pytest.fixture
def other(make_user):
    return make_user("olga")


@pytest.fixture(autouse=True)
def _english_pages(client):
    """Pages in English, whatever the site's default (Spanish)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def befriend(a, b):
    """Makes `a` and `b` friends through the services (a request, accepted)."""
    request = services.friend_request_send(user=a, username=b.username)
    services.friend_request_accept(user=b, request_id=request.pk)
