"""The tournament pages (tournaments.views): the list, a tournament's page and its live
region, registering and withdrawing (every refusal shown), the table's panel."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from social.models import Block
from tests.tournaments.conftest import befriend, games_in_play, play_all
from tournaments.models import Entry, EntryState, TournamentState
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tournament-entry"}
LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "tournament-live"}


def register_pairs(tournament, cast):
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)


def started(make_tournament, players, clock, *, teams=4, **fields):
    """A tournament of `teams` fixed pairs whose round one is being played."""
    tournament = make_tournament(**fields)
    cast = players(2 * teams)
    register_pairs(tournament, cast)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    return tournament, cast


# The list ------------------------------------------------------------------------------


def test_the_list_is_open_to_everyone_and_asks_a_visitor_to_log_in(client, make_tournament):
    make_tournament(name="Sábado suizo")
    response = client.get(reverse("tournaments:list"))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Sábado suizo" in body
    assert "Inicia sesión para inscribirte" in body or "Log in to register" in body


def test_the_list_sorts_upcoming_running_and_finished(client, make_tournament, player, clock):
    soon = make_tournament(name="Soon")
    later = make_tournament(
        name="Later",
        registration_closes_at=clock() + timedelta(days=1),
        starts_at=clock() + timedelta(days=1, hours=1),
    )
    client.force_login(player)
    lists = client.get(reverse("tournaments:list")).context["lists"]
    assert [c.tournament.pk for c in lists.upcoming] == [soon.pk, later.pk]
    assert lists.running == [] and lists.finished == []


def test_the_list_offers_friends_as_partners_and_shows_the_countdown(
    client, make_tournament, players
):
    ana, bea, cai = players(3)
    befriend(ana, bea)
    make_tournament(entry_fee=0)
    client.force_login(ana)
    response = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="en")
    body = response.content.decode()
    assert f'<option value="{bea.username}">' in body
    assert cai.username not in body
    assert "data-countdown" in body
    assert "Alone: pair me by rating" in body


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("es", "1 equipo", "2 equipos"),
        ("en", "1 team", "2 teams"),
        ("fr", "1 équipe", "2 équipes"),
        ("it", "1 squadra", "2 squadre"),
        ("ko", "1팀", "2팀"),
        ("th", "1 ทีม", "2 ทีม"),
    ],
)
def test_the_list_counts_teams_in_six_languages(
    client, make_tournament, players, language, one, two
):
    first, second = make_tournament(name="A"), make_tournament(name="B")
    cast = players(6)
    register_pairs(first, cast[:2])
    register_pairs(second, cast[2:])
    client.cookies["django_language"] = language
    body = client.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert one in body and two in body


def test_the_list_refuses_a_post(client, player):
    client.force_login(player)
    assert client.post(reverse("tournaments:list")).status_code == 405


# Registering ---------------------------------------------------------------------------


def test_registering_alone_from_the_list_goes_back_to_it_with_a_notice(
    client, make_tournament, player
):
    tournament = make_tournament()
    client.force_login(player)
    response = client.post(
        reverse("tournaments:register", args=[tournament.pk]), {"partner": "", "from": "list"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:list")
    entry = Entry.objects.get(tournament=tournament)
    assert entry.single and entry.player_a_id == player.pk
    page = client.get(response["Location"]).content.decode()
    assert "Estás inscrito" in page


def test_registering_with_a_friend_by_htmx_swaps_the_entry_region(client, make_tournament, players):
    ana, bea = players(2)
    befriend(ana, bea)
    tournament = make_tournament()
    client.force_login(ana)
    response = client.post(
        reverse("tournaments:register", args=[tournament.pk]),
        {"partner": bea.username},
        HTTP_ACCEPT_LANGUAGE="en",
        **HTMX,
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="tournament-entry"')
    assert f"You are registered with {bea.username}." in body
    entry = Entry.objects.get(tournament=tournament)
    assert entry.player_ids == [ana.pk, bea.pk]


def refusal(client, tournament, data, language="en"):
    response = client.post(
        reverse("tournaments:register", args=[tournament.pk]),
        data,
        HTTP_ACCEPT_LANGUAGE=language,
        **HTMX,
    )
    assert response.status_code == 200
    return response.content.decode()


def test_registering_twice_is_refused_clearly(client, make_tournament, player):
    tournament = make_tournament()
    client.force_login(player)
    refusal(client, tournament, {"partner": ""})
    body = refusal(client, tournament, {"partner": ""})
    assert 'role="alert"' in body
    assert "You are already registered in this tournament." in body
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_registering_after_the_close_is_refused(client, make_tournament, player, clock):
    tournament = make_tournament(
        state=TournamentState.REGISTRATION_CLOSED,
        registration_opens_at=clock() - timedelta(hours=2),
        registration_closes_at=clock() - timedelta(minutes=1),
    )
    client.force_login(player)
    body = refusal(client, tournament, {"partner": ""})
    assert "Registration for this tournament is not open." in body
    assert not Entry.objects.exists()


def test_registering_without_the_coins_is_refused(client, make_tournament, player):
    tournament = make_tournament(entry_fee=50_000)
    client.force_login(player)
    body = refusal(client, tournament, {"partner": ""})
    assert "You do not have enough coins for the entry fee" in body
    assert not Entry.objects.exists()


def test_registering_with_a_blocked_partner_is_refused_without_saying_who_blocked(
    client, make_tournament, players
):
    ana, bea = players(2)
    befriend(ana, bea)
    Block.objects.create(blocker=bea, blocked=ana)
    tournament = make_tournament()
    client.force_login(ana)
    body = refusal(client, tournament, {"partner": bea.username})
    assert "You cannot enter this tournament with that partner." in body
    assert "block" not in body.lower().split("tournament-entry")[1].split("</section>")[0]


def test_registering_with_a_stranger_or_an_unknown_name_is_refused(
    client, make_tournament, players
):
    ana, zoe = players(2)
    tournament = make_tournament()
    client.force_login(ana)
    assert "Your partner must be one of your friends." in refusal(
        client, tournament, {"partner": zoe.username}
    )
    assert "There is no player of that name." in refusal(
        client, tournament, {"partner": "nobody-at-all"}
    )
    assert not Entry.objects.exists()


def test_a_bad_form_is_refused_and_nothing_written(client, make_tournament, player):
    tournament = make_tournament()
    client.force_login(player)
    body = refusal(client, tournament, {"partner": "x" * 151})
    assert "Choose a partner from your friends, or none." in body
    assert not Entry.objects.exists()


def test_a_refusal_without_javascript_goes_back_to_the_page_with_the_message(
    client, make_tournament, player
):
    tournament = make_tournament(entry_fee=50_000)
    client.force_login(player)
    response = client.post(reverse("tournaments:register", args=[tournament.pk]), {}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("tournaments:detail", args=[tournament.pk])
    assert "No tienes suficientes monedas" in response.content.decode() or any(
        m.level_tag == "error" for m in response.context["messages"]
    )


def test_registering_needs_a_login_and_a_post(client, make_tournament, player):
    tournament = make_tournament()
    url = reverse("tournaments:register", args=[tournament.pk])
    response = client.post(url, {"partner": ""})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert not Entry.objects.exists()
    client.force_login(player)
    assert client.get(url).status_code == 405


def test_an_unknown_tournament_is_not_found(client, player):
    assert client.get(reverse("tournaments:detail", args=[999_999])).status_code == 404
    client.force_login(player)
    assert client.post(reverse("tournaments:register", args=[999_999])).status_code == 404
    assert client.post(reverse("tournaments:withdraw", args=[999_999])).status_code == 404


# Withdrawing ---------------------------------------------------------------------------


def test_withdrawing_gives_the_place_back(client, make_tournament, player, coins_of):
    tournament = make_tournament()
    before = coins_of(player)
    client.force_login(player)
    refusal(client, tournament, {"partner": ""})
    assert coins_of(player) == before - tournament.entry_fee
    response = client.post(
        reverse("tournaments:withdraw", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert "You have withdrawn." in response.content.decode()
    assert Entry.objects.get(tournament=tournament).state == EntryState.WITHDRAWN
    assert coins_of(player) == before


def test_withdrawing_without_an_entry_or_after_the_start_is_refused(
    client, make_tournament, players, clock
):
    tournament, cast = started(make_tournament, players, clock)
    client.force_login(cast[0])
    response = client.post(
        reverse("tournaments:withdraw", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert "The tournament has started: you can no longer withdraw." in response.content.decode()
    assert Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).count() == 4
    open_one = make_tournament(name="Open")
    (outsider,) = players(1, prefix="out")
    client.force_login(outsider)
    response = client.post(
        reverse("tournaments:withdraw", args=[open_one.pk]), HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert "You are not registered in this tournament." in response.content.decode()


def test_withdrawing_needs_a_login(client, make_tournament):
    tournament = make_tournament()
    response = client.post(reverse("tournaments:withdraw", args=[tournament.pk]))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


# A tournament's page -------------------------------------------------------------------


def test_the_page_before_the_start_lists_entrants_and_polls_slowly(
    client, make_tournament, players
):
    tournament = make_tournament()
    cast = players(3)
    register_pairs(tournament, cast[:2])
    tournament_register(tournament_id=tournament.pk, user=cast[2])
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    body = response.content.decode()
    page = response.context["page"]
    assert response.status_code == 200
    assert page.team_count == 1 and page.singles == 1
    assert f"{cast[0].username} & {cast[1].username}" in body
    assert "looking for a partner" in body
    assert 'hx-trigger="every 60s"' in body


def test_a_player_is_told_their_table_and_others_may_watch(client, make_tournament, players, clock):
    tournament, cast = started(make_tournament, players, clock)
    client.force_login(cast[0])
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    body = response.content.decode()
    notice = response.context["page"].notice
    assert notice.kind == "play" and notice.round == 1
    assert f"Round 1: you play at table {notice.table}." in body
    assert reverse("games:table", args=[notice.table_id]) in body
    assert 'hx-trigger="every 5s"' in body
    (watcher,) = players(1, prefix="w")
    client.force_login(watcher)
    body = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Watch table 1" in body and "Watch table 2" in body


def test_the_live_region_alone_answers_the_poll(client, make_tournament, players, clock):
    tournament, cast = started(make_tournament, players, clock)
    client.force_login(cast[0])
    response = client.get(reverse("tournaments:detail", args=[tournament.pk]), **LIVE)
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="tournament-live"')
    assert "<html" not in body


def test_swiss_standings_and_the_next_round_notice_after_a_round(
    client, make_tournament, players, clock
):
    tournament, cast = started(make_tournament, players, clock)
    play_all(tournament, winner_a=True, margin=6)
    tournaments_tick(now=clock())
    client.force_login(cast[0])
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    page = response.context["page"]
    assert [row.played for row in page.standings] == [1, 1, 1, 1]
    assert sorted(row.vp for row in page.standings) == [7, 7, 13, 13]
    assert page.standings[0].rank == 1
    if page.notice.kind == "next":
        assert "Round 2 starts" in response.content.decode()
    else:  # the pause is over already: round 2 seated
        assert page.notice.kind in {"play", "bye"}


def test_a_knockout_shows_its_bracket(client, make_tournament, players, clock):
    tournament, _ = started(make_tournament, players, clock, format="knockout", teams=3)
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    bracket = response.context["page"].bracket
    assert [len(r.ties) for r in bracket] == [2, 1]
    assert sum(t.bye for t in bracket[0].ties) == 1
    body = response.content.decode()
    assert "Semi-finals" in body and "Final" in body and "to be decided" in body


def test_a_finished_tournament_shows_final_places_and_prizes(
    client, make_tournament, players, clock
):
    tournament, cast = started(make_tournament, players, clock, rounds=1, teams=2)
    for _ in range(5):
        play_all(tournament)
        clock.advance(600)
        tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    client.force_login(cast[0])
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    page = response.context["page"]
    assert [row.rank for row in page.standings] == [1, 2]
    assert page.notice.kind == "done"
    assert "Final standings" in response.content.decode()
    assert "hx-trigger" not in response.content.decode().split('id="tournament-live"')[1][:80]


# The table's panel ---------------------------------------------------------------------


def test_the_table_panel_names_the_tournament_round_and_table(
    client, make_tournament, players, clock
):
    tournament, cast = started(make_tournament, players, clock)
    game = games_in_play(tournament)[0]
    client.force_login(cast[0])
    response = client.get(
        reverse("tournaments:table_panel", args=[game.table_id]), HTTP_ACCEPT_LANGUAGE="en"
    )
    body = response.content.decode()
    assert tournament.name in body
    assert f"round 1, table {game.pairing.number}" in body
    assert " & ".join(u.username for u in cast[:2]) in body or "bye" in body


def test_the_table_panel_of_another_table_is_not_found_and_needs_a_login(
    client, player, make_tournament
):
    url = reverse("tournaments:table_panel", args=[999_999])
    assert client.get(url).status_code == 302
    client.force_login(player)
    assert client.get(url).status_code == 404


def test_a_round_and_the_full_standings_are_asked_by_the_query(
    client, make_tournament, players, clock
):
    tournament, _ = started(make_tournament, players, clock)
    play_all(tournament)
    clock.advance(5)
    tournaments_tick(now=clock())
    url = reverse("tournaments:detail", args=[tournament.pk])
    page = client.get(url + "?round=1&standings=all").context["page"]
    assert page.shown.number == 1 and not page.shown.cut
    assert page.standings_shown == page.standings


@pytest.mark.parametrize(
    ("query", "status"), [("round=abc", 400), ("round=99", 404), ("round=0", 404)]
)
def test_a_bad_round_in_the_query_is_an_error_not_a_page(
    client, make_tournament, players, clock, query, status
):
    tournament, _ = started(make_tournament, players, clock)
    url = reverse("tournaments:detail", args=[tournament.pk])
    assert client.get(f"{url}?{query}").status_code == status


def test_a_bad_standings_option_is_ignored(client, make_tournament, players, clock):
    tournament, _ = started(make_tournament, players, clock)
    url = reverse("tournaments:detail", args=[tournament.pk])
    assert client.get(url + "?standings=" + "x" * 500).status_code == 200


@pytest.mark.parametrize(
    ("fields", "teams", "column"),
    [
        ({"format": "arena", "round_minutes": 30}, 4, "Matches"),
        ({"format": "duplicate", "rounds": 3}, 6, "Boards"),
    ],
)
def test_arena_and_duplicate_pages_show_their_own_standings(
    client, make_tournament, players, clock, fields, teams, column
):
    tournament, cast = started(make_tournament, players, clock, teams=teams, **fields)
    play_all(tournament, winner_a=True)
    clock.advance(5)
    tournaments_tick(now=clock())
    client.force_login(cast[0])
    response = client.get(
        reverse("tournaments:detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert f'<th scope="col">{column}</th>' in response.content.decode()
    assert len(response.context["page"].standings) == teams


def test_registering_with_a_partner_already_in_is_refused(client, make_tournament, players):
    ana, bea = players(2)
    befriend(ana, bea)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=bea)
    client.force_login(ana)
    body = refusal(client, tournament, {"partner": bea.username})
    assert "Your partner is already registered in this tournament." in body
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_registering_in_a_full_tournament_is_refused(client, make_tournament, players):
    tournament = make_tournament(min_entries=2, max_entries=2)
    cast = players(5)
    register_pairs(tournament, cast[:4])
    client.force_login(cast[4])
    body = refusal(client, tournament, {"partner": ""})
    assert "This tournament is full." in body


def test_registering_with_yourself_is_refused(client, make_tournament, player):
    tournament = make_tournament()
    client.force_login(player)
    body = refusal(client, tournament, {"partner": player.username})
    assert "Choose a partner other than yourself." in body


def test_a_tournament_tables_page_fetches_the_tournament_panel(
    client, make_tournament, players, clock
):
    tournament, cast = started(make_tournament, players, clock)
    game = games_in_play(tournament)[0]
    player = next(p for p in cast if p.pk in game.pairing.entry_a.player_ids)
    client.force_login(player)
    body = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert f'hx-get="{reverse("tournaments:table_panel", args=[game.table_id])}"' in body
