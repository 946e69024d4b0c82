import pytest
from django.contrib.auth.models import Group


@pytest.mark.django_db
def test_the_migration_creates_both_staff_groups():
    assert set(Group.objects.values_list("name", flat=True)) >= {"moderators", "finance"}


@pytest.mark.django_db
def test_a_moderator_may_ban_and_handle_reports(moderator):
    assert moderator.has_perm("accounts.ban_user")
    assert moderator.has_perm("accounts.view_user")
    assert moderator.has_perm("accounts.change_report")
    assert moderator.has_perm("accounts.view_ban")


@pytest.mark.django_db
def test_a_moderator_cannot_adjust_balances_nor_edit_accounts(moderator):
    assert not moderator.has_perm("economy.adjust_balance")
    assert not moderator.has_perm("accounts.change_user")
    assert not moderator.has_perm("auth.change_group")


@pytest.mark.django_db
def test_a_finance_user_cannot_ban_nor_close_reports(finance_user):
    assert not finance_user.has_perm("accounts.ban_user")
    assert not finance_user.has_perm("accounts.change_report")
    assert not finance_user.has_perm("accounts.view_report")


@pytest.mark.django_db
def test_a_moderator_may_look_at_and_abort_matches_but_finance_may_not(moderator, finance_user):
    assert moderator.has_perm("games.view_match")
    assert moderator.has_perm("games.change_match")
    assert not finance_user.has_perm("games.change_match")
    assert not finance_user.has_perm("games.view_match")


@pytest.mark.django_db
def test_a_moderator_is_refused_a_ledger_adjustment_in_the_admin(client, moderator, player):
    from economy.models import Account, Transaction

    account = Account.objects.filter(user=player).first()
    assert account is not None  # the sign-up grant opened it
    client.force_login(moderator)
    before = Transaction.objects.count()
    url = f"/admin/economy/account/{account.pk}/adjust/"
    assert client.get(url).status_code == 403
    response = client.post(url, {"amount": "1000", "reason": "a gift"})
    assert response.status_code == 403
    assert Transaction.objects.count() == before
