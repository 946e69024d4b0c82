"""`manage.py recompute_ratings`: every rating rebuilt from the match history."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = (
        "Rebuild every rating from the finished online and stake matches in date order "
        "(staff resets applied at their moment). Settlements wait while it runs."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        done = ratings_recompute()
        self.stdout.write(
            f"Rated {done.matches} matches ({done.changes} rating changes) for "
            f"{done.players} players, {done.resets} resets, in "
            f"{time.perf_counter() - started:.1f} s."
        )
