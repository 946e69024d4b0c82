"""`manage.py fairplay_screen`: the nightly collusion screen, run by hand."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from fairplay.services import Limits, screen_run


def _count(value: str) -> int:
    """A whole number of 0 or more, written in ASCII digits."""
    if not value.isascii() or not value.isdigit() or len(value) > 9:
        raise ValueError(value)
    return int(value)


def _moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"--until needs a date or a moment as YYYY-MM-DD[THH:MM], not {value!r}"
        ) from None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
    if moment > timezone.now():
        raise CommandError(
            f"--until is in the future ({moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC)"
        )
    return moment


#: The options that set a limit, with the least each may be.
LIMITS = {
    "window_days": 1,
    "min_together": 2,
    "pair_matches": 1,
    "night_matches": 0,
    "baseline_matches": 0,
    "seconds": 1,
    "samples": 10,
}


class Command(BaseCommand):
    help = (
        "Run the collusion screen now (docs/fairplay.md): candidate pairs over the window, "
        "lucky guesses in their matches not screened yet, coins and results; flags for "
        "staff. Idempotent: a screened match is never analysed again, a flagged pair gets "
        "its evidence updated. Limits default to the FAIRPLAY_* settings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--until", metavar="YYYY-MM-DD[THH:MM]", help="where the window ends (default: now)"
        )
        for name, least in LIMITS.items():
            parser.add_argument(
                f"--{name.replace('_', '-')}",
                metavar="N",
                help=f"a whole number, at least {least}",
            )

    def handle(self, *args: Any, until: str | None = None, **options: Any) -> None:
        overrides: dict[str, int] = {}
        for name, least in LIMITS.items():
            raw = options.get(name)
            if raw is None:
                continue
            flag = f"--{name.replace('_', '-')}"
            try:
                value = _count(raw)
            except ValueError:
                raise CommandError(f"{flag} needs a whole number, not {raw!r}") from None
            if value < least:
                raise CommandError(f"{flag} must be at least {least}, not {value}")
            overrides[name] = value
        now = _moment(until) if until is not None else None
        run = screen_run(now=now, limits=Limits.from_settings(**overrides), log=self.stdout.write)
        self.stdout.write(
            f"Screened {run.pair_matches} matches of {run.candidates} candidate pairs and "
            f"{run.baseline_matches} baseline matches: {run.flags_new} pairs flagged, "
            f"{run.flags_updated} flags updated, in {run.seconds:.1f} s."
        )
