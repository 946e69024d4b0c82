import asyncio
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from accounts.errors import BanError
from accounts.models import Ban
from accounts.selectors import ban_in_force
from accounts.services import user_ban, user_unban
from accounts.signals import user_banned
from games.fanout.transport import _broadcast_loop


@pytest.mark.django_db
def test_a_ban_without_an_end_keeps_the_user_out(player, moderator):
    ban = user_ban(user=player, staff_user=moderator, reason="insults at the table")
    assert ban_in_force(player.pk) == ban
    assert ban.until is None
    assert ban.created_by == moderator


@pytest.mark.django_db
def test_a_ban_with_an_end_date_lapses_at_that_moment(player, moderator, clock):
    until = clock.now + timedelta(days=2)
    user_ban(user=player, staff_user=moderator, reason="abandoned five matches", until=until)
    clock.now = until - timedelta(seconds=1)
    assert ban_in_force(player.pk) is not None
    clock.now = until
    assert ban_in_force(player.pk) is None


@pytest.mark.django_db
@pytest.mark.parametrize("reason", ["", "   ", None])
def test_an_empty_reason_is_refused_and_nothing_is_written(player, moderator, reason):
    with pytest.raises(BanError):
        user_ban(user=player, staff_user=moderator, reason=reason)
    assert not Ban.objects.exists()
    assert not LogEntry.objects.exists()


@pytest.mark.django_db
def test_an_end_date_in_the_past_is_refused(player, moderator, clock):
    with pytest.raises(BanError):
        user_ban(
            user=player, staff_user=moderator, reason="x", until=clock.now - timedelta(minutes=1)
        )
    assert not Ban.objects.exists()


@pytest.mark.django_db
def test_staff_cannot_ban_themselves(moderator):
    with pytest.raises(BanError):
        user_ban(user=moderator, staff_user=moderator, reason="oops")


@pytest.mark.django_db
def test_a_superuser_cannot_be_banned(moderator, staff_user):
    with pytest.raises(BanError):
        user_ban(user=staff_user, staff_user=moderator, reason="mutiny")
    assert not Ban.objects.exists()


@pytest.mark.django_db
def test_a_finance_user_cannot_ban(player, finance_user):
    with pytest.raises(BanError):
        user_ban(user=player, staff_user=finance_user, reason="I do not like them")
    assert not Ban.objects.exists()


@pytest.mark.django_db
def test_a_new_ban_replaces_the_one_in_force_and_both_stay_in_the_history(player, moderator, clock):
    first = user_ban(
        user=player, staff_user=moderator, reason="first", until=clock.now + timedelta(days=1)
    )
    clock.advance(minutes=5)
    second = user_ban(user=player, staff_user=moderator, reason="second, for good")
    first.refresh_from_db()
    assert first.lifted_at == clock.now
    assert ban_in_force(player.pk) == second
    assert player.bans.count() == 2


@pytest.mark.django_db
def test_unbanning_lifts_the_ban_and_keeps_it_in_the_history(player, moderator):
    ban = user_ban(user=player, staff_user=moderator, reason="spam")
    assert user_unban(user=player, staff_user=moderator, reason="appeal accepted") == 1
    ban.refresh_from_db()
    assert ban_in_force(player.pk) is None
    assert ban.lifted_by == moderator
    assert ban.lift_reason == "appeal accepted"


@pytest.mark.django_db
def test_unbanning_someone_not_banned_is_refused(player, moderator):
    with pytest.raises(BanError):
        user_unban(user=player, staff_user=moderator, reason="just in case")


@pytest.mark.django_db
def test_unbanning_needs_a_reason(player, moderator):
    user_ban(user=player, staff_user=moderator, reason="spam")
    with pytest.raises(BanError):
        user_unban(user=player, staff_user=moderator, reason=" ")
    assert ban_in_force(player.pk) is not None


@pytest.mark.django_db
def test_ban_and_unban_are_in_the_admin_log_with_their_reasons(player, moderator):
    user_ban(user=player, staff_user=moderator, reason="cheating with a friend")
    user_unban(user=player, staff_user=moderator, reason="wrong person")
    messages = [
        entry.change_message
        for entry in LogEntry.objects.filter(user=moderator, object_id=str(player.pk)).order_by(
            "pk"
        )
    ]
    assert len(messages) == 2
    assert "cheating with a friend" in messages[0]
    assert "wrong person" in messages[1]


@pytest.mark.django_db
def test_a_ban_tells_every_socket_of_the_user_after_commit(
    player, moderator, django_capture_on_commit_callbacks
):
    layer = get_channel_layer()
    # Listen from one long-lived event loop (the Redis pub/sub layer keeps one
    # subscription per loop): the loop games.fanout.transport sends from outside a server.
    loop = _broadcast_loop()

    def on_loop(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=10)

    channel = on_loop(layer.new_channel())
    on_loop(layer.group_add(f"user-{player.pk}", channel))
    received = []
    user_banned.connect(lambda **kwargs: received.append(kwargs), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            ban = user_ban(user=player, staff_user=moderator, reason="abuse")
        assert received == []  # nothing leaves before the commit
        for callback in callbacks:
            callback()
    finally:
        user_banned.disconnect(dispatch_uid="t")
    message = on_loop(layer.receive(channel))
    assert message == {"type": "user.banned", "until": None}
    assert received[0]["user"] == player
    assert received[0]["ban"] == ban


@pytest.mark.django_db
def test_a_moderator_cannot_ban_or_unban_another_staff_account(moderator, finance_user, staff_user):
    with pytest.raises(BanError, match="superusuario"):
        user_ban(user=finance_user, staff_user=moderator, reason="rival")
    assert not Ban.objects.filter(user=finance_user).exists()
    user_ban(user=finance_user, staff_user=staff_user, reason="policy")
    with pytest.raises(BanError, match="superusuario"):
        user_unban(user=finance_user, staff_user=moderator, reason="friend")
    assert Ban.objects.active(timezone.now()).filter(user=finance_user).exists()


@pytest.mark.django_db
def test_a_superuser_bans_and_unbans_a_staff_account(moderator, staff_user):
    user_ban(user=moderator, staff_user=staff_user, reason="leaked a deal")
    assert user_unban(user=moderator, staff_user=staff_user, reason="appeal upheld") == 1


@pytest.mark.django_db
def test_the_admin_offers_no_ban_form_on_a_staff_account_to_a_moderator(
    client, moderator, finance_user
):
    client.force_login(moderator)
    page = client.get(f"/admin/accounts/user/{finance_user.pk}/change/").content.decode()
    assert f"/admin/accounts/user/{finance_user.pk}/ban/" not in page
    response = client.post(
        f"/admin/accounts/user/{finance_user.pk}/ban/", {"reason": "rival", "until": ""}
    )
    assert response.status_code == 403
    assert not Ban.objects.filter(user=finance_user).exists()
