from django import template

from economy.selectors import user_level

register = template.Library()


@register.inclusion_tag("economy/_level.html")
def level_of(user):
    """A user's level and progress to the next one (profile page)."""
    return {"level": user_level(user)}
