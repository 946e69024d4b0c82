from typing import Any

from django import template

from accounts.models import User
from economy.selectors import user_level

register = template.Library()


@register.inclusion_tag("economy/_level.html")
def level_of(user: User) -> dict[str, Any]:
    """A user's level and progress to the next one (profile page)."""
    return {"level": user_level(user)}
