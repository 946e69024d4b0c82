"""The moderation pages of the Django admin, driven as staff would."""

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from accounts.models import Ban, Report
from accounts.selectors import ban_in_force
from accounts.services import report_create, user_ban


@pytest.mark.django_db
def test_a_moderator_finds_users_by_username_or_email(client, moderator, player, stranger):
    client.force_login(moderator)
    by_name = client.get("/admin/accounts/user/", {"q": "zoe"})
    assert by_name.status_code == 200
    assert list(by_name.context["cl"].result_list) == [stranger]
    by_email = client.get("/admin/accounts/user/", {"q": "ana@example"})
    assert list(by_email.context["cl"].result_list) == [player]


@pytest.mark.django_db
def test_the_user_list_shows_who_is_banned_and_filters_on_it(client, moderator, player, stranger):
    user_ban(user=player, staff_user=moderator, reason="abuse")
    client.force_login(moderator)
    page = client.get("/admin/accounts/user/", {"banned": "yes"})
    assert list(page.context["cl"].result_list) == [player]
    assert "Suspendido, sin fin" in page.content.decode()


@pytest.mark.django_db
def test_a_moderator_bans_from_the_admin_with_a_reason_and_an_end(client, moderator, player):
    client.force_login(moderator)
    change_page = client.get(f"/admin/accounts/user/{player.pk}/change/")
    assert f"/admin/accounts/user/{player.pk}/ban/" in change_page.content.decode()
    until = (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        f"/admin/accounts/user/{player.pk}/ban/", {"reason": "insults", "until": until}
    )
    assert response.status_code == 302
    ban = ban_in_force(player.pk)
    assert ban.reason == "insults"
    assert ban.until is not None
    assert LogEntry.objects.filter(user=moderator, change_message__contains="insults").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"reason": "   "}, "reason"),
        ({"reason": "x", "until": "2001-01-01T10:00"}, "until"),
        ({"reason": "x", "until": "not a date"}, "until"),
    ],
)
def test_a_bad_ban_form_is_shown_again_with_the_error(client, moderator, player, data, field):
    client.force_login(moderator)
    response = client.post(f"/admin/accounts/user/{player.pk}/ban/", data)
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not Ban.objects.exists()


@pytest.mark.django_db
def test_a_moderator_unbans_with_a_reason(client, moderator, player):
    user_ban(user=player, staff_user=moderator, reason="abuse")
    client.force_login(moderator)
    empty = client.post(f"/admin/accounts/user/{player.pk}/unban/", {"reason": ""})
    assert empty.status_code == 400
    assert ban_in_force(player.pk) is not None
    response = client.post(f"/admin/accounts/user/{player.pk}/unban/", {"reason": "appeal"})
    assert response.status_code == 302
    assert ban_in_force(player.pk) is None


@pytest.mark.django_db
def test_a_finance_user_cannot_reach_the_ban_pages(client, finance_user, player):
    client.force_login(finance_user)
    assert client.get(f"/admin/accounts/user/{player.pk}/ban/").status_code == 403
    response = client.post(f"/admin/accounts/user/{player.pk}/ban/", {"reason": "nope"})
    assert response.status_code == 403
    assert not Ban.objects.exists()
    change_page = client.get(f"/admin/accounts/user/{player.pk}/change/")
    assert f"/admin/accounts/user/{player.pk}/ban/" not in change_page.content.decode()


@pytest.mark.django_db
def test_a_moderator_cannot_edit_users_or_make_themselves_superuser(client, moderator, player):
    client.force_login(moderator)
    client.post(
        f"/admin/accounts/user/{moderator.pk}/change/",
        {"username": "mod", "email": "mod@example.com", "is_superuser": "on", "is_staff": "on"},
    )
    moderator.refresh_from_db()
    assert not moderator.is_superuser


@pytest.mark.django_db
def test_moderators_see_open_reports_and_close_them_with_a_note(
    client, moderator, player, stranger
):
    from tests.history.conftest import store_finished

    match = store_finished([player, stranger, None, None], 1)[0]
    open_report = report_create(
        reporter=player, reported=stranger, reason="abuse", match_id=match.pk
    )
    closed = report_create(reporter=stranger, reported=player, reason="other")
    closed.closed_at = timezone.now()
    closed.save()
    client.force_login(moderator)
    listing = client.get("/admin/accounts/report/", {"status": "open"})
    assert list(listing.context["cl"].result_list) == [open_report]
    assert f"/admin/games/match/{match.pk}/change/" in listing.content.decode()
    page = client.get(f"/admin/accounts/report/{open_report.pk}/change/")
    assert f"/admin/accounts/report/{open_report.pk}/close/" in page.content.decode()
    missing = client.post(f"/admin/accounts/report/{open_report.pk}/close/", {"reason": ""})
    assert missing.status_code == 400
    response = client.post(
        f"/admin/accounts/report/{open_report.pk}/close/", {"reason": "warned the player"}
    )
    assert response.status_code == 302
    open_report.refresh_from_db()
    assert open_report.close_note == "warned the player"
    assert not open_report.is_open


@pytest.mark.django_db
def test_finance_staff_do_not_see_reports(client, finance_user, player, stranger):
    report = report_create(reporter=player, reported=stranger, reason="abuse")
    client.force_login(finance_user)
    assert client.get("/admin/accounts/report/").status_code == 403
    assert (
        client.post(f"/admin/accounts/report/{report.pk}/close/", {"reason": "x"}).status_code
        == 403
    )
    assert Report.objects.get().is_open
