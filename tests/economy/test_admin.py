"""The ledger in the admin: read-only, with a staff adjustment form and editable products."""

import uuid

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group
from django.urls import reverse

from economy.models import Account, AccountKind, Product, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def finance_staff(make_user):
    user = make_user("cashier", is_staff=True)
    user.groups.add(Group.objects.get(name="finance"))
    return user


@pytest.fixture
def moderator(make_user):
    user = make_user("moddy", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def coin_account(user) -> Account:
    return Account.objects.get(kind=AccountKind.USER, user=user, currency="coins")


def adjust_url(user) -> str:
    return reverse("admin:economy_account_adjust", args=[coin_account(user).pk])


def post_adjustment(client, user, **data):
    data.setdefault("key", str(uuid.uuid4()))
    return client.post(adjust_url(user), data)


def test_finance_adjusts_a_balance_with_a_reason_and_it_is_logged(
    client, finance_staff, player, coins_of
):
    client.force_login(finance_staff)
    response = post_adjustment(client, player, amount="-250", reason="chargeback")
    assert response.status_code == 302
    assert coins_of(player) == 750
    txn = Transaction.objects.get(kind=TransactionKind.ADJUSTMENT)
    assert txn.staff_user == finance_staff and txn.memo == "chargeback"
    assert LogEntry.objects.filter(user=finance_staff, change_message__contains="chargeback")


def test_the_same_adjustment_form_posted_twice_adjusts_once(
    client, finance_staff, player, coins_of
):
    client.force_login(finance_staff)
    key = str(uuid.uuid4())
    post_adjustment(client, player, amount="40", reason="goodwill", key=key)
    post_adjustment(client, player, amount="40", reason="goodwill", key=key)
    assert coins_of(player) == 1040


@pytest.mark.parametrize(
    "data",
    [
        {"amount": "10", "reason": ""},
        {"amount": "10", "reason": "   "},
        {"amount": "0", "reason": "nothing"},
        {"amount": "ten", "reason": "letters"},
        {"amount": "-1001", "reason": "too much"},
        {"amount": "10", "reason": "no key", "key": "bad"},
    ],
)
def test_a_bad_adjustment_is_refused_and_posts_nothing(
    client, finance_staff, player, coins_of, data
):
    client.force_login(finance_staff)
    response = post_adjustment(client, player, **data)
    assert response.status_code == 400
    assert "errorlist" in response.text
    assert coins_of(player) == 1000
    assert not Transaction.objects.filter(kind=TransactionKind.ADJUSTMENT).exists()


def test_staff_without_the_finance_permission_cannot_adjust(client, moderator, player, coins_of):
    client.force_login(moderator)
    assert client.get(adjust_url(player)).status_code == 403
    assert post_adjustment(client, player, amount="5", reason="x").status_code == 403
    assert coins_of(player) == 1000


def test_a_player_cannot_reach_the_adjustment_form(client, player, stranger, coins_of):
    client.force_login(stranger)
    response = post_adjustment(client, player, amount="5000", reason="me")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert coins_of(player) == 1000


def test_a_system_account_cannot_be_adjusted(client, finance_staff, player):
    client.force_login(finance_staff)
    issuance = Account.objects.get(kind=AccountKind.ISSUANCE, currency="coins")
    url = reverse("admin:economy_account_adjust", args=[issuance.pk])
    assert client.get(url).status_code == 404


def test_accounts_and_entries_are_read_only(client, finance_staff, player):
    client.force_login(finance_staff)
    account = coin_account(player)
    change = client.get(reverse("admin:economy_account_change", args=[account.pk]))
    assert change.status_code == 200 and 'name="balance"' not in change.text
    assert client.get(reverse("admin:economy_account_add")).status_code == 403
    assert client.get(reverse("admin:economy_entry_changelist")).status_code == 200
    assert client.get(reverse("admin:economy_entry_add")).status_code == 403
    delete = reverse("admin:economy_transaction_delete", args=[Transaction.objects.first().pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403


def test_the_adjust_action_opens_the_form_for_one_user_account(client, finance_staff, player):
    client.force_login(finance_staff)
    response = client.post(
        reverse("admin:economy_account_changelist"),
        {"action": "adjust_balance", "_selected_action": [coin_account(player).pk]},
    )
    assert response.status_code == 302 and response["Location"] == adjust_url(player)


def test_finance_edits_a_price_and_switches_a_product_off(client, finance_staff):
    client.force_login(finance_staff)
    product = Product.objects.get(code="booster-1h")
    url = reverse("admin:economy_product_change", args=[product.pk])
    response = client.post(
        url,
        {
            "code": product.code,
            "name": product.name,
            "effect": product.effect,
            "price": "175",
            "duration": "02:00:00",
            "position": "0",
        },
    )
    assert response.status_code == 302
    product.refresh_from_db()
    assert product.price == 175 and not product.active
    assert str(product.duration) == "2:00:00"


def test_the_finance_group_holds_the_economy_permissions_and_moderators_do_not(
    finance_staff, moderator
):
    assert finance_staff.has_perm("economy.adjust_balance")
    assert finance_staff.has_perm("economy.change_product")
    assert not finance_staff.has_perm("economy.change_entry")
    assert not moderator.has_perm("economy.adjust_balance")
    assert not moderator.has_perm("economy.view_account")


@pytest.mark.parametrize("target", ["self", "moderator"])
def test_finance_cannot_adjust_a_staff_account_only_a_superuser_can(
    client, finance_staff, moderator, staff_user, coins_of, target
):
    account = finance_staff if target == "self" else moderator
    client.force_login(finance_staff)
    response = post_adjustment(client, account, amount="5000", reason="bonus")
    assert "Solo un superusuario" in response.content.decode()
    assert coins_of(account) == 1000
    client.force_login(staff_user)
    post_adjustment(client, account, amount="5000", reason="prize")
    assert coins_of(account) == 6000
