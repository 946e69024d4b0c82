from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from leagues.models import LeagueStanding, LeagueWeek, WeekStatus
from tests.leagues.conftest import prize_coins

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:leagues_leagueweek_changelist"


@pytest.fixture
def finished_week(players):
    """A week that ended an hour ago, with three players in Bronze."""
    from leagues.services import league_points_record

    users = players(3)
    when = timezone.now() - timedelta(days=7)
    for index, (user, points) in enumerate(zip(users, [20, 14, 8], strict=True)):
        league_points_record(user=user, match_id=index + 1, points=points, finished_at=when)
    return LeagueWeek.objects.get(), users


def staff_in(make_user, group_name: str, username: str):
    user = make_user(username, is_staff=True)
    user.groups.add(Group.objects.get(name=group_name))
    return user


def close(client, week):
    return client.post(
        reverse(CHANGELIST),
        {"action": "close_weeks", "_selected_action": [week.pk]},
        follow=True,
    )


def test_the_migration_creates_both_groups_with_their_permissions():
    moderators = set(
        Group.objects.get(name="moderators").permissions.values_list("codename", flat=True)
    )
    finance = set(Group.objects.get(name="finance").permissions.values_list("codename", flat=True))
    assert {"view_leagueweek", "view_leaguestanding"} <= moderators
    assert "close_leagueweek" not in moderators
    assert {"view_leagueweek", "view_leaguestanding", "close_leagueweek"} <= finance


def test_a_moderator_sees_weeks_and_standings_but_cannot_close(client, make_user, finished_week):
    week, users = finished_week
    client.force_login(staff_in(make_user, "moderators", "mod"))
    page = client.get(reverse(CHANGELIST))
    assert page.status_code == 200
    assert "close_weeks" not in page.content.decode()
    assert client.get(reverse("admin:leagues_leaguestanding_changelist")).status_code == 200
    response = close(client, week)
    assert response.status_code == 200
    week.refresh_from_db()
    assert week.status == WeekStatus.OPEN
    assert prize_coins(users[0]) == 0


def test_finance_closes_a_finished_week_once_and_it_is_logged(client, make_user, finished_week):
    week, users = finished_week
    staff = staff_in(make_user, "finance", "cashier")
    client.force_login(staff)
    assert "close_weeks" in client.get(reverse(CHANGELIST)).content.decode()
    response = close(client, week)
    assert "Cerrada 1 semana" in response.content.decode()
    week.refresh_from_db()
    assert week.status == WeekStatus.CLOSED
    assert [prize_coins(u) for u in users] == [300, 200, 100]
    assert LogEntry.objects.filter(user=staff, object_id=str(week.pk)).exists()
    again = close(client, week)
    assert "ya estaba cerrada" in again.content.decode()
    assert [prize_coins(u) for u in users] == [300, 200, 100]
    assert LeagueStanding.objects.count() == 3


def test_closing_a_week_that_has_not_ended_is_refused_with_a_message(client, make_user, players):
    from leagues.services import league_points_record

    (ana,) = players(1)
    league_points_record(user=ana, match_id=1, points=4, finished_at=timezone.now())
    client.force_login(staff_in(make_user, "finance", "cashier"))
    response = close(client, LeagueWeek.objects.get())
    assert "aún no ha terminado" in response.content.decode()
    assert LeagueWeek.objects.get().status == WeekStatus.OPEN


def test_a_user_who_is_not_staff_is_sent_to_the_admin_login(client, player, finished_week):
    week, _ = finished_week
    client.force_login(player)
    response = client.post(
        reverse(CHANGELIST), {"action": "close_weeks", "_selected_action": [week.pk]}
    )
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]
    week.refresh_from_db()
    assert week.status == WeekStatus.OPEN


def test_staff_without_league_permissions_cannot_see_the_weeks(client, make_user, finished_week):
    client.force_login(make_user("plain", is_staff=True))
    assert client.get(reverse(CHANGELIST)).status_code == 403


def test_nobody_can_edit_or_delete_an_archived_standing(client, staff_user, finished_week):
    from leagues.services import league_weeks_close_due

    league_weeks_close_due()
    row = LeagueStanding.objects.first()
    client.force_login(staff_user)
    url = reverse("admin:leagues_leaguestanding_change", args=[row.pk])
    client.post(url, {"points": 999, "rank": 1, "prize": 1, "movement": 1})
    row.refresh_from_db()
    assert row.points != 999
    assert (
        client.get(reverse("admin:leagues_leaguestanding_delete", args=[row.pk])).status_code == 403
    )
