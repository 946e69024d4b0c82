"""The daily deal's pages: today's deals, starting and resuming, the ranking, a deal's
results and side-by-side replay, and the offline practice's past days."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta

import pytest
from django.utils import timezone

from daily import services
from daily.deals import deal_seed
from daily.models import DailyDay, DailyPlay
from games.models import Match, Table
from tests.daily.conftest import play_day, play_out, results_day

pytestmark = pytest.mark.django_db


def today() -> date:
    return services.day_of(timezone.now())


def test_the_daily_page_needs_a_login(client):
    response = client.get("/daily/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_daily_page_shows_the_six_deals_and_the_first_to_play(client, player):
    client.force_login(player)
    page = client.get("/daily/").content.decode()
    assert page.count('data-testid="daily-deal-') == 6
    assert "Reparto del día" in page
    assert 'name="deal" value="1"' in page
    assert "Juega los repartos de hoy" in page


def test_starting_goes_to_the_daily_table_and_a_reload_resumes_it(client, player):
    client.force_login(player)
    response = client.post("/daily/play/", {"deal": "1"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    again = client.post("/daily/play/", {"deal": "1"})
    assert again["Location"] == f"/tables/{table.pk}/" and Table.objects.count() == 1
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "Reparto del día" in page
    assert '"daily": {"date": "' in page  # the first frame marks the table
    assert "Abandonar por ahora" in page
    home = client.get("/daily/").content.decode()
    assert "Continúa el reparto 1" in home


def test_a_second_start_of_a_played_deal_is_refused_with_a_clear_message(client, player):
    client.force_login(player)
    client.post("/daily/play/", {"deal": "1"})
    play_out(player, Table.objects.get().pk)
    response = client.post("/daily/play/", {"deal": "1"}, follow=True)
    assert response.redirect_chain == [("/daily/", 302)]
    assert "Ya has jugado ese reparto hoy" in response.content.decode()
    assert DailyPlay.objects.count() == 1


@pytest.mark.parametrize("deal", ["x", "-1", "1.0", "999"])
def test_a_bad_deal_number_is_refused_and_starts_nothing(client, player, deal):
    client.force_login(player)
    response = client.post("/daily/play/", {"deal": deal}, follow=True)
    assert response.redirect_chain == [("/daily/", 302)]
    assert not Table.objects.exists()


def test_a_player_at_another_table_is_told_why_they_cannot_start(client, player):
    from games import services as game_services

    game_services.table_create_practice(user=player, rules="online", bot_level="easy")
    client.force_login(player)
    response = client.post("/daily/play/", follow=True)
    assert "Ya estás en otra mesa" in response.content.decode()
    assert not DailyPlay.objects.exists()


def test_leaving_the_daily_table_keeps_the_deal_and_continue_takes_the_seat_back(client, player):
    client.force_login(player)
    client.post("/daily/play/")
    table = Table.objects.get()
    client.post(f"/tables/{table.pk}/leave/")
    frame = client.get(f"/tables/{table.pk}/").content.decode()
    assert '"parked": true' in frame
    assert "Continúa el reparto 1" in client.get("/daily/").content.decode()
    response = client.post("/daily/play/", {"deal": "1"})
    assert response["Location"] == f"/tables/{table.pk}/"
    assert '"parked": false' in client.get(f"/tables/{table.pk}/").content.decode()


def test_the_ranking_lists_the_top_and_the_viewers_place(client, make_user, settings):
    settings.DAILY_RANKING_TOP = 3
    users = [make_user(f"p{i}") for i in range(6)]
    results_day(today(), {u: [i - 2 or 3] * 6 for i, u in enumerate(users)})
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    client.force_login(users[0])  # results -2: last
    page = client.get(f"/daily/{today().isoformat()}/ranking/").content.decode()
    table = page.split('id="top-caption"')[1].split("</table>")[0]
    assert len(re.findall(r"<tr", table)) == 1 + 3  # the head and the top three
    assert "p0" not in table
    assert "Provisional" in page
    assert re.search(r"Puesto 6 de 6", page)
    assert client.get("/daily/ranking/")["Location"] == f"/daily/{today().isoformat()}/ranking/"


def test_a_past_days_ranking_is_final_and_shows_the_prizes(client, make_user, settings):
    day = today() - timedelta(days=2)
    ana, bea = make_user("ana"), make_user("bea")
    results_day(day, {ana: [2] * 6, bea: [1] * 6})
    services.days_close_due()
    client.force_login(bea)
    page = client.get(f"/daily/{day.isoformat()}/ranking/").content.decode()
    assert "Definitiva" in page and "100 monedas" in page
    assert (
        client.get(f"/daily/{(today() + timedelta(days=1)).isoformat()}/ranking/").status_code
        == 404
    )
    assert client.get("/daily/2026-02-30/ranking/").status_code == 404
    empty = client.get("/daily/2001-01-01/ranking/").content.decode()
    assert "Nadie jugó el reparto del día ese día" in empty


def test_a_deal_page_shows_after_the_deal_is_finished_only(client, player, make_user):
    bea = make_user("bea")
    play_day(bea, timezone.now(), deals=2)
    client.force_login(player)
    url = f"/daily/{today().isoformat()}/deals/1/"
    hidden = client.get(url)
    assert hidden.status_code == 403
    assert "Termina primero este reparto" in hidden.content.decode()
    client.post("/daily/play/")
    assert client.get(url).status_code == 403  # still being played
    play_out(player, Table.objects.get(owner=player).pk)
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="daily-results-chart"' in text and "<table" in text
    assert "Tu jugada" in text and "La línea que más puntuó" not in text  # till the day ends
    assert client.get(f"/daily/{today().isoformat()}/deals/7/").status_code == 404


def last_legal(view):
    return view["hand"]["legal_actions"][-1]


def _replay_part(page: str) -> str:
    return page[page.index('id="replay"') :]


def test_during_the_day_a_finished_deal_shows_only_your_own_hand_and_no_best_line(
    client, make_user
):
    """The hole: an account that finished a deal read all twenty cards and the line
    that scored best, which another account then copied move for move (the bots
    answer the same moves the same way)."""
    ana, bea = make_user("ana"), make_user("bea")
    play_day(bea, timezone.now(), choose=last_legal, deals=1)
    play_day(ana, timezone.now(), deals=1)
    client.force_login(ana)
    url = f"/daily/{today().isoformat()}/deals/1/"
    page = client.get(url + "?at=0").content.decode()
    replay = _replay_part(page)
    assert replay.count('class="daily-side"') == 1  # their own play only
    assert "La línea que más puntuó" not in page
    assert len(set(re.findall(r'data-card="(\w+)"', replay))) <= 6  # 5 cards and the trump
    assert replay.count('data-testid="daily-hidden-cards"') == 3
    assert 'data-testid="daily-secret-until-midnight"' in replay
    ranking = client.get(f"/daily/{today().isoformat()}/ranking/").content.decode()
    assert "resultados y tu jugada" in ranking and "mejor línea" not in ranking
    home = client.get("/daily/").content.decode()
    assert "Resultados y tu jugada" in home and "mejor línea" not in home


def test_once_the_day_is_over_every_hand_and_the_best_line_are_shown(client, make_user):
    from daily.models import DayStatus

    ana, bea = make_user("ana"), make_user("bea")
    play_day(bea, timezone.now(), choose=last_legal, deals=1)
    play_day(ana, timezone.now(), deals=1)
    DailyDay.objects.filter(date=today()).update(status=DayStatus.CLOSED)
    client.force_login(ana)
    replay = _replay_part(client.get(f"/daily/{today().isoformat()}/deals/1/").content.decode())
    assert "daily-hidden-cards" not in replay and "daily-secret-until-midnight" not in replay
    assert len(set(re.findall(r'data-card="(\w+)"', replay))) == 20


def test_the_side_by_side_replay_steps_through_both_lines(client, make_user):
    from daily.models import DayStatus

    ana, bea = make_user("ana"), make_user("bea")
    play_day(ana, timezone.now(), deals=1)
    play_day(bea, timezone.now(), choose=last_legal, deals=1)
    DailyDay.objects.filter(date=today()).update(status=DayStatus.CLOSED)  # the day is over
    client.force_login(ana)
    url = f"/daily/{today().isoformat()}/deals/1/"
    first = client.get(url).content.decode()
    moments = int(re.search(r"1 de (\d+)", first).group(1))
    assert moments >= 3
    assert first.count('class="daily-side"') in (1, 2)
    assert "El reparto" in first
    end = client.get(
        url + f"?at={moments - 1}", headers={"HX-Request": "true", "HX-Target": "replay"}
    )
    partial = end.content.decode()
    assert end.status_code == 200 and "<html" not in partial and 'id="replay"' in partial
    assert "Fin del reparto" in partial
    assert client.get(url + f"?at={moments}").status_code == 404
    assert client.get(url + "?at=abc").status_code == 400


def test_the_lobby_links_the_daily_deal(client, player):
    client.force_login(player)
    page = client.get("/play/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/daily/"' in page and "Play the daily deal" in page


def test_the_offline_page_offers_a_past_days_deals_up_to_yesterday(client):
    """Daily's region of offline practice (games.hooks' page sections): the form
    fetching a day's deals.json, yesterday at most, and the texts of the replay."""
    page = client.get("/play/offline/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    yesterday = (today() - timedelta(days=1)).isoformat()
    assert 'id="daily-past-form"' in page and 'data-url="/daily/2000-01-01/deals.json"' in page
    assert f'max="{yesterday}" value="{yesterday}"' in page
    found = re.search(r'id="offline-strings" type="application/json">(.*?)</script>', page)
    strings = json.loads(found.group(1))
    assert "sin clasificación" in strings["daily"]["mark"]  # in the page's language
    assert strings["files"]  # the page's own texts are still there


def test_offline_practice_gets_a_past_days_deals_but_never_todays(client):
    yesterday = today() - timedelta(days=1)
    response = client.get(f"/daily/{yesterday.isoformat()}/deals.json")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["date"] == yesterday.isoformat() and body["last_hand"] == 1
    assert [d["dealer"] for d in body["deals"]] == [3, 2, 1, 0, 3, 2]
    for day in (today(), today() + timedelta(days=1)):
        refused = client.get(f"/daily/{day.isoformat()}/deals.json")
        assert refused.status_code == 403
        assert refused.json()["error"] == "daily_day_not_over"
        assert "no se pueden jugar sin conexión" in refused.json()["message"]


def test_offline_practice_replays_the_deals_the_server_dealt(client, player, settings):
    from games.frames.offline_practice import OfflinePractice

    day = today() - timedelta(days=1)
    table = services.daily_play(user=player, now=timezone.now() - timedelta(days=1))
    served = Match.objects.get(table=table)
    deal = client.get(f"/daily/{day.isoformat()}/deals.json").json()["deals"][0]
    offline = OfflinePractice(
        rules="online",
        level="hard",
        seed=int(deal["seed"]),
        first_dealer=deal["dealer"],
        last_hand=1,
    )
    from games.state import engine_match

    assert offline.match.hand.dealt_hands == engine_match(served).hand.dealt_hands
    # A decimal string: a JavaScript number would round the 62-bit seed.
    assert deal["seed"] == str(deal_seed(secret=settings.DAILY_SECRET, day=day, number=1))


def test_nothing_a_client_receives_carries_the_secret_or_tomorrows_deals(client, player, settings):
    """Every page, frame and answer of a whole day's play, scanned for the secret (or
    the site's key it may be derived from), for tomorrow's seeds, and for the hands
    tomorrow's deals would deal."""
    from daily.deals import deal_dealer, deal_match

    client.force_login(player)
    seen: list[str] = []
    for _ in range(6):
        response = client.post("/daily/play/")
        table_url = response["Location"]
        seen.append(client.get(table_url).content.decode())
        play_out(player, Table.objects.filter(owner=player).order_by("-pk").first().pk)
        seen.append(client.get(table_url).content.decode())
    day = DailyDay.objects.get()
    services.standings_refresh(day_id=day.pk)
    for url in (
        "/daily/",
        f"/daily/{today().isoformat()}/ranking/",
        *(f"/daily/{today().isoformat()}/deals/{n}/" for n in range(1, 7)),
        f"/daily/{(today() - timedelta(days=1)).isoformat()}/deals.json",
        f"/daily/{today().isoformat()}/deals.json",
        f"/u/{player.username}/record/",
    ):
        seen.append(client.get(url).content.decode())
    everything = "\n".join(seen)
    tomorrow = today() + timedelta(days=1)
    for n in range(1, 7):
        seed = deal_seed(secret=settings.DAILY_SECRET, day=tomorrow, number=n)
        assert str(seed) not in everything
        hands = deal_match(seed=seed, dealer=deal_dealer(n)).hand.dealt_hands
        assert " ".join(hands[1]) not in everything
    for secret in (settings.DAILY_SECRET, settings.SECRET_KEY):
        assert secret not in everything


def _tile(page: str, testid: str) -> str:
    return page.split(f'data-testid="{testid}"')[1].split("</li>")[0]


def test_a_newcomer_reads_why_there_is_no_score_or_place_yet(client, player, make_user):
    """Never "— / Puesto entre 0 jugadores": a sentence saying why there is no figure."""
    client.force_login(player)
    page = client.get("/daily/").content.decode()
    assert "Aún no has jugado hoy." in _tile(page, "daily-score")
    assert "Nadie ha jugado todavía: juega el primer reparto para entrar en la clasificación." in (
        _tile(page, "daily-place")
    )
    assert "entre 0" not in page and '<span class="tile-value">—' not in page
    # Others ranked, the newcomer still out of it: how many, in the right plural.
    bea = make_user("bea")
    play_day(bea, timezone.now(), deals=1)
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    page = client.get("/daily/").content.decode()
    assert "1 jugador en la clasificación por ahora" in _tile(page, "daily-place")
    # Ranked: the place among the players, in the right plural.
    play_day(player, timezone.now(), deals=1)
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    page = client.get("/daily/").content.decode()
    place = _tile(page, "daily-place")
    assert re.search(r'tile-value">[12]</span>', place) and "Puesto entre 2 jugadores" in place
    assert "%" in _tile(page, "daily-score")


def test_alone_on_a_deal_one_reads_so_and_not_a_percentile(client, player, make_user):
    play_day(player, timezone.now(), deals=1)
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    client.force_login(player)
    url = f"/daily/{today().isoformat()}/deals/1/"
    mine = client.get(url).content.decode().split('data-testid="daily-my-result"')[1]
    mine = mine.split("</p>")[0]
    assert "Nadie más ha terminado este reparto todavía" in mine and "Has superado" not in mine
    home = _tile(client.get("/daily/").content.decode(), "daily-deal-1")
    assert "nadie más lo ha terminado todavía" in home and "% por ahora" not in home
    # Someone else finishes it: the percentile, as always.
    play_day(make_user("bea"), timezone.now(), deals=1)
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    mine = client.get(url).content.decode().split('data-testid="daily-my-result"')[1]
    assert re.search(r"Has superado al [\d,]+%", mine.split("</p>")[0])
    home = _tile(client.get("/daily/").content.decode(), "daily-deal-1")
    assert "% por ahora" in home and "nadie más" not in home


def test_alone_on_a_deal_of_a_closed_day_one_reads_nobody_else_played_it(client, make_user):
    ana = make_user("ana")
    play_day(ana, timezone.now(), deals=1)
    services.day_close(day_id=DailyDay.objects.get().pk, now=timezone.now() + timedelta(days=1))
    day = today()
    client.force_login(ana)
    page = client.get(f"/daily/{day.isoformat()}/deals/1/").content.decode()
    assert "Nadie más jugó este reparto" in page and "Has superado" not in page
