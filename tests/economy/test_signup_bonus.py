"""Every user ends up with coin and XP accounts and the signup bonus, however made."""

import pytest
from django.apps import apps
from django.db.models.signals import post_save

from accounts.models import User
from economy.models import Account, Transaction, TransactionKind
from economy.receivers import grant_signup_bonus

pytestmark = pytest.mark.django_db


def test_signing_up_on_the_site_grants_the_bonus(client, password, coins_of):
    client.post(
        "/accounts/signup/",
        {
            "username": "nuevo",
            "email": "nuevo@example.com",
            "password1": password,
            "password2": password,
        },
    )
    user = User.objects.get(username="nuevo")
    assert coins_of(user) == 1000
    assert set(Account.objects.filter(user=user).values_list("currency", flat=True)) == {
        "coins",
        "xp",
    }


def test_a_superuser_made_from_the_command_line_gets_it_too(coins_of):
    admin = User.objects.create_superuser(username="boss", email="b@example.com", password="x")
    assert coins_of(admin) == 1000


def test_saving_a_user_again_grants_nothing_more(player, coins_of):
    player.first_name = "Ana"
    player.save()
    assert coins_of(player) == 1000
    assert Transaction.objects.filter(kind=TransactionKind.SIGNUP_BONUS).count() == 1


def test_seed_backfills_users_created_without_the_signal(coins_of):
    post_save.disconnect(sender=User, dispatch_uid="economy_signup_bonus")
    try:
        old = User.objects.create_user(username="old", email="old@example.com", password="x")
    finally:
        post_save.connect(grant_signup_bonus, sender=User, dispatch_uid="economy_signup_bonus")
    assert not Account.objects.filter(user=old).exists()
    assert "signup bonus for 1 existing users" in apps.get_app_config("economy").seed()
    assert coins_of(old) == 1000
    assert apps.get_app_config("economy").seed() == ""
