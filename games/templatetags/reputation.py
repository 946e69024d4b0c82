"""The reputation beside a name (docs/fairplay.md): ``{% load reputation %}``.

- ``{{ finished|reputation_low:on_time }}`` — True when either share (matches finished,
  finished without a timed-out turn) is under REPUTATION_LOW_PERCENT: the badge is
  marked low (games/reliability.html; the live table's script reads the same setting).
"""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.filter
def reputation_low(finished: int | None, on_time: int | None = None) -> bool:
    low = int(settings.REPUTATION_LOW_PERCENT)
    return any(value is not None and value < low for value in (finished, on_time))
