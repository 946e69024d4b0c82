"""Staff see clubs, members, requests and announcements in the admin (read-only) and
close clubs or delete announcements through the services."""

from __future__ import annotations

import pytest

from clubs import services
from clubs.models import Announcement, Club
from tests.clubs.conftest import make_club

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_staff_read_clubs_and_their_members(client, staff_user, player, stranger):
    club = make_club(player, "Los Ases", description="Los martes")
    services.club_join(user=stranger, club_id=club.pk)
    client.force_login(staff_user)
    listing = client.get("/admin/clubs/club/", {"q": "zoe"})
    assert listing.status_code == 200 and "Los Ases" in listing.text
    page = client.get(f"/admin/clubs/club/{club.pk}/change/")
    assert page.status_code == 200 and "zoe" in page.text
    for model in ("membership", "joinrequest", "announcement"):
        assert client.get(f"/admin/clubs/{model}/").status_code == 200
    assert client.get("/admin/clubs/club/add/").status_code == 403


def test_staff_close_clubs_and_delete_announcements_from_the_admin(client, staff_user, player):
    club = make_club(player, "Los Ases")
    services.announcement_post(user=player, club_id=club.pk, text="Hola")
    client.force_login(staff_user)
    client.post("/admin/clubs/club/", {"action": "close_clubs", "_selected_action": [club.pk]})
    club.refresh_from_db()
    assert club.closed_at is not None
    announcement = Announcement.objects.get()
    client.post(
        "/admin/clubs/announcement/",
        {"action": "delete_announcements", "_selected_action": [announcement.pk]},
    )
    assert not Announcement.objects.exists()
    assert make_club(player, "Los Ases").pk != club.pk  # the name is free again
    assert Club.objects.count() == 2
