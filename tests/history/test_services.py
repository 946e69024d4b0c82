import importlib

import pytest
from django.apps import apps

from games.state import engine_match
from history.figures import seat_figures
from history.models import PlayerMatch
from history.services import player_matches_rebuild
from tests.history.conftest import play_practice, store_finished, store_record
from tests.history.handbuilt import FIGURES, RECORD


@pytest.mark.django_db
def test_a_match_settled_by_the_services_is_recorded_for_its_person_with_the_hand_figures(
    player,
):
    match = play_practice(player)
    line = PlayerMatch.objects.get(match=match)
    seat = match.match_seats.get(user=player)
    assert (line.user, line.position, line.mode, line.rules) == (player, 0, "practice", "online")
    assert line.outcome == ("won" if seat.won else "lost")
    assert line.finished_at == match.finished_at
    assert (line.own_score, line.other_score) == (match.score_a, match.score_b)
    assert (line.partner, line.opponent_1, line.opponent_2) == (None, None, None)  # bots
    figures = seat_figures(engine_match(match), 0)
    assert figures["hands"] > 0
    assert {name: getattr(line, name) for name in figures} == figures


@pytest.mark.django_db
def test_recording_a_match_twice_keeps_one_row_per_person(player, stranger):
    match = store_finished([player, stranger, None, None], 1)[0]
    player_matches_rebuild(match_id=match.pk)
    assert PlayerMatch.objects.filter(match=match).count() == 2


@pytest.mark.django_db
def test_an_unknown_or_unfinished_match_records_nothing(player):
    assert player_matches_rebuild(match_id=987654) == []


@pytest.mark.django_db
def test_the_backfill_records_matches_finished_before_the_history_did(make_user):
    ana, bea, carlos = (make_user(n) for n in ("ana", "bea", "carlos"))
    match = store_record([ana, bea, carlos, None], RECORD, abandoned=(1,))
    PlayerMatch.objects.all().delete()
    migration = importlib.import_module("history.migrations.0002_backfill_player_matches")
    migration.backfill(apps, None)
    lines = {line.position: line for line in PlayerMatch.objects.filter(match=match)}
    assert sorted(lines) == [0, 1, 2]
    assert lines[1].outcome == "abandoned"
    assert (lines[0].partner, lines[0].opponent_1, lines[0].opponent_2) == (carlos, bea, None)
    for position, figures in FIGURES.items():
        assert {name: getattr(lines[position], name) for name in figures} == figures
