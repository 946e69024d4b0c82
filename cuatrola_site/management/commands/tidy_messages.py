"""Normalise the .po catalogues after makemessages (a development tool; needs polib).

makemessages stamps every catalogue with a creation date and a fuzzy
placeholder header, which makes every run a change and every parallel branch a
merge conflict. This command gives each catalogue a fixed, complete header.
"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

SKIP_PARTS = {".venv", ".tools", "node_modules", "staticfiles"}


def catalogues(root: Path) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("locale/*/LC_MESSAGES/*.po")
        if not SKIP_PARTS.intersection(path.relative_to(root).parts)
    )


class Command(BaseCommand):
    help = "Give every .po catalogue a fixed header without dates or fuzzy flags."

    def handle(self, *args: Any, **options: Any) -> None:
        import polib

        for path in catalogues(Path(settings.BASE_DIR)):
            language = path.parent.parent.name
            catalogue = polib.pofile(str(path), wrapwidth=100)
            catalogue.header = "Cuatrola Online translations."
            catalogue.metadata_is_fuzzy = False
            catalogue.metadata.update(
                {
                    "Project-Id-Version": "cuatrola-online",
                    "Report-Msgid-Bugs-To": "",
                    "POT-Creation-Date": "",
                    "PO-Revision-Date": "",
                    "Last-Translator": "Cuatrola Online",
                    "Language-Team": language,
                    "Language": language,
                    "MIME-Version": "1.0",
                    "Content-Type": "text/plain; charset=UTF-8",
                    "Content-Transfer-Encoding": "8bit",
                }
            )
            catalogue.save()
            self.stdout.write(str(path.relative_to(settings.BASE_DIR)))
