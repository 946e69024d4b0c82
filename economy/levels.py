"""Levels from XP: reaching level n needs STEP*n*(n-1)/2 XP in total (PLATFORM.md)."""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

from django.conf import settings


def xp_for_level(level: int, *, step: int | None = None) -> int:
    """Total XP needed to reach `level` (level 1 needs 0)."""
    step = settings.ECONOMY_LEVEL_STEP_XP if step is None else step
    return step * level * (level - 1) // 2


@dataclass(frozen=True)
class LevelProgress:
    level: int
    xp: int
    level_start: int  # total XP at which this level began
    next_level_at: int  # total XP needed for the next level

    @property
    def into_level(self) -> int:
        return self.xp - self.level_start

    @property
    def span(self) -> int:
        return self.next_level_at - self.level_start

    @property
    def percent(self) -> int:
        return 100 * self.into_level // self.span if self.span else 100


def level_progress(xp: int, *, step: int | None = None) -> LevelProgress:
    """The level reached with `xp` total XP, and the way to the next one."""
    step = settings.ECONOMY_LEVEL_STEP_XP if step is None else step
    xp = max(0, xp)
    # Largest n with step*n(n-1)/2 <= xp: solve n² - n - 2xp/step <= 0, then correct.
    level = max(1, (1 + isqrt(1 + 8 * xp // step)) // 2)
    while xp_for_level(level + 1, step=step) <= xp:
        level += 1
    while level > 1 and xp_for_level(level, step=step) > xp:
        level -= 1
    return LevelProgress(
        level=level,
        xp=xp,
        level_start=xp_for_level(level, step=step),
        next_level_at=xp_for_level(level + 1, step=step),
    )
