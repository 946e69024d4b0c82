from __future__ import annotations

from typing import Any

from django import template

from notifications import push

register = template.Library()


@register.inclusion_tag("notifications/_push.html")
def push_offer(always: bool = False) -> dict[str, Any]:
    """The offer to turn on push on this device (static/js/push.js shows it, or not)."""
    return {"vapid_public_key": push.public_key(), "always": always}
