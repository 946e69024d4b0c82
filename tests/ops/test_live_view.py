"""The staff's live view: the last hour's figures, from the database, for staff only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from economy.models import LedgerAudit
from games.models import (
    Match,
    MatchAction,
    MatchSeat,
    MatchStatus,
    Mode,
    RuleSetName,
    Table,
    TableStatus,
)
from online.models import QueueEntry, QueueSeating

pytestmark = pytest.mark.django_db


def finished_match(owner, *, minutes_ago: int, abandoned: int, mode=Mode.ONLINE) -> Match:
    now = timezone.now()
    table = Table.objects.create(mode=mode, owner=owner, status=TableStatus.FINISHED)
    match = Match.objects.create(
        table=table,
        rules=RuleSetName.ONLINE,
        seed=1,
        first_dealer=0,
        status=MatchStatus.FINISHED,
        finished_at=now - timedelta(minutes=minutes_ago),
    )
    for position in range(4):
        MatchSeat.objects.create(
            match=match,
            position=position,
            user=owner if position == 0 else None,
            is_bot=position == 3,
            abandoned=position < abandoned,
        )
    return match


def moves(match: Match, count: int, *, minutes_ago: int) -> None:
    at = timezone.now() - timedelta(minutes=minutes_ago)
    start = MatchAction.objects.filter(match=match).count()
    MatchAction.objects.bulk_create(
        [
            MatchAction(match=match, number=start + n + 1, hand_no=1, seat=0, action="pass")
            for n in range(count)
        ]
    )
    MatchAction.objects.filter(match=match, number__gt=start).update(created_at=at)


def test_staff_read_the_last_hours_figures(staff_user, make_user):
    owner = make_user("owner")
    now = timezone.now()
    recent = finished_match(owner, minutes_ago=10, abandoned=1)
    finished_match(owner, minutes_ago=20, abandoned=0, mode=Mode.STAKE)
    old = finished_match(owner, minutes_ago=90, abandoned=2)  # outside the hour
    moves(recent, 30, minutes_ago=12)
    moves(old, 50, minutes_ago=95)
    Table.objects.create(mode=Mode.PRACTICE, owner=owner, status=TableStatus.PLAYING)
    QueueEntry.objects.create(user=make_user("waiting"), joined_at=now)
    for waited in (2000, 4000, 30000):
        QueueSeating.objects.create(
            seated_at=now - timedelta(minutes=5), waited_ms=waited, table=recent.table, bot_seats=1
        )
    LedgerAudit.objects.create(ran_at=now - timedelta(minutes=30), seconds=1.5, violations=0)
    client = Client()
    client.force_login(staff_user)
    response = client.get("/admin/live/")
    assert response.status_code == 200
    figures = response.context["figures"]
    assert figures["tables_playing"]["practice"] == 1
    assert figures["finished"]["online"] == figures["finished"]["stake"] == 1
    assert sum(figures["finished"].values()) == 2  # every mode listed, 0 when none
    # Human seats of the hour's matches: 3 each; one abandoned.
    assert figures["abandoned"] == 1
    assert figures["abandon_rate"] == pytest.approx(100 / 6)
    assert figures["moves"] == 30
    assert figures["moves_per_second"] == pytest.approx(30 / 3600, rel=0.02)
    assert len(figures["buckets"]) == 12
    assert figures["seated"] == 3
    assert figures["wait_p50"] == 4.0
    assert figures["wait_p95"] == 30.0
    assert figures["bot_share"] == 25
    assert figures["queue_waiting"] == 1
    assert figures["audit"].passed and not figures["audit_stale"]
    text = response.content.decode()
    assert "Live figures" in text or "Cifras en directo" in text
    assert sum(bucket.moves for bucket, _ in figures["buckets"]) == 30


def test_an_empty_hour_reads_as_nothing_happened(staff_user):
    client = Client()
    client.force_login(staff_user)
    response = client.get("/admin/live/")
    assert response.status_code == 200
    figures = response.context["figures"]
    assert figures["wait_p50"] is None and figures["bot_share"] is None
    assert figures["abandon_rate"] is None and figures["moves"] == 0
    assert figures["audit"] is None and figures["audit_stale"]


def test_a_failed_or_late_audit_is_shown_as_such(staff_user):
    LedgerAudit.objects.create(ran_at=timezone.now() - timedelta(days=2), seconds=1, violations=4)
    client = Client()
    client.force_login(staff_user)
    figures = client.get("/admin/live/").context["figures"]
    assert not figures["audit"].passed and figures["audit_stale"]


def test_players_and_anonymous_visitors_are_sent_to_the_log_in(player):
    assert Client().get("/admin/live/").status_code == 302
    client = Client()
    client.force_login(player)
    response = client.get("/admin/live/")
    assert response.status_code == 302 and "login" in response["Location"]
