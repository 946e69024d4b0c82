"""Writes the drawn deck (games/card_art.py) to static/cards/."""

from typing import Any

from django.core.management.base import BaseCommand

from games.card_art import write_drawings


class Command(BaseCommand):
    help = "Draw the twenty card faces and the back as SVG files in static/cards/."

    def handle(self, *args: Any, **options: Any) -> None:
        written = write_drawings()
        total = sum(path.stat().st_size for path in written)
        self.stdout.write(f"{len(written)} drawings written ({total} bytes) to {written[0].parent}")
