"""The player page's achievements: held ones with their date and rarity, the others
locked with their condition, the rarity one cached aggregate."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from achievements.cached import rarity
from achievements.rules import ACHIEVEMENTS
from achievements.selectors import player_achievements
from achievements.services import achievements_for_match
from tests.history.conftest import store_finished

pytestmark = pytest.mark.django_db


def test_the_player_page_shows_held_and_locked_achievements(client, player, stranger):
    [match] = store_finished([player, stranger, None, None], 1)
    achievements_for_match(match_id=match.pk)
    body = client.get("/u/ana/record/").content.decode()
    assert 'data-testid="achievements"' in body
    assert body.count('class="achievement is-held"') == 2
    assert body.count('class="achievement is-locked"') == len(ACHIEVEMENTS) - 2
    # Half of the two players hold the first win.
    assert "50,0" in body or "50.0" in body


def test_held_achievements_come_first_with_their_date(player):
    [match] = store_finished([player, None, None, None], 1)
    achievements_for_match(match_id=match.pk)
    lines = player_achievements(user_id=player.pk)
    assert [line.held for line in lines[:3]] == [True, True, False]
    assert lines[0].achieved_at == match.finished_at
    assert lines[0].share == 100.0


def test_a_player_without_matches_sees_every_achievement_locked_with_no_share(player):
    lines = player_achievements(user_id=player.pk)
    assert not any(line.held for line in lines)
    assert {line.share for line in lines} == {None}
    assert all(line.condition for line in lines)


def test_the_rarity_is_two_queries_then_none(player):
    with CaptureQueriesContext(connection) as first:
        rarity()
    with CaptureQueriesContext(connection) as second:
        rarity()
    assert len(first) == 2
    assert len(second) == 0


def test_the_panel_reads_in_two_queries_whatever_is_held(player):
    matches = store_finished([player, None, None, None], 12)
    for match in matches:
        achievements_for_match(match_id=match.pk)
    rarity()
    with CaptureQueriesContext(connection) as queries:
        player_achievements(user_id=player.pk)
    assert len(queries) == 1


def test_spanish_speaks_with_tu_and_counts_in_plurals(client, player):
    from django.utils import translation

    with translation.override("es"):
        lines = {line.code: line for line in player_achievements(user_id=player.pk)}
        assert lines["wins_50"].condition == "Gana 50 partidas."
        assert lines["first_win"].condition == "Gana una partida."
