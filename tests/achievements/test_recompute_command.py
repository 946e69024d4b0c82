"""`manage.py recompute_achievements`: history in, the live path's awards out."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from achievements.models import Award
from achievements.services import achievements_for_match
from tests.history.conftest import store_finished

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command("recompute_achievements", *args, stdout=out)
    return out.getvalue()


def test_the_command_grants_what_history_holds_and_a_second_run_grants_nothing(player):
    store_finished([player, None, None, None], 3)
    assert "Granted 2 achievements to 1 players." in run()
    assert set(Award.objects.values_list("code", flat=True)) == {"first_win", "shutout"}
    assert "Nothing to grant" in run()


def test_the_command_equals_the_live_path(player, stranger):
    matches = store_finished([player, stranger, None, None], 10)
    for match in sorted(matches, key=lambda m: m.finished_at):
        achievements_for_match(match_id=match.pk)
    live = set(Award.objects.values_list("user_id", "code", "achieved_at", "match_id"))
    Award.objects.all().delete()
    run()
    assert set(Award.objects.values_list("user_id", "code", "achieved_at", "match_id")) == live


def test_the_command_can_serve_named_players_only(player, stranger):
    store_finished([player, None, stranger, None], 1)
    run("--user", "ana")
    assert set(Award.objects.values_list("user__username", flat=True)) == {"ana"}


def test_an_unknown_user_is_a_clear_error(player):
    with pytest.raises(CommandError, match="no such user: nobody"):
        run("--user", "nobody", "--user", "ana")


def test_an_empty_user_is_a_clear_error(player):
    with pytest.raises(CommandError, match="needs a username"):
        run("--user", " ")


def test_an_unknown_argument_is_refused():
    with pytest.raises(CommandError):
        run("--everyone")
