"""Staff abort a live match: everyone is told, stakes come back once, nobody earns."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group

from economy.models import Transaction, TransactionKind
from economy.selectors import balances
from economy.services import ledger_grant, stake_place
from games import errors
from games.models import Match, MatchStatus, Mode, Seat, Table, TableStatus
from games.services import match_abort
from tests.games.conftest import live_match


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.fixture
def finance_user(make_user):
    user = make_user("cashier", is_staff=True)
    user.groups.add(Group.objects.get(name="finance"))
    return user


@pytest.mark.django_db
def test_a_moderator_aborts_a_live_match_with_a_reason_in_the_admin_log(
    started_room, moderator, django_capture_on_commit_callbacks
):
    match = live_match(started_room)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        match_abort(match_id=match.pk, staff_user=moderator, reason="server trouble")
    assert callbacks  # the table's frames go out after commit
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert Table.objects.get(pk=started_room.pk).status == TableStatus.CANCELLED
    assert not Seat.objects.filter(table=started_room, live=True).exists()
    entry = LogEntry.objects.get(user=moderator)
    assert "server trouble" in entry.change_message


@pytest.mark.django_db
def test_an_aborted_match_pays_no_rewards(started_room, moderator):
    match = live_match(started_room)
    match_abort(match_id=match.pk, staff_user=moderator, reason="cheating ring")
    assert not Transaction.objects.filter(
        match_id=match.pk, kind=TransactionKind.MATCH_REWARD
    ).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["", "   "])
def test_an_abort_needs_a_reason(started_room, moderator, reason):
    match = live_match(started_room)
    with pytest.raises(errors.ReasonRequired):
        match_abort(match_id=match.pk, staff_user=moderator, reason=reason)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.PLAYING


@pytest.mark.django_db
def test_a_finance_user_cannot_abort(started_room, finance_user):
    match = live_match(started_room)
    with pytest.raises(errors.NotAllowed):
        match_abort(match_id=match.pk, staff_user=finance_user, reason="not my job")
    assert Match.objects.get(pk=match.pk).status == MatchStatus.PLAYING


@pytest.mark.django_db
def test_only_a_live_match_can_be_aborted_and_only_once(started_room, moderator):
    match = live_match(started_room)
    match_abort(match_id=match.pk, staff_user=moderator, reason="first")
    with pytest.raises(errors.MatchNotLive):
        match_abort(match_id=match.pk, staff_user=moderator, reason="again")
    with pytest.raises(errors.MatchNotLive):
        match_abort(match_id=999999, staff_user=moderator, reason="unknown")
    assert LogEntry.objects.count() == 1


@pytest.mark.django_db
def test_aborting_a_stake_match_refunds_every_stake_exactly_once(
    started_room, player, partner, opponent, moderator
):
    Table.objects.filter(pk=started_room.pk).update(mode=Mode.STAKE)
    people = [player, partner, opponent]
    before = {}
    for user in people:
        ledger_grant(user=user, amount=500, idempotency_key=f"test:{user.pk}")
        before[user.pk] = balances(user)["coins"]
        stake_place(user=user, table_id=started_room.pk, amount=250)
    match = live_match(started_room)
    match_abort(match_id=match.pk, staff_user=moderator, reason="stake table stuck")
    with pytest.raises(errors.MatchNotLive):
        match_abort(match_id=match.pk, staff_user=moderator, reason="twice")
    for user in people:
        assert balances(user)["coins"] == before[user.pk]
    assert (
        Transaction.objects.filter(table_id=started_room.pk, kind=TransactionKind.REFUND).count()
        == 1
    )
