"""Every new user gets their accounts and the signup bonus.

post_save (not allauth's user_signed_up) so that users made by createsuperuser,
the admin, tests or a shell get them too. It runs inside the creator's
transaction when there is one; `manage.py seed` backfills any user left
without accounts (e.g. created before this app existed).
"""

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from accounts.models import User

# Sent after the commit of a ledger transaction that moved users' balances, with
# `user_ids` and the transaction's `kind` (the signup bonus aside: nobody watches a
# balance yet). The games app tells those users' open sockets their new balance.
balances_changed = Signal()


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="economy_signup_bonus")
def grant_signup_bonus(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        from economy.services import signup_bonus_grant

        signup_bonus_grant(user=instance)
