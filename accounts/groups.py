"""The staff groups and the accounts permissions they hold.

Created by migration 0003 and ensured again after every migrate or flush
(post_migrate), so a test database flushed between tests, or a group deleted
by mistake, gets them back. Other apps add their own permissions to the same
groups (get_or_create on every side).
"""

from __future__ import annotations

from typing import Any

MODERATORS = "moderators"
FINANCE = "finance"

GROUP_PERMISSIONS = {
    MODERATORS: [
        "accounts.view_user",
        "accounts.ban_user",
        "accounts.view_ban",
        "accounts.view_report",
        "accounts.change_report",
        "accounts.view_signin",  # a user's linked accounts (docs/moderation.md)
        "games.view_table",
        "games.view_match",
        "games.change_match",  # aborting a live match (the admin form itself is read-only)
        "daily.view_dailyday",
        "daily.view_dailyentry",
        "daily.view_dailyplay",
        "daily.void_dailyentry",  # voiding a player's daily result, with a reason
        # The collusion screen's review queue (docs/fairplay.md): read the evidence, then
        # dismiss or confirm a flagged pair with a note.
        "fairplay.view_pairflag",
        "fairplay.review_pairflag",
        "fairplay.view_screenrun",
        "fairplay.view_baselineband",
        "fairplay.view_screenedmatch",
    ],
    # Finance staff look users up to post adjustments, but may not ban them.
    FINANCE: ["accounts.view_user"],
}


def ensure_staff_groups(**kwargs: Any) -> None:
    from django.contrib.auth.models import Group, Permission
    from django.db.models import Q

    for name, perms in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        wanted = Q(pk__in=[])
        for perm in perms:
            app_label, codename = perm.split(".")
            wanted |= Q(content_type__app_label=app_label, codename=codename)
        # Permissions of apps not migrated yet are added on a later post_migrate.
        group.permissions.add(*Permission.objects.filter(wanted))
