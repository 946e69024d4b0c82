"""The coach's pages: the match page's region, asking, practising, the player page's
trends, and every request that can be wrong."""

from __future__ import annotations

import pytest
from django.test import Client

from coach import services
from coach.models import Analysis, Decision, Practice
from games.models import Mode, Table
from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "coach"}


@pytest.fixture
def client():
    """Pages in English (the site's default is Spanish; one test reads the Spanish)."""
    return Client(headers={"Accept-Language": "en"})


@pytest.fixture
def one_hand(player):
    first, _ = failing_quintola_deals()
    return store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)


@pytest.fixture
def analysed(one_hand, player):
    analysis = services.analysis_request(user=player, match_id=one_hand.pk)
    services.analysis_run(analysis_id=analysis.pk, samples=60)
    return one_hand


def test_the_match_page_offers_an_analysis_with_the_days_allowance(client, player, one_hand):
    client.force_login(player)
    body = client.get(f"/history/matches/{one_hand.pk}/").content.decode()
    assert "Analyse this match" in body
    assert "3 analyses left today (of 3)." in body


def test_asking_twice_shows_the_progress_and_makes_one_analysis(
    client, player, one_hand, queued, django_capture_on_commit_callbacks
):
    client.force_login(player)
    url = f"/coach/matches/{one_hand.pk}/analyse/"
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, headers=HTMX)
        second = client.post(url, headers=HTMX)
    assert first.status_code == second.status_code == 200
    assert 'data-testid="coach-progress"' in first.content.decode()
    assert first["HX-Trigger"] == "coach-progress"
    assert Analysis.objects.count() == 1 and len(queued) == 1


def test_the_region_polls_until_done_then_shows_each_seats_accuracy(client, player, analysed):
    client.force_login(player)
    region = client.get(f"/coach/matches/{analysed.pk}/", headers=HTMX).content.decode()
    assert 'data-testid="coach-summary"' in region and "hx-trigger" not in region
    assert "Practise this position" in region
    # Without htmx the region's URL leads to the match page.
    assert client.get(f"/coach/matches/{analysed.pk}/").status_code == 302


def test_the_replay_marks_the_blunder_with_the_alternative_and_its_value(client, player, analysed):
    blunder = Decision.objects.get(mark="blunder")
    client.force_login(player)
    body = client.get(f"/history/matches/{analysed.pk}/?step={blunder.number}").content.decode()
    assert 'data-testid="coach-note"' in body and "??" in body
    assert "Play the ace of cups: −" in body and "expected points; best: the " in body
    spanish = Client(headers={"Accept-Language": "es"})
    spanish.force_login(player)
    body = spanish.get(f"/history/matches/{analysed.pk}/?step={blunder.number}").content.decode()
    assert "Jugar el as de copas: −" in body and "puntos esperados; mejor: el " in body


def test_a_stranger_may_not_ask_and_gets_a_clear_message(client, stranger, one_hand):
    client.force_login(stranger)
    page = client.get(f"/history/matches/{one_hand.pk}/").content.decode()
    assert "Only the players of this match can have it analysed." in page
    response = client.post(f"/coach/matches/{one_hand.pk}/analyse/", headers=HTMX)
    assert response.status_code == 403
    assert "Only the players of a match" in response.content.decode()
    response = client.post(f"/coach/matches/{one_hand.pk}/analyse/")
    assert response.status_code == 302 and not Analysis.objects.exists()


def test_past_the_daily_limit_the_region_says_so(client, player, one_hand, settings):
    settings.COACH_DAILY_ANALYSES = 0
    client.force_login(player)
    response = client.post(f"/coach/matches/{one_hand.pk}/analyse/", headers=HTMX)
    assert response.status_code == 429 and "VIP pass" in response.content.decode()
    assert not Analysis.objects.exists()


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("post", "/coach/matches/999999/analyse/", 404),
        ("get", "/coach/matches/999999/", 404),
        ("post", "/coach/decisions/999999/practise/", 404),
        ("get", "/coach/practice/999999/", 404),
        ("get", "/coach/matches/1/analyse/", 405),
        ("get", "/coach/decisions/1/practise/", 405),
        ("post", "/coach/matches/abc/analyse/", 404),
    ],
)
def test_wrong_requests_get_a_clear_refusal(client, player, method, url, status):
    client.force_login(player)
    headers = HTMX if url.startswith("/coach/matches/") and method == "get" else {}
    assert getattr(client, method)(url, headers=headers).status_code == status


def test_asking_needs_a_login(client, one_hand):
    response = client.post(f"/coach/matches/{one_hand.pk}/analyse/")
    assert response.status_code == 302 and "/login" in response["Location"]


def test_practise_opens_the_table_and_its_panel_says_what_to_find(client, player, analysed):
    blunder = Decision.objects.get(mark="blunder")
    client.force_login(player)
    response = client.post(f"/coach/decisions/{blunder.pk}/practise/")
    table = Table.objects.get(mode=Mode.POSITION)
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert f'hx-get="/coach/practice/{table.pk}/"' in page
    panel = client.get(f"/coach/practice/{table.pk}/").content.decode()
    assert 'data-testid="coach-practice"' in panel and "Your turn: make your choice." in panel
    # What to find stays hidden until you choose.
    assert "In the match you chose “Play the ace of cups”: Blunder." in panel
    assert "best:" not in panel


def test_another_players_decision_or_practice_is_refused(client, player, stranger, analysed):
    blunder = Decision.objects.get(mark="blunder")
    client.force_login(player)
    client.post(f"/coach/decisions/{blunder.pk}/practise/")
    table = Practice.objects.get().table
    client.force_login(stranger)
    assert client.get(f"/coach/practice/{table.pk}/").status_code == 404
    response = client.post(f"/coach/decisions/{blunder.pk}/practise/", follow=True)
    assert "You can only practise positions from your own seat." in response.content.decode()
    assert Practice.objects.count() == 1


def test_the_player_page_shows_your_accuracy_trend_to_you_only(client, player, stranger, analysed):
    client.force_login(player)
    mine = client.get(f"/u/{player.username}/record/").content.decode()
    assert 'data-testid="chart-coach"' in mine and 'data-testid="coach-losses"' in mine
    assert "Where you lose the most expected points: Leads." in mine  # the quintola's lead
    client.force_login(stranger)
    theirs = client.get(f"/u/{player.username}/record/").content.decode()
    assert 'data-testid="coach-trend"' not in theirs


def test_before_any_analysis_the_trend_says_how_to_get_one(client, player):
    client.force_login(player)
    page = client.get(f"/u/{player.username}/record/").content.decode()
    assert "No analysed match yet" in page and 'data-testid="chart-coach"' not in page


def test_the_shop_lists_unlimited_analyses_with_the_vip_pass(client, player):
    client.force_login(player)
    assert "unlimited match analyses by the coach" in client.get("/shop/").content.decode()
