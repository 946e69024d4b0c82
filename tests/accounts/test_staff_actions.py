"""Staff actions in the admin, all through one mixin (accounts/staff_actions.py): each
action's page is at `<id>/<action>/`, named `<app>_<model>_<action>`, refused without
its permission, 404 for a row that does not exist, and its button is on the change
page only for staff holding the permission."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib import admin
from django.urls import reverse

from accounts.staff_actions import StaffActionsMixin

ROOT = Path(__file__).resolve().parents[2]


def staff_actions():
    return [
        (model_admin, name)
        for model_admin in admin.site._registry.values()
        if isinstance(model_admin, StaffActionsMixin)
        for name in model_admin.staff_actions
    ]


def url(model_admin, name, pk):
    opts = model_admin.opts
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{name}", args=[pk])


def test_every_staff_action_of_the_site_comes_through_the_mixin():
    found = {
        f"{model_admin.opts.app_label}_{model_admin.opts.model_name}_{name}"
        for model_admin, name in staff_actions()
    }
    assert found == {
        "accounts_user_ban",
        "accounts_user_unban",
        "accounts_report_close",
        "games_match_abort",
        "daily_dailyentry_void",
        "ratings_rating_reset",
        "economy_account_adjust",
        "fairplay_pairflag_dismiss",
        "fairplay_pairflag_confirm",
        "fairplay_pairflag_reopen",
    }
    for model_admin, name in staff_actions():
        assert callable(getattr(model_admin, f"{name}_view"))


def test_no_admin_wires_its_own_urls_or_change_page_flags():
    """The copied get_urls + change_view block is gone: only the mixin defines them."""
    written = [
        str(path.relative_to(ROOT))
        for path in sorted(ROOT.glob("*/admin.py"))
        if "def get_urls(" in path.read_text(encoding="utf-8")
    ]
    assert written == []


@pytest.mark.django_db
def test_a_staff_action_on_a_row_that_does_not_exist_is_404(client, make_user):
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    for model_admin, name in staff_actions():
        assert client.get(url(model_admin, name, 987654)).status_code == 404, name


@pytest.mark.django_db
def test_a_staff_action_is_refused_to_staff_without_its_permission(client, make_user, player):
    client.force_login(make_user("clerk", is_staff=True))
    for model_admin, name in staff_actions():
        assert client.get(url(model_admin, name, player.pk)).status_code == 403, name
