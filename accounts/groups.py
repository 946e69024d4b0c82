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
    MODERATORS: ["view_user", "ban_user", "view_ban", "view_report", "change_report"],
    # Finance staff look users up to post adjustments, but may not ban them.
    FINANCE: ["view_user"],
}


def ensure_staff_groups(**kwargs: Any) -> None:
    from django.contrib.auth.models import Group, Permission

    for name, codenames in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label="accounts", codename__in=codenames)
        )
