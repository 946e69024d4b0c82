"""The economy's signal receivers, connected in `EconomyConfig.ready()`.

Every new user gets their accounts and the signup bonus: on post_save (not
allauth's user_signed_up) so that users made by createsuperuser, the admin, tests
or a shell get them too. It runs inside the creator's transaction when there is
one; `manage.py seed` backfills any user left without accounts (e.g. created
before this app existed).
"""

from typing import Any

from accounts.models import User
from economy.services import signup_bonus_grant


def grant_signup_bonus(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        signup_bonus_grant(user=instance)
