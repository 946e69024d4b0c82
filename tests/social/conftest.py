from __future__ import annotations

import pytest


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
