"""Two players who play the same cards meet the same bot play and get the same score:
the hard bots' choices depend on the deal and the play alone (seeded, no clock)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from cuatrola.bots import search
from daily import services
from daily.models import DailyDay, DailyEntry, DailyPlay
from tests.daily.conftest import play_day

pytestmark = pytest.mark.django_db


def last_legal(view: dict) -> str:
    return view["hand"]["legal_actions"][-1]


def actions_of(user) -> list[list[tuple[int, str, str]]]:
    return [
        list(play.match.actions.order_by("number").values_list("seat", "action", "source"))
        for play in DailyPlay.objects.filter(entry__user=user)
        .select_related("match")
        .order_by("deal__number")
    ]


def test_two_players_who_play_identically_meet_the_same_hard_bots_and_score_the_same(
    make_user, settings, monkeypatch
):
    settings.DAILY_BOT_LEVEL = "hard"
    ana, bea, cruz = make_user("ana"), make_user("bea"), make_user("cruz")
    now = timezone.now()
    play_day(ana, now, deals=3)
    # Bea's bots think on a machine so loaded that a clock would cut every search.
    ticks = iter(range(10**9))
    monkeypatch.setattr(search.time, "perf_counter", lambda: float(next(ticks)))
    play_day(bea, now, deals=3)
    monkeypatch.undo()
    play_day(cruz, now, choose=last_legal, deals=3)
    assert actions_of(ana) == actions_of(bea)
    assert all(len(deal) > 4 for deal in actions_of(ana))
    results = {
        user.username: [
            p.result for p in DailyPlay.objects.filter(entry__user=user).order_by("deal__number")
        ]
        for user in (ana, bea, cruz)
    }
    assert results["ana"] == results["bea"]
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    entries = {e.user.username: e for e in DailyEntry.objects.select_related("user")}
    assert entries["ana"].score == entries["bea"].score
    assert entries["ana"].rank == entries["bea"].rank
    # Someone who played otherwise met other play (the same deals, though).
    assert actions_of(cruz) != actions_of(ana)
