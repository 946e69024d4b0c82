"""Lists existing usernames a reader could mistake for another or for a reserved name,
and names mixing scripts, for staff to review (sign-up refuses new ones)."""

from collections import defaultdict
from typing import Any

from django.core.management.base import BaseCommand

from accounts.lookalikes import is_single_script, username_key
from accounts.models import User
from accounts.validators import RESERVED_USERNAMES, is_reserved


class Command(BaseCommand):
    help = (
        "Report usernames that look like another player's or a reserved name, or mix "
        "scripts (Unicode TR39). Read-only: staff decide what to do with each."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        by_key: dict[str, list[tuple[int, str]]] = defaultdict(list)
        reserved, mixed = [], []
        users = User.objects.order_by("pk").values_list("pk", "username").iterator()
        for pk, username in users:
            by_key[username_key(username)].append((pk, username))
            if is_reserved(username):
                key = username_key(username)
                like = next(
                    (r for r in sorted(RESERVED_USERNAMES) if username_key(r) == key), "bot"
                )
                reserved.append((pk, f"{username!r} (#{pk}), like {like!r}"))
            if not is_single_script(username):
                mixed.append((pk, username))
        groups = [members for members in by_key.values() if len(members) > 1]
        if not (groups or reserved or mixed):
            self.stdout.write("No look-alike usernames.")
            return
        for members in groups:
            names = ", ".join(f"{name!r} (#{pk})" for pk, name in members)
            self.stdout.write(f"look alike each other: {names}")
        for _pk, described in reserved:
            self.stdout.write(f"looks like a reserved name: {described}")
        for pk, name in mixed:
            self.stdout.write(f"mixes scripts: {name!r} (#{pk})")
        total = sum(len(m) for m in groups) + len(reserved) + len(mixed)
        self.stdout.write(f"{total} name(s) to review.")
