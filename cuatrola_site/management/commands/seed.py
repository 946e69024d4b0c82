"""Seed what the site needs to run. Safe to run any number of times.

Each app that needs seed data gives its AppConfig a `seed()` method that
creates what is missing and nothing twice; this command calls them in
INSTALLED_APPS order and reports what each created.
"""

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the rows the site needs (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        for config in apps.get_app_configs():
            seed = getattr(config, "seed", None)
            if seed is None:
                continue
            created = seed()
            self.stdout.write(f"{config.label}: {created or 'nothing new'}")
