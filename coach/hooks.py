"""How the coach's services queue an analysis without importing the task runner.

`CoachConfig.ready()` registers `coach.runner.analysis_schedule`; the services
call `analysis_queue` after commit. With nothing registered (a script that never
set Django's apps up), nothing is queued.
"""

from __future__ import annotations

from collections.abc import Callable

_scheduler: Callable[[int], None] | None = None


def register_analysis_scheduler(scheduler: Callable[[int], None]) -> None:
    global _scheduler
    _scheduler = scheduler


def analysis_queue(analysis_id: int) -> None:
    """Start (or queue) the analysis `analysis_id`; called after the commit that stored it."""
    if _scheduler is not None:
        _scheduler(analysis_id)
