import pytest
from django.contrib.admin.models import LogEntry

from accounts.errors import ReportError
from accounts.models import Report
from accounts.services import report_close, report_create


@pytest.mark.django_db
def test_a_player_reports_another_from_the_profile_page(client, player, stranger):
    client.force_login(player)
    page = client.get("/u/zoe/")
    assert 'action="/u/zoe/report/"' in page.content.decode()
    response = client.post("/u/zoe/report/", {"reason": "abuse", "text": "insults in chat"})
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason) == (player, stranger, "abuse")
    assert report.text == "insults in chat"
    assert report.is_open


@pytest.mark.django_db
def test_a_report_may_name_a_match_both_players_played(client, player, stranger):
    from tests.history.conftest import store_finished

    match = store_finished([player, stranger, None, None], 1)[0]
    client.force_login(player)
    page = client.get("/u/zoe/", {"match": match.pk})
    assert f'value="{match.pk}"' in page.content.decode()
    client.post("/u/zoe/report/", {"reason": "abandonment", "match_id": str(match.pk)})
    assert Report.objects.get().match == match


@pytest.mark.django_db
@pytest.mark.parametrize("which", ["not_played", "unknown"])
def test_a_report_about_a_match_the_two_did_not_play_is_refused(
    client, player, stranger, make_user, which
):
    from tests.history.conftest import store_finished

    other = make_user("otto")
    match_id = 999999
    if which == "not_played":
        match_id = store_finished([player, other, None, None], 1)[0].pk
    client.force_login(player)
    response = client.post("/u/zoe/report/", {"reason": "abuse", "match_id": str(match_id)})
    assert response.status_code == 400
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_nobody_can_report_themselves(client, player):
    client.force_login(player)
    assert 'action="/u/ana/report/"' not in client.get("/u/ana/").content.decode()
    response = client.post("/u/ana/report/", {"reason": "abuse"})
    assert response.status_code == 400
    assert "No puedes denunciarte a ti mismo." in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_a_report_needs_a_reason(client, player, stranger):
    client.force_login(player)
    response = client.post("/u/zoe/report/", {"reason": "", "text": "he is bad"})
    assert response.status_code == 400
    assert response.context["report_form"].errors["reason"]
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_an_unknown_reason_is_refused(client, player, stranger):
    client.force_login(player)
    response = client.post("/u/zoe/report/", {"reason": "ugly-cards"})
    assert response.status_code == 400
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_reporting_an_unknown_user_is_a_404(client, player):
    client.force_login(player)
    assert client.post("/u/nobody/report/", {"reason": "abuse"}).status_code == 404
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_visitors_cannot_report(client, stranger):
    assert "report" not in client.get("/u/zoe/").content.decode().lower().split("<main")[1]
    response = client.post("/u/zoe/report/", {"reason": "abuse"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert not Report.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_a_self_report(player):
    with pytest.raises(ReportError):
        report_create(reporter=player, reported=player, reason="abuse")


@pytest.mark.django_db
def test_a_moderator_closes_a_report_with_a_note_recorded_in_the_admin_log(
    player, stranger, moderator
):
    report = report_create(reporter=player, reported=stranger, reason="cheating")
    report_close(report=report, staff_user=moderator, note="no evidence in the replay")
    report.refresh_from_db()
    assert not report.is_open
    assert report.closed_by == moderator
    entry = LogEntry.objects.get(user=moderator)
    assert "no evidence in the replay" in entry.change_message


@pytest.mark.django_db
def test_closing_needs_a_note_and_happens_once(player, stranger, moderator):
    report = report_create(reporter=player, reported=stranger, reason="other")
    with pytest.raises(ReportError):
        report_close(report=report, staff_user=moderator, note="  ")
    report_close(report=report, staff_user=moderator, note="done")
    with pytest.raises(ReportError):
        report_close(report=report, staff_user=moderator, note="again")
    assert LogEntry.objects.count() == 1


@pytest.mark.django_db
def test_finance_staff_cannot_close_reports(player, stranger, finance_user):
    report = report_create(reporter=player, reported=stranger, reason="other")
    with pytest.raises(ReportError):
        report_close(report=report, staff_user=finance_user, note="not mine")
    report.refresh_from_db()
    assert report.is_open


@pytest.mark.django_db
def test_twenty_reports_in_a_row_leave_one_open_report(client, player, stranger):
    client.force_login(player)
    answers = [client.post("/u/zoe/report/", {"reason": "abuse"}, follow=True) for _ in range(20)]
    assert Report.objects.count() == 1
    assert "Ya has denunciado" in answers[1].content.decode()


@pytest.mark.django_db
def test_one_open_report_per_reporter_player_and_match(player, stranger):
    from tests.history.conftest import store_finished

    first, second = store_finished([player, stranger, None, None], 2)
    report_create(reporter=player, reported=stranger, reason="abuse", match_id=first.pk)
    with pytest.raises(ReportError, match="por esta partida"):
        report_create(reporter=player, reported=stranger, reason="cheating", match_id=first.pk)
    report_create(reporter=player, reported=stranger, reason="abuse", match_id=second.pk)
    report_create(reporter=player, reported=stranger, reason="abuse")
    assert Report.objects.count() == 3


@pytest.mark.django_db
def test_a_closed_report_may_be_made_again(player, stranger, moderator):
    report = report_create(reporter=player, reported=stranger, reason="abuse")
    report_close(report=report, staff_user=moderator, note="warned")
    report_create(reporter=player, reported=stranger, reason="abuse")
    assert Report.objects.filter(closed_at__isnull=True).count() == 1


@pytest.mark.django_db
def test_a_reporter_files_at_most_a_few_reports_an_hour(player, make_user, settings):
    settings.REPORTS_PER_HOUR = 3
    others = [make_user(f"other{i}") for i in range(4)]
    for other in others[:3]:
        report_create(reporter=player, reported=other, reason="abuse")
    with pytest.raises(ReportError, match="por hora"):
        report_create(reporter=player, reported=others[3], reason="abuse")
    assert Report.objects.count() == 3


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_duplicate_reports_leave_one_open_report(player, stranger):
    from tests.threads import run_together

    results = run_together(
        6, lambda i: report_create(reporter=player, reported=stranger, reason="abuse")
    )
    assert sum(isinstance(r, Report) for r in results) == 1
    assert all(isinstance(r, (Report, ReportError)) for r in results)
    assert Report.objects.count() == 1


@pytest.mark.django_db
def test_the_admin_groups_open_reports_about_the_same_player(
    client, player, stranger, make_user, moderator
):
    for name in ("uno", "dos", "tres"):
        report_create(reporter=make_user(name), reported=stranger, reason="abuse")
    report_create(reporter=stranger, reported=player, reason="other")
    client.force_login(moderator)
    page = client.get("/admin/accounts/report/?status=open").content.decode()
    assert f"?reported__id__exact={stranger.pk}&amp;status=open" in page
    grouped = client.get(f"/admin/accounts/report/?reported__id__exact={stranger.pk}&status=open")
    assert grouped.context["cl"].result_count == 3
