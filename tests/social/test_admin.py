"""Staff read pairs, partner requests and partner marks in the admin (searchable by
either player's name, filtered), never add or edit them, and dissolve a pair only
through the service."""

from __future__ import annotations

import pytest

from social import services
from social.models import PartnerMark, PartnerRequest, Partnership
from tests.social.conftest import befriend

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def pair_of(a, b):
    befriend(a, b)
    request = services.partner_request_send(user=a, username=b.username)
    return services.partner_request_accept(user=b, request_id=request.pk)


@pytest.fixture
def staff(client, staff_user):
    client.force_login(staff_user)
    return client


def test_staff_find_pairs_by_either_players_name(staff, player, friend, other):
    pair = pair_of(player, friend)
    link = f"/admin/social/partnership/{pair.pk}/change/"
    for name in ("pablo", "ANA"):
        found = staff.get("/admin/social/partnership/", {"q": name})
        assert found.status_code == 200 and link in found.text
    assert link not in staff.get("/admin/social/partnership/", {"q": "olga"}).text


def test_staff_filter_standing_and_dissolved_pairs(staff, player, friend, other):
    standing = pair_of(player, friend)
    gone = pair_of(player, other)
    services.partnership_dissolve(user=player, pair_id=gone.pk)
    listed = staff.get("/admin/social/partnership/", {"standing": "yes"}).text
    assert f"/admin/social/partnership/{standing.pk}/change/" in listed
    assert f"/admin/social/partnership/{gone.pk}/change/" not in listed
    listed = staff.get("/admin/social/partnership/", {"standing": "no"}).text
    assert f"/admin/social/partnership/{gone.pk}/change/" in listed


def test_pairs_requests_and_marks_are_read_only(staff, player, friend, other):
    pair = pair_of(player, friend)
    befriend(player, other)
    services.partner_request_send(user=player, username="olga")
    services.partner_mark_set(user=player, username="olga", kind="avoid")
    for model in ("partnership", "partnerrequest", "partnermark"):
        assert staff.get(f"/admin/social/{model}/").status_code == 200
        assert staff.get(f"/admin/social/{model}/add/").status_code == 403
    page = staff.get(f"/admin/social/partnership/{pair.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.text
    # A forged edit or delete changes nothing.
    staff.post(f"/admin/social/partnership/{pair.pk}/change/", {"dissolved_at_0": "2026-01-01"})
    assert (
        staff.post(f"/admin/social/partnership/{pair.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    mark = PartnerMark.objects.get()
    assert staff.get(f"/admin/social/partnermark/{mark.pk}/change/").status_code == 200
    assert (
        staff.get("/admin/social/partnermark/", {"kind__exact": "avoid", "q": "olga"}).status_code
        == 200
    )
    pair.refresh_from_db()
    assert (
        pair.standing and PartnerRequest.objects.count() == 1 and PartnerMark.objects.count() == 1
    )


def test_staff_dissolve_pairs_through_the_service(staff, player, friend, other):
    pair = pair_of(player, friend)
    gone = pair_of(player, other)
    services.partnership_dissolve(user=player, pair_id=gone.pk)
    response = staff.post(
        "/admin/social/partnership/",
        {"action": "dissolve_pairs", "_selected_action": [pair.pk, gone.pk]},
        follow=True,
    )
    assert "1 pair dissolved." in response.text
    pair.refresh_from_db()
    assert not pair.standing
    assert Partnership.objects.filter(dissolved_at__isnull=True).count() == 0


def test_a_player_may_not_dissolve_someone_elses_pair(player, friend, other, make_user):
    from social import errors

    pair = pair_of(friend, other)
    with pytest.raises(errors.NotPartners):
        services.partnership_dissolve(user=player, pair_id=pair.pk)


def test_players_see_no_admin(client, player):
    client.force_login(player)
    assert client.get("/admin/social/partnership/").status_code == 302
