from __future__ import annotations

import pytest

from clubs import services
from clubs.models import Admission


@pytest.fixture(autouse=True)
def _english_pages(client):
    """Pages in English, whatever the site's default (Spanish)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def make_club(owner, name="Los Ases", *, admission=Admission.OPEN, language="es", description=""):
    return services.club_create(
        user=owner, name=name, description=description, language=language, admission=admission
    )


@pytest.fixture
def club(player):
    """ana's open club."""
    return make_club(player)
