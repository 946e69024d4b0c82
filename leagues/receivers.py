"""The league's signal receivers, connected in `LeaguesConfig.ready()`: every new user
starts in Bronze, their membership row created with the user."""

from typing import Any

from accounts.models import User
from leagues.services import league_membership_ensure


def membership_on_signup(
    sender: type[User], instance: User, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        league_membership_ensure(user=instance)
