"""Tables and matches in the Django admin, as a moderator uses them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from games.models import Match, MatchStatus
from tests.games.conftest import live_match


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.fixture
def finance_user(make_user):
    user = make_user("cashier", is_staff=True)
    user.groups.add(Group.objects.get(name="finance"))
    return user


@pytest.mark.django_db
def test_a_moderator_lists_live_and_finished_matches_with_filters(client, moderator, started_room):
    client.force_login(moderator)
    match = live_match(started_room)
    live = client.get("/admin/games/match/", {"status__exact": "playing"})
    assert live.status_code == 200
    assert list(live.context["cl"].result_list) == [match]
    finished = client.get("/admin/games/match/", {"status__exact": "finished"})
    assert list(finished.context["cl"].result_list) == []
    tables = client.get("/admin/games/table/", {"status__exact": "playing"})
    assert list(tables.context["cl"].result_list) == [started_room]


@pytest.mark.django_db
def test_a_moderator_aborts_a_live_match_from_its_admin_page(client, moderator, started_room):
    client.force_login(moderator)
    match = live_match(started_room)
    page = client.get(f"/admin/games/match/{match.pk}/change/")
    assert f"/admin/games/match/{match.pk}/abort/" in page.content.decode()
    empty = client.post(f"/admin/games/match/{match.pk}/abort/", {"reason": " "})
    assert empty.status_code == 400 and empty.context["form"].errors
    response = client.post(f"/admin/games/match/{match.pk}/abort/", {"reason": "frozen table"})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED
    again = client.post(f"/admin/games/match/{match.pk}/abort/", {"reason": "again"})
    assert again.status_code == 400  # shown with the error: no match in play any more
    assert again.context["form"].non_field_errors()


@pytest.mark.django_db
def test_finance_staff_cannot_see_or_abort_matches(client, finance_user, started_room):
    client.force_login(finance_user)
    match = live_match(started_room)
    assert client.get("/admin/games/match/").status_code == 403
    response = client.post(f"/admin/games/match/{match.pk}/abort/", {"reason": "x"})
    assert response.status_code == 403
    assert Match.objects.get(pk=match.pk).status == MatchStatus.PLAYING


@pytest.mark.django_db
def test_the_admin_never_edits_a_match(client, moderator, started_room):
    client.force_login(moderator)
    match = live_match(started_room)
    client.post(f"/admin/games/match/{match.pk}/change/", {"score_a": "20"})
    assert Match.objects.get(pk=match.pk).score_a == 0
