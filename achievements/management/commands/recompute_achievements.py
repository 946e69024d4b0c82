"""Grant, from history alone, every achievement the players hold and lack (idempotent)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from achievements.services import achievements_recompute


class Command(BaseCommand):
    help = (
        "Reach, from the settled matches in history and the daily, league and tournament "
        "results, the achievements the live path grants; grants only what is missing "
        "(a second run grants nothing). With --user, only those players (usernames)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--user", action="append", default=[], metavar="USERNAME", help="repeatable"
        )

    def handle(self, *args: Any, user: list[str], **options: Any) -> None:
        user_ids = None
        if user:
            names = [name.strip() for name in user]
            if any(not name for name in names):
                raise CommandError("--user needs a username, not an empty string")
            found = dict(
                get_user_model().objects.filter(username__in=names).values_list("username", "pk")
            )
            missing = sorted(set(names) - set(found))
            if missing:
                raise CommandError(f"no such user: {', '.join(missing)}")
            user_ids = list(found.values())
        awards = achievements_recompute(user_ids=user_ids)
        if not awards:
            self.stdout.write("Nothing to grant: every achievement is up to date.")
            return
        by_code = Counter(award.code for award in awards)
        players = len({award.user_id for award in awards})
        self.stdout.write(f"Granted {len(awards)} achievements to {players} players.")
        for code, number in sorted(by_code.items()):
            self.stdout.write(f"  {code}: {number}")
